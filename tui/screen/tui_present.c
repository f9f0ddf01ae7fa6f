/* tui_present.c - `vramlab present [LESSON]`: a lesson for a projector. One step on screen at a
 * time (a title slide, then each text, experiment and exercise block), large-type key figures,
 * nothing else: no menu, no panes, a dim line on top and at the bottom. An experiment runs when
 * its step is reached and Enter is pressed (live, or from --replay); its key figure - the one
 * the experiment names (`key =`), else the last measured or simulated bar or gauge - is drawn in
 * a block font with its unit and how it was obtained, as large as the screen allows (1.3's
 * ratio: 10 rows at 80x24, 30 at 200x50). The layout scales with the terminal: a 76-column strip up to
 * 84 columns, the width less a margin of a twentieth a side beyond. Made to be read from the
 * back of a room, and not to lose a run to a key: Space holds a running experiment and goes on
 * with it (lt_lesson_run_hold), a key that would leave a running step asks first, Enter on a
 * step with results asks before running it anew, and a step left and come back to shows its
 * results as they were. Its keys are the tables at the end (? lists them); it runs in the
 * shared event loop. */
#include <curses.h>
#include <locale.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gpu_fmt.h"
#include "tui.h"
#include "tui_bigfont.h"
#include "tui_help.h"
#include "tui_loop.h"
#include "tui_panel.h"
#include "tui_record.h"
#include "tui_run.h"
#include "tui_render.h"
#include "tui_scroll.h"
#include "tui_term.h"
#include "tui_wrap.h"

struct figure {
    bool have;
    double value;
    char label[128], unit[32];
    enum lt_style style;
};

/* A step's run kept when the step is left: shown again as it was when the step comes back. */
struct kept {
    struct tui_evlog *log; /* NULL: nothing kept */
    enum lt_run_state state;
    char err[1024];
};

struct present {
    struct lt_runtime *rt;
    const struct tui_opts *opts;
    struct lt_catalog_entry *cat;
    int ncat, ci;
    struct lt_lesson *ls;
    char err[1024];
    int step, nsteps; /* step 0: the title slide; step k: block k-1 */
    struct tui_scroll sc; /* the key tables' scroll target (a step is paged, never scrolled) */
    struct tui_help help;
    struct tui_panelset *ps;
    struct tui_evlog *log; /* ps's run, kept: L shows it in the other language */
    int ps_block;     /* the experiment ps belongs to (-1: none) */
    enum lt_run_state state;
    bool running, replaying;
    bool held;          /* Space holds the run: not stepped until Space again */
    double held_at;     /* when a replay was held: its clock moves on by the time held */
    bool leave_armed;   /* a key that leaves a running step asked; the same key again leaves */
    bool rerun_armed;   /* Enter on a step with results asked; Enter again runs it anew */
    int last_key;       /* the key before this one (leave_armed holds for the same key) */
    struct kept *kept;  /* per block of the lesson */
    int nkept;
    struct tui_player player;
    char run_err[1024];
    struct figure fig;
    bool reveal;      /* a question step shows its answer */
    int page, npages; /* a step longer than the screen is shown a page (a slide) at a time */
    char backend[256];
    char notice[256];
    bool ascii, quit, dirty;
};

static bool zh(const struct present *p) { return !strcmp(lt_runtime_lang(p->rt), "zh"); }
#define TR(p, en, zh_) (zh(p) ? (zh_) : (en))

static int block_of(const struct present *p) { return p->step - 1; }

static bool is_exp(const struct present *p, int b)
{
    return p->ls && b >= 0 && b < lt_lesson_nblocks(p->ls) &&
           lt_lesson_block_kind(p->ls, b) == LT_BLOCK_EXPERIMENT;
}

/* ---- running --------------------------------------------------------------------------------- */

/* The figure the slide shows big: without a key named by the lesson, the last bar or gauge that
 * was measured or simulated (a theoretical peak or a reference figure is context, not the
 * result); the lesson's own key figure wins as soon as it has a value. */
