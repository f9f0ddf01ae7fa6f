/* tui_examview.c - the exam screen (tui_examview.h). States: the start page (before the clock),
 * a question (its answer field always open: typing edits, each change saved), the list of
 * questions (Tab), a confirmation (submit, or leave with the clock running), and the end. The
 * timer is in the title bar, red in the last minute; at zero the answers are submitted as they
 * are. Keys are the tables at the end (? shows them). */
#include "tui_examview.h"

#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "tui.h"
#include "tui_help.h"
#include "tui_lineedit.h"
#include "tui_loop.h"
#include "tui_render.h"
#include "tui_scroll.h"
#include "tui_term.h"
#include "tui_wrap.h"

enum state { S_START, S_QUESTION, S_LIST, S_SUBMIT, S_LEAVE };

struct exam {
    const struct tui_exam_view_in *in;
    struct lt_runtime *rt;
    enum state state;
    int cur, list_sel;
    struct tui_lineedit ed;
    char loaded[TUI_LINE_MAX]; /* the field as the question opened: unchanged, nothing is saved */
    struct tui_scroll sc, list_sc;
    struct tui_help help;
    char notice[512];
    bool notice_bad, zh, ascii, quit;
    enum tui_exam_end end;
    long shown_left; /* the seconds the timer shows, to redraw when it changes */
    int cur_y, cur_x; /* the answer field's cursor on screen (-1: none) */
};

#define TR(e, en, zh_) ((e)->zh ? (zh_) : (en))

static long now(void) { return (long)time(NULL); }

static long left(const struct exam *e) { return tui_exam_left(e->in->sheet, now()); }

static int answered(const struct exam *e)
{
    int k = 0;
    for (int i = 0; i < e->in->n; i++) k += tui_exam_get(e->in->sheet, e->in->items[i].qid) != NULL;
    return k;
}

static void say(struct exam *e, bool bad, const char *msg)
{
    snprintf(e->notice, sizeof e->notice, "%s", msg);
    e->notice_bad = bad;
}

/* The field's text into the sheet, when it changed. */
static void save(struct exam *e)
{
    if (e->state == S_START || e->end != TUI_EXAM_LEFT) return;
    const char *qid = e->in->items[e->cur].qid, *was = tui_exam_get(e->in->sheet, qid);
    char err[1400];
    e->ed.s[e->ed.len] = 0;
    if (!strcmp(e->loaded, e->ed.s) || (was ? !strcmp(was, e->ed.s) : !e->ed.len)) return;
    if (!tui_exam_answer(e->in->sheet, qid, e->ed.s, err, sizeof err)) say(e, true, err);
    else say(e, false, TR(e, "saved", "已保存"));
}

static void open_question(struct exam *e, int i)
{
    save(e);
    if (i < 0 || i >= e->in->n) return;
    e->cur = i;
    const char *a = tui_exam_get(e->in->sheet, e->in->items[i].qid);
    tui_lineedit_set(&e->ed, a ? a : "");
    snprintf(e->loaded, sizeof e->loaded, "%s", e->ed.s);
    if (a && strlen(a) > (size_t)e->ed.len) /* on the sheet from elsewhere: kept unless changed */
        say(e, true, TR(e, "This answer is longer than the field: it is kept whole unless you change it",
                        "这个答案比输入框长：不改动就原样保留"));
    tui_scroll_to(&e->sc, 0);
    e->state = S_QUESTION;
}

static void submit(struct exam *e, bool timed_out)
{
    char err[1400];
    save(e);
    if (!tui_exam_submit(e->in->sheet, err, sizeof err) && !e->in->sheet->submitted) {
        say(e, true, err);
        return;
    }
    e->end = timed_out ? TUI_EXAM_TIMED_OUT : TUI_EXAM_SUBMITTED;
    e->quit = true;
}

/* ---- drawing ------------------------------------------------------------------------------ */

static void para(struct exam *e, struct tui_lines *L, const char *s, int style, const char *first, int width)
{
    struct tui_render_opts o = {width, e->zh ? "zh" : "en", e->ascii, -1};
    tui_render_para(L, s, strlen(s), style, true, first, style, &o);
}

static void blank(struct tui_lines *L)
{
    struct tui_lb b = {.L = L};
    tui_lb_end(&b, -1, TUI_LK_TEXT, 0);
}

