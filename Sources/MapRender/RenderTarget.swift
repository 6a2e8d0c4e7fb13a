import Raster

/// Where a layer draws: the pixmap and the rows of it this renderer draws (all of them, or a
/// band when several renderers share a frame). Pixels outside `rows` are left alone.
struct RenderTarget {
    let pixmap: Pixmap
    let rows: Range<Int>
    var width: Int { pixmap.width }
}
