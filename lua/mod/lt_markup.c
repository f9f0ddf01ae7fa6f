/* lt_markup.c - parser for the lesson text subset (see lt_markup.h). Line-oriented, one pass,
 * every structural mistake reported with its line (unclosed fence, ragged table, bad callout). */
#include "lt_markup.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu_buf.h"
#include "gpu_err.h"
#include "gpu_utf8.h"

#define LT_X_NAME(id, en, zh) #id,
static const char *const callout_names[] = {LT_CALLOUT_LIST(LT_X_NAME)};
#undef LT_X_NAME
#define LT_X_EN(id, en, zh) en,
static const char *const callout_en[] = {LT_CALLOUT_LIST(LT_X_EN)};
#undef LT_X_EN
#define LT_X_ZH(id, en, zh) zh,
static const char *const callout_zh[] = {LT_CALLOUT_LIST(LT_X_ZH)};
#undef LT_X_ZH

const char *lt_callout_name(int c) { return c >= 0 && c < LT_CALLOUT_COUNT ? callout_names[c] : "?"; }

const char *lt_callout_label(int c, const char *lang)
{
    if (c < 0 || c >= LT_CALLOUT_COUNT) return "?";
    return lang && !strcmp(lang, "zh") ? callout_zh[c] : callout_en[c];
}

/* Joining wrapped source lines: a space between words, none between two CJK characters. */
static bool buf_join(struct gpu_buf *b, const char *s, size_t n)
{
    if (b->len && n && !gpu_utf8_join_tight(b->p, b->len, s, n) && !gpu_buf_add(b, " ", 1)) return false;
    return gpu_buf_add(b, s, n);
}

static const char *skip_ws(const char *s, const char *e)
{
    while (s < e && (*s == ' ' || *s == '\t')) s++;
    return s;
}

static const char *rtrim(const char *s, const char *e)
{
    while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r')) e--;
    return e;
}

static struct lt_mk_block *push(struct lt_mk_doc *d, enum lt_mk_kind k, int line)
{
    if (d->n == d->cap) {
        int nc = d->cap ? d->cap * 2 : 16;
        struct lt_mk_block *nb = realloc(d->b, (size_t)nc * sizeof *nb);
        if (!nb) return NULL;
        d->b = nb, d->cap = nc;
    }
    struct lt_mk_block *b = &d->b[d->n++];
    memset(b, 0, sizeof *b);
    b->kind = k, b->line = line;
    return b;
}

void lt_markup_free(struct lt_mk_doc *d)
{
    for (int i = 0; i < d->n; i++) {
        free(d->b[i].text);
        for (int c = 0; c < d->b[i].rows * d->b[i].cols; c++) free(d->b[i].cells[c]);
        free(d->b[i].cells);
    }
    free(d->b);
    memset(d, 0, sizeof *d);
}

/* Split "| a | b |" into trimmed cells. Returns the count, -1 when out of memory. */
static int split_row(const char *s, const char *e, char ***out)
{
    int n = 0;
    char **cells = NULL;
    s = skip_ws(s, e) + 1; /* past the leading '|' */
    e = rtrim(s, e);
    if (e > s && e[-1] == '|') e--;
    for (;;) {
        const char *bar = s;
        while (bar < e && *bar != '|') bar += (*bar == '\\' && bar + 1 < e) ? 2 : 1;
        const char *a = skip_ws(s, bar), *z = rtrim(a, bar);
        char **nc = realloc(cells, (size_t)(n + 1) * sizeof *nc);
        if (!nc) goto oom;
        cells = nc;
        if (!(cells[n] = strndup(a, (size_t)(z - a)))) goto oom;
        n++;
        if (bar >= e) break;
        s = bar + 1;
    }
    *out = cells;
    return n;
oom:
    while (n--) free(cells[n]);
    free(cells);
    return -1;
}

static bool is_rule_row(char **cells, int n)
{
    for (int i = 0; i < n; i++) {
        const char *c = cells[i];
        if (!*c) return false;
        for (; *c; c++)
            if (*c != '-' && *c != ':') return false;
    }
    return true;
}

