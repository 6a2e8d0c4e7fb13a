#ifndef NIGHTMAP_PREFETCH_H
#define NIGHTMAP_PREFETCH_H

/// Asks the processor to bring the cache line holding `p` in for writing, without waiting
/// (Swift has no spelling of the prefetch instruction). A hint: any address is allowed.
static inline __attribute__((always_inline)) void nightmap_prefetch_write(const void *p) {
    __builtin_prefetch(p, 1, 3);
}

#endif
