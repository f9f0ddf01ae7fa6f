/* gpu_buf.c - see gpu_buf.h. */
#include "gpu_buf.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

size_t gpu_buf_used(const struct gpu_buf *b)
{
    if (!b->cap) return 0;
    return b->len < b->cap - 1 ? b->len : b->cap - 1;
}

/* Room for `extra` more bytes and the NUL in a growing buffer (doubling, so appends stay
 * linear); false in a fixed one or out of memory. */
static bool reserve(struct gpu_buf *b, size_t extra)
{
    if (!b->grow || b->oom) return false;
    if (b->len + extra + 1 <= b->cap) return true;
    size_t nc = (b->len + extra + 1) * 2;
    char *np = realloc(b->p, nc);
    if (!np) {
        b->oom = true;
        return false;
    }
    b->p = np, b->cap = nc;
    return true;
}

bool gpu_buf_add(struct gpu_buf *b, const char *s, size_t n)
{
    reserve(b, n);
    size_t used = gpu_buf_used(b), room = b->cap > used + 1 ? b->cap - 1 - used : 0;
    size_t k = n < room ? n : room;
    if (k) memcpy(b->p + used, s, k);
    if (b->cap) b->p[used + k] = 0;
    b->len += n;
    return k == n;
}

bool gpu_buf_printf(struct gpu_buf *b, const char *fmt, ...)
{
    va_list ap, again;
    va_start(ap, fmt);
    va_copy(again, ap);
    size_t used = gpu_buf_used(b), room = b->cap - used; /* the NUL included */
    int k = vsnprintf(b->cap ? b->p + used : NULL, b->cap ? room : 0, fmt, ap);
    va_end(ap);
    if (k > 0 && (size_t)k >= room && reserve(b, (size_t)k)) {
        room = b->cap - used;
        vsnprintf(b->p + used, room, fmt, again);
    }
    va_end(again);
    if (k < 0) return false;
    b->len += (size_t)k;
    return (size_t)k < room;
}
