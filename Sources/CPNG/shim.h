#ifndef NIGHTMAP_CPNG_SHIM_H
#define NIGHTMAP_CPNG_SHIM_H
#include <png.h>
#include <string.h>

/* PNG_FORMAT_RGBA is built from macro aliases and is not imported into Swift. */
static inline png_uint_32 nm_png_format_rgba(void) { return PNG_FORMAT_RGBA; }
static inline png_uint_32 nm_png_image_version(void) { return PNG_IMAGE_VERSION; }
static inline int nm_png_image_failed(const png_image *img) { return PNG_IMAGE_FAILED(*img); }
static inline size_t nm_png_image_size(const png_image *img) { return PNG_IMAGE_SIZE(*img); }
#endif
