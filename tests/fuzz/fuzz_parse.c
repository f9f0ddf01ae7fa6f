/* fuzz_parse.c - libFuzzer target for the strict number and size readers (gpu_parse.h) and the
 * UTF-8 codec (gpu_utf8.h), which read what a user types and a file holds. The input is cut at
 * its first NUL and read as a whole number, a number and a size, each against a range taken
 * from its first bytes. Properties: an accepted value is inside the range; a refusal says why in
 * a terminated message and leaves the output alone; a refused number never has a value that a
 * stricter range would take. UTF-8: the strict walk and gpu_utf8_valid agree, every sequence the
 * strict decoder takes re-encodes to the same bytes, and prev() walks back over the boundaries
 * decode() found forward. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu_parse.h"
#include "gpu_utf8.h"

#define CHECK(c)                                                                                  \
    do {                                                                                          \
        if (!(c)) {                                                                               \
            fprintf(stderr, "fuzz_parse: %s:%d: check failed: %s\n", __FILE__, __LINE__, #c);     \
            abort();                                                                              \
        }                                                                                         \
    } while (0)

static void utf8(const char *s, size_t n)
{
    bool ok = true;
    size_t starts = 0;
    for (size_t i = 0; i < n;) {
        unsigned cp;
        int k = gpu_utf8_next(s + i, n - i, &cp, 0);
        if (!k) {
            ok = false;
            break;
        }
        char b[4];
        CHECK(gpu_utf8_encode(cp, 0, b) == k && !memcmp(b, s + i, (size_t)k));
        i += (size_t)k;
    }
    CHECK(ok == gpu_utf8_valid(s, n, 0));
    /* lenient walk forward, then back: the same boundaries */
    size_t *at = malloc((n + 1) * sizeof *at);
    if (!at) return;
    for (size_t i = 0; i < n;) {
        unsigned cp;
        at[starts++] = i;
        i += (size_t)gpu_utf8_decode(s + i, n - i, &cp);
    }
    for (size_t j = starts, i = n; j > 0; j--) {
        i = gpu_utf8_prev(s, i);
        CHECK(i == at[j - 1]);
    }
    free(at);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    uint64_t lo = 0, hi = UINT64_MAX;
    if (size >= 2) lo = data[0], hi = data[1] ? (uint64_t)data[1] << (data[0] % 56) : UINT64_MAX;
    if (lo > hi) lo = 0;
    char *s = malloc(size + 1);
    if (!s) return 0;
    memcpy(s, data, size);
    s[size] = 0;
    utf8(s, size);
    char err[128];
    uint64_t v = 12345;
    memset(err, 'x', sizeof err);
    if (gpu_parse_u64(s, lo, hi, &v, err, sizeof err)) CHECK(v >= lo && v <= hi);
    else CHECK(v == 12345 && memchr(err, 0, sizeof err));
    v = 12345;
    memset(err, 'x', sizeof err);
    if (gpu_parse_size(s, lo, hi, &v, err, sizeof err)) CHECK(v >= lo && v <= hi);
    else CHECK(v == 12345 && memchr(err, 0, sizeof err));
    double d = 0.5, dlo = size ? -(double)data[0] : 0, dhi = 1e6;
    memset(err, 'x', sizeof err);
    if (gpu_parse_double(s, dlo, dhi, &d, err, sizeof err)) CHECK(d >= dlo && d <= dhi);
    else CHECK(d == 0.5 && memchr(err, 0, sizeof err));
    free(s);
    return 0;
}
