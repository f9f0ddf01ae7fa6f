/* gpu_fmt.c - numbers for people: see gpu_fmt.h. */
#include "gpu_fmt.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "gpu_float.h"

/* A whole number with a comma every three digits. */
static void grouped(double v, char *buf, size_t n)
{
    char d[64];
    snprintf(d, sizeof d, "%.0f", fabs(v));
    size_t len = strlen(d), o = 0;
    char out[96];
    if (v < 0 && strcmp(d, "0")) out[o++] = '-';
    for (size_t i = 0; i < len; i++) {
        if (i && (len - i) % 3 == 0) out[o++] = ',';
        out[o++] = d[i];
    }
    out[o] = 0;
    snprintf(buf, n, "%s", out);
}

void gpu_fmt_num(double v, char *buf, size_t n)
{
    double a = fabs(v);
    if (!isfinite(v)) snprintf(buf, n, "n/a");
    else if (a >= 1e18) snprintf(buf, n, "%.3g", v); /* past any count this tool shows */
    else if (a >= 1e4) grouped(v, buf, n);
    else if (a >= 1000 || gpu_feq(v, floor(v))) snprintf(buf, n, "%.0f", v);
    else if (a >= 100) snprintf(buf, n, "%.1f", v);
    else if (a >= 1) snprintf(buf, n, "%.2f", v);
    else if (a >= 1e-9) snprintf(buf, n, "%.*f", 2 - (int)floor(log10(a)), v);
    else snprintf(buf, n, "%.2e", v);
}

static int find(const char *const *list, const char *u, size_t len)
{
    for (int i = 0; list[i]; i++)
        if (strlen(list[i]) == len && !strncmp(list[i], u, len)) return i;
    return -1;
}

void gpu_fmt_qty(double v, const char *unit, char *buf, size_t n)
{
    static const char *const dec[] = {"B", "KB", "MB", "GB", "TB", "PB", NULL};
    static const char *const bin[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", NULL};
    char num[64];
    if (!unit || !*unit) {
        gpu_fmt_num(v, buf, n);
        return;
    }
    const char *rest = strchr(unit, '/'); /* "GB/s": scale the "GB", keep "/s" */
    size_t len = rest ? (size_t)(rest - unit) : strlen(unit);
    int i = find(dec, unit, len);
    const char *const *list = dec;
    double step = 1000;
    if (i < 0 && (i = find(bin, unit, len)) >= 0) list = bin, step = 1024;
    if (i >= 0 && isfinite(v) && !gpu_feq(v, 0)) {
        /* the lesson's unit stays unless the number would need an exponent or leading zeros */
        while (fabs(v) < 1 && i > 0) v *= step, i--;
        while (fabs(v) >= 1e6 && list[i + 1]) v /= step, i++;
        /* a byte count is whole: 780 B, never 780.00 B */
        if (i == 0 && fabs(v) >= 1) v = round(v);
        gpu_fmt_num(v, num, sizeof num);
        snprintf(buf, n, "%s %s%s", num, list[i], rest ? rest : "");
        return;
    }
    gpu_fmt_num(v, num, sizeof num);
    snprintf(buf, n, "%s %s", num, unit);
}

void gpu_fmt_bytes(double v, unsigned flags, char *buf, size_t n)
{
    static const char *const bin[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
    static const char *const dec[] = {"B", "KB", "MB", "GB", "TB", "PB"};
    static const char *const tick[] = {"", "K", "M", "G", "T", "P"};
    bool is_tick = flags & GPU_FMT_TICK;
    const char *const *u = is_tick ? tick : flags & GPU_FMT_DEC ? dec : bin;
    double base = flags & GPU_FMT_DEC ? 1000 : 1024;
    int fixed = (int)(flags >> 8 & 0xf) - 1, i = 0;
    char num[64];
    if (!isfinite(v)) {
        snprintf(buf, n, "n/a");
        return;
    }
    while (fabs(v) >= base && i < 5) v /= base, i++;
    /* the decimals gpu_fmt_num (or the caller) gives it; a value that rounds up to the base,
     * 1023.999 KiB, reads "1.00 MiB" rather than "1024 KiB" */
    int d = fixed >= 0 ? fixed : is_tick ? (gpu_feq(v, round(v)) || fabs(v) >= 100 ? 0 : 1)
                                         : fabs(v) >= 1000 ? 0 : fabs(v) >= 100 ? 1 : 2;
    if (i == 0) d = 0; /* a byte count is whole: 780 B */
    double p = pow(10, d);
    if (i < 5 && round(fabs(v) * p) / p >= base) v = v < 0 ? -1 : 1, i++;
    if (i == 0) v = round(v);
    if (fixed >= 0 && i > 0) snprintf(num, sizeof num, "%.*f", fixed, v);
    else if (is_tick) snprintf(num, sizeof num, "%.*f", gpu_feq(v, round(v)) || fabs(v) >= 100 ? 0 : 1, v);
    else gpu_fmt_num(v, num, sizeof num);
    snprintf(buf, n, "%s%s%s%s", num, is_tick ? "" : " ", u[i], flags & GPU_FMT_RATE ? "/s" : "");
}

void gpu_fmt_bytes_exact(uint64_t v, char *buf, size_t n)
{
    static const char *const bin[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
    int k = 0;
    while (k < 5 && v && v % 1024 == 0) v /= 1024, k++;
    snprintf(buf, n, "%llu %s", (unsigned long long)v, bin[k]);
}

void gpu_fmt_tick(double v, char *buf, size_t n)
{
    static const char *const sfx[] = {"", "K", "M", "G", "T", "P"};
    double a = fabs(v);
    int i = 0;
    if (!isfinite(v)) {
        snprintf(buf, n, "n/a");
        return;
    }
    if (a < 1000) {
        gpu_fmt_num(v, buf, n);
        return;
    }
    while (a >= 1000 && i < 5) a /= 1000, v /= 1000, i++;
    if (fabs(v - round(v)) < 1e-9) snprintf(buf, n, "%.0f%s", v, sfx[i]);
    else snprintf(buf, n, "%.*f%s", a >= 100 ? 0 : 1, v, sfx[i]);
}
