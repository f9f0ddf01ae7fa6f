/* gpu_utf8.c - see gpu_utf8.h. */
#include "gpu_utf8.h"

static bool cont(unsigned char c) { return (c & 0xc0) == 0x80; }

/* The length a lead byte announces (2..4), its payload bits and the smallest code point that
 * length may carry (anything below is overlong); 0 for an ASCII byte, -1 for an invalid lead. */
static int lead(unsigned char c, unsigned *bits, unsigned *min)
{
    if (c < 0x80) return 0;
    if (c >= 0xc2 && c <= 0xdf) return *bits = c & 0x1f, *min = 0x80, 2;
    if (c >= 0xe0 && c <= 0xef) return *bits = c & 0x0f, *min = 0x800, 3;
    if (c >= 0xf0 && c <= 0xf4) return *bits = c & 0x07, *min = 0x10000, 4;
    return -1;
}

int gpu_utf8_next(const char *s, size_t n, unsigned *cp, unsigned flags)
{
    const unsigned char *u = (const unsigned char *)s;
    unsigned c, min;
    int len = lead(u[0], &c, &min);
    if (len == 0) return *cp = u[0], 1;
    if (len < 0 || (size_t)len > n) return 0;
    for (int i = 1; i < len; i++) {
        if (!cont(u[i])) return 0;
        c = c << 6 | (u[i] & 0x3f);
    }
    if (c < min || c > 0x10ffff) return 0;
    if (c >= 0xd800 && c <= 0xdfff && !(flags & GPU_UTF8_SURROGATES)) return 0;
    *cp = c;
    return len;
}

int gpu_utf8_decode(const char *s, size_t n, unsigned *cp)
{
    int k = gpu_utf8_next(s, n, cp, 0);
    if (k) return k;
    *cp = 0xfffd;
    return 1;
}

size_t gpu_utf8_prev(const char *s, size_t i)
{
    if (i == 0) return 0;
    size_t j = i - 1;
    for (int k = 0; k < 3 && j > 0 && cont((unsigned char)s[j]); k++) j--;
    unsigned cp;
    /* only a sequence that decodes to exactly [j, i) is one character; else one stray byte */
    return j + (size_t)gpu_utf8_decode(s + j, i - j, &cp) == i ? j : i - 1;
}

size_t gpu_utf8_cut(const char *s, size_t n)
{
    size_t j = n;
    /* back over at most three continuation bytes to the lead whose sequence n would split */
    for (int k = 0; k < 3 && j > 0 && s[j] && cont((unsigned char)s[j]); k++) j--;
    if (j == n) return n;
    unsigned cp;
    size_t end = j + (size_t)gpu_utf8_decode(s + j, n - j + 4, &cp);
    return end > n ? j : n;
}

bool gpu_utf8_partial(const char *s, size_t n)
{
    const unsigned char *u = (const unsigned char *)s;
    unsigned c, min;
    int len = n ? lead(u[0], &c, &min) : -1;
    if (len <= 0 || (size_t)len <= n) return false;
    for (size_t i = 1; i < n; i++)
        if (!cont(u[i])) return false;
    return true;
}

int gpu_utf8_encode(unsigned cp, unsigned flags, char *out)
{
    unsigned char *o = (unsigned char *)out;
    if (cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff && !(flags & GPU_UTF8_SURROGATES)))
        cp = 0xfffd;
    if (cp < 0x80) return o[0] = (unsigned char)cp, 1;
    if (cp < 0x800) {
        o[0] = (unsigned char)(0xc0 | cp >> 6);
        o[1] = (unsigned char)(0x80 | (cp & 0x3f));
        return 2;
    }
    if (cp < 0x10000) {
        o[0] = (unsigned char)(0xe0 | cp >> 12);
        o[1] = (unsigned char)(0x80 | (cp >> 6 & 0x3f));
        o[2] = (unsigned char)(0x80 | (cp & 0x3f));
        return 3;
    }
    o[0] = (unsigned char)(0xf0 | cp >> 18);
    o[1] = (unsigned char)(0x80 | (cp >> 12 & 0x3f));
    o[2] = (unsigned char)(0x80 | (cp >> 6 & 0x3f));
    o[3] = (unsigned char)(0x80 | (cp & 0x3f));
    return 4;
}

bool gpu_utf8_valid(const char *s, size_t n, unsigned flags)
{
    for (size_t i = 0; i < n;) {
        if ((unsigned char)s[i] < 0x80) {
            i++;
            continue;
        }
        unsigned cp;
        int k = gpu_utf8_next(s + i, n - i, &cp, flags);
        if (!k) return false;
        i += (size_t)k;
    }
    return true;
}

bool gpu_utf8_wide(unsigned cp)
{
    return (cp >= 0x1100 && cp <= 0x115f) || (cp >= 0x2e80 && cp <= 0x303e) ||
           (cp >= 0x3041 && cp <= 0x33ff) || (cp >= 0x3400 && cp <= 0x4dbf) ||
           (cp >= 0x4e00 && cp <= 0x9fff) || (cp >= 0xa000 && cp <= 0xa4cf) ||
           (cp >= 0xac00 && cp <= 0xd7a3) || (cp >= 0xf900 && cp <= 0xfaff) ||
           (cp >= 0xfe30 && cp <= 0xfe4f) || (cp >= 0xff00 && cp <= 0xff60) ||
           (cp >= 0xffe0 && cp <= 0xffe6) || (cp >= 0x20000 && cp <= 0x3fffd);
}

bool gpu_utf8_join_tight(const char *a, size_t alen, const char *b, size_t bn)
{
    if (!alen || !bn) return false;
    unsigned x, y;
    size_t i = gpu_utf8_prev(a, alen);
    gpu_utf8_decode(a + i, alen - i, &x);
    gpu_utf8_decode(b, bn, &y);
    return gpu_utf8_wide(x) && gpu_utf8_wide(y);
}
