import MapCore
import Raster
import Testing

/// `icon-text-fit`: the icon's box fitted to its text's box as MapLibre fits it
/// (`fitIconToText`, `applyTextFit`), and the cuts that lay a stretchable image over it (its
/// icon quads). Lengths in CSS pixels unless a scale says otherwise.
@Suite struct IconTextFitTests {
    typealias Box = FrameDescription.ScreenBox
    /// A text box 80 wide and 40 high, off the anchor's centre (MapLibre's own test's).
    let text = Box(minX: -60, minY: -10, maxX: 20, maxY: 30)
    let noPadding = (top: 0.0, right: 0.0, bottom: 0.0, left: 0.0)

    func icon(width: Int, height: Int, pixelRatio: Double = 1, stretchX: [ClosedRange<Double>]? = nil,
              stretchY: [ClosedRange<Double>]? = nil, content: SpriteIcon.Content? = nil) -> SpriteIcon {
        SpriteIcon(name: "i", image: Pixmap(width: width, height: height), pixelRatio: pixelRatio, sdf: false,
                   stretchX: stretchX, stretchY: stretchY, content: content)
    }

    @Test func widthSpansTheTextAndCentresTheHeight() {
        let box = IconTextFit.width.box(text: text, imageSize: (20, 20), padding: noPadding, offset: (0, 0))
        #expect(box == Box(minX: -60, minY: 0, maxX: 20, maxY: 20))
        // icon-offset moves the fitted box.
        let moved = IconTextFit.width.box(text: text, imageSize: (20, 20), padding: noPadding, offset: (3, 7))
        #expect(moved == Box(minX: -57, minY: 7, maxX: 23, maxY: 27))
    }

    @Test func heightSpansTheTextAndCentresTheWidth() {
        let box = IconTextFit.height.box(text: text, imageSize: (20, 20), padding: noPadding, offset: (0, 0))
        #expect(box == Box(minX: -30, minY: -10, maxX: -10, maxY: 30))
    }

