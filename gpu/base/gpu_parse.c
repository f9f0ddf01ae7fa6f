/* gpu_parse.c - see gpu_parse.h. */
#include "gpu_parse.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu_esc.h"

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
    snprintf(err, n, "%s is out of range [%llu, %llu]", what, lo, hi);
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
        snprintf(err, n, "'%s' is not a whole number", q);
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
        snprintf(err, n, "'%s' is not a number", q);
        return false;
    }
    errno = 0;
    double v = strtod(s, NULL);
    if (!isfinite(v) || !(v >= lo && v <= hi)) {
        snprintf(err, n, "%s is out of range [%g, %g]", q, lo, hi);
        return false;
    }
    *out = v;
    return true;
}

/* A limit in the largest binary unit that states it exactly: "2 MiB", "4 TiB", "1000 B". */
static void exact(uint64_t b, char *buf, size_t n)
{
    static const char *const unit[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    int k = 0;
    while (k < 4 && b && b % 1024 == 0) b /= 1024, k++;
    snprintf(buf, n, "%llu %s", (unsigned long long)b, unit[k]);
}

bool gpu_parse_size(const char *s, uint64_t lo, uint64_t hi, uint64_t *out, char *err, size_t n)
{
    static const struct {
        const char *suf;
        unsigned shift;
    } u[] = {{"", 0}, {"B", 0}, {"KiB", 10}, {"MiB", 20}, {"GiB", 30}, {"TiB", 40}};
    char q[48];
    quote(s ? s : "", q, sizeof q);
    size_t i = 0;
    uint64_t v;
    bool over = false;
    bool num = s && digits(s, &i, &v, &over);
    for (size_t k = 0; num && k < sizeof u / sizeof u[0]; k++) {
        if (strcmp(s + i, u[k].suf)) continue;
        if (v > (hi >> u[k].shift) || (v << u[k].shift) < lo) break;
        *out = v << u[k].shift;
        return true;
    }
    if (s && (num || over)) {
        size_t k = 0;
        while (k < sizeof u / sizeof u[0] && strcmp(s + i, u[k].suf)) k++;
        if (k < sizeof u / sizeof u[0]) {
            char l[32], h[32];
            exact(lo, l, sizeof l);
            exact(hi, h, sizeof h);
            snprintf(err, n, "%s is out of range [%s, %s]", q, l, h);
            return false;
        }
    }
    snprintf(err, n, "'%s' is not a size such as 80GiB (a whole number, optionally with B, KiB, "
                     "MiB, GiB or TiB)", q);
    return false;
}