static void take_figure(void *ud, const struct lt_event *ev)
{
    struct present *p = ud;
    if ((ev->type == LT_EV_BAR || ev->type == LT_EV_GAUGE) &&
        (ev->style == LT_MEASURED || ev->style == LT_SIMULATED || !p->fig.have)) {
        p->fig.have = true;
        p->fig.value = ev->value;
        p->fig.style = ev->style;
        snprintf(p->fig.label, sizeof p->fig.label, "%s", lt_tx(ev->series, zh(p)));
        snprintf(p->fig.unit, sizeof p->fig.unit, "%s", lt_tx(ev->unit, zh(p)));
    }
    /* the lesson's own key figure wins as soon as it has a value */
    struct tui_keyfig k;
    if (tui_panelset_key(p->ps, &k)) {
        p->fig.have = true;
        p->fig.value = k.value;
        p->fig.style = k.style;
        snprintf(p->fig.unit, sizeof p->fig.unit, "%s", k.unit ? k.unit : "");
        if (k.curve) {
            char x[32];
            if (k.bytes_x) gpu_fmt_bytes(k.x, GPU_FMT_BIN, x, sizeof x);
            else gpu_fmt_num(k.x, x, sizeof x);
            snprintf(p->fig.label, sizeof p->fig.label, "%s%s @ %s", TR(p, "peak ", "峰值 "), k.label, x);
        } else {
            snprintf(p->fig.label, sizeof p->fig.label, "%s", k.label ? k.label : "");
        }
    }
}

static void sink(void *ud, const struct lt_event *ev)
{
    struct present *p = ud;
    if (!p->ps || !p->running) return;
    struct tui_run r = {.rec = p->replaying ? NULL : p->opts->rec, .log = p->log, .ps = p->ps};
    tui_run_event(&r, ev);
    take_figure(p, ev);
    p->dirty = true;
}

static void replay_sink(void *ud, const struct lt_event *ev) { sink(ud, ev); }

static void finish(struct present *p, enum lt_run_state st, const char *err)
{
    if (!p->replaying) tui_rec_end(p->opts->rec, st, st == LT_RUN_FAILED ? err : "");
    p->running = p->replaying = p->held = false;
    p->state = st;
    snprintf(p->run_err, sizeof p->run_err, "%s", err ? err : "");
    p->dirty = true;
}

static void cancel(struct present *p)
{
    if (!p->running) return;
    if (!p->replaying) lt_lesson_run_cancel(p->ls);
    finish(p, LT_RUN_CANCELLED, "");
}

/* The step's run has results worth keeping: done, or stopped with something shown. */
static bool has_results(const struct present *p)
{
    return p->ps && !p->running && p->state != LT_RUN_IDLE && tui_panelset_has_data(p->ps);
}

/* Leaving a step: its run's events are kept (the step shows them again when it comes back). */
static void keep_run(struct present *p)
{
    int b = p->ps_block;
    if (b < 0 || b >= p->nkept || !has_results(p)) return;
    struct kept *k = &p->kept[b];
    struct tui_evlog *fresh = k->log ? k->log : tui_evlog_new();
    if (!fresh) return;
    tui_evlog_clear(fresh);
    k->log = p->log, p->log = fresh; /* the run's log is kept; the view gets an empty one */
    k->state = p->state;
    snprintf(k->err, sizeof k->err, "%s", p->run_err);
}

static void free_kept(struct present *p)
{
    for (int i = 0; i < p->nkept; i++) tui_evlog_free(p->kept[i].log);
    free(p->kept);
    p->kept = NULL, p->nkept = 0;
}

static void take_figure(void *ud, const struct lt_event *ev);

/* Coming back to a step with a kept run: its panels and figure built again from its events. */
static void restore_run(struct present *p, int b)
{
    if (b < 0 || b >= p->nkept || !p->kept[b].log || !p->ps || p->ps_block != b) return;
    struct kept *k = &p->kept[b];
    struct tui_evlog *t = p->log;
    p->log = k->log, k->log = t; /* k->log was cleared by reset_panels: empty now */
    tui_run_relang(&(struct tui_run){.log = p->log, .ps = p->ps}, lt_runtime_lang(p->rt));
    tui_evlog_replay(p->log, take_figure, p);
    p->state = k->state;
    snprintf(p->run_err, sizeof p->run_err, "%s", k->err);
    tui_evlog_free(k->log);
    k->log = NULL;
}

/* The step's experiment panels, fresh (a new step or a new run). */
static void reset_panels(struct present *p, int b)
{
    cancel(p);
    tui_panelset_free(p->ps);
    p->ps = NULL;
    tui_evlog_clear(p->log);
    p->ps_block = -1;
    p->state = LT_RUN_IDLE;
    p->run_err[0] = 0;
    memset(&p->fig, 0, sizeof p->fig);
    if (!is_exp(p, b) || !(p->ps = tui_panelset_new(p->ascii))) return;
    tui_panelset_set_lang(p->ps, lt_runtime_lang(p->rt));
    struct lt_panel pn[32];
    int n = lt_lesson_panels(p->ls, b, pn, 32);
    tui_panelset_declare(p->ps, pn, n);
    tui_panelset_set_tag(p->ps, p->opts->replay ? "REPLAY" : NULL);
    p->ps_block = b;
}

