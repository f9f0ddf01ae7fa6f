/* tui.c - tui_run: the tutor's event loop (tig/htop style). Each turn: do pending work (step a
 * running experiment), draw with wnoutrefresh/doupdate only when something changed, then wait
 * for a key with a timeout: 50 ms while an experiment runs, a second when idle, so an idle tutor
 * costs nothing. KEY_RESIZE is handled here, above every screen and overlay. */
#include "tui.h"

#include <curses.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tui_app.h"
#include "tui_snapview.h"
#include "tui_plain.h"
#include "tui_term.h"
#include "tui_wrap.h"

const char *tui_app_lang(const struct tui_app *a)
{
    const char *l = lt_runtime_lang(a->rt);
    return l && !strcmp(l, "zh") ? "zh" : "en";
}

bool tui_app_zh(const struct tui_app *a) { return !strcmp(tui_app_lang(a), "zh"); }

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static void sink(void *ud, const struct lt_event *ev)
{
    struct tui_app *a = ud;
    struct lt_event copy;
    char *text; /* a text with NUL bytes shows them, and what follows them */
    ev = tui_event_visible(ev, "\u2400", &copy, &text);
    if (a->repl_eval) tui_repl_sink(a, ev);
    else if (a->lv) tui_lesson_sink(a, ev);
    free(text);
}

/* Menu marks from the saved progress: started = visited, done = every exercise solved. */
static void compute_marks(struct tui_app *a)
{
    for (int i = 0; i < a->ncat; i++) {
        const struct lt_catalog_entry *e = &a->cat[i];
        unsigned char m = TUI_NEW;
        if (a->saved && !e->error && e->id && tui_progress_visited(a->saved, e->id))
            m = tui_progress_solved(a->saved, e->id) >= e->nexercises ? TUI_DONE : TUI_STARTED;
        a->progress[i] = m;
    }
    tui_menu_invalidate(a);
}

void tui_app_progress_changed(struct tui_app *a)
{
    char err[1200];
    if (!a->saved) return;
    if (!tui_progress_save(a->saved, err, sizeof err))
        snprintf(a->notice, sizeof a->notice, "progress not saved: %s", err);
    compute_marks(a);
}

/* ---- drawing ------------------------------------------------------------------------------ */

static void draw_small(struct tui_app *a)
{
    char msg[160];
    snprintf(msg, sizeof msg,
             TUI_TR(a, "terminal too small (need %d%s%d) - make it larger, or q to quit",
                    "终端太小（至少 %d%s%d）：请放大窗口，或按 q 退出"),
             TUI_MIN_COLS, a->ascii ? "x" : "×", TUI_MIN_ROWS);
    struct tui_lines L = {0};
    struct tui_render_opts o = {a->lay.cols, tui_app_lang(a), a->ascii, -1};
    tui_render_para(&L, msg, strlen(msg), TS_BAD, false, "", TS_BAD, &o);
    int y0 = L.n < a->lay.rows ? (a->lay.rows - L.n) / 2 : 0;
    for (int i = 0; i < L.n && y0 + i < a->lay.rows; i++)
        tui_term_line(y0 + i, 0, a->lay.cols, &L.v[i], TS_PLAIN);
    tui_lines_free(&L);
}

/* A bar: left text, right text kept whole when there is room. */
static void bar(int y, int w, const char *left, const char *right, int style)
{
    int rw = tui_width(right, strlen(right));
    if (rw + 12 > w) rw = 0;
    tui_term_fill(y, 0, 1, w, style);
    tui_term_text(y, 1, w - 1 - (rw ? rw + 2 : 0), left, style);
    if (rw) tui_term_text(y, w - rw - 1, rw, right, style);
}

static void fold_into(const struct tui_app *a, const char *s, char *out, size_t n)
{
    char *f = a->ascii ? tui_ascii_fold(s, strlen(s), NULL, NULL) : NULL;
    snprintf(out, n, "%s", f ? f : s);
    free(f);
}

