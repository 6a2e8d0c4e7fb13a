/// `icon-text-fit`, as evaluated for one feature: read with the icon, applied once the feature's
/// text is shaped, since the icon takes the text's box.
struct IconFitting {
    let mode: IconTextFit
    /// `icon-text-fit-padding`, CSS pixels.
    let padding: (top: Double, right: Double, bottom: Double, left: Double)
    /// `icon-offset`, CSS pixels at `icon-size` 1.
    let offset: (x: Double, y: Double)
    /// `icon-size`: MapLibre scales the whole fitted box by it (the text's box, the padding and
    /// the offset), while the fixed parts of a stretchable image keep their pixel size.
    let size: Double
    /// Device pixels per CSS pixel.
    let pixelRatio: Double

    /// The sprite icon `paint` fitted to a text's `textBox` (device pixels around the anchor)
    /// and turned `turn` more degrees, with the box it claims; nil when nothing of it can be drawn.
    func variant(_ paint: IconPaint, textBox: FrameDescription.ScreenBox, turn: Double) -> SymbolSet.Icon.Variant? {
        let icon = paint.icon, r = pixelRatio
        let text = FrameDescription.ScreenBox(minX: textBox.minX / r, minY: textBox.minY / r, maxX: textBox.maxX / r, maxY: textBox.maxY / r)
        var box = mode.box(text: text, imageSize: (icon.width, icon.height), padding: padding, offset: offset)
        var claim = box
        if let c = icon.content {
            // The content spans the fitted box: what lies outside it reaches further, and
            // claims its room too (MapLibre's collision padding, in the image's CSS pixels).
            box = IconTextFit.constrained(box, contentAspect: (c.x2 - c.x1) / (c.y2 - c.y1), width: icon.textFitWidth, height: icon.textFitHeight)
            let ratio = icon.pixelRatio
            claim = .init(minX: box.minX - c.x1 / ratio, minY: box.minY - c.y1 / ratio,
                          maxX: box.maxX + icon.width - c.x2 / ratio, maxY: box.maxY + icon.height - c.y2 / ratio)
        }
        guard let slices = IconSlices(icon: icon, box: box, size: size, scale: r) else { return nil }
        var p = paint
        p.slices = slices
        p.rotate = degrees(p.rotate + turn)
        let s = size * r
        claim = .init(minX: claim.minX * s, minY: claim.minY * s, maxX: claim.maxX * s, maxY: claim.maxY * s)
        // (Turned a quarter clockwise with vertical text: x' = −y, y' = x.)
        if turn == 90 { claim = .init(minX: -claim.maxY, minY: claim.minX, maxX: -claim.minY, maxY: claim.maxX) }
        return .init(image: .sprite(p), box: claim)
    }
}

extension StyledLayer.PendingIcon {
    /// The icon fitted to `text`: its horizontal shaping's box, and its vertical shaping's box
    /// turned with it when it has one (MapLibre fits an icon to each). Unchanged when not fitted
    /// (no `icon-text-fit`, or a vector icon, which has no sprite image to stretch) or when the
    /// fit leaves nothing to draw (an empty box).
    func fitted(to text: SymbolSet.Text) -> Self {
        guard let fitting, case let .sprite(paint) = icon.image else { return self }
        guard let horizontal = fitting.variant(paint, textBox: text.box, turn: 0) else { return self }
        let vertical = text.vertical.flatMap { fitting.variant(paint, textBox: text.box($0), turn: 90) }
        var copy = self
        copy.icon = .init(image: horizontal.image, box: horizontal.box, collision: icon.collision, followsText: true, vertical: vertical)
        copy.icon.pitchesWithMap = icon.pitchesWithMap
        return copy
    }
}
