/* tui_render.c - lesson markup to styled, width-fitted lines (see tui_render.h). Every piece of
 * text goes through one path: flatten (inline spans -> bytes + a style per byte, folded to ASCII
 * for non-UTF-8 terminals), wrap by display width, then prefix/pad/frame. */
#include "tui_render.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu_utf8.h"
#include "lt_markup.h"
#include "tui_wrap.h"

/* ---- lines and the builder ---------------------------------------------------------------- */

void tui_lines_free(struct tui_lines *L)
{
    for (int i = 0; i < L->n; i++) {
        free(L->v[i].s);
        free(L->v[i].st);
    }
    free(L->v);
    memset(L, 0, sizeof *L);
}

static bool lb_grow(struct tui_lb *b, size_t need)
{
    if ((size_t)b->len + need + 1 <= (size_t)b->cap) return true;
    size_t nc = ((size_t)b->len + need + 1) * 2;
    if (nc > (size_t)1 << 30) return false;
    char *ns = realloc(b->s, nc);
    if (!ns) return false;
    b->s = ns;
    unsigned char *nst = realloc(b->st, nc);
    if (!nst) return false;
    b->st = nst;
    b->cap = (int)nc;
    return true;
}

void tui_lb_put(struct tui_lb *b, const char *s, size_t n, int style)
{
    if (!n) return;
    if (!lb_grow(b, n)) {
        if (b->L) b->L->oom = true;
        return;
    }
    memcpy(b->s + b->len, s, n);
    memset(b->st + b->len, style, n);
    b->len += (int)n;
    b->s[b->len] = 0;
    b->width += tui_width(s, n);
}

void tui_lb_puts(struct tui_lb *b, const char *s, int style) { tui_lb_put(b, s, strlen(s), style); }

void tui_lb_repeat(struct tui_lb *b, const char *glyph, int count, int style)
{
    for (int i = 0; i < count; i++) tui_lb_puts(b, glyph, style);
}

void tui_lb_pad(struct tui_lb *b, int width, int style)
{
    while (b->width < width) tui_lb_put(b, " ", 1, style);
}

void tui_lb_fit(struct tui_lb *b, const char *s, int width, int align, bool ascii, int style)
{
    size_t n = strlen(s);
    char *folded = NULL;
    if (ascii) { /* fold first: folding changes widths ("—" -> "--") */
        if (!(folded = tui_ascii_fold(s, n, &n, NULL))) goto oom;
        s = folded;
    }
    size_t cap = n + (size_t)(width > 0 ? width : 0) + 8;
    char *tmp = malloc(cap);
    if (!tmp) goto oom;
    size_t l = tui_fit(s, n, width, (enum tui_align)align, ascii, tmp, cap);
    tui_lb_put(b, tmp, l, style);
    free(tmp);
    free(folded);
    return;
oom:
    free(folded);
    if (b->L) b->L->oom = true;
}

void tui_lb_end(struct tui_lb *b, int block, int kind, int tag)
{
    struct tui_lines *L = b->L;
    if (L->n == L->cap) {
        int nc = L->cap ? L->cap * 2 : 64;
        struct tui_line *nv = realloc(L->v, (size_t)nc * sizeof *nv);
        if (!nv) {
            L->oom = true;
            goto reset;
        }
        L->v = nv, L->cap = nc;
    }
    if (!b->s && !lb_grow(b, 0)) {
        L->oom = true;
        goto reset;
    }
    b->s[b->len] = 0;
    L->v[L->n++] = (struct tui_line){b->s, b->st, b->len, b->width, block, kind, tag};
    b->s = NULL, b->st = NULL, b->cap = 0;
reset:
    b->len = 0, b->width = 0;
}

void tui_lb_free(struct tui_lb *b)
{
    free(b->s);
    free(b->st);
    b->s = NULL, b->st = NULL;
    b->len = b->cap = b->width = 0;
}

static void blank(struct tui_lines *L, int block)
{
    struct tui_lb b = {.L = L};
    tui_lb_end(&b, block, TUI_LK_TEXT, 0);
}

/* ---- glyphs ------------------------------------------------------------------------------- */

static const struct tui_glyphs g_utf8 = {
    "─", "│", "┌", "┐", "└", "┘", "├", "┤", "┬", "┴", "┼", "═",
    {"•", "◦", "▪"}, "▶", "✓", "✗", "◐", "→", "…", "█", "░", "▒",
};
static const struct tui_glyphs g_ascii = {
    "-", "|", "+", "+", "+", "+", "+", "+", "+", "+", "+", "=",
    {"*", "-", "+"}, ">", "v", "x", "~", "->", "~", "#", ".", ":",
};

