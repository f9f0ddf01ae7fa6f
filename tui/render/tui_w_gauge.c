/* tui_w_gauge.c - the gauge widget (see tui_widget.h): one line each - label, a bracketed bar
 * with a dim track, value / max unit and the percentage - or the label on a line of its own
 * when the panel is narrow; the fill turns to the warning colour from 75 % and the error colour
 * from 90 %. Its key figure is the first measured (or simulated) gauge, else the first. Tested by tests/unit/test_tui_panel.c. */
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
    return tui_w_items_apply(st, ev, e) != NULL;
}

static bool has_data(const void *st) { return ((const struct tui_w_items *)st)->n > 0; }

/* The style of a gauge's fill by how full it is: its own colour up to 75 %, then the warning
 * colour, and the error colour from 90 %: a full cap looks alarming (the words say the role). */
static int fill_style(double frac, int style)
{
    if (frac >= 0.9) return TS_BAD;
    if (frac >= 0.75) return TS_WARN_LABEL;
    return style;
}

static void draw(const void *st, const struct tui_wctx *c, const struct tui_pinfo *pi)
{
    const struct tui_w_items *m = st;
    struct tui_lb b = {.L = c->L};
    int lw = 0;
    for (int i = 0; i < m->n; i++) {
        int l = tui_width(m->v[i].label, strlen(m->v[i].label));
        if (l > lw) lw = l;
    }
    for (int i = 0; i < m->n; i++) {
        const struct tui_w_item *g = &m->v[i];
        char v[32], mx[32], txt[128];
        gpu_fmt_num(g->value, v, sizeof v);
        gpu_fmt_num(g->max, mx, sizeof mx);
        double frac = g->max > 0 ? g->value / g->max : 0;
        const char *tag = tui_w_style_tag(g->style, c->ascii);
        if (g->max > 0 && fabs(frac) < 1000)
            snprintf(txt, sizeof txt, "%s / %s %s %3.0f%%%s%s", v, mx, g->unit, frac * 100, *tag ? " " : "", tag);
        else if (g->max > 0)
            snprintf(txt, sizeof txt, "%s / %s %s %.3g%%%s%s", v, mx, g->unit, frac * 100, *tag ? " " : "", tag);
        else
            snprintf(txt, sizeof txt, "%s %s%s%s", v, g->unit, *tag ? " " : "", tag);
        int tw = tui_width(txt, strlen(txt));
        int one = lw + 1 + 2 + 8 + 1 + tw; /* label, brackets, at least 8 cells of bar, text */
        bool inline_label = lw <= c->width / 3 && one <= c->width;
        if (inline_label) {
            tui_lb_fit(&b, g->label, lw, TUI_LEFT, c->ascii, TS_PLAIN);
            tui_lb_puts(&b, " ", TS_PLAIN);
        } else {
            tui_lb_fit(&b, g->label, c->width, TUI_LEFT, c->ascii, TS_PLAIN);
            tui_lb_end(&b, -1, TUI_LK_TEXT, 0);
        }
        int bw = c->width - (inline_label ? lw + 1 : 0) - tw - 3;
        if (bw >= 4) {
            tui_lb_puts(&b, "[", TS_RULE);
            tui_w_bar_run(&b, frac, bw, fill_style(frac, g->style), c->ascii, c->ascii ? "." : "░");
            tui_lb_puts(&b, "] ", TS_RULE);
            tui_lb_puts(&b, txt, g->style);
        } else {
            tui_lb_fit(&b, txt, c->width - b.width > 0 ? c->width - b.width : c->width, TUI_LEFT, c->ascii, g->style);
        }
        if (b.width > c->width) {
            char *s = strndup(b.s, (size_t)b.len);
            b.len = b.width = 0;
            if (s) tui_lb_fit(&b, s, c->width, TUI_LEFT, c->ascii, g->style);
            free(s);
        }
        tui_lb_end(&b, -1, TUI_LK_TEXT, 0);
    }
    tui_lb_free(&b);
}

static bool key(const void *st, const struct tui_pinfo *pi, struct tui_keyfig *k)
{
    const struct tui_w_item *g = tui_w_items_key(st);
    if (!g) return false;
    *k = (struct tui_keyfig){g->label, g->unit, g->value, g->max, 0, (enum lt_style)(g->style - TS_MEASURED),
                             false, true, false};
    return true;
}

const struct tui_widget tui_widget_gauge = {LT_PANEL_GAUGE, make, destroy, apply, has_data, draw, key, NULL};
