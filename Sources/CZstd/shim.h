#ifndef HABITER_CZSTD_SHIM_H
#define HABITER_CZSTD_SHIM_H
#include <zstd.h>
#endif
