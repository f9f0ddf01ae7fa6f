/* tui_repl.c - the sandbox REPL screen: a Lua prompt in the same sandbox as the lessons (its own
 * lt_vm, kept for the session, so definitions stay), a transcript of inputs, results, print()
 * output and errors, line editing with history (saved crash-safely to
 * $XDG_STATE_HOME/vramlab/history), multi-line input (a chunk that ends early asks for more, as
 * lua.c does), and a live panel the learner draws in with plot.*. An entry runs under the
 * sandbox limits (a runaway loop ends with a message and the session goes on); its measurements
 * run on the worker thread, so the screen stays live and Esc cancels them. */
#include <curses.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gpu_file.h"
#include "gpu_float.h"
#include "gpu_snapshot.h"
#include "gpu_suggest.h"
#include "tui_app.h"
#include "tui_history.h"
#include "tui_lineedit.h"
#include "tui_run.h"
#include "tui_state.h"
#include "tui_term.h"
#include "tui_wrap.h"

#define TRANSCRIPT_MAX 500

enum item_kind { IT_INPUT, IT_RESULT, IT_PRINT, IT_ERROR, IT_INFO, IT_CONT /* an input line after the first */ };

struct item {
    enum item_kind kind;
    char *text;
};

struct tui_repl {
    struct lt_vm *vm;
    struct tui_history *hist;
    struct tui_panelset *ps;
    struct item *items;
    int nitems;
    char *pending;            /* lines of an unfinished chunk */
    struct tui_lineedit ed;   /* the line being edited (may hold '\n' from a recalled entry) */
    struct tui_scroll text;   /* the transcript: follows new output */
    struct tui_scroll panel;
    int cur_y, cur_x;         /* cursor on screen (-1: hidden) */
    double xmin, xmax;        /* plot.point's x range: a wide positive range gets a log axis */
    bool logx;
    char xl[32], yl[32];      /* plot.point's axis labels ({x =, y =}; "" until given) */
    char *running;            /* the entry being evaluated (NULL: none) */
};

static void add_item(struct tui_repl *r, enum item_kind k, const char *text)
{
    if (r->nitems == TRANSCRIPT_MAX) {
        free(r->items[0].text);
        memmove(r->items, r->items + 1, (TRANSCRIPT_MAX - 1) * sizeof *r->items);
        r->nitems--;
    }
    if (!r->items) r->items = calloc(TRANSCRIPT_MAX, sizeof *r->items);
    char *t = strdup(text ? text : "");
    if (!r->items || !t) {
        free(t);
        return;
    }
    r->items[r->nitems++] = (struct item){k, t};
    tui_scroll_end(&r->text); /* new output: follow it */
}

/* ---- the panel -------------------------------------------------------------------------------- */

static void declare(struct tui_app *a, const char *id)
{
    struct tui_repl *r = a->repl;
    static const struct { const char *id, *kind, *en, *zh; } known[] = {
        {"curve", "curve", "plot.point", "plot.point 曲线"},
        {"bars", "bars", "plot.bar", "plot.bar 柱状图"},
        {"gauges", "gauge", "plot.gauge", "plot.gauge 仪表"},
        {"table", "table", "plot.row", "plot.row 表格"},
        {"notes", "bars", "plot.note", "plot.note 备注"},
    };
    for (size_t i = 0; i < sizeof known / sizeof *known; i++)
        if (!strcmp(known[i].id, id)) {
            struct lt_panel p = {known[i].id, known[i].kind, TUI_TR(a, known[i].en, known[i].zh),
                                 *r->xl ? r->xl : "x", *r->yl ? r->yl : "y", "",
                                 r->logx && !strcmp(id, "curve"), 0, false};
            tui_panelset_declare(r->ps, &p, 1);
        }
}

