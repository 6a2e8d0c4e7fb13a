#ifndef NIGHTMAP_CJPEG_SHIM_H
#define NIGHTMAP_CJPEG_SHIM_H
#include <stdio.h>
#include <setjmp.h>
#include <string.h>
#include <stdint.h>
#include <jpeglib.h>
#include <jerror.h>

/* libjpeg reports errors through error_exit, which must not return: it longjmps back here, so
   no jump crosses Swift frames. */
typedef struct {
    struct jpeg_error_mgr base;
    jmp_buf jump;
    char message[JMSG_LENGTH_MAX];
    int ended_early;
} nm_jpeg_error;

static void nm_jpeg_error_exit(j_common_ptr info) {
    nm_jpeg_error *e = (nm_jpeg_error *)info->err;
    (*info->err->format_message)(info, e->message);
    longjmp(e->jump, 1);
}
static void nm_jpeg_output_message(j_common_ptr info) { (void)info; }
/* A data stream that ends early is only a warning to libjpeg (it fills the rest with grey):
   noted, so that a cut-off tile is refused instead. */
static void nm_jpeg_emit_message(j_common_ptr info, int level) {
    if (level < 0 && info->err->msg_code == JWRN_JPEG_EOF) ((nm_jpeg_error *)info->err)->ended_early = 1;
}

/* Reads the size of a JPEG in memory. Returns 0, or -1 with a reason. */
static inline int nm_jpeg_size(const unsigned char *data, size_t size, int *width, int *height, char *message, size_t message_size) {
    struct jpeg_decompress_struct info;
    nm_jpeg_error error;
    info.err = jpeg_std_error(&error.base);
    error.base.error_exit = nm_jpeg_error_exit;
    error.base.output_message = nm_jpeg_output_message;
    error.message[0] = 0;
    if (setjmp(error.jump)) {
        strncpy(message, error.message[0] ? error.message : "cannot read the JPEG", message_size - 1);
        message[message_size - 1] = 0;
        jpeg_destroy_decompress(&info);
        return -1;
    }
    jpeg_create_decompress(&info);
    jpeg_mem_src(&info, data, (unsigned long)size);
    jpeg_read_header(&info, TRUE);
    *width = (int)info.image_width;
    *height = (int)info.image_height;
    jpeg_destroy_decompress(&info);
    return 0;
}

/* Decodes a JPEG in memory into `out` (width * height * 4 bytes, RGBA, alpha 255), which the
   caller sized from nm_jpeg_size. Grey, YCbCr and CMYK files all come out as RGB (libjpeg-turbo's
   JCS_EXT_RGBA). Returns 0, or -1 with a reason. */
static inline int nm_jpeg_decode(const unsigned char *data, size_t size, int width, int height, unsigned char *out,
                                 char *message, size_t message_size) {
    struct jpeg_decompress_struct info;
    nm_jpeg_error error;
    info.err = jpeg_std_error(&error.base);
    error.base.error_exit = nm_jpeg_error_exit;
    error.base.output_message = nm_jpeg_output_message;
    error.base.emit_message = nm_jpeg_emit_message;
    error.message[0] = 0;
    error.ended_early = 0;
    if (setjmp(error.jump)) {
        strncpy(message, error.message[0] ? error.message : "cannot read the JPEG", message_size - 1);
        message[message_size - 1] = 0;
        jpeg_destroy_decompress(&info);
        return -1;
    }
    jpeg_create_decompress(&info);
    jpeg_mem_src(&info, data, (unsigned long)size);
    jpeg_read_header(&info, TRUE);
    if ((int)info.image_width != width || (int)info.image_height != height) {
        strncpy(message, "the size changed between two reads", message_size - 1);
        jpeg_destroy_decompress(&info);
        return -1;
    }
    if (info.jpeg_color_space == JCS_CMYK || info.jpeg_color_space == JCS_YCCK) {
        strncpy(message, "CMYK JPEGs are not supported", message_size - 1);
        jpeg_destroy_decompress(&info);
        return -1;
    }
    info.out_color_space = JCS_EXT_RGBA;
    jpeg_start_decompress(&info);
    while (info.output_scanline < info.output_height) {
        JSAMPROW row = out + (size_t)info.output_scanline * (size_t)width * 4;
        jpeg_read_scanlines(&info, &row, 1);
    }
    jpeg_finish_decompress(&info);
    jpeg_destroy_decompress(&info);
    if (error.ended_early) {
        strncpy(message, "the data ends early", message_size - 1);
        message[message_size - 1] = 0;
        return -1;
    }
    return 0;
}
#endif
