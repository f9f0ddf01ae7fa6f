/* tui_w_table.c - the table widget (see tui_widget.h): rows as they came (the first is the
 * header when there are more), fitted to the panel's width so that no number is ever apart from
 * its unit. Column widths by priority, each step taken only when the one before is not enough:
 * the header wraps at its words; text columns wrap, a number and its unit staying on one line
 * (tui_word_width); the outer frame goes (a table in a framed panel has none: the panel's is
 * enough); a column whose numbers share one unit gives it to its
 * header ("time (ms)" over "673.15"); the first column's labels are shortened with an ellipsis;
 * and a table that still cannot fit shows the columns that do and says so in one line, with the
 * key that shows it whole (the screen's whole_key). Shown whole, a table too wide for columns
 * is drawn as records ("header: value" under each row's first cell). A column of numbers is
 * right-aligned and never wraps. Widths are display widths (tui_width: CJK glyphs take two).
 * Tested by tests/unit/test_tui_panel.c. */
#include "tui_widget.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LABEL_MIN 8 /* columns a shortened label keeps, its ellipsis included */
#define UNIT_MAX 12 /* bytes of a unit that may move into its header ("GB/s", "tokens/s") */

struct prow {
    int n;
    char **cells;
};

struct table {
    struct prow *rows;
    int n;
};

static void *make(void) { return calloc(1, sizeof(struct table)); }

static void destroy(void *st)
{
    struct table *s = st;
    if (!s) return;
    for (int i = 0; i < s->n; i++) {
        for (int k = 0; k < s->rows[i].n; k++) free(s->rows[i].cells[k]);
        free(s->rows[i].cells);
    }
    free(s->rows);
    free(s);
}

static bool apply(void *st, const struct lt_event *ev, const struct tui_wenv *e)
{
    struct table *m = st;
    if (m->n == TUI_W_MAX_ROWS) return false;
    struct prow *nr = realloc(m->rows, (size_t)(m->n + 1) * sizeof *nr);
    if (!nr) return false;
    m->rows = nr;
    /* at most LT_EVENT_MAX_ITEMS (the emitter refuses more); none without the array */
    int n = !ev->cells || ev->ncells < 0 ? 0 : ev->ncells > LT_EVENT_MAX_ITEMS ? LT_EVENT_MAX_ITEMS : ev->ncells;
    struct prow *r = &m->rows[m->n];
    r->cells = calloc((size_t)(n ? n : 1), sizeof *r->cells);
    if (!r->cells) return false;
    r->n = n;
    for (int i = 0; i < n; i++) r->cells[i] = tui_w_text(e, ev->cells[i]);
    m->n++;
    return true;
}

static bool has_data(const void *st) { return ((const struct table *)st)->n > 0; }

/* ---- what a cell holds ------------------------------------------------------------------ */

/* A cell that says nothing is there: it neither makes nor breaks a column of numbers. */
static bool neutral(const char *s)
{
    return !*s || !strcmp(s, "-") || !strcmp(s, "\xe2\x80\x94") || !strcmp(s, "n/a") || !strcmp(s, "?");
}

/* A quantity: a number ("1,024", "~3.5", "-2", "≈0.8") and at most one unit after it, attached
 * ("45%", "1.50x") or after one blank ("673.15 ms", "5.60 GB/s"). *num: the number's bytes;
 * *unit: where the unit starts ("" when none). */
static bool quantity(const char *s, size_t *num, const char **unit)
{
    const char *p = s;
    if (!strncmp(p, "\xe2\x89\x88", 3)) p += 3; /* ≈ */
    else if (*p == '~' || *p == '<' || *p == '>' || *p == '-' || *p == '+') p++;
    if (*p < '0' || *p > '9') return false;
    while ((*p >= '0' && *p <= '9') || ((*p == '.' || *p == ',') && p[1] >= '0' && p[1] <= '9')) p++;
    *num = (size_t)(p - s);
    const char *u = *p == ' ' ? p + 1 : p;
    if (*u == ' ' || strchr(u, ' ') || strlen(u) > UNIT_MAX || (*p == ' ' && !*u)) return false;
    if (*u >= '0' && *u <= '9') return false;
    *unit = u;
    return true;
}

/* ---- the plan: which columns, how wide ------------------------------------------------------ */

struct col {
    bool qty;        /* every body cell a quantity (or neutral), one at least */
    bool label;      /* the first column of text: shortened, never wrapped */
    const char *unit; /* the unit every quantity of the column has, or NULL */
    bool moved;      /* that unit is in the header now, not in the cells */
    char *head;      /* the header as drawn (with the moved unit); malloc'd */
    int nat, min, w; /* widths: whole, the least it takes, chosen */
};

