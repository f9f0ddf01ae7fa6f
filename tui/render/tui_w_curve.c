/* tui_w_curve.c - the curve widget (see tui_widget.h): series of (x, y) points on a linear or
 * log x axis (bytes in powers of two: 4K 1M), a log y axis when the values span two decades,
 * linear axes ticked at round values (1, 2 or 5 x 10^k: tui_ticks.h), drawn in braille (or
 * ASCII), each series with its own marker so they are told apart without colour - where two
 * series share a cell their markers take turns, so one never hides under another - and a
 * legend with each series' last value. A lesson points at what the section is about: marks
 * (`ex:mark`: n½, a knee, a peak) are a ▼ on the plot with a guide down to the axis, their
 * label under it and their values in a list; bands (`ex:band`: the phases of a step) are
 * labelled stretches of x above the plot with their edges down through it. Its key figure is
 * the highest point (a peak, and where). Tested by tests/unit/test_tui_panel.c and
 * tests/fuzz/fuzz_panel.c. */
#include "tui_widget.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu_float.h"
#include "gpu_fmt.h"
#include "tui_ticks.h"
#include "tui_wrap.h"

struct pseries {
    char *name;
    int n, cap, style;
    enum lt_style role; /* how its last point was obtained */
    double *x, *y;
};

/* A labelled point (ex:mark) or stretch of x (ex:band); one per label, the last said. */
struct cmark {
    char *label;
    double x, y; /* a band: x .. y on the x axis */
    int style;
};

struct curve {
    struct pseries s[TUI_W_MAX_ITEMS];
    int n;
    struct cmark mk[TUI_W_MAX_ITEMS], bd[TUI_W_MAX_ITEMS];
    int nmk, nbd;
};

static void *make(void) { return calloc(1, sizeof(struct curve)); }

static void destroy(void *st)
{
    struct curve *c = st;
    if (!c) return;
    for (int i = 0; i < c->n; i++) free(c->s[i].name), free(c->s[i].x), free(c->s[i].y);
    for (int i = 0; i < c->nmk; i++) free(c->mk[i].label);
    for (int i = 0; i < c->nbd; i++) free(c->bd[i].label);
    free(c);
}

/* A mark or a band: the one of that label is moved, else one is added. */
static bool apply_mark(struct cmark *v, int *n, const struct lt_event *ev, const struct tui_wenv *e,
                       double a, double b)
{
    char *label = tui_w_text(e, ev->series);
    if (!label) return false;
    struct cmark *k = NULL;
    for (int i = 0; i < *n && !k; i++)
        if (!strcmp(v[i].label, label)) k = &v[i];
    if (k) {
        free(label);
    } else {
        if (*n == TUI_W_MAX_ITEMS) {
            free(label);
            return false;
        }
        k = &v[(*n)++];
        k->label = label;
    }
    k->x = a, k->y = b, k->style = tui_w_style(ev->style);
    return true;
}

static bool apply(void *st, const struct lt_event *ev, const struct tui_wenv *e)
{
    struct curve *m = st;
    if (ev->type == LT_EV_MARK) return apply_mark(m->mk, &m->nmk, ev, e, ev->x, ev->y);
    if (ev->type == LT_EV_BAND) return apply_mark(m->bd, &m->nbd, ev, e, ev->x, ev->max);
    struct pseries *s = NULL;
    char *name = tui_w_text(e, ev->series);
    if (!name) return false;
    for (int i = 0; i < m->n; i++)
        if (!strcmp(m->s[i].name, name)) s = &m->s[i];
    if (!s) {
        if (m->n == TUI_W_MAX_ITEMS) {
            free(name);
            return false;
        }
        s = &m->s[m->n];
        memset(s, 0, sizeof *s);
        s->name = name;
        name = NULL;
        s->style = TS_SERIES0 + m->n % TS_NSERIES;
        m->n++;
    }
    free(name);
    if (s->n == TUI_W_MAX_POINTS) return false;
    if (s->n == s->cap) {
        int nc = s->cap ? s->cap * 2 : 32;
        double *nx = realloc(s->x, (size_t)nc * sizeof *nx);
        if (!nx) return false;
        s->x = nx;
        double *ny = realloc(s->y, (size_t)nc * sizeof *ny);
        if (!ny) return false;
        s->y = ny, s->cap = nc;
    }
    s->x[s->n] = ev->x, s->y[s->n] = ev->y;
    s->role = (unsigned)ev->style < LT_STYLE_COUNT ? ev->style : LT_MEASURED;
    s->n++;
    return true;
}

static bool has_data(const void *st) { return ((const struct curve *)st)->n > 0; }