static const char *kind_words(const struct exam *e, const char *kind)
{
    if (!strcmp(kind, "choice")) return TR(e, "choose one", "选择一项");
    if (!strcmp(kind, "number")) return TR(e, "a number", "一个数");
    if (!strcmp(kind, "predict")) return TR(e, "a prediction, graded against this machine's measurement",
                                            "预测，按本机测量值评分");
    return TR(e, "Lua code, on one line", "一行 Lua 代码");
}

static void fmt_time(long s, char *out, size_t n)
{
    if (s < 0) s = 0;
    if (s >= 3600) snprintf(out, n, "%ld:%02ld:%02ld", s / 3600, s / 60 % 60, s % 60);
    else snprintf(out, n, "%02ld:%02ld", s / 60, s % 60);
}

static void build_start(struct exam *e, struct tui_lines *L, int width)
{
    char buf[1024], t[32];
    para(e, L, e->in->title, TS_H1, "", width);
    blank(L);
    fmt_time(e->in->seconds, t, sizeof t);
    snprintf(buf, sizeof buf, TR(e, "%d questions · %s to answer them · student %s",
                                 "%d 道题 · 限时 %s · 考生 %s"), e->in->n, t, e->in->student);
    para(e, L, buf, TS_EM, "", width);
    blank(L);
    para(e, L, TR(e, "The clock starts when you press Enter and does not stop, even if you leave: "
                     "come back with the same command to go on.",
                  "按 Enter 开始计时；计时不会停，即使你离开也一样：用同一条命令回来继续。"),
         TS_PLAIN, "• ", width);
    para(e, L, TR(e, "Every answer is saved as you type it. There are no hints and no feedback "
                     "until you submit.",
                  "每个答案在输入时即保存。提交之前没有提示，也没有反馈。"),
         TS_PLAIN, "• ", width);
    para(e, L, TR(e, "Move between questions with PgUp/PgDn (Enter saves and goes on), Tab lists "
                     "them all; change any answer until you submit (F10).",
                  "用 PgUp/PgDn 在题目间移动（Enter 保存并进入下一题），Tab 列出全部题目；提交（F10）"
                  "之前可以修改任何答案。"),
         TS_PLAIN, "• ", width);
    para(e, L, TR(e, "When the time is up, your answers are submitted as they are.",
                  "时间到时，答案按当时的样子自动提交。"),
         TS_PLAIN, "• ", width);
    blank(L);
    para(e, L, TR(e, "Enter: start the exam · Esc: leave without starting",
                  "Enter：开始考试 · Esc：不开始，离开"),
         TS_H2, "", width);
    snprintf(buf, sizeof buf, "%s%s", TR(e, "Graded on: ", "评分所用机器："), e->in->backend);
    para(e, L, buf, TS_DIM, "", width);
}

static void build_question(struct exam *e, struct tui_lines *L, int width, int *field_line)
{
    const struct tui_exam_item *it = &e->in->items[e->cur];
    char buf[1024];
    snprintf(buf, sizeof buf, TR(e, "Question %d of %d · %s %s · %s", "第 %d 题，共 %d 题 · %s %s · %s"),
             e->cur + 1, e->in->n, it->lesson, it->title, kind_words(e, it->kind));
    para(e, L, buf, TS_H2, "", width);
    blank(L);
    struct tui_render_opts o = {width, e->zh ? "zh" : "en", e->ascii, -1};
    tui_render_markup(L, it->prompt, strlen(it->prompt), &o);
    for (int i = 0; i < it->nchoices; i++) {
        char first[16];
        snprintf(first, sizeof first, "  %d) ", i + 1);
        para(e, L, it->choices[i], TS_PLAIN, first, width);
    }
    blank(L);
    *field_line = L->n; /* drawn over by the field */
    blank(L);
}

