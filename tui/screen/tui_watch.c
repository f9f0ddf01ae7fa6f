/* tui_watch.c - `vramlab watch [DIR]`: the current exercise of the workspace, re-checked each
 * time its file changes (stat polled at 4 Hz: works on every file system and editor, including
 * the ones that save by rename), graded by the lesson's own check inside the sandbox, the
 * attempt recorded in the saved progress. The check runs as the tutor's grading does: a task
 * stepped from the loop (Lua in slices, measurements on the worker), "checking…" on the status
 * line, Esc cancels it, keys answer meanwhile. Its keys are the tables below (? lists them); it
 * runs in the shared event loop. An untouched file is "not started", not a failed try. */
#include "tui_workspace.h"

#include <curses.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "gpu_file.h"
#include "tui.h"
#include "tui_help.h"
#include "tui_loop.h"
#include "tui_progress.h"
#include "tui_render.h"
#include "tui_scroll.h"
#include "tui_term.h"
#include "tui_wrap.h"

#define OUT_MAX 6 /* print() lines of the last check that are shown */

enum wstate { W_NEW, W_MISSING, W_FAIL, W_PASS, W_CANCELLED, W_BROKEN };

struct watch {
    struct lt_runtime *rt;
    const char *ws_dir;
    struct tui_ws_item *it;
    int n, cur;
    struct lt_lesson *ls;
    char *template_text;
    struct stat seen;
    bool have_seen;
    enum wstate state;
    int tries;
    char fb[4096];
    char when[16];
    int hints;
    char out[OUT_MAX][256];
    int nout;
    bool list;
    int list_sel;
    struct tui_scroll sc, list_sc;
    struct tui_help help;
    struct tui_progress *prog;
    char notice[512], backend[256];
    char notice_bad[512]; /* the last error given: the notice is in the error style only while it is that */
    bool ascii, zh, quit, dirty;
    bool grading; /* a check runs (stepped by tick) */
};

#define TR(w, en, zh_) ((w)->zh ? (zh_) : (en))

static void sink(void *ud, const struct lt_event *ev)
{
    struct watch *w = ud;
    if (ev->type != LT_EV_PRINT) return;
    if (w->nout == OUT_MAX) {
        memmove(w->out, w->out + 1, sizeof w->out[0] * (OUT_MAX - 1));
        w->nout--;
    }
    char *t = lt_event_text(ev, w->zh, "\u2400"); /* NUL bytes shown, and what follows them */
    snprintf(w->out[w->nout++], sizeof w->out[0], "%s", t ? t : lt_tx(ev->text, w->zh));
    free(t);
}

static bool solved(const struct watch *w, int i)
{
    return w->prog && tui_progress_exercise_solved(w->prog, w->it[i].lesson, w->it[i].exercise);
}

/* An error or a warning on the status line (plain snprintf into notice is information). */
static void bad(struct watch *w, const char *msg)
{
    snprintf(w->notice, sizeof w->notice, "%s", msg);
    memcpy(w->notice_bad, w->notice, sizeof w->notice_bad);
}

static void save_progress(struct watch *w)
{
    char err[1200];
    if (w->prog && !tui_progress_save(w->prog, err, sizeof err))
        bad(w, err);
}

static void finish(struct watch *w, enum lt_run_state st, const char *err);

/* Read, and grade when it changed. `force`: grade even when the file looks the same. */
static void check(struct watch *w, bool force)
{
    if (w->grading) return; /* a save meanwhile is seen when this check ends */
    const struct tui_ws_item *it = &w->it[w->cur];
    struct stat st;
    if (stat(it->file, &st) != 0) {
        if (w->state != W_MISSING) w->dirty = true;
        w->state = W_MISSING, w->have_seen = false;
        return;
    }
    /* an editor or a shell that truncates before it writes shows an empty file for a moment:
     * not an attempt (the write that follows is) */
    if (!force && st.st_size == 0) return;
    if (!force && w->have_seen && st.st_mtim.tv_sec == w->seen.st_mtim.tv_sec &&
        st.st_mtim.tv_nsec == w->seen.st_mtim.tv_nsec && st.st_size == w->seen.st_size &&
        st.st_ino == w->seen.st_ino)
        return;
    w->seen = st, w->have_seen = true, w->dirty = true;
    char err[1024];
    char *src = gpu_file_read(it->file, LT_MAX_FILE, 0, NULL, err, sizeof err);
    if (!src) {
        w->state = W_FAIL;
        snprintf(w->fb, sizeof w->fb, "%s", err);
        return;
    }
    time_t now = time(NULL);
    struct tm tm;
    if (!localtime_r(&now, &tm) || !strftime(w->when, sizeof w->when, "%H:%M:%S", &tm))
        snprintf(w->when, sizeof w->when, "?");
    if (w->template_text && !strcmp(src, w->template_text)) {
        w->state = W_NEW;
        free(src);
        return;
    }
    if (!w->ls) {
        w->state = W_FAIL;
        free(src);
        return;
    }
    /* the check may take a while (a measurement, a loop the sandbox stops): a task stepped from
     * the loop, as the tutor grades, so keys answer and Esc cancels it */
    w->nout = 0;
    lt_runtime_set_sink(w->rt, sink, w);
    enum lt_run_state rs = lt_lesson_answer_start(w->ls, it->block, src, err, sizeof err);
    free(src); /* the grading holds its own copy */
    w->grading = true;
    if (rs != LT_RUN_BUSY) finish(w, rs, err);
}

