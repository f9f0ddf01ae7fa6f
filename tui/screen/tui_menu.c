/* tui_menu.c - the lesson menu view: chapters and their sections from lt_catalog_scan, a mark for
 * started / done (from the saved progress), broken lessons with their file:line error, the backend line
 * (with the reason the real GPU did not open), a shipped recording to replay when there is no GPU,
 * and the language. A selection over catalog entries (an entry may wrap to several lines) in the
 * shared scroll widget. */
#include <curses.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tui_app.h"
#include "tui_snapview.h"
#include "tui_term.h"
#include "tui_wrap.h"

static void invalidate(struct tui_app *a) { a->menu_width = 0; } /* rebuilt at the next draw */

static bool show(struct tui_app *a)
{
    invalidate(a); /* what it lists may have changed while another view was shown */
    return true;
}

static void para(struct tui_app *a, const char *s, int style, const char *first, int width,
                 int entry)
{
    struct tui_render_opts o = {width, tui_app_lang(a), a->ascii, entry};
    tui_render_para(&a->menu_lines, s, strlen(s), style, false, first, style, &o);
}

/* Exercises of catalog entry i solved in saved progress. */
static int entry_solved(const struct tui_app *a, int i)
{
    const struct lt_catalog_entry *e = &a->cat[i];
    if (!a->saved || e->error || !e->id) return 0;
    int n = tui_progress_solved(a->saved, e->id);
    return n < e->nexercises ? n : e->nexercises;
}

