#ifndef NIGHTMAP_CPNG_SHIM_H
#define NIGHTMAP_CPNG_SHIM_H
#include <png.h>
#include <string.h>

/* PNG_FORMAT_RGBA is built from macro aliases and is not imported into Swift. */
static inline png_uint_32 nm_png_format_rgba(void) { return PNG_FORMAT_RGBA; }
static inline png_uint_32 nm_png_image_version(void) { return PNG_IMAGE_VERSION; }
static inline int nm_png_image_failed(const png_image *img) { return PNG_IMAGE_FAILED(*img); }
static inline size_t nm_png_image_size(const png_image *img) { return PNG_IMAGE_SIZE(*img); }

#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>

/* Reading a PNG row by row with libpng's own API (its errors come back through setjmp, which
   stays inside these C functions). */
typedef struct { const unsigned char *data; size_t size, pos; } nm_png_memory;
typedef struct { jmp_buf jump; char message[160]; } nm_png_failure;

static void nm_png_on_error(png_structp png, png_const_charp msg) {
    nm_png_failure *f = (nm_png_failure *)png_get_error_ptr(png);
    strncpy(f->message, msg ? msg : "libpng error", sizeof f->message - 1);
    f->message[sizeof f->message - 1] = 0;
    longjmp(f->jump, 1);
}
static void nm_png_on_warning(png_structp png, png_const_charp msg) { (void)png; (void)msg; }
static void nm_png_read_memory(png_structp png, png_bytep out, png_size_t n) {
    nm_png_memory *m = (nm_png_memory *)png_get_io_ptr(png);
    if (n > m->size - m->pos) png_error(png, "the data ends early");
    memcpy(out, m->data + m->pos, n);
    m->pos += n;
}

/* Decodes `data` keeping only the pixels picked: output pixel (x, y) is source pixel
   (columns[x], rows[y]) as straight RGBA8 (a negative or out-of-range index gives a clear pixel).
   `rows` must not decrease. The image is read one row at a time and never held whole; reading
   stops after the last row picked. Returns 0, or -1 with a reason in `message`. */
static inline int nm_png_read_sampled(const unsigned char *data, size_t size, const int32_t *columns, int out_w,
                                      const int32_t *rows, int out_h, unsigned char *out, char *message, size_t message_size) {
    nm_png_memory memory = { data, size, 0 };
    nm_png_failure failure;
    failure.message[0] = 0;
    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &failure, nm_png_on_error, nm_png_on_warning);
    if (!png) { strncpy(message, "cannot start libpng", message_size - 1); return -1; }
    png_infop info = png_create_info_struct(png);
    unsigned char *volatile row = NULL;
    if (!info || setjmp(failure.jump)) {
        if (message_size > 0) { strncpy(message, failure.message[0] ? failure.message : "cannot read the PNG", message_size - 1); message[message_size - 1] = 0; }
        free(row);
        png_destroy_read_struct(&png, info ? &info : NULL, NULL);
        return -1;
    }
    png_set_read_fn(png, &memory, nm_png_read_memory);
    png_read_info(png, info);
    png_uint_32 width = png_get_image_width(png, info), height = png_get_image_height(png, info);
    if (width == 0 || height == 0 || width > (1u << 20) || height > (1u << 20)) png_error(png, "the image size is out of range");
    if (png_get_interlace_type(png, info) != PNG_INTERLACE_NONE) png_error(png, "interlaced PNGs cannot be read row by row");
    png_set_expand(png);
    png_set_strip_16(png);
    png_set_gray_to_rgb(png);
    png_set_add_alpha(png, 0xff, PNG_FILLER_AFTER);
    png_read_update_info(png, info);
    if (png_get_rowbytes(png, info) != (size_t)width * 4) png_error(png, "unexpected row layout");
    row = (unsigned char *)malloc((size_t)width * 4);
    if (!row) png_error(png, "out of memory");
    memset(out, 0, (size_t)out_w * (size_t)out_h * 4);
    int k = 0;
    while (k < out_h && rows[k] < 0) k++;
    for (png_uint_32 y = 0; y < height && k < out_h; y++) {
        png_read_row(png, row, NULL);
        while (k < out_h && rows[k] == (int32_t)y) {
            unsigned char *o = out + (size_t)k * (size_t)out_w * 4;
            for (int x = 0; x < out_w; x++) {
                int32_t c = columns[x];
                if (c >= 0 && (png_uint_32)c < width) memcpy(o + (size_t)x * 4, row + (size_t)c * 4, 4);
            }
            k++;
        }
        while (k < out_h && rows[k] >= 0 && (png_uint_32)rows[k] < y) k++;   /* (never: rows do not decrease) */
    }
    free(row);
    row = NULL;
    png_destroy_read_struct(&png, &info, NULL);
    return 0;
}
#endif
