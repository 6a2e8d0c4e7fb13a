#ifndef NIGHTMAP_CSDL2_SHIM_H
#define NIGHTMAP_CSDL2_SHIM_H
#define SDL_MAIN_HANDLED 1
#include <SDL2/SDL.h>

/* Function-like macros Swift cannot import. */
static inline int nm_windowpos_centered(void) { return (int)SDL_WINDOWPOS_CENTERED; }
static inline Uint32 nm_event_type(const SDL_Event *e) { return e->type; }
#endif
