import CSDL2
import MapCore
import NightmapApp
import Testing
@testable import nightmap

/// SDL events become map commands without any window.
@Suite struct SDLInputTests {
    func button(_ type: SDL_EventType, x: Int32, y: Int32) -> SDL_Event {
        var e = SDL_Event()
        e.type = type.rawValue
        e.button.button = UInt8(SDL_BUTTON_LEFT)
        e.button.x = x; e.button.y = y
        return e
    }

    func key(_ sym: SDL_KeyCode, mod: SDL_Keymod = KMOD_NONE) -> SDL_Event {
        var e = SDL_Event()
        e.type = SDL_KEYDOWN.rawValue
        e.key.keysym.sym = SDL_Keycode(sym.rawValue)
        e.key.keysym.mod = UInt16(mod.rawValue)
        return e
    }

    func commands(_ events: [SDL_Event]) -> [MapCommand] {
        var c = InputController()
        return events.compactMap { SDLInput.translate($0, time: 0) }.flatMap { c.handle($0) }
    }

    @Test func clickTogglesTheTimer() {
        #expect(commands([button(SDL_MOUSEBUTTONDOWN, x: 10, y: 10), button(SDL_MOUSEBUTTONUP, x: 11, y: 10)]) == [.toggleTimer])
    }

    @Test func dragPans() {
        var move = SDL_Event()
        move.type = SDL_MOUSEMOTION.rawValue
        move.motion.x = 30; move.motion.y = 14
        #expect(commands([button(SDL_MOUSEBUTTONDOWN, x: 10, y: 10), move, button(SDL_MOUSEBUTTONUP, x: 30, y: 14)])
                == [.dragPan(x0: 10, y0: 10, x1: 30, y1: 14)])
    }

    @Test func keysMapToCommands() {
        #expect(commands([key(SDLK_EQUALS)]) == [.zoomCentered(delta: 1)])
        #expect(commands([key(SDLK_EQUALS, mod: KMOD_LSHIFT)]) == [.zoomCentered(delta: 1)])   // '+' on US keyboards
        #expect(commands([key(SDLK_PLUS)]) == [.zoomCentered(delta: 1)])
        #expect(commands([key(SDLK_KP_PLUS)]) == [.zoomCentered(delta: 1)])
        #expect(commands([key(SDLK_MINUS)]) == [.zoomCentered(delta: -1)])
        #expect(commands([key(SDLK_LEFT)]) == [.panEased(dx: 100, dy: 0)])
        #expect(commands([key(SDLK_0)]) == [.resetCamera])
        #expect(commands([key(SDLK_q)]) == [.quit])
        #expect(commands([key(SDLK_ESCAPE)]) == [.quit])
        #expect(commands([key(SDLK_SPACE)]) == [.toggleTimer])
        #expect(commands([key(SDLK_q, mod: KMOD_LCTRL)]) == [])
    }

    @Test func wheelAndQuit() {
        var w = SDL_Event()
        w.type = SDL_MOUSEWHEEL.rawValue
        w.wheel.y = 1; w.wheel.preciseY = 1; w.wheel.mouseX = 100; w.wheel.mouseY = 50
        #expect(commands([w]) == [.zoom(delta: 0.5, aroundX: 100, aroundY: 50, duration: 0.2)])
        var q = SDL_Event()
        q.type = SDL_QUIT.rawValue
        #expect(commands([q]) == [.quit])
    }
}
