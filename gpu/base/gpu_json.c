/* gpu_json.c - see gpu_json.h. */
#include "gpu_json.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "gpu_esc.h"
#include "gpu_utf8.h"

/* what a terminal acts on, and the two separators JavaScript reads as line ends */
static bool escaped(unsigned cp) { return gpu_esc_control(cp) || cp == 0x2028 || cp == 0x2029; }

void gpu_json_str(const char *s, void (*put)(void *ud, const char *p, size_t n), void *ud)
{
    const unsigned char *u = (const unsigned char *)(s ? s : "");
    size_t n = strlen((const char *)u), run = 0, i = 0;
    char esc[8];
    put(ud, "\"", 1);
    while (i < n) {
        unsigned cp;
        int k = gpu_utf8_next((const char *)u + i, n - i, &cp, 0);
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