static void build(struct tui_app *a, int width)
{
    struct tui_lines *L = &a->menu_lines;
    const struct tui_glyphs *g = tui_glyphs(a->ascii);
    int li = tui_app_zh(a) ? 1 : 0;
    char buf[1024];
    tui_lines_free(L);
    para(a, TUI_TR(a, "vramlab: a hands-on tutor for GPU memory (VRAM)", "vramlab：动手学显存（VRAM）"),
         TS_H1, "", width, -1);
    if (a->course.title[li]) { /* a teacher's course: its sections, in its order */
        snprintf(buf, sizeof buf, "%s%s", TUI_TR(a, "Course: ", "课程："), a->course.title[li]);
        para(a, buf, TS_H2, "", width, -1);
    }
    snprintf(buf, sizeof buf, "%s%s", TUI_TR(a, "Backend: ", "后端："), a->backend);
    para(a, buf, TS_PLAIN, "", width, -1);
    const char *why = a->opts->fallback_why;
    if (strstr(a->backend, "SIMULATED") && !a->offered) {
        /* in plain words first, the driver's reason after; and how to simulate another GPU */
        snprintf(buf, sizeof buf, "%s%s",
                 why && *why ? TUI_TR(a, "No NVIDIA GPU found, so the simulator stands in. ",
                                     "没有找到 NVIDIA GPU，由模拟器代替。")
                             : "",
                 TUI_TR(a, "Another GPU to simulate: vramlab --profile NAME (vramlab profiles lists them).",
                        "换一块要模拟的 GPU：vramlab --profile 名称（vramlab profiles 列出全部）。"));
        para(a, buf, TS_PLAIN, "  ", width, -1);
        if (why && *why) {
            snprintf(buf, sizeof buf, "%s%s", TUI_TR(a, "why: ", "原因："), why);
            para(a, buf, TS_DIM, "  ", width, -1);
        }
    }
    if (a->has_offer && !a->offered) { /* the classroom demo comes before the simulator */
        char date[32];
        snprintf(date, sizeof date, "%.16s", a->offer.date); /* "2026-12-05T14:05" */
        if (strlen(date) > 10 && date[10] == 'T') date[10] = ' ';
        snprintf(buf, sizeof buf,
                 TUI_TR(a, "r: replay the measurements of %s, recorded %s (otherwise lessons run on the simulator)",
                        "r：回放 %s 的测量记录，记录于 %s（否则课程在模拟器上运行）"),
                 a->offer.machine, date);
        para(a, buf, TS_H2, "", width, -1);
    } else if (a->offered) {
        snprintf(buf, sizeof buf, "%s",
                 TUI_TR(a, "r: back to the simulator (experiments play the recording now; nothing is measured)",
                        "r：回到模拟器（现在实验回放记录，不做任何测量）"));
        para(a, buf, TS_DIM, "", width, -1);
    }
    para(a, TUI_TR(a, "o: your own program's memory (open a PyTorch memory snapshot)",
                   "o：你自己程序的显存（打开一个 PyTorch 显存快照）"),
         TS_PLAIN, "", width, -1);
    snprintf(buf, sizeof buf, "%s", TUI_TR(a, "Language: English   (L: 中文)", "语言：中文   （L：English）"));
    if (a->ascii) snprintf(buf, sizeof buf, "Language: English (Chinese needs a UTF-8 locale)");
    para(a, buf, TS_DIM, "", width, -1);
    struct tui_lb b = {.L = L};
    tui_lb_end(&b, -1, TUI_LK_TEXT, 0);
    if (a->ncat == 0) {
        snprintf(buf, sizeof buf, "%s %s", TUI_TR(a, "No lessons found in", "没有找到课程："),
                 a->opts->lessons_dir ? a->opts->lessons_dir : "lessons/");
        para(a, buf, TS_BAD, "", width, -1);
    }
    int last_ch = INT_MIN;
    for (int i = 0; i < a->ncat; i++) {
        const struct lt_catalog_entry *e = &a->cat[i];
        int ch = e->error ? -1 : e->chapter;
        if (ch != last_ch) {
            if (last_ch != INT_MIN) tui_lb_end(&b, -1, TUI_LK_TEXT, 0);
            int solved = 0, total = 0; /* the chapter's exercises */
            for (int k = i; k < a->ncat && !e->error && !a->cat[k].error && a->cat[k].chapter == ch; k++)
                solved += entry_solved(a, k), total += a->cat[k].nexercises;
            char count[96] = "";
            if (total)
                snprintf(count, sizeof count, TUI_TR(a, "   %d/%d exercises solved", "   已答对 %d/%d 道练习"),
                         solved, total);
            if (e->error)
                snprintf(buf, sizeof buf, "%s", TUI_TR(a, "Lessons with errors", "有错误的课程"));
            else
                snprintf(buf, sizeof buf, TUI_TR(a, "Chapter %d · %s%s", "第 %d 章 · %s%s"), e->chapter,
                         e->chapter_title[li] ? e->chapter_title[li] : "", count);
            para(a, buf, TS_H2, "", width, -1);
            last_ch = ch;
        }
        const char *mark = e->error ? g->cross_mark
                           : a->progress[i] == TUI_DONE    ? g->check
                           : a->progress[i] == TUI_STARTED ? g->started
                                                           : " ";
        char first[64];
        snprintf(first, sizeof first, "  %s %-5s ", mark, e->error ? "" : (e->id ? e->id : ""));
        const char *title = e->title[li] ? e->title[li] : (e->path ? e->path : "?");
        int sty = e->error ? TS_BAD : TS_PLAIN;
        if (!e->error && e->nexercises > 0) { /* "What VRAM holds · 1/3" */
            snprintf(buf, sizeof buf, "%s · %d/%d", title, entry_solved(a, i), e->nexercises);
            title = buf;
        }
        para(a, title, sty, first, width, i);
        if (e->error) para(a, e->error, TS_DIM, "          ", width, i);
    }
    tui_lb_end(&b, -1, TUI_LK_TEXT, 0);
    para(a, TUI_TR(a, "Enter opens a section · : opens the Lua sandbox · ? shows the keys · q quits",
                   "Enter 打开小节 · : 打开 Lua 沙箱 · ? 查看按键 · q 退出"),
         TS_DIM, "", width, -1);
    tui_lb_free(&b);
    a->menu_width = width;
}

/* The lines of catalog entry i. */
static bool entry_lines(const struct tui_app *a, int i, int *first, int *last)
{
    *first = *last = -1;
    for (int k = 0; k < a->menu_lines.n; k++)
        if (a->menu_lines.v[k].block == i) {
            if (*first < 0) *first = k;
            *last = k;
        }
    return *first >= 0;
}

