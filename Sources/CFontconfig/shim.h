#ifndef NIGHTMAP_CFONTCONFIG_SHIM_H
#define NIGHTMAP_CFONTCONFIG_SHIM_H
#include <fontconfig/fontconfig.h>
#endif