static void draw_bars(struct tui_app *a)
{
    char left[512], right[256], tmp[512];
    if (a->screen == TUI_SCR_REPL) {
        snprintf(tmp, sizeof tmp, "%s", TUI_TR(a, "vramlab · sandbox (Lua)", "vramlab · 沙箱（Lua）"));
    } else if (a->screen == TUI_SCR_LESSON && a->lv) {
        int c = tui_lesson_cat_index(a);
        const char *id = c >= 0 ? a->cat[c].id : "";
        const char *title = c >= 0 ? a->cat[c].title[tui_app_zh(a)] : a->opts->open_lesson;
        snprintf(tmp, sizeof tmp, "vramlab · %s%s%s", id && *id ? id : "", id && *id ? " " : "",
                 title ? title : "");
    } else {
        snprintf(tmp, sizeof tmp, "%s", TUI_TR(a, "vramlab · lessons", "vramlab · 课程目录"));
    }
    fold_into(a, tmp, left, sizeof left);
    snprintf(right, sizeof right, "%s", a->ascii ? "EN" : TUI_TR(a, "EN  L:中文", "中文  L:EN"));
    bar(a->lay.title.y, a->lay.cols, left, right, TS_TITLE);

    fold_into(a, *a->notice ? a->notice : a->backend, left, sizeof left);
    if (*a->notice) /* the backend stays on screen, on the right, while a notice shows */
        snprintf(right, sizeof right, "%s", a->backend);
    else if (a->help)
        snprintf(right, sizeof right, "%s", TUI_TR(a, "Esc close", "Esc 关闭"));
    else if (a->screen == TUI_SCR_REPL && tui_repl_busy(a))
        snprintf(right, sizeof right, "%s", TUI_TR(a, "Esc cancel  F1 help", "Esc 取消  F1 帮助"));
    else if (a->screen == TUI_SCR_REPL)
        snprintf(right, sizeof right, "%s", TUI_TR(a, "Enter run  ↑↓ history  F1 help  Esc back", "Enter 运行  ↑↓ 历史  F1 帮助  Esc 返回"));
    else if (a->screen == TUI_SCR_MENU)
        snprintf(right, sizeof right, "%s", TUI_TR(a, "Enter open  : sandbox  ? help  q quit", "Enter 打开  : 沙箱  ? 帮助  q 退出"));
    else if (tui_lesson_editing(a) && !tui_lesson_grading(a))
        snprintf(right, sizeof right, "%s", TUI_TR(a, "Enter submit  Esc stop editing", "Enter 提交  Esc 结束编辑"));
    else if (tui_lesson_running(a))
        snprintf(right, sizeof right, "%s", TUI_TR(a, "Esc cancel  ? help  q back", "Esc 取消  ? 帮助  q 返回"));
    else
        snprintf(right, sizeof right, "%s", TUI_TR(a, "Enter run  Tab focus  ? help  q back", "Enter 运行  Tab 焦点  ? 帮助  q 返回"));
    fold_into(a, right, tmp, sizeof tmp);
    bar(a->lay.status.y, a->lay.cols, left, tmp, *a->notice ? TS_BAD : TS_STATUS);
}

static void draw_divider(struct tui_app *a)
{
    const struct tui_rect *d = &a->lay.divider;
    const struct tui_glyphs *g = tui_glyphs(a->ascii);
    const char *c = a->lay.mode == TUI_SIDE ? g->v : g->h;
    for (int y = d->y; y < d->y + d->h; y++)
        for (int x = d->x; x < d->x + d->w; x++) tui_term_put(y, x, 1, c, strlen(c), NULL, TS_RULE);
}

static void draw(struct tui_app *a)
{
    tui_layout_compute(LINES, COLS, &a->lay);
    erase();
    int cy = 0, cx = 0;
    bool cursor = false;
    if (a->lay.mode == TUI_TOO_SMALL) {
        draw_small(a);
    } else {
        if (a->screen == TUI_SCR_MENU) {
            tui_menu_draw(a);
        } else if (a->screen == TUI_SCR_REPL) {
            tui_repl_draw(a);
            draw_divider(a);
            cursor = tui_repl_cursor(a, &cy, &cx);
        } else {
            tui_lesson_draw(a);
            draw_divider(a);
            cursor = tui_lesson_cursor(a, &cy, &cx);
        }
        draw_bars(a);
        if (a->help) tui_help_draw(a);
    }
    curs_set(cursor ? 1 : 0);
    if (cursor) move(cy, cx);
    wnoutrefresh(stdscr);
    doupdate();
}


