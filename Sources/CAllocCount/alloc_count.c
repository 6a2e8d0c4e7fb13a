// Counts heap allocations: the executable's own malloc family interposes glibc's for the whole
// process (the dynamic linker finds the executable's symbols first) and forwards to glibc's
// internal entry points. One relaxed atomic increment per call.
#define _GNU_SOURCE
#include <errno.h>
#include <stddef.h>
#include <stdatomic.h>
#include <dlfcn.h>
#include <string.h>
#include <execinfo.h>
#include <stdio.h>
#include <malloc.h>
#include <unistd.h>
#include "alloc_count.h"

#if defined(__has_feature)
#  if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#    define NIGHTMAP_SANITIZED 1
#  endif
#endif

#ifdef NIGHTMAP_SANITIZED
// Under a sanitizer its own allocator must see every allocation: no wrappers, no counts.
unsigned long long nightmap_allocations(void) { return 0; }
void nightmap_trace_allocations(int on) { (void)on; }
#else

extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void *__libc_memalign(size_t, size_t);

static _Atomic unsigned long long allocations;
static _Atomic int tracing;
static _Thread_local int inTrace;

// While tracing, each allocation writes its call stack to stderr, one line "alloc: file+0x...
// file+0x... ..." (offsets into each loaded object, for addr2line); backtrace() is primed first,
// since its first call loads libgcc and allocates.
static void trace(void) {
    if (inTrace) return;
    inTrace = 1;
    void *frames[24];
    int n = backtrace(frames, 24);
    char line[24 * 96 + 16];
    int at = snprintf(line, sizeof line, "alloc:");
    for (int i = 1; i < n && at < (int)sizeof line - 96; i++) {
        Dl_info info;
        if (dladdr(frames[i], &info) && info.dli_fname) {
            const char *name = strrchr(info.dli_fname, '/');
            at += snprintf(line + at, sizeof line - at, " %s+0x%lx", name ? name + 1 : info.dli_fname,
                           (unsigned long)((char *)frames[i] - (char *)info.dli_fbase - 1));
        } else {
            at += snprintf(line + at, sizeof line - at, " %p", frames[i]);
        }
    }
    line[at++] = '\n';
    (void)!write(2, line, (size_t)at);
    inTrace = 0;
}

static inline void count(void) {
    atomic_fetch_add_explicit(&allocations, 1, memory_order_relaxed);
    if (atomic_load_explicit(&tracing, memory_order_relaxed)) trace();
}

void nightmap_trace_allocations(int on) {
    if (on) { void *f[2]; inTrace = 1; backtrace(f, 2); inTrace = 0; }
    atomic_store(&tracing, on);
}

unsigned long long nightmap_allocations(void) { return atomic_load_explicit(&allocations, memory_order_relaxed); }

void *malloc(size_t n) { count(); return __libc_malloc(n); }
void *calloc(size_t k, size_t n) { count(); return __libc_calloc(k, n); }
void *realloc(void *p, size_t n) { count(); return __libc_realloc(p, n); }
void *memalign(size_t a, size_t n) { count(); return __libc_memalign(a, n); }
void *aligned_alloc(size_t a, size_t n) { count(); return __libc_memalign(a, n); }

int posix_memalign(void **out, size_t a, size_t n) {
    if (a < sizeof(void *) || (a & (a - 1)) != 0) return EINVAL;
    count();
    void *p = __libc_memalign(a, n);
    if (p == NULL) return ENOMEM;
    *out = p;
    return 0;
}

#endif

int nightmap_limit_malloc_arenas(int arenas) {
    return mallopt(M_ARENA_MAX, arenas);
}

void nightmap_release_free_memory(void) {
    malloc_trim(0);
}