/* The check ended (or never started: FAILED with err): its feedback, a try, the progress. */
static void finish(struct watch *w, enum lt_run_state st, const char *err)
{
    const struct tui_ws_item *it = &w->it[w->cur];
    w->grading = false;
    lt_runtime_set_sink(w->rt, NULL, NULL);
    w->dirty = true;
    if (st == LT_RUN_CANCELLED) { /* not graded, not a try: the file is checked again on r */
        w->state = W_CANCELLED;
        snprintf(w->fb, sizeof w->fb, "%s", TR(w, "Cancelled: not graded, not counted as a try (r checks again).",
                                                  "已取消：未评分，不计入尝试次数（r 重新检查）。"));
        return;
    }
    bool ok = lt_lesson_answer_result(w->ls, w->fb, sizeof w->fb);
    struct lt_answer_info ai;
    if (!ok && *w->fb && lt_lesson_answer_info(w->ls, &ai) && ai.broken) {
        w->state = W_BROKEN; /* the lesson's own check raised: the teacher's mistake, no try */
        return;
    }
    if (!*w->fb) snprintf(w->fb, sizeof w->fb, "%s", err); /* it stopped: why */
    w->tries++;
    w->state = ok ? W_PASS : W_FAIL;
    const char *base = strrchr(it->file, '/');
    if (w->prog) {
        tui_progress_attempt(w->prog, it->lesson, it->exercise, ok, base ? base + 1 : it->file);
        save_progress(w);
    }
}

/* Cancel a check that runs (Esc, another exercise, quitting). */
static void cancel(struct watch *w)
{
    if (!w->grading) return;
    lt_lesson_run_cancel(w->ls);
    finish(w, LT_RUN_CANCELLED, "");
}

static void open_current(struct watch *w)
{
    char err[1024];
    const struct tui_ws_item *it = &w->it[w->cur];
    cancel(w);
    lt_lesson_free(w->ls);
    free(w->template_text);
    w->template_text = NULL;
    w->ls = lt_lesson_load(w->rt, it->lesson_path, err, sizeof err);
    w->state = W_NEW, w->tries = 0, w->hints = 0, w->nout = 0, w->have_seen = false;
    tui_scroll_to(&w->sc, 0);
    w->fb[0] = w->when[0] = 0;
    if (!w->ls) {
        bad(w, err);
    } else {
        w->template_text = tui_ws_template(w->ls, it->block, lt_runtime_lang(w->rt));
        if (w->prog) tui_progress_visit(w->prog, it->lesson), save_progress(w);
    }
    check(w, true);
    w->dirty = true;
}

/* ---- drawing -------------------------------------------------------------------------------- */

static void para(struct watch *w, struct tui_lines *L, const char *s, int style, const char *first,
                 int width)
{
    struct tui_render_opts o = {width, w->zh ? "zh" : "en", w->ascii, -1};
    tui_render_para(L, s, strlen(s), style, true, first, style, &o);
}

static void blank(struct tui_lines *L)
{
    struct tui_lb b = {.L = L};
    tui_lb_end(&b, -1, TUI_LK_TEXT, 0);
}

