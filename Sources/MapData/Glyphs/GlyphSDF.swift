import CFreeType
import MapCore

/// One font face whose glyphs become `SDFGlyph`s of the form glyph servers serve, so a label
/// can mix glyphs from a style's PBFs with glyphs of local fonts.
///
/// The metrics are node-fontnik's (the server behind the PBFs MapLibre's tests use): the face
/// at 24 px (`FT_Set_Char_Size(face, 0, 24 * 64, 0, 0)`), a glyph loaded unhinted
/// (`FT_LOAD_NO_HINTING`) and rendered anti-aliased by FreeType (`FT_RENDER_MODE_NORMAL`); its
/// box is the bitmap's (width, rows, left = bitmap_left), its advance
/// `metrics.horiAdvance / 64` truncated, and its top `bitmap_top - size.metrics.ascender / 64`,
/// truncated (fontnik's `face::glyph_dimensions` and `set_top(glyph.top - glyph.ascender)`;
/// its later outline renderer, sdf-glyph-foundry, keeps `top - ascender`). So `top` is measured
/// from the face's ascender line, which for Open Sans at 24 px lies 26 px above the baseline.
/// Checked against MapLibre's fixture PBF (Open Sans Semibold 0-255): this arithmetic on Open
/// Sans Semibold 1.10 with FreeType 2.13 gives 184 of its 191 glyphs the PBF's width, height,
/// left, top and advance exactly; the other 7 (the fractions, Å, Ì, Î, ï) differ by one pixel
/// in one of them (another build of the font or of FreeType). The field is TinySDF's
/// (`TinySDF`), computed over the rendered bitmap with a 3-px border, as fontnik's was over
/// its bitmap.
///
/// Runs of complex scripts are shaped by HarfBuzz over the same file (`shape`), and each of
/// their glyphs rendered by glyph index (`glyph(index:id:ascender:)`) with the same metrics.
///
/// Not thread-safe: one thread at a time (FreeType faces are not); `LocalGlyphs` holds a lock.
public final class SDFFontFace: @unchecked Sendable {
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    private var library: FT_Library?
    private var face: FT_Face?
    /// A face read from memory reads from these bytes for as long as it lives.
    private var bytes: UnsafeMutableBufferPointer<UInt8>?
    /// The file and face index of a face read from a file (HarfBuzz reads the same).
    private var file: (path: String, index: Int)?
    /// HarfBuzz's font over the same face, made when a run is first shaped (most faces only
    /// ever draw code points); .some(nil) when HarfBuzz cannot read it.
    private var harfBuzz: HarfBuzzFont??

    /// The family and style the face names itself with ("DejaVu Sans Bold").
    public let name: String

    /// Face `index` of the font file at `path`.
    public convenience init(path: String, index: Int = 0) throws {
        try self.init(subject: path) { library, face in FT_New_Face(library, path, FT_Long(index), &face) }
        file = (path, index)
    }

