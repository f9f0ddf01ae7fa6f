/* tui_lesson.c - the lesson view: the explanation on the left (text blocks rendered in order, an
 * experiment as a "[ Enter ▶ Run: title ]" line, an exercise with an inline answer field and its
 * feedback), the live panel of the selected or running experiment on the right. The text is
 * rendered to lines once per width/language/state change and scrolled as lines. */
#include <ctype.h>
#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tui_app.h"
#include "tui_file.h"
#include "tui_lineedit.h"
#include "tui_text.h"
#include "tui_state.h"
#include "tui_run.h"
#include "tui_term.h"
#include "tui_workspace.h"
#include "tui_wrap.h"

#define EDIT_MAX 255

/* What the view keeps per lesson block. */
struct block_state {
    struct tui_panelset *ps; /* an experiment's live panels */
    struct tui_evlog *log;   /* the events that filled them, to show them in the other language */
    char lang[4];            /* the language those events were written in */
    enum lt_run_state ran;   /* how its last run ended (LT_RUN_IDLE: never ran) */
    char *run_err;           /* why that run failed */
    char *fb[2];             /* an exercise's feedback, in English and Chinese (L shows the other) */
    bool fb_ok;
    bool fb_broken;          /* the exercise's own code raised: the teacher's mistake, not a try */
    char *answer;            /* the last answer given */
    char *graded;            /* the last answer that counted a try (Enter on it again is no try) */
    bool was_solved;         /* solved in an earlier session (saved progress) */
};

struct tui_lesson {
    struct lt_lesson *ls;
    char err[1024]; /* why the lesson did not load */
    int cat;
    int nblocks;
    struct block_state *blk;
    struct tui_lines doc;
    int doc_w;
    bool stale;
    struct tui_scroll text, panel;
    int sel, focus; /* focus 1: the live panel has the keys */
    int running, shown;
    int steps;             /* pauses the running experiment has reached (ex:pause) */
    unsigned pauses;       /* lt_runtime_pauses when the last one was counted */
    bool in_pause;         /* it waits in one now */
    bool quit_armed;       /* q during a run asked; a second q cancels it and leaves */
    int rerun_armed;       /* Enter on an experiment with results asked; Enter again runs it */
    bool zoom;             /* z: the live panel on the whole body, the text hidden */
    int grading;           /* the exercise whose answer is being graded (-1: none) */
    char *grading_answer;  /* what was typed, for saved progress */
    int grading_tries;     /* its tries before this one */
    double spin_t;         /* when the grading's spinner last turned */
    int reveal;            /* a block whose end the next draw scrolls into view (-1: none) */
    bool editing;
    int edit_block;
    struct tui_lineedit ed;
    int cur_line, cur_col; /* the answer field's cursor in doc coordinates */
    /* --replay: the recorded run being played back instead of a measurement */
    bool replaying;
    struct tui_player player;
};

static void finish_grade(struct tui_app *a, enum lt_run_state st, const char *err);
static void cancel(struct tui_app *a);
static void page_down(void *ud, const struct tui_key *k);
static void relang(struct tui_app *a, int b);
static void render_summary(struct tui_app *a, int b, const struct tui_render_opts *o);
static const char *spinner(bool ascii);

static char *xstrdup(const char *s) { return strdup(s ? s : ""); }

static void set_text(char **dst, const char *s)
{
    char *n = xstrdup(s);
    if (!n) return;
    free(*dst);
    *dst = n;
}

static int cat_index(const struct tui_app *a) { return a->lv ? a->lv->cat : -1; }

static bool lesson_busy(const struct tui_app *a)
{
    return a->lv && (a->lv->running >= 0 || a->lv->grading >= 0);
}


static bool is_exp(const struct tui_lesson *v, int b)
{
    return v->ls && b >= 0 && b < v->nblocks && lt_lesson_block_kind(v->ls, b) == LT_BLOCK_EXPERIMENT;
}

static bool is_ex(const struct tui_lesson *v, int b)
{
    return v->ls && b >= 0 && b < v->nblocks && lt_lesson_block_kind(v->ls, b) == LT_BLOCK_EXERCISE;
}

static void declare_panels(struct tui_app *a, int b)
{
    struct tui_lesson *v = a->lv;
    struct lt_panel p[32];
    int n = lt_lesson_panels(v->ls, b, p, 32);
    tui_panelset_declare(v->blk[b].ps, p, n);
}

/* Saved progress names a lesson by its id: only lessons of the catalog are recorded (a file
 * opened by path may share an id with one and must not mark it). */
static const char *saved_id(const struct tui_app *a)
{
    const struct tui_lesson *v = a->lv;
    return a->saved && v->ls && v->cat >= 0 && v->cat < a->ncat ? lt_lesson_id(v->ls) : NULL;
}

static void lesson_close(struct tui_app *a);

/* Open catalog entry cat (-1: opts->open_lesson), closing the lesson open; false: no memory.
 * A lesson that does not load is open too: the view shows why. */
static bool lesson_open(struct tui_app *a, int cat)
{
    lesson_close(a);
    struct tui_lesson *v = calloc(1, sizeof *v);
    if (!v) return false;
    v->cat = cat, v->sel = -1, v->running = -1, v->grading = -1, v->shown = -1, v->edit_block = -1;
    v->reveal = -1, v->rerun_armed = -1;
    v->stale = true;
    tui_lineedit_init(&v->ed, EDIT_MAX);
    const char *path = cat >= 0 && cat < a->ncat ? a->cat[cat].path : a->opts->open_lesson;
    v->ls = lt_lesson_load(a->rt, path, v->err, sizeof v->err);
    a->lv = v;
    a->events_to = &tui_lesson_view; /* its experiments' events */
    if (!v->ls) return true;
    v->nblocks = lt_lesson_nblocks(v->ls);
    v->blk = calloc((size_t)(v->nblocks > 0 ? v->nblocks : 1), sizeof *v->blk);
    if (!v->blk) {
        snprintf(v->err, sizeof v->err, "out of memory");
        lt_lesson_free(v->ls);
        v->ls = NULL;
        return true;
    }
    for (int b = 0; b < v->nblocks; b++) {
        if (!is_exp(v, b)) continue;
        struct block_state *s = &v->blk[b];
        struct tui_kept_run k; /* the results of an earlier visit, this session */
        if (tui_kept_take(a, path, lt_lesson_block_id(v->ls, b), b, &k)) {
            s->ps = k.ps, s->log = k.log, s->ran = k.ran, s->run_err = k.err;
            memcpy(s->lang, k.lang, sizeof s->lang);
        } else {
            s->ps = tui_panelset_new(a->ascii);
            s->log = tui_evlog_new();
            if (s->ps) tui_panelset_set_lang(s->ps, tui_app_lang(a));
            snprintf(s->lang, sizeof s->lang, "%s", tui_app_lang(a));
        }
        if (s->ps && s->ran != LT_RUN_IDLE && strcmp(s->lang, tui_app_lang(a))) relang(a, b);
        else if (s->ps) declare_panels(a, b);
        if (v->shown < 0 && s->ps) v->shown = b;
    }
    for (int b = 0; b < v->nblocks; b++) /* the panel shows the first one with results */
        if (v->blk[b].ps && v->blk[b].ran != LT_RUN_IDLE) {
            v->shown = b;
            break;
        }
    const char *id = saved_id(a);
    if (id) {
        for (int b = 0; b < v->nblocks; b++) {
            struct lt_exercise_info info;
            if (is_ex(v, b) && lt_lesson_exercise(v->ls, b, &info) && info.id)
                v->blk[b].was_solved = tui_progress_exercise_solved(a->saved, id, info.id);
        }
        tui_progress_visit(a->saved, id);
        tui_app_progress_changed(a);
    }
    return true;
}

static void lesson_close(struct tui_app *a)
{
    struct tui_lesson *v = a->lv;
    if (!v) return;
    if (v->ls && v->running >= 0) cancel(a); /* its partial results are kept, marked cancelled */
    a->lv = NULL; /* the sink drops what a cancel still reports */
    if (a->events_to == &tui_lesson_view) a->events_to = NULL;
    const char *path = v->cat >= 0 && v->cat < a->ncat ? a->cat[v->cat].path : a->opts->open_lesson;
    for (int b = 0; v->blk && b < v->nblocks; b++) {
        struct block_state *s = &v->blk[b];
        struct tui_kept_run k = {s->ps, s->log, "", s->ran, s->run_err};
        memcpy(k.lang, s->lang, sizeof k.lang);
        if (s->ps && s->ran != LT_RUN_IDLE && v->ls && /* kept for the next visit, this session */
            tui_kept_put(a, path, lt_lesson_block_id(v->ls, b), b, &k))
            s->ps = NULL, s->log = NULL, s->run_err = NULL;
        tui_panelset_free(s->ps);
        tui_evlog_free(s->log);
        free(s->run_err), free(s->fb[0]), free(s->fb[1]), free(s->answer), free(s->graded);
    }
    if (v->ls) {
        if (lt_lesson_run_state(v->ls) == LT_RUN_BUSY) lt_lesson_run_cancel(v->ls);
        lt_lesson_free(v->ls);
    }
    free(v->blk);
    free(v->grading_answer);
    tui_lines_free(&v->doc);
    free(v);
}

