import Foundation
import MapCore
import Raster

/// Where a style document's URLs point: `local://X` in an assets folder (the render-test suite's
/// convention), `file://` URLs and plain paths (relative to the style file's folder), and
/// `http(s)://` URLs read through the cache (`web`); a document read from the web (`styleURL`)
/// has its relative URLs resolved against its own URL.
public struct ResourceResolver: Sendable {
    public let styleDirectory: URL?
    public let assets: URL?
    /// Where http(s) resources, tiles and TileJSON documents come from (nil: they are not read).
    public let web: HTTPCache?
    /// The URL of a document read from the web, for its relative URLs.
    public let styleURL: URL?
    public init(styleDirectory: URL?, assets: URL?, web: HTTPCache? = nil, styleURL: URL? = nil) {
        self.styleDirectory = styleDirectory; self.assets = assets; self.web = web; self.styleURL = styleURL
    }

    /// The absolute http(s) URL `url` names, or nil when it names no web resource. (The render
    /// tests' `http://localhost:2900/` stands for their assets folder.)
    func webURL(_ url: String) -> String? {
        let lower = url.lowercased()
        if assets != nil, url.hasPrefix("http://localhost:2900/") { return nil }
        if lower.hasPrefix("http://") || lower.hasPrefix("https://") { return url }
        guard let styleURL, !url.contains("://"), let u = URL(string: url, relativeTo: styleURL) else { return nil }
        return u.absoluteString
    }

    /// The body of a web resource through the cache, with a one-line error naming the URL.
    func webData(_ url: String, limit: Int) throws -> Data {
        guard let web else { throw StyleError("\(url): network URLs are not read here") }
        do {
            guard let body = try web.get(url, maxBytes: limit) else { throw StyleError("\(url): not found (HTTP 404)") }
            return body
        } catch let e as StyleError { throw e } catch { throw StyleError("\(error)") }
    }

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
        // (The render-test suite serves its assets at localhost:2900.)
        if let assets, url.hasPrefix("http://localhost:2900/") {
            return assets.appendingPathComponent(String(url.dropFirst(22))).path
        }
        if url.hasPrefix("http://") || url.hasPrefix("https://") {
            throw StyleError("\(url): a network URL names no file")
        }
        if url.contains("://") { throw StyleError("\(url): unsupported URL scheme") }
        if url.hasPrefix("/") { return url }
        return (styleDirectory ?? URL(fileURLWithPath: FileManager.default.currentDirectoryPath)).appendingPathComponent(url).path
    }

    /// A file's bytes, with a one-line error naming the URL and the file.
    public func data(_ url: String, limit: Int = 256 << 20) throws -> Data {
        if let remote = webURL(url) { return try webData(remote, limit: limit) }
        let p = try path(url)
        return try Self.readFile(p, name: url, limit: limit)
    }

    /// The bytes of the regular file at `p` (symbolic links followed), at most `limit` of them;
    /// errors start with `name`. Devices, pipes and directories are refused before they are
    /// opened: reading `/dev/zero` or a FIFO would never end.
    static func readFile(_ p: String, name: String, limit: Int) throws -> Data {
        var isDir: ObjCBool = false
        let file = name == p ? "" : " (\(p))"
        guard FileManager.default.fileExists(atPath: p, isDirectory: &isDir) else { throw StyleError("\(name): no such file\(file)") }
        guard !isDir.boolValue else { throw StyleError("\(name): is a directory\(file)") }
        let real = URL(fileURLWithPath: p).resolvingSymlinksInPath().path
        guard let attrs = try? FileManager.default.attributesOfItem(atPath: real), let size = attrs[.size] as? Int else {
            throw StyleError("\(name): cannot read\(file)")
        }
        guard attrs[.type] as? FileAttributeType == .typeRegular else { throw StyleError("\(name): not a regular file\(file)") }
        guard size <= limit else { throw StyleError("\(name): \(size) bytes is over the \(limit >> 20) MB limit") }
        guard let handle = FileHandle(forReadingAtPath: real) else { throw StyleError("\(name): cannot read\(file) (permissions?)") }
        defer { try? handle.close() }
        // (At most limit + 1 bytes, should the file have grown since.)
        guard let d = try? handle.read(upToCount: limit + 1) ?? Data() else { throw StyleError("\(name): cannot read\(file)") }
        guard d.count <= limit else { throw StyleError("\(name): over the \(limit >> 20) MB limit") }
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
                let gif = try GIFDecoder.decode(Self.firstGIFImage(d), name: url)
                guard let first = gif.frames.first else { throw StyleError("\(url): GIF has no frames") }
                return first
            } catch let e as StyleError { throw e } catch { throw StyleError("\(error)") }
        }
        throw StyleError("\(url): not a PNG or GIF image")
    }

    /// A GIF's bytes up to the end of its first image, then the trailer. The decoder keeps every
    /// frame as a whole canvas (a 4096 x 4096 canvas with 1000 one-pixel frames would take 64
    /// GB), and an image source shows the first frame only. Damaged or unusual data is returned
    /// whole, for the decoder to judge.
    static func firstGIFImage(_ data: Data) -> Data {
        let b = [UInt8](data)
        guard b.count >= 13 else { return data }
        var i = 13
        if b[10] & 0x80 != 0 { i += 3 << (Int(b[10] & 7) + 1) }        // global colour table
        // Skips data sub-blocks (a length byte, then that many bytes) up to the empty one.
        func skipSubBlocks() -> Bool {
            while i < b.count {
                let n = Int(b[i])
                i += 1
                if n == 0 { return true }
                i += n
            }
            return false
        }
        while i < b.count {
            switch b[i] {
            case 0x21:                                                  // extension: label, sub-blocks
                i += 2
                guard skipSubBlocks() else { return data }
            case 0x2C:                                                  // image descriptor
                guard i + 10 < b.count else { return data }
                let packed = b[i + 9]
                i += 10
                if packed & 0x80 != 0 { i += 3 << (Int(packed & 7) + 1) }   // local colour table
                i += 1                                                  // LZW minimum code size
                guard skipSubBlocks(), i <= b.count else { return data }
                var out = Data(b[0..<i])
                out.append(0x3B)
                return out
            default:
                return data
            }
        }
        return data
    }
}

