/* tui_repl.c - the sandbox REPL screen: a Lua prompt in the same sandbox as the lessons (its own
 * lt_vm, kept for the session, so definitions stay), a transcript of inputs, results, print()
 * output and errors, line editing with history (saved crash-safely to
 * $XDG_STATE_HOME/vramlab/history), multi-line input (a chunk that ends early asks for more, as
 * lua.c does), and a live panel the learner draws in with plot.*. An entry runs under the
 * sandbox limits (a runaway loop ends with a message and the session goes on); its measurements
 * run on the worker thread, so the screen stays live and Esc cancels them. */
#include <curses.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gpu_float.h"
#include "tui_app.h"
#include "tui_history.h"
#include "tui_term.h"
#include "tui_wrap.h"

#define LINE_MAX_BYTES 4096
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
    char ed[LINE_MAX_BYTES];  /* the line being edited (may hold '\n' from a recalled entry) */
    int len, cur;
    int hpos;                 /* history position while browsing (count: the new line) */
    char saved_line[LINE_MAX_BYTES]; /* what was typed before browsing */
    int scroll;               /* transcript lines scrolled back from the bottom */
    int ptop;
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
    r->scroll = 0; /* new output: follow it */
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
                                 r->logx && !strcmp(id, "curve")};
            tui_panelset_declare(r->ps, &p, 1);
        }
}

void tui_repl_sink(struct tui_app *a, const struct lt_event *ev)
{
    struct tui_repl *r = a->repl;
    if (!r) return;
    switch (ev->type) {
    case LT_EV_PRINT: add_item(r, IT_PRINT, ev->text); break;
    case LT_EV_STATUS: add_item(r, IT_INFO, ev->text); break;
    default:
        if (ev->type == LT_EV_POINT && isfinite(ev->x)) {
            bool first = gpu_feq(r->xmax, 0) && gpu_feq(r->xmin, 0);
            if (first || ev->x < r->xmin) r->xmin = ev->x;
            if (first || ev->x > r->xmax) r->xmax = ev->x;
            bool logx = r->xmin > 0 && r->xmax / r->xmin >= 100;
            bool labels = (*ev->text && strcmp(ev->text, r->xl)) || (*ev->unit && strcmp(ev->unit, r->yl));
            if (*ev->text) snprintf(r->xl, sizeof r->xl, "%s", ev->text);
            if (*ev->unit) snprintf(r->yl, sizeof r->yl, "%s", ev->unit);
            if (logx != r->logx || labels) r->logx = logx, declare(a, "curve");
        }
        if (ev->type == LT_EV_CLEAR && !strcmp(ev->panel, "curve"))
            r->xmin = r->xmax = 0, r->xl[0] = r->yl[0] = 0, r->logx = false;
        declare(a, ev->panel);
        tui_panelset_apply(r->ps, ev);
        break;
    }
    a->dirty = true;
}

/* ---- life cycle ------------------------------------------------------------------------------- */