static void lesson_sink(struct tui_app *a, const struct lt_event *ev)
{
    struct tui_lesson *v = a->lv;
    if (!v || !v->ls || (v->grading >= 0 && v->running < 0)) return; /* a grading's print() */
    int b = v->running >= 0 ? v->running : v->shown;
    if (b < 0 || !v->blk[b].ps) return;
    /* recorded (not a replay's), kept (for L and the next visit), shown */
    struct tui_run r = {.rec = v->running >= 0 && !v->replaying ? a->opts->rec : NULL,
                        .log = v->running >= 0 ? v->blk[b].log : NULL, .ps = v->blk[b].ps};
    if (tui_run_event(&r, ev)) a->dirty = true;
}

/* Block b's panels in the language now on: titles from the lesson, results from the events of
 * its run, each of which carries both languages. Nothing runs again. */
static void relang(struct tui_app *a, int b)
{
    struct tui_lesson *v = a->lv;
    struct block_state *s = &v->blk[b];
    struct tui_run r = {.log = s->ran != LT_RUN_IDLE || v->running == b ? s->log : NULL, .ps = s->ps};
    tui_run_relang(&r, tui_app_lang(a));
    snprintf(s->lang, sizeof s->lang, "%s", tui_app_lang(a));
    declare_panels(a, b);
}

static void lesson_lang_changed(struct tui_app *a)
{
    struct tui_lesson *v = a->lv;
    if (!v || !v->ls) return;
    for (int b = 0; b < v->nblocks; b++)
        if (v->blk[b].ps) relang(a, b);
    v->stale = true;
}

/* ---- rendering the text pane -------------------------------------------------------------- */

static void mark_lines(struct tui_lines *L, int from, int kind, int tag)
{
    for (int i = from; i < L->n; i++) L->v[i].kind = kind, L->v[i].tag = tag;
}

static void render_experiment(struct tui_app *a, int b, const struct tui_render_opts *o)
{
    struct tui_lesson *v = a->lv;
    struct tui_lines *L = &v->doc;
    const struct tui_glyphs *g = tui_glyphs(a->ascii);
    const char *intro = lt_lesson_block_text(v->ls, b);
    const char *title = lt_lesson_block_title(v->ls, b);
    if (!title) title = "";
    if (intro && *intro) {
        tui_render_markup(L, intro, strlen(intro), o);
        struct tui_lb e = {.L = L};
        tui_lb_end(&e, b, TUI_LK_TEXT, 0);
    }
    char btn[512];
    bool busy = v->running == b;
    enum lt_run_state st = v->blk[b].ran;
    if (busy)
        snprintf(btn, sizeof btn, TUI_TR(a, "[ Running: %s · Esc cancels ]", "[ 运行中：%s · Esc 取消 ]"),
                 title);
    else if (st == LT_RUN_IDLE)
        snprintf(btn, sizeof btn, TUI_TR(a, "[ Enter %s Run: %s ]", "[ Enter %s 运行：%s ]"), g->run, title);
    else
        snprintf(btn, sizeof btn, TUI_TR(a, "[ Enter %s Run again: %s ]", "[ Enter %s 再次运行：%s ]"),
                 g->run, title);
    int first = L->n;
    tui_render_para(L, btn, strlen(btn), TS_BUTTON, false, "", TS_BUTTON, o);
    mark_lines(L, first, TUI_LK_RUN, 0);
    const char *state = NULL;
    int sty = TS_DIM;
    char sbuf[64];
    switch (busy ? LT_RUN_BUSY : st) {
    case LT_RUN_DONE:
        snprintf(sbuf, sizeof sbuf, "%s %s", g->check, TUI_TR(a, "done: results in the live panel", "完成：结果见实时面板"));
        state = sbuf, sty = TS_GOOD;
        break;
    case LT_RUN_FAILED:
        snprintf(sbuf, sizeof sbuf, "%s %s", g->cross_mark, TUI_TR(a, "failed", "失败"));
        state = sbuf, sty = TS_BAD;
        break;
    case LT_RUN_CANCELLED: state = TUI_TR(a, "cancelled", "已取消"); break;
    case LT_RUN_BUSY: state = TUI_TR(a, "running: see the live panel", "运行中：见实时面板"); break;
    default: break;
    }
    if (state) tui_render_para(L, state, strlen(state), sty, false, "  ", sty, o);
    const char *why = v->blk[b].run_err;
    if (!busy && st == LT_RUN_FAILED && why && *why)
        tui_render_para(L, why, strlen(why), TS_BAD, false, "  ", TS_BAD, o);
}

static const char *ex_heading(struct tui_app *a, const struct lt_exercise_info *info)
{
    const char *kind = info->kind, *st = info->starter ? info->starter : "";
    if (kind && !strcmp(kind, "choice")) return TUI_TR(a, "Exercise: choose one", "练习：单选");
    if (kind && !strcmp(kind, "predict")) return TUI_TR(a, "Exercise: predict, then measure", "练习：先预测，再实测");
    /* "a line" only when the answer is one: a starter of several lines is a function to write */
    size_t nl = strcspn(st, "\n");
    bool one_line = !st[nl] || !st[nl + 1 + strspn(st + nl + 1, " \t\n")];
    if (kind && !strcmp(kind, "code") && one_line) return TUI_TR(a, "Exercise: a line of Lua", "练习：写一行 Lua");
    if (kind && !strcmp(kind, "code")) return TUI_TR(a, "Exercise: write Lua code", "练习：编写 Lua 代码");
    return TUI_TR(a, "Exercise: a number", "练习：填数字");
}

/* The answer field: "  Answer (GB/s) › text" with the text scrolled so the cursor shows. */
static void render_input(struct tui_app *a, int b, const struct lt_exercise_info *info,
                         const struct tui_render_opts *o)
{
    struct tui_lesson *v = a->lv;
    struct tui_lb lb = {.L = &v->doc};
    char prefix[160];
    if (info->nchoices)
        snprintf(prefix, sizeof prefix, TUI_TR(a, "  Answer (1-%d) > ", "  答案（1-%d）> "), info->nchoices);
    else if (info->unit && *info->unit)
        snprintf(prefix, sizeof prefix, TUI_TR(a, "  Answer (%s) > ", "  答案（%s）> "), info->unit);
    else
        snprintf(prefix, sizeof prefix, "%s", TUI_TR(a, "  Answer > ", "  答案 > "));
    int pw = tui_width(prefix, strlen(prefix));
    if (pw > o->width / 2) pw = o->width / 2;
    tui_lb_fit(&lb, prefix, pw, TUI_LEFT, a->ascii, TS_EM);
    int fw = o->width - pw - 1;
    if (fw > 40) fw = 40;
    if (fw < 1) fw = 1;
    bool editing = v->editing && v->edit_block == b;
    const char *text = v->blk[b].answer ? v->blk[b].answer : "";
    char shown[EDIT_MAX * 3 + 160];
    int col = 0;
    if (editing) {
        tui_lineedit_view(&v->ed, fw, "", shown, sizeof shown, &col);
    } else if (strchr(text, '\n')) { /* an answer from the editor: say what it is */
        int lines = 1;
        for (const char *c = text; *c; c++) lines += *c == '\n' && c[1];
        snprintf(shown, sizeof shown, TUI_TR(a, "(%d lines from the editor · e)",
                                             "（编辑器中的 %d 行 · e）"), lines);
    } else {
        snprintf(shown, sizeof shown, "%s", text);
    }
    if (!editing && !*text) {
        bool code = info->kind && !strcmp(info->kind, "code");
        tui_lb_fit(&lb, code ? TUI_TR(a, "(Enter: one line · e: editor)", "（Enter：单行 · e：编辑器）")
                             : TUI_TR(a, "(Enter to answer)", "（按 Enter 作答）"),
                   fw, TUI_LEFT, a->ascii, TS_DIM);
    } else {
        tui_lb_fit(&lb, shown, fw, TUI_LEFT, a->ascii, TS_INPUT);
    }
    if (editing) {
        v->cur_line = v->doc.n;
        v->cur_col = pw + col;
    }
    tui_lb_end(&lb, b, TUI_LK_INPUT, 0);
    tui_lb_free(&lb);
}

