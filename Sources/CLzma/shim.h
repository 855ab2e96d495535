#ifndef HABITER_CLZMA_SHIM_H
#define HABITER_CLZMA_SHIM_H
#include <lzma.h>
#endif
