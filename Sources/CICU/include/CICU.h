#ifndef NIGHTMAP_CICU_H
#define NIGHTMAP_CICU_H
#include <stdint.h>

// The few ICU calls ICUBidi makes (Debian's libicu), behind plain C types. Swift must not see
// ICU's own headers: Foundation brings its private copy of ICU (_FoundationICU, a newer
// version whose UErrorCode has more cases), and Clang refuses two different definitions of
// the same types in one Swift module. Failures are -1 (NULL from nm_bidi_open).

/// A UBiDi object (opaque).
typedef struct NMBidi NMBidi;

/// u_shapeArabic with letter shaping in logical order (mapbox-gl-rtl-text's options): the
/// length of the shaped text, written to dest if it fits in capacity (0 and NULL only measure).
int32_t nm_shape_arabic(const uint16_t *text, int32_t length, uint16_t *dest, int32_t capacity);

NMBidi *nm_bidi_open(void);
void nm_bidi_close(NMBidi *bidi);
/// ubidi_setPara with UBIDI_DEFAULT_LTR: the number of paragraphs. text must outlive every use
/// of bidi and of the lines set from it.
int32_t nm_bidi_set_paragraphs(NMBidi *bidi, const uint16_t *text, int32_t length);
/// Where paragraph index ends (its limit, in code units).
int32_t nm_bidi_paragraph_limit(NMBidi *bidi, int32_t index);
/// ubidi_setLine: line becomes [start, limit) of paragraphs; the number of its visual runs.
int32_t nm_bidi_set_line(NMBidi *paragraphs, int32_t start, int32_t limit, NMBidi *line);
/// Visual run run of line: its logical start (in the line) and length; 1 if right-to-left.
int nm_bidi_visual_run(NMBidi *line, int32_t run, int32_t *start, int32_t *length);
/// ubidi_writeReordered of line, mirrored and without bidi controls: the units written.
int32_t nm_bidi_write_line(NMBidi *line, uint16_t *dest, int32_t capacity);
/// ubidi_writeReverse of text, mirrored and without bidi controls: the units written.
int32_t nm_bidi_write_reverse(const uint16_t *text, int32_t length, uint16_t *dest, int32_t capacity);

#endif