static void render_exercise(struct tui_app *a, int b, const struct tui_render_opts *o)
{
    struct tui_lesson *v = a->lv;
    struct tui_lines *L = &v->doc;
    const struct tui_glyphs *g = tui_glyphs(a->ascii);
    struct lt_exercise_info info;
    if (!lt_lesson_exercise(v->ls, b, &info)) return;
    char head[160];
    bool solved = info.solved || v->blk[b].was_solved;
    snprintf(head, sizeof head, "%s%s", ex_heading(a, &info),
             solved ? (a->ascii ? "  (solved)" : TUI_TR(a, "  ✓ solved", "  ✓ 已答对")) : "");
    tui_render_para(L, head, strlen(head), TS_H3, false, "", TS_H3, o);
    if (info.prompt) tui_render_markup(L, info.prompt, strlen(info.prompt), o);
    for (int k = 0; k < info.nchoices && k < 10; k++) {
        char first[16];
        snprintf(first, sizeof first, "  %d) ", k + 1);
        int at = L->n;
        const char *c = info.choices[k] ? info.choices[k] : "";
        tui_render_para(L, c, strlen(c), TS_PLAIN, true, first, TS_MARK, o);
        mark_lines(L, at, TUI_LK_CHOICE, k + 1);
    }
    render_input(a, b, &info, o);
    if (v->grading == b) {
        char first[32];
        bool measures = info.kind && !strcmp(info.kind, "predict");
        const char *busy = measures ? TUI_TR(a, "Measuring on this machine to grade your answer… (Esc cancels)",
                                             "正在本机测量以评判你的答案…（Esc 取消）")
                                    : TUI_TR(a, "Checking your answer… (Esc cancels)", "正在检查你的答案…（Esc 取消）");
        snprintf(first, sizeof first, "  %s ", spinner(a->ascii));
        tui_render_para(L, busy, strlen(busy), TS_DIM, true, first, TS_DIM, o);
    } else if (v->blk[b].fb[tui_app_zh(a)] && *v->blk[b].fb[tui_app_zh(a)]) {
        const struct block_state *s = &v->blk[b];
        int sty = s->fb_ok ? TS_GOOD : s->fb_broken ? TS_WARN_LABEL : TS_BAD;
        char first[16]; /* a broken exercise is no wrong answer: "!", not the cross */
        snprintf(first, sizeof first, "  %s ", s->fb_ok ? g->check : s->fb_broken ? "!" : g->cross_mark);
        const char *fb = s->fb[tui_app_zh(a)];
        tui_render_para(L, fb, strlen(fb), TS_PLAIN, true, first, sty, o);
        render_summary(a, b, o);
    }
}

/* The last exercise of a section: once it is solved (or its explanation shown), what the section
 * came to and where to go next, so the end of a lesson is not a dead end. */
static void render_summary(struct tui_app *a, int b, const struct tui_render_opts *o)
{
    struct tui_lesson *v = a->lv;
    struct lt_exercise_info info;
    int last = -1, total = 0, solved = 0, tries = 0;
    for (int i = 0; i < v->nblocks; i++)
        if (lt_lesson_exercise(v->ls, i, &info)) {
            last = i, total++, tries += info.tries;
            solved += info.solved || v->blk[i].was_solved;
        }
    if (b != last || !lt_lesson_exercise(v->ls, b, &info) || !(info.solved || info.tries >= 3)) return;
    bool more = a->ncat && v->cat >= 0 && v->cat + 1 < a->ncat;
    char msg[256];
    snprintf(msg, sizeof msg,
             TUI_TR(a, "End of the section: %d/%d exercises solved, %d tries this time. %s",
                    "本节结束：答对 %d/%d 道练习，本次共尝试 %d 次。%s"),
             solved, total, tries,
             more ? TUI_TR(a, "n: next section", "n：下一节")
                  : TUI_TR(a, "This was the last section; q: back to the menu", "这是最后一节；q：返回目录"));
    tui_render_para(&v->doc, "", 0, TS_PLAIN, false, "", TS_PLAIN, o);
    tui_render_para(&v->doc, msg, strlen(msg), TS_H3, true, "  ", TS_H3, o);
}

static void build_doc(struct tui_app *a, int width)
{
    struct tui_lesson *v = a->lv;
    tui_lines_free(&v->doc);
    v->cur_line = -1;
    struct tui_render_opts o = {width, tui_app_lang(a), a->ascii, -1};
    if (!v->ls) {
        const char *m = TUI_TR(a, "This lesson could not be loaded:", "这一课无法加载：");
        tui_render_para(&v->doc, m, strlen(m), TS_BAD, false, "", TS_BAD, &o);
        tui_render_para(&v->doc, v->err, strlen(v->err), TS_PLAIN, false, "  ", TS_PLAIN, &o);
        m = TUI_TR(a, "Fix the file (vramlab check FILE shows every problem) and open it again. "
                      "q goes back to the menu.",
                   "修正文件（vramlab check 文件 会列出所有问题）后再打开。按 q 返回菜单。");
        struct tui_lb e = {.L = &v->doc};
        tui_lb_end(&e, -1, TUI_LK_TEXT, 0);
        tui_render_para(&v->doc, m, strlen(m), TS_DIM, false, "", TS_DIM, &o);
    } else {
        for (int b = 0; b < v->nblocks; b++) {
            o.block = b;
            if (b > 0) {
                struct tui_lb e = {.L = &v->doc};
                tui_lb_end(&e, b, TUI_LK_TEXT, 0);
            }
            switch (lt_lesson_block_kind(v->ls, b)) {
            case LT_BLOCK_TEXT: {
                const char *t = lt_lesson_block_text(v->ls, b);
                if (t) tui_render_markup(&v->doc, t, strlen(t), &o);
                break;
            }
            case LT_BLOCK_EXPERIMENT: render_experiment(a, b, &o); break;
            case LT_BLOCK_EXERCISE: render_exercise(a, b, &o); break;
            }
        }
    }
    if (v->doc.oom) tui_app_error(a, "out of memory");
    v->doc_w = width;
    v->stale = false;
}

/* ---- selection and scrolling -------------------------------------------------------------- */

static bool action_kind(int k) { return k == TUI_LK_RUN || k == TUI_LK_INPUT; }

/* First and last doc line of block b's action (run button / answer field). */
static bool action_span(const struct tui_lesson *v, int b, int *first, int *last)
{
    *first = *last = -1;
    for (int i = 0; i < v->doc.n; i++)
        if (v->doc.v[i].block == b && action_kind(v->doc.v[i].kind)) {
            if (*first < 0) *first = i;
            *last = i;
        }
    return *first >= 0;
}

/* After a scroll: keep the selection on an action that is on screen. */
static void follow(struct tui_app *a)
{
    struct tui_lesson *v = a->lv;
    int top = v->text.top, h = v->text.height, f, l;
    if (v->sel >= 0 && action_span(v, v->sel, &f, &l) && f >= top && l < top + h) return;
    for (int i = top; i < top + h && i < v->doc.n; i++)
        if (action_kind(v->doc.v[i].kind)) {
            v->sel = v->doc.v[i].block;
            break;
        }
    if (v->sel >= 0 && is_exp(v, v->sel) && v->running < 0) v->shown = v->sel;
}

static void scroll_to(struct tui_app *a, int b)
{
    struct tui_lesson *v = a->lv;
    int f, l, h = v->text.height;
    /* show the action with some of what leads to it */
    if (action_span(v, b, &f, &l)) tui_scroll_show(&v->text, f, l, h > 8 ? h / 4 : 0);
}

static void select_step(struct tui_app *a, int dir)
{
    struct tui_lesson *v = a->lv;
    int cur_f = -1, cur_l = -1, top = v->text.top;
    if (v->sel >= 0) action_span(v, v->sel, &cur_f, &cur_l);
    int start = v->sel >= 0 ? (dir > 0 ? cur_l + 1 : cur_f - 1) : (dir > 0 ? top : top + v->text.height - 1);
    for (int i = start; i >= 0 && i < v->doc.n; i += dir)
        if (action_kind(v->doc.v[i].kind) && v->doc.v[i].block != v->sel) {
            v->sel = v->doc.v[i].block;
            if (is_exp(v, v->sel) && v->running < 0) v->shown = v->sel, tui_scroll_to(&v->panel, 0);
            scroll_to(a, v->sel);
            return;
        }
}

/* ---- actions ------------------------------------------------------------------------------ */

static void finish_run(struct tui_app *a, enum lt_run_state st, const char *err)
{
    struct tui_lesson *v = a->lv;
    int b = v->running;
    v->running = -1;
    if (b < 0) return;
    v->blk[b].ran = st;
    if (st == LT_RUN_FAILED) set_text(&v->blk[b].run_err, err);
    if (!v->replaying) tui_rec_end(a->opts->rec, st, st == LT_RUN_FAILED ? err : "");
    v->replaying = false;
    v->stale = true;
    a->dirty = true;
}

static void replay_sink(void *ud, const struct lt_event *ev) { lesson_sink(ud, ev); }

/* --replay: the recorded run of this experiment goes to the panels; nothing is measured. */
static void replay_start(struct tui_app *a, int b)
{
    struct tui_lesson *v = a->lv;
    const char *eid = lt_lesson_block_id(v->ls, b);
    const struct tui_replay_run *r = tui_replay_find(a->opts->replay, lt_lesson_id(v->ls), eid);
    if (!r) {
        char en[600], zh[600];
        snprintf(en, sizeof en, "REPLAY: %s has no run of this experiment (lesson %s, experiment "
                 "%s); nothing was measured.", a->opts->replay->path, lt_lesson_id(v->ls), eid ? eid : "?");
        snprintf(zh, sizeof zh, "回放：%s 中没有这个实验的记录（课程 %s，实验 %s）；没有进行任何测量。",
                 a->opts->replay->path, lt_lesson_id(v->ls), eid ? eid : "?");
        struct lt_event ev = {.type = LT_EV_STATUS, .panel = "", .text = {{en, zh}}};
        tui_run_event(&(struct tui_run){.log = v->blk[b].log, .ps = v->blk[b].ps}, &ev);
        finish_run(a, LT_RUN_FAILED, TUI_TR(a, en, zh));
        return;
    }
    v->replaying = true;
    /* at most 2 s: the point is the numbers, not waiting for them */
    tui_player_start(&v->player, r, gpu_now(), 2.0);
}

