#ifndef NIGHTMAP_CHARFBUZZ_SHIM_H
#define NIGHTMAP_CHARFBUZZ_SHIM_H
#include <hb.h>
#endif
