/* tui_panel.c - live panel models and their widgets (see tui_panel.h). Models only store what
 * the events said; every widget is recomputed from them for the width at hand, so a resize or a
 * language switch never needs the experiment to run again. */
#include "tui_panel.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "gpu_float.h"
#include "gpu_fmt.h"
#include "tui_wrap.h"

#define MAX_POINTS 4096 /* per series */
#define MAX_ROWS 1000
#define MAX_ITEMS 64    /* bars, gauges, series, notes, map blocks per panel */
#define MAX_PANELS 32

struct pbar {
    char *label, *unit;
    double value, peak; /* peak: the theoretical peak the lesson pairs with it (0: none) */
    int style;
};
struct pseries {
    char *name;
    int n, cap, style;
    enum lt_style role; /* how its last point was obtained */
    double *x, *y;
};
struct pgauge {
    char *label, *unit;
    double value, max;
    int style;
};
struct pblock {
    char *owner, *state;
    double bytes;
    int seg; /* the allocator segment it lies in, 0 when the event does not say */
};
struct prow {
    int n;
    char **cells;
};

struct pmodel {
    char *id, *kind, *title, *x_label, *y_label, *unit;
    bool logx, simulated, measured, declared; /* measured: a live value shares the panel */
    bool key;     /* the experiment's key figure lives here */
    double scale; /* declared: a bar's full length, a map's bytes (0: from the data) */
    struct pbar bars[MAX_ITEMS];
    int nbars;
    struct pseries series[MAX_ITEMS];
    int nseries;
    struct prow *rows;
    int nrows;
    struct pgauge gauges[MAX_ITEMS];
    int ngauges;
    struct pblock map[MAX_ITEMS];
    int nmap;
    double map_total;
    char *notes[MAX_ITEMS];
    int nnotes;
};

struct tui_panelset {
    bool ascii;
    int rows; /* the viewport's height: a curve fits it */
    char *tag;
    struct pmodel *p; /* grown as panels appear (a model is 9 KiB; most sets hold a few) */
    int n, cap;
    char *status;
    char *log[TUI_LOG_MAX];
    int nlog, log_head;
};

static bool g_fold; /* set around apply/declare: the UI thread is the only caller */

static char *dup(const char *s)
{
    if (!s) s = "";
    return g_fold ? tui_ascii_fold(s, strlen(s), NULL, NULL) : strdup(s);
}

static void set_str(char **dst, const char *s)
{
    char *n = dup(s);
    if (!n) return; /* keep the old text rather than lose the panel */
    free(*dst);
    *dst = n;
}

static void model_clear(struct pmodel *m)
{
    for (int i = 0; i < m->nbars; i++) free(m->bars[i].label), free(m->bars[i].unit);
    for (int i = 0; i < m->nseries; i++)
        free(m->series[i].name), free(m->series[i].x), free(m->series[i].y);
    for (int i = 0; i < m->nrows; i++) {
        for (int k = 0; k < m->rows[i].n; k++) free(m->rows[i].cells[k]);
        free(m->rows[i].cells);
    }
    free(m->rows);
    for (int i = 0; i < m->ngauges; i++) free(m->gauges[i].label), free(m->gauges[i].unit);
    for (int i = 0; i < m->nmap; i++) free(m->map[i].owner), free(m->map[i].state);
    for (int i = 0; i < m->nnotes; i++) free(m->notes[i]);
    m->nbars = m->nseries = m->nrows = m->ngauges = m->nmap = m->nnotes = 0;
    m->rows = NULL;
    m->map_total = 0;
    m->simulated = false;
    m->measured = false;
}

static void model_free(struct pmodel *m)
{
    model_clear(m);
    free(m->id), free(m->kind), free(m->title), free(m->x_label), free(m->y_label), free(m->unit);
    memset(m, 0, sizeof *m);
}

struct tui_panelset *tui_panelset_new(bool ascii)
{
    struct tui_panelset *ps = calloc(1, sizeof *ps);
    if (ps) ps->ascii = ascii;
    return ps;
}

void tui_panelset_free(struct tui_panelset *ps)
{
    if (!ps) return;
    for (int i = 0; i < ps->n; i++) model_free(&ps->p[i]);
    for (int i = 0; i < ps->nlog; i++) free(ps->log[i]);
    free(ps->p);
    free(ps->status);
    free(ps->tag);
    free(ps);
}

void tui_panelset_set_rows(struct tui_panelset *ps, int rows) { ps->rows = rows > 0 ? rows : 0; }

void tui_panelset_set_tag(struct tui_panelset *ps, const char *tag)
{
    free(ps->tag);
    ps->tag = tag && *tag ? strdup(tag) : NULL;
}

void tui_panelset_clear(struct tui_panelset *ps)
{
    for (int i = 0; i < ps->n; i++) model_clear(&ps->p[i]);
    /* panels that only events created go; declared ones stay, empty */
    int k = 0;
    for (int i = 0; i < ps->n; i++) {
        if (ps->p[i].declared) ps->p[k++] = ps->p[i];
        else model_free(&ps->p[i]);
    }
    for (int i = k; i < ps->n; i++) memset(&ps->p[i], 0, sizeof ps->p[i]);
    ps->n = k;
    for (int i = 0; i < ps->nlog; i++) free(ps->log[i]);
    ps->nlog = ps->log_head = 0;
    free(ps->status);
    ps->status = NULL;
}

static struct pmodel *find(struct tui_panelset *ps, const char *id)
{
    char *f = dup(id); /* ids are stored as dup() made them */
    struct pmodel *m = NULL;
    for (int i = 0; f && i < ps->n && !m; i++)
        if (!strcmp(ps->p[i].id, f)) m = &ps->p[i];
    free(f);
    return m;
}

static struct pmodel *add(struct tui_panelset *ps, const char *id, const char *kind)
{
    if (ps->n == MAX_PANELS) return NULL;
    if (ps->n == ps->cap) {
        int nc = ps->cap ? 2 * ps->cap : 4;
        struct pmodel *np = realloc(ps->p, (size_t)nc * sizeof *np);
        if (!np) return NULL;
        ps->p = np, ps->cap = nc;
    }
    struct pmodel *m = &ps->p[ps->n];
    memset(m, 0, sizeof *m);
    m->id = dup(id), m->kind = dup(kind), m->title = dup(id);
    m->x_label = dup(""), m->y_label = dup(""), m->unit = dup("");
    if (!m->id || !m->kind || !m->title || !m->x_label || !m->y_label || !m->unit) {
        model_free(m);
        return NULL;
    }
    ps->n++;
    return m;
}

static void declare(struct tui_panelset *ps, const struct lt_panel *p, int n);