static void keep_visible(struct tui_app *a)
{
    int first, last;
    if (!entry_lines(a, a->menu_sel, &first, &last)) return;
    /* the first entry brings the header with it */
    if (a->menu_sel == 0 && first < a->menu_sc.height) tui_scroll_to(&a->menu_sc, 0);
    tui_scroll_show(&a->menu_sc, first, last, 0);
}

static void menu_draw(struct tui_app *a)
{
    const struct tui_rect *r = &a->lay.menu;
    if (r->w <= 0 || r->h <= 0) return;
    if (a->menu_width != r->w - 2) build(a, r->w - 2);
    if (a->menu_sel >= a->ncat) a->menu_sel = a->ncat - 1;
    if (a->menu_sel < 0) a->menu_sel = 0;
    /* a list longer than the screen gives its last row to "more above / more below" */
    int h = a->menu_lines.n > r->h && r->h > 3 ? r->h - 1 : r->h;
    tui_scroll_resize(&a->menu_sc, a->menu_lines.n, h);
    for (int i = 0; i < h; i++) {
        int li = a->menu_sc.top + i;
        const struct tui_line *l = li < a->menu_lines.n ? &a->menu_lines.v[li] : NULL;
        bool sel = l && a->ncat && l->block == a->menu_sel;
        if (sel) {
            tui_term_fill(r->y + i, r->x, 1, r->w, TS_SELECTED);
            /* the selection shows as reverse video over the whole row, whatever the styles */
            tui_term_extra(A_REVERSE);
            tui_term_put(r->y + i, r->x + 1, r->w - 2, l->s, (size_t)l->len, l->st, TS_PLAIN);
            tui_term_extra(0);
        } else {
            tui_term_fill(r->y + i, r->x, 1, 1, TS_PLAIN);
            tui_term_line(r->y + i, r->x + 1, r->w - 1, l, TS_PLAIN);
        }
    }
    tui_scroll_marks(&a->menu_sc, r->y, r->x + r->w - 1, h, a->ascii);
    if (h < r->h) {
        bool up = tui_scroll_above(&a->menu_sc), down = tui_scroll_below(&a->menu_sc);
        char m[160];
        snprintf(m, sizeof m, "%s%s%s", up ? TUI_TR(a, "↑ more above", "↑ 上面还有") : "",
                 up && down ? "  ·  " : "", down ? TUI_TR(a, "↓ more below (PgDn)", "↓ 下面还有（PgDn）") : "");
        char *f = a->ascii ? tui_ascii_fold(m, strlen(m), NULL, NULL) : NULL;
        tui_term_fill(r->y + h, r->x, 1, r->w, TS_PLAIN);
        tui_term_text(r->y + h, r->x + 1, r->w - 2, f ? f : m, TS_DIM);
        free(f);
    }
}

/* ---- keys ------------------------------------------------------------------------------------ */

static void select_to(struct tui_app *a, int sel)
{
    a->menu_sel = sel >= a->ncat ? a->ncat - 1 : sel;
    if (a->menu_sel < 0) a->menu_sel = 0;
    if (a->menu_width) keep_visible(a);
}

static void step(void *ud, const struct tui_key *k)
{
    struct tui_app *a = ud;
    select_to(a, a->menu_sel + (k->code == TUI_KEY_FN(KEY_UP) || k->code == 'k' ? -1 : 1));
}

static void half_page(void *ud, const struct tui_key *k)
{
    struct tui_app *a = ud;
    int d = a->menu_sc.height / 2 > 0 ? a->menu_sc.height / 2 : 1;
    select_to(a, a->menu_sel + (k->code == TUI_KEY_FN(KEY_PPAGE) ? -d : d));
}

static void ends(void *ud, const struct tui_key *k)
{
    struct tui_app *a = ud;
    bool home = k->code == TUI_KEY_FN(KEY_HOME) || k->code == 'g';
    select_to(a, home ? 0 : a->ncat - 1);
    if (!home) tui_scroll_end(&a->menu_sc); /* the lines after the last entry too */
}

static void open_sel(void *ud, const struct tui_key *k)
{
    struct tui_app *a = ud;
    if (a->ncat) tui_app_open_entry(a, a->menu_sel);
}