struct plot {
    int pw, ph, dw, dh;
    double x0, x1, y0, ymax; /* y0: the bottom of a log y axis (0 on a linear one) */
    bool logx, logy;
    unsigned char *bits;
    unsigned char *own;
    unsigned char *mark; /* series + 1 where a data point's marker is drawn, else 0 */
    unsigned char *deco; /* a lesson's mark (DECO_MARK) or a guide under it or a band's edge */
};

enum { DECO_GUIDE = 1, DECO_MARK = 2 };

/* Each series' marker: the curves are told apart without colour, and the legend shows it.
 * Filled shapes first (they read at one cell); the ASCII ones are also the line glyphs. More
 * markers than colours: 3.1's seven series each have a shape of their own. */
#define NMARKERS 8
static const char *const marker_utf8[NMARKERS] = {"●", "■", "▲", "◆", "✚", "✱", "★", "✦"};
static const char marker_ascii[NMARKERS + 1] = "*o+x#@%&";

static const char *series_marker(int s, bool ascii)
{
    static char one[NMARKERS][2];
    s %= NMARKERS;
    if (!ascii) return marker_utf8[s];
    one[s][0] = marker_ascii[s], one[s][1] = 0;
    return one[s];
}

/* A log y axis when every value is positive and they span two decades or more (a latency
 * ladder from 1 ns to 400 ns; PCIe against device-to-device copies): on a linear axis the small
 * ones would all sit on the floor. */
static bool wants_logy(double ymin, double ymax) { return ymin > 0 && ymax / ymin >= 100; }

/* A decade's tick: 1K 10K as on x; below 1, the short form (0.1, 0.01), never "0.100". */
static void decade_label(double v, char *buf, size_t n)
{
    if (v < 1) snprintf(buf, n, "%g", v);
    else gpu_fmt_tick(v, buf, n);
}

static double fx(const struct plot *p, double x) { return p->logx ? log10(x) : x; }

static int col_of(const struct plot *p, double x)
{
    double a = fx(p, p->x0), b = fx(p, p->x1);
    double t = b > a ? (fx(p, x) - a) / (b - a) : 0.5; /* NaN when b - a overflows to inf */
    return tui_w_clamp(t * (p->dw - 1), 0, p->dw - 1);
}

static int row_of(const struct plot *p, double y)
{
    double t = p->logy ? (y > 0 ? (log10(y) - log10(p->y0)) / (log10(p->ymax) - log10(p->y0)) : 0)
               : p->ymax > 0 ? y / p->ymax : 0;
    return p->dh - 1 - tui_w_clamp(t * (p->dh - 1), 0, p->dh - 1);
}

static void dot(struct plot *p, int dx, int dy, int series, bool braille)
{
    static const unsigned char bit[2][4] = {{0x01, 0x02, 0x04, 0x40}, {0x08, 0x10, 0x20, 0x80}};
    if (dx < 0 || dy < 0 || dx >= p->dw || dy >= p->dh) return;
    int cx = braille ? dx / 2 : dx, cy = braille ? dy / 4 : dy;
    p->bits[cy * p->pw + cx] |= braille ? bit[dx % 2][dy % 4] : 1;
    p->own[cy * p->pw + cx] = (unsigned char)series;
}

static void seg(struct plot *p, int x0, int y0, int x1, int y1, int s, bool braille)
{
    int dx = abs(x1 - x0), sx = x0 < x1 ? 1 : -1, dy = -abs(y1 - y0), sy = y0 < y1 ? 1 : -1;
    int err = dx + dy;
    for (int guard = 0; guard < 100000; guard++) {
        dot(p, x0, y0, s, braille);
        if (x0 == x1 && y0 == y1) break;
        int e2 = 2 * err;
        if (e2 >= dy) err += dy, x0 += sx;
        if (e2 <= dx) err += dx, y0 += sy;
    }
}

/* Points in x order: O(n log n) whatever order they came in (an insertion sort went quadratic
 * on points that arrive backwards: 64 series of 4096 points took seconds a frame). Ties keep
 * their arrival order. */
struct xi {
    double x;
    int i;
};

static int cmp_xi(const void *a, const void *b)
{
    const struct xi *p = a, *q = b;
    if (!gpu_feq(p->x, q->x)) return p->x < q->x ? -1 : 1;
    return (p->i > q->i) - (p->i < q->i);
}