static void build(struct watch *w, struct tui_lines *L, int width)
{
    const struct tui_ws_item *it = &w->it[w->cur];
    const struct tui_glyphs *g = tui_glyphs(w->ascii);
    char buf[4600];
    struct lt_exercise_info x;
    bool have = w->ls && lt_lesson_exercise(w->ls, it->block, &x);
    snprintf(buf, sizeof buf, "%s%s%s%s%s", TR(w, "File: ", "文件："), it->file,
             *w->when ? TR(w, "   (checked ", "   （检查于 ") : "", w->when,
             *w->when ? TR(w, ")", "）") : "");
    para(w, L, buf, TS_DIM, "", width);
    blank(L);
    switch (w->grading ? -1 : (int)w->state) {
    case -1: /* a check runs: the status line says how to cancel it */
        snprintf(buf, sizeof buf, "%s %s", w->ascii ? "..." : "…",
                 TR(w, "Checking the file with the lesson's check.", "正在用课程的检查程序检查文件。"));
        para(w, L, buf, TS_DIM, "", width);
        break;
    case W_NEW:
        snprintf(buf, sizeof buf, "%s %s", w->ascii ? "o" : "○",
                 TR(w, "Not started: open the file in your editor, write the function, save. "
                       "Every save is checked at once.",
                    "尚未开始：用编辑器打开文件，写好函数并保存。每次保存都会立即检查。"));
        para(w, L, buf, TS_EM, "", width);
        break;
    case W_MISSING:
        snprintf(buf, sizeof buf, "%s %s `vramlab exercises %s`", g->cross_mark,
                 TR(w, "The file is missing. Put it back with", "文件不见了。恢复它："), w->ws_dir);
        para(w, L, buf, TS_BAD, "", width);
        break;
    case W_FAIL:
        snprintf(buf, sizeof buf, "%s %s (%s %d)", g->cross_mark,
                 TR(w, "Not passing yet", "还没通过"), TR(w, "try", "第几次："), w->tries);
        para(w, L, buf, TS_BAD, "", width);
        if (*w->fb) para(w, L, w->fb, TS_PLAIN, "  ", width);
        break;
    case W_BROKEN: /* the lesson's mistake, not the learner's: the warning colour, no cross */
        snprintf(buf, sizeof buf, "! %s", w->fb);
        para(w, L, buf, TS_WARN_LABEL, "", width);
        break;
    case W_CANCELLED:
        snprintf(buf, sizeof buf, "%s %s", w->ascii ? "o" : "○", w->fb);
        para(w, L, buf, TS_EM, "", width);
        break;
    case W_PASS:
        snprintf(buf, sizeof buf, "%s %s", g->check,
                 w->cur + 1 < w->n ? TR(w, "Passed! n: the next exercise", "通过！按 n 进入下一题")
                                   : TR(w, "Passed! That was the last exercise.", "通过！这是最后一题。"));
        para(w, L, buf, TS_GOOD, "", width);
        if (*w->fb) para(w, L, w->fb, TS_PLAIN, "  ", width);
        break;
    }
    if (w->nout) {
        blank(L);
        para(w, L, TR(w, "Output of print():", "print() 的输出："), TS_DIM, "", width);
        for (int i = 0; i < w->nout; i++) para(w, L, w->out[i], TS_CODE, "  ", width);
    }
    if (have && w->hints) {
        blank(L);
        for (int i = 0; i < w->hints && i < x.nhints; i++) {
            snprintf(buf, sizeof buf, TR(w, "Hint %d/%d: ", "提示 %d/%d："), i + 1, x.nhints);
            char first[64];
            snprintf(first, sizeof first, "%s", buf);
            para(w, L, x.hints[i] ? x.hints[i] : "", TS_PLAIN, first, width);
        }
    }
    blank(L);
    snprintf(buf, sizeof buf, "%s %s · %s", it->lesson, it->title, it->exercise);
    para(w, L, buf, TS_H2, "", width);
    if (have && x.prompt) {
        struct tui_render_opts o = {width, w->zh ? "zh" : "en", w->ascii, -1};
        tui_render_markup(L, x.prompt, strlen(x.prompt), &o);
    }
}

static void build_list(struct watch *w, struct tui_lines *L, int width)
{
    const struct tui_glyphs *g = tui_glyphs(w->ascii);
    para(w, L, TR(w, "Exercises (Enter opens, Esc closes)", "练习列表（Enter 打开，Esc 关闭）"), TS_H2,
         "", width);
    for (int i = 0; i < w->n; i++) {
        char line[512], first[32];
        const char *base = strrchr(w->it[i].file, '/');
        snprintf(first, sizeof first, "%s %s ", i == w->cur ? g->arrow : " ",
                 solved(w, i) ? g->check : (w->ascii ? "o" : "○"));
        snprintf(line, sizeof line, "%-6s %-22s %s", w->it[i].lesson, w->it[i].exercise,
                 base ? base + 1 : w->it[i].file);
        int at = L->n;
        para(w, L, line, TS_PLAIN, first, width);
        for (int k = at; k < L->n; k++) L->v[k].block = i;
    }
}

