/* tui_w_bars.c - the bars widget (see tui_widget.h): one bar per label, its last value; one
 * scale for the panel - the lesson's `scale`, the largest value or the largest paired peak - so
 * a bar keeps its length while later results arrive; a peak paired with a bar (`peak =`) is a
 * "│" on that bar's row; values right-aligned, decimal points in one column. Its key figure is
 * the first bar. Tested by tests/unit/test_tui_panel.c and tests/fuzz/fuzz_panel.c. */
#include "tui_widget.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu_fmt.h"
#include "tui_wrap.h"

static void *make(void) { return calloc(1, sizeof(struct tui_w_items)); }

static void destroy(void *st) { tui_w_items_free(st); }

static bool apply(void *st, const struct lt_event *ev, const struct tui_wenv *e)
{
    struct tui_w_item *b = tui_w_items_apply(st, ev, e);
    if (b && !(b->max > 0 && isfinite(b->max))) b->max = 0; /* a paired peak, or none */
    return b != NULL;
}

static bool has_data(const void *st) { return ((const struct tui_w_items *)st)->n > 0; }

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

static void draw(const void *st, const struct tui_wctx *c, const struct tui_pinfo *pi)
{
    const struct tui_w_items *m = st;
    if (pi->headline && m->n == 1) return; /* the headline above is that bar */
    double max = pi->scale > 0 ? pi->scale : 0, minabs = INFINITY;
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
    int vw = nw + (uw ? uw + 1 : 0);
    if (lw > c->width / 3) lw = c->width / 3;
    int barw = c->width - lw - vw - 3 - (tagw ? tagw + 1 : 0);
    bool two = barw < 6; /* label on its own line, the bar under it */
    if (two) barw = c->width - vw - 1 - (tagw ? tagw + 1 : 0);
    struct tui_lb b = {.L = c->L};
    for (int i = 0; i < m->n; i++) {
        const struct tui_w_item *p = &m->v[i];
        if (two) {
            tui_lb_fit(&b, p->label, c->width, TUI_LEFT, c->ascii, TS_PLAIN);
            tui_lb_end(&b, -1, TUI_LK_TEXT, 0);
        } else {
            tui_lb_fit(&b, p->label, lw, TUI_LEFT, c->ascii, TS_PLAIN);
            tui_lb_puts(&b, " ", TS_PLAIN);
        }
        if (barw > 0 && !(p->max > 0 && isfinite(p->max) && max > 0)) {
            tui_w_bar_run(&b, max > 0 ? p->value / max : 0, barw, p->style, c->ascii, NULL);
        } else if (barw > 0) {
            /* the bar, then copied cell by cell with the peak's cell a marker */
            int at = tui_w_clamp(p->max / max * barw - 0.5, 0, barw - 1);
            struct tui_lb run = {.L = c->L};
            tui_w_bar_run(&run, p->value / max, barw, p->style, c->ascii, NULL);
            int cell = 0;
            for (int k = 0; k < run.len && cell < barw;) {
                unsigned cp;
                int l = gpu_utf8_decode(run.s + k, (size_t)(run.len - k), &cp);
                if (cell == at) tui_lb_puts(&b, c->ascii ? "|" : "│", TS_THEORETICAL);
                else tui_lb_put(&b, run.s + k, (size_t)l, run.st[k]);
                k += l, cell++;
            }
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
    const struct tui_w_items *m = st;
    if (!m->n) return false;
    const struct tui_w_item *b = &m->v[0];
    *k = (struct tui_keyfig){b->label, b->unit, b->value, 0, 0, (enum lt_style)(b->style - TS_MEASURED),
                             false, false, false};
    return true;
}

const struct tui_widget tui_widget_bars = {LT_PANEL_BARS, make, destroy, apply, has_data, draw, key, NULL};