static bool sort_by_x(int *idx, int k, const double *x)
{
    struct xi *v = malloc((size_t)(k ? k : 1) * sizeof *v);
    if (!v) return false;
    for (int i = 0; i < k; i++) v[i] = (struct xi){x[idx[i]], idx[i]};
    qsort(v, (size_t)k, sizeof *v, cmp_xi);
    for (int i = 0; i < k; i++) idx[i] = v[i].i;
    free(v);
    return true;
}

/* The text of a mark's or a peak's x: "256 KiB" on a bytes axis, else "event 812". */
static void x_text(double x, bool bytes, const char *x_label, char *buf, size_t n)
{
    char num[48];
    if (bytes) {
        gpu_fmt_bytes(x, GPU_FMT_BIN, buf, n);
        return;
    }
    gpu_fmt_num(x, num, sizeof num);
    snprintf(buf, n, "%.40s%s%s", x_label, *x_label ? " " : "", num);
}

/* Markers on the data points, at least 3 cells apart so the line between them shows (in ASCII
 * the line itself is drawn in the series' marker glyph). A cell another series marked already
 * is taken over at every other point, so two curves on top of each other show both markers in
 * turn instead of only the later one. */
static void place_markers(struct plot *p, const struct pseries *se, int s, const int *idx, int k)
{
    int last = -100, clash = 0;
    for (int i = 0; i < k; i++) {
        int cx = col_of(p, se->x[idx[i]]) / 2, cy = row_of(p, se->y[idx[i]]) / 4;
        if (cx - last < 3 && i + 1 < k) continue;
        unsigned char *at = &p->mark[cy * p->pw + cx];
        if (*at && *at != s + 1 && clash++ % 2) continue;
        *at = (unsigned char)(s + 1);
        last = cx;
    }
}

/* A linear axis's tick label: gpu_fmt_num, but one axis groups all its labels alike: where its
 * top is 10,000 or more, 5000 is written 5,000 beside 10,000 (gpu_fmt_num groups from 10,000). */
static void axis_num(double v, double top, char *buf, size_t n)
{
    double a = fabs(v);
    if (fabs(top) >= 1e4 && a >= 1000 && a < 1e4 && gpu_feq(a, floor(a)))
        snprintf(buf, n, "%s%d,%03d", v < 0 ? "-" : "", (int)a / 1000, (int)a % 1000);
    else gpu_fmt_num(v, buf, n);
}

/* Linear y ticks: each tick's label on the row it lands on (labels[r], "" elsewhere). */
static int y_ticks_linear(struct plot *p, double ymax, bool braille, char (*labels)[32])
{
    double step;
    /* about a label every other row; at least 5 steps, so the top stays within a step of the
     * data (a short plot labels the ticks that land on a row of their own) */
    int steps = (p->ph - 1) / 2;
    p->ymax = tui_ticks_top(ymax, steps < 5 ? 5 : steps, &step);
    int w = 1;
    for (int k = 0; k * step <= p->ymax * (1 + 1e-9) && k <= 64; k++) {
        int r = row_of(p, k * step) / (braille ? 4 : 1);
        if (r < 0 || r >= p->ph || labels[r][0]) continue;
        axis_num(k * step, p->ymax, labels[r], sizeof labels[r]);
        int l = (int)strlen(labels[r]);
        if (l > w) w = l;
    }
    return w;
}

/* The x ticks: powers of 2 for bytes on a log axis (1K, 32K, 1M: exponent steps of 1, 2, 5,
 * 10), of 10 otherwise; on a linear axis round values, as many as their labels leave room for. */
static int x_ticks(const struct plot *p, bool bytes, double *ticks, int cap)
{
    int nt = 0;
    if (p->logx && p->x1 > p->x0) {
        static const int steps2[] = {1, 2, 5, 10, 20, 40}, steps10[] = {1, 2, 3, 5, 10, 20};
        const int *steps = bytes ? steps2 : steps10;
        double base = bytes ? 2 : 10;
        double lo = ceil(log(p->x0) / log(base) - 1e-9), hi = floor(log(p->x1) / log(base) + 1e-9);
        int step = steps[5];
        for (int k = 0; k < 6; k++) {
            double first = ceil(lo / steps[k]) * steps[k];
            int count = first <= hi ? (int)((hi - first) / steps[k]) + 1 : 0;
            if (count * 6 <= p->pw) {
                step = steps[k];
                break;
            }
        }
        for (double e = ceil(lo / step) * step; e <= hi && nt < cap; e += step) ticks[nt++] = pow(base, e);
        return nt;
    }
    /* a label is up to ~7 columns ("2,500", "1.5M"): one per 9 columns at most */
    int most = p->pw / 9;
    nt = tui_ticks_linear(p->x0, p->x1, most < 2 ? 2 : most, ticks, cap, NULL);
    if (nt == 0) ticks[nt++] = p->x0;
    return nt;
}