/* ---- actions ------------------------------------------------------------------------------ */

static void open_entry(struct tui_app *a, int i)
{
    tui_lesson_close(a);
    a->lv = NULL;
    if (!tui_lesson_open(a, i)) {
        snprintf(a->notice, sizeof a->notice, "out of memory");
        a->screen = TUI_SCR_MENU;
        return;
    }
    if (i >= 0) a->menu_sel = i;
    a->screen = TUI_SCR_LESSON;
}

static void toggle_lang(struct tui_app *a)
{
    if (a->ascii) {
        snprintf(a->notice, sizeof a->notice,
                 "Chinese text needs a UTF-8 terminal (e.g. LANG=C.UTF-8); showing English.");
        return;
    }
    lt_runtime_set_lang(a->rt, tui_app_zh(a) ? "en" : "zh");
    tui_menu_invalidate(a);
    tui_lesson_lang_changed(a);
}

static void read_key(struct tui_app *a, struct tui_key *k, bool *got)
{
    wint_t wc;
    int r = get_wch(&wc);
    *got = false;
    if (r == ERR) return;
    memset(k, 0, sizeof *k);
    k->fn = r == KEY_CODE_YES;
    k->code = (int)wc;
    if (k->fn && k->code == KEY_MOUSE) {
        MEVENT me;
        if (getmouse(&me) != OK) return;
        k->my = me.y, k->mx = me.x;
        if (me.bstate & BUTTON4_PRESSED) k->mbutton = 4;
        else if (me.bstate & BUTTON5_PRESSED) k->mbutton = 5;
        else if (me.bstate & (BUTTON1_PRESSED | BUTTON1_CLICKED)) k->mbutton = 1;
        else return;
    }
    *got = true;
}

static void handle_key(struct tui_app *a, const struct tui_key *k)
{
    a->notice[0] = 0;
    a->dirty = true; /* a key almost always changes something; ncurses sends only the diff */
    if (k->fn && k->code == KEY_RESIZE) return;
    if (!k->fn && k->code == 12) { /* Ctrl-L: repaint everything */
        clearok(curscr, TRUE);
        return;
    }
    if (a->lay.mode == TUI_TOO_SMALL) { /* only quitting makes sense */
        if (!k->fn && (k->code == 'q' || k->code == 27)) {
            if (a->help) a->help = false;
            else if (a->screen == TUI_SCR_REPL) a->screen = TUI_SCR_MENU;
            else if (a->screen == TUI_SCR_LESSON) tui_lesson_close(a), a->screen = TUI_SCR_MENU;
            else a->quit = true;
        }
        return;
    }
    if (a->help) {
        tui_help_key(a, k);
        return;
    }
    if (k->fn && k->code == KEY_F(1)) { /* help from anywhere, the REPL included */
        a->help = true, a->help_top = 0;
        return;
    }
    if (a->screen == TUI_SCR_REPL) { /* every other key is text for the prompt */
        tui_repl_key(a, k);
        return;
    }
    bool editing = a->screen == TUI_SCR_LESSON && tui_lesson_editing(a);
    if ((k->fn && k->code == KEY_F(2)) || (!k->fn && !editing && k->code == ':') ||
        (!k->fn && a->screen == TUI_SCR_MENU && k->code == 's')) {
        tui_repl_enter(a);
        return;
    }
    if (!k->fn && !editing) {
        switch (k->code) {
        case '?': case 'h':
            a->help = true, a->help_top = 0;
            return;
        case 'L': toggle_lang(a); return;
        case 'q':
            if (a->screen == TUI_SCR_LESSON) {
                tui_lesson_close(a);
                a->screen = TUI_SCR_MENU;
                tui_menu_invalidate(a);
            } else {
                a->quit = true;
            }
            return;
        case 'n': case 'p':
            if (a->screen == TUI_SCR_LESSON && a->ncat) {
                int c = tui_lesson_cat_index(a), d = k->code == 'n' ? 1 : -1;
                int to = c < 0 ? 0 : c + d;
                if (to >= 0 && to < a->ncat) open_entry(a, to);
                else snprintf(a->notice, sizeof a->notice, "%s",
                              d > 0 ? TUI_TR(a, "This is the last section.", "已是最后一节。")
                                    : TUI_TR(a, "This is the first section.", "已是第一节。"));
            }
            return;
        default: break;
        }
    }
    if (a->screen == TUI_SCR_MENU) {
        if (!k->fn && k->code == 27) return;
        if (!k->fn && k->code == 'r' && a->has_offer) {
            tui_app_toggle_offer(a);
            return;
        }
        if (!k->fn && k->code == 'o') { /* your own program's memory: tui_snapview.c */
            tui_snapview_pick(lt_runtime_datadir(a->rt), tui_app_zh(a));
            tui_menu_invalidate(a);
            clearok(curscr, TRUE);
            a->dirty = true;
            return;
        }
        int i = tui_menu_key(a, k);
        if (i >= 0) open_entry(a, i);
    } else {
        tui_lesson_key(a, k);
    }
}

