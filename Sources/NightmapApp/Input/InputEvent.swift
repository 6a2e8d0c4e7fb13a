import MapCore
/// A key, independent of any windowing library.
public enum Key: Equatable, Sendable {
    case character(Character)
    case left, right, up, down
    case escape, space, enter, home, end
    case keypadPlus, keypadMinus
    /// A function key, F1 ... F12.
    case function(Int)
}

/// Modifier keys held during an event.
public struct Modifiers: OptionSet, Sendable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    public static let shift = Modifiers(rawValue: 1)
    public static let control = Modifiers(rawValue: 2)
    public static let alt = Modifiers(rawValue: 4)
}

/// The mouse button of a press (the secondary one rotates the map).
public enum PointerButton: Equatable, Sendable { case primary, secondary, middle }

/// Input as the map sees it; the window translates its library's events into these.
/// Positions are in window pixels, `time` in seconds on the run loop's clock.
public enum InputEvent: Equatable, Sendable {
    case pointerDown(x: Double, y: Double, modifiers: Modifiers, button: PointerButton = .primary, time: Double)
    case pointerMove(x: Double, y: Double, time: Double)
    case pointerUp(x: Double, y: Double, time: Double)
    /// Wheel movement in ticks, positive away from the user (zoom in).
    case wheel(ticks: Double, x: Double, y: Double, time: Double)
    case keyDown(Key, modifiers: Modifiers, time: Double)
    case resized(width: Int, height: Int, time: Double)
    case quit
}

/// What the map should do.
public enum MapCommand: Equatable, Sendable {
    /// Move the content by a screen offset now (dragging).
    case pan(dx: Double, dy: Double)
    /// Move the content by a screen offset, eased.
    case panEased(dx: Double, dy: Double)
    /// Carry on after a drag: move the content by a screen offset over `duration` seconds,
    /// decelerating (inertia).
    case glide(dx: Double, dy: Double, duration: Double)
    /// Change the zoom by `delta` keeping the point under (x, y) fixed, eased over `duration` s.
    case zoom(delta: Double, aroundX: Double, aroundY: Double, duration: Double)
    /// Change the zoom by `delta` around the viewport centre, eased.
    case zoomCentered(delta: Double)
    /// Dragging with the secondary button or Ctrl from (x0, y0) to (x1, y1): turn the map now by
    /// the sideways move (the angle it sweeps around the viewport's centre) and tilt it by the
    /// move up or down (up raises the pitch), as MapLibre does.
    case rotateDrag(x0: Double, y0: Double, x1: Double, y1: Double)
    /// Change the bearing by `degrees` now.
    case rotate(degrees: Double)
    /// Change the bearing by `degrees`, eased over 300 ms (Shift+Left / Shift+Right).
    case rotateEased(degrees: Double)
    /// Ease the bearing and the pitch back to 0, north up and flat (`n`, Alt+Up, a click on the compass).
    case resetNorth
    case toggleTimer
    /// While paused, show the previous (-1) or next (+1) radar frame.
    case stepFrame(Int)
    /// Show the oldest (Home) or newest (End) radar frame.
    case jumpFrame(oldest: Bool)
    /// Multiply the time each radar frame shows by `factor` (`[` 0.5, `]` 2).
    case frameSpeed(factor: Double)
    /// Show or hide the radar's colour legend.
    case toggleLegend
    /// The next live radar choice: auto, IEM, RainViewer (`r`).
    case cycleRadarProvider
    /// Show or hide the clouds layer (`c`).
    case toggleClouds
    /// The night side, its twilight bands and the subsolar point (`t`).
    case toggleDaylight
    /// The ISS's visibility footprint (`v`).
    case toggleFootprint
    /// The NWS warnings (`w`).
    case toggleWarnings
    /// The next pass over the observer in the status line (`o`).
    case toggleNextPass
    /// Go to the next light preset, eased over 300 ms.
    case cycleLight
    /// Switch the radar layer's emissive strength between 1 and 0.
    case toggleEmissive
    /// Show or hide the help panel.
    case toggleHelp
    /// Switch the scale bar between metric and imperial units.
    case toggleUnits
    /// Start or stop following the ISS.
    case toggleFollow
    /// Start or stop the route pulse.
    case togglePulse
    /// Go to the named scene (its bounds and start camera), eased.
    case switchScene(String)
    case resetCamera
    case resize(width: Int, height: Int)
    /// The window's own business, not the map's: full screen on or off (F11), the view written
    /// to a PNG (Ctrl+S).
    case toggleFullscreen
    case saveView
    case quit
    /// Change the pitch by `degrees`, eased over 300 ms (Shift+Up / Shift+Down).
    case tiltEased(degrees: Double)
    /// Move the map now so that the ground under (x0, y0) comes under (x1, y1) (dragging: the
    /// grabbed point stays under the pointer, tilted too).
    case dragPan(x0: Double, y0: Double, x1: Double, y1: Double)
    /// The street map's buildings flat or in 3D (`b`).
    case toggleBuildings
}