static void repl_sink(struct tui_app *a, const struct lt_event *ev)
{
    struct tui_repl *r = a->repl;
    if (!r) return;
    const char *text = lt_tx(ev->text, false), *unit = lt_tx(ev->unit, false); /* user code's: one language */
    switch (ev->type) {
    case LT_EV_PRINT: add_item(r, IT_PRINT, text); break;
    case LT_EV_STATUS: add_item(r, IT_INFO, text); break;
    default:
        if (ev->type == LT_EV_POINT && isfinite(ev->x)) {
            bool first = gpu_feq(r->xmax, 0) && gpu_feq(r->xmin, 0);
            if (first || ev->x < r->xmin) r->xmin = ev->x;
            if (first || ev->x > r->xmax) r->xmax = ev->x;
            bool logx = r->xmin > 0 && r->xmax / r->xmin >= 100;
            bool labels = (*text && strcmp(text, r->xl)) || (*unit && strcmp(unit, r->yl));
            if (*text) snprintf(r->xl, sizeof r->xl, "%s", text);
            if (*unit) snprintf(r->yl, sizeof r->yl, "%s", unit);
            if (logx != r->logx || labels) r->logx = logx, declare(a, "curve");
        }
        if (ev->type == LT_EV_CLEAR && !strcmp(ev->panel, "curve"))
            r->xmin = r->xmax = 0, r->xl[0] = r->yl[0] = 0, r->logx = false;
        declare(a, ev->panel);
        tui_run_event(&(struct tui_run){.ps = r->ps}, ev);
        break;
    }
    a->dirty = true;
}

/* ---- life cycle ------------------------------------------------------------------------------- */

static int hist_count(void *ud) { return tui_history_count(ud); }
static const char *hist_get(void *ud, int i) { return tui_history_get(ud, i); }

/* Becoming the view: the VM made on first use, kept for the session; false (with a notice) when
 * it cannot start. */
static bool repl_show(struct tui_app *a)
{
    if (!a->repl) {
        struct tui_repl *r = calloc(1, sizeof *r);
        char err[512], dir[1024];
        if (!r || !(r->ps = tui_panelset_new(a->ascii))) {
            free(r);
            tui_app_error(a, "out of memory");
            return false;
        }
        if (!(r->vm = lt_vm_new(a->rt, err, sizeof err))) {
            tui_panelset_free(r->ps);
            free(r);
            tui_app_error(a, "%s", err);
            return false;
        }
        lt_vm_repl_setup(r->vm);
        if (tui_state_dir(dir, sizeof dir, err, sizeof err)) r->hist = tui_history_load(dir);
        else tui_app_error(a, "%s", err); /* no history kept: said once */
        tui_lineedit_init(&r->ed, 0);
        if (r->hist) r->ed.hist = (struct tui_history_hook){r->hist, hist_count, hist_get};
        tui_lineedit_history_reset(&r->ed);
        r->text.follow = r->text.tail = true;
        r->cur_y = -1;
        a->repl = r;
        add_item(r, IT_INFO,
                 TUI_TR(a, "Lua sandbox: the lesson modules (gpu, host, alloc, vram, units) and "
                           "plot.point(series, x, y), plot.bar(label, value, unit), "
                           "plot.gauge(label, value, max, unit), plot.row{...}, plot.note(text), "
                           "plot.clear() for the panel. An expression shows its value; an "
                           "unfinished chunk continues on the next line; runaway code is "
                           "stopped by the sandbox limit. Up/Down: history. Esc: cancel what "
                           "runs, else back.",
                        "Lua 沙箱：课程模块（gpu、host、alloc、vram、units），以及画到面板上的 "
                        "plot.point(序列, x, y)、plot.bar(标签, 值, 单位)、"
                        "plot.gauge(标签, 值, 最大值, 单位)、plot.row{...}、plot.note(文字)、"
                        "plot.clear()。输入表达式会显示它的值；没写完的代码块在下一行继续；"
                        "失控的代码会被沙箱限制停下。上/下：历史。Esc：取消正在运行的代码，否则返回。"));
    }
    if (a->view != &tui_repl_view) a->repl_back = a->view;
    return true;
}

static void repl_close(struct tui_app *a)
{
    struct tui_repl *r = a->repl;
    if (!r) return;
    a->repl = NULL;
    lt_vm_free(r->vm); /* cancels an entry still running */
    free(r->running);
    tui_history_free(r->hist);
    tui_panelset_free(r->ps);
    for (int i = 0; i < r->nitems; i++) free(r->items[i].text);
    free(r->items);
    free(r->pending);
    free(r);
}

/* ---- evaluation -------------------------------------------------------------------------------- */

