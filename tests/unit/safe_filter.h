/* safe_filter.h - for unit tests (after cmocka.h): what tui_out_filter shows for some bytes,
 * collected into a buffer. filter() returns a static buffer, valid until the next call. */
#ifndef SAFE_FILTER_H
#define SAFE_FILTER_H

#include <string.h>

#include "tui_out.h"

struct buf {
    char s[4096];
    size_t n;
};

static void put(void *ud, const char *p, size_t n)
{
    struct buf *b = ud;
    assert_true(b->n + n < sizeof b->s);
    memcpy(b->s + b->n, p, n);
    b->n += n;
    b->s[b->n] = 0;
}

static const char *filter(const char *s, size_t n)
{
    static struct buf b;
    b.n = 0, b.s[0] = 0;
    assert_int_equal(tui_out_filter(s, n, true, put, &b), n);
    return b.s;
}

#endif