const struct tui_glyphs *tui_glyphs(bool ascii) { return ascii ? &g_ascii : &g_utf8; }

/* ---- flattening: inline spans -> bytes with a style each ---------------------------------- */

struct flat {
    char *s;
    unsigned char *st;
    size_t len, cap;
    bool oom, ascii;
    int base;
};

static void flat_raw(struct flat *f, const char *s, size_t n, int style)
{
    if (f->len + n + 1 > f->cap) {
        size_t nc = (f->len + n + 1) * 2;
        char *ns = realloc(f->s, nc);
        if (!ns) {
            f->oom = true;
            return;
        }
        f->s = ns;
        unsigned char *nst = realloc(f->st, nc);
        if (!nst) {
            f->oom = true;
            return;
        }
        f->st = nst, f->cap = nc;
    }
    memcpy(f->s + f->len, s, n);
    memset(f->st + f->len, style, n);
    f->len += n;
    f->s[f->len] = 0;
}

static void flat_add(struct flat *f, const char *s, size_t n, int style)
{
    if (!f->ascii) {
        flat_raw(f, s, n, style);
        return;
    }
    size_t l;
    char *a = tui_ascii_fold(s, n, &l, NULL);
    if (!a) {
        f->oom = true;
        return;
    }
    flat_raw(f, a, l, style);
    free(a);
}

static void span_cb(void *ud, int sp, const char *p, size_t n)
{
    struct flat *f = ud;
    bool heading = f->base >= TS_H1 && f->base <= TS_H3;
    int style = f->base;
    if ((sp & LT_SPAN_ITALIC) && !heading) style = TS_ITALIC;
    if ((sp & LT_SPAN_EM) && !heading) style = TS_EM;
    if (sp & LT_SPAN_CODE) style = TS_CODE;
    flat_add(f, p, n, style);
}

static void flatten(struct flat *f, const char *text, size_t n, int style, bool spans, bool ascii)
{
    memset(f, 0, sizeof *f);
    f->ascii = ascii, f->base = style;
    flat_raw(f, "", 0, style); /* never NULL */
    if (!spans) {
        flat_add(f, text, n, style);
        return;
    }
    char *z = strndup(text, n);
    if (!z) {
        f->oom = true;
        return;
    }
    lt_markup_spans(z, span_cb, f);
    free(z);
}

static void flat_free(struct flat *f)
{
    free(f->s);
    free(f->st);
}

/* Put f->s[a..b) keeping each byte's style. */
static void put_styled(struct tui_lb *b, const struct flat *f, int a, int e)
{
    while (a < e) {
        int r = a;
        while (r < e && f->st[r] == f->st[a]) r++;
        tui_lb_put(b, f->s + a, (size_t)(r - a), f->st[a]);
        a = r;
    }
}

/* ---- paragraphs --------------------------------------------------------------------------- */

static void para_flat(struct tui_lines *L, const struct flat *f, const char *first, int fstyle,
                      const struct tui_render_opts *o, int kind, int tag)
{
    int fw = tui_width(first, strlen(first));
    if (o->width - fw < 4 && fw > 0) { /* no room for a hanging indent: drop it */
        first = "";
        fw = 0;
    }
    struct tui_wline *wl;
    int n = tui_wrap(f->s, f->len, o->width - fw, &wl);
    if (n < 0) {
        L->oom = true;
        return;
    }
    struct tui_lb b = {.L = L};
    for (int i = 0; i < n; i++) {
        if (i == 0) tui_lb_puts(&b, first, fstyle);
        else tui_lb_pad(&b, fw, TS_PLAIN);
        put_styled(&b, f, wl[i].start, wl[i].end);
        tui_lb_end(&b, o->block, kind, tag);
    }
    tui_lb_free(&b);
    free(wl);
}

void tui_render_para(struct tui_lines *L, const char *text, size_t n, int style, bool spans,
                     const char *first, int first_style, const struct tui_render_opts *o)
{
    struct flat f;
    flatten(&f, text, n, style, spans, o->ascii);
    if (f.oom) L->oom = true;
    else para_flat(L, &f, first ? first : "", first_style, o, TUI_LK_TEXT, 0);
    flat_free(&f);
}

/* ---- tables ------------------------------------------------------------------------------- */

