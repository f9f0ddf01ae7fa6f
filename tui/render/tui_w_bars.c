/* tui_w_bars.c - the bars widget (see tui_widget.h): one bar per label, its last value; one
 * scale for the panel - the lesson's `scale`, the largest value or the largest paired peak - so
 * a bar keeps its length while later results arrive; a peak paired with a bar (`peak =`) is a
 * "│" on that bar's row; values right-aligned, decimal points in one column; a blank line
 * between bars where the rows allow, so they are counted at a glance. A limit (`ex:limit`: a
 * device's capacity) is a line down through every bar: the part of a bar past it is drawn as
 * an error, each bar says whether it fits, and a line under them names the limit and how many
 * fit. Its key figure is the first measured (or simulated) bar, else the first. Tested by tests/unit/test_tui_panel.c and
 * tests/fuzz/fuzz_panel.c. */
#include "tui_widget.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu_fmt.h"
#include "tui_wrap.h"

struct bars {
    struct tui_w_items it; /* first: tui_w_items_free frees the whole */
    char *lim_label, *lim_unit;
    double lim; /* 0: no limit */
    int lim_style;
};

static void *make(void) { return calloc(1, sizeof(struct bars)); }

static void destroy(void *st)
{
    struct bars *m = st;
    if (!m) return;
    free(m->lim_label), free(m->lim_unit);
    tui_w_items_free(&m->it);
}

static bool apply_limit(struct bars *m, const struct lt_event *ev, const struct tui_wenv *e)
{
    const char *u = lt_tx(ev->unit, e->zh);
    char *label = tui_w_text(e, ev->series), *unit = tui_w_dup(e, *u ? u : e->panel_unit);
    if (!label || !unit) {
        free(label), free(unit);
        return false;
    }
    free(m->lim_label), free(m->lim_unit);
    m->lim_label = label, m->lim_unit = unit;
    m->lim = ev->value > 0 && isfinite(ev->value) ? ev->value : 0;
    m->lim_style = tui_w_style(ev->style);
    return true;
}

static bool apply(void *st, const struct lt_event *ev, const struct tui_wenv *e)
{
    if (ev->type == LT_EV_LIMIT) return apply_limit(st, ev, e);
    struct tui_w_item *b = tui_w_items_apply(&((struct bars *)st)->it, ev, e);
    if (b && !(b->max > 0 && isfinite(b->max))) b->max = 0; /* a paired peak, or none */
    return b != NULL;
}

static bool has_data(const void *st) { return ((const struct bars *)st)->it.n > 0; }

/* One precision per panel, so the decimal points line up: one decimal, two when the smallest
 * value shown is below 10 (none when every value is whole). */
static int panel_decimals(double minabs) { return minabs >= 10 ? 1 : 2; }

/* A value in the panel's precision, or the shared short form where fixed decimals would need an
 * exponent or lose the value (a count past 1e6, a size below 0.01 of its unit). */
static void bar_value(double v, const char *unit, int dec, char *num, size_t nn, char *u, size_t un)
{
    double a = fabs(v);
    if (isfinite(v) && a < 1e6 && (a >= 0.01 || !(a > 0))) {
        snprintf(num, nn, "%.*f", dec, v);
        snprintf(u, un, "%s", unit);
        return;
    }
    char q[64];
    gpu_fmt_qty(v, unit, q, sizeof q); /* "780 KB", "1.2e+09 calls" */
    const char *sp = strchr(q, ' ');
    snprintf(num, nn, "%.*s", sp ? (int)(sp - q) : (int)strlen(q), q);
    snprintf(u, un, "%s", sp ? sp + 1 : "");
}

/* A bar's run of cells copied with the peak's and the limit's cells as markers, and the part
 * past the limit in the error style. */