struct plan {
    const struct table *m;
    int cols, body0; /* columns; the first body row (1 with a header) */
    struct col *c;
    bool outer;
    int shown; /* columns drawn, from the left */
};

static const char *cell(const struct plan *p, int r, int c)
{
    const struct prow *row = &p->m->rows[r];
    const char *v = c < row->n ? row->cells[c] : "";
    return v ? v : ""; /* a cell that ran out of memory is blank */
}

/* The bytes of a body cell as drawn: its number alone when the column's unit moved. */
static size_t shown_len(const struct plan *p, int r, int c)
{
    const char *v = cell(p, r, c), *u;
    size_t num;
    if (p->c[c].moved && quantity(v, &num, &u) && *u) return num;
    return strlen(v);
}

static bool classify(struct plan *p)
{
    for (int c = 0; c < p->cols; c++) {
        struct col *k = &p->c[c];
        int nq = 0;
        bool q = p->m->n > p->body0, same = true;
        for (int r = p->body0; r < p->m->n && q; r++) {
            const char *v = cell(p, r, c), *u;
            size_t num;
            if (neutral(v)) continue;
            if (!quantity(v, &num, &u)) q = false;
            else if (!nq++) k->unit = u;
            else if (strcmp(u, k->unit)) same = false;
        }
        k->qty = q && nq > 0;
        if (!k->qty || !same || !k->unit || !*k->unit) k->unit = NULL;
        k->label = c == 0 && p->cols > 1 && !k->qty;
        const char *h = p->body0 ? cell(p, 0, c) : "";
        size_t hl = strlen(h) + (k->unit ? strlen(k->unit) : 0) + 8;
        if (!(k->head = malloc(hl))) return false;
        snprintf(k->head, hl, "%s", h);
    }
    return true;
}

/* The header names the unit already: "rate (GB/s)", "GiB"; not the "B" of "Blocks". */
static bool names_unit(const char *h, const char *unit)
{
    size_t n = strlen(unit);
    for (const char *q = h; (q = strstr(q, unit)); q++) {
        unsigned char before = q > h ? (unsigned char)q[-1] : ' ', after = (unsigned char)q[n];
        bool word_b = (before >= 'a' && before <= 'z') || (before >= 'A' && before <= 'Z');
        bool word_a = (after >= 'a' && after <= 'z') || (after >= 'A' && after <= 'Z') || after == '/';
        if (!word_b && !word_a) return true;
    }
    return false;
}

/* Widths of every column for one choice: units moved into headers, labels shortened. */
static void measure(struct plan *p, bool move, bool shorten, bool zh)
{
    for (int c = 0; c < p->cols; c++) {
        struct col *k = &p->c[c];
        const char *h = p->body0 ? cell(p, 0, c) : "";
        k->moved = move && k->unit;
        if (k->moved && !names_unit(h, k->unit)) /* "time (ms)"; a header that names it already stays */
            snprintf(k->head, strlen(h) + strlen(k->unit) + 8, zh && *h ? "%s（%s）" : *h ? "%s (%s)" : "%s%s",
                     h, k->unit);
        else snprintf(k->head, strlen(h) + 1, "%s", h);
        int bnat = 0, bmin = 0;
        for (int r = p->body0; r < p->m->n; r++) {
            const char *v = cell(p, r, c);
            size_t n = shown_len(p, r, c);
            int w = tui_width(v, n), ww = k->qty ? w : k->label ? (shorten && w > LABEL_MIN ? LABEL_MIN : w)
                                                               : tui_word_width(v, n);
            if (w > bnat) bnat = w;
            if (ww > bmin) bmin = ww;
        }
        int hn = tui_width(k->head, strlen(k->head)), hm = tui_word_width(k->head, strlen(k->head));
        k->nat = bnat > hn ? bnat : hn;
        k->min = bmin > hm ? bmin : hm;
        if (k->nat < 1) k->nat = 1;
        if (k->min < 1) k->min = 1;
    }
}

static int overhead(bool outer, int k) { return outer ? 1 + 3 * k : 3 * (k - 1); }

