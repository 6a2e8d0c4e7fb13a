import Foundation

/// A symbol layer's features' symbols as last evaluated, by feature index, with what they were
/// evaluated for (data, images, glyphs, pixel ratio, light): a zooming camera evaluates only the filter again. Bounded: past
/// `SymbolMemo.limit` features it keeps only those of the last evaluation (a camera wandering for
/// hours does not gather the whole data set).
final class SymbolMemo: @unchecked Sendable {
    struct Entry {
        let key: Double
        let symbols: [SymbolSet.Symbol]
    }
    static let limit = 2048
    private let lock = NSLock()
    private(set) var entries: [Int32: Entry] = [:]
    /// The features the filter passed this time (kept storage), and last time with the set made of them.
    var passing: [Int32] = []
    private(set) var lastPassing: [Int32] = []
    private(set) var lastSet: SymbolSet?
    private var data: GeoJSONData?, sprite: SpriteSheet?, glyphs: AnyObject?
    /// The glyph source's arrivals when evaluated (a label that waited for its glyphs is shaped again).
    private var glyphGeneration = 0
    private var images = -1, pixelRatio = 0.0, light = Color.black
    /// The layout zoom (symbols are filed by their tiles at it).
    private var layoutZoom = -1
    /// The version of the feature states the symbols were evaluated with.
    private var states = 0

    /// The memo for these inputs (emptied when they differ from the last ones), locked until `unlock`.
    func entries(for style: Style, _ data: GeoJSONData, _ e: StyleEvaluation, layoutZoom: Int, states: Int = 0) -> SymbolMemo {
        lock.lock()
        if layoutZoom != self.layoutZoom {
            // (The same symbols, laid out for other tiles: a new set.)
            lastSet = nil
            lastPassing.removeAll()
            self.layoutZoom = layoutZoom
        }
        let glyphs = style.glyphs.map { $0 as AnyObject }
        let generation = style.glyphs?.generation ?? 0
        if data !== self.data || style.sprite !== sprite || style.imagesVersion != images || e.pixelRatio != pixelRatio
            || e.light != light || glyphs !== self.glyphs || generation != glyphGeneration || states != self.states {
            entries.removeAll()
            lastSet = nil
            lastPassing.removeAll()
            self.data = data; sprite = style.sprite; images = style.imagesVersion; pixelRatio = e.pixelRatio; light = e.light
            self.glyphs = glyphs; glyphGeneration = generation; self.states = states
        }
        return self
    }

    func keep(_ entry: Entry, for index: Int32) { entries[index] = entry }
    /// `set` is what `passing` gives.
    func remember(_ set: SymbolSet?) {
        lastSet = set
        swap(&passing, &lastPassing)
        if entries.count > Self.limit {
            // (`lastPassing` is in ascending order: the candidates come sorted.)
            let kept = lastPassing
            entries = entries.filter { entry in
                var lo = 0, hi = kept.count
                while lo < hi { let mid = (lo + hi) / 2; if kept[mid] < entry.key { lo = mid + 1 } else { hi = mid } }
                return lo < kept.count && kept[lo] == entry.key
            }
        }
    }
    func unlock() { lock.unlock() }
}