static void bar_cells(struct tui_lb *b, const struct tui_lb *run, int barw, int peak_at, int lim_at,
                      bool ascii)
{
    int cell = 0;
    for (int k = 0; k < run->len && cell < barw;) {
        unsigned cp;
        int l = gpu_utf8_decode(run->s + k, (size_t)(run->len - k), &cp);
        if (cell == lim_at) tui_lb_puts(b, ascii ? "|" : "┃", TS_BAD);
        else if (cell == peak_at) tui_lb_puts(b, ascii ? "|" : "│", TS_THEORETICAL);
        else tui_lb_put(b, run->s + k, (size_t)l, lim_at >= 0 && cell > lim_at && cp != ' ' ? TS_BAD : run->st[k]);
        k += l, cell++;
    }
}

static void draw(const void *st, const struct tui_wctx *c, const struct tui_pinfo *pi)
{
    const struct bars *bs = st;
    const struct tui_w_items *m = &bs->it;
    if (pi->headline && m->n == 1 && !(bs->lim > 0)) return; /* the headline above is that bar */
    double max = pi->scale > 0 ? pi->scale : 0, minabs = INFINITY;
    if (bs->lim > max) max = bs->lim;
    int lw = 0, nw = 0, uw = 0, tagw = 0;
    char num[TUI_W_MAX_ITEMS][48], unit[TUI_W_MAX_ITEMS][48];
    bool peaks = false;
    for (int i = 0; i < m->n; i++) {
        const struct tui_w_item *b = &m->v[i];
        if (b->value > max) max = b->value;
        if (b->max > max && isfinite(b->max)) max = b->max;
        peaks |= b->max > 0 && isfinite(b->max);
        if (isfinite(b->value) && fabs(b->value) > 0 && fabs(b->value) < minabs) minabs = fabs(b->value);
    }
    int dec = panel_decimals(minabs);
    bool whole = true; /* counts stay whole: 400 calls, not 400.00 */
    for (int i = 0; i < m->n; i++)
        whole &= isfinite(m->v[i].value) && fabs(m->v[i].value - round(m->v[i].value)) < 1e-9;
    if (whole) dec = 0;
    for (int i = 0; i < m->n; i++) {
        const struct tui_w_item *b = &m->v[i];
        int l = tui_width(b->label, strlen(b->label));
        if (l > lw) lw = l;
        bar_value(b->value, b->unit, dec, num[i], sizeof num[i], unit[i], sizeof unit[i]);
        int v = tui_width(num[i], strlen(num[i])), u = tui_width(unit[i], strlen(unit[i]));
        if (v > nw) nw = v;
        if (u > uw) uw = u;
        int t = (int)strlen(tui_w_style_tag(b->style, c->ascii));
        if (t > tagw) tagw = t;
    }
    bool zh = tui_w_zh(c) && !c->ascii, lim = bs->lim > 0;
    const char *fits = c->ascii ? "ok" : zh ? "✓ 装得下" : "✓ fits", *over = c->ascii ? "OVER" : zh ? "✗ 超出" : "✗ over";
    int verdw = lim ? 1 + (tui_width(fits, strlen(fits)) > tui_width(over, strlen(over)) ? tui_width(fits, strlen(fits))
                                                                                         : tui_width(over, strlen(over)))
                    : 0;
    int vw = nw + (uw ? uw + 1 : 0);
    if (lw > c->width / 3) lw = c->width / 3;
    int barw = c->width - lw - vw - 3 - (tagw ? tagw + 1 : 0) - verdw;
    bool two = barw < 6; /* label on its own line, the bar under it */
    if (two) barw = c->width - vw - 1 - (tagw ? tagw + 1 : 0) - verdw;
    /* a blank line between bars, where the rows allow: bars that touch are hard to count */
    bool gaps = m->n > 1 && !two && (c->rows <= 0 || 2 * m->n + 2 <= c->rows);
    int lim_at = lim && barw > 0 ? tui_w_clamp(bs->lim / max * barw - 0.5, 0, barw - 1) : -1;
    int nfit = 0;
    struct tui_lb b = {.L = c->L};
    for (int i = 0; i < m->n; i++) {
        const struct tui_w_item *p = &m->v[i];
        if (gaps && i > 0) tui_lb_end(&b, -1, TUI_LK_TEXT, 0);
        if (two) {
            tui_lb_fit(&b, p->label, c->width, TUI_LEFT, c->ascii, TS_PLAIN);
            tui_lb_end(&b, -1, TUI_LK_TEXT, 0);
        } else {
            tui_lb_fit(&b, p->label, lw, TUI_LEFT, c->ascii, TS_PLAIN);
            tui_lb_puts(&b, " ", TS_PLAIN);
        }
        bool peak = p->max > 0 && isfinite(p->max) && max > 0;
        if (barw > 0 && !peak && lim_at < 0) {
            tui_w_bar_run(&b, max > 0 ? p->value / max : 0, barw, p->style, c->ascii, NULL);
        } else if (barw > 0) {
            /* the bar, then copied cell by cell with the peak's and the limit's cells markers */
            struct tui_lb run = {.L = c->L};
            tui_w_bar_run(&run, p->value / max, barw, p->style, c->ascii, NULL);
            bar_cells(&b, &run, barw, peak ? tui_w_clamp(p->max / max * barw - 0.5, 0, barw - 1) : -1, lim_at,
                      c->ascii);
            tui_lb_free(&run);
        }
        tui_lb_puts(&b, " ", TS_PLAIN);
        tui_lb_fit(&b, num[i], nw, TUI_RIGHT, c->ascii, p->style);
        if (uw) {
            tui_lb_puts(&b, " ", TS_PLAIN);
            tui_lb_fit(&b, unit[i], uw, TUI_LEFT, c->ascii, p->style);
        }
        if (tagw) {
            tui_lb_puts(&b, " ", TS_PLAIN);
            tui_lb_fit(&b, tui_w_style_tag(p->style, c->ascii), tagw, TUI_LEFT, c->ascii, p->style);
        }
        if (lim) {
            bool ok = p->value <= bs->lim;
            nfit += ok;
            tui_lb_puts(&b, " ", TS_PLAIN);
            tui_lb_puts(&b, ok ? fits : over, ok ? TS_GOOD : TS_BAD);
        }
        /* a very narrow panel: never wider than the width */
        if (b.width > c->width) {
            char *s = strndup(b.s, (size_t)b.len);
            b.len = b.width = 0;
            if (s) tui_lb_fit(&b, s, c->width, TUI_LEFT, c->ascii, p->style);
            free(s);
        }
        tui_lb_end(&b, -1, TUI_LK_TEXT, 0);
    }
    tui_lb_free(&b);
    if (lim) { /* what the line is: "┃ RTX 3090 capacity 23.70 GiB: 9 of 16 fit" */
        char n[48], u[48], line[384];
        bar_value(bs->lim, bs->lim_unit, dec, n, sizeof n, u, sizeof u);
        snprintf(line, sizeof line, zh ? "%s %s %s %s：%d / %d 装得下" : "%s %s %s %s: %d of %d fit",
                 c->ascii ? "|" : "┃", bs->lim_label, n, u, nfit, m->n);
        tui_w_line(c, line, TS_EM);
    }
    /* what the marker is, once per panel, with each paired peak's value */
    for (int i = 0; peaks && i < m->n; i++) {
        const struct tui_w_item *p = &m->v[i];
        if (!(p->max > 0) || !isfinite(p->max)) continue;
        char n[48], u[48], line[256];
        bar_value(p->max, p->unit, dec, n, sizeof n, u, sizeof u);
        snprintf(line, sizeof line, tui_w_zh(c) && !c->ascii ? "%s 理论峰值 %s %s（%s）" : "%s theoretical peak %s %s (%s)",
                 c->ascii ? "|" : "│", n, u, p->label);
        tui_w_line(c, line, TS_DIM);
    }
}

static bool key(const void *st, const struct tui_pinfo *pi, struct tui_keyfig *k)
{
    const struct tui_w_item *b = tui_w_items_key(&((const struct bars *)st)->it);
    if (!b) return false;
    *k = (struct tui_keyfig){b->label, b->unit, b->value, 0, 0, (enum lt_style)(b->style - TS_MEASURED),
                             false, false, false};
    return true;
}

const struct tui_widget tui_widget_bars = {LT_PANEL_BARS, make, destroy, apply, has_data, draw, key, NULL};