static void run(struct tui_app *a, int b)
{
    struct tui_lesson *v = a->lv;
    if (v->running >= 0 || v->grading >= 0) {
        snprintf(a->notice, sizeof a->notice, "%s",
                 TUI_TR(a, "An experiment is already running (Esc cancels it).", "已有实验在运行（Esc 可取消）。"));
        return;
    }
    struct block_state *s = &v->blk[b];
    if (!s->ps) return;
    /* a run with results is not replaced by one stray key: the first Enter asks */
    if ((s->ran == LT_RUN_DONE || (s->ran == LT_RUN_CANCELLED && tui_panelset_has_data(s->ps))) &&
        v->rerun_armed != b) {
        v->rerun_armed = b;
        snprintf(a->notice, sizeof a->notice, "%s",
                 TUI_TR(a, "It has results: press again to run it anew; any other key keeps them.",
                        "已有结果：再按一次重新运行；按其他键保留结果。"));
        return;
    }
    v->rerun_armed = -1;
    a->notice[0] = 0;
    tui_panelset_clear(s->ps);
    tui_evlog_clear(s->log);
    snprintf(s->lang, sizeof s->lang, "%s", tui_app_lang(a));
    declare_panels(a, b);
    v->running = b, v->shown = b;
    v->steps = 0, v->in_pause = false, v->quit_armed = false, v->pauses = lt_runtime_pauses(a->rt);
    tui_scroll_to(&v->panel, 0);
    free(s->run_err);
    s->run_err = NULL;
    v->stale = true;
    tui_panelset_set_tag(s->ps, a->opts->replay ? "REPLAY" : NULL);
    if (a->opts->replay) {
        replay_start(a, b);
        return;
    }
    tui_rec_begin(a->opts->rec, lt_lesson_id(v->ls), lt_lesson_block_id(v->ls, b),
                  lt_lesson_block_title(v->ls, b));
    char err[1024] = "";
    enum lt_run_state st = lt_lesson_run_start(v->ls, b, err, sizeof err);
    if (st != LT_RUN_BUSY) finish_run(a, st, err);
}

static bool lesson_tick(struct tui_app *a)
{
    struct tui_lesson *v = a->lv;
    if (v && v->ls && v->grading >= 0) {
        char err[1024] = "";
        enum lt_run_state st = lt_lesson_run_step(v->ls, err, sizeof err);
        if (st == LT_RUN_BUSY) { /* the spinner in the text turns 8 times a second */
            double t = gpu_now();
            if (t - v->spin_t < 0.125) return false;
            v->spin_t = t;
            v->stale = true;
            return true;
        }
        finish_grade(a, st, err);
        return true;
    }
    if (!v || !v->ls || v->running < 0) return false;
    if (v->replaying) {
        if (!tui_player_step(&v->player, gpu_now(), replay_sink, a)) return false;
        const struct tui_replay_run *r = v->player.run;
        finish_run(a, !strcmp(r->state, "failed") ? LT_RUN_FAILED
                      : !strcmp(r->state, "cancelled") ? LT_RUN_CANCELLED : LT_RUN_DONE, r->error);
        return true;
    }
    char err[1024] = "";
    enum lt_run_state st = lt_lesson_run_step(v->ls, err, sizeof err);
    if (st == LT_RUN_BUSY) { /* a pause began or ended: the header and the footer say so */
        bool p = lt_runtime_pausing(a->rt);
        unsigned n = lt_runtime_pauses(a->rt);
        if (p == v->in_pause && n == v->pauses) return false;
        v->steps += (int)(n - v->pauses);
        v->in_pause = p, v->pauses = n;
        return true;
    }
    finish_run(a, st, err);
    return true;
}

static void cancel(struct tui_app *a)
{
    struct tui_lesson *v = a->lv;
    if (v->grading >= 0) {
        lt_lesson_run_cancel(v->ls);
        finish_grade(a, LT_RUN_CANCELLED, "");
        return;
    }
    if (v->running < 0) return;
    if (!v->replaying) lt_lesson_run_cancel(v->ls);
    finish_run(a, LT_RUN_CANCELLED, "");
    snprintf(a->notice, sizeof a->notice, "%s",
             TUI_TR(a, "Cancelled: what it showed so far stays in the panel.", "已取消：已显示的结果留在面板中。"));
}

/* The grading of v->grading ended (or never started: st FAILED with err). */
static void finish_grade(struct tui_app *a, enum lt_run_state st, const char *err)
{
    struct tui_lesson *v = a->lv;
    int b = v->grading;
    v->grading = -1;
    if (b < 0) return;
    char fb[2048] = "";
    bool ok = false;
    const char *fb_en = NULL, *fb_zh = NULL; /* the grader's, in both languages */
    if (st == LT_RUN_CANCELLED) {
        fb_en = "Cancelled: not graded, not counted as a try.", fb_zh = "已取消：未评分，不计入尝试次数。";
    } else {
        ok = lt_lesson_answer_result(v->ls, fb, sizeof fb);
        if (!*fb) snprintf(fb, sizeof fb, "%s", err); /* it could not start: why */
        else fb_en = lt_lesson_answer_feedback(v->ls, "en"), fb_zh = lt_lesson_answer_feedback(v->ls, "zh");
    }
    struct lt_exercise_info after;
    const char *id = saved_id(a);
    /* a try counts when the grader read the input (its tries went up) */
    if (id && lt_lesson_exercise(v->ls, b, &after) && after.id && after.tries > v->grading_tries) {
        tui_progress_attempt(a->saved, id, after.id, ok, v->grading_answer ? v->grading_answer : "");
        tui_app_progress_changed(a);
    }
    if (lt_lesson_exercise(v->ls, b, &after) && after.tries > v->grading_tries)
        set_text(&v->blk[b].graded, v->grading_answer);
    set_text(&v->blk[b].fb[0], fb_en ? fb_en : fb);
    set_text(&v->blk[b].fb[1], fb_zh ? fb_zh : fb);
    v->blk[b].fb_ok = ok;
    struct lt_answer_info ai;
    v->blk[b].fb_broken = !ok && fb_en && st != LT_RUN_CANCELLED && lt_lesson_answer_info(v->ls, &ai) && ai.broken;
    v->reveal = b;
    /* graded: the field leaves edit mode, so the habitual second Enter does not resubmit (Enter
     * on the exercise edits again, with the answer kept) */
    if (st != LT_RUN_CANCELLED && v->edit_block == b) v->editing = false;
    v->stale = true;
    a->dirty = true;
}

/* Two answers are the same when they differ only in surrounding white space. */
static bool same_answer(const char *x, const char *y)
{
    while (isspace((unsigned char)*x)) x++;
    while (isspace((unsigned char)*y)) y++;
    size_t nx = strlen(x), ny = strlen(y);
    while (nx && isspace((unsigned char)x[nx - 1])) nx--;
    while (ny && isspace((unsigned char)y[ny - 1])) ny--;
    return nx == ny && !memcmp(x, y, nx);
}

static void submit(struct tui_app *a, int b, const char *answer)
{
    struct tui_lesson *v = a->lv;
    struct lt_exercise_info info;
    if (!lt_lesson_exercise(v->ls, b, &info)) return;
    if (v->running >= 0 || v->grading >= 0) {
        snprintf(a->notice, sizeof a->notice, "%s",
                 TUI_TR(a, "Wait for the running measurement (Esc cancels it).", "请等待正在进行的测量（Esc 可取消）。"));
        return;
    }
    if (v->blk[b].graded && same_answer(v->blk[b].graded, answer)) {
        snprintf(a->notice, sizeof a->notice, "%s",
                 TUI_TR(a, "Same answer as before: not graded again, not counted as a try.",
                        "与上次的答案相同：不再评分，不计入尝试次数。"));
        if (v->edit_block == b) v->editing = false;
        v->stale = true;
        return;
    }
    set_text(&v->blk[b].answer, answer);
    set_text(&v->grading_answer, answer);
    v->grading = b, v->grading_tries = info.tries;
    char err[1024] = "";
    /* a "predict" exercise measures first: on the worker, while the screen stays live */
    enum lt_run_state st = lt_lesson_answer_start(v->ls, b, answer, err, sizeof err);
    v->reveal = b; /* the spinner line, then the feedback */
    if (st != LT_RUN_BUSY) finish_grade(a, st, err);
    v->stale = true;
}

static void edit_start(struct tui_app *a, int b)
{
    struct tui_lesson *v = a->lv;
    const char *prev = v->blk[b].answer;
    v->editing = true, v->edit_block = b, v->sel = b;
    /* a one-line field: an answer of several lines (from the editor) starts it empty */
    tui_lineedit_set(&v->ed, prev && !strchr(prev, '\n') ? prev : "");
    v->stale = true;
    scroll_to(a, b);
}

