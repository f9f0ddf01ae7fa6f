/* tui_w_timeline.c - the timeline widget (see tui_widget.h), as a profiler's timeline draws a
 * run (Nsight Systems' rows per stream and per engine): one lane a row - an engine, a stream,
 * the host - with each span of time it was busy drawn as a bar, time running left to right on
 * one axis for every lane, so what runs at once is what lies in the same columns. The glyph
 * and the colour say the span's kind (copy in, kernel, copy out: the legend under the axis); a
 * bar wide enough carries the number of the chunk or batch it worked on. The axis is ticked at
 * round values (1, 2 or 5 x 10^k, tui_ticks.h) in µs, ms or s, whichever the run's length reads
 * best in, and the legend says what a column is worth. A cell shows the span that covers its
 * centre, so two spans one after the other never share a cell; one too short to cover a centre
 * still shows, in the cell its middle lies in; a span of no length only declares its lane (and
 * kind), so lanes keep their rows while a run is revealed. Too narrow for a plot, each lane is a
 * line of words: its spans and how long it was busy. Tested by tests/unit/test_tui_timeline.c
 * and tests/tui/timeline.sh. */
#include "tui_widget.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu_fmt.h"
#include "tui_ticks.h"

struct span {
    double t0, t1;
    int lane, kind;
    double num; /* the chunk or batch (-1: none) */
};

struct timeline {
    char *lane[LT_TIMELINE_MAX_LANES], *kind[LT_TIMELINE_MAX_KINDS];
    int nlane, nkind;
    struct span *v;
    int n, cap;
    double total, last; /* the length the lesson gave (0: none), the latest finish */
};

static void *make(void) { return calloc(1, sizeof(struct timeline)); }

static void destroy(void *st)
{
    struct timeline *t = st;
    if (!t) return;
    for (int i = 0; i < t->nlane; i++) free(t->lane[i]);
    for (int i = 0; i < t->nkind; i++) free(t->kind[i]);
    free(t->v);
    free(t);
}

/* The index of name in names (added when new); -1 when full or out of memory. */
static int intern(char **names, int *n, int max, const struct tui_wenv *e, struct lt_text s)
{
    char *k = tui_w_text(e, s);
    if (!k) return -1;
    for (int i = 0; i < *n; i++)
        if (!strcmp(names[i], k)) {
            free(k);
            return i;
        }
    if (*n == max) {
        free(k);
        return -1;
    }
    names[*n] = k;
    return (*n)++;
}

static bool apply(void *st, const struct lt_event *ev, const struct tui_wenv *e)
{
    struct timeline *t = st;
    double t0 = ev->x, t1 = ev->y;
    /* what a lesson cannot send (ex:span refuses it) a recording might: left out */
    if (!(t0 >= 0 && t1 >= t0 && isfinite(t1)) || t->n == LT_TIMELINE_MAX_SPANS) return false;
    if (t->n == t->cap) {
        int nc = t->cap ? 2 * t->cap : 64;
        struct span *nv = realloc(t->v, (size_t)nc * sizeof *nv);
        if (!nv) return false;
        t->v = nv, t->cap = nc;
    }
    int lane = intern(t->lane, &t->nlane, LT_TIMELINE_MAX_LANES, e, ev->series);
    int kind = intern(t->kind, &t->nkind, LT_TIMELINE_MAX_KINDS, e, *lt_tx(ev->text, e->zh) ? ev->text : ev->series);
    if (lane < 0 || kind < 0) return false;
    t->v[t->n++] = (struct span){t0, t1, lane, kind, ev->value >= 0 && ev->value < 1e9 ? floor(ev->value) : -1};
    if (t1 > t->last) t->last = t1;
    if (ev->max > t->total && isfinite(ev->max)) t->total = ev->max;
    return true;
}

static bool has_data(const void *st) { return ((const struct timeline *)st)->n > 0; }

bool tui_w_span_cols(double t0, double t1, double end, int cols, int *c0, int *c1)
{
    if (!(end > 0) || cols < 1 || !(t0 < end) || !(t1 > t0)) return false;
    double w = end / cols;
    /* cell k shows the span that covers its centre, (k + 1/2) w: t0 <= (k + 1/2) w < t1 */
    *c0 = tui_w_clamp(ceil(t0 / w - 0.5), 0, cols);
    *c1 = tui_w_clamp(ceil(t1 / w - 0.5), 0, cols);
    if (*c1 <= *c0) { /* covers no centre: the cell its middle lies in */
        *c0 = tui_w_clamp(floor((t0 + t1) / 2 / w), 0, cols - 1);
        *c1 = *c0 + 1;
    }
    return true;
}