static bool numeric(const char *s)
{
    if (*s == '-' || *s == '+' || *s == '~' || *s == '<' || *s == '>') s++;
    return *s >= '0' && *s <= '9';
}

/* A table too narrow for columns: one record per row, its first cell as the record's title and
 * "header: value" lines under it (or just the values without a header row). */
static void table_list(struct tui_lines *L, const char *const *cells, int rows, int cols,
                       bool header, const struct tui_render_opts *o)
{
    for (int r = header ? 1 : 0; r < rows; r++) {
        if (r > (header ? 1 : 0)) blank(L, o->block);
        for (int c = 0; c < cols; c++) {
            const char *v = cells[r * cols + c] ? cells[r * cols + c] : "";
            if (c == 0 && cols > 1) {
                tui_render_para(L, v, strlen(v), TS_TABLE_HEAD, true, "", TS_TABLE_HEAD, o);
            } else if (header) {
                const char *h = cells[c] ? cells[c] : "";
                size_t l = strlen(h) + strlen(v) + 3;
                char *t = malloc(l);
                if (!t) {
                    L->oom = true;
                    return;
                }
                snprintf(t, l, "%s: %s", h, v);
                tui_render_para(L, t, strlen(t), TS_PLAIN, true, "  ", TS_PLAIN, o);
                free(t);
            } else {
                tui_render_para(L, v, strlen(v), TS_PLAIN, true, "  ", TS_PLAIN, o);
            }
        }
    }
}

static void table_rule(struct tui_lines *L, const int *w, int cols, const char *l, const char *m,
                       const char *r, const struct tui_glyphs *g, bool outer, int block)
{
    struct tui_lb b = {.L = L};
    if (outer) tui_lb_puts(&b, l, TS_RULE);
    for (int c = 0; c < cols; c++) {
        if (!outer && c > 0) {
            tui_lb_puts(&b, g->h, TS_RULE);
            tui_lb_puts(&b, m, TS_RULE);
            tui_lb_puts(&b, g->h, TS_RULE);
        }
        tui_lb_repeat(&b, g->h, w[c] + (outer ? 2 : 0), TS_RULE);
        if (outer) tui_lb_puts(&b, c + 1 < cols ? m : r, TS_RULE);
    }
    tui_lb_end(&b, block, TUI_LK_TEXT, 0);
}