int lt_markup_parse(const char *src, size_t len, struct lt_mk_doc *doc, char *err, size_t n)
{
    const char *p = src, *end = src + len;
    int line = 0;
    struct lt_mk_block *cur = NULL; /* paragraph, item or callout being continued */
    struct lt_mk_block *tbl = NULL;
    struct gpu_buf text = GPU_BUF_GROW;
    bool in_code = false;
    int code_line = 0, code_lines = 0;
    memset(doc, 0, sizeof *doc);
#define FAIL(...)                                                                                 \
    do {                                                                                          \
        gpu_errf(err, n, __VA_ARGS__);                                                            \
        goto fail;                                                                                \
    } while (0)
#define FLUSH()                                                                                   \
    do {                                                                                          \
        if (cur) {                                                                                \
            cur->text = text.p ? text.p : strdup("");                                             \
            if (!cur->text) FAIL("line %d: out of memory", line);                                 \
            text = GPU_BUF_GROW;                                                                  \
            cur = NULL;                                                                           \
        }                                                                                         \
        tbl = NULL;                                                                               \
    } while (0)

    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        const char *ls = p, *le = nl ? nl : end, *s = skip_ws(p, le), *e = rtrim(s, le);
        size_t ind = (size_t)(s - p);
        line++;
        p = nl ? nl + 1 : end;
        if (memchr(s, 0, (size_t)(e - s))) FAIL("line %d: NUL byte in text", line);

        if (in_code) {
            if (e - s >= 3 && !strncmp(s, "```", 3)) {
                in_code = false;
                FLUSH();
                continue;
            }
            /* code keeps its own indentation and line breaks */
            if (code_lines++ && !gpu_buf_add(&text, "\n", 1)) FAIL("line %d: out of memory", line);
            if (!gpu_buf_add(&text, ls, (size_t)(rtrim(ls, le) - ls))) FAIL("line %d: out of memory", line);
            continue;
        }
        if (s == e) { /* blank line ends paragraphs, items, callouts, tables */
            FLUSH();
            continue;
        }
        if (e - s >= 3 && !strncmp(s, "```", 3)) {
            FLUSH();
            if (!(cur = push(doc, LT_MK_CODE, line))) FAIL("line %d: out of memory", line);
            in_code = true;
            code_line = line;
            code_lines = 0;
            continue;
        }
        if (*s == '#') {
            int lvl = 0;
            while (s + lvl < e && s[lvl] == '#') lvl++;
            if (lvl > 3 || s + lvl >= e || s[lvl] != ' ')
                FAIL("line %d: a heading is '# ', '## ' or '### ' followed by its text", line);
            FLUSH();
            if (!(cur = push(doc, LT_MK_HEADING, line))) FAIL("line %d: out of memory", line);
            cur->level = lvl;
            const char *h = skip_ws(s + lvl, e);
            if (!gpu_buf_add(&text, h, (size_t)(e - h))) FAIL("line %d: out of memory", line);
            FLUSH();
            continue;
        }
        if (*s == '|') {
            char **cells;
            int nc = split_row(s, e, &cells);
            if (nc < 0) FAIL("line %d: out of memory", line);
            if (!tbl) {
                FLUSH();
                if (!(tbl = push(doc, LT_MK_TABLE, line))) {
                    while (nc--) free(cells[nc]);
                    free(cells);
                    FAIL("line %d: out of memory", line);
                }
                tbl->cols = nc, tbl->rows = 1, tbl->cells = cells;
                continue;
            }
            if (nc != tbl->cols) {
                int got = nc;
                while (nc--) free(cells[nc]);
                free(cells);
                FAIL("line %d: table row has %d cells, its header has %d", line, got, tbl->cols);
            }
            if (tbl->rows == 1 && is_rule_row(cells, nc)) { /* the |---| rule under the header */
                while (nc--) free(cells[nc]);
                free(cells);
                continue;
            }
            char **all = realloc(tbl->cells, (size_t)(tbl->rows + 1) * tbl->cols * sizeof *all);
            if (!all) {
                while (nc--) free(cells[nc]);
                free(cells);
                FAIL("line %d: out of memory", line);
            }
            tbl->cells = all;
            memcpy(all + tbl->rows * tbl->cols, cells, (size_t)nc * sizeof *cells);
            free(cells);
            tbl->rows++;
            continue;
        }
        tbl = NULL;
        if (*s == '>') {
            const char *b = skip_ws(s + 1, e);
            if (e - b >= 3 && !strncmp(b, "[!", 2)) {
                const char *close = memchr(b, ']', (size_t)(e - b));
                int c;
                for (c = 0; close && c < LT_CALLOUT_COUNT; c++)
                    if ((size_t)(close - b - 2) == strlen(callout_names[c]) &&
                        !strncmp(b + 2, callout_names[c], (size_t)(close - b - 2)))
                        break;
                if (!close || c == LT_CALLOUT_COUNT)
                    FAIL("line %d: unknown callout (use [!note], [!pitfall], [!experience], "
                         "[!errata], [!source] or [!tip])", line);
                FLUSH();
                if (!(cur = push(doc, LT_MK_CALLOUT, line))) FAIL("line %d: out of memory", line);
                cur->callout = c;
                b = skip_ws(close + 1, e);
                if (b < e && !gpu_buf_add(&text, b, (size_t)(e - b)))
                    FAIL("line %d: out of memory", line);
                continue;
            }
            if (!cur || cur->kind != LT_MK_CALLOUT)
                FAIL("line %d: a quote must start with a callout such as '> [!note]'", line);
            /* Callout bodies keep their line breaks: list items inside read as lists. */
            if (text.len && !gpu_buf_add(&text, "\n", 1)) FAIL("line %d: out of memory", line);
            if (!gpu_buf_add(&text, b, (size_t)(e - b))) FAIL("line %d: out of memory", line);
            continue;
        }
        bool bullet = (*s == '-' || *s == '*') && e - s > 1 && s[1] == ' ';
        int num = 0;
        const char *q = s;
        while (q < e && *q >= '0' && *q <= '9' && num < 1000) num = num * 10 + (*q++ - '0');
        bool numbered = q > s && q + 1 < e && *q == '.' && q[1] == ' ';
        if (bullet || numbered) {
            FLUSH();
            if (!(cur = push(doc, LT_MK_ITEM, line))) FAIL("line %d: out of memory", line);
            cur->level = (int)(ind / 2);
            cur->number = numbered ? num : 0;
            const char *t = skip_ws(bullet ? s + 2 : q + 2, e);
            if (!gpu_buf_add(&text, t, (size_t)(e - t))) FAIL("line %d: out of memory", line);
            continue;
        }
        if (cur && (cur->kind == LT_MK_PARA || cur->kind == LT_MK_ITEM)) {
            if (!buf_join(&text, s, (size_t)(e - s))) FAIL("line %d: out of memory", line);
            continue;
        }
        if (cur && cur->kind == LT_MK_CALLOUT)
            FAIL("line %d: callout lines start with '>' (leave a blank line after a callout)", line);
        FLUSH();
        if (!(cur = push(doc, LT_MK_PARA, line))) FAIL("line %d: out of memory", line);
        if (!gpu_buf_add(&text, s, (size_t)(e - s))) FAIL("line %d: out of memory", line);
    }
    if (in_code) FAIL("line %d: code block opened here is never closed with ```", code_line);
    FLUSH();
    return 0;