static void build_list(struct exam *e, struct tui_lines *L, int width)
{
    const struct tui_glyphs *g = tui_glyphs(e->ascii);
    char buf[512];
    snprintf(buf, sizeof buf, TR(e, "Questions: %d of %d answered (Enter opens one, F10 submits, Tab goes back)",
                                 "题目：已答 %d / %d（Enter 打开，F10 提交，Tab 返回）"),
             answered(e), e->in->n);
    para(e, L, buf, TS_H2, "", width);
    for (int i = 0; i < e->in->n; i++) {
        const struct tui_exam_item *it = &e->in->items[i];
        const char *a = tui_exam_get(e->in->sheet, it->qid);
        char first[32], line[400];
        /* answered or not, never right or wrong: no check mark before the exam is graded */
        snprintf(first, sizeof first, "%s %s %2d ", i == e->list_sel ? g->arrow : " ",
                 a ? (e->ascii ? "*" : "●") : (e->ascii ? "o" : "○"), i + 1);
        snprintf(line, sizeof line, "%s %s · %s", it->lesson, it->title,
                 a ? (strchr(a, '\n') ? TR(e, "(code)", "（代码）") : a) : TR(e, "(blank)", "（未作答）"));
        int at = L->n;
        para(e, L, line, TS_PLAIN, first, width);
        for (int k = at; k < L->n; k++) L->v[k].block = i;
    }
}

static const struct tui_keymap *const *keys(const struct exam *e);

static void draw_field(struct exam *e, int y, int cols)
{
    const struct tui_exam_item *it = &e->in->items[e->cur];
    char prefix[128], shown[TUI_LINE_MAX * 3];
    if (!strcmp(it->kind, "choice"))
        snprintf(prefix, sizeof prefix, TR(e, " Your answer (1-%d) > ", " 你的答案（1-%d）> "), it->nchoices);
    else if (it->unit && *it->unit)
        snprintf(prefix, sizeof prefix, TR(e, " Your answer (%s) > ", " 你的答案（%s）> "), it->unit);
    else snprintf(prefix, sizeof prefix, "%s", TR(e, " Your answer > ", " 你的答案 > "));
    int pw = tui_width(prefix, strlen(prefix));
    tui_term_text(y, 1, pw, prefix, TS_EM);
    int fw = cols - 2 - pw, col = 0;
    if (fw < 4) fw = 4;
    tui_lineedit_view(&e->ed, fw, e->ascii ? "|" : "⏎", shown, sizeof shown, &col);
    tui_term_text(y, 1 + pw, fw, shown, TS_INPUT);
    e->cur_y = y, e->cur_x = 1 + pw + col;
}