/* The unit the axis reads best in: µs below 1 ms, ms below 10 s, else s. */
static double time_unit(double end, bool ascii, const char **name)
{
    if (end < 1e-3) return *name = ascii ? "us" : "µs", 1e6;
    if (end < 10) return *name = "ms", 1e3;
    return *name = "s", 1;
}

/* A kind's glyph (8) and colour (TS_NSERIES, 6): no two of the first 24 kinds share both. */
static const char *kind_glyph(int k, bool ascii)
{
    static const char *const u[8] = {"█", "▓", "▒", "░", "▚", "▞", "▀", "▄"};
    static const char *const a[8] = {"#", "=", "+", "%", "@", "*", "o", "~"};
    return (ascii ? a : u)[(unsigned)k % 8];
}

static int kind_style(int k) { return TS_SERIES0 + k % TS_NSERIES; }

static const char *word(const struct tui_wctx *c, int which)
{
    static const char *const en[] = {"column", "busy", "of", "spans"};
    static const char *const zhw[] = {"每列", "忙", "/", "段"};
    return (tui_w_zh(c) && !c->ascii ? zhw : en)[which];
}

/* A number of the axis in its unit: as many decimals as the step has. */
static void tick_text(double v, double step, char *buf, size_t n)
{
    int d = step >= 1 ? 0 : tui_w_clamp(ceil(-log10(step) - 1e-9), 0, 6);
    snprintf(buf, n, "%.*f", d, fabs(v) < step * 1e-6 ? 0.0 : v);
}

/* Too narrow for a plot: a lane a line, "H2D: 8 spans, busy 5.2 of 15.6 ms". */
static void draw_words(const struct timeline *t, const struct tui_wctx *c, double end)
{
    const char *un;
    double f = time_unit(end, c->ascii, &un);
    for (int l = 0; l < t->nlane; l++) {
        double busy = 0;
        int n = 0;
        for (int i = 0; i < t->n; i++)
            if (t->v[i].lane == l) busy += t->v[i].t1 - t->v[i].t0, n++;
        char b[32], e[32], line[256];
        gpu_fmt_num(busy * f, b, sizeof b), gpu_fmt_num(end * f, e, sizeof e);
        snprintf(line, sizeof line, "%s: %d %s, %s %s %s %s %s", t->lane[l], n, word(c, 3), word(c, 1), b, word(c, 2), e, un);
        tui_w_line(c, line, TS_PLAIN);
    }
}