/* An entry finished (OK or ERROR): its result goes to the transcript, its source to history. */
static void finish(struct tui_app *a, enum lt_eval_status st, const char *out)
{
    struct tui_repl *r = a->repl;
    char *src = r->running;
    r->running = NULL;
    if (st == LT_EVAL_OK && *out) add_item(r, IT_RESULT, out);
    if (st == LT_EVAL_ERROR) {
        char name[160], msg[200];
        add_item(r, IT_ERROR, out);
        if (src && lt_vm_suggest(r->vm, src, out, name, sizeof name)) { /* vram.kv_cahce{} */
            snprintf(msg, sizeof msg, TUI_TR(a, "did you mean %s?", "是不是 %s？"), name);
            add_item(r, IT_INFO, msg);
        }
    }
    char err[1200];
    if (r->hist && !tui_history_add(r->hist, src, err, sizeof err))
        tui_app_error(a, "history not saved: %s", err);
    else if (r->hist && err[0]) /* saved, but a file that could not be used was kept aside */
        tui_app_error(a, "%s", err);
    tui_lineedit_history_reset(&r->ed);
    free(src);
    a->dirty = true;
}

/* ":open FILE": the snapshot alloc.snapshot() reads from now on (the learner's own file, with
 * the CLI's limits). True when the line was one. */
static bool open_snapshot(struct tui_app *a, const char *line)
{
    struct tui_repl *r = a->repl;
    if (strncmp(line, ":open", 5) || (line[5] && line[5] != ' ')) return false;
    const char *path = line + 5 + strspn(line + 5, " ");
    char msg[PATH_MAX + 200], err[PATH_MAX + 100];
    if (!*path) {
        const char *now = lt_runtime_snapshot(a->rt);
        snprintf(msg, sizeof msg, TUI_TR(a, ":open FILE names the snapshot alloc.snapshot() reads (now: %s)",
                                          ":open 文件 指定 alloc.snapshot() 读的快照（现在：%s）"),
                 now ? now : TUI_TR(a, "none", "无"));
        add_item(r, IT_INFO, msg);
        return true;
    }
    FILE *f = gpu_file_open(path, GPU_SNAPSHOT_MAX_FILE, 0, err, sizeof err);
    if (!f) {
        add_item(r, IT_ERROR, err);
        return true;
    }
    fclose(f);
    lt_runtime_set_snapshot(a->rt, path);
    snprintf(msg, sizeof msg, TUI_TR(a, "alloc.snapshot() now reads %s", "alloc.snapshot() 现在读 %s"), path);
    add_item(r, IT_INFO, msg);
    return true;
}

/* A line that starts with one ':' (not Lua's "::label::") and is no command of the REPL's: said so,
 * with the command it most likely meant. True when the line was one. */
static bool unknown_command(struct tui_app *a, const char *line)
{
    static const char *const cmds[] = {"open"};
    if (line[0] != ':' || line[1] == ':') return false;
    char word[32], msg[200];
    size_t l = strcspn(line + 1, " ");
    snprintf(word, sizeof word, "%.*s", (int)(l < sizeof word ? l : sizeof word - 1), line + 1);
    struct gpu_suggest s;
    gpu_suggest_init(&s, word);
    for (size_t i = 0; i < sizeof cmds / sizeof *cmds; i++) gpu_suggest_add(&s, cmds[i]);
    if (s.best)
        snprintf(msg, sizeof msg, TUI_TR(a, "no command ':%s'; did you mean ':%s'?", "没有命令“:%s”；是不是“:%s”？"),
                 word, s.best);
    else
        snprintf(msg, sizeof msg, TUI_TR(a, "no command ':%s'; the sandbox's command is :open FILE",
                                         "没有命令“:%s”；沙箱的命令是 :open 文件"), word);
    add_item(a->repl, IT_ERROR, msg);
    return true;
}

static void submit(void *ud, const struct tui_key *k)
{
    struct tui_app *a = ud;
    struct tui_repl *r = a->repl;
    if (r->running) {
        snprintf(a->notice, sizeof a->notice, "%s",
                 TUI_TR(a, "Still running (Esc cancels it).", "仍在运行（Esc 可取消）。"));
        return;
    }
    char *src;
    if (r->pending) {
        size_t n = strlen(r->pending) + (size_t)r->ed.len + 2;
        src = malloc(n);
        if (src) snprintf(src, n, "%s\n%s", r->pending, r->ed.s);
    } else {
        src = strdup(r->ed.s);
    }
    if (!src) {
        tui_app_error(a, "out of memory");
        return;
    }
    add_item(r, r->pending ? IT_CONT : IT_INPUT, r->ed.s);
    if (!r->pending && (open_snapshot(a, r->ed.s) || unknown_command(a, r->ed.s))) { /* :open FILE */
        free(src);
        tui_lineedit_set(&r->ed, "");
        return;
    }
    tui_lineedit_set(&r->ed, "");
    if (!src[strspn(src, " \t\n")]) { /* an empty line: nothing to run */
        free(src);
        return;
    }
    char out[8192];
    const struct tui_view *was = a->events_to; /* its events come to the REPL while it runs */
    a->events_to = &tui_repl_view;
    enum lt_eval_status st = lt_vm_eval(r->vm, src, out, sizeof out);
    a->events_to = was;
    if (st == LT_EVAL_INCOMPLETE) {
        free(r->pending);
        r->pending = src;
        return;
    }
    free(r->pending);
    r->pending = NULL;
    r->running = src;
    if (st != LT_EVAL_BUSY) finish(a, st, out);
}