/* The first choice, in the order of the file's comment, whose least widths fit `width`. */
static bool choose(struct plan *p, int width, bool zh, bool framed)
{
    static const struct { bool outer, move, shorten; } steps[] = {
        {true, false, false}, {false, false, false}, {false, true, false}, {false, true, true}};
    for (size_t s = framed ? 1 : 0; s < sizeof steps / sizeof *steps; s++) { /* a frame is enough */
        measure(p, steps[s].move, steps[s].shorten, zh);
        p->outer = steps[s].outer;
        for (int k = p->cols; k >= 1; k--) {
            if (k < p->cols && s + 1 < sizeof steps / sizeof *steps) break; /* drop columns last */
            int sum = overhead(p->outer, k);
            for (int c = 0; c < k; c++) sum += p->c[c].min;
            if (sum > width) continue;
            p->shown = k;
            int extra = width - sum;
            for (int c = 0; c < k; c++) p->c[c].w = p->c[c].min;
            /* what is left: a label whole first, then the column furthest from its width */
            while (extra > 0) {
                int best = -1;
                for (int c = 0; c < k; c++) {
                    struct col *q = &p->c[c];
                    if (q->w >= q->nat) continue;
                    if (q->label) {
                        best = c;
                        break;
                    }
                    if (best < 0 || q->nat - q->w > p->c[best].nat - p->c[best].w) best = c;
                }
                if (best < 0) break;
                p->c[best].w++, extra--;
            }
            return true;
        }
    }
    return false;
}

/* ---- drawing ------------------------------------------------------------------------------ */

static void rule(const struct tui_wctx *c, const struct plan *p, const char *l, const char *m,
                 const char *r)
{
    const struct tui_glyphs *g = c->g;
    struct tui_lb b = {.L = c->L};
    if (p->outer) tui_lb_puts(&b, l, TS_RULE);
    for (int k = 0; k < p->shown; k++) {
        if (!p->outer && k > 0) {
            tui_lb_puts(&b, g->h, TS_RULE);
            tui_lb_puts(&b, m, TS_RULE);
            tui_lb_puts(&b, g->h, TS_RULE);
        }
        tui_lb_repeat(&b, g->h, p->c[k].w + (p->outer ? 2 : 0), TS_RULE);
        if (p->outer) tui_lb_puts(&b, k + 1 < p->shown ? m : r, TS_RULE);
    }
    tui_lb_end(&b, -1, TUI_LK_TEXT, 0);
    tui_lb_free(&b);
}

/* One table row: each cell's lines side by side (a header or a text cell may take several). */
static void row(const struct tui_wctx *c, const struct plan *p, int r, bool head)
{
    struct tui_wline *wl[TUI_W_MAX_ITEMS] = {0};
    int nl[TUI_W_MAX_ITEMS] = {0}, h = 1;
    const char *txt[TUI_W_MAX_ITEMS];
    size_t len[TUI_W_MAX_ITEMS];
    for (int k = 0; k < p->shown; k++) {
        txt[k] = head ? p->c[k].head : cell(p, r, k);
        len[k] = head ? strlen(txt[k]) : shown_len(p, r, k);
        bool wraps = head || (!p->c[k].qty && !p->c[k].label);
        nl[k] = 1;
        if (wraps && (nl[k] = tui_wrap(txt[k], len[k], p->c[k].w, &wl[k])) < 0) {
            nl[k] = 0, wl[k] = NULL;
            c->L->oom = true;
        }
        if (nl[k] > h) h = nl[k];
    }
    struct tui_lb b = {.L = c->L};
    int style = head ? TS_TABLE_HEAD : TS_PLAIN;
    for (int i = 0; i < h; i++) {
        if (p->outer) tui_lb_puts(&b, c->g->v, TS_RULE);
        for (int k = 0; k < p->shown; k++) {
            const struct col *q = &p->c[k];
            if (p->outer || k > 0) tui_lb_puts(&b, " ", TS_PLAIN);
            int at = b.width;
            if (wl[k] && i < nl[k]) {
                const struct tui_wline *w = &wl[k][i];
                if (q->qty) tui_lb_pad(&b, at + q->w - w->width, TS_PLAIN);
                tui_lb_put(&b, txt[k] + w->start, (size_t)(w->end - w->start), style);
            } else if (!wl[k] && i == 0) { /* a number, or a label shortened to its width */
                char *t = strndup(txt[k], len[k]);
                if (t) tui_lb_fit(&b, t, q->w, q->qty ? TUI_RIGHT : TUI_LEFT, c->ascii, style);
                else c->L->oom = true;
                free(t);
            }
            tui_lb_pad(&b, at + q->w, TS_PLAIN);
            if (p->outer || k + 1 < p->shown) {
                tui_lb_puts(&b, " ", TS_PLAIN);
                tui_lb_puts(&b, c->g->v, TS_RULE);
            }
        }
        tui_lb_end(&b, -1, TUI_LK_TEXT, 0);
    }
    tui_lb_free(&b);
    for (int k = 0; k < p->shown; k++) free(wl[k]);
}