    /// The first face of a font file's `bytes` (copied), called `subject` in errors.
    public convenience init(bytes: [UInt8], subject: String) throws {
        let copy = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: max(1, bytes.count))
        _ = copy.initialize(from: bytes)
        do {
            try self.init(subject: subject) { library, face in
                FT_New_Memory_Face(library, copy.baseAddress, FT_Long(bytes.count), 0, &face)
            }
        } catch {
            copy.deallocate()
            throw error
        }
        self.bytes = copy
    }

    private init(subject: String, open: (FT_Library, inout FT_Face?) -> FT_Error) throws {
        var library: FT_Library?
        guard FT_Init_FreeType(&library) == 0, let library else { throw Failure(description: "\(subject): FreeType did not start") }
        var opened: FT_Face?
        do {
            let status = open(library, &opened)
            guard status == 0, let face = opened else { throw Failure(description: "\(subject): not a font FreeType can read (error \(status))") }
            // Outlines only: a bitmap-only face (colour emoji strikes) has no 24-px field to make.
            guard face.pointee.face_flags & FT_Long(FT_FACE_FLAG_SCALABLE) != 0 else {
                throw Failure(description: "\(subject): a bitmap font, without outlines")
            }
            let size = FT_Set_Char_Size(face, 0, FT_F26Dot6(SDFGlyph.em * 64), 0, 0)
            guard size == 0 else { throw Failure(description: "\(subject): cannot be sized to 24 px (error \(size))") }
            name = [face.pointee.family_name, face.pointee.style_name].compactMap { $0.map { String(cString: $0) } }.joined(separator: " ")
        } catch {
            // deinit does not run for an instance that never finished initializing.
            FT_Done_FreeType(library)
            throw error
        }
        self.library = library
        self.face = opened
    }

    deinit {
        // HarfBuzz's font first: it may read from `bytes`.
        harfBuzz = nil
        if let face { FT_Done_Face(face) }
        if let library { FT_Done_FreeType(library) }
        bytes?.deallocate()
    }

    /// The ascender line at 24 px, in pixels above the baseline (as FreeType sizes it, a whole
    /// pixel): the line glyph tops are measured from.
    public var ascender: Double {
        guard let face else { return 0 }
        return Double(face.pointee.size.pointee.metrics.ascender) / 64
    }

    /// Whether the face maps `codePoint` to a glyph (FreeType's glyph 0 is the missing-glyph box).
    public func hasGlyph(_ codePoint: UInt32) -> Bool {
        guard let face else { return false }
        return FT_Get_Char_Index(face, FT_ULong(codePoint)) != 0
    }

    /// The glyph for `codePoint`, its top measured from `ascender` (the face's own by
    /// default; another face's to put a fallback glyph on that face's baseline): nil when the
    /// face lacks it, a failure when it cannot be loaded or rendered or its ink is larger than
    /// `GlyphRange.maxSide` at 24 px (no label glyph is; a broken font's may be).
    public func glyph(_ codePoint: UInt32, ascender: Double? = nil) -> Result<SDFGlyph, Failure>? {
        guard let face else { return nil }
        let index = FT_Get_Char_Index(face, FT_ULong(codePoint))
        guard index != 0 else { return nil }
        return render(index, codePoint: codePoint, subject: "glyph \(codePoint)", ascender: ascender)
    }

    /// Glyph `index` of the face (a glyph HarfBuzz chose: a conjunct, a positional form), as
    /// `glyph(_:ascender:)` makes a code point's, its `codePoint` being `id`: nil when the face
    /// has no such glyph (or it is glyph 0, the missing-glyph box), else the same as there.
    public func glyph(index: UInt32, id: UInt32, ascender: Double? = nil) -> Result<SDFGlyph, Failure>? {
        guard let face, index != 0, index < UInt32(clamping: face.pointee.num_glyphs) else { return nil }
        return render(index, codePoint: id, subject: "glyph index \(index)", ascender: ascender)
    }

    /// `codePoints`, a run of one left-to-right script, shaped by HarfBuzz over this face at
    /// 24 px: its glyphs in visual order (glyph 0 where the face lacks a character); nil when
    /// HarfBuzz cannot read the face.
    func shape(_ codePoints: [UInt32]) -> [HarfBuzzFont.Glyph]? {
        if harfBuzz == nil {
            if let file {
                harfBuzz = .some(HarfBuzzFont(path: file.path, index: file.index))
            } else if let bytes {
                harfBuzz = .some(HarfBuzzFont(bytes: UnsafeBufferPointer(bytes)))
            } else {
                harfBuzz = .some(nil)
            }
        }
        guard let font = harfBuzz ?? nil else { return nil }
        return font.shape(codePoints)
    }

    /// Renders glyph `index` (not 0) into a field with fontnik's metrics; `subject` names it in failures.
    private func render(_ index: FT_UInt, codePoint: UInt32, subject: @autoclosure () -> String,
                        ascender: Double?) -> Result<SDFGlyph, Failure>? {
        guard let face else { return nil }
        let loaded = FT_Load_Glyph(face, index, FT_Int32(FT_LOAD_NO_HINTING | FT_LOAD_NO_BITMAP))
        guard loaded == 0, let slot = face.pointee.glyph, slot.pointee.format == FT_GLYPH_FORMAT_OUTLINE else {
            return .failure(Failure(description: "\(subject()) cannot be loaded (error \(loaded))"))
        }
        // Checked before rendering too, so a broken outline does not get a bitmap of gigabytes.
        let tooLarge = Failure(description: "\(subject()) is larger than \(GlyphRange.maxSide) px at 24 px")
        var box = FT_BBox()
        FT_Outline_Get_CBox(&slot.pointee.outline, &box)
        let limit = FT_Pos(GlyphRange.maxSide * 64)
        guard box.xMax - box.xMin < limit, box.yMax - box.yMin < limit else { return .failure(tooLarge) }
        let rendered = FT_Render_Glyph(slot, FT_RENDER_MODE_NORMAL)
        let bitmap = slot.pointee.bitmap
        guard rendered == 0, bitmap.width == 0 || bitmap.pixel_mode == UInt8(FT_PIXEL_MODE_GRAY.rawValue),
              Int(bitmap.pitch) >= Int(bitmap.width) else {
            return .failure(Failure(description: "\(subject()) cannot be rendered (error \(rendered))"))
        }
        // The bitmap is the box rounded out to whole pixels: up to a pixel wider than the box.
        guard bitmap.width <= GlyphRange.maxSide, bitmap.rows <= GlyphRange.maxSide else { return .failure(tooLarge) }
        let top = (Double(slot.pointee.bitmap_top) - (ascender ?? self.ascender)).rounded(.towardZero)
        let left = Double(slot.pointee.bitmap_left)
        let advance = Double(Int(slot.pointee.metrics.horiAdvance) / 64)
        let width = Int(bitmap.width), height = Int(bitmap.rows)
        guard width > 0, height > 0, let pixels = bitmap.buffer else {
            return .success(SDFGlyph(codePoint: codePoint, width: 0, height: 0, left: left, top: top, advance: advance, bitmap: []))
        }
        let field = TinySDF.field(UnsafeBufferPointer(start: pixels, count: Int(bitmap.pitch) * height),
                                  width: width, height: height, pitch: Int(bitmap.pitch))
        return .success(SDFGlyph(codePoint: codePoint, width: width, height: height, left: left, top: top, advance: advance, bitmap: field))
    }
}