static void run(struct present *p)
{
    int b = block_of(p);
    if (!is_exp(p, b) || p->running) return;
    reset_panels(p, b);
    if (!p->ps) return;
    p->running = true;
    p->page = 0; /* the figure's page */
    const char *eid = lt_lesson_block_id(p->ls, b);
    if (p->opts->replay) {
        const struct tui_replay_run *r = tui_replay_find(p->opts->replay, lt_lesson_id(p->ls), eid);
        if (!r) {
            char e[512];
            snprintf(e, sizeof e, TR(p, "REPLAY: the recording has no run of this experiment; nothing was measured.",
                                     "回放：记录里没有这个实验；没有进行任何测量。"));
            p->replaying = true;
            finish(p, LT_RUN_FAILED, e);
            return;
        }
        p->replaying = true;
        tui_player_start(&p->player, r, gpu_now(), 2.0);
        return;
    }
    tui_rec_begin(p->opts->rec, lt_lesson_id(p->ls), eid, lt_lesson_block_title(p->ls, b));
    enum lt_run_state st = lt_lesson_run_start(p->ls, b, p->run_err, sizeof p->run_err);
    if (st != LT_RUN_BUSY) finish(p, st, p->run_err);
}

static void tick(struct present *p)
{
    if (!p->running || p->held) return;
    if (p->replaying) {
        if (tui_player_step(&p->player, gpu_now(), replay_sink, p)) {
            const struct tui_replay_run *r = p->player.run;
            finish(p, !strcmp(r->state, "failed") ? LT_RUN_FAILED
                      : !strcmp(r->state, "cancelled") ? LT_RUN_CANCELLED : LT_RUN_DONE, r->error);
        }
        return;
    }
    char err[1024] = "";
    enum lt_run_state st = lt_lesson_run_step(p->ls, err, sizeof err);
    if (st != LT_RUN_BUSY) finish(p, st, err);
}

/* ---- lessons and steps ------------------------------------------------------------------------ */

static void go_step(struct present *p, int s)
{
    if (s < 0) s = 0;
    if (s >= p->nsteps) s = p->nsteps - 1;
    if (s == p->step && p->ls) return;
    cancel(p); /* a run left midway keeps what it showed */
    keep_run(p);
    p->step = s;
    p->reveal = false;
    p->page = 0;
    tui_scroll_to(&p->sc, 0);
    reset_panels(p, block_of(p));
    restore_run(p, block_of(p));
    p->dirty = true;
}

static void open_lesson(struct present *p, int ci)
{
    cancel(p);
    tui_panelset_free(p->ps);
    p->ps = NULL;
    p->ps_block = -1;
    free_kept(p);
    lt_lesson_free(p->ls);
    p->ls = NULL;
    p->ci = ci;
    p->err[0] = 0;
    const char *path = ci >= 0 && ci < p->ncat ? p->cat[ci].path : p->opts->open_lesson;
    if (path) p->ls = lt_lesson_load(p->rt, path, p->err, sizeof p->err);
    else snprintf(p->err, sizeof p->err, "no lessons found");
    p->nsteps = p->ls ? lt_lesson_nblocks(p->ls) + 1 : 1;
    if (p->ls && (p->kept = calloc((size_t)lt_lesson_nblocks(p->ls) + 1, sizeof *p->kept)))
        p->nkept = lt_lesson_nblocks(p->ls);
    p->step = -1;
    go_step(p, 0);
}

/* ---- drawing ---------------------------------------------------------------------------------- */

static void blank(struct tui_lines *L)
{
    struct tui_lb b = {.L = L};
    tui_lb_end(&b, -1, TUI_LK_TEXT, 0);
}

static void para(struct present *p, struct tui_lines *L, const char *s, int style, int width)
{
    struct tui_render_opts o = {width, zh(p) ? "zh" : "en", p->ascii, -1};
    tui_render_para(L, s, strlen(s), style, true, "", style, &o);
}

static void markup(struct present *p, struct tui_lines *L, const char *s, int width)
{
    if (!s) return;
    struct tui_render_opts o = {width, zh(p) ? "zh" : "en", p->ascii, -1};
    tui_render_markup(L, s, strlen(s), &o);
}