/* The answer file's header: the question, the hints seen so far and how to submit, as Lua
 * comments between HEAD_FIRST and HEAD_END; written again each time e opens the file (the hints
 * grow) and taken off before grading, so only the code counts. */
#define HEAD_FIRST "-- vramlab: exercise "
#define HEAD_END "-- ---- your answer below this line ----\n"

static char *answer_header(struct tui_app *a, const struct lt_exercise_info *info, const char *path)
{
    struct tui_lesson *v = a->lv;
    char *prompt = NULL, *buf = NULL;
    size_t plen = 0, blen = 0;
    FILE *pf = open_memstream(&prompt, &plen);
    if (pf) {
        tui_text_markup(pf, info->prompt ? info->prompt : "", tui_app_lang(a));
        fclose(pf);
    }
    FILE *f = open_memstream(&buf, &blen);
    if (!f) {
        free(prompt);
        return NULL;
    }
    fprintf(f, HEAD_FIRST "%s/%s · %s\n--\n", lt_lesson_id(v->ls), info->id,
            TUI_TR(a, "this header is written again each time e opens the file",
                   "每次按 e 打开文件时都会重写这段说明"));
    if (prompt) {
        size_t l = strlen(prompt);
        while (l && (prompt[l - 1] == '\n' || prompt[l - 1] == ' ')) prompt[--l] = 0;
        tui_ws_comment(f, prompt + strspn(prompt, "\n"), 86, "-- ", "-- ");
    }
    int seen = info->tries < info->nhints ? info->tries : info->nhints; /* one per wrong try */
    if (seen > 0) fprintf(f, "--\n-- %s\n", TUI_TR(a, "Hints so far:", "已看到的提示："));
    for (int i = 0; i < seen; i++) {
        char num[16];
        snprintf(num, sizeof num, "--   %d. ", i + 1);
        tui_ws_comment(f, info->hints[i] ? info->hints[i] : "", 86, num, "--      ");
    }
    char how[1400];
    snprintf(how, sizeof how,
             TUI_TR(a, "To submit: define the function `%s`, save and quit the editor (:wq in vi); the tutor "
                       "grades it when the editor exits. To go back without grading: quit with an error "
                       "(:cq in vi). The file stays in %s.",
                    "提交：定义函数 `%s`，保存并退出编辑器（vi 中 :wq），编辑器退出时，教学界面给它评分。"
                    "不评分直接返回：以错误状态退出（vi 中 :cq）。文件保存在 %s。"),
             info->entry ? info->entry : "?", path);
    fputs("--\n", f);
    tui_ws_comment(f, how, 86, "-- ", "-- ");
    fputs(HEAD_END, f);
    fclose(f);
    free(prompt);
    return buf;
}

/* The code under the header (all of src when it has none). */
static const char *after_header(const char *src)
{
    if (strncmp(src, HEAD_FIRST, strlen(HEAD_FIRST))) return src;
    const char *e = strstr(src, HEAD_END);
    return e ? e + strlen(HEAD_END) : src;
}

struct answer_file {
    struct tui_app *a;
    const struct lt_exercise_info *info;
    const char *path, *code; /* the code when there is no file yet */
};

/* tui_state_update's function: the header written again over the code the file holds now */
static enum tui_state_verdict answer_fn(void *ud, const char *text, size_t len, char **out,
                                        size_t *olen, char *aside, size_t naside, char *why,
                                        size_t nwhy)
{
    const struct answer_file *af = ud;
    const char *code = text ? after_header(text) : af->code ? af->code : "";
    char *head = answer_header(af->a, af->info, af->path);
    size_t hl = head ? strlen(head) : 0, cl = strlen(code);
    if (head && (*out = malloc(hl + cl + 1))) {
        memcpy(*out, head, hl);
        memcpy(*out + hl, code, cl + 1);
        *olen = hl + cl;
    }
    free(head);
    return TUI_STATE_WRITE;
}

/* e: a code exercise's answer in $VISUAL / $EDITOR (default vi), in a file kept in the state
 * folder (answers/LESSON-EXERCISE.lua: the header, then the starter or the code written
 * before), graded when the editor exits 0. */
static void edit_external(struct tui_app *a, int b)
{
    struct tui_lesson *v = a->lv;
    struct lt_exercise_info info;
    if (!is_ex(v, b) || !lt_lesson_exercise(v->ls, b, &info) || !info.kind || strcmp(info.kind, "code")) {
        snprintf(a->notice, sizeof a->notice, "%s", TUI_TR(a, "e edits the answer of a code exercise: select one first ([ ])",
                                                           "e 用于编辑代码练习的答案：请先选中一道（[ ]）"));
        return;
    }
    if (v->running >= 0 || v->grading >= 0) {
        snprintf(a->notice, sizeof a->notice, "%s", TUI_TR(a, "Wait for the running measurement (Esc cancels it).",
                                                           "请等待正在进行的测量（Esc 可取消）。"));
        return;
    }
    const char *ed = getenv("VISUAL");
    if (!ed || !*ed) ed = getenv("EDITOR");
    if (!ed || !*ed) ed = "vi";
    char dir[1024], name[2 * LT_ID_MAX + 8], path[1200], err[1200];
    if (!tui_state_dir(dir, sizeof dir, err, sizeof err) || !tui_state_ready(dir, "answers", err, sizeof err)) {
        tui_app_error(a, "%s", err);
        return;
    }
    if (strlen(dir) + 9 < sizeof dir) strcat(dir, "/answers");
    if (!tui_file_id_name(name, sizeof name, lt_lesson_id(v->ls), info.id, ".lua")) {
        tui_app_error(a, "%s", TUI_TR(a, "This exercise's id cannot name a file: not edited.",
                                                           "该练习的 id 不能用作文件名：无法编辑。"));
        return;
    }
    snprintf(path, sizeof path, "%s/%s", dir, name);
    /* the file, when there, is the learner's code: one that cannot be read (too large, not a
     * regular file, unreadable) is never replaced; only when there is none yet does the code
     * come from what was typed on one line, else the starter */
    size_t len;
    bool missing;
    char *old = tui_state_read(dir, name, LT_MAX_FILE, &len, &missing, err, sizeof err);
    free(old);
    if (!old && !missing) {
        size_t pl = strlen(path);
        const char *why = !strncmp(err, path, pl) && err[pl] == ':' ? err + pl + 2 : err;
        tui_app_error(a, TUI_TR(a, "Not edited, %s left as it is: %s", "未编辑，%s 保持原样：%s"), name, why);
        return;
    }
    struct answer_file af = {a, &info, path, v->blk[b].answer && *v->blk[b].answer ? v->blk[b].answer : info.starter};
    char note[1400];
    if (!tui_state_update(dir, name, LT_MAX_FILE, answer_fn, &af, note, sizeof note, err, sizeof err)) {
        tui_app_error(a, "%s", err);
        return;
    }
    v->editing = false;
    int rc = tui_term_run(ed, path);
    v->stale = true;
    if (rc != 0) {
        tui_app_error(a, TUI_TR(a, "the editor exited with status %d: not graded", "编辑器退出状态 %d：未评分"), rc);
        return;
    }
    char *src = tui_state_read(dir, name, LT_MAX_FILE, &len, &missing, err, sizeof err);
    if (!src) {
        tui_app_error(a, TUI_TR(a, "Not graded: %s", "未评分：%s"), err);
        return;
    }
    const char *answer = after_header(src);
    if (!v->blk[b].answer && same_answer(answer, info.starter)) /* opened and left as it was */
        snprintf(a->notice, sizeof a->notice, "%s",
                 TUI_TR(a, "The starter unchanged: not graded, not counted as a try.",
                        "初始代码没有改动：不评分，不计入尝试次数。"));
    else
        submit(a, b, answer);
    free(src);
}

static void activate(struct tui_app *a, int b)
{
    struct tui_lesson *v = a->lv;
    if (is_exp(v, b)) run(a, b);
    else if (is_ex(v, b)) edit_start(a, b);
}

/* ---- keys ---------------------------------------------------------------------------------- */

static void cancel_key(void *ud, const struct tui_key *k) { cancel(ud); }

static void submit_field(void *ud, const struct tui_key *k)
{
    struct tui_app *a = ud;
    submit(a, a->lv->edit_block, a->lv->ed.s);
}

static void stop_editing(void *ud, const struct tui_key *k) { ((struct tui_app *)ud)->lv->editing = false; }

/* The selected action (Run line, answer field) is on screen. */
static bool action_shown(const struct tui_lesson *v)
{
    int f, l;
    return v->ls && v->sel >= 0 && action_span(v, v->sel, &f, &l) && l >= v->text.top &&
           f < v->text.top + v->text.height;
}

/* Enter: do the selected action when it is on screen; otherwise read on (a page down, as in
 * vimtutor), so the first Enter never skips the introduction; the footer says which. */
static void enter(void *ud, const struct tui_key *k)
{
    struct tui_app *a = ud;
    struct tui_lesson *v = a->lv;
    if (!v->ls) return;
    if (action_shown(v)) activate(a, v->sel);
    else page_down(ud, k);
}