/// The signed distance field of an anti-aliased bitmap exactly as TinySDF 2.0.7 makes it
/// (mapbox/tiny-sdf index.js `draw`), the way MapLibre draws local glyphs, at the glyph
/// servers' scale (24 px, a 3-px border, radius 8, cutoff 0.25): the bitmap set in a grid with
/// the border around it; a pixel of coverage 1 is inside, 0 outside, and one in between is
/// (0.5 - a) px outside (or inside when negative), seeded as that distance squared; two
/// squared Euclidean distance transforms (Felzenszwalb and Huttenlocher), one to the nearest
/// inside pixel over the whole grid and one to the nearest outside pixel over the bitmap's box
/// alone (as TinySDF does, so a box edge of full coverage reads as deep inside); and
/// d = outer - inner mapped to round(255 - 255 * (d / radius + cutoff)), clamped: the edge at
/// 191.25, 32 steps a pixel.
enum TinySDF {
    static let border = SDFGlyph.border
    static let radius = 8.0
    static let cutoff = 0.25
    /// TinySDF's infinity: squared distances that large read as "no such pixel".
    static let infinity = 1e20

    /// The (width + 6) x (height + 6) field of a `width` x `height` coverage bitmap (`pitch`
    /// bytes a row, 0 to 255).
    static func field(_ coverage: UnsafeBufferPointer<UInt8>, width: Int, height: Int, pitch: Int) -> [UInt8] {
        let gridWidth = width + 2 * border, gridHeight = height + 2 * border
        let count = gridWidth * gridHeight
        var outer = [Double](repeating: infinity, count: count)
        var inner = [Double](repeating: 0, count: count)
        for y in 0..<height {
            for x in 0..<width {
                let a = coverage[y * pitch + x]
                guard a != 0 else { continue }
                let j = (y + border) * gridWidth + x + border
                if a == 255 {
                    outer[j] = 0
                    inner[j] = infinity
                } else {
                    let d = 0.5 - Double(a) / 255
                    outer[j] = d > 0 ? d * d : 0
                    inner[j] = d < 0 ? d * d : 0
                }
            }
        }
        var scratch = EDTScratch(length: max(gridWidth, gridHeight))
        edt(&outer, x0: 0, y0: 0, width: gridWidth, height: gridHeight, gridWidth: gridWidth, &scratch)
        edt(&inner, x0: border, y0: border, width: width, height: height, gridWidth: gridWidth, &scratch)
        return [UInt8](unsafeUninitializedCapacity: count) { out, initialized in
            for i in 0..<count {
                let d = outer[i].squareRoot() - inner[i].squareRoot()
                // JavaScript's Math.round (halves up), then Uint8ClampedArray's clamp.
                let v = (255 - 255 * (d / radius + cutoff) + 0.5).rounded(.down)
                out[i] = UInt8(min(255, max(0, v)))
            }
            initialized = count
        }
    }