static void draw(void *ud)
{
    struct exam *e = ud;
    int rows = LINES, cols = COLS;
    char left_txt[600], right_txt[200], t[32];
    long l = e->state == S_START ? e->in->seconds : left(e);
    fmt_time(l, t, sizeof t);
    snprintf(left_txt, sizeof left_txt, "vramlab exam · %s · %s", e->in->title, e->in->student);
    if (e->state == S_START) snprintf(right_txt, sizeof right_txt, TR(e, "%s to answer ", "限时 %s "), t);
    else snprintf(right_txt, sizeof right_txt, TR(e, "%d/%d answered · %s left ", "已答 %d/%d · 剩余 %s "),
                  answered(e), e->in->n, t);
    char *f = e->ascii ? tui_ascii_fold(left_txt, strlen(left_txt), NULL, NULL) : NULL;
    tui_term_title_bar(0, cols, f ? f : left_txt, right_txt, strstr(e->in->backend, "SIMULATED") != NULL, e->zh,
                       e->state != S_START && l < 60 ? TS_BAD : TS_TITLE);
    free(f);
    struct tui_lines L = {0};
    int width = cols - 2, body = rows - 2, field = -1;
    struct tui_scroll *sc = e->state == S_LIST ? &e->list_sc : &e->sc;
    e->cur_y = -1;
    if (e->state == S_START) build_start(e, &L, width);
    else if (e->state == S_LIST) build_list(e, &L, width);
    else build_question(e, &L, width, &field);
    tui_scroll_resize(sc, L.n, body);
    if (e->state == S_LIST) {
        int first = -1, last = -1;
        for (int i = 0; i < L.n; i++)
            if (L.v[i].block == e->list_sel) last = i, first = first < 0 ? i : first;
        if (first >= 0) tui_scroll_show(sc, first, last, 0);
    } else if (field >= 0) {
        tui_scroll_show(sc, field, field, 0); /* the field stays in view */
    }
    for (int i = 0; i < body; i++) {
        int li = sc->top + i;
        const struct tui_line *ln = li < L.n ? &L.v[li] : NULL;
        bool sel = e->state == S_LIST && ln && ln->block == e->list_sel;
        if (sel) tui_term_extra(A_REVERSE);
        if (li == field && e->state != S_START && e->state != S_LIST) draw_field(e, 1 + i, cols);
        else tui_term_line(1 + i, 1, cols - 1, ln, TS_PLAIN);
        if (sel) tui_term_extra(0);
    }
    tui_scroll_marks(sc, 1, cols - 1, body, e->ascii);
    tui_lines_free(&L);
    if (e->state == S_SUBMIT || e->state == S_LEAVE) { /* a one-line question in the middle */
        char q[600];
        int blanks = e->in->n - answered(e);
        if (e->state == S_SUBMIT)
            snprintf(q, sizeof q, TR(e, " Submit? %d of %d answered, %d blank: nothing can be changed after it. y: submit · n: go back ",
                                     " 提交吗？已答 %d / %d，%d 道未作答：提交后不能再修改。y：提交 · n：返回 "),
                     answered(e), e->in->n, blanks);
        else
            snprintf(q, sizeof q, "%s", TR(e, " Leave? Your answers are kept, and the clock keeps running: the same command brings you back. y: leave · n: stay ",
                                           " 离开吗？答案会保留，计时继续：用同一条命令回来。y：离开 · n：留下 "));
        /* wrapped, not cut: at 80 columns "y: submit · n: go back" would be lost past the edge */
        struct tui_wline *wl = NULL;
        int nl = tui_wrap(q, strlen(q), cols - 2, &wl);
        for (int i = 0; i < nl && i < 4; i++) {
            char line[sizeof q + 2];
            int end = i == 3 ? (int)strlen(q) : wl[i].end; /* a fourth line takes the rest, cut */
            snprintf(line, sizeof line, "%s%.*s", i ? " " : "", end - wl[i].start, q + wl[i].start);
            tui_term_bar(rows / 2 + i, cols, line, "", TS_SELECTED);
        }
        if (nl < 0) tui_term_bar(rows / 2, cols, q, "", TS_SELECTED);
        free(wl);
        e->cur_y = -1;
    }
    tui_keys_hints(e->help.open ? tui_help_keys : keys(e), e->zh, "  ", cols / 2, right_txt, sizeof right_txt);
    char nosim[512]; /* SIMULATED is the header strip's */
    tui_backend_nosim(e->in->backend, nosim, sizeof nosim);
    tui_term_bar(rows - 1, cols, e->notice[0] ? e->notice : nosim, right_txt,
                 e->notice[0] && e->notice_bad ? TS_BAD : TS_STATUS);
    if (e->help.open) {
        struct tui_layout lay;
        tui_layout_compute(rows, cols, &lay);
        tui_help_draw(&e->help, &lay.help, e->zh, e->ascii);
        e->cur_y = -1;
    }
}

static bool cursor(void *ud, int *y, int *x)
{
    struct exam *e = ud;
    if (e->cur_y < 0) return false;
    *y = e->cur_y, *x = e->cur_x;
    return true;
}

/* ---- keys ----------------------------------------------------------------------------------- */

static void start_key(void *ud, const struct tui_key *k)
{
    struct exam *e = ud;
    char err[1400];
    if (!tui_exam_start(e->in->sheet, e->in->seconds, err, sizeof err)) {
        say(e, true, err);
        return;
    }
    open_question(e, 0);
}

static void leave_key(void *ud, const struct tui_key *k)
{
    struct exam *e = ud;
    if (e->state == S_START) e->quit = true;
    else save(e), e->state = S_LEAVE;
}

static void next_key(void *ud, const struct tui_key *k)
{
    struct exam *e = ud;
    if (e->cur + 1 < e->in->n) open_question(e, e->cur + 1);
    else save(e), say(e, false, TR(e, "That was the last question: Tab lists them, F10 submits.",
                                   "这是最后一题：Tab 列出全部题目，F10 提交。"));
}

static void prev_key(void *ud, const struct tui_key *k)
{
    struct exam *e = ud;
    if (e->cur > 0) open_question(e, e->cur - 1);
}

static void list_key(void *ud, const struct tui_key *k)
{
    struct exam *e = ud;
    save(e);
    e->list_sel = e->cur;
    e->state = S_LIST;
}

