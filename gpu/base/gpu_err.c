/* gpu_err.c - see gpu_err.h. */
#include "gpu_err.h"

#include <stdarg.h>
#include <stdio.h>

void gpu_errf(char *err, size_t n, const char *fmt, ...)
{
    if (!err || !n) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, n, fmt, ap);
    va_end(ap);
}
