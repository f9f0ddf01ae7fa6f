/* gpu_json.c - see gpu_json.h. */
#include "gpu_json.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

/* One UTF-8 sequence at s (n bytes left): its length, or 0 when it is not valid UTF-8 (cut,
 * overlong, a surrogate, past U+10FFFF). */
static int utf8_len(const unsigned char *s, size_t n, unsigned *cp)
{
    unsigned c = s[0], min;
    int len;
    if (c < 0x80) return *cp = c, 1;
    if (c >= 0xc2 && c <= 0xdf) len = 2, c &= 0x1f, min = 0x80;
    else if (c >= 0xe0 && c <= 0xef) len = 3, c &= 0x0f, min = 0x800;
    else if (c >= 0xf0 && c <= 0xf4) len = 4, c &= 0x07, min = 0x10000;
    else return 0;
    if ((size_t)len > n) return 0;
    for (int i = 1; i < len; i++) {
        if ((s[i] & 0xc0) != 0x80) return 0;
        c = c << 6 | (s[i] & 0x3f);
    }
    if (c < min || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff)) return 0;
    *cp = c;
    return len;
}

static bool escaped(unsigned cp)
{
    return cp < 0x20 || cp == 0x7f || (cp >= 0x80 && cp <= 0x9f) || cp == 0x61c || cp == 0x200e ||
           cp == 0x200f || (cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069) ||
           cp == 0x2028 || cp == 0x2029;
}

void gpu_json_str(const char *s, void (*put)(void *ud, const char *p, size_t n), void *ud)
{
    const unsigned char *u = (const unsigned char *)(s ? s : "");
    size_t n = strlen((const char *)u), run = 0, i = 0;
    char esc[8];
    put(ud, "\"", 1);
    while (i < n) {
        unsigned cp;
        int k = utf8_len(u + i, n - i, &cp);
        if (k && cp != '"' && cp != '\\' && !escaped(cp)) {
            i += (size_t)k;
            continue;
        }
        if (i > run) put(ud, (const char *)u + run, i - run);
        if (!k) put(ud, "\\ufffd", 6), k = 1;
        else if (cp == '"' || cp == '\\') esc[0] = '\\', esc[1] = (char)cp, put(ud, esc, 2);
        else if (cp == '\n') put(ud, "\\n", 2);
        else if (cp == '\t') put(ud, "\\t", 2);
        else put(ud, esc, (size_t)snprintf(esc, sizeof esc, "\\u%04x", cp));
        i += (size_t)k;
        run = i;
    }
    if (i > run) put(ud, (const char *)u + run, i - run);
    put(ud, "\"", 1);
}