static bool repl_busy(const struct tui_app *a) { return a->repl && a->repl->running; }

/* Step the entry that runs; true when it finished. */
static bool repl_tick(struct tui_app *a)
{
    struct tui_repl *r = a->repl;
    if (!r || !r->running) return false;
    char out[8192];
    const struct tui_view *was = a->events_to;
    a->events_to = &tui_repl_view;
    enum lt_eval_status st = lt_vm_eval_step(r->vm, out, sizeof out);
    a->events_to = was;
    if (st == LT_EVAL_BUSY) return false;
    finish(a, st, out);
    return true;
}

static void cancel(void *ud, const struct tui_key *k)
{
    struct tui_app *a = ud;
    struct tui_repl *r = a->repl;
    const struct tui_view *was = a->events_to;
    a->events_to = &tui_repl_view;
    lt_vm_eval_cancel(r->vm);
    a->events_to = was;
    finish(a, LT_EVAL_ERROR, TUI_TR(a, "cancelled: what the entry allocated was freed",
                                    "已取消：这条输入分配的内存已释放"));
}

/* ---- keys --------------------------------------------------------------------------------------- */

static void leave(struct tui_app *a)
{
    tui_app_show(a, a->repl_back == &tui_lesson_view && a->lv ? &tui_lesson_view : &tui_menu_view);
}

static void leave_key(void *ud, const struct tui_key *k) { leave(ud); }

/* Esc: drop an unfinished chunk or the typed line, then leave */
static void esc(void *ud, const struct tui_key *k)
{
    struct tui_app *a = ud;
    struct tui_repl *r = a->repl;
    if (!r->pending && !r->ed.len) {
        leave(a);
        return;
    }
    if (r->pending) add_item(r, IT_INFO, TUI_TR(a, "(unfinished input dropped)", "（已放弃未完成的输入）"));
    free(r->pending);
    r->pending = NULL;
    tui_lineedit_set(&r->ed, "");
}

static void ctrl_d(void *ud, const struct tui_key *k)
{
    struct tui_app *a = ud;
    struct tui_repl *r = a->repl;
    if (!r->ed.len && !r->pending) leave(a);
    else tui_lineedit_delete(&r->ed);
}

/* Tab: complete the name before the cursor ("gpu." → gpu.alloc gpu.backend …): what every
 * candidate shares is inserted and, when there are several, they are listed in the transcript;
 * with no name before the cursor, two spaces (an indent). */
static void tab(void *ud, const struct tui_key *k)
{
    struct tui_app *a = ud;
    struct tui_repl *r = a->repl;
    const char *s = r->ed.s;
    int start = r->ed.cur;
    while (start > 0 && (s[start - 1] == '_' || s[start - 1] == '.' || ((s[start - 1] | 32) >= 'a' && (s[start - 1] | 32) <= 'z') ||
                         (s[start - 1] >= '0' && s[start - 1] <= '9')))
        start--;
    if (start == r->ed.cur || r->ed.cur - start > 200) {
        tui_lineedit_insert(&r->ed, "  ", 2);
        return;
    }
    char word[256], out[8192];
    snprintf(word, sizeof word, "%.*s", r->ed.cur - start, s + start);
    int n = lt_vm_complete(r->vm, word, out, sizeof out);
    if (n == 0) {
        snprintf(a->notice, sizeof a->notice, TUI_TR(a, "Nothing to complete: no name starts with %s", "无可补全：没有以 %s 开头的名字"), word);
        return;
    }
    /* the longest start every candidate shares */
    size_t common = strcspn(out, "\n");
    for (const char *c = strchr(out, '\n'); c; c = strchr(c + 1, '\n')) {
        size_t i = 0;
        while (i < common && c[1 + i] == out[i]) i++;
        common = i;
    }
    size_t wl = strlen(word);
    if (common > wl) tui_lineedit_insert(&r->ed, out + wl, common - wl);
    if (n > 1) {
        for (char *c = out; (c = strchr(c, '\n')); c++) *c = ' ';
        add_item(r, IT_INFO, out);
    }
}

