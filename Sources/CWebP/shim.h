#ifndef NIGHTMAP_CWEBP_SHIM_H
#define NIGHTMAP_CWEBP_SHIM_H
#include <webp/decode.h>
#endif