/* Too wide for columns and shown whole: each row a record, its first cell over "header: value"
 * lines (without a header, the values). */
static void records(const struct tui_wctx *c, const struct plan *p)
{
    struct tui_render_opts o = {c->width, c->lang, c->ascii, -1};
    for (int r = p->body0; r < p->m->n; r++) {
        if (r > p->body0) tui_w_line(c, "", TS_PLAIN);
        for (int k = 0; k < p->cols; k++) {
            const char *v = cell(p, r, k), *h = p->body0 ? cell(p, 0, k) : "";
            if (k == 0 && p->cols > 1) {
                tui_render_para(c->L, v, strlen(v), TS_TABLE_HEAD, false, "", TS_TABLE_HEAD, &o);
                continue;
            }
            size_t n = strlen(h) + strlen(v) + 4;
            char *t = malloc(n);
            if (!t) {
                c->L->oom = true;
                return;
            }
            snprintf(t, n, "%s%s%s", h, *h ? ": " : "", v);
            tui_render_para(c->L, t, strlen(t), TS_PLAIN, false, "  ", TS_PLAIN, &o);
            free(t);
        }
    }
}

/* The one line under a table that shows only some of its columns: how many, which, and the key
 * that shows the table whole (the key's words kept when the names do not fit). */
static void cut_note(const struct tui_wctx *c, const struct plan *p)
{
    bool zh = tui_w_zh(c) && !c->ascii;
    char names[256] = "", what[64], line[512], fit[600];
    for (int k = p->shown; k < p->cols; k++) {
        size_t l = strlen(names);
        snprintf(names + l, sizeof names - l, "%s%s", k > p->shown ? (zh ? "、" : ", ") : "", p->c[k].head);
    }
    int more = p->cols - p->shown;
    if (c->whole_key) snprintf(what, sizeof what, zh ? "按 %c 查看整个表格" : "%c shows the table whole", c->whole_key);
    else snprintf(what, sizeof what, "%s", zh ? "终端更宽时可见" : "a wider terminal shows them");
    snprintf(line, sizeof line, zh ? "还有 %d 列（%s）：%s" : "+%d more (%s): %s", more, names, what);
    if (tui_width(line, strlen(line)) > c->width)
        snprintf(line, sizeof line, zh ? "还有 %d 列：%s" : more == 1 ? "+%d column: %s" : "+%d columns: %s", more,
                 what);
    if (tui_width(line, strlen(line)) > c->width && c->whole_key) /* "+5 columns: z: whole" */
        snprintf(line, sizeof line, zh ? "还有 %d 列：按 %c" : more == 1 ? "+%d column: %c: whole" : "+%d columns: %c: whole",
                 more, c->whole_key);
    tui_fit_words(line, c->width, c->ascii, fit, sizeof fit);
    struct tui_lb b = {.L = c->L};
    tui_lb_puts(&b, fit, TS_DIM);
    tui_lb_end(&b, -1, TUI_LK_TEXT, 0);
    tui_lb_free(&b);
}

static void draw(const void *st, const struct tui_wctx *c, const struct tui_pinfo *pi)
{
    const struct table *m = st;
    if (!m->n) return;
    struct plan p = {.m = m, .cols = 1, .body0 = m->n > 1 ? 1 : 0};
    for (int r = 0; r < m->n; r++)
        if (m->rows[r].n > p.cols) p.cols = m->rows[r].n;
    if (!(p.c = calloc((size_t)p.cols, sizeof *p.c))) {
        c->L->oom = true;
        return;
    }
    bool zh = tui_w_zh(c) && !c->ascii;
    if (!classify(&p)) {
        c->L->oom = true;
    } else if (!choose(&p, c->width, zh, c->framed) || (p.shown < p.cols && c->whole)) {
        records(c, &p);
    } else {
        if (p.outer) rule(c, &p, c->g->tl, c->g->tj, c->g->tr);
        if (p.body0) {
            row(c, &p, 0, true);
            if (m->n > 1) rule(c, &p, p.outer ? c->g->lj : "", c->g->cross, p.outer ? c->g->rj : "");
        }
        for (int r = p.body0; r < m->n; r++) row(c, &p, r, false);
        if (p.outer) rule(c, &p, c->g->bl, c->g->bj, c->g->br);
        if (p.shown < p.cols) cut_note(c, &p);
    }
    for (int k = 0; k < p.cols; k++) free(p.c[k].head);
    free(p.c);
}

const struct tui_widget tui_widget_table = {LT_PANEL_TABLE, make, destroy, apply, has_data, draw, NULL, NULL};