static void click(void *ud, const struct tui_key *k)
{
    struct tui_app *a = ud;
    if (!tui_rect_contains(&a->lay.menu, k->y, k->x)) return;
    int li = a->menu_sc.top + k->y - a->lay.menu.y;
    if (li >= 0 && li < a->menu_lines.n && a->menu_lines.v[li].block >= 0)
        tui_app_open_entry(a, a->menu_lines.v[li].block);
}

static void sandbox(void *ud, const struct tui_key *k) { tui_app_show(ud, &tui_repl_view); }
static void offer(void *ud, const struct tui_key *k) { tui_app_toggle_offer(ud); }
static void quit(void *ud, const struct tui_key *k) { ((struct tui_app *)ud)->quit = true; }
static void own_snapshot(void *ud, const struct tui_key *k) /* tui_snapview.c */
{
    struct tui_app *a = ud;
    bool zh = tui_app_zh(a);
    tui_snapview_pick(lt_runtime_assets(a->rt), &zh);
    if (zh != tui_app_zh(a)) tui_app_toggle_lang(a); /* L on the snapshot screen */
    invalidate(a);
    clearok(curscr, TRUE);
    a->dirty = true;
}

static const struct tui_binding rows[] = {
    {.keys = {TUI_KEY_ENTER, ' '}, .run = open_sel,
     .en = "open the selected section", .zh = "打开选中的小节",
     .hint_en = "open", .hint_zh = "打开"},
    {.keys = {TUI_KEY_CLICK}, .run = click,
     .en = "open the section clicked", .zh = "打开点击的小节"},
    {.keys = {TUI_KEY_FN(KEY_UP), TUI_KEY_FN(KEY_DOWN), 'k', 'j'}, .run = step,
     .en = "previous / next section", .zh = "上一节 / 下一节"},
    {.keys = {TUI_KEY_FN(KEY_PPAGE), TUI_KEY_FN(KEY_NPAGE)}, .run = half_page,
     .en = "half a page up / down", .zh = "向上 / 向下半页"},
    {.keys = {TUI_KEY_FN(KEY_HOME), TUI_KEY_FN(KEY_END), 'g', 'G'}, .run = ends,
     .en = "first / last section", .zh = "第一节 / 最后一节"},
    {.keys = {'s'}, .run = sandbox, .en = "the sandbox (as :)", .zh = "沙箱（同 :）"},
    {.keys = {'r'}, .run = offer,
     .en = "without a GPU: replay the shipped recording offered above, or go back to the simulator",
     .zh = "没有 GPU 时：回放上方提供的随附记录，或回到模拟器"},
    {.keys = {'o'}, .run = own_snapshot,
     .en = "your own program's memory: open a PyTorch memory snapshot (a file prompt with Tab "
           "completion, the shipped examples listed)",
     .zh = "你自己程序的显存：打开一个 PyTorch 显存快照（可用 Tab 补全路径，列出随附示例）"},
    {.keys = {'q'}, .run = quit,
     .en = "quit vramlab", .zh = "退出 vramlab",
     .hint_en = "quit", .hint_zh = "退出"},
};

static const struct tui_keymap menu_keys = TUI_KEYMAP("Lesson menu", "课程目录", TUI_TO_SCREEN, rows);

const struct tui_keymap *const tui_menu_keys[] = {&menu_keys, &tui_app_keys,
                                                  &tui_scroll_keys, &tui_loop_keys, NULL};

static const struct tui_keymap *const *keys(struct tui_app *a, const struct tui_key *k,
                                            struct tui_targets *t)
{
    t->screen = a, t->scroll = &a->menu_sc, t->edit = NULL;
    return tui_menu_keys;
}

static void title(const struct tui_app *a, char *out, size_t n)
{
    snprintf(out, n, "%s", TUI_TR(a, "vramlab · lessons", "vramlab · 课程目录"));
}

static void back(struct tui_app *a) { a->quit = true; }

const struct tui_view tui_menu_view = {
    .draw = menu_draw, .keys = keys, .title = title, .back = back,
    .show = show, .lang_changed = invalidate,
};
