/* gpu_float.h - exact floating-point comparison, where exactness is what is meant: a value that
 * is a whole number (v == floor(v)), a zero that stands for "none", a sort key. The build warns
 * on == and != between doubles (-Wfloat-equal) so that a tolerance is never forgotten by
 * accident; this is the one place that warning is silenced, so each exact comparison is named.
 * Pure: no allocation, usable by every layer. */
#ifndef GPU_FLOAT_H
#define GPU_FLOAT_H

#include <stdbool.h>

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wfloat-equal"
static inline bool gpu_feq(double a, double b) { return a == b; }
#pragma GCC diagnostic pop

#endif