static void tick_label(double v, double top, bool bytes, bool logx, char *t, size_t n)
{
    if (bytes) gpu_fmt_bytes(v, GPU_FMT_TICK, t, n);
    else if (logx) gpu_fmt_tick(v, t, n); /* 10K 100K 1M, not 10000 1e+07 */
    else axis_num(v, top, t, n);          /* round values as written, grouped alike */
}

/* Bands above the plot: "├── forward ──┤├─ backward ─┤", each over its stretch of x, its label
 * centred on it; a label wider than its stretch spills over cells no other band has (a short
 * phase beside an unbanded one), else is cut. */
static void band_row(const struct curve *cv, const struct plot *p, const struct tui_wctx *c, int yl,
                     bool braille)
{
    const char **cell = calloc((size_t)p->pw, sizeof *cell);
    int *sty = calloc((size_t)p->pw, sizeof *sty), *own = malloc((size_t)p->pw * sizeof *own);
    int c0[TUI_W_MAX_ITEMS], c1[TUI_W_MAX_ITEMS];
    static char glyphs[1024][8]; /* a label's characters, one per cell (a render is single-threaded) */
    int ng = 0;
    if (!cell || !sty || !own) goto out;
    bool a = c->ascii;
    for (int x = 0; x < p->pw; x++) own[x] = -1;
    for (int i = 0; i < cv->nbd; i++) {
        const struct cmark *d = &cv->bd[i];
        double lo = d->x < d->y ? d->x : d->y, hi = d->x < d->y ? d->y : d->x;
        c0[i] = -1;
        if (!isfinite(lo) || !isfinite(hi) || (p->logx && lo <= 0) || hi < p->x0 || lo > p->x1) continue;
        c0[i] = col_of(p, lo < p->x0 ? p->x0 : lo) / (braille ? 2 : 1);
        c1[i] = col_of(p, hi > p->x1 ? p->x1 : hi) / (braille ? 2 : 1);
        int st = TS_SERIES0 + (i + 2) % TS_NSERIES;
        for (int x = c0[i]; x <= c1[i]; x++) cell[x] = a ? "-" : "─", sty[x] = st, own[x] = i;
        cell[c0[i]] = a ? "|" : "├";
        if (c1[i] > c0[i]) cell[c1[i]] = a ? "|" : "┤";
    }
    for (int i = 0; i < cv->nbd; i++) {
        if (c0[i] < 0) continue;
        const struct cmark *d = &cv->bd[i];
        int left = c0[i], right = c1[i]; /* the cells the label may take */
        while (left > 0 && own[left - 1] < 0) left--;
        while (right + 1 < p->pw && own[right + 1] < 0) right++;
        if (left < c0[i]) left++; /* a blank beside a neighbour's label */
        if (right > c1[i]) right--;
        int lw = tui_width(d->label, strlen(d->label)), inner = c1[i] - c0[i] - 1;
        int w = lw <= inner - 2 ? lw + 2 : lw <= inner ? lw : lw + 2; /* with a space each side */
        if (w > right - left + 1) w = right - left + 1;
        if (w < 1) continue;
        int at = (c0[i] + c1[i] + 1) / 2 - w / 2;
        if (at + w - 1 > right) at = right - w + 1;
        if (at < left) at = left;
        bool pad = w >= lw + 2;
        int tw = pad ? w - 2 : w, col = at;
        if (pad) cell[col] = " ", sty[col++] = TS_PLAIN;
        struct tui_lb t = {.L = c->L};
        tui_lb_fit(&t, d->label, tw, TUI_LEFT, a, TS_PLAIN);
        for (int k = 0; k < t.len && col < p->pw && ng < 1024;) { /* one cell a column */
            unsigned cp;
            int l = gpu_utf8_decode(t.s + k, (size_t)(t.len - k), &cp);
            snprintf(glyphs[ng], sizeof glyphs[ng], "%.*s", l, t.s + k);
            cell[col] = glyphs[ng++], sty[col] = TS_PLAIN;
            if (tui_cp_width(cp) == 2 && col + 1 < p->pw) cell[++col] = ""; /* its second column */
            k += l, col++;
        }
        if (pad && col < p->pw) cell[col] = " ", sty[col] = TS_PLAIN;
        tui_lb_free(&t);
    }
    struct tui_lb b = {.L = c->L};
    tui_lb_pad(&b, yl + 1, TS_PLAIN);
    for (int x = 0; x < p->pw; x++) tui_lb_puts(&b, cell[x] ? cell[x] : " ", cell[x] ? sty[x] : TS_PLAIN);
    tui_lb_end(&b, -1, TUI_LK_TEXT, 0);
    tui_lb_free(&b);
out:
    free(cell), free(sty), free(own);
}