/// Loads what a style document refers to and builds the map's style from it.
public enum StyleLoader {
    /// Reads a style document file: an error only for a file that cannot be read or is not a
    /// version-8 document; what it skips is in its `warnings`, each line naming the file. The
    /// documents its metadata `nightmap:include` names are read into it (`include`).
    public static func readDocument(path: String, web: HTTPCache? = nil) throws -> StyleDocument {
        if let url = webStyleURL(path) { return try readWeb(url, web: web) }
        var document = try readOne(path: path)
        try include(into: &document, path: path)
        return document
    }

    /// `location` as an http(s) URL, when it is one.
    public static func webStyleURL(_ location: String) -> URL? {
        let lower = location.lowercased()
        guard lower.hasPrefix("http://") || lower.hasPrefix("https://") else { return nil }
        return URL(string: location)
    }

    /// A document from the web, through the cache (so the last copy opens offline). Its
    /// `nightmap:include` metadata is not followed (it names local files).
    private static func readWeb(_ url: URL, web: HTTPCache?) throws -> StyleDocument {
        let name = url.absoluteString
        let data: Data
        do {
            data = try ResourceResolver(styleDirectory: nil, assets: nil, web: web).webData(name, limit: 64 << 20)
        } catch let e as StyleError {
            throw StyleDocumentError([e.description])
        }
        return try document(data, name: name)
    }

    /// The document in `data`, its problems and warnings each starting with `name` (its file or
    /// URL).
    private static func document(_ data: Data, name: String) throws -> StyleDocument {
        do {
            var document = try StyleDocument(data: data, name: name)
            document.warnings = document.warnings.map { "\(name): \($0)" }
            return document
        } catch let e as StyleDocumentError {
            throw StyleDocumentError(e.problems.map { $0.hasPrefix(name) ? $0 : "\(name): \($0)" })
        }
    }

    private static func readOne(path: String) throws -> StyleDocument {
        let data: Data
        do {
            data = try ResourceResolver.readFile(path, name: path, limit: 256 << 20)
        } catch let e as StyleError {
            throw StyleDocumentError([e.description])
        }
        return try document(data, name: path)
    }

    /// nightmap's metadata `"nightmap:include": [{"style": FILE, "minzoom": Z, "before": LAYER}]`:
    /// each FILE (relative to the document's folder; its own relative URLs are read from there
    /// too) adds its sources and its layers, placed before layer LAYER (or on top), each shown
    /// from zoom Z at the least. That is how nightmap's own map holds the Helsinki street map
    /// (`streets.json`) that the `streets` scene shows, while `streets.json` stays a style of
    /// its own. An id used by both documents is an error naming it.
    static func include(into document: inout StyleDocument, path: String) throws {
        guard case let .object(m)? = document.metadata, let value = m["nightmap:include"] else { return }
        let at = "\(path): metadata.nightmap:include"
        guard case let .array(items) = value else { throw StyleDocumentError(["\(at): expected an array of objects"]) }
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent()
        for (i, item) in items.enumerated() {
            guard case let .object(o) = item, case let .string(file)? = o["style"] else {
                throw StyleDocumentError(["\(at)[\(i)]: expected an object with a \"style\" file"])
            }
            var minZoom = 0.0
            if let z = o["minzoom"] {
                guard case let .number(n) = z, n >= 0, n <= 24 else { throw StyleDocumentError(["\(at)[\(i)].minzoom: expected a number within 0...24"]) }
                minZoom = n
            }
            var before: Int? = nil
            if let b = o["before"] {
                guard case let .string(id) = b, let k = document.layers.firstIndex(where: { $0.id == id }) else {
                    throw StyleDocumentError(["\(at)[\(i)].before: expected the id of one of the document's layers"])
                }
                before = k
            }
            let other = try readOne(path: file.hasPrefix("/") ? file : folder.appendingPathComponent(file).path)
            var problems: [String] = []
            for (id, source) in other.sources.sorted(by: { $0.key < $1.key }) {
                if document.sources[id] != nil { problems.append("\(at)[\(i)]: \(file) and the document both have a source \"\(id)\"") }
                document.sources[id] = source
            }
            let ids = Set(document.layers.map(\.id))
            var layers = other.layers
            for k in layers.indices {
                if ids.contains(layers[k].id) { problems.append("\(at)[\(i)]: \(file) and the document both have a layer \"\(layers[k].id)\"") }
                layers[k].minZoom = max(layers[k].minZoom, minZoom)
            }
            if !problems.isEmpty { throw StyleDocumentError(problems) }
            document.warnings += other.warnings
            document.layers.insert(contentsOf: layers, at: before ?? document.layers.count)
        }
    }