static const struct tui_binding busy_rows[] = {
    {.keys = {TUI_KEY_ESC}, .run = cancel,
     .en = "cancel the running entry (what it allocated is freed)",
     .zh = "取消正在运行的输入（它分配的内存会释放）",
     .hint_en = "cancel", .hint_zh = "取消"},
};

static const struct tui_binding rows[] = {
    {.keys = {TUI_KEY_ENTER}, .run = submit,
     .en = "run the line (an unfinished chunk continues with >>)",
     .zh = "运行这一行（未完成的代码块以 >> 继续）",
     .hint_en = "run", .hint_zh = "运行"},
    {.keys = {TUI_KEY_ESC}, .run = esc,
     .en = "drop unfinished input; on an empty line, go back",
     .zh = "放弃未完成的输入；空行时返回",
     .hint_en = "back", .hint_zh = "返回"},
    {.keys = {TUI_KEY_FN(KEY_F(2))}, .run = leave_key, .en = "go back", .zh = "返回"},
    {.keys = {TUI_CTRL('D')}, .run = ctrl_d,
     .en = "on an empty line, go back; else delete the glyph under the cursor",
     .zh = "空行时返回；否则删除光标处的字"},
    {.keys = {'\t'}, .run = tab, .en = "complete a name (gpu. lists gpu's functions); at the start of a line, indent", .zh = "补全名字（gpu. 列出 gpu 的函数）；行首时缩进", .hint_en = "complete", .hint_zh = "补全"},
};

static const struct tui_keymap busy_keys = TUI_KEYMAP("Sandbox, while an entry runs", "沙箱（运行中）", TUI_TO_SCREEN, busy_rows);
static const struct tui_keymap repl_keys = TUI_KEYMAP("Sandbox", "沙箱", TUI_TO_SCREEN, rows);

const struct tui_keymap *const tui_repl_keys[] = {&repl_keys,
    &tui_lineedit_history_keys, &tui_lineedit_keys, &tui_app_keys, &tui_scroll_keys, &tui_loop_keys, NULL};
const struct tui_keymap *const tui_repl_busy_keys[] = {&busy_keys, &repl_keys,
    &tui_lineedit_history_keys, &tui_lineedit_keys, &tui_app_keys, &tui_scroll_keys, &tui_loop_keys, NULL};

static const struct tui_keymap *const *keys(struct tui_app *a, const struct tui_key *k,
                                            struct tui_targets *t)
{
    struct tui_repl *r = a->repl;
    bool wheel = k && (k->code == TUI_KEY_WHEEL_UP || k->code == TUI_KEY_WHEEL_DOWN);
    t->screen = a, t->edit = &r->ed;
    t->scroll = wheel && tui_rect_contains(&a->lay.panel, k->y, k->x) ? &r->panel : &r->text;
    return r->running ? tui_repl_busy_keys : tui_repl_keys;
}

/* ---- drawing ------------------------------------------------------------------------------------ */

static void render_item(struct tui_app *a, struct tui_lines *L, const struct item *it, int width)
{
    struct tui_render_opts o = {width, tui_app_lang(a), a->ascii, -1};
    static const int styles[] = {TS_EM, TS_CODE, TS_PLAIN, TS_BAD, TS_DIM, TS_EM};
    const char *t = it->text;
    if (it->kind == IT_INPUT || it->kind == IT_CONT) { /* a line per source line, with prompts */
        bool first = it->kind == IT_INPUT;
        for (const char *p = t;; first = false) {
            const char *nl = strchr(p, '\n');
            size_t n = nl ? (size_t)(nl - p) : strlen(p);
            tui_render_para(L, p, n, TS_PLAIN, false, first ? "> " : ">> ", TS_MARK, &o);
            if (!nl) break;
            p = nl + 1;
        }
        return;
    }
    const char *first = it->kind == IT_ERROR ? (a->ascii ? "x " : "✗ ") : "";
    tui_render_para(L, t, strlen(t), styles[it->kind], false, first, styles[it->kind], &o);
}

