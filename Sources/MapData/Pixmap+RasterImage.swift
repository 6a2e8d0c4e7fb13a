import MapCore
import Raster

/// Decoded frames are pixmaps; the map model refers to them as opaque images.
extension Pixmap: RasterImage {}
