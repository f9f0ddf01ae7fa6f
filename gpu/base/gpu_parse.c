/* gpu_parse.c - see gpu_parse.h. */
#include "gpu_parse.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu_err.h"
#include "gpu_esc.h"
#include "gpu_fmt.h"
#include "gpu_units.h"

/* Digits of s from *i on, into v; false on none or overflow (then *over tells which). */
static bool digits(const char *s, size_t *i, uint64_t *v, bool *over)
{
    size_t start = *i;
    uint64_t x = 0;
    *over = false;
    for (; s[*i] >= '0' && s[*i] <= '9'; (*i)++) {
        unsigned d = (unsigned)(s[*i] - '0');
        if (x > (UINT64_MAX - d) / 10) *over = true;
        else x = x * 10 + d;
    }
    *v = x;
    return *i > start && !*over;
}

/* "'TEXT'" for messages, cut short: the text may be anything a user typed or a file held. */
static void quote(const char *s, char *buf, size_t n) { gpu_esc_field(buf, n, s); }

static bool range_err(const char *what, unsigned long long lo, unsigned long long hi, char *err,
                      size_t n)
{
    gpu_errf(err, n, "%s is out of range [%llu, %llu]", what, lo, hi);
    return false;
}

bool gpu_parse_u64(const char *s, uint64_t lo, uint64_t hi, uint64_t *out, char *err, size_t n)
{
    char q[48];
    quote(s ? s : "", q, sizeof q);
    size_t i = 0;
    uint64_t v;
    bool over = false;
    if (!s || !digits(s, &i, &v, &over) || s[i]) {
        if (over && !s[i]) return range_err(q, lo, hi, err, n);
        gpu_errf(err, n, "'%s' is not a whole number", q);
        return false;
    }
    if (v < lo || v > hi) return range_err(q, lo, hi, err, n);
    *out = v;
    return true;
}

bool gpu_parse_double(const char *s, double lo, double hi, double *out, char *err, size_t n)
{
    char q[48];
    quote(s ? s : "", q, sizeof q);
    /* the syntax is checked here: strtod alone would take " 1", "0x10", "inf" and "nan" */
    size_t i = 0, d = 0;
    if (s && (s[i] == '-' || s[i] == '+')) i++;
    for (; s && s[i] >= '0' && s[i] <= '9'; i++) d++;
    if (s && s[i] == '.')
        for (i++; s[i] >= '0' && s[i] <= '9'; i++) d++;
    if (s && d && (s[i] == 'e' || s[i] == 'E')) {
        size_t e = ++i;
        if (s[i] == '-' || s[i] == '+') e = ++i;
        for (; s[i] >= '0' && s[i] <= '9'; i++) {}
        if (i == e) d = 0;
    }
    if (!s || !d || s[i]) {
        gpu_errf(err, n, "'%s' is not a number", q);
        return false;
    }
    errno = 0;
    double v = strtod(s, NULL);
    if (!isfinite(v) || !(v >= lo && v <= hi)) {
        gpu_errf(err, n, "%s is out of range [%g, %g]", q, lo, hi);
        return false;
    }
    *out = v;
    return true;
}

bool gpu_parse_size(const char *s, uint64_t lo, uint64_t hi, uint64_t *out, char *err, size_t n)
{
    char q[48], l[32], h[32];
    struct gpu_qty v;
    size_t len = s ? strlen(s) : 0;
    enum gpu_qread r = s ? gpu_qty_read(s, len, &v) : GPU_QR_BAD;
    quote(s ? s : "", q, sizeof q);
    gpu_fmt_bytes_exact(lo, l, sizeof l); /* "2 MiB", "4 TiB", "1000 B" */
    gpu_fmt_bytes_exact(hi, h, sizeof h);
    if (r == GPU_QR_AMBIGUOUS) {
        gpu_qty_explain(s, len, r, &v, err, n);
        return false;
    }
    if (r != GPU_QR_OK || !(v.kind == GPU_QK_SIZE || (v.kind == GPU_QK_COUNT && !v.unit[0]))) {
        gpu_errf(err, n, "'%s' is not a size such as 80GiB or 1.5 GB (a number with B, KB, MB, GB, "
                         "TB, KiB, MiB, GiB or TiB; bits as b, Gb)", q);
        return false;
    }
    if (v.value < 0 || !(v.value < 0x1p64) || ((v.flags & GPU_QF_EXACT) && (v.exact < lo || v.exact > hi)) ||
        (!(v.flags & GPU_QF_EXACT) && (v.value < (double)lo || v.value > (double)hi))) {
        gpu_errf(err, n, "%s is out of range [%s, %s]", q, l, h);
        return false;
    }
    if (!(v.flags & GPU_QF_EXACT)) {
        gpu_errf(err, n, "'%s' is not a whole number of bytes (%.10g B)", q, v.value);
        return false;
    }
    *out = v.exact;
    return true;
}