fail:
    free(text.p);
    lt_markup_free(doc);
    return -1;
#undef FAIL
#undef FLUSH
}

static bool ascii_alnum(char c)
{
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static bool blank(char c) { return c == ' ' || c == '\t' || c == '\n'; }

/* The closing `len`-star marker for one opened at t (content from t + len), before end, not
 * inside a `code` span; a single star closes only after a non-blank and before no letter or
 * digit ("*a* b" closes, "2*3" never opened). NULL when there is none. */
static const char *closer(const char *t, const char *end, size_t len)
{
    for (const char *c = t + len; c < end; c++) {
        if (*c == '`') {
            const char *q = memchr(c + 1, '`', (size_t)(end - c - 1));
            if (!q) return NULL;
            c = q;
            continue;
        }
        if (*c != '*') continue;
        if (len == 2) {
            if (c + 1 < end && c[1] == '*' && c > t + 2) return c;
            continue;
        }
        bool dbl = c + 1 < end && c[1] == '*';
        if (dbl) { /* a **strong** run inside: step over it whole */
            c++;
            continue;
        }
        if (c > t + 1 && !blank(c[-1]) && !(c + 1 < end && ascii_alnum(c[1]))) return c;
    }
    return NULL;
}

static void spans(const char *base, const char *t, const char *end, int flags,
                  void (*fn)(void *, int, const char *, size_t), void *ud)
{
    const char *run = t;
    while (t < end) {
        const char *close = NULL;
        size_t len = 0;
        int add = 0;
        if (*t == '`') {
            close = memchr(t + 1, '`', (size_t)(end - t - 1));
            len = 1, add = LT_SPAN_CODE;
        } else if (*t == '*' && t + 1 < end && t[1] == '*' && !(flags & LT_SPAN_EM)) {
            close = closer(t, end, 2);
            len = 2, add = LT_SPAN_EM;
        } else if (*t == '*' && !(flags & LT_SPAN_ITALIC) && t + 1 < end && !blank(t[1]) &&
                   t[1] != '*' && !(t > base && ascii_alnum(t[-1]))) {
            close = closer(t, end, 1);
            len = 1, add = LT_SPAN_ITALIC;
        }
        if (!close) {
            t++;
            continue;
        }
        if (t > run) fn(ud, flags, run, (size_t)(t - run));
        if (add == LT_SPAN_CODE) fn(ud, flags | LT_SPAN_CODE, t + 1, (size_t)(close - t - 1));
        else spans(base, t + len, close, flags | add, fn, ud);
        run = t = close + len;
    }
    if (t > run) fn(ud, flags, run, (size_t)(t - run));
}

void lt_markup_spans(const char *t, void (*fn)(void *, int, const char *, size_t), void *ud)
{
    spans(t, t, t + strlen(t), LT_SPAN_PLAIN, fn, ud);
}
