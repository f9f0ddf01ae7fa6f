/* gpu_err.h - the one way to fill a caller's error buffer: the (char *err, size_t n) pattern
 * (docs/styleguide.md, "Errors") used by loaders, parsers and the allocator model of every
 * layer. Pure: no allocation, no printing. */
#ifndef GPU_ERR_H
#define GPU_ERR_H

#include <stddef.h>

/* printf into err (n bytes, always terminated, truncated when longer); nothing when err is NULL
 * or n is 0, so a caller that does not want the message passes NULL, 0. */
void gpu_errf(char *err, size_t n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

#endif
