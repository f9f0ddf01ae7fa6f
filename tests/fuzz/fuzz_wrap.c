/* fuzz_wrap.c - libFuzzer target for the UTF-8 wrapper (tui_wrap.h). Input: one byte for the
 * width (1..100), one for the alignment, then the text. Properties checked on every input:
 *   - every line starts and ends on a glyph boundary (no UTF-8 sequence or wide glyph split);
 *   - every line fits the width by display width (wcwidth), except a single glyph wider than the
 *     whole width (a CJK glyph at width 1), and its reported width is its real width;
 *   - lines come in order and what lies between them is only blanks and newlines (no text lost);
 *     one hard line per '\n' plus one;
 *   - re-wrapping is stable: each line wrapped again is that same line, and the joined output
 *     wrapped again gives the same lines;
 *   - tui_fit pads or cuts to exactly the width; tui_prefix_fit never exceeds it;
 *   - tui_ascii_fold gives ASCII only, with a monotonic byte map. */
#include <locale.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tui_wrap.h"

#define CHECK(c)                                                                                  \
    do {                                                                                          \
        if (!(c)) {                                                                               \
            fprintf(stderr, "fuzz_wrap: %s:%d: check failed: %s\n", __FILE__, __LINE__, #c);      \
            abort();                                                                              \
        }                                                                                         \
    } while (0)

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    /* wcwidth needs a UTF-8 LC_CTYPE to know CJK is double-width */
    if (!setlocale(LC_CTYPE, "C.UTF-8") && !setlocale(LC_CTYPE, "en_US.UTF-8"))
        fprintf(stderr, "fuzz_wrap: no UTF-8 locale: non-ASCII glyphs count one column\n");
    return 0;
}

static int glyph_count(const char *s, size_t n)
{
    int g = 0;
    for (size_t i = 0; i < n; g++) {
        unsigned cp;
        i += (size_t)gpu_utf8_decode(s + i, n - i, &cp);
    }
    return g;
}

/* Wrap s at width and check the per-line properties; returns the line count, lines in *out. */
static int wrap_checked(const char *s, size_t n, int width, const bool *bnd,
                        struct tui_wline **out)
{
    struct tui_wline *wl;
    int nl = tui_wrap(s, n, width, &wl);
    CHECK(nl >= 1);
    int hard = 0, prev_end = 0;
    for (int i = 0; i < nl; i++) {
        const struct tui_wline *l = &wl[i];
        CHECK(l->start >= prev_end && l->start <= l->end && (size_t)l->end <= n);
        CHECK(bnd[l->start] && bnd[l->end]);
        size_t len = (size_t)(l->end - l->start);
        CHECK(tui_width(s + l->start, len) == l->width);
        if (l->width > width) CHECK(width < 2 && l->width == 2 && glyph_count(s + l->start, len) == 1);
        for (int k = prev_end; k < l->start; k++) /* the gap: blanks and newlines only */
            CHECK(s[k] == ' ' || s[k] == '\t' || s[k] == '\n');
        if (len) CHECK(s[l->end - 1] != ' ' && s[l->end - 1] != '\t'); /* trailing blanks go */
        for (size_t k = 0; k < len; k++) CHECK(s[l->start + k] != '\n');
        hard += l->hard;
        prev_end = l->end;
    }
    for (size_t k = (size_t)prev_end; k < n; k++) CHECK(s[k] == ' ' || s[k] == '\t' || s[k] == '\n');
    int newlines = 0;
    for (size_t k = 0; k < n; k++) newlines += s[k] == '\n';
    CHECK(hard == newlines + 1);
    CHECK(wl[nl - 1].hard);
    int ww = tui_word_width(s, n); /* the widest unbroken run: within the text's own width */
    CHECK(ww >= 0 && ww <= tui_width(s, n));
    *out = wl;
    return nl;
}

static bool *boundaries(const char *s, size_t n)
{
    bool *b = calloc(n + 1, 1);
    CHECK(b);
    for (size_t i = 0; i < n;) {
        unsigned cp;
        b[i] = true;
        int l = gpu_utf8_decode(s + i, n - i, &cp);
        CHECK(l >= 1 && l <= 4 && (size_t)l <= n - i);
        i += (size_t)l;
    }
    b[n] = true;
    return b;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 2) return 0;
    int width = 1 + data[0] % 100;
    enum tui_align al = (enum tui_align)(data[1] % 3);
    const char *s = (const char *)data + 2;
    size_t n = size - 2;

    bool *bnd = boundaries(s, n);
    struct tui_wline *wl;
    int nl = wrap_checked(s, n, width, bnd, &wl);
    free(bnd);

    /* each line alone wraps to itself */
    size_t cap = n + (size_t)nl + 1, o = 0;
    char *join = malloc(cap);
    CHECK(join);
    for (int i = 0; i < nl; i++) {
        const char *ls = s + wl[i].start;
        size_t len = (size_t)(wl[i].end - wl[i].start);
        struct tui_wline *one;
        bool *b1 = boundaries(ls, len);
        int k = wrap_checked(ls, len, width, b1, &one);
        free(b1);
        CHECK(k == 1 && one[0].start == 0 && (size_t)one[0].end == len);
        free(one);
        memcpy(join + o, ls, len);
        o += len;
        if (i + 1 < nl) join[o++] = '\n';
    }
    /* the joined output wraps to the same lines */
    bool *bj = boundaries(join, o);
    struct tui_wline *again;
    int na = wrap_checked(join, o, width, bj, &again);
    free(bj);
    CHECK(na == nl);
    for (int i = 0; i < nl; i++) {
        size_t la = (size_t)(again[i].end - again[i].start), lw = (size_t)(wl[i].end - wl[i].start);
        CHECK(la == lw && !memcmp(join + again[i].start, s + wl[i].start, la));
    }
    free(again);
    free(join);
    free(wl);

    /* fitting */
    int used = -1;
    size_t pre = tui_prefix_fit(s, n, width, &used);
    CHECK(pre <= n && used >= 0 && used <= width && tui_width(s, pre) == used);
    char out[4096];
    if (n < 1000) {
        size_t w = tui_fit(s, n, width, al, data[1] & 4, out, sizeof out);
        CHECK(w < sizeof out && out[w] == 0);
        CHECK(tui_width(out, w) == width);
    }
    /* ASCII fold */
    size_t fl;
    int *map;
    char *f = tui_ascii_fold(s, n, &fl, &map);
    CHECK(f);
    for (size_t i = 0; i < fl; i++) {
        CHECK((unsigned char)f[i] < 0x80);
        CHECK(map[i] >= 0 && (size_t)map[i] < n && (i == 0 || map[i] >= map[i - 1]));
    }
    free(f);
    free(map);
    return 0;
}