    /// What a source's definition loads to.
    public enum LoadedSource {
        case geojson(GeoJSONData)
        case image(ImageSource)
        /// Vector or raster tiles, loaded as the view needs them.
        case tiles(TileSet)
    }

    /// Loads one source: its GeoJSON file read and parsed (`nightmap://places`: nightmap's
    /// places), its image decoded, its tiles' archive or TileJSON opened. A resource that
    /// cannot be loaded is an error naming its URL.
    public static func load(_ source: SourceDefinition, id: String, resolver: ResourceResolver,
                            pixelRatio: Double = 1) throws -> LoadedSource {
        switch source {
        case let .geojson(.inline(data)):
            return .geojson(data)
        case .geojson(.url(Places.url)):
            return .geojson(try Places.read(path: try ResourceLocator.resourcesDirectory().appendingPathComponent("places/places.tsv").path))
        case let .geojson(.url(url)):
            let json = try JSON.parse(try resolver.data(url), name: url)
            return .geojson(try GeoJSONData(json: json, path: url))
        case let .image(url, corners):
            let image = try resolver.image(url)
            return .image(ImageSource(corners: corners, placement: .linear, frames: [image], names: [url]))
        case let .vector(d):
            return .tiles(try TiledSources.open(d, kind: .vector, id: id, resolver: resolver, pixelRatio: pixelRatio))
        case let .raster(d):
            return .tiles(try TiledSources.open(d, kind: .raster, id: id, resolver: resolver, pixelRatio: pixelRatio))
        }
    }

    /// The style for `document`: GeoJSON files and images loaded, the sprites read for
    /// `pixelRatio`. Sources in `skipping` are left for the caller to fill (nightmap's animated
    /// layers). A source that cannot be loaded (a missing file, a bad TileJSON) or a sprite that
    /// cannot be read is reported through `report`, once, naming its URL, and draws nothing; the
    /// rest of the map draws. The document's warnings go to `report` too. Labels take their glyphs from the document's `glyphs` ranges
    /// (read as they are needed, problems passed to `glyphReport`, once per range), falling back
    /// to `localGlyphs`, or from `localGlyphs` alone when the document names none; the
    /// document's `font-faces` come before either (`FontFaceGlyphs`; font URLs it cannot use
    /// and files that are not fonts are reported through `glyphReport`).
    public static func style(for document: StyleDocument, resolver: ResourceResolver, pixelRatio: Double = 1,
                             skipping: Set<String> = [], localGlyphs: (any GlyphSource)? = nil,
                             glyphReport: @escaping @Sendable (String) -> Void = { _ in },
                             report: (String) -> Void = { _ in }) throws -> Style {
        var skipped: [String] = []
        func note(_ line: String) { skipped.append(line); report(line) }
        document.warnings.forEach(note)
        var features: [String: GeoJSONData] = [:]
        var images: [String: ImageSource] = [:]
        var tiles: [String: TileSet] = [:]
        for (id, source) in document.sources.sorted(by: { $0.key < $1.key }) where !skipping.contains(id) {
            do {
                switch try load(source, id: id, resolver: resolver, pixelRatio: pixelRatio) {
                case let .geojson(data): features[id] = data
                case let .image(image): images[id] = image
                case let .tiles(set): tiles[id] = set
                }
            } catch {
                // The source draws nothing; every other part of the map draws.
                note("sources.\(id): \(error) (its layers draw nothing)")
                switch source {
                case let .vector(d), let .raster(d):
                    let kind: TileSet.Kind = if case .raster = source { .raster } else { .vector }
                    tiles[id] = TileSet(definition: d, kind: kind)
                case .geojson:
                    features[id] = GeoJSONData(features: [])
                case .image:
                    break
                }
            }
        }
        let sprite = SpriteLoader.load(document.sprites, pixelRatio: pixelRatio, resolver: resolver, report: note)
        var style = Style(document: document, features: features, images: images, tiles: tiles, sprite: sprite)
        style.skipped = skipped
        // (Right-to-left labels as MapLibre's RTL plugin sets them: its render harness loads it.)
        style.bidi = ICUBidi()
        let glyphs = document.glyphs.map { GlyphStore(template: $0, resolver: resolver, fallback: localGlyphs, report: glyphReport) }
            ?? localGlyphs
        style.glyphs = document.fontFaces.isEmpty ? glyphs
            : FontFaceGlyphs(fontFaces: document.fontFaces, resolver: resolver, next: glyphs, report: glyphReport)
        return style
    }
}
