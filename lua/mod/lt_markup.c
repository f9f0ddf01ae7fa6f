/* lt_markup.c - parser for the lesson text subset (see lt_markup.h). Line-oriented, one pass,
 * every structural mistake reported with its line (unclosed fence, ragged table, bad callout). */
#include "lt_markup.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu_buf.h"

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

/* Joining wrapped source lines: a space between words, none between two CJK characters (a
 * byte >= 0x80 on both sides is close enough: the wrapper re-breaks anyway). */
static bool buf_join(struct gpu_buf *b, const char *s, size_t n)
{
    if (b->len && n) {
        bool wide = (unsigned char)b->p[b->len - 1] >= 0x80 && (unsigned char)s[0] >= 0x80;
        if (!wide && !gpu_buf_add(b, " ", 1)) return false;
    }
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
        snprintf(err, n, __VA_ARGS__);                                                            \
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

void lt_markup_spans(const char *t, void (*fn)(void *, enum lt_span, const char *, size_t),
                     void *ud)
{
    const char *run = t;
    while (*t) {
        if (t[0] == '*' && t[1] == '*') {
            const char *close = strstr(t + 2, "**");
            if (close) {
                if (t > run) fn(ud, LT_SPAN_PLAIN, run, (size_t)(t - run));
                fn(ud, LT_SPAN_EM, t + 2, (size_t)(close - t - 2));
                run = t = close + 2;
                continue;
            }
        } else if (t[0] == '`') {
            const char *close = strchr(t + 1, '`');
            if (close) {
                if (t > run) fn(ud, LT_SPAN_PLAIN, run, (size_t)(t - run));
                fn(ud, LT_SPAN_CODE, t + 1, (size_t)(close - t - 1));
                run = t = close + 1;
                continue;
            }
        }
        t++;
    }
    if (t > run) fn(ud, LT_SPAN_PLAIN, run, (size_t)(t - run));
}
