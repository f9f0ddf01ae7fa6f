/* fuzz_units.c - libFuzzer target for the unit grammar (gpu_qty_read, gpu_qty_explain,
 * gpu_parse_size): any bytes. Properties: a reading is one of the four outcomes with its fields
 * consistent (OK: a finite value, a kind, EXACT only for a size or a plain number and then equal
 * to the value; WORD: a word; AMBIGUOUS: two readings; BAD: nothing); reading the same text
 * again gives the same result; the explanation is a terminated line; gpu_parse_size accepts
 * exactly the OK sizes that come to whole bytes. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu_parse.h"
#include "gpu_units.h"

#define CHECK(c)                                                                                  \
    do {                                                                                          \
        if (!(c)) {                                                                               \
            fprintf(stderr, "fuzz_units: %s:%d: check failed: %s\n", __FILE__, __LINE__, #c);     \
            abort();                                                                              \
        }                                                                                         \
    } while (0)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *s = (const char *)data;
    struct gpu_qty q, q2;
    enum gpu_qread r = gpu_qty_read(s, size, &q);
    CHECK(gpu_qty_read(s, size, &q2) == r && !memcmp(&q, &q2, sizeof q));
    switch (r) {
    case GPU_QR_OK:
        CHECK(isfinite(q.number));
        CHECK(!isnan(q.value));
        CHECK(q.kind <= GPU_QK_TIME && q.power >= 0 && q.power <= 5);
        if (q.flags & GPU_QF_EXACT) {
            CHECK(q.kind == GPU_QK_SIZE || (q.kind == GPU_QK_COUNT && !q.unit[0]));
            CHECK(fabs((double)q.exact - q.value) <= 1e-9 * q.value + 1e-9);
        }
        CHECK(memchr(q.unit, 0, sizeof q.unit));
        break;
    case GPU_QR_WORD:
        CHECK(q.word[0] && memchr(q.word, 0, sizeof q.word));
        break;
    case GPU_QR_AMBIGUOUS:
        CHECK(q.amb != GPU_QA_NONE && q.alt[0][0] && q.alt[1][0]);
        break;
    case GPU_QR_BAD:
        break;
    default:
        CHECK(0);
    }
    char msg[256];
    gpu_qty_explain(s, size, r, &q, msg, sizeof msg);
    CHECK(memchr(msg, 0, sizeof msg));
    /* gpu_parse_size reads a terminated string: the input up to its first NUL */
    char *z = malloc(size + 1);
    CHECK(z);
    memcpy(z, data, size);
    z[size] = 0;
    uint64_t v;
    char err[256];
    bool okp = gpu_parse_size(z, 0, UINT64_MAX, &v, err, sizeof err);
    if (!memchr(data, 0, size)) {
        bool size_ok = r == GPU_QR_OK && (q.flags & GPU_QF_EXACT) &&
                       (q.kind == GPU_QK_SIZE || (q.kind == GPU_QK_COUNT && !q.unit[0]));
        CHECK(okp == size_ok);
        if (okp) CHECK(v == q.exact);
    }
    free(z);
    return 0;
}