/* The input line, scrolled so the cursor shows; '\n' of a recalled entry shows as a glyph. */
static void draw_input(struct tui_app *a, int y, int x, int w)
{
    struct tui_repl *r = a->repl;
    if (r->running) {
        static const char *const spin[] = {"|", "/", "-", "\\"};
        char busy[160];
        snprintf(busy, sizeof busy, "%s %s", spin[(int)(gpu_now() * 8) & 3],
                 TUI_TR(a, "running… (Esc cancels)", "运行中…（Esc 取消）"));
        tui_term_text(y, x, w, busy, TS_DIM);
        r->cur_y = -1;
        return;
    }
    const char *prompt = r->pending ? ">> " : "> ";
    int pw = (int)strlen(prompt);
    tui_term_text(y, x, pw, prompt, TS_MARK);
    int fw = w - pw - 1;
    if (fw < 1) return;
    char shown[TUI_LINE_MAX * 3 + 1];
    int col;
    tui_lineedit_view(&r->ed, fw, a->ascii ? "|" : "↵", shown, sizeof shown, &col);
    tui_term_text(y, x + pw, fw, shown, TS_INPUT);
    r->cur_y = y;
    r->cur_x = x + pw + col;
}

static void draw_panel(struct tui_app *a)
{
    struct tui_repl *r = a->repl;
    const struct tui_rect *p = &a->lay.panel;
    if (p->h <= 0 || p->w <= 0) return;
    tui_term_text(p->y, p->x, p->w, TUI_TR(a, "Sandbox panel (plot.*)", "沙箱面板（plot.*）"), TS_PANEL_HEAD);
    struct tui_lines L = {0};
    if (!tui_panelset_has_data(r->ps)) {
        const char *m = TUI_TR(a, "Nothing plotted yet. Try:  for k = 10, 30 do plot.point(\"2^k\", 2^k, k) end",
                               "还没有图。试试：for k = 10, 30 do plot.point(\"2^k\", 2^k, k) end");
        struct tui_render_opts o = {p->w - 1, tui_app_lang(a), a->ascii, -1};
        tui_render_para(&L, m, strlen(m), TS_DIM, false, "", TS_DIM, &o);
    } else {
        /* framed, as the lesson view's; SIMULATED is the header strip's */
        tui_panelset_set_view(r->ps, &(struct tui_panel_view){true, 0, false});
        tui_panelset_render(r->ps, &L, p->w - 1, a->ascii, tui_app_lang(a));
    }
    int h = p->h - 1;
    tui_scroll_resize(&r->panel, L.n, h);
    for (int i = 0; i < h; i++) {
        int li = r->panel.top + i;
        tui_term_line(p->y + 1 + i, p->x, p->w, li < L.n ? &L.v[li] : NULL, TS_PLAIN);
    }
    tui_scroll_marks(&r->panel, p->y + 1, p->x + p->w - 1, h, a->ascii);
    tui_lines_free(&L);
}

static void repl_draw(struct tui_app *a)
{
    struct tui_repl *r = a->repl;
    const struct tui_rect *t = &a->lay.text;
    tui_app_divider(a);
    if (!r || t->h < 2 || t->w < 4) return;
    int w = t->w - 2;
    struct tui_lines L = {0};
    for (int i = 0; i < r->nitems; i++) render_item(a, &L, &r->items[i], w);
    int body = t->h - 1;
    tui_scroll_resize(&r->text, L.n, body);
    for (int i = 0; i < body; i++) {
        int li = r->text.top + i;
        tui_term_fill(t->y + i, t->x, 1, 1, TS_PLAIN);
        tui_term_line(t->y + i, t->x + 1, t->w - 1, li < L.n ? &L.v[li] : NULL, TS_PLAIN);
    }
    tui_scroll_marks(&r->text, t->y, t->x + t->w - 1, body, a->ascii);
    tui_lines_free(&L);
    draw_input(a, t->y + t->h - 1, t->x + 1, t->w - 1);
    draw_panel(a);
}

static bool repl_cursor(const struct tui_app *a, int *y, int *x)
{
    const struct tui_repl *r = a->repl;
    if (!r || r->cur_y < 0) return false;
    *y = r->cur_y, *x = r->cur_x;
    return true;
}

static void title(const struct tui_app *a, char *out, size_t n)
{
    snprintf(out, n, "%s", TUI_TR(a, "vramlab · sandbox (Lua)", "vramlab · 沙箱（Lua）"));
}

const struct tui_view tui_repl_view = {
    .draw = repl_draw, .cursor = repl_cursor, .keys = keys, .title = title, .back = leave,
    .show = repl_show, .busy = repl_busy, .tick = repl_tick, .sink = repl_sink, .close = repl_close,
};
