/* tui_panel.c - the live panel set (see tui_panel.h): the panels an experiment declared, in
 * order, each with what every panel has (title, labels, notes, the SIMULATED tag) and one
 * widget state per kind of data it got (tui_widget.h: tui_w_bars.c, tui_w_curve.c, ...). Models
 * only store what the events said; every widget is recomputed from them for the width at hand,
 * so a resize or a language switch never needs the experiment to run again. */
#include "tui_panel.h"
#include "tui_widget.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "gpu_fmt.h"
#include "tui_wrap.h"

#define MAX_PANELS 32

struct pmodel {
    char *id, *kind, *title, *x_label, *y_label, *unit;
    bool logx, simulated, measured, declared; /* measured: a live value shares the panel */
    bool key;     /* the experiment's key figure lives here */
    double scale; /* declared: a bar's full length, a map's bytes (0: from the data) */
    void *w[LT_PANEL_COUNT]; /* each widget's state, made on the first event of its kind */
    char *notes[TUI_W_MAX_ITEMS];
    int nnotes;
};

struct tui_panelset {
    bool ascii;
    bool zh;  /* the language events are kept in (tui_panelset_set_lang) */
    int rows; /* the viewport's height: a curve fits it */
    struct tui_panel_view view;
    char *tag;
    struct pmodel *p; /* grown as panels appear */
    int n, cap;
    char *status;
    char *log[TUI_LOG_MAX];
    int nlog, log_head;
};

static const struct tui_widget *const widgets[LT_PANEL_COUNT] = {
#define X_WIDGET(e, name) &tui_widget_##name,
    LT_PANEL_LIST(X_WIDGET)
#undef X_WIDGET
};

const struct tui_widget *tui_widget_of(enum lt_panel_kind k)
{
    return (unsigned)k < LT_PANEL_COUNT ? widgets[k] : NULL;
}

/* ---- helpers the widgets share ------------------------------------------------------------- */

char *tui_w_dup(const struct tui_wenv *e, const char *s)
{
    if (!s) s = "";
    return e->fold ? tui_ascii_fold(s, strlen(s), NULL, NULL) : strdup(s);
}

char *tui_w_text(const struct tui_wenv *e, struct lt_text t) { return tui_w_dup(e, lt_tx(t, e->zh)); }

struct tui_w_item *tui_w_items_apply(struct tui_w_items *s, const struct lt_event *ev,
                                     const struct tui_wenv *e)
{
    char *label = tui_w_text(e, ev->series);
    if (!label) return NULL;
    struct tui_w_item *it = NULL;
    for (int i = 0; i < s->n; i++)
        if (!strcmp(s->v[i].label, label)) it = &s->v[i];
    if (!it) {
        if (s->n == TUI_W_MAX_ITEMS) {
            free(label);
            return NULL;
        }
        it = &s->v[s->n++];
        memset(it, 0, sizeof *it);
        it->label = label;
    } else {
        free(label);
    }
    const char *u = lt_tx(ev->unit, e->zh);
    char *unit = tui_w_dup(e, *u ? u : e->panel_unit);
    if (unit) free(it->unit), it->unit = unit;
    if (!it->unit) { /* a new item without its unit: gone again rather than half made */
        free(it->label);
        s->n--;
        return NULL;
    }
    it->value = ev->value, it->max = ev->max, it->style = tui_w_style(ev->style);
    return it;
}

void tui_w_items_free(struct tui_w_items *s)
{
    if (!s) return;
    for (int i = 0; i < s->n; i++) free(s->v[i].label), free(s->v[i].unit);
    free(s);
}

const struct tui_w_item *tui_w_items_key(const struct tui_w_items *s)
{
    for (int i = 0; i < s->n; i++)
        if (s->v[i].style == TS_MEASURED || s->v[i].style == TS_SIMULATED) return &s->v[i];
    return s->n ? &s->v[0] : NULL;
}

int tui_w_clamp(double v, int lo, int hi)
{
    if (!(v > lo)) return lo;
    if (v >= hi) return hi;
    return (int)lround(v);
}