void tui_panelset_declare(struct tui_panelset *ps, const struct lt_panel *p, int n)
{
    g_fold = ps->ascii;
    declare(ps, p, n);
    g_fold = false;
}

static void declare(struct tui_panelset *ps, const struct lt_panel *p, int n)
{
    for (int i = 0; i < n; i++) {
        struct pmodel *m = find(ps, p[i].id);
        if (!m && !(m = add(ps, p[i].id, p[i].kind))) return;
        m->declared = true;
        set_str(&m->kind, p[i].kind);
        set_str(&m->title, p[i].title && *p[i].title ? p[i].title : p[i].id);
        set_str(&m->x_label, p[i].x_label);
        set_str(&m->y_label, p[i].y_label);
        set_str(&m->unit, p[i].unit);
        m->logx = p[i].logx;
        m->key = p[i].key;
        m->scale = p[i].scale > 0 && isfinite(p[i].scale) ? p[i].scale : 0;
        /* keep the declared order */
        int at = (int)(m - ps->p);
        if (at != i && i < ps->n) {
            struct pmodel t = ps->p[i];
            ps->p[i] = *m;
            ps->p[at] = t;
        }
    }
}

static const char *kind_for(enum lt_event_type t)
{
    switch (t) {
    case LT_EV_POINT: return "curve";
    case LT_EV_ROW: return "table";
    case LT_EV_GAUGE: return "gauge";
    case LT_EV_MAP: return "map";
    default: return "bars";
    }
}

static int style_of(enum lt_style s)
{
    return s >= LT_MEASURED && s <= LT_REFERENCE ? TS_MEASURED + (int)s : TS_MEASURED;
}

static void log_add(struct tui_panelset *ps, const char *text)
{
    char *s = dup(text);
    if (!s) return;
    if (ps->nlog < TUI_LOG_MAX) {
        ps->log[ps->nlog++] = s;
    } else {
        free(ps->log[ps->log_head]);
        ps->log[ps->log_head] = s;
        ps->log_head = (ps->log_head + 1) % TUI_LOG_MAX;
    }
}

static bool add_point(struct pmodel *m, const struct lt_event *ev)
{
    struct pseries *s = NULL;
    char *name = dup(ev->series);
    if (!name) return false;
    for (int i = 0; i < m->nseries; i++)
        if (!strcmp(m->series[i].name, name)) s = &m->series[i];
    if (!s) {
        if (m->nseries == MAX_ITEMS) {
            free(name);
            return false;
        }
        s = &m->series[m->nseries];
        memset(s, 0, sizeof *s);
        s->name = name;
        name = NULL;
        s->style = TS_SERIES0 + m->nseries % TS_NSERIES;
        m->nseries++;
    }
    free(name);
    if (s->n == MAX_POINTS) return false;
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
    s->role = ev->style >= LT_MEASURED && ev->style <= LT_REFERENCE ? ev->style : LT_MEASURED;
    s->n++;
    return true;
}

static bool add_row(struct pmodel *m, const struct lt_event *ev)
{
    if (m->nrows == MAX_ROWS) return false;
    struct prow *nr = realloc(m->rows, (size_t)(m->nrows + 1) * sizeof *nr);
    if (!nr) return false;
    m->rows = nr;
    int n = ev->ncells < 0 ? 0 : ev->ncells > LT_MAX_CELLS ? LT_MAX_CELLS : ev->ncells;
    struct prow *r = &m->rows[m->nrows];
    r->cells = calloc((size_t)(n ? n : 1), sizeof *r->cells);
    if (!r->cells) return false;
    r->n = n;
    for (int i = 0; i < n; i++) r->cells[i] = dup(ev->cells[i]);
    m->nrows++;
    return true;
}

static bool set_map(struct pmodel *m, const struct lt_event *ev)
{
    for (int i = 0; i < m->nmap; i++) free(m->map[i].owner), free(m->map[i].state);
    m->nmap = 0;
    m->map_total = ev->value;
    int n = ev->ncells < 0 ? 0 : ev->ncells > LT_MAX_CELLS ? LT_MAX_CELLS : ev->ncells;
    for (int i = 0; i < n && m->nmap < MAX_ITEMS; i++) {
        const char *c = ev->cells[i] ? ev->cells[i] : "";
        const char *b = strrchr(c, ':');
        const char *st = b ? b : c;
        while (st > c && st[-1] != ':') st--;
        struct pblock *k = &m->map[m->nmap];
        char *o = b && st > c ? strndup(c, (size_t)(st - 1 - c)) : strdup(b ? "" : c);
        char *t = b && st > c ? strndup(st, (size_t)(b - st)) : strndup(c, b ? (size_t)(b - c) : 0);
        k->owner = o ? dup(o) : NULL;
        k->state = t ? dup(t) : NULL;
        free(o), free(t);
        k->bytes = b ? atof(b + 1) : 0; /* stops at "@seg" */
        const char *at = b ? strchr(b + 1, '@') : NULL;
        long seg = at ? strtol(at + 1, NULL, 10) : 0;
        k->seg = seg > 0 && seg < 1000000 ? (int)seg : 0;
        if (!k->owner || !k->state) {
            free(k->owner), free(k->state);
            return false;
        }
        m->nmap++;
    }
    return true;
}

static bool apply(struct tui_panelset *ps, const struct lt_event *ev);

bool tui_panelset_apply(struct tui_panelset *ps, const struct lt_event *ev)
{
    g_fold = ps->ascii;
    bool r = apply(ps, ev);
    g_fold = false;
    return r;
}

