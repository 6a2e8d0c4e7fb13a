import Foundation
import MapCore
import Raster

/// What the radar has to show: its slots, oldest first, each with its frame or why it has none,
/// and where they come from. The feed publishes a new series whenever something arrives; the
/// map's radar player shows it. Everything in it is immutable and shared.
public struct RadarSeries: Sendable {
    public enum Origin: String, Sendable {
        /// Current frames of a live source (fetched now, or earlier in the same window of slots).
        case live
        /// Frames from the disk cache while the source does not answer.
        case cache
        /// `--radar PATH`.
        case files
        /// The bundled synthetic frames.
        case demo
    }

    public enum Status: String, Sendable { case ok, missing, error }

    public struct Slot: Sendable {
        /// The frame's valid time (seconds since 1970, UTC); nil for untimed frames.
        public var time: Double?
        public var status: Status
        public var image: (any RasterTexture)?
        /// The image's clear runs, found off the render thread.
        public var runs: ImageRuns?
        /// The file or URL the frame comes from.
        public var name: String
        /// Why there is no frame (status missing or error).
        public var problem: String?

        public init(time: Double?, status: Status, image: (any RasterTexture)? = nil, runs: ImageRuns? = nil, name: String, problem: String? = nil) {
            self.time = time; self.status = status; self.image = image; self.runs = runs; self.name = name; self.problem = problem
        }
    }

    public var origin: Origin
    public let slots: [Slot]
    /// The loop's frames, as slot indices in order: the slots that have a frame (an untimed
    /// series keeps every slot, and a bad frame shows the good one before it).
    public let frameSlots: [Int]
    /// True when the frames have valid times (a time-stamped loop).
    public let timed: Bool
    /// The last problem any slot had (for `nightmap state`).
    public var lastError: String?
    /// Who makes the frames (for the attribution): "IEM NEXRAD", "RainViewer", a host name.
    public var provider: String
    /// Where the frames go on the map (a provider's own box or tile mosaic); nil: where the
    /// radar layer's image source puts them in the style.
    public var placement: (corners: ImageCorners, placement: ImagePlacement)?
    /// The colour scale of the frames, when their provider says it (RainViewer's scheme).
    public var legend: ColorLegend?

    public init(origin: Origin, slots: [Slot], lastError: String? = nil, provider: String = "",
                placement: (corners: ImageCorners, placement: ImagePlacement)? = nil) {
        self.origin = origin; self.slots = slots; self.lastError = lastError; self.provider = provider; self.placement = placement
        timed = slots.contains { $0.time != nil }
        if timed {
            frameSlots = slots.indices.filter { slots[$0].image != nil }
        } else {
            frameSlots = slots.contains { $0.image != nil } ? Array(slots.indices) : []
        }
    }

    /// The frames of an image source as a series (frames from files).
    public init(source: ImageSource, origin: Origin = .files, provider: String = "") {
        let slots = source.frames.indices.map { i in
            Slot(time: source.times[i], status: source.frames[i] == nil ? .error : .ok, image: source.frames[i], runs: source.runs[i],
                 name: source.names.indices.contains(i) ? source.names[i] : "frame \(i)")
        }
        self.init(origin: origin, slots: slots, provider: provider)
    }

    /// The series of no frames (a live source before its first answer).
    public static func empty(provider: String) -> RadarSeries { RadarSeries(origin: .live, slots: [], provider: provider) }


    /// The attribution's words for these frames.
    public var attribution: String {
        switch origin {
        case .demo: return "radar frames: synthetic demo data"
        case .files: return "radar: \(provider)"
        case .live: return provider == RadarProvider.rainviewer.name ? "radar © RainViewer (rainviewer.com)" : "radar: \(provider)"
        case .cache:
            let times = slots.compactMap { $0.image == nil ? nil : $0.time }
            guard let first = times.min(), let last = times.max() else { return "radar: cached" }
            return "radar: cached, \(RadarTime.hourMinute(first))-\(RadarTime.hourMinute(last)) UTC"
        }
    }
}