static void title_slide(struct present *p, struct tui_lines *L, int width)
{
    char buf[512];
    if (!p->ls) {
        para(p, L, TR(p, "This lesson could not be loaded:", "这一课无法加载："), TS_BAD, width);
        para(p, L, p->err, TS_PLAIN, width);
        return;
    }
    snprintf(buf, sizeof buf, TR(p, "Chapter %d", "第 %d 章"), lt_lesson_chapter(p->ls));
    para(p, L, buf, TS_DIM, width);
    blank(L);
    /* the lesson's number in big type, its title under it; the two on one line when narrow */
    const char *id = lt_lesson_id(p->ls);
    int bw = tui_big_width(id);
    if (bw > 0 && bw <= width && tui_big_render(L, id, p->ascii, TS_H1)) {
        blank(L);
        para(p, L, lt_lesson_title(p->ls), TS_H1, width);
    } else {
        snprintf(buf, sizeof buf, "%s  %s", id, lt_lesson_title(p->ls));
        para(p, L, buf, TS_H1, width);
    }
    blank(L);
    para(p, L, p->backend, TS_DIM, width);
    blank(L);
    para(p, L, TR(p, "Space: next step   ←: back   Enter: run an experiment   q: quit",
                  "空格：下一步   ←：上一步   Enter：运行实验   q：退出"), TS_DIM, width);
}

static void exercise_step(struct present *p, struct tui_lines *L, int b, int width)
{
    struct lt_exercise_info x;
    if (!lt_lesson_exercise(p->ls, b, &x)) return;
    para(p, L, TR(p, "Question", "思考题"), TS_H1, width);
    blank(L);
    markup(p, L, x.prompt, width);
    for (int i = 0; i < x.nchoices; i++) {
        char first[16];
        snprintf(first, sizeof first, "  %d) ", i + 1);
        struct tui_render_opts o = {width, zh(p) ? "zh" : "en", p->ascii, -1};
        const char *c = x.choices[i] ? x.choices[i] : "";
        bool right = p->reveal && x.answer_choice == i + 1;
        tui_render_para(L, c, strlen(c), right ? TS_GOOD : TS_PLAIN, true, first, right ? TS_GOOD : TS_MARK, &o);
    }
    blank(L);
    if (!p->reveal) {
        para(p, L, TR(p, "[ a: show the answer ]", "[ a：显示答案 ]"), TS_BUTTON, width);
        return;
    }
    if (x.answer_choice > 0 && x.answer_choice <= x.nchoices) {
        char buf[64];
        snprintf(buf, sizeof buf, TR(p, "Answer: %d", "答案：%d"), x.answer_choice);
        para(p, L, buf, TS_GOOD, width);
    }
    markup(p, L, x.explain, width);
}

/* The experiment step: its title, then either the intro and how to run it, or the key figure
 * in big type over the panels, as large as `rows` (the body's) leave room for with the title,
 * the figure's label and the status line. */
static void experiment_step(struct present *p, struct tui_lines *L, int b, int width, int rows)
{
    const char *title = lt_lesson_block_title(p->ls, b);
    para(p, L, title ? title : "", TS_H1, width);
    blank(L);
    if (p->state == LT_RUN_IDLE && !p->running) {
        markup(p, L, lt_lesson_block_text(p->ls, b), width);
        blank(L);
        para(p, L, p->opts->replay ? TR(p, "[ Enter: play the recorded run ]", "[ Enter：播放记录的运行 ]")
                                   : TR(p, "[ Enter: run it live ]", "[ Enter：现场运行 ]"),
             TS_BUTTON, width);
        return;
    }
    char num[64], big[128];
    if (p->fig.have) {
        tui_big_number(p->fig.value, num, sizeof num);
        /* the unit in big type too when it fits; else it goes on the line below */
        snprintf(big, sizeof big, "%s %s", num, p->fig.unit);
        bool unit_big = *p->fig.unit && tui_big_width(big) > 0 && tui_big_width(big) <= width;
        if (!unit_big) snprintf(big, sizeof big, "%s", num);
        int style = p->fig.style == LT_SIMULATED ? TS_SIMULATED
                    : p->fig.style == LT_MEASURED ? TS_MEASURED
                    : p->fig.style == LT_THEORETICAL ? TS_THEORETICAL : TS_REFERENCE;
        /* the figure fills what the title, its label and the status line leave */
        int scale = tui_big_fit(big, width, rows - 6);
        if (scale > 0) /* centred when scaled up: it is the slide */
            tui_big_render_scaled(L, big, scale, scale > 1 ? (width - tui_big_width(big) * scale) / 2 : 0,
                                  p->ascii, style);
        else para(p, L, big, TS_EM, width); /* a narrow terminal: still the number */
        static const char *const how_en[] = {"measured", "SIMULATED", "theoretical", "reference"};
        static const char *const how_zh[] = {"实测", "SIMULATED 模拟", "理论值", "参考值"};
        char line[512];
        snprintf(line, sizeof line, "%s%s%s · %s%s", p->fig.label, unit_big ? "" : " · ",
                 unit_big ? "" : p->fig.unit,
                 zh(p) ? how_zh[p->fig.style] : how_en[p->fig.style],
                 p->opts->replay ? (p->ascii ? " - REPLAY" : " · REPLAY") : "");
        para(p, L, line, p->fig.style == LT_SIMULATED ? TS_SIMULATED : TS_EM, width);
    } else {
        para(p, L, p->running ? TR(p, "running…", "运行中…") : "", TS_DIM, width);
    }
    const char *st = p->ps ? tui_panelset_status(p->ps) : "";
    if (p->held)
        para(p, L, TR(p, "PAUSED · Space goes on with the run · Esc cancels it",
                      "已暂停 · 空格继续运行 · Esc 取消"), TS_WARN_LABEL, width);
    else if (p->state == LT_RUN_FAILED && *p->run_err) para(p, L, p->run_err, TS_BAD, width);
    else if (*st) para(p, L, st, TS_DIM, width);
    if (p->ps) {
        blank(L);
        /* a page of the screen's rows: a curve grows with a projector's screen (and is drawn
         * whole on its page) */
        tui_panelset_set_rows(p->ps, rows);
        tui_panelset_render(p->ps, L, width, p->ascii, zh(p) ? "zh" : "en");
    }
}

