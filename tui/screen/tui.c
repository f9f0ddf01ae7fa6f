/* tui.c - tui_run: the tutor. Its views (menu, lesson, sandbox) run in the one event loop
 * (tui_loop.c) through struct tui_view; this file owns what is common to them: the title and
 * status bars (the status line's key hints come from the view's key context), the help
 * overlay, the tutor's own keys, progress marks and the recording offered without a GPU. */
#include "tui.h"

#include <curses.h>
#include <locale.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tui_app.h"
#include "tui_term.h"
#include "tui_wrap.h"

const char *tui_app_lang(const struct tui_app *a)
{
    const char *l = lt_runtime_lang(a->rt);
    return l && !strcmp(l, "zh") ? "zh" : "en";
}

bool tui_app_zh(const struct tui_app *a) { return !strcmp(tui_app_lang(a), "zh"); }

/* The views, in the order the app ticks and closes them. */
static const struct tui_view *const views[] = {&tui_menu_view, &tui_lesson_view, &tui_repl_view};
#define NVIEWS (int)(sizeof views / sizeof *views)

bool tui_app_show(struct tui_app *a, const struct tui_view *v)
{
    if (v->show && !v->show(a)) return false;
    a->view = v;
    return true;
}

static void sink(void *ud, const struct lt_event *ev)
{
    struct tui_app *a = ud;
    struct lt_event copy;
    char *text; /* a text with NUL bytes shows them, and what follows them */
    ev = lt_event_visible(ev, "\u2400", &copy, &text);
    if (a->events_to && a->events_to->sink) a->events_to->sink(a, ev);
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
    a->menu_width = 0; /* the menu shows the marks */
}

void tui_app_progress_changed(struct tui_app *a)
{
    char err[1200];
    if (!a->saved) return;
    if (!tui_progress_save(a->saved, err, sizeof err))
        tui_app_error(a, "progress not saved: %s", err);
    compute_marks(a);
}

/* ---- the help overlay --------------------------------------------------------------------- */

static const struct tui_help_note notes[] = {
    {"progress", "◐ visited, ✓ every exercise solved; saved in $XDG_STATE_HOME/vramlab "
                 "(`vramlab progress`, `vramlab reset`)",
     "◐ 已学习，✓ 练习全部答对；保存在 $XDG_STATE_HOME/vramlab（`vramlab progress`、`vramlab reset`）", "进度"},
    {"REPLAY", "--replay FILE or r in the menu: the numbers were recorded on the machine named in "
               "the status line, not measured here",
     "--replay 文件或菜单中的 r：数字来自状态栏所示机器上的记录，不是在本机测量的", NULL},
    {NULL, NULL, NULL, NULL},
    {"measured", "a number measured on this machine (green)", "在本机实测的数字（绿色）", "实测"},
    {"SIM", "SIMULATED: from the GPU simulator's model, not a measurement (magenta, ▓)",
     "模拟（SIMULATED）：来自 GPU 模拟器的模型，不是实测（品红，▓）", NULL},
    {"theory", "theoretical peak: bus width / 8 x data rate (cyan, ░)",
     "理论峰值：位宽 / 8 × 数据速率（青色，░）", "理论"},
    {"ref", "a reference figure: a datasheet or the lecture (yellow, ▒)",
     "参考数字：数据手册或讲义（黄色，▒）", "参考"},
};

static void open_help(struct tui_app *a)
{
    struct tui_targets t;
    const struct tui_keymap *const *ctx[2] = {a->view->keys(a, NULL, &t), a->view->also};
    tui_help_open(&a->help, ctx, ctx[1] ? 2 : 1, notes, (int)(sizeof notes / sizeof *notes));
}

/* ---- the tutor's own keys ----------------------------------------------------------------- */

static void help_key(void *ud, const struct tui_key *k) { open_help(ud); }

static void sandbox_key(void *ud, const struct tui_key *k) { tui_app_show(ud, &tui_repl_view); }

static void lang_key(void *ud, const struct tui_key *k) { tui_app_toggle_lang(ud); }

void tui_app_toggle_lang(struct tui_app *a)
{
    if (a->ascii) {
        snprintf(a->notice, sizeof a->notice,
                 "Chinese text needs a UTF-8 terminal (e.g. LANG=C.UTF-8); showing English.");
        return;
    }
    lt_runtime_set_lang(a->rt, tui_app_zh(a) ? "en" : "zh");
    if (!a->replay_label[0]) lt_runtime_backend_line(a->rt, a->backend, sizeof a->backend);
    for (int i = 0; i < NVIEWS; i++)
        if (views[i]->lang_changed) views[i]->lang_changed(a);
}

