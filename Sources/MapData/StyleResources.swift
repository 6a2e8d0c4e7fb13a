import Foundation
import MapCore
import Raster

/// Where a style document's URLs point: `local://X` in an assets folder (the render-test suite's
/// convention), `file://` URLs and plain paths (relative to the style file's folder).
public struct ResourceResolver: Sendable {
    public let styleDirectory: URL?
    public let assets: URL?
    public init(styleDirectory: URL?, assets: URL?) { self.styleDirectory = styleDirectory; self.assets = assets }

    /// The file a URL names, or a one-line error.
    public func path(_ url: String) throws -> String {
        if url.hasPrefix("local://") {
            guard let assets else { throw StyleError("\(url): local:// URLs need an assets folder (--assets DIR)") }
            return assets.appendingPathComponent(String(url.dropFirst(8))).path
        }
        if url.hasPrefix("file://") {
            guard let u = URL(string: url), u.isFileURL else { throw StyleError("\(url): not a valid file URL") }
            return u.path
        }
        if url.hasPrefix("http://") || url.hasPrefix("https://") {
            throw StyleError("\(url): network URLs are not supported in style documents (download the file and name its path)")
        }
        if url.contains("://") { throw StyleError("\(url): unsupported URL scheme") }
        if url.hasPrefix("/") { return url }
        return (styleDirectory ?? URL(fileURLWithPath: FileManager.default.currentDirectoryPath)).appendingPathComponent(url).path
    }

    /// A file's bytes, with a one-line error naming the URL and the file.
    public func data(_ url: String, limit: Int = 256 << 20) throws -> Data {
        let p = try path(url)
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: p, isDirectory: &isDir) else { throw StyleError("\(url): no such file (\(p))") }
        guard !isDir.boolValue else { throw StyleError("\(url): is a directory (\(p))") }
        guard let attrs = try? FileManager.default.attributesOfItem(atPath: p), let size = attrs[.size] as? Int else {
            throw StyleError("\(url): cannot read \(p)")
        }
        guard size <= limit else { throw StyleError("\(url): \(size) bytes is over the \(limit >> 20) MB limit") }
        guard let d = FileManager.default.contents(atPath: p) else { throw StyleError("\(url): cannot read \(p) (permissions?)") }
        return d
    }

    /// An image (PNG or GIF, told by its first bytes), premultiplied; a GIF gives its first frame.
    public func image(_ url: String) throws -> Pixmap {
        let d = try data(url, limit: 64 << 20)
        if d.starts(with: [0x89, 0x50, 0x4E, 0x47]) {
            do { return try PNGCodec.decode(d, name: url) } catch { throw StyleError("\(error)") }
        }
        if d.starts(with: [0x47, 0x49, 0x46]) {
            do {
                let gif = try GIFDecoder.decode(d, name: url)
                guard let first = gif.frames.first else { throw StyleError("\(url): GIF has no frames") }
                return first
            } catch let e as StyleError { throw e } catch { throw StyleError("\(error)") }
        }
        throw StyleError("\(url): not a PNG or GIF image")
    }
}

/// Loads what a style document refers to and builds the map's style from it.
public enum StyleLoader {
    /// Reads and checks a style document file: every problem, one per line, in the error.
    public static func readDocument(path: String) throws -> StyleDocument {
        guard let data = FileManager.default.contents(atPath: path) else {
            var isDir: ObjCBool = false
            let exists = FileManager.default.fileExists(atPath: path, isDirectory: &isDir)
            throw StyleDocumentError(["\(path): " + (!exists ? "no such file" : isDir.boolValue ? "is a directory" : "cannot read (permissions?)")])
        }
        do { return try StyleDocument(data: data, name: path) } catch let e as StyleDocumentError {
            throw StyleDocumentError(e.problems.map { $0.hasPrefix(path) ? $0 : "\(path): \($0)" })
        }
    }

    /// The style for `document`: GeoJSON files and images loaded, the sprite read for
    /// `pixelRatio`, basemap layers bound to `basemap` geometry (for `nightmap://basemap`).
    /// A resource that cannot be loaded is an error naming its URL.
    /// Sources in `skipping` are left for the caller to fill (nightmap's animated layers).
    public static func style(for document: StyleDocument, resolver: ResourceResolver, pixelRatio: Double = 1,
                             basemap: [String: GeometrySet] = [:], skipping: Set<String> = []) throws -> Style {
        var features: [String: GeoJSONData] = [:]
        var images: [String: ImageSource] = [:]
        var problems: [String] = []
        for (id, source) in document.sources.sorted(by: { $0.key < $1.key }) where !skipping.contains(id) {
            do {
                switch source {
                case let .geojson(.inline(data)):
                    features[id] = data
                case let .geojson(.url(url)):
                    let json = try JSON.parse(try resolver.data(url), name: url)
                    features[id] = try GeoJSONData(json: json, path: url)
                case let .image(url, corners):
                    let image = try resolver.image(url)
                    images[id] = ImageSource(corners: corners, placement: .linear, frames: [image], names: [url])
                case let .vector(url):
                    guard url == "nightmap://basemap" else {
                        throw StyleError("sources.\(id).url: \(url): nightmap reads only its own basemap (nightmap://basemap) as a vector source")
                    }
                }
            } catch {
                problems.append("sources.\(id): \(error)")
            }
        }
        for (i, layer) in document.layers.enumerated() {
            guard let s = layer.source, case .vector? = document.sources[s] else { continue }
            if layer.sourceLayer.flatMap({ basemap[$0] }) == nil {
                problems.append("layers[\(i)].source-layer: the basemap has no layer \"\(layer.sourceLayer ?? "")\" (it has \(basemap.keys.sorted().joined(separator: ", ")))")
            }
        }
        var sprite: SpriteSheet? = nil
        if let base = document.sprite {
            do { sprite = try SpriteLoader.load(base: base, pixelRatio: pixelRatio, resolver: resolver) } catch { problems.append("sprite: \(error)") }
        }
        if !problems.isEmpty { throw StyleDocumentError(problems) }
        return Style(document: document, features: features, images: images, geometry: basemap, sprite: sprite)
    }
}