static bool apply(struct tui_panelset *ps, const struct lt_event *ev)
{
    switch (ev->type) {
    case LT_EV_PRINT: log_add(ps, ev->text); return true;
    case LT_EV_STATUS: set_str(&ps->status, ev->text); return true;
    default: break;
    }
    struct pmodel *m = find(ps, ev->panel);
    if (!m && !(m = add(ps, ev->panel, kind_for(ev->type)))) return false;
    if (ev->style == LT_SIMULATED) m->simulated = true;
    if (ev->style == LT_MEASURED &&
        (ev->type == LT_EV_BAR || ev->type == LT_EV_POINT || ev->type == LT_EV_GAUGE))
        m->measured = true;
    switch (ev->type) {
    case LT_EV_POINT: return add_point(m, ev);
    case LT_EV_BAR: {
        char *label = dup(ev->series);
        if (!label) return false;
        struct pbar *b = NULL;
        for (int i = 0; i < m->nbars; i++)
            if (!strcmp(m->bars[i].label, label)) b = &m->bars[i];
        if (!b) {
            if (m->nbars == MAX_ITEMS || !(m->bars[m->nbars].unit = dup(""))) {
                free(label);
                return false;
            }
            b = &m->bars[m->nbars++];
            b->label = label;
        } else {
            free(label);
        }
        set_str(&b->unit, ev->unit && *ev->unit ? ev->unit : m->unit);
        b->value = ev->value, b->style = style_of(ev->style);
        b->peak = ev->max > 0 && isfinite(ev->max) ? ev->max : 0;
        return true;
    }
    case LT_EV_ROW: return add_row(m, ev);
    case LT_EV_GAUGE: {
        char *label = dup(ev->series);
        if (!label) return false;
        struct pgauge *g = NULL;
        for (int i = 0; i < m->ngauges; i++)
            if (!strcmp(m->gauges[i].label, label)) g = &m->gauges[i];
        if (!g) {
            if (m->ngauges == MAX_ITEMS || !(m->gauges[m->ngauges].unit = dup(""))) {
                free(label);
                return false;
            }
            g = &m->gauges[m->ngauges++];
            g->label = label;
        } else {
            free(label);
        }
        set_str(&g->unit, ev->unit && *ev->unit ? ev->unit : m->unit);
        g->value = ev->value, g->max = ev->max, g->style = style_of(ev->style);
        return true;
    }
    case LT_EV_NOTE: {
        char *t = dup(ev->text);
        if (!t) return false;
        for (int i = 0; i < m->nnotes; i++)
            if (!strcmp(m->notes[i], t)) {
                free(t);
                return false;
            }
        if (m->nnotes == MAX_ITEMS) {
            free(t);
            return false;
        }
        m->notes[m->nnotes++] = t;
        return true;
    }
    case LT_EV_MAP: return set_map(m, ev);
    case LT_EV_CLEAR: {
        bool declared = m->declared;
        model_clear(m);
        m->declared = declared;
        return true;
    }
    default: return false;
    }
}

const char *tui_panelset_status(const struct tui_panelset *ps)
{
    return ps->status ? ps->status : "";
}

int tui_panelset_nlog(const struct tui_panelset *ps) { return ps->nlog; }

const char *tui_panelset_log(const struct tui_panelset *ps, int i)
{
    if (i < 0 || i >= ps->nlog) return "";
    return ps->log[(ps->log_head + i) % TUI_LOG_MAX];
}

bool tui_panelset_has_data(const struct tui_panelset *ps)
{
    for (int i = 0; i < ps->n; i++) {
        const struct pmodel *m = &ps->p[i];
        if (m->nbars || m->nseries || m->nrows || m->ngauges || m->nmap || m->nnotes) return true;
    }
    return ps->nlog > 0;
}

/* ---- widgets ------------------------------------------------------------------------------ */

/* Every cell, column or row index a widget computes from event values goes through here: the
 * arithmetic stays in double and is clamped to [lo, hi] before it becomes an int, so no value an
 * event can carry (NaN, inf, 1e300, 2^31..2^63, negative) converts out of range. NaN gives lo. */
static int clamp_index(double v, int lo, int hi)
{
    if (!(v > lo)) return lo;
    if (v >= hi) return hi;
    return (int)lround(v);
}


struct ctx {
    struct tui_lines *L;
    int width;
    bool ascii;
    const char *lang;
    const struct tui_glyphs *g;
    const char *tag; /* the panel set's tag ("REPLAY") or NULL */
    double map_scale; /* the bytes every map of the set is drawn against */
    int rows;         /* the viewport's rows, when the screen said (0: no limit) */
};

static bool zh(const struct ctx *c) { return c->lang && !strcmp(c->lang, "zh"); }

static void header(const struct ctx *c, const struct pmodel *m)
{
    struct tui_lb b = {.L = c->L};
    char tagbuf[96];
    /* A panel mixing live host numbers with simulated device numbers says both. */
    const char *sim = !m->simulated ? ""
                      : m->measured ? (zh(c) && !c->ascii ? "SIMULATED 模拟 + 实测" : "SIMULATED + measured")
                      : (zh(c) && !c->ascii ? "SIMULATED 模拟" : "SIMULATED");
    const char *sep = c->tag && *sim ? (c->ascii ? " - " : " · ") : "";
    snprintf(tagbuf, sizeof tagbuf, "%s%s%s", c->tag ? c->tag : "", sep, sim);
    const char *tag = tagbuf;
    int tw = tui_width(tag, strlen(tag));
    int room = c->width - (tw ? tw + 3 : 0);
    if (room < 1) room = c->width, tw = 0;
    int titw = tui_width(m->title, strlen(m->title));
    tui_lb_fit(&b, m->title, titw < room ? titw : room, TUI_LEFT, c->ascii, TS_PANEL_HEAD);
    if (tw) {
        tui_lb_pad(&b, c->width - tw - 2, TS_PLAIN);
        /* each word in its own role: a replay of simulated data says both */
        int first = c->tag && *c->tag ? TS_REPLAYED : TS_SIMULATED;
        tui_lb_puts(&b, "[", first);
        if (c->tag) tui_lb_puts(&b, c->tag, TS_REPLAYED);
        tui_lb_puts(&b, sep, TS_DIM);
        tui_lb_puts(&b, sim, TS_SIMULATED);
        tui_lb_puts(&b, "]", *sim ? TS_SIMULATED : first);
    }
    tui_lb_end(&b, -1, TUI_LK_TEXT, 0);
    tui_lb_free(&b);
}

static void text_line(const struct ctx *c, const char *s, int style)
{
    struct tui_render_opts o = {c->width, c->lang, c->ascii, -1};
    tui_render_para(c->L, s, strlen(s), style, false, "", TS_PLAIN, &o);
}

static const char *style_tag(int style, bool ascii)
{
    switch (style) {
    case TS_SIMULATED: return "SIM";
    case TS_THEORETICAL: return "theory";
    case TS_REFERENCE: return "ref";
    default: return "";
    }
}

/* Every bar is solid: the colour and the word beside it (SIM, theory, ref) say its kind. */
static const char *fill_of(int style, bool ascii)
{
    (void)style;
    return ascii ? "#" : "█";
}

/* A run of `w` cells filled to `frac`, eighths for the last cell; the rest is `track` (a dim
 * glyph, or blanks when NULL). */
static void bar_run(struct tui_lb *b, double frac, int w, int style, bool ascii, const char *track)
{
    static const char *const eighths[] = {"", "▏", "▎", "▍", "▌", "▋", "▊", "▉"};
    if (!(frac >= 0)) frac = 0;
    if (frac > 1) frac = 1;
    int units = clamp_index(frac * w * 8, 0, w * 8);
    if (units == 0 && frac > 0) units = 1; /* a small value still shows */
    if (ascii) units = (units + 7) / 8 * 8;
    if (units > w * 8) units = w * 8;
    int full = units / 8, part = units % 8;
    tui_lb_repeat(b, fill_of(style, ascii), full, style);
    int used = full;
    if (part && used < w) {
        tui_lb_puts(b, eighths[part], style);
        used++;
    }
    if (track) tui_lb_repeat(b, track, w - used, TS_DIM);
    else tui_lb_repeat(b, " ", w - used, TS_PLAIN);
}