static struct tui_scroll *focused(struct tui_lesson *v) { return v->focus ? &v->panel : &v->text; }

static void page_down(void *ud, const struct tui_key *k)
{
    struct tui_app *a = ud;
    struct tui_scroll *s = focused(a->lv);
    tui_scroll_by(s, tui_scroll_page(s));
    if (s == &a->lv->text) follow(a);
}

static void focus(void *ud, const struct tui_key *k) { ((struct tui_app *)ud)->lv->focus ^= 1; }

/* z: the live panel on the whole body (its tables whole), z again the text beside it. */
static void zoom(void *ud, const struct tui_key *k)
{
    struct tui_lesson *v = ((struct tui_app *)ud)->lv;
    v->zoom = !v->zoom;
    v->panel.top = 0;
}

static void step(void *ud, const struct tui_key *k)
{
    struct tui_app *a = ud;
    if (a->lv->ls) select_step(a, k->code == ']' ? 1 : -1);
}

/* r: run the experiment the live panel shows, wherever the text is scrolled */
static void run_shown(void *ud, const struct tui_key *k)
{
    struct tui_app *a = ud;
    struct tui_lesson *v = a->lv;
    if (!v->ls || v->shown < 0 || v->running >= 0) return;
    v->sel = v->shown;
    scroll_to(a, v->shown);
    run(a, v->shown);
}

static void editor(void *ud, const struct tui_key *k)
{
    struct tui_app *a = ud;
    if (a->lv->ls) edit_external(a, a->lv->sel);
}

static void choice(void *ud, const struct tui_key *k)
{
    struct tui_app *a = ud;
    struct tui_lesson *v = a->lv;
    struct lt_exercise_info info;
    if (v->sel < 0 || !is_ex(v, v->sel) || !lt_lesson_exercise(v->ls, v->sel, &info)) return;
    if (k->code - '0' > info.nchoices) return;
    char ans[2] = {(char)k->code, 0};
    submit(a, v->sel, ans);
}

static void section(void *ud, const struct tui_key *k)
{
    struct tui_app *a = ud;
    int c = cat_index(a), d = k->code == 'n' ? 1 : -1;
    int to = c < 0 ? 0 : c + d;
    if (a->ncat && to >= 0 && to < a->ncat) tui_app_open_entry(a, to);
    else snprintf(a->notice, sizeof a->notice, "%s",
                  d > 0 ? TUI_TR(a, "This is the last section.", "已是最后一节。")
                        : TUI_TR(a, "This is the first section.", "已是第一节。"));
}

static void back(struct tui_app *a)
{
    lesson_close(a);
    tui_app_show(a, &tui_menu_view);
}

static void back_key(void *ud, const struct tui_key *k) { back(ud); }

/* q while an experiment runs: ask first; q again cancels it (its results so far are kept) and
 * goes back to the menu, any other key keeps it running. */
static void back_running(void *ud, const struct tui_key *k)
{
    struct tui_app *a = ud;
    struct tui_lesson *v = a->lv;
    if (v->running < 0 || v->quit_armed) {
        bool was = v->running >= 0;
        if (was) cancel(a);
        back(a);
        if (was)
            snprintf(a->notice, sizeof a->notice, "%s",
                     TUI_TR(a, "Cancelled the experiment; its results so far are kept for this session.",
                            "已取消实验；已得到的结果在本次会话中保留。"));
        return;
    }
    v->quit_armed = true;
    snprintf(a->notice, sizeof a->notice, "%s",
             TUI_TR(a, "An experiment is running: q again cancels it and leaves; any other key keeps it running.",
                    "实验正在运行：再按 q 取消并离开；按其他键继续运行。"));
}

/* Space / →: the experiment waits in a pause (ex:pause): show its next step now. Between two
 * steps (it computes) the key does nothing: a learner pressing on must not scroll the text. */
static void next_step(void *ud, const struct tui_key *k)
{
    struct tui_app *a = ud;
    struct tui_lesson *v = a->lv;
    if (v->running >= 0 && !v->replaying && lt_runtime_pausing(a->rt)) lt_runtime_pause_next(a->rt);
}

/* s: step by step (every step waits for Space / →) or at a readable pace (each shows for a
 * moment); for the session. */
static void stepping(void *ud, const struct tui_key *k)
{
    struct tui_app *a = ud;
    bool on = !lt_runtime_stepping(a->rt);
    lt_runtime_set_stepping(a->rt, on);
    if (!on && lt_runtime_pausing(a->rt)) lt_runtime_pause_next(a->rt);
    snprintf(a->notice, sizeof a->notice, "%s",
             on ? TUI_TR(a, "Step by step: experiments that show their steps wait for Space or → at each one.",
                         "逐步模式：分步展示的实验在每一步等待 Space 或 →。")
                : TUI_TR(a, "Auto: each step of an experiment shows for a moment, then the next.",
                         "自动模式：实验的每一步显示片刻后继续下一步。"));
}

/* A click: on the panel it takes the focus; on a Run line it runs, on an answer field it edits,
 * on a choice it answers. */
static void click(void *ud, const struct tui_key *k)
{
    struct tui_app *a = ud;
    struct tui_lesson *v = a->lv;
    if (tui_rect_contains(&a->lay.panel, k->y, k->x)) {
        v->focus = 1;
        return;
    }
    if (!tui_rect_contains(&a->lay.text, k->y, k->x) || !v->ls) return;
    v->focus = 0;
    int li = v->text.top + k->y - a->lay.text.y;
    if (li < 0 || li >= v->doc.n) return;
    const struct tui_line *l = &v->doc.v[li];
    if (l->kind == TUI_LK_RUN) {
        v->sel = l->block;
        run(a, l->block);
    } else if (l->kind == TUI_LK_INPUT) {
        edit_start(a, l->block);
    } else if (l->kind == TUI_LK_CHOICE) {
        char ans[8];
        snprintf(ans, sizeof ans, "%d", l->tag);
        v->sel = l->block;
        submit(a, l->block, ans);
    }
}

static const struct tui_binding running_rows[] = {
    {.keys = {TUI_KEY_ESC}, .run = cancel_key, .en = "cancel the running experiment or measurement", .zh = "取消正在运行的实验或测量", .hint_en = "cancel", .hint_zh = "取消"},
    {.keys = {'q'}, .run = back_running, .en = "back to the menu: asks first, q again cancels the run (its results so far are kept)", .zh = "返回目录：先询问，再按 q 取消运行（已得到的结果保留）"},
};

/* An experiment that shows its steps (ex:pause) and runs now; the footer names the mode. */
#define STEP_ROWS(mode_en, mode_zh)                                                                 \
    {.keys = {' ', TUI_KEY_FN(KEY_RIGHT)}, .run = next_step, .en = "next step of the experiment", .zh = "实验的下一步", .hint_en = "next step", .hint_zh = "下一步", .hint_keys = 2}, \
    {.keys = {'s'}, .run = stepping, .en = "step by step (each step waits for Space / →) or auto (each step shows for a moment)", .zh = "逐步（每一步等待 Space / →）或自动（每一步显示片刻）", .hint_en = mode_en, .hint_zh = mode_zh}
/* the footer says what s switches to; the panel header shows the mode now ("step 3 · Space: next") */
static const struct tui_binding watch_auto_rows[] = {STEP_ROWS("step mode", "逐步模式")};
static const struct tui_binding watch_step_rows[] = {STEP_ROWS("auto play", "自动播放")};

static const struct tui_binding answer_rows[] = {
    {.keys = {TUI_KEY_ENTER}, .run = submit_field, .en = "submit the answer", .zh = "提交答案", .hint_en = "submit", .hint_zh = "提交"},
    {.keys = {TUI_KEY_ESC}, .run = stop_editing, .en = "stop editing", .zh = "结束编辑", .hint_en = "stop editing", .hint_zh = "结束编辑"},
};

/* No Run line or answer field on screen: Enter reads on. */
static const struct tui_binding read_rows[] = {
    {.keys = {TUI_KEY_ENTER}, .run = enter, .en = "read on: the next page (Enter runs or answers once a Run line or an answer field is on screen)", .zh = "往下读：下一页（“运行”行或答案栏出现在屏幕上后，Enter 即运行或作答）", .hint_en = "read on", .hint_zh = "往下读"},
};

/* An exercise selected and on screen: Enter answers. */
static const struct tui_binding exercise_rows[] = {
    {.keys = {TUI_KEY_ENTER}, .run = enter, .en = "answer the selected exercise (edit its answer field)", .zh = "回答选中的练习（编辑答案栏）", .hint_en = "answer", .hint_zh = "作答"},
};