bool tui_w_zh(const struct tui_wctx *c) { return c->lang && !strcmp(c->lang, "zh"); }

void tui_w_line(const struct tui_wctx *c, const char *s, int style)
{
    struct tui_render_opts o = {c->width, c->lang, c->ascii, -1};
    tui_render_para(c->L, s, strlen(s), style, false, "", TS_PLAIN, &o);
}

int tui_w_style(enum lt_style s)
{
    return (unsigned)s < LT_STYLE_COUNT ? TS_MEASURED + (int)s : TS_MEASURED;
}

const char *tui_w_style_tag(int style, bool ascii)
{
    switch (style) {
    case TS_SIMULATED: return "SIM";
    case TS_THEORETICAL: return "theory";
    case TS_REFERENCE: return "ref";
    default: return "";
    }
}

bool tui_w_bytes_axis(const char *label)
{
    return label && (strcasestr(label, "byte") || !strcmp(label, "B") || strstr(label, "字节"));
}

/* A run of `w` cells filled to `frac`, eighths for the last cell; the rest is `track` (a dim
 * glyph, or blanks when NULL). */
void tui_w_bar_run(struct tui_lb *b, double frac, int w, int style, bool ascii, const char *track)
{
    static const char *const eighths[] = {"", "▏", "▎", "▍", "▌", "▋", "▊", "▉"};
    if (!(frac >= 0)) frac = 0;
    if (frac > 1) frac = 1;
    int units = tui_w_clamp(frac * w * 8, 0, w * 8);
    if (units == 0 && frac > 0) units = 1; /* a small value still shows */
    if (ascii) units = (units + 7) / 8 * 8;
    if (units > w * 8) units = w * 8;
    int full = units / 8, part = units % 8;
    tui_lb_repeat(b, ascii ? "#" : "█", full, style);
    int used = full;
    if (part && used < w) {
        tui_lb_puts(b, eighths[part], style);
        used++;
    }
    if (track) tui_lb_repeat(b, track, w - used, TS_DIM);
    else tui_lb_repeat(b, " ", w - used, TS_PLAIN);
}


/* ---- the set -------------------------------------------------------------------------------- */

static struct tui_wenv env_of(const struct tui_panelset *ps, const struct pmodel *m)
{
    return (struct tui_wenv){ps->zh, ps->ascii, m ? m->unit : ""};
}

static char *dup_in(const struct tui_panelset *ps, const char *s)
{
    struct tui_wenv e = env_of(ps, NULL);
    return tui_w_dup(&e, s);
}

static void set_str(const struct tui_panelset *ps, char **dst, const char *s)
{
    char *n = dup_in(ps, s);
    if (!n) return; /* keep the old text rather than lose the panel */
    free(*dst);
    *dst = n;
}

static void model_clear(struct pmodel *m)
{
    for (int k = 0; k < LT_PANEL_COUNT; k++) {
        if (m->w[k]) widgets[k]->free(m->w[k]);
        m->w[k] = NULL;
    }
    for (int i = 0; i < m->nnotes; i++) free(m->notes[i]);
    m->nnotes = 0;
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

void tui_panelset_set_view(struct tui_panelset *ps, const struct tui_panel_view *v) { ps->view = *v; }

void tui_panelset_set_lang(struct tui_panelset *ps, const char *lang)
{
    ps->zh = lang && !strcmp(lang, "zh");
}

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
    char *f = dup_in(ps, id); /* ids are stored as dup_in() made them */
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
    m->id = dup_in(ps, id), m->kind = dup_in(ps, kind), m->title = dup_in(ps, id);
    m->x_label = dup_in(ps, ""), m->y_label = dup_in(ps, ""), m->unit = dup_in(ps, "");
    if (!m->id || !m->kind || !m->title || !m->x_label || !m->y_label || !m->unit) {
        model_free(m);
        return NULL;
    }
    ps->n++;
    return m;
}

