#ifndef NIGHTMAP_ALLOC_COUNT_H
#define NIGHTMAP_ALLOC_COUNT_H

/// Heap allocations (malloc, calloc, realloc, memalign, posix_memalign, aligned_alloc) made by
/// the whole process so far. The counting wrappers are linked into the nightmap executable, so
/// the benchmark can report allocations per frame.
unsigned long long nightmap_allocations(void);

/// While on, every allocation writes its call stack to stderr as "alloc: 0x... 0x..." (return
/// addresses, for addr2line): how the benchmark shows where a warm frame still allocates.
void nightmap_trace_allocations(int on);

/// Lets glibc's malloc keep at most `arenas` arenas (mallopt M_ARENA_MAX); returns 1 when set.
int nightmap_limit_malloc_arenas(int arenas);

/// Gives the memory malloc holds free back to the system (malloc_trim): decoding a radar frame
/// passes through buffers of 10 MB, which glibc otherwise keeps resident once freed.
void nightmap_release_free_memory(void);

#endif
