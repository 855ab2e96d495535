#ifndef HABITER_CZLIB_SHIM_H
#define HABITER_CZLIB_SHIM_H
#include <zlib.h>
#endif