/* One precision per panel, so the decimal points line up: one decimal, two when the smallest
 * value shown is below 10 (none when every value is whole). */
static int panel_decimals(double minabs)
{
    return minabs >= 10 ? 1 : 2;
}

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

/* Bars: one scale for the panel - the lesson's `scale`, the largest value or the largest paired
 * peak - so a bar keeps its length while later results arrive; a peak paired with a bar
 * (`peak =`) is a "│" on that bar's row; values right-aligned, decimal points in one column. */
static void w_bars(const struct ctx *c, const struct pmodel *m)
{
    double max = m->scale > 0 ? m->scale : 0, minabs = INFINITY;
    int lw = 0, nw = 0, uw = 0, tagw = 0;
    char num[MAX_ITEMS][48], unit[MAX_ITEMS][48];
    bool peaks = false;
    for (int i = 0; i < m->nbars; i++) {
        const struct pbar *b = &m->bars[i];
        if (b->value > max) max = b->value;
        if (b->peak > max && isfinite(b->peak)) max = b->peak;
        peaks |= b->peak > 0 && isfinite(b->peak);
        if (isfinite(b->value) && fabs(b->value) > 0 && fabs(b->value) < minabs) minabs = fabs(b->value);
    }
    int dec = panel_decimals(minabs);
    bool whole = true; /* counts stay whole: 400 calls, not 400.00 */
    for (int i = 0; i < m->nbars; i++)
        whole &= isfinite(m->bars[i].value) && fabs(m->bars[i].value - round(m->bars[i].value)) < 1e-9;
    if (whole) dec = 0;
    for (int i = 0; i < m->nbars; i++) {
        const struct pbar *b = &m->bars[i];
        int l = tui_width(b->label, strlen(b->label));
        if (l > lw) lw = l;
        bar_value(b->value, b->unit, dec, num[i], sizeof num[i], unit[i], sizeof unit[i]);
        int v = tui_width(num[i], strlen(num[i])), u = tui_width(unit[i], strlen(unit[i]));
        if (v > nw) nw = v;
        if (u > uw) uw = u;
        int t = (int)strlen(style_tag(b->style, c->ascii));
        if (t > tagw) tagw = t;
    }
    int vw = nw + (uw ? uw + 1 : 0);
    if (lw > c->width / 3) lw = c->width / 3;
    int barw = c->width - lw - vw - 3 - (tagw ? tagw + 1 : 0);
    bool two = barw < 6; /* label on its own line, the bar under it */
    if (two) barw = c->width - vw - 1 - (tagw ? tagw + 1 : 0);
    struct tui_lb b = {.L = c->L};
    for (int i = 0; i < m->nbars; i++) {
        const struct pbar *p = &m->bars[i];
        if (two) {
            tui_lb_fit(&b, p->label, c->width, TUI_LEFT, c->ascii, TS_PLAIN);
            tui_lb_end(&b, -1, TUI_LK_TEXT, 0);
        } else {
            tui_lb_fit(&b, p->label, lw, TUI_LEFT, c->ascii, TS_PLAIN);
            tui_lb_puts(&b, " ", TS_PLAIN);
        }
        if (barw > 0 && !(p->peak > 0 && isfinite(p->peak) && max > 0)) {
            bar_run(&b, max > 0 ? p->value / max : 0, barw, p->style, c->ascii, NULL);
        } else if (barw > 0) {
            /* the bar, then copied cell by cell with the peak's cell a marker */
            int at = clamp_index(p->peak / max * barw - 0.5, 0, barw - 1);
            {
                struct tui_lb run = {.L = c->L};
                bar_run(&run, p->value / max, barw, p->style, c->ascii, NULL);
                /* copy cell by cell, the peak's cell replaced */
                int cell = 0;
                for (int k = 0; k < run.len && cell < barw;) {
                    int l = (run.s[k] & 0x80) ? ((run.s[k] & 0xe0) == 0xc0 ? 2 : (run.s[k] & 0xf0) == 0xe0 ? 3 : 4) : 1;
                    if (cell == at) tui_lb_puts(&b, c->ascii ? "|" : "│", TS_THEORETICAL);
                    else tui_lb_put(&b, run.s + k, (size_t)l, run.st[k]);
                    k += l, cell++;
                }
                tui_lb_free(&run);
            }
        }
        tui_lb_puts(&b, " ", TS_PLAIN);
        tui_lb_fit(&b, num[i], nw, TUI_RIGHT, c->ascii, p->style);
        if (uw) {
            tui_lb_puts(&b, " ", TS_PLAIN);
            tui_lb_fit(&b, unit[i], uw, TUI_LEFT, c->ascii, p->style);
        }
        if (tagw) {
            tui_lb_puts(&b, " ", TS_PLAIN);
            tui_lb_fit(&b, style_tag(p->style, c->ascii), tagw, TUI_LEFT, c->ascii, p->style);
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
    for (int i = 0; peaks && i < m->nbars; i++) {
        const struct pbar *p = &m->bars[i];
        if (!(p->peak > 0) || !isfinite(p->peak)) continue;
        char n[48], u[48], line[256];
        bar_value(p->peak, p->unit, dec, n, sizeof n, u, sizeof u);
        snprintf(line, sizeof line, zh(c) && !c->ascii ? "%s 理论峰值 %s %s（%s）" : "%s theoretical peak %s %s (%s)",
                 c->ascii ? "|" : "│", n, u, p->label);
        text_line(c, line, TS_DIM);
    }
}

/* The style of a gauge's fill by how full it is: its own colour up to 75 %, then the warning
 * colour, and the error colour from 90 %: a full cap looks alarming (the words say the role). */
static int gauge_fill_style(double frac, int style)
{
    if (frac >= 0.9) return TS_BAD;
    if (frac >= 0.75) return TS_WARN_LABEL;
    return style;
}

/* Gauges: one line each - label, a bracketed bar with a dim track, value / max unit and the
 * percentage - or the label on a line of its own when the panel is narrow. */
static void w_gauges(const struct ctx *c, const struct pmodel *m)
{
    struct tui_lb b = {.L = c->L};
    int lw = 0;
    for (int i = 0; i < m->ngauges; i++) {
        int l = tui_width(m->gauges[i].label, strlen(m->gauges[i].label));
        if (l > lw) lw = l;
    }
    for (int i = 0; i < m->ngauges; i++) {
        const struct pgauge *g = &m->gauges[i];
        char v[32], mx[32], txt[128];
        gpu_fmt_num(g->value, v, sizeof v);
        gpu_fmt_num(g->max, mx, sizeof mx);
        double frac = g->max > 0 ? g->value / g->max : 0;
        const char *tag = style_tag(g->style, c->ascii);
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
            bar_run(&b, frac, bw, gauge_fill_style(frac, g->style), c->ascii, c->ascii ? "." : "░");
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

static void w_table(const struct ctx *c, const struct pmodel *m)
{
    if (!m->nrows) return;
    int cols = 1;
    for (int r = 0; r < m->nrows; r++)
        if (m->rows[r].n > cols) cols = m->rows[r].n;
    const char **cells = calloc((size_t)m->nrows * (size_t)cols, sizeof *cells);
    if (!cells) {
        c->L->oom = true;
        return;
    }
    for (int r = 0; r < m->nrows; r++)
        for (int k = 0; k < cols; k++)
            cells[r * cols + k] = k < m->rows[r].n ? m->rows[r].cells[k] : "";
    struct tui_render_opts o = {c->width, c->lang, c->ascii, -1};
    tui_render_table(c->L, cells, m->nrows, cols, m->nrows > 1, &o);
    free(cells);
}

/* The memory map, drawn to scale: every map of a panel set shares one scale (the largest map,
 * or the lesson's `scale`), so 256 MiB reserved covers twice the cells of 128 MiB, and what lies
 * past a map's own total stays "·" (not reserved). The glyph says the state (█ allocated, ░
 * cached, · not reserved), a "│" where one segment meets the next; a run of alike blocks (same
 * state and size, one after the other) shares one colour and one legend line ("8 × 16.0 MiB"). */
enum map_state { MS_ALLOC, MS_CACHED, MS_FREE };

static enum map_state map_state_of(const char *st)
{
    if (!strcasecmp(st, "free")) return MS_FREE;
    if (!*st || !strcasecmp(st, "used") || !strcasecmp(st, "allocated") || !strcasecmp(st, "active"))
        return MS_ALLOC;
    return MS_CACHED;
}

static const char *map_glyph(enum map_state s, bool ascii)
{
    static const char *const u[] = {"█", "░", "·"}, *const a[] = {"#", ":", "."};
    return (ascii ? a : u)[s];
}

static double map_sum(const struct pmodel *m)
{
    double sum = 0;
    for (int i = 0; i < m->nmap; i++)
        sum += m->map[i].bytes > 0 && isfinite(m->map[i].bytes) ? m->map[i].bytes : 0;
    return sum;
}

/* What a map covers: its declared total, or its blocks; the larger, so no block is cut off. */
static double map_extent(const struct pmodel *m)
{
    double sum = map_sum(m), t = m->map_total > 0 && isfinite(m->map_total) ? m->map_total : 0;
    return t > sum ? t : sum;
}

static const char *map_word(const struct ctx *c, int which)
{
    static const char *const en[] = {"allocated", "cached", "not reserved", "segment", "total",
                                     "of"};
    static const char *const zhw[] = {"已分配", "缓存", "未预留", "段边界", "总计", "/ 全宽"};
    return (zh(c) && !c->ascii ? zhw : en)[which];
}

static void w_map(const struct ctx *c, const struct pmodel *m)
{
    double total = map_extent(m);
    if (!(total > 0)) return;
    double scale = c->map_scale > total && isfinite(c->map_scale) ? c->map_scale : total;
    int rows = c->width < 60 ? 3 : 2, len = c->width * rows;
    /* runs of alike neighbours: one colour, one legend line */
    int run[MAX_ITEMS], nrun = 0, runlen[MAX_ITEMS];
    for (int i = 0; i < m->nmap; i++) {
        const struct pblock *k = &m->map[i], *p = i ? &m->map[i - 1] : NULL;
        bool alike = p && map_state_of(p->state) == map_state_of(k->state) &&
                     fabs(p->bytes - k->bytes) < 0.5; /* whole bytes */
        if (!alike) runlen[nrun] = 0, nrun++;
        run[i] = nrun - 1;
        runlen[nrun - 1]++;
    }
    const char **cell = malloc((size_t)len * sizeof *cell);
    unsigned char *sty = malloc((size_t)len);
    if (!cell || !sty) {
        free(cell), free(sty);
        c->L->oom = true;
        return;
    }
    for (int x = 0; x < len; x++) cell[x] = map_glyph(MS_FREE, c->ascii), sty[x] = TS_DIM;
    bool used[3] = {false, false, false}, seams = false;
    int colour = 0, runcol[MAX_ITEMS];
    for (int r = 0; r < nrun; r++) runcol[r] = -1;
    double at = 0;
    for (int i = 0; i < m->nmap; i++) {
        const struct pblock *k = &m->map[i];
        if (!(k->bytes > 0) || !isfinite(k->bytes)) continue;
        int a = clamp_index(at / scale * len, 0, len);
        int e = clamp_index((at + k->bytes) / scale * len, 0, len);
        if (e == a && a < len) e = a + 1; /* every block visible */
        at += k->bytes;
        enum map_state ms = map_state_of(k->state);
        used[ms] = true;
        if (ms == MS_ALLOC && runcol[run[i]] < 0) runcol[run[i]] = colour++ % TS_NSERIES;
        int st = ms == MS_ALLOC ? TS_SERIES0 + runcol[run[i]] : ms == MS_CACHED ? TS_PLAIN : TS_DIM;
        for (int x = a; x < e; x++) cell[x] = map_glyph(ms, c->ascii), sty[x] = (unsigned char)st;
        /* a new segment starts here: a thin rule in its first cell, when the block has room */
        if (i && k->seg > 0 && m->map[i - 1].seg > 0 && k->seg != m->map[i - 1].seg && e - a >= 3) {
            cell[a] = c->ascii ? "|" : "│", sty[a] = TS_RULE;
            seams = true;
        }
    }
    for (int x = 0; x < len; x++) used[MS_FREE] |= cell[x] == map_glyph(MS_FREE, c->ascii);
    struct tui_lb b = {.L = c->L};
    for (int r = 0; r < rows; r++) {
        for (int x = 0; x < c->width; x++) tui_lb_puts(&b, cell[r * c->width + x], sty[r * c->width + x]);
        tui_lb_end(&b, -1, TUI_LK_TEXT, 0);
    }
    free(cell);
    free(sty);
    /* one legend line per run: glyph, owners, count x size */
    struct tui_render_opts o = {c->width, c->lang, c->ascii, -1};
    for (int i = 0, r = 0; i < m->nmap; i += runlen[r], r++) {
        const struct pblock *k = &m->map[i], *last = &m->map[i + runlen[r] - 1];
        enum map_state ms = map_state_of(k->state);
        char sz[32], line[320], first[8];
        gpu_fmt_bytes(k->bytes, GPU_FMT_BIN, sz, sizeof sz);
        const char *ell = c->ascii ? "..." : "…", *times = c->ascii ? "x" : "×";
        if (runlen[r] == 1)
            snprintf(line, sizeof line, "%s  %s", *k->owner ? k->owner : map_word(c, ms), sz);
        else if (strcmp(k->owner, last->owner))
            snprintf(line, sizeof line, "%s %s %s  %d %s %s", k->owner, ell, last->owner, runlen[r], times, sz);
        else
            snprintf(line, sizeof line, "%s  %d %s %s", k->owner, runlen[r], times, sz);
        snprintf(first, sizeof first, "%s ", map_glyph(ms, c->ascii));
        int st = ms == MS_ALLOC && runcol[r] >= 0 ? TS_SERIES0 + runcol[r] : ms == MS_CACHED ? TS_PLAIN : TS_DIM;
        tui_render_para(c->L, line, strlen(line), ms == MS_FREE ? TS_DIM : TS_PLAIN, false, first, st, &o);
    }
    /* the glyph key and the scale, on one line */
    char key[320], tot[32], sc[32];
    size_t n = 0;
    for (int g = 0; g < 3; g++)
        if (used[g]) n += (size_t)snprintf(key + n, sizeof key - n, "%s %s  ", map_glyph((enum map_state)g, c->ascii), map_word(c, g));
    if (seams && n < sizeof key) n += (size_t)snprintf(key + n, sizeof key - n, "%s %s  ", c->ascii ? "|" : "│", map_word(c, 3));
    gpu_fmt_bytes(total, GPU_FMT_BIN, tot, sizeof tot);
    gpu_fmt_bytes(scale, GPU_FMT_BIN, sc, sizeof sc);
    if (n < sizeof key) {
        if (scale > total) snprintf(key + n, sizeof key - n, "%s %s %s %s", map_word(c, 4), tot, map_word(c, 5), sc);
        else snprintf(key + n, sizeof key - n, "%s %s", map_word(c, 4), tot);
    }
    text_line(c, key, TS_DIM);
    tui_lb_free(&b);
}

/* ---- the curve ---------------------------------------------------------------------------- */

static bool bytes_axis(const char *label)
{
    return label && (strcasestr(label, "byte") || !strcmp(label, "B") || strstr(label, "字节"));
}

static double nice_ceil(double v)
{
    if (!(v > 0)) return 1;
    double p = pow(10, floor(log10(v))), f = v / p;
    double n = f <= 1 ? 1 : f <= 2 ? 2 : f <= 2.5 ? 2.5 : f <= 5 ? 5 : 10;
    return n * p;
}

struct plot {
    int pw, ph, dw, dh;
    double x0, x1, y0, ymax; /* y0: the bottom of a log y axis (0 on a linear one) */
    bool logx, logy;
    unsigned char *bits;
    unsigned char *own;
    unsigned char *mark; /* series + 1 where a data point's marker is drawn, else 0 */
};

/* Each series' marker: the curves are told apart without colour, and the legend shows it.
 * Filled shapes first (they read at one cell); the ASCII ones are also the line glyphs. */
static const char *const marker_utf8[TS_NSERIES] = {"●", "■", "▲", "◆", "✚", "✱"};
static const char marker_ascii[TS_NSERIES + 1] = "*o+x#@";

static const char *series_marker(int s, bool ascii)
{
    static char one[TS_NSERIES][2];
    s %= TS_NSERIES;
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
    return clamp_index(t * (p->dw - 1), 0, p->dw - 1);
}

static int row_of(const struct plot *p, double y)
{
    double t = p->logy ? (y > 0 ? (log10(y) - log10(p->y0)) / (log10(p->ymax) - log10(p->y0)) : 0)
               : p->ymax > 0 ? y / p->ymax : 0;
    return p->dh - 1 - clamp_index(t * (p->dh - 1), 0, p->dh - 1);
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

static void w_curve(const struct ctx *c, const struct pmodel *m)
{
    bool braille = !c->ascii;
    bool bytes = bytes_axis(m->x_label);
    struct plot p = {0};
    p.logx = m->logx;
    bool any = false, nonpos = false;
    double ymax = 0, ymin = INFINITY;
    for (int s = 0; s < m->nseries; s++)
        for (int i = 0; i < m->series[s].n; i++) {
            double x = m->series[s].x[i], y = m->series[s].y[i];
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
    char ytop[32], ymid[32], ybot[32];
    int yl;
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
        ymid[0] = 0;
    } else {
        p.ymax = nice_ceil(ymax);
        gpu_fmt_num(p.ymax, ytop, sizeof ytop);
        gpu_fmt_num(p.ymax / 2, ymid, sizeof ymid);
        snprintf(ybot, sizeof ybot, "0");
    }
    yl = (int)strlen(ytop);
    if ((int)strlen(ymid) > yl) yl = (int)strlen(ymid);
    if ((int)strlen(ybot) > yl) yl = (int)strlen(ybot);
    for (double e = log10(p.y0) + 1; p.logy && e < log10(p.ymax) - 0.5; e++) { /* y0, ymax clamped above */
        char t[32];
        decade_label(pow(10, e), t, sizeof t);
        if ((int)strlen(t) > yl) yl = (int)strlen(t);
    }
    p.pw = c->width - yl - 1;
    if (p.pw < 8) { /* too narrow for a plot: the points as text */
        for (int s = 0; s < m->nseries; s++)
            for (int i = 0; i < m->series[s].n; i++) {
                char xs[32], ys[32], line[96];
                if (bytes) gpu_fmt_bytes(m->series[s].x[i], GPU_FMT_TICK, xs, sizeof xs);
                else gpu_fmt_num(m->series[s].x[i], xs, sizeof xs);
                gpu_fmt_num(m->series[s].y[i], ys, sizeof ys);
                snprintf(line, sizeof line, "%s %s", xs, ys);
                text_line(c, line, m->series[s].style);
            }
        return;
    }
    p.ph = c->width / 5;
    if (p.ph < 5) p.ph = 5;
    if (p.ph > 10) p.ph = 10;
    /* the whole curve in the viewport: title, unit, axis, labels, legend and footer around it */
    if (c->rows > 0) {
        int room = c->rows - (6 + m->nseries);
        if (room < p.ph) p.ph = room < 3 ? 3 : room;
    }
    p.dw = braille ? p.pw * 2 : p.pw;
    p.dh = braille ? p.ph * 4 : p.ph;
    p.bits = calloc((size_t)(p.pw * p.ph), 1);
    p.own = calloc((size_t)(p.pw * p.ph), 1);
    p.mark = calloc((size_t)(p.pw * p.ph), 1);
    int *idx = NULL;
    if (!p.bits || !p.own || !p.mark) goto out;
    for (int s = 0; s < m->nseries; s++) {
        const struct pseries *se = &m->series[s];
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
        /* markers on the data points, at least 3 cells apart so the line between them shows
         * (in ASCII the line itself is drawn in the series' marker glyph) */
        int last = -100;
        for (int i = 0; braille && i < k; i++) {
            int cx = col_of(&p, se->x[idx[i]]) / 2, cy = row_of(&p, se->y[idx[i]]) / 4;
            if (cx - last < 3 && i + 1 < k) continue;
            p.mark[cy * p.pw + cx] = (unsigned char)(s + 1);
            last = cx;
        }
    }
    struct tui_lb b = {.L = c->L};
    if (*m->y_label) { /* the y unit at the top of its axis */
        int uw = tui_width(m->y_label, strlen(m->y_label));
        tui_lb_fit(&b, m->y_label, uw < c->width ? uw : c->width, TUI_LEFT, c->ascii, TS_DIM);
        tui_lb_end(&b, -1, TUI_LK_TEXT, 0);
    }
    int mid = (p.ph - 1) / 2;
    for (int r = 0; r < p.ph; r++) {
        const char *lab = r == 0 ? ytop : r == p.ph - 1 ? ybot : r == mid ? ymid : "";
        char dec[32];
        if (p.logy && r > 0 && r < p.ph - 1) { /* the decades in between, where they land */
            lab = "";
            for (double e = log10(p.y0) + 1; e < log10(p.ymax) - 0.5; e++)
                if (row_of(&p, pow(10, e)) / (braille ? 4 : 1) == r) {
                    decade_label(pow(10, e), dec, sizeof dec);
                    lab = dec;
                }
        }
        tui_lb_fit(&b, lab, yl, TUI_RIGHT, c->ascii, TS_DIM);
        tui_lb_puts(&b, c->g->v, TS_RULE);
        for (int x = 0; x < p.pw; x++) {
            unsigned char v = p.bits[r * p.pw + x], mk = p.mark[r * p.pw + x];
            int sty = TS_SERIES0 + p.own[r * p.pw + x] % TS_NSERIES;
            if (mk) {
                tui_lb_puts(&b, series_marker(mk - 1, false), TS_SERIES0 + (mk - 1) % TS_NSERIES);
            } else if (!v) {
                tui_lb_put(&b, " ", 1, TS_PLAIN);
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
    int nt = 0;
    if (p.logx && p.x1 > p.x0) {
        /* powers of 2 for bytes (1K, 32K, 1M: exponent steps of 1, 2, 5, 10), else of 10 */
        static const int steps2[] = {1, 2, 5, 10, 20, 40}, steps10[] = {1, 2, 3, 5, 10, 20};
        const int *steps = bytes ? steps2 : steps10;
        double base = bytes ? 2 : 10;
        double lo = ceil(log(p.x0) / log(base) - 1e-9), hi = floor(log(p.x1) / log(base) + 1e-9);
        int step = steps[5];
        for (int k = 0; k < 6; k++) {
            double first = ceil(lo / steps[k]) * steps[k];
            int count = first <= hi ? (int)((hi - first) / steps[k]) + 1 : 0;
            if (count * 6 <= p.pw) {
                step = steps[k];
                break;
            }
        }
        for (double e = ceil(lo / step) * step; e <= hi && nt < 64; e += step)
            ticks[nt++] = pow(base, e);
    } else {
        ticks[nt++] = p.x0;
        if (p.x1 > p.x0) {
            ticks[nt++] = (p.x0 + p.x1) / 2;
            ticks[nt++] = p.x1;
        }
    }
    int last_end = -1;
    for (int i = 0; i < nt; i++) {
        char t[32];
        if (bytes) gpu_fmt_bytes(ticks[i], GPU_FMT_TICK, t, sizeof t);
        else gpu_fmt_tick(ticks[i], t, sizeof t); /* 10K 100K 1M, not 10000 1e+07 */
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
    /* legend: each series with its last value (the largest x), so the numbers are readable
     * even where colours are not */
    int nw = 0;
    for (int s = 0; s < m->nseries; s++) {
        int w = tui_width(m->series[s].name, strlen(m->series[s].name));
        if (w > nw) nw = w;
    }
    if (nw > c->width / 2) nw = c->width / 2;
    for (int s = 0; s < m->nseries; s++) {
        const struct pseries *se = &m->series[s];
        const char *mark = series_marker(s, c->ascii);
        double lx = 0, ly = NAN;
        for (int i = 0; i < se->n; i++)
            if (!isnan(se->y[i]) && (isnan(ly) || se->x[i] >= lx)) lx = se->x[i], ly = se->y[i];
        char val[192], xs[32], ys[32];
        gpu_fmt_num(ly, ys, sizeof ys);
        if (bytes) gpu_fmt_bytes(lx, GPU_FMT_TICK, xs, sizeof xs);
        else gpu_fmt_tick(lx, xs, sizeof xs);
        const char *u = *m->unit ? m->unit : m->y_label;
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
    char ax[256];
    const char *yname = *m->y_label ? m->y_label : m->unit;
    const char *logw = zh(c) && !c->ascii ? "（对数）" : " (log)";
    snprintf(ax, sizeof ax, "x: %s%s   y: %s%s", *m->x_label ? m->x_label : "x",
             p.logx ? logw : "", *yname ? yname : "y", p.logy ? logw : "");
    text_line(c, ax, TS_DIM);
out:
    free(idx);
    free(p.bits);
    free(p.own);
    free(p.mark);
}

/* ---- the key figure ----------------------------------------------------------------------- */

static const struct pmodel *key_panel(const struct tui_panelset *ps)
{
    for (int i = 0; i < ps->n; i++)
        if (ps->p[i].key) return &ps->p[i];
    return NULL;
}

static bool keyfig_of(const struct pmodel *m, struct tui_keyfig *k)
{
    memset(k, 0, sizeof *k);
    if (!m) return false;
    if (!strcmp(m->kind, "curve")) {
        const struct pseries *best = NULL;
        int bi = 0;
        for (int i = 0; i < m->nseries; i++)
            for (int j = 0; j < m->series[i].n; j++)
                if (isfinite(m->series[i].y[j]) && (!best || m->series[i].y[j] > best->y[bi]))
                    best = &m->series[i], bi = j;
        if (!best) return false;
        *k = (struct tui_keyfig){best->name, m->y_label, best->y[bi], 0, best->x[bi], best->role,
                                 true, false, bytes_axis(m->x_label)};
        return true;
    }
    if (!strcmp(m->kind, "gauge") && m->ngauges) {
        const struct pgauge *g = &m->gauges[0];
        *k = (struct tui_keyfig){g->label, g->unit, g->value, g->max, 0,
                                 (enum lt_style)(g->style - TS_MEASURED), false, true, false};
        return true;
    }
    if (m->nbars) {
        const struct pbar *b = &m->bars[0];
        *k = (struct tui_keyfig){b->label, b->unit, b->value, 0, 0,
                                 (enum lt_style)(b->style - TS_MEASURED), false, false, false};
        return true;
    }
    return false;
}

bool tui_panelset_key(const struct tui_panelset *ps, struct tui_keyfig *out)
{
    return keyfig_of(key_panel(ps), out);
}

/* The headline row: the key figure first and loudest - its words bold, its number in the
 * colour of how it was obtained, with its unit and, for a peak, where it was reached. */
static void headline(const struct ctx *c, const struct pmodel *m)
{
    struct tui_keyfig k;
    if (!keyfig_of(m, &k)) return;
    char v[48], mx[48], at[48] = "", line[160];
    if (!strcmp(k.unit, "x") && isfinite(k.value) && fabs(k.value) < 1e6) /* a ratio: 2.0×, 13.6× */
        snprintf(v, sizeof v, "%.*f%s", fabs(k.value) < 100 ? 1 : 0, k.value, c->ascii ? "x" : "×");
    else gpu_fmt_qty(k.value, k.unit, v, sizeof v);
    if (k.gauge && k.max > 0 && isfinite(k.max)) {
        gpu_fmt_qty(k.max, k.unit, mx, sizeof mx);
        double pct = k.value / k.max * 100;
        snprintf(line, sizeof line, "%s / %s  %.0f%%", v, mx, fabs(pct) < 1e6 ? pct : 0);
    } else {
        snprintf(line, sizeof line, "%s", v);
    }
    if (k.curve) {
        char x[32];
        if (k.bytes_x) gpu_fmt_bytes(k.x, GPU_FMT_TICK, x, sizeof x);
        else gpu_fmt_num(k.x, x, sizeof x);
        snprintf(at, sizeof at, " @ %s", x);
    }
    const char *tag = style_tag(TS_MEASURED + (int)k.style, c->ascii);
    const char *peak = !k.curve ? "" : zh(c) && !c->ascii ? "峰值 " : "peak ";
    struct tui_lb b = {.L = c->L};
    const char *mark = c->ascii ? "> " : "▶ ";
    tui_lb_puts(&b, mark, TS_EM);
    int need = tui_width(line, strlen(line)) + tui_width(at, strlen(at)) + (*tag ? (int)strlen(tag) + 1 : 0) + 2;
    int room = c->width - 2 - need;
    char lab[192];
    snprintf(lab, sizeof lab, "%s%s", peak, k.label);
    int lw = tui_width(lab, strlen(lab));
    if (room >= 4) {
        tui_lb_fit(&b, lab, lw < room ? lw : room, TUI_LEFT, c->ascii, TS_EM);
        tui_lb_puts(&b, "  ", TS_PLAIN);
    }
    tui_lb_puts(&b, line, TS_MEASURED + (int)k.style);
    if (*at) tui_lb_puts(&b, at, TS_DIM);
    if (*tag) {
        tui_lb_puts(&b, " ", TS_PLAIN);
        tui_lb_puts(&b, tag, TS_MEASURED + (int)k.style);
    }
    if (b.width > c->width) { /* a very narrow panel: the number, cut to the width */
        b.len = b.width = 0;
        tui_lb_fit(&b, line, c->width, TUI_LEFT, c->ascii, TS_MEASURED + (int)k.style);
    }
    tui_lb_end(&b, -1, TUI_LK_TEXT, 0);
    tui_lb_free(&b);
}

void tui_panelset_render(const struct tui_panelset *ps, struct tui_lines *L, int width, bool ascii,
                         const char *lang)
{
    struct ctx c = {L, width < 1 ? 1 : width, ascii, lang, tui_glyphs(ascii), ps->tag, 0, ps->rows};
    /* one scale for every map: the lesson's, or the largest map */
    for (int i = 0; i < ps->n; i++) {
        const struct pmodel *m = &ps->p[i];
        double e = m->nmap ? map_extent(m) : 0;
        if (m->scale > 0 && (!strcmp(m->kind, "map") || m->nmap) && m->scale > e) e = m->scale;
        if (e > c.map_scale) c.map_scale = e;
    }
    const struct pmodel *kp = key_panel(ps);
    bool first = true;
    for (int j = -1; j < ps->n; j++) {
        /* the key panel first, then the rest in their declared order */
        const struct pmodel *m = j < 0 ? kp : &ps->p[j];
        if (!m || (j >= 0 && m == kp)) continue;
        if (!first) {
            struct tui_lb b = {.L = L};
            tui_lb_end(&b, -1, TUI_LK_TEXT, 0);
        }
        first = false;
        header(&c, m);
        if (m == kp) headline(&c, m);
        bool empty = !(m->nbars || m->nseries || m->nrows || m->ngauges || m->nmap);
        bool curve = !strcmp(m->kind, "curve"), table = !strcmp(m->kind, "table"),
             gauge = !strcmp(m->kind, "gauge"), map = !strcmp(m->kind, "map");
        /* a panel that has only notes shows them, not a placeholder above them */
        if (empty && !m->nnotes) text_line(&c, zh(&c) && !ascii ? "（尚无数据）" : "(no data yet)", TS_DIM);
        /* the panel's own kind first; data of another shape still shows, under it */
        if (curve) w_curve(&c, m);
        if (table) w_table(&c, m);
        if (gauge) w_gauges(&c, m);
        if (map) w_map(&c, m);
        /* a key panel of one bar: the headline is that bar */
        if (m->nbars && !(m == kp && m->nbars == 1 && !m->nnotes && !strcmp(m->kind, "bars")))
            w_bars(&c, m);
        if (!gauge && m->ngauges) w_gauges(&c, m);
        if (!curve && m->nseries) w_curve(&c, m);
        if (!table && m->nrows) w_table(&c, m);
        if (!map && m->nmap) w_map(&c, m);
        for (int k = 0; k < m->nnotes; k++) {
            struct tui_render_opts o = {c.width, lang, ascii, -1};
            /* information, not alarm: a dim marker; warnings and errors have their own roles */
            tui_render_para(L, m->notes[k], strlen(m->notes[k]), TS_PLAIN, false, "i ", TS_NOTE,
                            &o);
        }
    }
}
