import CHarfBuzz
import MapCore

/// HarfBuzz's font over one face of a font file, at MapLibre's 24-px em: the scale is
/// 24 × 64 units per em, so positions come out in 64ths of a pixel, as FreeType's do, and
/// match the glyphs `SDFFontFace` renders from the same file at 24 px. HarfBuzz reads the
/// font's own tables (its OpenType functions: GSUB, GPOS, hmtx), unhinted, as fontnik's
/// metrics are.
///
/// Not thread-safe (a font may be shared, but `SDFFontFace`, which owns one, is not).
final class HarfBuzzFont {
    /// One glyph of a shaped run: the face's glyph index, the index of the first character
    /// of its cluster in the run, and HarfBuzz's position in 64ths of a pixel (y up).
    struct Glyph: Equatable {
        let index: UInt32
        let cluster: UInt32
        let xAdvance: Int32, xOffset: Int32, yOffset: Int32
    }

    private let font: OpaquePointer

    /// Face `index` of the file at `path` (mapped by HarfBuzz, as FreeType maps it); nil when
    /// the file cannot be read or HarfBuzz finds no face with glyphs in it.
    convenience init?(path: String, index: Int) {
        guard let blob = hb_blob_create_from_file_or_fail(path) else { return nil }
        self.init(blob: blob, index: index)
    }

    /// The first face of `bytes`, which must outlive the font (they are not copied).
    convenience init?(bytes: UnsafeBufferPointer<UInt8>) {
        guard let base = bytes.baseAddress, let count = UInt32(exactly: bytes.count),
              let blob = base.withMemoryRebound(to: CChar.self, capacity: bytes.count, {
                  hb_blob_create($0, count, HB_MEMORY_MODE_READONLY, nil, nil)
              }) else { return nil }
        self.init(blob: blob, index: 0)
    }

    /// Takes `blob` over (the face keeps what it needs of it).
    private init?(blob: OpaquePointer, index: Int) {
        defer { hb_blob_destroy(blob) }
        guard let faceIndex = UInt32(exactly: index), let face = hb_face_create(blob, faceIndex) else { return nil }
        defer { hb_face_destroy(face) }
        // A blob HarfBuzz cannot read gives the empty face, without glyphs.
        guard hb_face_get_glyph_count(face) > 0, let font = hb_font_create(face) else { return nil }
        let scale = Int32(SDFGlyph.em * 64)
        hb_font_set_scale(font, scale, scale)
        self.font = font
    }

    deinit { hb_font_destroy(font) }

    /// `codePoints`, a run of one left-to-right script, shaped: its glyphs in visual order.
    /// Empty when HarfBuzz cannot allocate its buffer.
    func shape(_ codePoints: [UInt32]) -> [Glyph] {
        guard let buffer = hb_buffer_create() else { return [] }
        defer { hb_buffer_destroy(buffer) }
        guard let length = Int32(exactly: codePoints.count) else { return [] }
        codePoints.withUnsafeBufferPointer { hb_buffer_add_utf32(buffer, $0.baseAddress, length, 0, length) }
        guard hb_buffer_allocation_successful(buffer) != 0 else { return [] }
        // The script and language from the text; the direction stated, since every script
        // sent here is written left to right.
        hb_buffer_guess_segment_properties(buffer)
        hb_buffer_set_direction(buffer, HB_DIRECTION_LTR)
        hb_shape(font, buffer, nil, 0)
        var count: UInt32 = 0
        guard let infos = hb_buffer_get_glyph_infos(buffer, &count),
              let positions = hb_buffer_get_glyph_positions(buffer, &count) else { return [] }
        return (0..<Int(count)).map { i in
            Glyph(index: infos[i].codepoint, cluster: infos[i].cluster,
                  xAdvance: positions[i].x_advance, xOffset: positions[i].x_offset, yOffset: positions[i].y_offset)
        }
    }
}