static void draw(const void *st, const struct tui_wctx *c, const struct tui_pinfo *pi)
{
    const struct timeline *t = st;
    double end = t->total > t->last ? t->total : t->last;
    if (!(end > 0)) end = 1e-3; /* only empty spans: an axis of 1 ms */
    int lw = 0;
    for (int l = 0; l < t->nlane; l++) {
        int w = tui_width(t->lane[l], strlen(t->lane[l]));
        if (w > lw) lw = w;
    }
    int cap = c->width / 4 < 16 ? c->width / 4 : 16;
    if (lw > cap) lw = cap;
    if (lw < 1) lw = 1;
    int pw = c->width - lw - 1;
    if (pw < 8) {
        draw_words(t, c, end);
        return;
    }
    const char **cell = malloc((size_t)pw * sizeof *cell);
    unsigned char *sty = malloc((size_t)pw);
    char (*digits)[2] = malloc((size_t)pw * sizeof *digits);
    if (!cell || !sty || !digits) {
        free(cell), free(sty), free(digits);
        c->L->oom = true;
        return;
    }
    struct tui_lb b = {.L = c->L};
    for (int l = 0; l < t->nlane; l++) {
        for (int x = 0; x < pw; x++) cell[x] = " ", sty[x] = TS_PLAIN;
        for (int i = 0; i < t->n; i++) {
            const struct span *s = &t->v[i];
            int c0, c1;
            if (s->lane != l || !tui_w_span_cols(s->t0, s->t1, end, pw, &c0, &c1)) continue;
            for (int x = c0; x < c1; x++) cell[x] = kind_glyph(s->kind, c->ascii), sty[x] = (unsigned char)kind_style(s->kind);
            char num[16];
            int d = s->num >= 0 ? snprintf(num, sizeof num, "%.0f", s->num) : 0;
            if (d > 0 && c1 - c0 >= d + 2) /* the number, in the middle of a bar that has room */
                for (int k = 0, at = c0 + (c1 - c0 - d) / 2; k < d; k++)
                    digits[at + k][0] = num[k], digits[at + k][1] = 0, cell[at + k] = digits[at + k];
        }
        tui_lb_fit(&b, t->lane[l], lw, TUI_LEFT, c->ascii, TS_PLAIN);
        tui_lb_puts(&b, " ", TS_PLAIN);
        for (int x = 0; x < pw; x++) tui_lb_puts(&b, cell[x], sty[x]);
        tui_lb_end(&b, -1, TUI_LK_TEXT, 0);
    }
    /* the axis: round ticks, their values under them, the unit at the right end */
    const char *un;
    double f = time_unit(end, c->ascii, &un), endu = end * f;
    double step = tui_tick_step(endu, pw / 8 > 1 ? pw / 8 : 1);
    char *row = malloc((size_t)pw + 1);
    if (!row) {
        free(cell), free(sty), free(digits);
        tui_lb_free(&b);
        c->L->oom = true;
        return;
    }
    memset(row, ' ', (size_t)pw);
    row[pw] = 0;
    for (int x = 0; x < pw; x++) cell[x] = c->ascii ? "-" : "─";
    int unit_at = pw - (int)strlen(un), next = 0;
    for (int k = 0; k * step <= endu * (1 + 1e-9) && k < 1000; k++) {
        double v = k * step;
        int x = tui_w_clamp(floor(v / endu * pw), 0, pw - 1);
        cell[x] = c->ascii ? "+" : "┬";
        char lab[32];
        tick_text(v, step, lab, sizeof lab);
        int n = (int)strlen(lab);
        if (x < next || x + n >= unit_at) continue; /* it would touch its neighbour or the unit */
        memcpy(row + x, lab, (size_t)n);
        next = x + n + 1;
    }
    memcpy(row + unit_at, un, strlen(un));
    tui_lb_pad(&b, lw + 1, TS_PLAIN);
    for (int x = 0; x < pw; x++) tui_lb_puts(&b, cell[x], TS_RULE);
    tui_lb_end(&b, -1, TUI_LK_TEXT, 0);
    tui_lb_pad(&b, lw + 1, TS_PLAIN);
    tui_lb_puts(&b, row, TS_DIM);
    tui_lb_end(&b, -1, TUI_LK_TEXT, 0);
    free(row), free(cell), free(sty), free(digits);
    /* the legend: each kind's glyph and name, then what a column is worth; wrapped */
    char per[96], w[32];
    gpu_fmt_num(endu / pw, w, sizeof w);
    snprintf(per, sizeof per, "%s %s %s", word(c, 0), w, un);
    for (int k = 0; k <= t->nkind; k++) {
        const char *name = k < t->nkind ? t->kind[k] : per;
        int nw = tui_width(name, strlen(name)), need = (k < t->nkind ? 2 : 0) + nw;
        if (b.width && b.width + 2 + need > c->width) tui_lb_end(&b, -1, TUI_LK_TEXT, 0);
        if (b.width) tui_lb_puts(&b, "  ", TS_PLAIN);
        if (k < t->nkind) {
            tui_lb_puts(&b, kind_glyph(k, c->ascii), (unsigned char)kind_style(k));
            tui_lb_puts(&b, " ", TS_PLAIN);
        }
        int room = c->width - b.width;
        tui_lb_fit(&b, name, nw < room ? nw : room > 0 ? room : 0, TUI_LEFT, c->ascii, k < t->nkind ? TS_PLAIN : TS_DIM);
    }
    tui_lb_end(&b, -1, TUI_LK_TEXT, 0);
    tui_lb_free(&b);
    (void)pi;
}

const struct tui_widget tui_widget_timeline = {LT_PANEL_TIMELINE, make, destroy, apply, has_data, draw, NULL, NULL};
