import MapCore

/// The two collision grids of MapLibre's `CollisionIndex`: `placed`, which placement asks, and
/// `ignored`, where symbols with `*-ignore-placement` are filed instead, so that they are on
/// record (MapLibre reads both for `queryRenderedFeatures`) but never block anything.
struct CollisionGrids {
    private(set) var placed = CollisionGrid()
    private(set) var ignored = CollisionGrid()

    /// Empties both grids for a viewport of `width` x `height` device px.
    mutating func reset(width: Double, height: Double) {
        placed.reset(width: width, height: height)
        ignored.reset(width: width, height: height)
    }

    /// Files a placed box (screen px), in `ignored` when `ignorePlacement` (MapLibre's
    /// `insertCollisionBox`).
    mutating func insert(_ box: FrameDescription.ScreenBox, overlap: OverlapMode, ignorePlacement: Bool, group: Int = 0) {
        if ignorePlacement {
            ignored.insert(box, overlap: overlap, group: group)
        } else {
            placed.insert(box, overlap: overlap, group: group)
        }
    }

    /// Files a placed circle (screen px), in `ignored` when `ignorePlacement` (MapLibre's
    /// `insertCollisionCircles`, one circle at a time).
    mutating func insertCircle(x: Double, y: Double, radius: Double, overlap: OverlapMode, ignorePlacement: Bool, group: Int = 0) {
        if ignorePlacement {
            ignored.insertCircle(x: x, y: y, radius: radius, overlap: overlap, group: group)
        } else {
            placed.insertCircle(x: x, y: y, radius: radius, overlap: overlap, group: group)
        }
    }

    /// Whether a box may not go where it is: `placed`'s answer (`CollisionGrid.hitTest`).
    mutating func hitTest(_ box: FrameDescription.ScreenBox, overlap: OverlapMode, group: Int? = nil) -> Bool {
        placed.hitTest(box, overlap: overlap, group: group)
    }

    /// Whether a circle may not go where it is: `placed`'s answer (`CollisionGrid.hitTestCircle`).
    mutating func hitTestCircle(x: Double, y: Double, radius: Double, overlap: OverlapMode, group: Int? = nil) -> Bool {
        placed.hitTestCircle(x: x, y: y, radius: radius, overlap: overlap, group: group)
    }

    /// Where a shape is, as `CollisionGrid` answers (both grids cover the same ground).
    func isInsideGrid(_ box: FrameDescription.ScreenBox) -> Bool { placed.isInsideGrid(box) }
    func isOffscreen(_ box: FrameDescription.ScreenBox) -> Bool { placed.isOffscreen(box) }
    func isInsideGrid(x: Double, y: Double, radius: Double) -> Bool { placed.isInsideGrid(x: x, y: y, radius: radius) }
    func isOffscreen(x: Double, y: Double, radius: Double) -> Bool { placed.isOffscreen(x: x, y: y, radius: radius) }
}