static const struct tui_keymap *const *keys(const struct watch *w);

static void draw(void *ud)
{
    struct watch *w = ud;
    int rows = LINES, cols = COLS;
    char left[512], right[256];
    int done = 0;
    for (int i = 0; i < w->n; i++) done += solved(w, i);
    snprintf(left, sizeof left, "vramlab watch · %d/%d · %s %s · %s %d/%d", w->cur + 1, w->n,
             w->it[w->cur].lesson, w->it[w->cur].exercise, TR(w, "solved", "已完成"), done, w->n);
    char *f = w->ascii ? tui_ascii_fold(left, strlen(left), NULL, NULL) : NULL;
    tui_term_title_bar(0, cols, f ? f : left, "", strstr(w->backend, "SIMULATED") != NULL, w->zh, TS_TITLE);
    free(f);
    struct tui_lines L = {0};
    int width = cols - 2, body = rows - 2;
    struct tui_scroll *sc = w->list ? &w->list_sc : &w->sc;
    if (w->list) build_list(w, &L, width);
    else build(w, &L, width);
    tui_scroll_resize(sc, L.n, body);
    if (w->list) { /* keep the selection on screen */
        int first = -1, last = -1;
        for (int i = 0; i < L.n; i++)
            if (L.v[i].block == w->list_sel) last = i, first = first < 0 ? i : first;
        if (first >= 0) tui_scroll_show(sc, first, last, 0);
    }
    for (int i = 0; i < body; i++) {
        int li = sc->top + i;
        const struct tui_line *l = li < L.n ? &L.v[li] : NULL;
        bool sel = w->list && l && l->block == w->list_sel;
        if (sel) tui_term_extra(A_REVERSE);
        tui_term_line(1 + i, 1, cols - 1, l, TS_PLAIN);
        if (sel) tui_term_extra(0);
    }
    tui_scroll_marks(sc, 1, cols - 1, body, w->ascii);
    tui_lines_free(&L);
    tui_keys_hints(w->help.open ? tui_help_keys : keys(w), w->zh, "  ", cols / 2, right, sizeof right);
    char nosim[sizeof w->backend]; /* SIMULATED is the header strip's */
    tui_backend_nosim(w->backend, nosim, sizeof nosim);
    const char *status = w->grading ? TR(w, "checking… (Esc cancels)", "检查中…（Esc 取消）")
                         : *w->notice ? w->notice : nosim;
    tui_term_bar(rows - 1, cols, status, right,
                 !w->grading && *w->notice && !strcmp(w->notice, w->notice_bad) ? TS_BAD : TS_STATUS);
    if (w->help.open) {
        struct tui_layout lay;
        tui_layout_compute(rows, cols, &lay);
        tui_help_draw(&w->help, &lay.help, w->zh, w->ascii);
    }
}

/* ---- keys ------------------------------------------------------------------------------------ */

static void go(struct watch *w, int to)
{
    if (to < 0 || to >= w->n) {
        snprintf(w->notice, sizeof w->notice, "%s",
                 to < 0 ? TR(w, "This is the first exercise.", "已是第一题。")
                        : TR(w, "This is the last exercise.", "已是最后一题。"));
        return;
    }
    w->cur = to;
    open_current(w);
}

static void quit_key(void *ud, const struct tui_key *k)
{
    struct watch *w = ud;
    cancel(w);
    w->quit = true;
}

static void cancel_key(void *ud, const struct tui_key *k) { cancel(ud); }

static void next(void *ud, const struct tui_key *k)
{
    struct watch *w = ud;
    go(w, w->cur + 1);
}

static void prev(void *ud, const struct tui_key *k)
{
    struct watch *w = ud;
    go(w, w->cur - 1);
}

static void list_open(void *ud, const struct tui_key *k)
{
    struct watch *w = ud;
    w->list = true, w->list_sel = w->cur;
}

static void recheck(void *ud, const struct tui_key *k)
{
    cancel(ud);
    check(ud, true);
}

