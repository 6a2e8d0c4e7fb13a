#ifndef NIGHTMAP_CGIF_SHIM_H
#define NIGHTMAP_CGIF_SHIM_H
#include <gif_lib.h>
#endif