static const struct tui_keymap *const *keys(const struct present *p);

static void draw(void *ud)
{
    struct present *p = ud;
    int rows = LINES, cols = COLS;
    /* a 76-column strip on a small terminal; beyond, the width less a twentieth a side */
    int width = cols <= 84 ? (cols - 4 < 76 ? cols - 4 : 76) : cols - 2 * (cols / 20), x0 = (cols - width) / 2;
    char left[512], right[128];
    snprintf(left, sizeof left, "%s %s", p->ls ? lt_lesson_id(p->ls) : "",
             p->ls ? lt_lesson_title(p->ls) : "vramlab");
    snprintf(right, sizeof right, "%d / %d", p->step + 1, p->nsteps);
    char *f = p->ascii ? tui_ascii_fold(left, strlen(left), NULL, NULL) : NULL;
    tui_term_bar(0, cols, f ? f : left, right, TS_DIM);
    free(f);
    struct tui_lines L = {0};
    int b = block_of(p);
    if (p->step == 0 || !p->ls) title_slide(p, &L, width);
    else if (lt_lesson_block_kind(p->ls, b) == LT_BLOCK_EXPERIMENT) experiment_step(p, &L, b, width, rows - 3);
    else if (lt_lesson_block_kind(p->ls, b) == LT_BLOCK_EXERCISE) exercise_step(p, &L, b, width);
    else markup(p, &L, lt_lesson_block_text(p->ls, b), width);
    int body = rows - 3;
    /* a step longer than the screen is split into pages, each a slide of its own (at a blank
     * line where one falls in the page's second half): Space shows the next, nothing scrolls */
    int starts[256], np = 0;
    for (int at = 0; np < 256 && (at < L.n || np == 0);) {
        starts[np++] = at;
        int end = at + (body > 1 ? body : 1);
        if (end < L.n)
            for (int k = end - 1; k > at + body / 2; k--)
                if (L.v[k].len == 0) {
                    end = k + 1;
                    break;
                }
        at = end;
    }
    p->npages = np;
    if (p->page >= np) p->page = np - 1;
    int from = starts[p->page], to = p->page + 1 < np ? starts[p->page + 1] : L.n;
    while (to > from && L.v[to - 1].len == 0) to--; /* no blank tail on a page */
    /* a short step sits a little below the top, a title slide in the middle */
    int y0 = 2;
    if (p->step == 0 && L.n < body) y0 = 1 + (body - L.n) / 2;
    for (int i = 0; i < body && from + i < to; i++)
        tui_term_line(y0 + i, x0, width, &L.v[from + i], TS_PLAIN);
    if (np > 1) { /* where in the step: "page 2/3" on the top line's right, before the count */
        char pg[64];
        snprintf(pg, sizeof pg, "%d/%d", p->page + 1, np);
        snprintf(right, sizeof right, "%d / %d  ·  %s %s", p->step + 1, p->nsteps, TR(p, "page", "页"), pg);
        char *f2 = p->ascii ? tui_ascii_fold(left, strlen(left), NULL, NULL) : NULL;
        char *r2 = p->ascii ? tui_ascii_fold(right, strlen(right), NULL, NULL) : NULL;
        tui_term_bar(0, cols, f2 ? f2 : left, r2 ? r2 : right, TS_DIM);
        free(f2), free(r2);
    }
    tui_lines_free(&L);
    char hints[256], shortb[256];
    tui_keys_hints(p->help.open ? tui_help_keys : keys(p), zh(p), " · ", cols / 2, hints, sizeof hints);
    /* the backend's short form ("SIM · rtx3090") when the whole one would crowd the hints */
    const char *be = p->backend;
    if (tui_width(be, strlen(be)) + tui_width(hints, strlen(hints)) + 4 > cols) {
        tui_backend_short(be, shortb, sizeof shortb);
        be = shortb;
    }
    char *fh = p->ascii ? tui_ascii_fold(hints, strlen(hints), NULL, NULL) : NULL;
    char *bl = p->ascii ? tui_ascii_fold(be, strlen(be), NULL, NULL) : NULL;
    tui_term_bar(rows - 1, cols, *p->notice ? p->notice : bl ? bl : be, fh ? fh : hints,
                 *p->notice ? TS_BAD : TS_DIM);
    free(fh), free(bl);
    if (p->help.open) {
        struct tui_layout lay;
        tui_layout_compute(rows, cols, &lay);
        tui_help_draw(&p->help, &lay.help, zh(p), p->ascii);
    }
}