static const struct tui_binding app_rows[] = {
    {.keys = {'?', TUI_KEY_FN(KEY_F(1)), 'h'}, .run = help_key,
     .en = "this help: the keys of this screen", .zh = "本帮助：当前界面的按键",
     .hint_en = "help", .hint_zh = "帮助"},
    {.keys = {':', TUI_KEY_FN(KEY_F(2))}, .run = sandbox_key,
     .en = "the sandbox: a Lua prompt with the lesson modules and plot.*",
     .zh = "沙箱：带课程模块和 plot.* 的 Lua 提示符",
     .hint_en = "sandbox", .hint_zh = "沙箱"},
    {.keys = {'L'}, .run = lang_key,
     .en = "switch language: English / 中文", .zh = "切换语言：English / 中文"},
};

const struct tui_keymap tui_app_keys = TUI_KEYMAP("Tutor", "教学界面", TUI_TO_SCREEN, app_rows);

/* ---- drawing ------------------------------------------------------------------------------ */

static void fold_into(const struct tui_app *a, const char *s, char *out, size_t n)
{
    char *f = a->ascii ? tui_ascii_fold(s, strlen(s), NULL, NULL) : NULL;
    snprintf(out, n, "%s", f ? f : s);
    free(f);
}

static void draw_bars(struct tui_app *a)
{
    char left[512], right[256], tmp[512];
    int cols = a->lay.cols;
    a->view->title(a, tmp, sizeof tmp);
    fold_into(a, tmp, left, sizeof left);
    /* the header strip: the view's title, SIMULATED once for the whole screen, the language */
    bool sim = strstr(a->backend, "SIMULATED") != NULL;
    const char *lang = a->ascii ? "EN" : TUI_TR(a, "EN  L:中文", "中文  L:EN");
    tui_term_title_bar(a->lay.title.y, cols, left, lang, sim, tui_app_zh(a), TS_TITLE);

    /* the backend whole when it leaves the key hints a third of the line, else its short form
     * ("SIM · rtx3090"): the status bar drops words before it cuts one */
    char shortb[256], nosim[256];
    tui_backend_nosim(a->backend, nosim, sizeof nosim);
    const char *be = nosim;
    if (tui_width(be, strlen(be)) + 4 > cols - cols / 3) {
        tui_backend_short(a->backend, tmp, sizeof tmp);
        tui_backend_nosim(tmp, shortb, sizeof shortb); /* "SIM · rtx3090" -> "rtx3090" */
        be = shortb;
    }
    fold_into(a, *a->notice ? a->notice : be, left, sizeof left);
    if (*a->notice) { /* the backend stays on screen, on the right, while a notice shows */
        snprintf(tmp, sizeof tmp, "%s", nosim);
    } else { /* key hints, as many as leave the backend whole (a third of the line at least) */
        struct tui_targets t;
        const struct tui_keymap *const *ctx = a->help.open ? tui_help_keys : a->view->keys(a, NULL, &t);
        int room = cols - tui_width(left, strlen(left)) - 4;
        tui_keys_hints(ctx, tui_app_zh(a), "  ", room > cols / 3 ? room : cols / 3, tmp, sizeof tmp);
    }
    fold_into(a, tmp, right, sizeof right);
    bool bad = *a->notice && !strcmp(a->notice, a->notice_bad);
    tui_term_bar(a->lay.status.y, cols, left, right, bad ? TS_BAD : TS_STATUS);
}

void tui_app_error(struct tui_app *a, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(a->notice, sizeof a->notice, fmt, ap);
    va_end(ap);
    memcpy(a->notice_bad, a->notice, sizeof a->notice_bad);
}

void tui_app_divider(struct tui_app *a)
{
    const struct tui_rect *d = &a->lay.divider;
    const struct tui_glyphs *g = tui_glyphs(a->ascii);
    const char *c = a->lay.mode == TUI_SIDE ? g->v : g->h;
    for (int y = d->y; y < d->y + d->h; y++)
        for (int x = d->x; x < d->x + d->w; x++) tui_term_put(y, x, 1, c, strlen(c), NULL, TS_RULE);
}

/* ---- the loop's operations ------------------------------------------------------------------ */

static void draw(void *ud)
{
    struct tui_app *a = ud;
    tui_layout_compute(LINES, COLS, &a->lay);
    a->view->draw(a);
    draw_bars(a);
    if (a->help.open) tui_help_draw(&a->help, &a->lay.help, tui_app_zh(a), a->ascii);
}

static void key(void *ud, const struct tui_key *k)
{
    struct tui_app *a = ud;
    a->notice[0] = 0;
    if (a->help.open) {
        tui_help_key(&a->help, k);
        return;
    }
    struct tui_targets t = {a, NULL, NULL};
    const struct tui_view *v = a->view;
    if (tui_keys_dispatch(v->keys(a, k, &t), &t, k) == &tui_scroll_keys && v->scrolled)
        v->scrolled(a, t.scroll);
}