    @Test func paddingIsTopRightBottomLeftOnTheFittedAxesOnly() {
        let padding = (top: 1.0, right: 2.0, bottom: 3.0, left: 4.0)
        #expect(IconTextFit.both.box(text: text, imageSize: (20, 20), padding: padding, offset: (0, 0))
            == Box(minX: -64, minY: -11, maxX: 22, maxY: 33))
        // A width fit ignores the top and bottom padding (that axis is the image's own).
        #expect(IconTextFit.width.box(text: text, imageSize: (20, 20), padding: padding, offset: (0, 0))
            == Box(minX: -64, minY: 0, maxX: 22, maxY: 20))
    }

    /// MapLibre's applyTextFit cases: a box of 14 x 14 against content of aspect 9 (90 x 10).
    @Test func textFitModesKeepTheContentAspectWhereAsked() {
        let square = Box(minX: 0, minY: 0, maxX: 14, maxY: 14)
        func fit(_ w: TextFit, _ h: TextFit, aspect: Double = 9) -> Box {
            IconTextFit.constrained(square, contentAspect: aspect, width: w, height: h)
        }
        #expect(fit(.stretchOrShrink, .stretchOrShrink) == square)
        // A proportional height widens a stretchOnly width to the aspect (rounded up)...
        #expect(fit(.stretchOnly, .proportional) == Box(minX: 0, minY: 0, maxX: 126, maxY: 14))
        // (to a whole pixel: 14 x 9.25 = 129.5)...
        #expect(fit(.stretchOnly, .proportional, aspect: 9.25) == Box(minX: 0, minY: 0, maxX: 130, maxY: 14))
        // ... and sets a proportional width, even to narrow it.
        #expect(fit(.proportional, .proportional, aspect: 0.5) == Box(minX: 0, minY: 0, maxX: 7, maxY: 14))
        // stretchOnly never narrows.
        #expect(fit(.stretchOnly, .proportional, aspect: 0.5) == square)
        // A proportional width grows a stretchOnly height only (content taller than the box).
        #expect(fit(.proportional, .stretchOnly, aspect: 0.5) == Box(minX: 0, minY: 0, maxX: 14, maxY: 28))
        #expect(fit(.proportional, .stretchOrShrink, aspect: 0.5) == square)
        // The box grows away from the anchor in proportion.
        let centred = IconTextFit.constrained(Box(minX: -7, minY: -7, maxX: 7, maxY: 7), contentAspect: 9,
                                              width: .stretchOnly, height: .proportional)
        #expect(centred == Box(minX: -63, minY: -7, maxX: 63, maxY: 7))
    }

    @Test func aPlainImageIsScaledOverTheBoxWithItsTransparentPixel() throws {
        let slices = try #require(IconSlices(icon: icon(width: 20, height: 10), box: Box(minX: -50, minY: -10, maxX: 50, maxY: 10),
                                             size: 1, scale: 2))
        // 100 CSS px for 20 image px: the padding pixel is 5 px wide; 2 device px per CSS px.
        #expect(slices.x == [.init(position: -110, image: -1), .init(position: 110, image: 21)])
        #expect(slices.y == [.init(position: -24, image: -1), .init(position: 24, image: 11)])
    }

    @Test func stretchZonesTakeTheExtraLengthAndFixedPartsKeepTheirPixels() throws {
        let nine = icon(width: 40, height: 40, stretchX: [10...30], stretchY: [10...30])
        let slices = try #require(IconSlices(icon: nine, box: Box(minX: -50, minY: -20, maxX: 50, maxY: 20), size: 1, scale: 1))
        #expect(slices.x.map(\.position) == [-51, -40, 40, 51])
        #expect(slices.x.map(\.image) == [-1, 10, 30, 41])
        #expect(slices.y.map(\.position) == [-21, -10, 10, 21])
        // Half way through the stretch zone shows the zone's middle.
        #expect(IconSlices.image(at: 0, slices.x) == 20)
        #expect(abs((IconSlices.image(at: -45, slices.x) ?? 0) - 5) < 1e-9)
        #expect(IconSlices.image(at: 60, slices.x) == nil)
    }

    @Test func theContentBoxNotTheWholeImageSpansTheFittedBox() throws {
        // Stretchable: the content (the stretch zone) spans the box; the fixed corners lie outside.
        let nine = icon(width: 40, height: 40, stretchX: [10...30], stretchY: [10...30], content: .init(x1: 10, y1: 10, x2: 30, y2: 30))
        let stretched = try #require(IconSlices(icon: nine, box: Box(minX: -50, minY: -20, maxX: 50, maxY: 20), size: 1, scale: 1))
        #expect(stretched.x.map(\.position) == [-61, -50, 50, 61])
        // Plain: the content's 10 px span the box's 20; the rest reaches beyond.
        let plain = icon(width: 20, height: 20, content: .init(x1: 5, y1: 5, x2: 15, y2: 15))
        let scaled = try #require(IconSlices(icon: plain, box: Box(minX: -10, minY: -10, maxX: 10, maxY: 10), size: 1, scale: 1))
        #expect(scaled.x == [.init(position: -22, image: -1), .init(position: 22, image: 21)])
    }

    @Test func iconSizeScalesTheStretchedPartButNeverBelowTheFixedParts() throws {
        let nine = icon(width: 40, height: 40, stretchX: [10...30], stretchY: [10...30])
        // icon-size 2: the box doubles, the fixed 10-px parts stay 10 px.
        let big = try #require(IconSlices(icon: nine, box: Box(minX: -50, minY: -20, maxX: 50, maxY: 20), size: 2, scale: 1))
        #expect(big.x.map(\.position) == [-101, -90, 90, 101])
        // A box narrower than the fixed parts (10 for 20 px): scaled up until they fit.
        let narrow = try #require(IconSlices(icon: nine, box: Box(minX: -5, minY: -20, maxX: 5, maxY: 20), size: 0.5, scale: 1))
        #expect(narrow.x.map(\.position) == [-11, 0, 0, 11])
    }

    @Test func anEmptyBoxDrawsNothing() {
        #expect(IconSlices(icon: icon(width: 20, height: 10), box: Box(minX: 0, minY: -5, maxX: 0, maxY: 5), size: 1, scale: 1) == nil)
    }
}