void tui_panelset_declare(struct tui_panelset *ps, const struct lt_panel *p, int n)
{
    for (int i = 0; i < n; i++) {
        struct pmodel *m = find(ps, p[i].id);
        if (!m && !(m = add(ps, p[i].id, p[i].kind))) return;
        m->declared = true;
        set_str(ps, &m->kind, p[i].kind);
        set_str(ps, &m->title, p[i].title && *p[i].title ? p[i].title : p[i].id);
        set_str(ps, &m->x_label, p[i].x_label);
        set_str(ps, &m->y_label, p[i].y_label);
        set_str(ps, &m->unit, p[i].unit);
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

static void log_add(struct tui_panelset *ps, const char *text)
{
    char *s = dup_in(ps, text);
    if (!s) return;
    if (ps->nlog < TUI_LOG_MAX) {
        ps->log[ps->nlog++] = s;
    } else {
        free(ps->log[ps->log_head]);
        ps->log[ps->log_head] = s;
        ps->log_head = (ps->log_head + 1) % TUI_LOG_MAX;
    }
}

static bool add_note(struct tui_panelset *ps, struct pmodel *m, const struct lt_event *ev)
{
    char *t = dup_in(ps, lt_tx(ev->text, ps->zh));
    if (!t) return false;
    for (int i = 0; i < m->nnotes; i++)
        if (!strcmp(m->notes[i], t)) {
            free(t);
            return false;
        }
    if (m->nnotes == TUI_W_MAX_ITEMS) {
        free(t);
        return false;
    }
    m->notes[m->nnotes++] = t;
    return true;
}

bool tui_panelset_apply(struct tui_panelset *ps, const struct lt_event *ev)
{
    switch (ev->type) {
    case LT_EV_PRINT: log_add(ps, lt_tx(ev->text, ps->zh)); return true;
    case LT_EV_STATUS: set_str(ps, &ps->status, lt_tx(ev->text, ps->zh)); return true;
    default: break;
    }
    enum lt_panel_kind k = lt_event_panel_kind(ev->type);
    struct pmodel *m = find(ps, ev->panel);
    /* an event for a panel nobody declared makes one of the kind it feeds */
    if (!m && !(m = add(ps, ev->panel, lt_panel_name(k < 0 ? LT_PANEL_BARS : k)))) return false;
    if (ev->type == LT_EV_NOTE) return add_note(ps, m, ev);
    if (ev->type == LT_EV_CLEAR) {
        bool declared = m->declared;
        model_clear(m);
        m->declared = declared;
        return true;
    }
    if ((unsigned)k >= LT_PANEL_COUNT) return false;
    if (!m->w[k] && !(m->w[k] = widgets[k]->make())) return false;
    if (ev->style == LT_SIMULATED) m->simulated = true;
    if (ev->style == LT_MEASURED && (lt_event_fields(ev->type) & LT_F_STYLE)) m->measured = true;
    struct tui_wenv e = env_of(ps, m);
    return widgets[k]->apply(m->w[k], ev, &e);
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

static bool model_has_data(const struct pmodel *m)
{
    for (int k = 0; k < LT_PANEL_COUNT; k++)
        if (m->w[k] && widgets[k]->has_data(m->w[k])) return true;
    return false;
}

bool tui_panelset_has_data(const struct tui_panelset *ps)
{
    for (int i = 0; i < ps->n; i++)
        if (model_has_data(&ps->p[i]) || ps->p[i].nnotes) return true;
    return ps->nlog > 0;
}

/* ---- drawing -------------------------------------------------------------------------------- */

static struct tui_pinfo info_of(const struct pmodel *m, bool headline)
{
    return (struct tui_pinfo){m->id, m->kind, m->title, m->x_label, m->y_label, m->unit,
                              m->logx, m->scale, headline};
}

static void header(const struct tui_wctx *c, const struct pmodel *m)
{
    struct tui_lb b = {.L = c->L};
    char tagbuf[96];
    /* A panel mixing live host numbers with simulated device numbers says both. */
    const char *sim = !m->simulated ? ""
                      : m->measured ? (tui_w_zh(c) && !c->ascii ? "SIMULATED 模拟 + 实测" : "SIMULATED + measured")
                      : (tui_w_zh(c) && !c->ascii ? "SIMULATED 模拟" : "SIMULATED");
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

/* ---- the key figure ----------------------------------------------------------------------- */

static const struct pmodel *key_panel(const struct tui_panelset *ps)
{
    for (int i = 0; i < ps->n; i++)
        if (ps->p[i].key) return &ps->p[i];
    return NULL;
}

/* The key figure: the panel's own kind gives it (a curve its peak, a gauge its first gauge),
 * else the first of its other kinds that has one (a bars panel its first bar). */
static bool keyfig_of(const struct pmodel *m, struct tui_keyfig *k)
{
    memset(k, 0, sizeof *k);
    if (!m) return false;
    struct tui_pinfo p = info_of(m, false);
    int own = lt_panel_parse(m->kind);
    for (int j = -1; j < LT_PANEL_COUNT; j++) {
        int i = j < 0 ? own : j;
        if (i < 0 || (j >= 0 && i == own) || !m->w[i] || !widgets[i]->key) continue;
        if (widgets[i]->key(m->w[i], &p, k)) return true;
    }
    return false;
}

bool tui_panelset_key(const struct tui_panelset *ps, struct tui_keyfig *out)
{
    return keyfig_of(key_panel(ps), out);
}

/* The headline row: the key figure first and loudest - its words bold, its number in the
 * colour of how it was obtained, with its unit and, for a peak, where it was reached. */
static void headline(const struct tui_wctx *c, const struct pmodel *m)
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
    const char *tag = tui_w_style_tag(TS_MEASURED + (int)k.style, c->ascii);
    const char *peak = !k.curve ? "" : tui_w_zh(c) && !c->ascii ? "峰值 " : "peak ";
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

/* What a panel shows under its header: the key figure's headline, its widgets, its notes. */
static void panel_body(const struct tui_wctx *c, const struct pmodel *m, const struct pmodel *kp)
{
    if (m == kp) headline(c, m);
    /* a panel that has only notes shows them, not a placeholder above them */
    if (!model_has_data(m) && !m->nnotes)
        tui_w_line(c, tui_w_zh(c) && !c->ascii ? "（尚无数据）" : "(no data yet)", TS_DIM);
    /* the panel's own kind first; data of another shape still shows, under it */
    int own = lt_panel_parse(m->kind);
    struct tui_pinfo p = info_of(m, m == kp && !m->nnotes && own == LT_PANEL_BARS);
    for (int i = -1; i < LT_PANEL_COUNT; i++) {
        int k = i < 0 ? own : i;
        if (k < 0 || (i >= 0 && k == own) || !m->w[k] || !widgets[k]->has_data(m->w[k])) continue;
        widgets[k]->draw(m->w[k], c, &p);
    }
    for (int k = 0; k < m->nnotes; k++) {
        struct tui_render_opts o = {c->width, c->lang, c->ascii, -1};
        /* information, not alarm: a dim marker; warnings and errors have their own roles */
        tui_render_para(c->L, m->notes[k], strlen(m->notes[k]), TS_PLAIN, false, "i ", TS_NOTE, &o);
    }
}

/* A styled line copied into a builder, run by run. */
static void put_line(struct tui_lb *b, const struct tui_line *l)
{
    for (int i = 0; i < l->len;) {
        int j = i;
        while (j < l->len && l->st[j] == l->st[i]) j++;
        tui_lb_put(b, l->s + i, (size_t)(j - i), l->st[i]);
        i = j;
    }
}

/* A framed panel: its title in the top edge (and its tag on the right: REPLAY, "+ measured"),
 * what it shows inside, with a blank column each side. */
static void framed(const struct tui_wctx *c, const struct pmodel *m, const struct pmodel *kp)
{
    const struct tui_glyphs *g = c->g;
    int w = c->width;
    struct tui_lines in = {0};
    struct tui_wctx ci = *c;
    ci.L = &in, ci.width = w - 4, ci.framed = true; /* "│ " and " │" */
    panel_body(&ci, m, kp);
    if (in.oom) c->L->oom = true;
    bool zh = tui_w_zh(c) && !c->ascii;
    const char *mixed = m->simulated && m->measured ? (zh ? "+ 实测" : "+ measured") : "";
    char tag[96];
    snprintf(tag, sizeof tag, "%s%s%s", c->tag ? c->tag : "", c->tag && *mixed ? " " : "", mixed);
    int tw = tui_width(tag, strlen(tag));
    /* ┌ title ──── tag ┐: the title gets what the corners, its blanks and the tag leave */
    int room = w - 4 - (tw ? tw + 3 : 0);
    if (room < 1) room = w - 4, tw = 0;
    struct tui_lb b = {.L = c->L};
    tui_lb_puts(&b, g->tl, TS_RULE);
    if (room >= 1) {
        int titw = tui_width(m->title, strlen(m->title));
        tui_lb_puts(&b, " ", TS_RULE);
        tui_lb_fit(&b, m->title, titw < room ? titw : room, TUI_LEFT, c->ascii, TS_PANEL_HEAD);
        tui_lb_puts(&b, " ", TS_RULE);
    }
    while (b.width < w - 1 - (tw ? tw + 3 : 0)) tui_lb_puts(&b, g->h, TS_RULE);
    if (tw) {
        tui_lb_puts(&b, " ", TS_RULE);
        if (c->tag) tui_lb_puts(&b, c->tag, TS_REPLAYED);
        if (c->tag && *mixed) tui_lb_puts(&b, " ", TS_PLAIN);
        tui_lb_puts(&b, mixed, TS_MEASURED);
        tui_lb_puts(&b, " ", TS_RULE);
        tui_lb_puts(&b, g->h, TS_RULE);
    }
    tui_lb_puts(&b, g->tr, TS_RULE);
    tui_lb_end(&b, -1, TUI_LK_TEXT, 0);
    for (int i = 0; i < in.n; i++) {
        tui_lb_puts(&b, g->v, TS_RULE);
        tui_lb_puts(&b, " ", TS_PLAIN);
        put_line(&b, &in.v[i]);
        tui_lb_pad(&b, w - 1, TS_PLAIN);
        tui_lb_puts(&b, g->v, TS_RULE);
        tui_lb_end(&b, -1, TUI_LK_TEXT, 0);
    }
    tui_lb_puts(&b, g->bl, TS_RULE);
    tui_lb_repeat(&b, g->h, w - 2, TS_RULE);
    tui_lb_puts(&b, g->br, TS_RULE);
    tui_lb_end(&b, -1, TUI_LK_TEXT, 0);
    tui_lb_free(&b);
    tui_lines_free(&in);
}

void tui_panelset_render(const struct tui_panelset *ps, struct tui_lines *L, int width, bool ascii,
                         const char *lang)
{
    struct tui_wctx c = {L, width < 1 ? 1 : width, ascii, lang, tui_glyphs(ascii), ps->tag, 0, ps->rows,
                         ps->view.whole_key, ps->view.whole, false};
    /* one scale for every map: the lesson's, or the largest map */
    for (int i = 0; i < ps->n; i++) {
        const struct pmodel *m = &ps->p[i];
        for (int k = 0; k < LT_PANEL_COUNT; k++) {
            if (!widgets[k]->extent) continue;
            double e = m->w[k] ? widgets[k]->extent(m->w[k]) : 0;
            if (m->scale > 0 && (lt_panel_parse(m->kind) == k || e > 0) && m->scale > e) e = m->scale;
            if (e > c.map_scale) c.map_scale = e;
        }
    }
    const struct pmodel *kp = key_panel(ps);
    bool first = true, frame = ps->view.framed && c.width >= 12;
    for (int j = -1; j < ps->n; j++) {
        /* the key panel first, then the rest in their declared order */
        const struct pmodel *m = j < 0 ? kp : &ps->p[j];
        if (!m || (j >= 0 && m == kp)) continue;
        if (!first && !frame) {
            struct tui_lb b = {.L = L};
            tui_lb_end(&b, -1, TUI_LK_TEXT, 0);
        }
        first = false;
        if (frame) {
            framed(&c, m, kp);
        } else {
            header(&c, m);
            panel_body(&c, m, kp);
        }
    }
}