void tui_render_table(struct tui_lines *L, const char *const *cells, int rows, int cols,
                      bool header, const struct tui_render_opts *o)
{
    if (rows <= 0 || cols <= 0) return;
    int avail = o->width - (1 + 3 * cols);
    if (avail < 2 * cols) {
        table_list(L, cells, rows, cols, header, o);
        return;
    }
    const struct tui_glyphs *g = tui_glyphs(o->ascii);
    int ncell = rows * cols;
    struct flat *fc = calloc((size_t)ncell, sizeof *fc);
    int *w = calloc((size_t)cols, sizeof *w);
    bool *right = calloc((size_t)cols, sizeof *right);
    struct tui_wline **wl = calloc((size_t)cols, sizeof *wl);
    int *nl = calloc((size_t)cols, sizeof *nl);
    int *minw = calloc((size_t)cols, sizeof *minw);
    if (!fc || !w || !right || !wl || !nl || !minw) {
        L->oom = true;
        goto out;
    }
    for (int c = 0; c < cols; c++) right[c] = rows > (header ? 1 : 0);
    for (int i = 0; i < ncell; i++) {
        const char *t = cells[i] ? cells[i] : "";
        bool head = header && i < cols;
        flatten(&fc[i], t, strlen(t), head ? TS_TABLE_HEAD : TS_PLAIN, true, o->ascii);
        if (fc[i].oom) {
            L->oom = true;
            goto out;
        }
        int c = i % cols, cw = tui_width(fc[i].s, fc[i].len);
        if (cw > w[c]) w[c] = cw;
        int lw = tui_word_width(fc[i].s, fc[i].len);
        if (lw > minw[c]) minw[c] = lw;
        if (!head && !numeric(fc[i].s)) right[c] = false;
    }
    int sum = 0, minsum = 0;
    for (int c = 0; c < cols; c++) {
        if (w[c] < 1) w[c] = 1;
        sum += w[c];
        minsum += minw[c];
    }
    /* Without the outer frame a table needs 4 columns less: use that rather than split words;
     * when even that would split words, one record per row reads better than a grid. */
    bool outer = true;
    if (sum > avail && minsum > avail) {
        if (minsum > o->width - 3 * (cols - 1) && rows > (header ? 1 : 0)) {
            table_list(L, cells, rows, cols, header, o);
            goto out;
        }
        outer = false;
        avail = o->width - 3 * (cols - 1);
    }
    /* Shrink to fit: first the widest column that is still wider than its longest word (so
     * words stay whole), then the widest column, one column at a time. */
    while (sum > avail) {
        int m = -1;
        for (int c = 0; c < cols; c++)
            if (w[c] > minw[c] && (m < 0 || w[c] > w[m])) m = c;
        if (m < 0) {
            m = 0;
            for (int c = 1; c < cols; c++)
                if (w[c] > w[m]) m = c;
        }
        w[m]--, sum--;
    }
    if (outer) table_rule(L, w, cols, g->tl, g->tj, g->tr, g, true, o->block);
    struct tui_lb b = {.L = L};
    for (int r = 0; r < rows; r++) {
        int h = 1;
        for (int c = 0; c < cols; c++) {
            struct flat *f = &fc[r * cols + c];
            nl[c] = tui_wrap(f->s, f->len, w[c], &wl[c]);
            if (nl[c] < 0) {
                nl[c] = 0;
                L->oom = true;
            }
            if (nl[c] > h) h = nl[c];
        }
        for (int k = 0; k < h; k++) {
            if (outer) tui_lb_puts(&b, g->v, TS_RULE);
            for (int c = 0; c < cols; c++) {
                if (outer || c > 0) tui_lb_put(&b, " ", 1, TS_PLAIN);
                int col0 = b.width;
                if (k < nl[c]) {
                    struct flat *f = &fc[r * cols + c];
                    bool ra = right[c] && !(header && r == 0);
                    if (ra) tui_lb_pad(&b, col0 + w[c] - wl[c][k].width, TS_PLAIN);
                    put_styled(&b, f, wl[c][k].start, wl[c][k].end);
                }
                tui_lb_pad(&b, col0 + w[c], TS_PLAIN);
                if (outer || c + 1 < cols) {
                    tui_lb_put(&b, " ", 1, TS_PLAIN);
                    tui_lb_puts(&b, g->v, TS_RULE);
                }
            }
            tui_lb_end(&b, o->block, TUI_LK_TEXT, 0);
        }
        for (int c = 0; c < cols; c++) {
            free(wl[c]);
            wl[c] = NULL;
        }
        if (r == 0 && header && rows > 1)
            table_rule(L, w, cols, g->lj, g->cross, g->rj, g, outer, o->block);
    }
    tui_lb_free(&b);
    if (outer) table_rule(L, w, cols, g->bl, g->bj, g->br, g, true, o->block);
out:
    if (fc)
        for (int i = 0; i < ncell; i++) flat_free(&fc[i]);
    free(fc);
    free(w);
    free(right);
    if (wl)
        for (int c = 0; c < cols; c++) free(wl[c]);
    free(wl);
    free(nl);
    free(minw);
}

/* ---- blocks ------------------------------------------------------------------------------- */

static void heading(struct tui_lines *L, const struct lt_mk_block *bk,
                    const struct tui_render_opts *o)
{
    static const int styles[] = {TS_H1, TS_H1, TS_H2, TS_H3};
    int lvl = bk->level < 1 ? 1 : bk->level > 3 ? 3 : bk->level;
    int first = L->n;
    tui_render_para(L, bk->text, strlen(bk->text), styles[lvl], true, "", TS_PLAIN, o);
    if (lvl == 3) return;
    int w = 0;
    for (int i = first; i < L->n; i++)
        if (L->v[i].width > w) w = L->v[i].width;
    if (w > o->width) w = o->width;
    const struct tui_glyphs *g = tui_glyphs(o->ascii);
    struct tui_lb b = {.L = L};
    tui_lb_repeat(&b, lvl == 1 ? g->hh : g->h, w, TS_RULE);
    tui_lb_end(&b, o->block, TUI_LK_TEXT, 0);
}

static void item(struct tui_lines *L, const char *text, size_t n, int level, int number,
                 const struct tui_render_opts *o)
{
    char first[64];
    int ind = level * 2;
    if (ind > o->width / 3) ind = o->width / 3;
    if (ind > 20) ind = 20;
    const struct tui_glyphs *g = tui_glyphs(o->ascii);
    if (number) snprintf(first, sizeof first, "%*s%d. ", ind, "", number);
    else snprintf(first, sizeof first, "%*s%s ", ind, "", g->bullet[level % 3]);
    tui_render_para(L, text, n, TS_PLAIN, true, first, TS_MARK, o);
}

