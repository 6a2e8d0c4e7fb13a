#ifndef NIGHTMAP_CZLIB_SHIM_H
#define NIGHTMAP_CZLIB_SHIM_H
#include <zlib.h>
#include <string.h>

/* inflateInit2 is a macro that passes the library's version and the stream's size. */
static inline int nm_inflate_init(z_stream *s, int window_bits) {
    memset(s, 0, sizeof *s);
    return inflateInit2(s, window_bits);
}
#endif
