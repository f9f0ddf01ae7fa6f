/* gpu_esc.c - see gpu_esc.h. */
#include "gpu_esc.h"

#include <stdio.h>
#include <string.h>

#include "gpu_utf8.h"

bool gpu_esc_control(unsigned cp)
{
    return cp < 0x20 || cp == 0x7f || (cp >= 0x80 && cp <= 0x9f) || cp == 0x61c ||
           cp == 0x200e || cp == 0x200f || (cp >= 0x202a && cp <= 0x202e) ||
           (cp >= 0x2066 && cp <= 0x2069);
}

/* The piece that shows the character at u (len bytes left): into esc when it is escaped. Its
 * length in u goes to *k. */
static const char *piece(const unsigned char *u, size_t len, char esc[12], size_t *pl, int *k)
{
    unsigned cp = 0;
    *k = gpu_utf8_next((const char *)u, len, &cp, 0);
    if (!*k) {
        *k = 1, *pl = 3;
        return "\xef\xbf\xbd"; /* not UTF-8 */
    }
    if (gpu_esc_control(cp)) {
        *pl = (size_t)snprintf(esc, 12, cp < 0x80 ? "\\x%02x" : "\\u%04x", cp);
        return esc;
    }
    *pl = (size_t)*k;
    return (const char *)u;
}

char *gpu_esc_field(char *out, size_t n, const char *s)
{
    static const char cut[] = "\xe2\x80\xa6"; /* … */
    if (!n) return out;
    const unsigned char *u = (const unsigned char *)(s ? s : "");
    size_t len = strlen((const char *)u), o = 0, i = 0, pl, total = 0;
    char esc[12];
    int k;
    for (i = 0; i < len; i += (size_t)k) piece(u + i, len - i, esc, &pl, &k), total += pl;
    /* all of it, or as much as leaves room for the mark */
    size_t room = total < n ? n - 1 : n >= sizeof cut ? n - sizeof cut : 0;
    for (i = 0; i < len; i += (size_t)k) {
        const char *p = piece(u + i, len - i, esc, &pl, &k);
        if (o + pl > room) break;
        memcpy(out + o, p, pl);
        o += pl;
    }
    if (i < len && o + sizeof cut <= n) memcpy(out + o, cut, sizeof cut - 1), o += sizeof cut - 1;
    out[o] = 0;
    return out;
}

bool gpu_esc_clean(const char *s, bool utf8)
{
    size_t len = strlen(s);
    for (size_t i = 0; i < len;) {
        /* a run of printable ASCII in one tight loop: a label of 64 KiB (cut to 256 bytes after
         * this check) took 9 ns a byte through the decoder, 4.5 s for a table of 512 such rows */
        while (i < len && (unsigned char)s[i] >= 0x20 && (unsigned char)s[i] < 0x7f) i++;
        if (i == len) break;
        unsigned cp = 0;
        int k = gpu_utf8_next(s + i, len - i, &cp, 0);
        if ((!k && utf8) || (k && gpu_esc_control(cp))) return false;
        i += k ? (size_t)k : 1;
    }
    return true;
}