bool tui_repl_enter(struct tui_app *a)
{
    if (!a->repl) {
        struct tui_repl *r = calloc(1, sizeof *r);
        char err[512], dir[1024];
        if (!r || !(r->ps = tui_panelset_new(a->ascii))) {
            free(r);
            snprintf(a->notice, sizeof a->notice, "out of memory");
            return false;
        }
        if (!(r->vm = lt_vm_new(a->rt, err, sizeof err))) {
            tui_panelset_free(r->ps);
            free(r);
            snprintf(a->notice, sizeof a->notice, "%s", err);
            return false;
        }
        lt_vm_repl_setup(r->vm);
        tui_progress_dir(dir, sizeof dir);
        r->hist = tui_history_load(dir);
        r->hpos = r->hist ? tui_history_count(r->hist) : 0;
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
    if (a->screen != TUI_SCR_REPL) a->repl_back = a->screen;
    a->screen = TUI_SCR_REPL;
    a->dirty = true;
    return true;
}

void tui_repl_free(struct tui_app *a)
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

static void set_line(struct tui_repl *r, const char *s)
{
    snprintf(r->ed, sizeof r->ed, "%s", s);
    r->len = r->cur = (int)strlen(r->ed);
}

/* An entry finished (OK or ERROR): its result goes to the transcript, its source to history. */
static void finish(struct tui_app *a, enum lt_eval_status st, const char *out)
{
    struct tui_repl *r = a->repl;
    char *src = r->running;
    r->running = NULL;
    if (st == LT_EVAL_OK && *out) add_item(r, IT_RESULT, out);
    if (st == LT_EVAL_ERROR) add_item(r, IT_ERROR, out);
    char err[1200];
    if (r->hist && !tui_history_add(r->hist, src, err, sizeof err))
        snprintf(a->notice, sizeof a->notice, "history not saved: %s", err);
    r->hpos = r->hist ? tui_history_count(r->hist) : 0;
    free(src);
    a->dirty = true;
}

static void submit(struct tui_app *a)
{
    struct tui_repl *r = a->repl;
    if (r->running) {
        snprintf(a->notice, sizeof a->notice, "%s",
                 TUI_TR(a, "Still running (Esc cancels it).", "仍在运行（Esc 可取消）。"));
        return;
    }
    char *src;
    if (r->pending) {
        size_t n = strlen(r->pending) + (size_t)r->len + 2;
        src = malloc(n);
        if (src) snprintf(src, n, "%s\n%s", r->pending, r->ed);
    } else {
        src = strdup(r->ed);
    }
    if (!src) {
        snprintf(a->notice, sizeof a->notice, "out of memory");
        return;
    }
    add_item(r, r->pending ? IT_CONT : IT_INPUT, r->ed);
    set_line(r, "");
    if (!src[strspn(src, " \t\n")]) { /* an empty line: nothing to run */
        free(src);
        return;
    }
    char out[8192];
    a->repl_eval = true;
    enum lt_eval_status st = lt_vm_eval(r->vm, src, out, sizeof out);
    a->repl_eval = false;
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

bool tui_repl_busy(const struct tui_app *a) { return a->repl && a->repl->running; }

bool tui_repl_tick(struct tui_app *a)
{
    struct tui_repl *r = a->repl;
    if (!r || !r->running) return false;
    char out[8192];
    a->repl_eval = true;
    enum lt_eval_status st = lt_vm_eval_step(r->vm, out, sizeof out);
    a->repl_eval = false;
    if (st == LT_EVAL_BUSY) return false;
    finish(a, st, out);
    return true;
}

static void cancel(struct tui_app *a)
{
    struct tui_repl *r = a->repl;
    a->repl_eval = true;
    lt_vm_eval_cancel(r->vm);
    a->repl_eval = false;
    finish(a, LT_EVAL_ERROR, TUI_TR(a, "cancelled: what the entry allocated was freed",
                                    "已取消：这条输入分配的内存已释放"));
}

/* ---- keys --------------------------------------------------------------------------------------- */

static void history_move(struct tui_repl *r, int d)
{
    int n = r->hist ? tui_history_count(r->hist) : 0;
    int to = r->hpos + d;
    if (to < 0 || to > n) return;
    if (r->hpos == n) snprintf(r->saved_line, sizeof r->saved_line, "%s", r->ed);
    r->hpos = to;
    set_line(r, to == n ? r->saved_line : tui_history_get(r->hist, to));
}

static void insert(struct tui_repl *r, const char *s, int l)
{
    if (r->len + l >= LINE_MAX_BYTES) return;
    memmove(r->ed + r->cur + l, r->ed + r->cur, (size_t)(r->len - r->cur + 1));
    memcpy(r->ed + r->cur, s, (size_t)l);
    r->len += l, r->cur += l;
}

static void delete_range(struct tui_repl *r, int from, int to)
{
    if (from < 0) from = 0;
    if (to > r->len) to = r->len;
    if (from >= to) return;
    memmove(r->ed + from, r->ed + to, (size_t)(r->len - to + 1));
    r->len -= to - from;
    if (r->cur > to) r->cur -= to - from;
    else if (r->cur > from) r->cur = from;
}

static int prev_glyph(const struct tui_repl *r, int i)
{
    while (i > 0 && ((unsigned char)r->ed[--i] & 0xc0) == 0x80) {}
    return i;
}

static int next_glyph(const struct tui_repl *r, int i)
{
    unsigned cp;
    return i < r->len ? i + tui_utf8_decode(r->ed + i, (size_t)(r->len - i), &cp) : i;
}

static void leave(struct tui_app *a)
{
    a->screen = a->repl_back == TUI_SCR_LESSON && a->lv ? TUI_SCR_LESSON : TUI_SCR_MENU;
    tui_menu_invalidate(a);
}

void tui_repl_key(struct tui_app *a, const struct tui_key *k)
{
    struct tui_repl *r = a->repl;
    if (!r) return;
    int page = a->lay.text.h > 4 ? a->lay.text.h - 3 : 1;
    if (k->fn) {
        switch (k->code) {
        case KEY_LEFT: r->cur = prev_glyph(r, r->cur); break;
        case KEY_RIGHT: r->cur = next_glyph(r, r->cur); break;
        case KEY_HOME: r->cur = 0; break;
        case KEY_END: r->cur = r->len; break;
        case KEY_UP: history_move(r, -1); break;
        case KEY_DOWN: history_move(r, 1); break;
        case KEY_BACKSPACE: delete_range(r, prev_glyph(r, r->cur), r->cur); break;
        case KEY_DC: delete_range(r, r->cur, next_glyph(r, r->cur)); break;
        case KEY_ENTER: submit(a); break;
        case KEY_PPAGE: r->scroll += page; break;
        case KEY_NPAGE: r->scroll = r->scroll > page ? r->scroll - page : 0; break;
        case KEY_F(2): leave(a); break;
        case KEY_MOUSE:
            if (tui_rect_contains(&a->lay.panel, k->my, k->mx)) {
                if (k->mbutton == 4) r->ptop = r->ptop > 3 ? r->ptop - 3 : 0;
                if (k->mbutton == 5) r->ptop += 3;
            } else {
                if (k->mbutton == 4) r->scroll += 3;
                if (k->mbutton == 5) r->scroll = r->scroll > 3 ? r->scroll - 3 : 0;
            }
            break;
        default: return;
        }
        a->dirty = true;
        return;
    }
    switch (k->code) {
    case '\r': case '\n': submit(a); break;
    case 27: /* Esc: cancel a running entry, drop an unfinished chunk, then leave */
        if (r->running) {
            cancel(a);
        } else if (r->pending || r->len) {
            if (r->pending) add_item(r, IT_INFO, TUI_TR(a, "(unfinished input dropped)", "（已放弃未完成的输入）"));
            free(r->pending);
            r->pending = NULL;
            set_line(r, "");
        } else {
            leave(a);
        }
        break;
    case 4: /* Ctrl-D: on an empty line, leave */
        if (!r->len && !r->pending) leave(a);
        else delete_range(r, r->cur, next_glyph(r, r->cur));
        break;
    case 127: case 8: delete_range(r, prev_glyph(r, r->cur), r->cur); break;
    case 1: r->cur = 0; break;                      /* Ctrl-A */
    case 5: r->cur = r->len; break;                 /* Ctrl-E */
    case 2: r->cur = prev_glyph(r, r->cur); break;  /* Ctrl-B */
    case 6: r->cur = next_glyph(r, r->cur); break;  /* Ctrl-F */
    case 11: delete_range(r, r->cur, r->len); break; /* Ctrl-K */
    case 21: delete_range(r, 0, r->cur); break;     /* Ctrl-U */
    case 16: history_move(r, -1); break;            /* Ctrl-P */
    case 14: history_move(r, 1); break;             /* Ctrl-N */
    case 23: {                                      /* Ctrl-W: the word before the cursor */
        int i = r->cur;
        while (i > 0 && r->ed[i - 1] == ' ') i--;
        while (i > 0 && r->ed[i - 1] != ' ') i--;
        delete_range(r, i, r->cur);
        break;
    }
    case '\t': insert(r, "  ", 2); break;
    default: {
        if (k->code < 32 || k->code == 127) return;
        char u[4];
        insert(r, u, tui_utf8_encode((unsigned)k->code, u));
    }
    }
    a->dirty = true;
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
        snprintf(busy, sizeof busy, "%s %s", spin[(int)(tui_now() * 8) & 3],
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
    char shown[LINE_MAX_BYTES * 3 + 1];
    int map_cur = 0, k = 0;
    const char *nlg = a->ascii ? "|" : "↵";
    for (int i = 0; i <= r->len; i++) {
        if (i == r->cur) map_cur = k;
        if (i == r->len) break;
        if (r->ed[i] == '\n') {
            size_t l = strlen(nlg);
            memcpy(shown + k, nlg, l);
            k += (int)l;
        } else {
            shown[k++] = r->ed[i];
        }
    }
    shown[k] = 0;
    int start = 0;
    while (start < map_cur && tui_width(shown + start, (size_t)(map_cur - start)) > fw - 1) {
        unsigned cp;
        start += tui_utf8_decode(shown + start, (size_t)(k - start), &cp);
    }
    tui_term_text(y, x + pw, fw, shown + start, TS_INPUT);
    r->cur_y = y;
    r->cur_x = x + pw + tui_width(shown + start, (size_t)(map_cur - start));
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
        tui_panelset_render(r->ps, &L, p->w - 1, a->ascii, tui_app_lang(a));
    }
    int h = p->h - 1, max = L.n - h > 0 ? L.n - h : 0;
    if (r->ptop > max) r->ptop = max;
    for (int i = 0; i < h; i++) {
        int li = r->ptop + i;
        tui_term_line(p->y + 1 + i, p->x, p->w, li < L.n ? &L.v[li] : NULL, TS_PLAIN);
    }
    tui_lines_free(&L);
}

void tui_repl_draw(struct tui_app *a)
{
    struct tui_repl *r = a->repl;
    const struct tui_rect *t = &a->lay.text;
    if (!r || t->h < 2 || t->w < 4) return;
    int w = t->w - 2;
    struct tui_lines L = {0};
    for (int i = 0; i < r->nitems; i++) render_item(a, &L, &r->items[i], w);
    int body = t->h - 1;
    int maxscroll = L.n - body > 0 ? L.n - body : 0;
    if (r->scroll > maxscroll) r->scroll = maxscroll;
    int top = L.n - body - r->scroll;
    if (top < 0) top = 0;
    for (int i = 0; i < body; i++) {
        int li = top + i;
        tui_term_fill(t->y + i, t->x, 1, 1, TS_PLAIN);
        tui_term_line(t->y + i, t->x + 1, t->w - 1, li < L.n ? &L.v[li] : NULL, TS_PLAIN);
    }
    tui_lines_free(&L);
    draw_input(a, t->y + t->h - 1, t->x + 1, t->w - 1);
    draw_panel(a);
}

bool tui_repl_cursor(const struct tui_app *a, int *y, int *x)
{
    const struct tui_repl *r = a->repl;
    if (!r || r->cur_y < 0 || a->help || a->lay.mode == TUI_TOO_SMALL) return false;
    *y = r->cur_y, *x = r->cur_x;
    return true;
}
