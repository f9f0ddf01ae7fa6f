/* tui_wrap.c - display-width arithmetic and the greedy wrapper (see tui_wrap.h). The wrapper walks
 * glyphs once, remembering the last place a line may break; it never looks at bytes inside a
 * sequence, so every range it hands out starts and ends on a glyph boundary. */
#include "tui_wrap.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "gpu_esc.h"

/* the one classification of what a terminal acts on rather than shows (C0, DEL, C1 and the bidi
 * controls that would reorder a line): drawn as '?' */
static bool is_control(unsigned cp) { return gpu_esc_control(cp); }

int tui_cp_width(unsigned cp)
{
    if (cp < 0x7f || is_control(cp)) return 1; /* controls are drawn as one '?' (tab: a space) */
    int w = wcwidth((wchar_t)cp);
    return w < 0 ? 1 : w > 2 ? 2 : w;
}

bool tui_cp_printable(unsigned cp)
{
    if (is_control(cp)) return false;
    return cp < 0x7f || wcwidth((wchar_t)cp) >= 0;
}

int tui_width(const char *s, size_t n)
{
    int w = 0;
    for (size_t i = 0; i < n;) {
        unsigned cp;
        i += (size_t)gpu_utf8_decode(s + i, n - i, &cp);
        w += tui_cp_width(cp);
    }
    return w;
}

static bool is_blank(unsigned cp) { return cp == ' ' || cp == '\t'; }

/* Kinsoku, the short form: no line starts with closing punctuation, none ends with an opening one. */
static bool is_closing(unsigned cp)
{
    static const unsigned set[] = {0x3001, 0x3002, 0xff0c, 0xff0e, 0xff1a, 0xff1b, 0xff01, 0xff1f,
                                   0xff09, 0x300d, 0x300f, 0x3011, 0x300b, 0x3009, 0x2019, 0x201d,
                                   0xff3d, 0xff5d, 0x30fb, 0x2026, 0xff05};
    for (size_t i = 0; i < sizeof set / sizeof *set; i++)
        if (set[i] == cp) return true;
    return false;
}

static bool is_opening(unsigned cp)
{
    static const unsigned set[] = {0xff08, 0x300c, 0x300e, 0x3010, 0x300a, 0x3008, 0x2018, 0x201c,
                                   0xff3b, 0xff5b};
    for (size_t i = 0; i < sizeof set / sizeof *set; i++)
        if (set[i] == cp) return true;
    return false;
}

/* A number's unit starts at s[q..n): "GiB", "GB/s", "ns", "%", "×" ..., ending at a blank,
 * punctuation or the end (not "Bob" or "s = 3"). A wrap never puts it on the line after its
 * number. */
static bool unit_at(const char *s, int q, int n)
{
    static const char *const units[] = {
        "KiB/s", "MiB/s", "GiB/s", "TiB/s", "KB/s", "MB/s", "GB/s", "TB/s", "B/s", "Gb/s",
        "Gbit/s", "GT/s", "TFLOP/s", "GFLOP/s", "FLOP/s", "PFLOPS", "TFLOPS", "GFLOPS", "B/param", "B/token", "tokens/s",
        "KiB", "MiB", "GiB", "TiB", "PiB", "KB", "MB", "GB", "TB", "PB", "B", "ns", "us",
        "\xc2\xb5s", "ms", "s", "%", "\xc3\x97", "MHz", "GHz", "W", "tokens", "token",
        "bytes", "byte", "cycles"};
    for (size_t i = 0; i < sizeof units / sizeof *units; i++) {
        int l = (int)strlen(units[i]);
        if (q + l > n || memcmp(s + q, units[i], (size_t)l)) continue;
        unsigned char e = q + l < n ? (unsigned char)s[q + l] : ' ';
        if ((e >= 'a' && e <= 'z') || (e >= 'A' && e <= 'Z') || (e >= '0' && e <= '9') || e == '/')
            continue;
        int k = q + l; /* "s = 1024": a variable, not seconds */
        while (k < n && s[k] == ' ') k++;
        if (k < n && s[k] == '=') continue;
        return true;
    }
    return false;
}

/* The glyphs before s[p] (a blank) end a number: digits, '.' and ',' back to the line's start,
 * a blank or anything but a letter ("16.49", "1,024", "(26.07", "~80-120", "约 0"); not "fp16"
 * or "x86". */