static bool item_line(const char *s, size_t n, int *number, size_t *skip)
{
    size_t i = 0;
    while (i < n && s[i] == ' ') i++;
    if (i + 1 < n && (s[i] == '-' || s[i] == '*') && s[i + 1] == ' ') {
        *number = 0, *skip = i + 2;
        return true;
    }
    int num = 0;
    size_t d = i;
    while (d < n && s[d] >= '0' && s[d] <= '9' && num < 1000) num = num * 10 + (s[d++] - '0');
    if (d > i && d + 1 < n && s[d] == '.' && s[d + 1] == ' ') {
        *number = num, *skip = d + 2;
        return true;
    }
    return false;
}

/* Callout body: its first line is the title (when more follow); then paragraphs and list items,
 * one source line each, consecutive plain lines joined into one paragraph. */
/* Callout body: its first line is the title (when more follow); then list items, one per
 * "- " / "N. " line, and paragraphs. A plain line continues the item or paragraph before it. */
static void callout_body(struct tui_lines *L, const char *text, const struct tui_render_opts *o)
{
    const char *p = text;
    bool first = true, more = strchr(text, '\n') != NULL;
    char *acc = NULL; /* the paragraph or item being gathered */
    size_t alen = 0;
    int anum = 0;
    bool aitem = false;
#define FLUSH_ACC()                                                                               \
    do {                                                                                          \
        if (acc && aitem) item(L, acc, alen, 0, anum, o);                                         \
        else if (acc) tui_render_para(L, acc, alen, TS_PLAIN, true, "", TS_PLAIN, o);             \
        free(acc);                                                                                \
        acc = NULL, alen = 0, aitem = false;                                                      \
    } while (0)
    while (*p) {
        const char *nl = strchr(p, '\n');
        size_t n = nl ? (size_t)(nl - p) : strlen(p);
        int number;
        size_t skip = 0;
        if (first && more) {
            tui_render_para(L, p, n, TS_EM, true, "", TS_PLAIN, o);
        } else if (n) {
            if (item_line(p, n, &number, &skip)) {
                FLUSH_ACC();
                aitem = true, anum = number;
            }
            char *na = realloc(acc, alen + n + 2);
            if (!na) {
                L->oom = true;
                break;
            }
            acc = na;
            const char *t = p + skip;
            size_t tn = n - skip;
            if (alen && !gpu_utf8_join_tight(acc, alen, t, tn)) acc[alen++] = ' ';
            memcpy(acc + alen, t, tn);
            alen += tn;
            acc[alen] = 0;
        }
        first = false;
        p = nl ? nl + 1 : p + n;
    }
    FLUSH_ACC();
#undef FLUSH_ACC
}

static void callout(struct tui_lines *L, const struct lt_mk_block *bk,
                    const struct tui_render_opts *o)
{
    const struct tui_glyphs *g = tui_glyphs(o->ascii);
    const char *label = lt_callout_label(bk->callout, o->ascii ? "en" : o->lang);
    int lstyle = bk->callout == LT_CALLOUT_pitfall || bk->callout == LT_CALLOUT_errata
                     ? TS_WARN_LABEL
                     : TS_CALLOUT;
    if (o->width < 10) { /* no room for a box */
        tui_render_para(L, label, strlen(label), lstyle, false, "", TS_PLAIN, o);
        callout_body(L, bk->text, o);
        return;
    }
    struct tui_lb b = {.L = L};
    tui_lb_puts(&b, g->tl, TS_RULE);
    tui_lb_puts(&b, g->h, TS_RULE);
    tui_lb_put(&b, " ", 1, TS_RULE);
    tui_lb_fit(&b, label, tui_width(label, strlen(label)) > o->width - 6
                              ? o->width - 6
                              : tui_width(label, strlen(label)),
               TUI_LEFT, o->ascii, lstyle);
    tui_lb_put(&b, " ", 1, TS_RULE);
    while (b.width < o->width - 1) tui_lb_puts(&b, g->h, TS_RULE);
    tui_lb_puts(&b, g->tr, TS_RULE);
    tui_lb_end(&b, o->block, TUI_LK_TEXT, 0);

    struct tui_lines in = {0};
    struct tui_render_opts io = *o;
    io.width = o->width - 4;
    callout_body(&in, bk->text, &io);
    if (in.oom) L->oom = true;
    for (int i = 0; i < in.n; i++) {
        tui_lb_puts(&b, g->v, TS_RULE);
        tui_lb_put(&b, " ", 1, TS_PLAIN);
        tui_lb_put(&b, in.v[i].s, (size_t)in.v[i].len, TS_PLAIN);
        memcpy(b.st + b.len - in.v[i].len, in.v[i].st, (size_t)in.v[i].len);
        tui_lb_pad(&b, o->width - 1, TS_PLAIN);
        tui_lb_puts(&b, g->v, TS_RULE);
        tui_lb_end(&b, o->block, TUI_LK_TEXT, 0);
    }
    tui_lines_free(&in);
    tui_lb_puts(&b, g->bl, TS_RULE);
    while (b.width < o->width - 1) tui_lb_puts(&b, g->h, TS_RULE);
    tui_lb_puts(&b, g->br, TS_RULE);
    tui_lb_end(&b, o->block, TUI_LK_TEXT, 0);
    tui_lb_free(&b);
}