    /// Work arrays of the 1-D transform: the sampled function, the parabolas' vertices and the
    /// boundaries between them.
    struct EDTScratch {
        var f: [Double], v: [Int], z: [Double]
        init(length: Int) {
            f = [Double](repeating: 0, count: length)
            v = [Int](repeating: 0, count: length)
            z = [Double](repeating: 0, count: length + 1)
        }
    }

    /// The 2-D squared distance transform of the `width` x `height` box at (`x0`, `y0`) of
    /// `grid` (rows of `gridWidth`), in place: columns, then rows.
    static func edt(_ grid: inout [Double], x0: Int, y0: Int, width: Int, height: Int, gridWidth: Int, _ scratch: inout EDTScratch) {
        grid.withUnsafeMutableBufferPointer { g in
            for x in x0..<(x0 + width) { edt1d(g, offset: y0 * gridWidth + x, stride: gridWidth, length: height, &scratch) }
            for y in y0..<(y0 + height) { edt1d(g, offset: y * gridWidth + x0, stride: 1, length: width, &scratch) }
        }
    }

    /// The 1-D squared distance transform (the lower envelope of parabolas rooted at each
    /// sample) of `length` samples `stride` apart from `offset`.
    private static func edt1d(_ grid: UnsafeMutableBufferPointer<Double>, offset: Int, stride: Int, length: Int, _ s: inout EDTScratch) {
        guard length > 0 else { return }
        s.v[0] = 0
        s.z[0] = -infinity
        s.z[1] = infinity
        s.f[0] = grid[offset]
        var k = 0
        for q in 1..<length {
            s.f[q] = grid[offset + q * stride]
            let q2 = Double(q * q)
            var boundary: Double
            while true {
                let r = s.v[k]
                boundary = (s.f[q] - s.f[r] + q2 - Double(r * r)) / Double(q - r) / 2
                if boundary <= s.z[k] {
                    k -= 1
                    if k > -1 { continue }
                }
                break
            }
            k += 1
            s.v[k] = q
            s.z[k] = boundary
            s.z[k + 1] = infinity
        }
        k = 0
        for q in 0..<length {
            while s.z[k + 1] < Double(q) { k += 1 }
            let r = s.v[k]
            let qr = Double(q - r)
            grid[offset + q * stride] = s.f[r] + qr * qr
        }
    }
}