static bool number_before(const char *s, int from, int p)
{
    if (p <= from || s[p - 1] < '0' || s[p - 1] > '9') return false;
    int i = p - 1;
    while (i >= from && ((s[i] >= '0' && s[i] <= '9') || s[i] == '.' || s[i] == ',')) i--;
    if (i < from) return true;
    unsigned char c = (unsigned char)s[i];
    return !((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_');
}

struct wout {
    struct tui_wline *v;
    int n, cap;
    bool oom;
};

static void emit(struct wout *o, const char *s, int start, int end, bool hard, bool trim)
{
    if (trim)
        while (end > start && (s[end - 1] == ' ' || s[end - 1] == '\t')) end--;
    if (o->n == o->cap) {
        int nc = o->cap ? o->cap * 2 : 16;
        struct tui_wline *nv = realloc(o->v, (size_t)nc * sizeof *nv);
        if (!nv) {
            o->oom = true;
            return;
        }
        o->v = nv, o->cap = nc;
    }
    o->v[o->n++] = (struct tui_wline){start, end, tui_width(s + start, (size_t)(end - start)),
                                      hard};
}

int tui_wrap(const char *s, size_t n, int width, struct tui_wline **out)
{
    struct wout o = {0};
    if (width < 1) width = 1;
    if (n > (size_t)1 << 30) n = (size_t)1 << 30; /* byte offsets are ints */
    int ls = 0, lw = 0;           /* line start, its width so far (interior blanks included) */
    bool soft = false;            /* the line began at a soft break: its leading blanks go */
    bool content = false;         /* a non-blank glyph since ls */
    int brk_end = -1, brk_next = 0; /* last break point: where the line would end, next begin */
    unsigned prev = 0;            /* previous glyph on this line */
    bool prev_blank = false;
    bool glue = false;            /* the blanks here join a number and its unit */
    int p = 0;
    while ((size_t)p < n && !o.oom) {
        unsigned cp;
        int l = gpu_utf8_decode(s + p, n - (size_t)p, &cp);
        if (cp == '\n') {
            emit(&o, s, ls, p, true, true);
            ls = p + l, lw = 0, soft = false, content = false, brk_end = -1, prev = 0;
            prev_blank = false;
            p += l;
            continue;
        }
        int cw = tui_cp_width(cp);
        if (is_blank(cp)) {
            if (!content) {
                /* leading blanks: dropped after a soft break; indentation that would leave no
                 * room for text is dropped too */
                if (soft || lw + 1 >= width) ls = p + l, lw = 0;
                else lw += 1;
            } else {
                if (!prev_blank) { /* blanks between a number and its unit are no break */
                    int q = p + l;
                    while ((size_t)q < n && is_blank((unsigned char)s[q])) q++;
                    glue = number_before(s, ls, p) && unit_at(s, q, (int)n);
                    if (!glue) brk_end = p;
                }
                if (!glue) brk_next = p + l;
                lw += 1;
            }
            prev = cp, prev_blank = true;
            p += l;
            continue;
        }
        bool wide = cw == 2, prev_wide = content && !prev_blank && tui_cp_width(prev) == 2;
        if (content && !prev_blank && cw > 0 && (wide || prev_wide) && !is_closing(cp) &&
            !is_opening(prev))
            brk_end = p, brk_next = p;
        if (lw + cw > width) {
            if (brk_end > ls) {
                emit(&o, s, ls, brk_end, false, true);
                ls = brk_next;
                while (ls < p && (s[ls] == ' ' || s[ls] == '\t')) ls++;
                lw = tui_width(s + ls, (size_t)(p - ls));
                content = ls < p, soft = true, brk_end = -1;
            }
            if (lw + cw > width && lw > 0) { /* no break point left: split the word here */
                emit(&o, s, ls, p, false, true);
                ls = p, lw = 0, content = false, soft = true, brk_end = -1;
            }
        }
        lw += cw;
        content = true;
        prev = cp, prev_blank = false;
        p += l;
    }
    emit(&o, s, ls, (int)n, true, true);
    if (o.oom) {
        free(o.v);
        return -1;
    }
    *out = o.v;
    return o.n;
}

int tui_word_width(const char *s, size_t n)
{
    int best = 0, cur = 0, ls = 0;
    for (size_t i = 0; i < n;) {
        unsigned cp;
        int l = gpu_utf8_decode(s + i, n - i, &cp);
        int cw = tui_cp_width(cp);
        if (is_blank(cp) || cp == '\n') {
            size_t q = i + (size_t)l;
            while (q < n && is_blank((unsigned char)s[q])) q++;
            if (cp != '\n' && cur && number_before(s, ls, (int)i) && unit_at(s, (int)q, (int)n))
                cur += (int)(q - i), i = q; /* "16.49 GiB" is one word */
            else cur = 0, i = q, ls = (int)q;
            continue;
        }
        if (cw == 2) cur = 2, ls = (int)i; /* a wide glyph is a word of its own */
        else cur += cw;
        if (cur > best) best = cur;
        i += (size_t)l;
    }
    return best;
}

size_t tui_prefix_fit(const char *s, size_t n, int width, int *used)
{
    size_t i = 0;
    int w = 0;
    while (i < n) {
        unsigned cp;
        int l = gpu_utf8_decode(s + i, n - i, &cp);
        int cw = tui_cp_width(cp);
        if (w + cw > width) break;
        w += cw, i += (size_t)l;
    }
    if (used) *used = w;
    return i;
}

size_t tui_fit(const char *s, size_t n, int width, enum tui_align al, bool ascii, char *out,
               size_t cap)
{
    size_t o = 0;
    if (!cap) return 0;
    if (width < 0) width = 0;
    int w = tui_width(s, n), used;
    const char *ell = ascii ? "~" : "\xe2\x80\xa6"; /* … */
    size_t take;
    bool cut = w > width;
    if (cut) take = tui_prefix_fit(s, n, width > 0 ? width - 1 : 0, &used);
    else take = n, used = w;
    int pad = width - used - (cut && width > 0 ? 1 : 0);
    int left = al == TUI_RIGHT ? pad : al == TUI_CENTER ? pad / 2 : 0, right = pad - left;
#define PUT(ptr, len)                                                                             \
    do {                                                                                          \
        size_t l_ = (len);                                                                        \
        if (o + l_ >= cap) l_ = cap - 1 - o;                                                      \
        memcpy(out + o, (ptr), l_);                                                               \
        o += l_;                                                                                  \
    } while (0)
    for (int i = 0; i < left; i++) PUT(" ", 1);
    PUT(s, take);
    if (cut && width > 0) PUT(ell, strlen(ell));
    for (int i = 0; i < right; i++) PUT(" ", 1);
#undef PUT
    out[o] = 0;
    return o;
}

size_t tui_fit_words(const char *s, int width, bool ascii, char *out, size_t cap)
{
    size_t n = strlen(s);
    if (width < 1 || tui_width(s, n) <= width) return tui_fit(s, n, width, TUI_LEFT, ascii, out, cap);
    int used;
    size_t take = tui_prefix_fit(s, n, width - 1, &used), cut = 0;
    /* the last blank inside what fits, with the blanks and a dangling separator before it gone */
    for (size_t i = take; i > 0; i--)
        if (s[i] == ' ' || (i == take && s[i] == 0)) {
            size_t e = i;
            while (e > 0 && s[e - 1] == ' ') e--;
            if (e >= 2 && !memcmp(s + e - 2, "\xc2\xb7", 2)) e -= 2; /* " ·" */
            else if (e >= 1 && (s[e - 1] == '-' || s[e - 1] == ',' || s[e - 1] == ':')) e--;
            while (e > 0 && s[e - 1] == ' ') e--;
            if (e > 0) {
                cut = e;
                break;
            }
        }
    if (!cut) return tui_fit(s, n, width, TUI_LEFT, ascii, out, cap);
    char *tmp = malloc(cut + 8);
    if (!tmp) return tui_fit(s, n, width, TUI_LEFT, ascii, out, cap);
    memcpy(tmp, s, cut);
    strcpy(tmp + cut, ascii ? "~" : "\xe2\x80\xa6");
    size_t r = tui_fit(tmp, strlen(tmp), width, TUI_LEFT, ascii, out, cap);
    free(tmp);
    return r;
}

void tui_backend_nosim(const char *full, char *out, size_t cap)
{
    static const char *const words[] = {"SIMULATED \xc2\xb7 ", "SIM \xc2\xb7 ", " (SIMULATED)",
                                        "\xef\xbc\x88SIMULATED\xef\xbc\x89"};
    if (!cap) return;
    snprintf(out, cap, "%s", full);
    for (size_t i = 0; i < sizeof words / sizeof *words; i++) {
        char *p = strstr(out, words[i]);
        if (p) memmove(p, p + strlen(words[i]), strlen(p + strlen(words[i])) + 1);
    }
}

void tui_backend_short(const char *full, char *out, size_t cap)
{
    static const char *const sim[] = {"SIMULATED \xc2\xb7 ", "SIMULATED "};
    const char *open = NULL, *close = NULL;
    if (!strncmp(full, sim[0], strlen(sim[0]))) {
        /* the profile id in the last parentheses, ASCII or full-width */
        const char *a = strrchr(full, '('), *b = strstr(full, "\xef\xbc\x88"); /* （ */
        if (b && (!a || b > a)) open = b + 3, close = strstr(open, "\xef\xbc\x89");
        else if (a) open = a + 1, close = strchr(open, ')');
    }
    if (open && close && close > open) {
        snprintf(out, cap, "SIM \xc2\xb7 %.*s", (int)(close - open), open);
        return;
    }
    /* "CUDA device N · NAME" (or "CUDA 设备 N · NAME") */
    static const char *const cuda[] = {"CUDA device ", "CUDA \xe8\xae\xbe\xe5\xa4\x87 "};
    for (int k = 0; k < 2; k++) {
        size_t l = strlen(cuda[k]);
        const char *dot = strstr(full, " \xc2\xb7 ");
        if (strncmp(full, cuda[k], l) || !dot) continue;
        char *end;
        long dev = strtol(full + l, &end, 10);
        if (end == full + l || end != dot) continue;
        const char *nm = dot + 4;
        if (!strncmp(nm, "NVIDIA ", 7)) nm += 7;
        if (!strncmp(nm, "GeForce ", 8)) nm += 8;
        snprintf(out, cap, "CUDA %ld \xc2\xb7 %s", dev, nm);
        return;
    }
    snprintf(out, cap, "%s", full);
}

static const struct {
    unsigned cp;
    const char *a;
} fold_tab[] = {
    {0x00a0, " "},   {0x00b0, "deg"}, {0x00b1, "+-"},  {0x00b2, "^2"},  {0x00b3, "^3"},
    {0x00b5, "u"},   {0x00b7, "*"},   {0x00d7, "x"},   {0x00f7, "/"},   {0x03bc, "u"},
    {0x2010, "-"},   {0x2011, "-"},   {0x2012, "-"},   {0x2013, "-"},   {0x2014, "--"},
    {0x2018, "'"},   {0x2019, "'"},   {0x201c, "\""},  {0x201d, "\""},  {0x2022, "*"},
    {0x2026, "..."}, {0x2032, "'"},   {0x2190, "<-"},  {0x2191, "^"},   {0x2192, "->"},  {0x2193, "v"},  {0x2194, "<->"},
    {0x21d2, "=>"},  {0x2212, "-"},   {0x2248, "~"},   {0x2260, "!="},  {0x2264, "<="},
    {0x2265, ">="},  {0x221e, "inf"}, {0x2500, "-"},   {0x2502, "|"},   {0x250c, "+"},
    {0x2510, "+"},   {0x2514, "+"},   {0x2518, "+"},   {0x251c, "+"},   {0x2524, "+"},
    {0x252c, "+"},   {0x2534, "+"},   {0x253c, "+"},   {0x2550, "="},   {0x2588, "#"},
    {0x2591, "."},   {0x2592, ":"},   {0x2593, "="},   {0x25a0, "#"},   {0x25b6, ">"},   {0x25cf, "*"},
    {0x25cb, "o"},   {0x2713, "v"},   {0x2714, "v"},   {0x2717, "x"},   {0x2718, "x"},
    {0x3000, "  "},  {0x3001, ","},   {0x3002, "."},   {0xff08, "("},   {0xff09, ")"},
    {0xff0c, ","},   {0xff1a, ":"},   {0xff1b, ";"},   {0xff01, "!"},   {0xff1f, "?"},
};

char *tui_ascii_fold(const char *s, size_t n, size_t *outlen, int **map)
{
    size_t cap = n + 16, o = 0;
    char *out = malloc(cap);
    int *m = map ? malloc(cap * sizeof *m) : NULL;
    if (!out || (map && !m)) goto oom;
    for (size_t i = 0; i < n;) {
        unsigned cp;
        int l = gpu_utf8_decode(s + i, n - i, &cp);
        char one[2] = {(char)cp, 0};
        const char *a = "?";
        if (cp < 0x80) a = one;
        else
            for (size_t k = 0; k < sizeof fold_tab / sizeof *fold_tab; k++)
                if (fold_tab[k].cp == cp) {
                    a = fold_tab[k].a;
                    break;
                }
        size_t al = cp == 0 ? 1 : strlen(a);
        if (o + al + 1 > cap) {
            cap = (o + al + 1) * 2;
            char *no = realloc(out, cap);
            if (!no) goto oom;
            out = no;
            if (map) {
                int *nm = realloc(m, cap * sizeof *nm);
                if (!nm) goto oom;
                m = nm;
            }
        }
        for (size_t k = 0; k < al; k++) {
            out[o] = cp == 0 ? 0 : a[k];
            if (m) m[o] = (int)i;
            o++;
        }
        i += (size_t)l;
    }
    out[o] = 0;
    if (outlen) *outlen = o;
    if (map) *map = m;
    return out;
oom:
    free(out);
    free(m);
    return NULL;
}
