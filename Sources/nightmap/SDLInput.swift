import CSDL2
import MapCore
import NightmapApp

/// Translates SDL events into the map's `InputEvent`s. `scale` converts window coordinates to
/// drawable pixels (HiDPI); `time` is the run loop's clock in seconds.
enum SDLInput {
    static func translate(_ e: SDL_Event, time: Double, scale: Double = 1) -> InputEvent? {
        switch SDL_EventType(rawValue: e.type) {
        case SDL_QUIT:
            return .quit
        case SDL_MOUSEBUTTONDOWN where e.button.button == UInt8(SDL_BUTTON_LEFT) || e.button.button == UInt8(SDL_BUTTON_RIGHT):
            return .pointerDown(x: Double(e.button.x) * scale, y: Double(e.button.y) * scale,
                                modifiers: modifiers(SDL_GetModState()),
                                button: e.button.button == UInt8(SDL_BUTTON_RIGHT) ? .secondary : .primary, time: time)
        case SDL_MOUSEBUTTONUP where e.button.button == UInt8(SDL_BUTTON_LEFT) || e.button.button == UInt8(SDL_BUTTON_RIGHT):
            return .pointerUp(x: Double(e.button.x) * scale, y: Double(e.button.y) * scale, time: time)
        case SDL_MOUSEMOTION:
            return .pointerMove(x: Double(e.motion.x) * scale, y: Double(e.motion.y) * scale, time: time)
        case SDL_MOUSEWHEEL:
            var ticks = Double(e.wheel.preciseY)
            if ticks == 0 { ticks = Double(e.wheel.y) }
            if e.wheel.direction == SDL_MOUSEWHEEL_FLIPPED.rawValue { ticks = -ticks }
            return .wheel(ticks: ticks, x: Double(e.wheel.mouseX) * scale, y: Double(e.wheel.mouseY) * scale, time: time)
        case SDL_KEYDOWN:
            guard let key = key(e.key.keysym.sym) else { return nil }
            return .keyDown(key, modifiers: modifiers(SDL_Keymod(UInt32(e.key.keysym.mod))), time: time)
        case SDL_WINDOWEVENT where e.window.event == UInt8(SDL_WINDOWEVENT_SIZE_CHANGED.rawValue):
            return .resized(width: Int(Double(e.window.data1) * scale), height: Int(Double(e.window.data2) * scale), time: time)
        default:
            return nil
        }
    }

    static func modifiers(_ m: SDL_Keymod) -> Modifiers {
        var out: Modifiers = []
        if m.rawValue & KMOD_SHIFT.rawValue != 0 { out.insert(.shift) }
        if m.rawValue & KMOD_CTRL.rawValue != 0 { out.insert(.control) }
        if m.rawValue & KMOD_ALT.rawValue != 0 { out.insert(.alt) }
        return out
    }

    static func key(_ sym: SDL_Keycode) -> Key? {
        switch Int(sym) {
        case Int(SDLK_LEFT.rawValue): return .left
        case Int(SDLK_RIGHT.rawValue): return .right
        case Int(SDLK_UP.rawValue): return .up
        case Int(SDLK_DOWN.rawValue): return .down
        case Int(SDLK_ESCAPE.rawValue): return .escape
        case Int(SDLK_SPACE.rawValue): return .space
        case Int(SDLK_RETURN.rawValue): return .enter
        case Int(SDLK_HOME.rawValue): return .home
        case Int(SDLK_END.rawValue): return .end
        case Int(SDLK_KP_PLUS.rawValue): return .keypadPlus
        case Int(SDLK_KP_MINUS.rawValue): return .keypadMinus
        case Int(SDLK_F11.rawValue): return .function(11)
        case 33...126:
            guard let u = Unicode.Scalar(UInt32(sym)) else { return nil }
            return .character(Character(u))
        default: return nil
        }
    }
}