/* Under the x labels: each mark's label at its column, "▲ n½", on the first of two rows it fits
 * in (the list under the legend has them all, with their values). */
static void mark_rows(const struct curve *cv, const struct plot *p, const struct tui_wctx *c, int yl,
                      const int *mcol)
{
    int end[2] = {-1, -1};
    int row_of_mark[TUI_W_MAX_ITEMS], start_of[TUI_W_MAX_ITEMS];
    bool any = false;
    for (int i = 0; i < cv->nmk; i++) {
        row_of_mark[i] = -1;
        if (mcol[i] < 0) continue;
        int w = 2 + tui_width(cv->mk[i].label, strlen(cv->mk[i].label));
        if (w > p->pw) w = p->pw;
        int at = mcol[i];
        if (at + w > p->pw) at = p->pw - w;
        for (int r = 0; r < 2; r++)
            if (at > end[r]) {
                row_of_mark[i] = r, start_of[i] = at, end[r] = at + w;
                any = true;
                break;
            }
    }
    for (int r = 0; any && r < 2 && end[r] >= 0; r++) {
        struct tui_lb b = {.L = c->L};
        tui_lb_pad(&b, yl + 1, TS_PLAIN);
        for (;;) { /* the marks of this row, left to right */
            int best = -1;
            for (int i = 0; i < cv->nmk; i++)
                if (row_of_mark[i] == r && start_of[i] >= b.width - yl - 1 &&
                    (best < 0 || start_of[i] < start_of[best]))
                    best = i;
            if (best < 0) break;
            tui_lb_pad(&b, yl + 1 + start_of[best], TS_PLAIN);
            tui_lb_puts(&b, c->ascii ? "^ " : "▲ ", cv->mk[best].style);
            int lw = tui_width(cv->mk[best].label, strlen(cv->mk[best].label)), room = p->pw - start_of[best] - 2;
            if (room < 0) room = 0;
            tui_lb_fit(&b, cv->mk[best].label, lw < room ? lw : room, TUI_LEFT, c->ascii, cv->mk[best].style);
            row_of_mark[best] = -1;
        }
        tui_lb_end(&b, -1, TUI_LK_TEXT, 0);
        tui_lb_free(&b);
    }
}