/* ---- keys ------------------------------------------------------------------------------------- */

/* A key that would leave a running experiment's step: the first press asks, the same key again
 * leaves (the run is stopped; what it showed is kept). */
static bool may_leave(struct present *p)
{
    if (!p->running || p->leave_armed) return true;
    p->leave_armed = true;
    snprintf(p->notice, sizeof p->notice, "%s",
             TR(p, "An experiment is running: the same key again stops it and leaves (Space pauses it).",
                "实验正在运行：再按一次同一个键会停止它并离开（空格暂停）。"));
    return false;
}

/* Space during a run: hold it, and go on with it at the next Space (nothing is dropped; a
 * replay's clock moves on by the time held). */
static void hold_key(void *ud, const struct tui_key *k)
{
    struct present *p = ud;
    if (!p->running) return;
    p->held = !p->held;
    if (p->replaying && p->held) p->held_at = gpu_now();
    else if (p->replaying) p->player.start += gpu_now() - p->held_at;
    else lt_lesson_run_hold(p->ls, p->held);
    p->dirty = true;
}

/* The next page or step. */
static void next(void *ud, const struct tui_key *k)
{
    struct present *p = ud;
    if (!may_leave(p)) return;
    if (p->page + 1 < p->npages) p->page++;
    else go_step(p, p->step + 1);
}

static void prev(void *ud, const struct tui_key *k)
{
    struct present *p = ud;
    if (!may_leave(p)) return;
    if (p->page > 0) {
        p->page--;
        return;
    }
    int was = p->step;
    go_step(p, p->step - 1);
    if (p->step != was) p->page = 1 << 20; /* back into the last page of the step before */
}

static void ends(void *ud, const struct tui_key *k)
{
    struct present *p = ud;
    if (!may_leave(p)) return;
    go_step(p, k->code == TUI_KEY_FN(KEY_HOME) ? 0 : p->nsteps - 1);
}

/* Enter: a step that has results asks first; Enter again runs it anew, any other key keeps
 * them. */
static void run_key(void *ud, const struct tui_key *k)
{
    struct present *p = ud;
    if (p->running) return;
    if (has_results(p) && !p->rerun_armed) {
        p->rerun_armed = true;
        snprintf(p->notice, sizeof p->notice, "%s",
                 TR(p, "It has results: Enter again runs it anew; any other key keeps them.",
                    "已有结果：再按 Enter 重新运行；按其他键保留结果。"));
        return;
    }
    p->rerun_armed = false;
    run(p);
}
static void cancel_key(void *ud, const struct tui_key *k) { cancel(ud); }
static void quit_key(void *ud, const struct tui_key *k)
{
    struct present *p = ud;
    if (may_leave(p)) p->quit = true;
}

static void lesson(void *ud, const struct tui_key *k)
{
    struct present *p = ud;
    if (!may_leave(p)) return;
    int d = k->code == 'N' ? 1 : -1, to = p->ci + d;
    while (to >= 0 && to < p->ncat && p->cat[to].error) to += d;
    if (p->ci >= 0 && to >= 0 && to < p->ncat) open_lesson(p, to);
    else snprintf(p->notice, sizeof p->notice, "%s",
                  d > 0 ? TR(p, "This is the last lesson.", "已是最后一课。")
                        : TR(p, "This is the first lesson.", "已是第一课。"));
}

static void lang(void *ud, const struct tui_key *k)
{
    struct present *p = ud;
    if (p->ascii) {
        snprintf(p->notice, sizeof p->notice, "Chinese needs a UTF-8 terminal.");
        return;
    }
    lt_runtime_set_lang(p->rt, zh(p) ? "en" : "zh");
    if (p->ps_block >= 0 && p->ps) { /* titles and the run's data in the other language */
        tui_run_relang(&(struct tui_run){.log = p->log, .ps = p->ps}, lt_runtime_lang(p->rt));
        struct lt_panel pn[32];
        int n = lt_lesson_panels(p->ls, p->ps_block, pn, 32);
        tui_panelset_declare(p->ps, pn, n);
        memset(&p->fig, 0, sizeof p->fig);
        tui_evlog_replay(p->log, take_figure, p);
    }
}

