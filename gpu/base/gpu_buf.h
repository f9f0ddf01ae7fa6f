/* gpu_buf.h - the one string builder: text appended to a caller's fixed buffer (always
 * NUL-terminated, cut at its end, with `len` counting what the whole text needs, as snprintf
 * counts) or to a heap buffer that grows (GPU_BUF_GROW; the caller frees p). Used by the
 * ledger's and the allocator's text reports, the REPL's printer and the markup parser. Pure: no
 * Lua, no ncurses, no state. Tested in tests/unit/test_gpu_fmt.c. */
#ifndef GPU_BUF_H
#define GPU_BUF_H

#include <stdbool.h>
#include <stddef.h>

struct gpu_buf {
    char *p;    /* the text (NULL in a growing buffer until something is added) */
    size_t cap; /* bytes p holds */
    size_t len; /* bytes the whole text needs; more than cap - 1 when a fixed buffer cut it */
    bool grow;  /* p is the builder's own heap buffer, grown as needed */
    bool oom;   /* a growing buffer could not grow: the text is cut there */
};
#define GPU_BUF_FIXED(buf, n) ((struct gpu_buf){.p = (buf), .cap = (n)})
#define GPU_BUF_GROW ((struct gpu_buf){.grow = true})

/* Append n bytes of s / formatted text. False when the text was cut (a full fixed buffer, or a
 * growing one out of memory). */
bool gpu_buf_add(struct gpu_buf *b, const char *s, size_t n);
bool gpu_buf_printf(struct gpu_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Bytes of text now in p (len, or less where it was cut). */
size_t gpu_buf_used(const struct gpu_buf *b);

#endif