static void submit_key(void *ud, const struct tui_key *k)
{
    struct exam *e = ud;
    save(e);
    e->state = S_SUBMIT;
}

static void list_step(void *ud, const struct tui_key *k)
{
    struct exam *e = ud;
    bool up = k->code == TUI_KEY_FN(KEY_UP) || k->code == 'k';
    if (up && e->list_sel > 0) e->list_sel--;
    if (!up && e->list_sel + 1 < e->in->n) e->list_sel++;
}

static void list_pick(void *ud, const struct tui_key *k) { open_question(ud, ((struct exam *)ud)->list_sel); }

static void list_back(void *ud, const struct tui_key *k)
{
    struct exam *e = ud;
    open_question(e, e->cur);
}

static void yes(void *ud, const struct tui_key *k)
{
    struct exam *e = ud;
    if (e->state == S_SUBMIT) submit(e, false);
    else e->quit = true; /* leave: the end stays TUI_EXAM_LEFT */
}

static void no(void *ud, const struct tui_key *k)
{
    struct exam *e = ud;
    open_question(e, e->cur);
}

static void help(void *ud, const struct tui_key *k)
{
    struct exam *e = ud;
    const struct tui_keymap *const *ctx[] = {keys(e)};
    tui_help_open(&e->help, ctx, 1, NULL, 0);
}

static const struct tui_binding start_rows[] = {
    {.keys = {TUI_KEY_ENTER}, .run = start_key, .en = "start the exam (the clock starts)",
     .zh = "开始考试（开始计时）", .hint_en = "start", .hint_zh = "开始"},
    {.keys = {TUI_KEY_ESC, 'q'}, .run = leave_key, .en = "leave without starting", .zh = "不开始，离开",
     .hint_en = "leave", .hint_zh = "离开"},
    {.keys = {'?', TUI_KEY_FN(KEY_F(1))}, .run = help, .en = "this help", .zh = "本帮助"},
};
static const struct tui_binding question_rows[] = {
    {.keys = {TUI_KEY_ENTER}, .run = next_key, .en = "save, and the next question", .zh = "保存并进入下一题",
     .hint_en = "next", .hint_zh = "下一题"},
    /* second: the key bar drops hints from the right on a narrow terminal, and submitting is the
     * one a student must find */
    {.keys = {TUI_KEY_FN(KEY_F(10))}, .run = submit_key, .en = "submit (asks first)", .zh = "提交（会先确认）",
     .hint_en = "submit", .hint_zh = "提交"},
    {.keys = {TUI_KEY_FN(KEY_NPAGE), TUI_CTRL('n')}, .run = next_key, .en = "the next question", .zh = "下一题"},
    {.keys = {TUI_KEY_FN(KEY_PPAGE), TUI_CTRL('p')}, .run = prev_key, .en = "the previous question",
     .zh = "上一题", .hint_en = "back", .hint_zh = "上一题"},
    {.keys = {'\t'}, .run = list_key, .en = "the list of questions", .zh = "题目列表", .hint_en = "list",
     .hint_zh = "列表"},
    {.keys = {TUI_KEY_ESC}, .run = leave_key, .en = "leave (asks first; the clock keeps running)",
     .zh = "离开（会先确认；计时继续）", .hint_en = "leave", .hint_zh = "离开"},
    {.keys = {TUI_KEY_FN(KEY_F(1))}, .run = help, .en = "this help", .zh = "本帮助"},
};
static const struct tui_binding list_rows[] = {
    {.keys = {TUI_KEY_FN(KEY_UP), TUI_KEY_FN(KEY_DOWN), 'k', 'j'}, .run = list_step,
     .en = "previous / next question", .zh = "上一题 / 下一题"},
    {.keys = {TUI_KEY_ENTER}, .run = list_pick, .en = "open the selected question", .zh = "打开选中的题目",
     .hint_en = "open", .hint_zh = "打开"},
    {.keys = {TUI_KEY_FN(KEY_F(10)), 's'}, .run = submit_key, .en = "submit (asks first)",
     .zh = "提交（会先确认）", .hint_en = "submit", .hint_zh = "提交"},
    {.keys = {'\t', TUI_KEY_ESC}, .run = list_back, .en = "back to the question", .zh = "回到题目",
     .hint_en = "back", .hint_zh = "返回"},
    {.keys = {'?', TUI_KEY_FN(KEY_F(1))}, .run = help, .en = "this help", .zh = "本帮助"},
};
static const struct tui_binding confirm_rows[] = {
    {.keys = {'y', 'Y'}, .run = yes, .en = "yes", .zh = "是", .hint_en = "yes", .hint_zh = "是"},
    {.keys = {'n', 'N', TUI_KEY_ESC}, .run = no, .en = "no, go back", .zh = "否，返回", .hint_en = "no",
     .hint_zh = "否"},
};