/* ---- recordings offered on a machine without a GPU ----------------------------------------- */

/* The simulator is what this machine can do on its own; a recording of a real GPU shows what one
 * really did. Offer the best one first (real GPUs before simulated recordings), say whose
 * numbers they are, and never measure while one is playing. */
static void find_offer(struct tui_app *a)
{
    char dir[1200];
    struct tui_rec_offer list[16];
    if (a->opts->replay || !lt_runtime_dev(a->rt)->info.simulated) return;
    snprintf(dir, sizeof dir, "%s/assets/recordings", lt_runtime_datadir(a->rt));
    if (tui_recordings_scan(dir, list, 16) > 0) a->offer = list[0], a->has_offer = true;
}

void tui_app_toggle_offer(struct tui_app *a)
{
    char err[1400];
    if (!a->has_offer || (a->opts->replay && !a->offered)) return; /* --replay stays as given */
    if (tui_lesson_running(a)) {
        snprintf(a->notice, sizeof a->notice, "%s",
                 TUI_TR(a, "An experiment is running (Esc cancels it first).", "有实验在运行（先按 Esc 取消）。"));
        return;
    }
    if (a->offered) { /* back to the simulator */
        tui_replay_free(a->offered);
        a->offered = NULL;
        a->opts_own.replay = NULL;
        a->replay_label[0] = 0;
        lt_runtime_backend_line(a->rt, a->backend, sizeof a->backend);
    } else if (!(a->offered = tui_replay_load(a->offer.path, err, sizeof err))) {
        snprintf(a->notice, sizeof a->notice, "%s", err);
        return;
    } else {
        a->opts_own.replay = a->offered;
        tui_replay_label(a->offered, a->replay_label, sizeof a->replay_label);
        snprintf(a->backend, sizeof a->backend, "%s", a->replay_label);
    }
    tui_menu_invalidate(a);
}

/* ---- the loop ----------------------------------------------------------------------------- */

static void open_initial(struct tui_app *a)
{
    const char *want = a->opts->open_lesson;
    if (!want || !*want) return;
    for (int i = 0; i < a->ncat; i++)
        if ((a->cat[i].id && !strcmp(a->cat[i].id, want)) || (a->cat[i].path && !strcmp(a->cat[i].path, want))) {
            open_entry(a, i);
            return;
        }
    size_t n = strlen(want);
    if (strchr(want, '/') || (n > 4 && !strcmp(want + n - 4, ".lua"))) {
        open_entry(a, -1); /* a file outside the catalog */
        return;
    }
    snprintf(a->notice, sizeof a->notice, TUI_TR(a, "No lesson '%s' (see the list below).", "没有课程 '%s'（见下面的目录）。"), want);
}