static bool view_busy(const struct tui_app *a, const struct tui_view *v)
{
    return v->busy && v->busy(a);
}

static bool tick(void *ud)
{
    struct tui_app *a = ud;
    bool changed = false;
    for (int i = 0; i < NVIEWS; i++)
        if (view_busy(a, views[i]) && views[i]->tick && views[i]->tick(a)) changed = true;
    changed |= a->dirty;
    a->dirty = false;
    return changed;
}

static bool busy(void *ud)
{
    for (int i = 0; i < NVIEWS; i++)
        if (view_busy(ud, views[i])) return true;
    return false;
}
static bool quit(void *ud) { return ((struct tui_app *)ud)->quit; }

static void back(void *ud)
{
    struct tui_app *a = ud;
    a->notice[0] = 0;
    if (a->help.open) a->help.open = false;
    else a->view->back(a);
}

static bool cursor(void *ud, int *y, int *x)
{
    const struct tui_app *a = ud;
    return !a->help.open && a->view->cursor && a->view->cursor(a, y, x);
}

/* ---- actions ------------------------------------------------------------------------------ */

void tui_app_open_entry(struct tui_app *a, int i)
{
    if (!tui_lesson_view.open(a, i)) {
        tui_app_error(a, "out of memory");
        tui_app_show(a, &tui_menu_view);
        return;
    }
    if (i >= 0) a->menu_sel = i;
    tui_app_show(a, &tui_lesson_view);
}

/* ---- results kept across visits ----------------------------------------------------------- */

struct tui_kept {
    char *key; /* "lesson path\nexperiment id" */
    struct tui_kept_run r;
};

static char *kept_key(const char *lesson, const char *exp, int block)
{
    char idx[16];
    snprintf(idx, sizeof idx, "#%d", block);
    if (!exp || !*exp) exp = idx;
    if (!lesson) lesson = "";
    size_t n = strlen(lesson) + strlen(exp) + 2;
    char *k = malloc(n);
    if (k) snprintf(k, n, "%s\n%s", lesson, exp);
    return k;
}

static int kept_find(const struct tui_app *a, const char *key)
{
    for (int i = 0; key && i < a->nkept; i++)
        if (!strcmp(a->kept[i].key, key)) return i;
    return -1;
}

static void kept_free(struct tui_kept *k)
{
    tui_panelset_free(k->r.ps);
    tui_evlog_free(k->r.log);
    free(k->r.err), free(k->key);
}

bool tui_kept_put(struct tui_app *a, const char *lesson, const char *exp, int block,
                  struct tui_kept_run *r)
{
    char *key = kept_key(lesson, exp, block);
    if (!key) return false;
    int i = kept_find(a, key);
    if (i < 0) { /* one entry per experiment: the catalog bounds how many */
        struct tui_kept *n = realloc(a->kept, (size_t)(a->nkept + 1) * sizeof *n);
        if (!n) {
            free(key);
            return false;
        }
        a->kept = n, i = a->nkept++;
    } else {
        kept_free(&a->kept[i]);
    }
    a->kept[i] = (struct tui_kept){key, *r};
    memset(r, 0, sizeof *r);
    return true;
}

bool tui_kept_take(struct tui_app *a, const char *lesson, const char *exp, int block,
                   struct tui_kept_run *out)
{
    char *key = kept_key(lesson, exp, block);
    int i = kept_find(a, key);
    free(key);
    if (i < 0) return false;
    free(a->kept[i].key);
    *out = a->kept[i].r;
    a->kept[i] = a->kept[--a->nkept];
    return true;
}

void tui_kept_clear(struct tui_app *a)
{
    for (int i = 0; i < a->nkept; i++) kept_free(&a->kept[i]);
    free(a->kept);
    a->kept = NULL, a->nkept = 0;
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
    if (!a->has_offer || (a->opts->replay && !a->offered)) { /* --replay stays as given */
        snprintf(a->notice, sizeof a->notice, "%s",
                 TUI_TR(a, "No shipped recording is offered here.", "这里没有可回放的随附记录。"));
        return;
    }
    if (busy(a)) {
        snprintf(a->notice, sizeof a->notice, "%s",
                 TUI_TR(a, "An experiment is running (Esc cancels it first).", "有实验在运行（先按 Esc 取消）。"));
        return;
    }
    tui_kept_clear(a); /* results from the other source must not show as this one's */
    if (a->offered) { /* back to the simulator */
        tui_replay_free(a->offered);
        a->offered = NULL;
        a->opts_own.replay = NULL;
        a->replay_label[0] = 0;
        lt_runtime_backend_line(a->rt, a->backend, sizeof a->backend);
    } else if (!(a->offered = tui_replay_load(a->offer.path, err, sizeof err))) {
        tui_app_error(a, "%s", err);
        return;
    } else {
        a->opts_own.replay = a->offered;
        tui_replay_label(a->offered, a->replay_label, sizeof a->replay_label);
        snprintf(a->backend, sizeof a->backend, "%s", a->replay_label);
    }
    a->menu_width = 0; /* the menu shows the source */
}