static void code(struct tui_lines *L, const char *text, const struct tui_render_opts *o)
{
    /* tabs to spaces so the width arithmetic matches the screen */
    size_t n = strlen(text), tabs = 0;
    for (size_t i = 0; i < n; i++) tabs += text[i] == '\t';
    char *t = malloc(n + tabs * 3 + 1);
    if (!t) {
        L->oom = true;
        return;
    }
    size_t o2 = 0;
    for (size_t i = 0; i < n; i++) {
        if (text[i] == '\t') {
            memcpy(t + o2, "    ", 4);
            o2 += 4;
        } else {
            t[o2++] = text[i];
        }
    }
    struct flat f;
    flatten(&f, t, o2, TS_CODE, false, o->ascii);
    free(t);
    if (f.oom) {
        L->oom = true;
        flat_free(&f);
        return;
    }
    int gutter = o->width > 6 ? 2 : 0;
    struct tui_wline *wl;
    int nl = tui_wrap(f.s, f.len, o->width - gutter, &wl);
    if (nl < 0) {
        L->oom = true;
        flat_free(&f);
        return;
    }
    struct tui_lb b = {.L = L};
    for (int i = 0; i < nl; i++) {
        tui_lb_pad(&b, gutter, TS_PLAIN);
        put_styled(&b, &f, wl[i].start, wl[i].end);
        tui_lb_end(&b, o->block, TUI_LK_TEXT, 0);
    }
    tui_lb_free(&b);
    free(wl);
    flat_free(&f);
}

void tui_render_markup(struct tui_lines *L, const char *src, size_t n,
                       const struct tui_render_opts *o0)
{
    struct tui_render_opts o = *o0;
    if (o.width < 1) o.width = 1;
    if (!o.lang) o.lang = "en";
    struct lt_mk_doc doc;
    char err[256];
    if (lt_markup_parse(src, n, &doc, err, sizeof err) < 0) {
        tui_render_para(L, err, strlen(err), TS_BAD, false, "", TS_PLAIN, &o);
        struct flat f;
        flatten(&f, src, n, TS_PLAIN, false, o.ascii);
        if (!f.oom) para_flat(L, &f, "", TS_PLAIN, &o, TUI_LK_TEXT, 0);
        flat_free(&f);
        return;
    }
    int prev = -1;
    for (int i = 0; i < doc.n; i++) {
        const struct lt_mk_block *bk = &doc.b[i];
        if (prev >= 0 && !(prev == LT_MK_ITEM && bk->kind == LT_MK_ITEM)) blank(L, o.block);
        switch (bk->kind) {
        case LT_MK_HEADING: heading(L, bk, &o); break;
        case LT_MK_PARA: tui_render_para(L, bk->text, strlen(bk->text), TS_PLAIN, true, "", 0, &o); break;
        case LT_MK_ITEM: item(L, bk->text, strlen(bk->text), bk->level, bk->number, &o); break;
        case LT_MK_TABLE:
            tui_render_table(L, (const char *const *)bk->cells, bk->rows, bk->cols, true, &o);
            break;
        case LT_MK_CODE: code(L, bk->text, &o); break;
        case LT_MK_CALLOUT: callout(L, bk, &o); break;
        }
        prev = (int)bk->kind;
    }
    lt_markup_free(&doc);
}