static void draw(const void *st, const struct tui_wctx *c, const struct tui_pinfo *m)
{
    const struct curve *cv = st;
    bool braille = !c->ascii;
    bool bytes = tui_w_bytes_axis(m->x_label);
    struct plot p = {0};
    p.logx = m->logx;
    bool any = false, nonpos = false;
    double ymax = 0, ymin = INFINITY;
    for (int s = 0; s < cv->n; s++)
        for (int i = 0; i < cv->s[s].n; i++) {
            double x = cv->s[s].x[i], y = cv->s[s].y[i];
            if (isnan(x) || isnan(y) || isinf(x) || isinf(y) || (p.logx && x <= 0)) continue;
            if (!any || x < p.x0) p.x0 = x;
            if (!any || x > p.x1) p.x1 = x;
            if (y > ymax) ymax = y;
            if (y > 0 && y < ymin) ymin = y;
            nonpos |= y <= 0;
            any = true;
        }
    if (!any) return;
    p.logy = !nonpos && wants_logy(ymin, ymax);
    p.pw = 8; /* for the y labels' width: set again below */
    int yl;
    char ylab[64][32]; /* a linear axis' labels by row (at most 64 rows are drawn) */
    memset(ylab, 0, sizeof ylab);
    char ytop[32], ybot[32];
    if (p.logy) { /* whole decades: 1, 10, 100 */
        p.y0 = pow(10, floor(log10(ymin) + 1e-9));
        p.ymax = pow(10, ceil(log10(ymax) - 1e-9));
        /* decades a double holds: past them y0 underflows to 0 or ymax overflows to inf, and
         * the loops over the decades in between would never end */
        if (!(p.y0 >= 1e-307)) p.y0 = 1e-307;
        if (!(p.y0 <= 1e307)) p.y0 = 1e307;
        if (!(p.ymax <= 1e308)) p.ymax = 1e308;
        if (!(p.ymax > p.y0)) p.ymax = p.y0 * 10;
        decade_label(p.ymax, ytop, sizeof ytop);
        decade_label(p.y0, ybot, sizeof ybot);
        yl = (int)strlen(ytop);
        if ((int)strlen(ybot) > yl) yl = (int)strlen(ybot);
        for (double e = log10(p.y0) + 1; e < log10(p.ymax) - 0.5; e++) { /* y0, ymax clamped above */
            char t[32];
            decade_label(pow(10, e), t, sizeof t);
            if ((int)strlen(t) > yl) yl = (int)strlen(t);
        }
    } else { /* the widest label a round top can have: the top's own, or a step's decimals */
        double step;
        int l0;
        p.ymax = tui_ticks_top(ymax, 2, &step);
        gpu_fmt_num(p.ymax, ytop, sizeof ytop);
        gpu_fmt_num(step / 5, ybot, sizeof ybot);
        l0 = (int)strlen(ytop);
        yl = (int)strlen(ybot) > l0 ? (int)strlen(ybot) : l0;
        if (yl < 3) yl = 3;
    }
    p.pw = c->width - yl - 1;
    if (p.pw < 8) { /* too narrow for a plot: the points as text */
        for (int s = 0; s < cv->n; s++)
            for (int i = 0; i < cv->s[s].n; i++) {
                char xs[32], ys[32], line[96];
                if (bytes) gpu_fmt_bytes(cv->s[s].x[i], GPU_FMT_TICK, xs, sizeof xs);
                else gpu_fmt_num(cv->s[s].x[i], xs, sizeof xs);
                gpu_fmt_num(cv->s[s].y[i], ys, sizeof ys);
                snprintf(line, sizeof line, "%s %s", xs, ys);
                tui_w_line(c, line, cv->s[s].style);
            }
        return;
    }
    /* taller where the viewport has the rows: close series come apart */
    int cap = c->rows > 0 && c->rows * 9 / 20 > 10 ? c->rows * 9 / 20 : 10;
    if (cap > 40) cap = 40;
    p.ph = c->width / 4;
    if (p.ph < 5) p.ph = 5;
    if (p.ph > cap) p.ph = cap;
    /* the whole curve in the viewport: title, unit, bands, axis, labels, legend, marks, footer */
    if (c->rows > 0) {
        int room = c->rows - (6 + cv->n + (cv->nbd > 0) + 3 * (cv->nmk > 0) + cv->nmk);
        if (room < p.ph) p.ph = room < 3 ? 3 : room;
    }
    p.dw = braille ? p.pw * 2 : p.pw;
    p.dh = braille ? p.ph * 4 : p.ph;
    if (!p.logy) {
        int tw = y_ticks_linear(&p, ymax, braille, ylab);
        if (tw > yl) yl = tw;
    }
    if (p.pw != c->width - yl - 1) { /* a wider label than the estimate: fewer columns */
        p.pw = c->width - yl - 1;
        p.dw = braille ? p.pw * 2 : p.pw;
    }
    p.bits = calloc((size_t)(p.pw * p.ph), 1);
    p.own = calloc((size_t)(p.pw * p.ph), 1);
    p.mark = calloc((size_t)(p.pw * p.ph), 1);
    p.deco = calloc((size_t)(p.pw * p.ph), 1);
    int *idx = NULL;
    int mcol[TUI_W_MAX_ITEMS];
    if (!p.bits || !p.own || !p.mark || !p.deco) goto out;
    for (int s = 0; s < cv->n; s++) {
        const struct pseries *se = &cv->s[s];
        free(idx);
        idx = malloc((size_t)(se->n ? se->n : 1) * sizeof *idx);
        if (!idx) goto out;
        int k = 0;
        for (int i = 0; i < se->n; i++)
            if (!isnan(se->x[i]) && !isnan(se->y[i]) && !isinf(se->x[i]) && !isinf(se->y[i]) &&
                !(p.logx && se->x[i] <= 0))
                idx[k++] = i;
        if (!sort_by_x(idx, k, se->x)) goto out;
        for (int i = 0; i < k; i++) {
            int x = col_of(&p, se->x[idx[i]]), y = row_of(&p, se->y[idx[i]]);
            if (i == 0) dot(&p, x, y, s, braille);
            else seg(&p, col_of(&p, se->x[idx[i - 1]]), row_of(&p, se->y[idx[i - 1]]), x, y, s, braille);
        }
        if (braille) place_markers(&p, se, s, idx, k);
    }
    /* a band's edges down through the plot, where nothing is drawn */
    for (int i = 0; i < cv->nbd; i++) {
        const struct cmark *d = &cv->bd[i];
        double e = d->x < d->y ? d->x : d->y;
        if (!isfinite(e) || (p.logx && e <= 0) || e <= p.x0 || e > p.x1) continue;
        int cx = col_of(&p, e) / (braille ? 2 : 1);
        for (int r = 0; r < p.ph; r++) p.deco[r * p.pw + cx] = DECO_GUIDE;
    }
    /* a mark: ▼ at its point, a guide down to the axis */
    for (int i = 0; i < cv->nmk; i++) {
        const struct cmark *k = &cv->mk[i];
        mcol[i] = -1;
        if (!isfinite(k->x) || !isfinite(k->y) || (p.logx && k->x <= 0) || k->x < p.x0 || k->x > p.x1) continue;
        int cx = col_of(&p, k->x) / (braille ? 2 : 1), cy = row_of(&p, k->y) / (braille ? 4 : 1);
        mcol[i] = cx;
        for (int r = cy + 1; r < p.ph; r++)
            if (p.deco[r * p.pw + cx] != DECO_MARK) p.deco[r * p.pw + cx] = DECO_GUIDE;
        p.deco[cy * p.pw + cx] = DECO_MARK;
    }
    struct tui_lb b = {.L = c->L};
    if (*m->y_label) { /* the y unit at the top of its axis */
        int uw = tui_width(m->y_label, strlen(m->y_label));
        tui_lb_fit(&b, m->y_label, uw < c->width ? uw : c->width, TUI_LEFT, c->ascii, TS_DIM);
        tui_lb_end(&b, -1, TUI_LK_TEXT, 0);
    }
    if (cv->nbd) band_row(cv, &p, c, yl, braille);
    for (int r = 0; r < p.ph; r++) {
        const char *lab = p.logy ? (r == 0 ? ytop : r == p.ph - 1 ? ybot : "") : r < 64 ? ylab[r] : "";
        char dec[32];
        if (p.logy && r > 0 && r < p.ph - 1) { /* the decades in between, where they land */
            for (double e = log10(p.y0) + 1; e < log10(p.ymax) - 0.5; e++)
                if (row_of(&p, pow(10, e)) / (braille ? 4 : 1) == r) {
                    decade_label(pow(10, e), dec, sizeof dec);
                    lab = dec;
                }
        }
        tui_lb_fit(&b, lab, yl, TUI_RIGHT, c->ascii, TS_DIM);
        tui_lb_puts(&b, c->g->v, TS_RULE);
        for (int x = 0; x < p.pw; x++) {
            unsigned char v = p.bits[r * p.pw + x], mk = p.mark[r * p.pw + x], dc = p.deco[r * p.pw + x];
            int sty = TS_SERIES0 + p.own[r * p.pw + x] % TS_NSERIES;
            if (dc == DECO_MARK) {
                tui_lb_puts(&b, c->ascii ? "v" : "▼", TS_EM);
            } else if (mk) {
                tui_lb_puts(&b, series_marker(mk - 1, false), TS_SERIES0 + (mk - 1) % TS_NSERIES);
            } else if (!v) {
                tui_lb_puts(&b, dc ? (c->ascii ? ":" : "┊") : " ", dc ? TS_DIM : TS_PLAIN);
            } else if (braille) {
                char u[4];
                int l = gpu_utf8_encode(0x2800u + v, 0, u);
                tui_lb_put(&b, u, (size_t)l, sty);
            } else {
                tui_lb_puts(&b, series_marker(p.own[r * p.pw + x], true), sty);
            }
        }
        tui_lb_end(&b, -1, TUI_LK_TEXT, 0);
    }
    /* x axis: ticks where labels fit */
    char *axis = malloc((size_t)p.pw + 1);
    char *labels = malloc((size_t)p.pw * 4 + 1);
    if (!axis || !labels) {
        free(axis), free(labels);
        tui_lb_free(&b);
        goto out;
    }
    memset(axis, 0, (size_t)p.pw + 1);
    memset(labels, ' ', (size_t)p.pw);
    labels[p.pw] = 0;
    double ticks[64];
    int nt = x_ticks(&p, bytes, ticks, 64);
    int last_end = -1;
    for (int i = 0; i < nt; i++) {
        char t[32];
        tick_label(ticks[i], fmax(fabs(p.x0), fabs(p.x1)), bytes, p.logx, t, sizeof t);
        int cx = col_of(&p, ticks[i]) / (braille ? 2 : 1), tl = (int)strlen(t);
        int start = cx - tl / 2;
        if (start < 0) start = 0;
        if (start + tl > p.pw) start = p.pw - tl;
        if (start <= last_end || start < 0) continue;
        memcpy(labels + start, t, (size_t)tl);
        last_end = start + tl;
        axis[cx] = 1;
    }
    tui_lb_pad(&b, yl, TS_PLAIN);
    tui_lb_puts(&b, c->g->bl, TS_RULE);
    for (int x = 0; x < p.pw; x++) tui_lb_puts(&b, axis[x] ? c->g->bj : c->g->h, TS_RULE);
    tui_lb_end(&b, -1, TUI_LK_TEXT, 0);
    tui_lb_pad(&b, yl + 1, TS_PLAIN);
    tui_lb_puts(&b, labels, TS_DIM);
    tui_lb_end(&b, -1, TUI_LK_TEXT, 0);
    free(axis);
    free(labels);
    if (cv->nmk) mark_rows(cv, &p, c, yl, mcol);
    /* legend: each series with its last value (the largest x), so the numbers are readable
     * even where colours are not */
    int nw = 0;
    for (int s = 0; s < cv->n; s++) {
        int w = tui_width(cv->s[s].name, strlen(cv->s[s].name));
        if (w > nw) nw = w;
    }
    if (nw > c->width / 2) nw = c->width / 2;
    const char *u = *m->unit ? m->unit : m->y_label;
    for (int s = 0; s < cv->n; s++) {
        const struct pseries *se = &cv->s[s];
        const char *mark = series_marker(s, c->ascii);
        double lx = 0, ly = NAN;
        for (int i = 0; i < se->n; i++)
            if (!isnan(se->y[i]) && (isnan(ly) || se->x[i] >= lx)) lx = se->x[i], ly = se->y[i];
        char val[192], xs[32], ys[32];
        gpu_fmt_num(ly, ys, sizeof ys);
        if (bytes) gpu_fmt_bytes(lx, GPU_FMT_TICK, xs, sizeof xs);
        else gpu_fmt_tick(lx, xs, sizeof xs);
        snprintf(val, sizeof val, " %s%s%.64s @ %s", ys, *u ? " " : "", u, xs);
        tui_lb_puts(&b, mark, se->style);
        tui_lb_puts(&b, " ", TS_PLAIN);
        int room = c->width - 2;
        tui_lb_fit(&b, se->name, nw < room ? nw : room, TUI_LEFT, c->ascii, TS_PLAIN);
        int vw = tui_width(val, strlen(val));
        if (b.width + vw <= c->width) tui_lb_puts(&b, val, se->style);
        tui_lb_end(&b, -1, TUI_LK_TEXT, 0);
    }
    tui_lb_free(&b);
    /* the marks with their values: "▼ n½ H2D pinned: 256 KiB, 13.08 GB/s" */
    for (int i = 0; i < cv->nmk; i++) {
        const struct cmark *k = &cv->mk[i];
        char xs[96], ys[48], line[512];
        x_text(k->x, bytes, m->x_label, xs, sizeof xs);
        gpu_fmt_num(k->y, ys, sizeof ys);
        snprintf(line, sizeof line, "%s %s: %s%s%.64s%s%s", c->ascii ? "v" : "▼", k->label, ys, *u ? " " : "",
                 u, tui_w_zh(c) && !c->ascii ? "，" : ", ", xs);
        tui_w_line(c, line, k->style);
    }
    char ax[256];
    const char *yname = *m->y_label ? m->y_label : m->unit;
    const char *logw = tui_w_zh(c) && !c->ascii ? "（对数）" : " (log)";
    snprintf(ax, sizeof ax, "x: %s%s   y: %s%s", *m->x_label ? m->x_label : "x",
             p.logx ? logw : "", *yname ? yname : "y", p.logy ? logw : "");
    tui_w_line(c, ax, TS_DIM);
out:
    free(idx);
    free(p.bits);
    free(p.own);
    free(p.mark);
    free(p.deco);
}

/* The highest point: a peak, and where it was reached. */
static bool key(const void *st, const struct tui_pinfo *m, struct tui_keyfig *k)
{
    const struct curve *cv = st;
    const struct pseries *best = NULL;
    int bi = 0;
    for (int i = 0; i < cv->n; i++)
        for (int j = 0; j < cv->s[i].n; j++)
            if (isfinite(cv->s[i].y[j]) && (!best || cv->s[i].y[j] > best->y[bi]))
                best = &cv->s[i], bi = j;
    if (!best) return false;
    *k = (struct tui_keyfig){best->name, m->y_label, best->y[bi], 0, best->x[bi], best->role,
                             true, false, tui_w_bytes_axis(m->x_label)};
    return true;
}

const struct tui_widget tui_widget_curve = {LT_PANEL_CURVE, make, destroy, apply, has_data, draw, key, NULL};