static const struct tui_keymap start_map = TUI_KEYMAP("Exam", "考试", TUI_TO_SCREEN, start_rows);
static const struct tui_keymap question_map = TUI_KEYMAP("Question", "题目", TUI_TO_SCREEN, question_rows);
static const struct tui_keymap list_map = TUI_KEYMAP("Questions", "题目列表", TUI_TO_SCREEN, list_rows);
static const struct tui_keymap confirm_map = TUI_KEYMAP("Confirm", "确认", TUI_TO_SCREEN, confirm_rows);

const struct tui_keymap *const tui_exam_start_keys[] = {&start_map, &tui_scroll_keys, &tui_loop_keys, NULL};
const struct tui_keymap *const tui_exam_question_keys[] = {&question_map, &tui_lineedit_keys, &tui_loop_keys, NULL};
const struct tui_keymap *const tui_exam_list_keys[] = {&list_map, &tui_loop_keys, NULL};
const struct tui_keymap *const tui_exam_confirm_keys[] = {&confirm_map, &tui_loop_keys, NULL};

static const struct tui_keymap *const *keys(const struct exam *e)
{
    switch (e->state) {
    case S_START: return tui_exam_start_keys;
    case S_LIST: return tui_exam_list_keys;
    case S_SUBMIT:
    case S_LEAVE: return tui_exam_confirm_keys;
    default: return tui_exam_question_keys;
    }
}

static void key(void *ud, const struct tui_key *k)
{
    struct exam *e = ud;
    e->notice[0] = 0;
    if (e->help.open) {
        tui_help_key(&e->help, k);
        return;
    }
    struct tui_targets t = {e, &e->sc, &e->ed};
    tui_keys_dispatch(keys(e), &t, k);
    if (e->state == S_QUESTION && !e->quit) save(e); /* as typed */
}

static bool tick(void *ud)
{
    struct exam *e = ud;
    if (e->state == S_START || e->quit) return false;
    long l = left(e);
    if (l <= 0) {
        submit(e, true);
        return true;
    }
    bool d = l != e->shown_left;
    e->shown_left = l;
    return d;
}

static bool quit(void *ud) { return ((struct exam *)ud)->quit; }

int tui_examview(struct lt_runtime *rt, const struct tui_exam_view_in *in, enum tui_exam_end *end)
{
    struct exam e;
    memset(&e, 0, sizeof e);
    e.in = in, e.rt = rt, e.zh = !strcmp(lt_runtime_lang(rt), "zh"), e.end = TUI_EXAM_LEFT;
    *end = TUI_EXAM_LEFT;
    tui_lineedit_init(&e.ed, TUI_LINE_MAX - 1);
    char err[256];
    if (!tui_term_init(err, sizeof err)) {
        fprintf(stderr, "vramlab: %s. exam needs a terminal, or --answers FILE.\n", err);
        return 3;
    }
    e.ascii = !tui_term_utf8();
    if (in->sheet->started) { /* resumed: the clock kept running */
        char t[32], msg[128];
        fmt_time(left(&e), t, sizeof t);
        snprintf(msg, sizeof msg, TR(&e, "Resumed: %s left", "已恢复：剩余 %s"), t);
        open_question(&e, 0);
        say(&e, false, msg);
    }
    struct tui_screen_ops ops = {
        .ud = &e, .rt = rt, .draw = draw, .key = key, .quit = quit, .tick = tick, .cursor = cursor,
        .idle_ms = 250, .min_rows = 8, .min_cols = 40,
    };
    if (in->sheet->started && left(&e) <= 0) submit(&e, true); /* came back too late */
    int rc = e.quit ? 0 : tui_loop_run(&ops);
    save(&e); /* a quit signal: what was typed is kept */
    tui_term_done();
    *end = e.end;
    return rc;
}