static void hint(void *ud, const struct tui_key *k)
{
    struct watch *w = ud;
    struct lt_exercise_info x;
    if (!w->ls || !lt_lesson_exercise(w->ls, w->it[w->cur].block, &x)) return;
    /* the feedback of each of the first two failing tries already gave the next hint in turn:
     * h counts those as seen and shows the one after, not the same one again */
    int seen = w->tries < 2 ? w->tries : 2;
    if (seen > x.nhints) seen = x.nhints;
    if (w->hints < seen) w->hints = seen;
    if (w->hints < x.nhints) w->hints++;
    else snprintf(w->notice, sizeof w->notice, "%s",
                  TR(w, "No more hints: every hint is shown below.", "没有更多提示了：全部提示都在下面。"));
}

static void help(void *ud, const struct tui_key *k)
{
    struct watch *w = ud;
    const struct tui_keymap *const *ctx[] = {keys(w)};
    tui_help_open(&w->help, ctx, 1, NULL, 0);
}

static void list_step(void *ud, const struct tui_key *k)
{
    struct watch *w = ud;
    bool up = k->code == TUI_KEY_FN(KEY_UP) || k->code == 'k';
    if (up && w->list_sel > 0) w->list_sel--;
    if (!up && w->list_sel + 1 < w->n) w->list_sel++;
}

static void list_pick(void *ud, const struct tui_key *k)
{
    struct watch *w = ud;
    w->list = false;
    go(w, w->list_sel);
}

static void list_close(void *ud, const struct tui_key *k) { ((struct watch *)ud)->list = false; }

static const struct tui_binding rows[] = {
    {.keys = {'h'}, .run = hint, .en = "one more hint", .zh = "再看一条提示", .hint_en = "hint",
     .hint_zh = "提示"},
    {.keys = {'n', TUI_KEY_FN(KEY_RIGHT)}, .run = next, .en = "next exercise", .zh = "下一题",
     .hint_en = "next", .hint_zh = "下一题"},
    {.keys = {'p', TUI_KEY_FN(KEY_LEFT)}, .run = prev, .en = "previous exercise", .zh = "上一题"},
    {.keys = {'l'}, .run = list_open, .en = "list every exercise", .zh = "列出所有练习",
     .hint_en = "list", .hint_zh = "列表"},
    {.keys = {'r'}, .run = recheck, .en = "check the file again now", .zh = "立即重新检查文件"},
    {.keys = {'?', TUI_KEY_FN(KEY_F(1))}, .run = help, .en = "this help", .zh = "本帮助"},
    {.keys = {'q', TUI_KEY_ESC}, .run = quit_key, .en = "quit", .zh = "退出", .hint_en = "quit",
     .hint_zh = "退出"},
};

static const struct tui_binding list_rows[] = {
    {.keys = {TUI_KEY_FN(KEY_UP), TUI_KEY_FN(KEY_DOWN), 'k', 'j'}, .run = list_step,
     .en = "previous / next exercise", .zh = "上一题 / 下一题"},
    {.keys = {TUI_KEY_ENTER}, .run = list_pick, .en = "open the selected exercise",
     .zh = "打开选中的练习", .hint_en = "open", .hint_zh = "打开"},
    {.keys = {TUI_KEY_ESC, 'l'}, .run = list_close, .en = "close the list", .zh = "关闭列表",
     .hint_en = "close", .hint_zh = "关闭"},
    {.keys = {'q'}, .run = quit_key, .en = "quit", .zh = "退出", .hint_en = "quit", .hint_zh = "退出"},
};

/* while a check runs: Esc cancels it; the other keys are the usual ones */
static const struct tui_binding checking_rows[] = {
    {.keys = {TUI_KEY_ESC}, .run = cancel_key, .en = "cancel the check", .zh = "取消检查",
     .hint_en = "cancel", .hint_zh = "取消"},
};

static const struct tui_keymap watch_keys = TUI_KEYMAP("Watch", "练习监视", TUI_TO_SCREEN, rows);
static const struct tui_keymap checking_keys =
    TUI_KEYMAP("Checking", "检查中", TUI_TO_SCREEN, checking_rows);
static const struct tui_keymap list_keys =
    TUI_KEYMAP("Exercise list", "练习列表", TUI_TO_SCREEN, list_rows);

const struct tui_keymap *const tui_watch_keys[] = {&watch_keys, &tui_scroll_keys, &tui_loop_keys,
                                                   NULL};
