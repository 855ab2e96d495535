#ifndef HABITER_CBROTLI_SHIM_H
#define HABITER_CBROTLI_SHIM_H
#include <brotli/decode.h>
#include <brotli/encode.h>
#endif