/* ---- start and end ------------------------------------------------------------------------ */

static void open_initial(struct tui_app *a)
{
    const char *want = a->opts->open_lesson;
    if (!want || !*want) return;
    for (int i = 0; i < a->ncat; i++)
        if ((a->cat[i].id && !strcmp(a->cat[i].id, want)) || (a->cat[i].path && !strcmp(a->cat[i].path, want))) {
            tui_app_open_entry(a, i);
            return;
        }
    size_t n = strlen(want);
    if (strchr(want, '/') || (n > 4 && !strcmp(want + n - 4, ".lua"))) {
        tui_app_open_entry(a, -1); /* a file outside the catalog */
        return;
    }
    tui_app_error(a, TUI_TR(a, "No lesson '%s' (see the list below).", "没有课程“%s”（见下面的目录）。"), want);
}

int tui_run(struct lt_runtime *rt, const struct tui_opts *opts)
{
    struct tui_app a;
    memset(&a, 0, sizeof a);
    a.rt = rt, a.opts_own = *opts, a.opts = &a.opts_own, a.view = &tui_menu_view;
    setlocale(LC_CTYPE, ""); /* wide characters; main() may have done it already */
    a.ncat = lt_catalog_scan(rt, opts->lessons_dir ? opts->lessons_dir : "lessons", &a.cat);
    if (a.ncat < 0) a.ncat = 0;
    char cerr[4600]; /* a course.lua that is wrong is the catalog's one error entry */
    if (lt_course_read(opts->lessons_dir ? opts->lessons_dir : "lessons", &a.course, cerr, sizeof cerr) < 0)
        lt_course_free(&a.course);
    a.progress = calloc((size_t)a.ncat + 1, 1);
    lt_runtime_backend_line(rt, a.backend, sizeof a.backend);
    if (opts->replay) { /* never shown as this machine's numbers */
        tui_replay_label(opts->replay, a.replay_label, sizeof a.replay_label);
        snprintf(a.backend, sizeof a.backend, "%s", a.replay_label);
    }
    find_offer(&a);
    char pnote[1400];
    a.saved = tui_progress_open(pnote, sizeof pnote);
    char err[256];
    if (!a.progress || !tui_term_init(err, sizeof err)) {
        fprintf(stderr, "vramlab: %s. The tutor needs a terminal that can draw a screen; "
                        "`vramlab list` and `vramlab run 1.3` work anywhere.\n",
                a.progress ? err : "out of memory");
        if (a.cat) lt_catalog_free(a.cat, a.ncat);
    lt_course_free(&a.course);
        lt_course_free(&a.course);
        free(a.progress);
        tui_progress_free(a.saved);
        return 3;
    }
    compute_marks(&a);
    if (pnote[0]) /* a damaged or newer progress file: said once, on the status line */
        tui_app_error(&a, "%s", pnote);
    else if (opts->warning && *opts->warning) /* a teacher's profile named as a built-in one */
        tui_app_error(&a, "%s", opts->warning);
    a.ascii = !tui_term_utf8();
    if (a.ascii && !strcmp(lt_runtime_lang(rt), "zh")) {
        lt_runtime_set_lang(rt, "en");
        snprintf(a.notice, sizeof a.notice,
                 "Chinese text needs a UTF-8 terminal (e.g. LANG=C.UTF-8); showing English.");
    }
    lt_runtime_set_async(rt, true);
    lt_runtime_set_sink(rt, sink, &a);
    open_initial(&a);

    struct tui_screen_ops ops = {
        .ud = &a, .rt = rt, .draw = draw, .key = key, .quit = quit, .tick = tick,
        .busy = busy, .back = back, .cursor = cursor, .anim_ms = 125, /* the spinners */
        .min_rows = TUI_MIN_ROWS, .min_cols = TUI_MIN_COLS,
    };
    int rc = tui_loop_run(&ops);
    for (int i = 0; i < NVIEWS; i++)
        if (views[i]->close) views[i]->close(&a);
    tui_kept_clear(&a); /* after the lesson view's close, which keeps its results there */
    lt_runtime_set_sink(rt, NULL, NULL);
    lt_runtime_set_async(rt, false);
    tui_term_done();
    tui_lines_free(&a.menu_lines);
    if (a.cat) lt_catalog_free(a.cat, a.ncat);
    lt_course_free(&a.course);
    free(a.progress);
    tui_progress_free(a.saved);
    tui_replay_free(a.offered);
    return rc;
}