static const struct tui_binding rows[] = {
    {.keys = {TUI_KEY_ENTER}, .run = enter, .en = "run the selected experiment (one with results asks first), or answer the selected exercise (none on screen: the next page)", .zh = "运行选中的实验（已有结果的先询问），或回答选中的练习（屏幕上没有时：下一页）", .hint_en = "run", .hint_zh = "运行"},
    {.keys = {TUI_KEY_CLICK}, .run = click, .en = "a Run line runs, an answer field edits, a choice answers; the panel takes the focus", .zh = "点击“运行”行即运行，点击答案栏即编辑，点击选项即作答；点击面板获得焦点"},
    {.keys = {'\t', TUI_KEY_FN(KEY_BTAB)}, .run = focus, .en = "switch focus: lesson text / live panel (what scrolls)", .zh = "切换焦点：课文 / 实时面板（滚动哪一个）", .hint_en = "focus", .hint_zh = "焦点"},
    {.keys = {' '}, .run = page_down, .en = "scroll one page down", .zh = "向下翻页"},
    {.keys = {'z'}, .run = zoom, .en = "the live panel on the whole screen; z again: back beside the text (a table too wide for the panel shows whole)", .zh = "实时面板占满屏幕；再按 z 回到课文旁（面板里放不下的表格完整显示）"},
    {.keys = {']', '['}, .run = step, .en = "next / previous experiment or exercise", .zh = "下一个 / 上一个实验或练习"},
    {.keys = {'r'}, .run = run_shown, .en = "run the experiment shown in the live panel (one with results asks first)", .zh = "运行实时面板中的实验（已有结果的先询问）"},
    {.keys = {'1', '2', '3', '4', '5', '6', '7', '8', '9'}, .run = choice, .en = "pick a choice of the selected multiple-choice exercise", .zh = "选择题：直接选第几项"},
    {.keys = {'e'}, .run = editor, .en = "code exercise: write the answer in $VISUAL / $EDITOR (default vi); graded when the editor " "exits, kept in $XDG_STATE_HOME/vramlab/answers", .zh = "代码练习：用 $VISUAL / $EDITOR（默认 vi）写答案；编辑器退出后评分，" "文件保存在 $XDG_STATE_HOME/vramlab/answers"},
    {.keys = {'n', 'p'}, .run = section, .en = "next / previous section", .zh = "下一节 / 上一节"},
    {.keys = {'s'}, .run = stepping, .en = "experiments that show their steps: step by step (Space / → for the next) or auto", .zh = "分步展示的实验：逐步（Space / → 下一步）或自动"},
    {.keys = {'q'}, .run = back_key, .en = "back to the menu", .zh = "返回目录", .hint_en = "back", .hint_zh = "返回"},
};

static const struct tui_keymap running_keys =
    TUI_KEYMAP("While it runs", "运行中", TUI_TO_SCREEN, running_rows);
static const struct tui_keymap watch_auto_keys =
    TUI_KEYMAP("Its steps (auto)", "分步（自动）", TUI_TO_SCREEN, watch_auto_rows);
static const struct tui_keymap watch_step_keys =
    TUI_KEYMAP("Its steps (step by step)", "分步（逐步）", TUI_TO_SCREEN, watch_step_rows);
static const struct tui_keymap answer_keys =
    TUI_KEYMAP("Answer field (Enter on it)", "答案栏（在其上按 Enter）", TUI_TO_SCREEN, answer_rows);
static const struct tui_keymap lesson_keys = TUI_KEYMAP("Lesson", "课程", TUI_TO_SCREEN, rows);
static const struct tui_keymap read_keys = TUI_KEYMAP("Reading", "阅读", TUI_TO_SCREEN, read_rows);
static const struct tui_keymap exercise_keys = TUI_KEYMAP("Exercise", "练习", TUI_TO_SCREEN, exercise_rows);

const struct tui_keymap *const tui_lesson_keys[] = {&lesson_keys, &tui_app_keys,
                                                    &tui_scroll_keys, &tui_loop_keys, NULL};
const struct tui_keymap *const tui_lesson_read_keys[] = {&read_keys, &lesson_keys, &tui_app_keys,
                                                         &tui_scroll_keys, &tui_loop_keys, NULL};
const struct tui_keymap *const tui_lesson_exercise_keys[] = {&exercise_keys, &lesson_keys, &tui_app_keys,
                                                             &tui_scroll_keys, &tui_loop_keys, NULL};
const struct tui_keymap *const tui_lesson_running_keys[] = {
    &running_keys, &lesson_keys, &tui_app_keys, &tui_scroll_keys, &tui_loop_keys, NULL};
const struct tui_keymap *const tui_lesson_watch_keys[] = {
    &running_keys, &watch_auto_keys, &lesson_keys, &tui_app_keys, &tui_scroll_keys, &tui_loop_keys, NULL};
const struct tui_keymap *const tui_lesson_step_keys[] = {
    &running_keys, &watch_step_keys, &lesson_keys, &tui_app_keys, &tui_scroll_keys, &tui_loop_keys, NULL};
/* editing: typed text goes to the field; the keys that are not text still act */
const struct tui_keymap *const tui_lesson_answer_keys[] = {
    &answer_keys, &tui_lineedit_keys, &tui_app_keys, &lesson_keys,
    &tui_scroll_keys, &tui_loop_keys, NULL};
const struct tui_keymap *const tui_lesson_grading_keys[] = {
    &running_keys, &answer_keys, &tui_lineedit_keys, &tui_app_keys, &lesson_keys,
    &tui_scroll_keys, &tui_loop_keys, NULL};

static const struct tui_keymap *const *keys(struct tui_app *a, const struct tui_key *k,
                                            struct tui_targets *t)
{
    struct tui_lesson *v = a->lv;
    bool wheel = k && (k->code == TUI_KEY_WHEEL_UP || k->code == TUI_KEY_WHEEL_DOWN);
    if (k && k->code != 'q') v->quit_armed = false; /* "any other key keeps it running" */
    if (k && k->code != TUI_KEY_ENTER && k->code != 'r' && k->code != TUI_KEY_CLICK)
        v->rerun_armed = -1; /* "any other key keeps them" */
    t->screen = a, t->edit = &v->ed, t->scroll = v->zoom ? &v->panel : focused(v);
    if (wheel) /* the wheel scrolls what is under the mouse */
        t->scroll = tui_rect_contains(&a->lay.panel, k->y, k->x)  ? &v->panel
                    : tui_rect_contains(&a->lay.text, k->y, k->x) ? &v->text : NULL;
    bool busy = v->running >= 0 || v->grading >= 0;
    if (v->editing && v->ls) return v->grading >= 0 ? tui_lesson_grading_keys : tui_lesson_answer_keys;
    if (busy && v->running >= 0 && v->steps > 0) /* it shows its steps */
        return lt_runtime_stepping(a->rt) ? tui_lesson_step_keys : tui_lesson_watch_keys;
    if (!busy && !action_shown(v)) return tui_lesson_read_keys;
    if (!busy && is_ex(v, v->sel)) return tui_lesson_exercise_keys;
    return busy ? tui_lesson_running_keys : tui_lesson_keys;
}

/* The text was scrolled: keep the selection on an action on screen. */
static void scrolled(struct tui_app *a, struct tui_scroll *s)
{
    if (s == &a->lv->text) follow(a);
}

/* ---- drawing ------------------------------------------------------------------------------ */

static const char *spinner(bool ascii)
{
    static const char *const u[] = {"⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"};
    static const char *const s[] = {"|", "/", "-", "\\"};
    long t = (long)(gpu_now() * 8);
    return ascii ? s[t % 4] : u[t % 10];
}