static void help(void *ud, const struct tui_key *k)
{
    struct present *p = ud;
    const struct tui_keymap *const *ctx[] = {keys(p)};
    tui_help_open(&p->help, ctx, 1, NULL, 0);
}

static void reveal_key(void *ud, const struct tui_key *k)
{
    struct present *p = ud;
    p->reveal = !p->reveal;
}

static const struct tui_binding ask_rows[] = {
    {.keys = {'a'}, .run = reveal_key, .en = "show / hide the answer and its explanation",
     .zh = "显示 / 隐藏答案与解释", .hint_en = "answer", .hint_zh = "答案"},
};

static const struct tui_binding run_rows[] = {
    {.keys = {TUI_KEY_ENTER}, .run = run_key, .en = "run the experiment (live, or the recorded run); one with results asks first",
     .zh = "运行实验（现场运行，或播放记录）；已有结果的先询问", .hint_en = "run", .hint_zh = "运行"},
    {.keys = {TUI_KEY_ESC}, .run = cancel_key, .en = "cancel the run", .zh = "取消运行"},
};

/* while a run goes on, Space holds it (the footer says pause), then goes on with it */
static const struct tui_binding running_rows[] = {
    {.keys = {' '}, .run = hold_key, .en = "pause the run; Space again goes on with it (nothing is dropped)",
     .zh = "暂停运行；再按空格继续（不丢失任何结果）", .hint_en = "pause", .hint_zh = "暂停"},
    {.keys = {TUI_KEY_ESC}, .run = cancel_key, .en = "cancel the run", .zh = "取消运行", .hint_en = "cancel",
     .hint_zh = "取消"},
};
static const struct tui_binding held_rows[] = {
    {.keys = {' '}, .run = hold_key, .en = "go on with the paused run", .zh = "继续已暂停的运行",
     .hint_en = "go on", .hint_zh = "继续"},
    {.keys = {TUI_KEY_ESC}, .run = cancel_key, .en = "cancel the run", .zh = "取消运行", .hint_en = "cancel",
     .hint_zh = "取消"},
};

static const struct tui_binding rows[] = {
    {.keys = {' ', TUI_KEY_FN(KEY_RIGHT), TUI_KEY_FN(KEY_NPAGE), 'l'}, .run = next,
     .en = "next step (during a run Space pauses it; a key that would leave a running step asks first)",
     .zh = "下一步（运行中空格是暂停；会离开运行中步骤的键先询问）", .hint_en = "next", .hint_zh = "下一步"},
    {.keys = {TUI_KEY_FN(KEY_LEFT), TUI_KEY_FN(KEY_PPAGE), TUI_KEY_FN(KEY_BACKSPACE), 'h'},
     .run = prev, .en = "previous step", .zh = "上一步", .hint_en = "back", .hint_zh = "返回"},
    {.keys = {TUI_KEY_FN(KEY_HOME), TUI_KEY_FN(KEY_END)}, .run = ends,
     .en = "the title slide / the last step", .zh = "标题页 / 最后一步"},
    {.keys = {'N', 'P'}, .run = lesson, .en = "next / previous lesson", .zh = "下一课 / 上一课"},
    {.keys = {'L'}, .run = lang, .en = "switch language: English / 中文",
     .zh = "切换语言：English / 中文"},
    {.keys = {'?', TUI_KEY_FN(KEY_F(1))}, .run = help, .en = "this help", .zh = "本帮助",
     .hint_en = "help", .hint_zh = "帮助"},
    {.keys = {'q'}, .run = quit_key, .en = "quit", .zh = "退出", .hint_en = "quit", .hint_zh = "退出"},
};

static const struct tui_keymap run_keys =
    TUI_KEYMAP("An experiment step", "实验步骤", TUI_TO_SCREEN, run_rows);
static const struct tui_keymap running_keys =
    TUI_KEYMAP("While an experiment runs", "实验运行时", TUI_TO_SCREEN, running_rows);
static const struct tui_keymap held_keys =
    TUI_KEYMAP("While a run is paused", "运行暂停时", TUI_TO_SCREEN, held_rows);
static const struct tui_keymap present_keys = TUI_KEYMAP("Presenter", "演示", TUI_TO_SCREEN, rows);
static const struct tui_keymap ask_keys = TUI_KEYMAP("A question step", "提问步骤", TUI_TO_SCREEN, ask_rows);

