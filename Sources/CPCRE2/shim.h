#ifndef HABITER_CPCRE2_SHIM_H
#define HABITER_CPCRE2_SHIM_H
#ifndef PCRE2_CODE_UNIT_WIDTH
#define PCRE2_CODE_UNIT_WIDTH 8
#endif
#include <pcre2.h>
#endif
