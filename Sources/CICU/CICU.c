#include "CICU.h"

#include <unicode/ubidi.h>
#include <unicode/ushape.h>

// UChar is char16_t here, which has the size and representation of uint16_t.
_Static_assert(sizeof(UChar) == sizeof(uint16_t), "UChar is not 16 bits");

static const uint16_t writeOptions = UBIDI_DO_MIRRORING | UBIDI_REMOVE_BIDI_CONTROLS;

int32_t nm_shape_arabic(const uint16_t *text, int32_t length, uint16_t *dest, int32_t capacity) {
    UErrorCode error = U_ZERO_ERROR;
    int32_t shaped = u_shapeArabic((const UChar *)text, length, (UChar *)dest, capacity,
                                   (U_SHAPE_LETTERS_SHAPE & U_SHAPE_LETTERS_MASK) |
                                       (U_SHAPE_TEXT_DIRECTION_LOGICAL & U_SHAPE_TEXT_DIRECTION_MASK),
                                   &error);
    // Measuring (capacity 0) reports an overflow; only a real failure is one.
    return U_FAILURE(error) && !(error == U_BUFFER_OVERFLOW_ERROR && capacity == 0) ? -1 : shaped;
}

NMBidi *nm_bidi_open(void) { return (NMBidi *)ubidi_open(); }

void nm_bidi_close(NMBidi *bidi) { ubidi_close((UBiDi *)bidi); }

int32_t nm_bidi_set_paragraphs(NMBidi *bidi, const uint16_t *text, int32_t length) {
    UErrorCode error = U_ZERO_ERROR;
    ubidi_setPara((UBiDi *)bidi, (const UChar *)text, length, UBIDI_DEFAULT_LTR, NULL, &error);
    return U_FAILURE(error) ? -1 : ubidi_countParagraphs((UBiDi *)bidi);
}

int32_t nm_bidi_paragraph_limit(NMBidi *bidi, int32_t index) {
    UErrorCode error = U_ZERO_ERROR;
    int32_t limit = 0;
    ubidi_getParagraphByIndex((UBiDi *)bidi, index, NULL, &limit, NULL, &error);
    return U_FAILURE(error) ? -1 : limit;
}

int32_t nm_bidi_set_line(NMBidi *paragraphs, int32_t start, int32_t limit, NMBidi *line) {
    UErrorCode error = U_ZERO_ERROR;
    ubidi_setLine((UBiDi *)paragraphs, start, limit, (UBiDi *)line, &error);
    int32_t runs = ubidi_countRuns((UBiDi *)line, &error);
    return U_FAILURE(error) ? -1 : runs;
}

int nm_bidi_visual_run(NMBidi *line, int32_t run, int32_t *start, int32_t *length) {
    return ubidi_getVisualRun((UBiDi *)line, run, start, length) == UBIDI_RTL;
}

int32_t nm_bidi_write_line(NMBidi *line, uint16_t *dest, int32_t capacity) {
    UErrorCode error = U_ZERO_ERROR;
    int32_t written = ubidi_writeReordered((UBiDi *)line, (UChar *)dest, capacity, writeOptions, &error);
    return U_FAILURE(error) ? -1 : written;
}

int32_t nm_bidi_write_reverse(const uint16_t *text, int32_t length, uint16_t *dest, int32_t capacity) {
    UErrorCode error = U_ZERO_ERROR;
    int32_t written = ubidi_writeReverse((const UChar *)text, length, (UChar *)dest, capacity, writeOptions, &error);
    return U_FAILURE(error) ? -1 : written;
}