static void draw_panel(struct tui_app *a)
{
    struct tui_lesson *v = a->lv;
    const struct tui_rect *r = &a->lay.panel;
    if (r->h <= 0 || r->w <= 0) return;
    int y = r->y, h = r->h;
    int b = v->running >= 0 ? v->running : v->shown;
    /* header: the experiment, its state; reverse video when the panel has the focus */
    char head[512];
    const char *title = b >= 0 && v->ls ? lt_lesson_block_title(v->ls, b) : NULL;
    snprintf(head, sizeof head, "%s%s%s",
             a->opts->replay ? TUI_TR(a, "REPLAY panel", "回放面板") : TUI_TR(a, "Live panel", "实时面板"),
             title ? TUI_TR(a, ": ", "：") : "", title ? title : "");
    char state[64] = "";
    if (b >= 0 && v->running == b && v->in_pause && lt_runtime_stepping(a->rt))
        snprintf(state, sizeof state, TUI_TR(a, "step %d · Space: next", "第 %d 步 · Space：下一步"), v->steps);
    else if (b >= 0 && v->running == b && v->steps > 0)
        snprintf(state, sizeof state, TUI_TR(a, "%s step %d", "%s 第 %d 步"), spinner(a->ascii), v->steps);
    else if (b >= 0 && v->running == b) snprintf(state, sizeof state, "%s %s", spinner(a->ascii), TUI_TR(a, "running", "运行中"));
    else if (b >= 0 && v->blk[b].ran == LT_RUN_DONE) snprintf(state, sizeof state, "%s", TUI_TR(a, "done", "完成"));
    else if (b >= 0 && v->blk[b].ran == LT_RUN_FAILED) snprintf(state, sizeof state, "%s", TUI_TR(a, "failed", "失败"));
    else if (b >= 0 && v->blk[b].ran == LT_RUN_CANCELLED) snprintf(state, sizeof state, "%s", TUI_TR(a, "cancelled", "已取消"));
    int sw = tui_width(state, strlen(state));
    if (sw > r->w / 2) sw = 0, state[0] = 0;
    if (v->focus == 1) tui_term_extra(A_REVERSE);
    char headfit[700]; /* a long title ends in "…" at a word, clear of the state */
    tui_fit_words(head, r->w - sw - (sw ? 1 : 0), a->ascii, headfit, sizeof headfit);
    tui_term_text(y, r->x, r->w - sw - (sw ? 1 : 0), headfit, TS_PANEL_HEAD);
    if (sw) {
        tui_term_fill(y, r->x + r->w - sw - 1, 1, 1, TS_PLAIN);
        int ss = b >= 0 && v->blk[b].ran == LT_RUN_FAILED && v->running != b ? TS_BAD : TS_GOOD;
        tui_term_text(y, r->x + r->w - sw, sw, state, ss);
    }
    tui_term_extra(0);
    y++, h--;
    if (h <= 0) return;
    if (b < 0 || !v->blk[b].ps) {
        const char *m = v->ls ? TUI_TR(a, "This lesson has no experiment.", "这一课没有实验。") : "";
        tui_term_text(y, r->x, r->w, m, TS_DIM);
        return;
    }
    struct tui_panelset *ps = v->blk[b].ps;
    /* status line */
    const char *st = tui_panelset_status(ps);
    if (!*st && v->blk[b].ran == LT_RUN_IDLE && v->running != b)
        st = TUI_TR(a, "Not run yet: select the Run line and press Enter.", "尚未运行：选中“运行”一行后按 Enter。");
    bool failed = v->blk[b].ran == LT_RUN_FAILED && v->running != b;
    if (failed) { /* an error gets up to three lines: file:line and the message */
        struct tui_lines S = {0};
        struct tui_render_opts so = {r->w, tui_app_lang(a), a->ascii, -1};
        tui_render_para(&S, st, strlen(st), TS_BAD, false, "", TS_BAD, &so);
        int k;
        for (k = 0; k < S.n && k < 3 && h > 1; k++, y++, h--) tui_term_line(y, r->x, r->w, &S.v[k], TS_PLAIN);
        tui_lines_free(&S);
    } else if (!*state || strcmp(st, state)) { /* "done" once: the header says it already */
        tui_term_text(y, r->x, r->w, st, TS_DIM);
        y++, h--;
    }
    /* print() log at the bottom */
    int nlog = tui_panelset_nlog(ps), logh = 0;
    if (nlog > 0 && h >= 8) logh = nlog < h / 4 ? nlog : h / 4;
    if (logh < 1 && nlog > 0 && h >= 8) logh = 1;
    int body = h - (logh ? logh + 1 : 0);
    struct tui_lines L = {0};
    tui_panelset_set_rows(ps, body); /* a curve fits the viewport */
    /* framed panels; SIMULATED is the header strip's; z shows a panel whole */
    tui_panelset_set_view(ps, &(struct tui_panel_view){true, v->zoom ? 0 : 'z', v->zoom});
    tui_panelset_render(ps, &L, r->w - 1, a->ascii, tui_app_lang(a));
    tui_scroll_resize(&v->panel, L.n, body);
    for (int i = 0; i < body; i++) {
        int li = v->panel.top + i;
        tui_term_line(y + i, r->x, r->w - 1, li < L.n ? &L.v[li] : NULL, TS_PLAIN);
    }
    tui_scroll_marks(&v->panel, y, r->x + r->w - 1, body, a->ascii);
    tui_lines_free(&L);
    const struct tui_glyphs *g = tui_glyphs(a->ascii);
    if (logh) {
        int ly = y + body;
        struct tui_lb lb = {0};
        struct tui_lines R = {0};
        lb.L = &R;
        const char *lt = TUI_TR(a, " output ", " 输出 ");
        tui_lb_repeat(&lb, g->h, 2, TS_RULE);
        tui_lb_fit(&lb, lt, tui_width(lt, strlen(lt)), TUI_LEFT, a->ascii, TS_DIM);
        while (lb.width < r->w) tui_lb_puts(&lb, g->h, TS_RULE);
        tui_lb_end(&lb, -1, TUI_LK_TEXT, 0);
        tui_lb_free(&lb);
        tui_term_line(ly, r->x, r->w, &R.v[0], TS_PLAIN);
        tui_lines_free(&R);
        for (int i = 0; i < logh; i++) {
            const char *s = tui_panelset_log(ps, nlog - logh + i);
            char *f = a->ascii ? tui_ascii_fold(s, strlen(s), NULL, NULL) : NULL;
            tui_term_text(ly + 1 + i, r->x, r->w, f ? f : s, TS_PLAIN);
            free(f);
        }
    }
}

/* Rebuild the text for width w, keeping the reader's place: the block at the top stays there. */
static void rebuild(struct tui_app *a, int w)
{
    struct tui_lesson *v = a->lv;
    int top = v->text.top, anchor = top < v->doc.n ? v->doc.v[top].block : -1, offs = 0;
    for (int i = top - 1; i >= 0 && anchor >= 0 && v->doc.v[i].block == anchor; i--) offs++;
    bool resized = v->doc_w && v->doc_w != w;
    build_doc(a, w);
    tui_scroll_resize(&v->text, v->doc.n, a->lay.text.h);
    if (resized && anchor >= 0)
        for (int i = 0; i < v->doc.n; i++)
            if (v->doc.v[i].block == anchor) {
                tui_scroll_to(&v->text, i + offs);
                break;
            }
    if (v->sel < 0) follow(a);
    if (v->reveal >= 0) { /* new feedback under an answer: bring its last line into view */
        int last = -1;
        for (int i = 0; i < v->doc.n; i++)
            if (v->doc.v[i].block == v->reveal) last = i;
        if (last >= v->text.top + v->text.height) tui_scroll_to(&v->text, last - v->text.height + 1);
        v->reveal = -1;
    }
}

static void lesson_draw(struct tui_app *a)
{
    struct tui_lesson *v = a->lv;
    const struct tui_rect *r = &a->lay.text;
    if (v && v->zoom && a->lay.mode != TUI_TOO_SMALL) { /* the panel on the whole body */
        a->lay.panel = (struct tui_rect){a->lay.text.y, 0, a->lay.rows - 2, a->lay.cols};
        a->lay.text = a->lay.divider = (struct tui_rect){0, 0, 0, 0};
        draw_panel(a);
        return;
    }
    tui_app_divider(a);
    if (!v || r->w <= 0 || r->h <= 0) return;
    int w = r->w - 2; /* a one-column margin each side */
    if (w < 1) w = 1;
    tui_scroll_resize(&v->text, v->doc.n, r->h);
    if (v->stale || v->doc_w != w) rebuild(a, w);
    for (int i = 0; i < r->h; i++) {
        int li = v->text.top + i, y = r->y + i;
        const struct tui_line *l = li < v->doc.n ? &v->doc.v[li] : NULL;
        bool sel = l && v->sel >= 0 && l->block == v->sel && action_kind(l->kind) && v->focus == 0 &&
                   !(v->editing && l->kind == TUI_LK_INPUT);
        tui_term_fill(y, r->x, 1, 1, TS_PLAIN);
        if (sel) tui_term_extra(A_REVERSE);
        tui_term_line(y, r->x + 1, sel ? (l->width < w ? l->width : w) : r->w - 1, l, TS_PLAIN);
        if (sel) {
            tui_term_extra(0);
            if (l->width < r->w - 1) tui_term_fill(y, r->x + 1 + l->width, 1, r->w - 1 - l->width, TS_PLAIN);
        }
    }
    tui_scroll_marks(&v->text, r->y, r->x + r->w - 1, r->h, a->ascii);
    draw_panel(a);
}

static bool lesson_cursor(const struct tui_app *a, int *y, int *x)
{
    const struct tui_lesson *v = a->lv;
    if (!v || !v->editing || v->cur_line < 0) return false;
    int row = v->cur_line - v->text.top;
    if (row < 0 || row >= a->lay.text.h) return false;
    *y = a->lay.text.y + row;
    *x = a->lay.text.x + 1 + v->cur_col;
    if (*x >= a->lay.text.x + a->lay.text.w) *x = a->lay.text.x + a->lay.text.w - 1;
    return true;
}

static void title(const struct tui_app *a, char *out, size_t n)
{
    int c = cat_index(a);
    const char *id = c >= 0 ? a->cat[c].id : "";
    const char *t = c >= 0 ? a->cat[c].title[tui_app_zh(a)] : a->opts->open_lesson;
    snprintf(out, n, "vramlab · %s%s%s", id && *id ? id : "", id && *id ? " " : "", t ? t : "");
}

const struct tui_view tui_lesson_view = {
    .draw = lesson_draw, .cursor = lesson_cursor, .keys = keys, .title = title, .back = back,
    .scrolled = scrolled, .also = tui_lesson_answer_keys,
    .open = lesson_open, .busy = lesson_busy, .tick = lesson_tick, .sink = lesson_sink,
    .lang_changed = lesson_lang_changed, .close = lesson_close,
};
