#ifndef HABITER_CBZIP2_SHIM_H
#define HABITER_CBZIP2_SHIM_H
#include <bzlib.h>
#endif
