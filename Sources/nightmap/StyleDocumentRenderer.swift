import Foundation
import Raster

// TEMPORARY: a stand-in until the style renderer is wired in; this file's contents are to be
// replaced by the real `renderStyleDocument` (same signature: it is a `StyleRenderer`, see
// RenderTest.swift).

/// Renders the style document `style` at width x height CSS pixels and `pixelRatio`, resolving
/// local:// URLs against `assets`, into a premultiplied pixmap of
/// floor(width * pixelRatio) x floor(height * pixelRatio); throws a one-line error.
func renderStyleDocument(_ style: Data, _ styleURL: URL, _ width: Int, _ height: Int, _ pixelRatio: Double,
                         _ assets: URL) throws -> Pixmap {
    throw RenderTestError("style rendering not wired yet")
}
