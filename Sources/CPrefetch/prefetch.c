// The prefetch hint is a static inline function in include/prefetch.h; SwiftPM wants a source file.
#include "prefetch.h"