const struct tui_keymap *const tui_watch_list_keys[] = {&list_keys, &tui_loop_keys, NULL};
const struct tui_keymap *const tui_watch_checking_keys[] = {&checking_keys, &watch_keys,
                                                            &tui_scroll_keys, &tui_loop_keys, NULL};

static const struct tui_keymap *const *keys(const struct watch *w)
{
    return w->list ? tui_watch_list_keys : w->grading ? tui_watch_checking_keys : tui_watch_keys;
}

static void key(void *ud, const struct tui_key *k)
{
    struct watch *w = ud;
    w->notice[0] = 0;
    if (w->help.open) {
        tui_help_key(&w->help, k);
        return;
    }
    struct tui_targets t = {w, &w->sc, NULL};
    tui_keys_dispatch(keys(w), &t, k);
}

static bool tick(void *ud)
{
    struct watch *w = ud;
    if (w->grading) {
        char err[1024] = "";
        enum lt_run_state st = lt_lesson_run_step(w->ls, err, sizeof err);
        if (st != LT_RUN_BUSY) finish(w, st, err);
    } else {
        check(w, false);
    }
    bool d = w->dirty;
    w->dirty = false;
    return d;
}

static bool busy(void *ud) { return ((struct watch *)ud)->grading; }

static bool quit(void *ud) { return ((struct watch *)ud)->quit; }

int tui_watch(struct lt_runtime *rt, const char *lessons_dir, const char *ws_dir)
{
    struct watch w;
    memset(&w, 0, sizeof w);
    w.rt = rt, w.ws_dir = ws_dir, w.zh = !strcmp(lt_runtime_lang(rt), "zh");
    if (!isatty(STDOUT_FILENO) || !isatty(STDIN_FILENO)) {
        fprintf(stderr, "vramlab: watch needs a terminal; `vramlab grade LESSON EXERCISE @FILE` "
                        "checks one file anywhere\n");
        return 3;
    }
    struct stat st;
    if (stat(ws_dir, &st) != 0) {
        /* a first `watch` without `exercises`: make the workspace rather than fail */
        int rc = tui_ws_create(rt, lessons_dir, ws_dir, NULL);
        if (rc) return rc;
        snprintf(w.notice, sizeof w.notice, TR(&w, "Created the exercise files in %s", "已在 %s 创建练习文件"), ws_dir);
    }
    w.n = tui_ws_scan(rt, lessons_dir, ws_dir, &w.it);
    if (w.n <= 0) {
        fprintf(stderr, "vramlab: %s\n", w.n < 0 ? "out of memory" : "no code exercises found");
        return w.n < 0 ? 1 : 3;
    }
    char note[1400], err[256];
    w.prog = tui_progress_open(note, sizeof note);
    if (note[0]) bad(&w, note);
    lt_runtime_backend_line(rt, w.backend, sizeof w.backend);
    for (w.cur = 0; w.cur < w.n && solved(&w, w.cur); w.cur++) {}
    if (w.cur == w.n) {
        w.cur = 0;
        snprintf(w.notice, sizeof w.notice, TR(&w, "All %d exercises solved. l lists them.", "%d 道练习全部完成。按 l 查看列表。"), w.n);
    }
    if (!tui_term_init(err, sizeof err)) {
        fprintf(stderr, "vramlab: %s. watch needs a terminal.\n", err);
        tui_ws_free(w.it, w.n);
        tui_progress_free(w.prog);
        return 3;
    }
    w.ascii = !tui_term_utf8();
    lt_runtime_set_async(rt, true); /* measurements on the worker, Lua in slices: keys answer */
    struct tui_screen_ops ops = {
        .ud = &w, .rt = rt, .draw = draw, .key = key, .quit = quit, .tick = tick, .busy = busy,
        .idle_ms = 250, /* 4 Hz: a save shows within a quarter second */
        .min_rows = 6, .min_cols = 30,
    };
    char keep[512];
    snprintf(keep, sizeof keep, "%s", w.notice);
    open_current(&w);
    if (!w.notice[0]) snprintf(w.notice, sizeof w.notice, "%s", keep); /* notice_bad kept too */
    int rc = tui_loop_run(&ops);
    cancel(&w); /* a quit signal ends the loop with a check running */
    tui_term_done();
    lt_lesson_free(w.ls);
    free(w.template_text);
    tui_ws_free(w.it, w.n);
    tui_progress_free(w.prog);
    return rc;
}