/* no scroll keys: a step is shown a page at a time, and Space / ← page through it */
const struct tui_keymap *const tui_present_keys[] = {&present_keys, &tui_loop_keys, NULL};
const struct tui_keymap *const tui_present_run_keys[] = {&run_keys, &present_keys, &tui_loop_keys,
                                                         NULL};
const struct tui_keymap *const tui_present_ask_keys[] = {&ask_keys, &present_keys, &tui_loop_keys,
                                                         NULL};
const struct tui_keymap *const tui_present_running_keys[] = {&running_keys, &present_keys, &tui_loop_keys,
                                                             NULL};
const struct tui_keymap *const tui_present_held_keys[] = {&held_keys, &present_keys, &tui_loop_keys, NULL};

static const struct tui_keymap *const *keys(const struct present *p)
{
    if (is_exp(p, block_of(p)) && p->running) return p->held ? tui_present_held_keys : tui_present_running_keys;
    if (is_exp(p, block_of(p))) return tui_present_run_keys;
    int b = block_of(p);
    if (p->ls && b >= 0 && b < lt_lesson_nblocks(p->ls) && lt_lesson_block_kind(p->ls, b) == LT_BLOCK_EXERCISE)
        return tui_present_ask_keys;
    return tui_present_keys;
}

static void key(void *ud, const struct tui_key *k)
{
    struct present *p = ud;
    p->notice[0] = 0;
    /* "any other key keeps them" / "the same key again leaves": an armed question lasts one key */
    if (k->code != TUI_KEY_ENTER) p->rerun_armed = false;
    if (k->code != p->last_key) p->leave_armed = false;
    p->last_key = k->code;
    if (p->help.open) {
        tui_help_key(&p->help, k);
        return;
    }
    struct tui_targets t = {p, &p->sc, NULL};
    tui_keys_dispatch(keys(p), &t, k);
}

static bool tick_op(void *ud)
{
    struct present *p = ud;
    tick(p);
    bool d = p->dirty;
    p->dirty = false;
    return d;
}

static bool busy(void *ud) { return ((struct present *)ud)->running; }
static bool quit(void *ud) { return ((struct present *)ud)->quit; }

int tui_present(struct lt_runtime *rt, const struct tui_opts *opts)
{
    struct present p;
    memset(&p, 0, sizeof p);
    p.rt = rt, p.opts = opts, p.ps_block = -1, p.ci = -1;
    if (!(p.log = tui_evlog_new())) {
        fprintf(stderr, "vramlab: out of memory\n");
        return 4;
    }
    setlocale(LC_CTYPE, "");
    p.ncat = lt_catalog_scan(rt, opts->lessons_dir ? opts->lessons_dir : "lessons", &p.cat);
    if (p.ncat < 0) p.ncat = 0;
    int start = -1;
    const char *want = opts->open_lesson;
    for (int i = 0; i < p.ncat && start < 0; i++)
        if (!p.cat[i].error && (!want || !strcmp(p.cat[i].id, want) || !strcmp(p.cat[i].path, want)))
            start = i;
    if (start < 0 && want && !strstr(want, ".lua")) {
        fprintf(stderr, "vramlab: no lesson '%s' (see `vramlab list`)\n", want);
        lt_catalog_free(p.cat, p.ncat);
        tui_evlog_free(p.log);
        return 2;
    }
    lt_runtime_backend_line(rt, p.backend, sizeof p.backend);
    if (opts->replay) tui_replay_label(opts->replay, p.backend, sizeof p.backend);
    char err[256];
    if (!tui_term_init(err, sizeof err)) {
        fprintf(stderr, "vramlab: %s\n", err);
        lt_catalog_free(p.cat, p.ncat);
        tui_evlog_free(p.log);
        return 3;
    }
    p.ascii = !tui_term_utf8();
    if (p.ascii) lt_runtime_set_lang(rt, "en");
    lt_runtime_set_async(rt, true);
    lt_runtime_set_sink(rt, sink, &p);
    open_lesson(&p, start);
    struct tui_screen_ops ops = {
        .ud = &p, .rt = rt, .draw = draw, .key = key, .quit = quit, .tick = tick_op, .busy = busy,
        .min_rows = 10, .min_cols = 40,
    };
    int rc = tui_loop_run(&ops);
    cancel(&p);
    tui_panelset_free(p.ps);
    tui_evlog_free(p.log);
    free_kept(&p);
    lt_lesson_free(p.ls);
    lt_runtime_set_sink(rt, NULL, NULL);
    lt_runtime_set_async(rt, false);
    tui_term_done();
    lt_catalog_free(p.cat, p.ncat);
    return rc;
}