int tui_run(struct lt_runtime *rt, const struct tui_opts *opts)
{
    struct tui_app a;
    memset(&a, 0, sizeof a);
    a.rt = rt, a.opts_own = *opts, a.opts = &a.opts_own, a.dirty = true, a.screen = TUI_SCR_MENU;
    setlocale(LC_CTYPE, ""); /* wide characters; main() may have done it already */
    a.ncat = lt_catalog_scan(rt, opts->lessons_dir ? opts->lessons_dir : "lessons", &a.cat);
    if (a.ncat < 0) a.ncat = 0;
    a.progress = calloc((size_t)a.ncat + 1, 1);
    lt_runtime_backend_line(rt, a.backend, sizeof a.backend);
    if (opts->replay) { /* never shown as this machine's numbers */
        tui_replay_label(opts->replay, a.replay_label, sizeof a.replay_label);
        snprintf(a.backend, sizeof a.backend, "%s", a.replay_label);
    }
    find_offer(&a);
    char pdir[1024], pnote[1400];
    tui_progress_dir(pdir, sizeof pdir);
    a.saved = tui_progress_load(pdir, pnote, sizeof pnote);
    char err[256];
    if (!a.progress || !tui_term_init(err, sizeof err)) {
        fprintf(stderr, "vramlab: %s. The tutor needs a terminal that can draw a screen; "
                        "`vramlab list` and `vramlab run 1.3` work anywhere.\n",
                a.progress ? err : "out of memory");
        if (a.cat) lt_catalog_free(a.cat, a.ncat);
        free(a.progress);
        tui_progress_free(a.saved);
        return 3;
    }
    if (a.progress) compute_marks(&a);
    if (pnote[0]) /* a damaged or newer progress file: said once, on the status line */
        snprintf(a.notice, sizeof a.notice, "%s", pnote);
    a.ascii = !tui_term_utf8();
    if (a.ascii && !strcmp(lt_runtime_lang(rt), "zh")) {
        lt_runtime_set_lang(rt, "en");
        snprintf(a.notice, sizeof a.notice,
                 "Chinese text needs a UTF-8 terminal (e.g. LANG=C.UTF-8); showing English.");
    }
    lt_runtime_set_async(rt, true);
    lt_runtime_set_sink(rt, sink, &a);
    open_initial(&a);

    int rc = 0;
    double last_spin = 0;
    while (!a.quit) {
        int sig = tui_term_signal();
        if (sig) {
            rc = 128 + sig;
            break;
        }
        if (tui_repl_busy(&a) && tui_repl_tick(&a)) a.dirty = true;
        if (tui_lesson_running(&a) || tui_repl_busy(&a)) {
            if (tui_lesson_running(&a) && tui_lesson_tick(&a)) a.dirty = true;
            double t = now_s();
            if (t - last_spin >= 0.125) { /* the spinner in the panel header */
                last_spin = t;
                a.dirty = true;
            }
        }
        if (a.dirty) {
            draw(&a);
            a.dirty = false;
        }
        /* idle: wake once a second; a measurement on the worker: check it every 50 ms; Lua
         * computing in slices: only look for a key between them */
        bool busy = tui_lesson_running(&a) || tui_repl_busy(&a);
        timeout(!busy ? 1000 : lt_runtime_computing(rt) ? 0 : 50);
        struct tui_key k;
        bool got;
        read_key(&a, &k, &got);
        if (got) handle_key(&a, &k);
        if (got && a.dirty && !a.quit) { /* answer the key now, before the next slice of work */
            draw(&a);
            a.dirty = false;
        }
    }
    tui_lesson_close(&a);
    tui_repl_free(&a);
    lt_runtime_set_sink(rt, NULL, NULL);
    lt_runtime_set_async(rt, false);
    tui_term_done();
    tui_lines_free(&a.menu_lines);
    if (a.cat) lt_catalog_free(a.cat, a.ncat);
    free(a.progress);
    tui_progress_free(a.saved);
    tui_replay_free(a.offered);
    return rc;
}
