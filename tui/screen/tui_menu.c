/* tui_menu.c - the lesson menu: chapters and their sections from lt_catalog_scan, a mark for
 * started / done (from the saved progress), broken lessons with their file:line error, the backend line
 * (with the reason the real GPU did not open), a shipped recording to replay when there is no GPU,
 * and the language. */
#include <curses.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "tui_app.h"
#include "tui_term.h"
#include "tui_wrap.h"

void tui_menu_invalidate(struct tui_app *a) { a->menu_width = 0; }

static void para(struct tui_app *a, const char *s, int style, const char *first, int width,
                 int entry)
{
    struct tui_render_opts o = {width, tui_app_lang(a), a->ascii, entry};
    tui_render_para(&a->menu_lines, s, strlen(s), style, false, first, style, &o);
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
    snprintf(buf, sizeof buf, "%s%s", TUI_TR(a, "Backend: ", "后端："), a->backend);
    para(a, buf, TS_PLAIN, "", width, -1);
    const char *why = a->opts->fallback_why;
    if (why && *why && strstr(a->backend, "SIMULATED")) {
        snprintf(buf, sizeof buf, "%s%s", TUI_TR(a, "no GPU in use: ", "未使用 GPU："), why);
        para(a, buf, TS_DIM, "  ", width, -1);
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
            if (e->error)
                snprintf(buf, sizeof buf, "%s", TUI_TR(a, "Lessons with errors", "有错误的课程"));
            else
                snprintf(buf, sizeof buf, TUI_TR(a, "Chapter %d · %s", "第 %d 章 · %s"), e->chapter,
                         e->chapter_title[li] ? e->chapter_title[li] : "");
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
        para(a, title, sty, first, width, i);
        if (e->error) para(a, e->error, TS_DIM, "          ", width, i);
    }
    tui_lb_end(&b, -1, TUI_LK_TEXT, 0);
    para(a, TUI_TR(a, "Enter opens a section · : opens the Lua sandbox · ? shows every key · q quits",
                   "Enter 打开小节 · : 打开 Lua 沙箱 · ? 查看所有按键 · q 退出"),
         TS_DIM, "", width, -1);
    tui_lb_free(&b);
    a->menu_width = width;
}

/* First line of catalog entry i. */
static int entry_line(const struct tui_app *a, int i)
{
    for (int k = 0; k < a->menu_lines.n; k++)
        if (a->menu_lines.v[k].block == i) return k;
    return -1;
}

static void keep_visible(struct tui_app *a, int h)
{
    int first = entry_line(a, a->menu_sel), last = first;
    while (last + 1 < a->menu_lines.n && a->menu_lines.v[last + 1].block == a->menu_sel) last++;
    if (first < 0) return;
    if (a->menu_sel == 0 && first < h) a->menu_top = 0; /* show the header with the first entry */
    if (last >= a->menu_top + h) a->menu_top = last - h + 1;
    if (first < a->menu_top) a->menu_top = first;
}

void tui_menu_draw(struct tui_app *a)
{
    const struct tui_rect *r = &a->lay.menu;
    if (r->w <= 0 || r->h <= 0) return;
    if (a->menu_width != r->w - 2) build(a, r->w - 2);
    if (a->menu_sel >= a->ncat) a->menu_sel = a->ncat - 1;
    if (a->menu_sel < 0) a->menu_sel = 0;
    int maxtop = a->menu_lines.n - r->h > 0 ? a->menu_lines.n - r->h : 0;
    if (a->menu_top > maxtop) a->menu_top = maxtop;
    if (a->menu_top < 0) a->menu_top = 0;
    for (int i = 0; i < r->h; i++) {
        int li = a->menu_top + i;
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
}

int tui_menu_key(struct tui_app *a, const struct tui_key *k)
{
    int h = a->lay.menu.h > 0 ? a->lay.menu.h : 1;
    int old = a->menu_sel, old_top = a->menu_top;
    if (k->fn) {
        switch (k->code) {
        case KEY_UP: a->menu_sel--; break;
        case KEY_DOWN: a->menu_sel++; break;
        case KEY_PPAGE: a->menu_sel -= h / 2 > 0 ? h / 2 : 1; break;
        case KEY_NPAGE: a->menu_sel += h / 2 > 0 ? h / 2 : 1; break;
        case KEY_HOME: a->menu_sel = 0; break;
        case KEY_END: a->menu_sel = a->ncat - 1; break;
        case KEY_ENTER: return a->ncat ? a->menu_sel : -1;
        case KEY_MOUSE:
            if (k->mbutton == 4) a->menu_top -= 3;
            else if (k->mbutton == 5) a->menu_top += 3;
            else if (k->mbutton == 1 && tui_rect_contains(&a->lay.menu, k->my, k->mx)) {
                int li = a->menu_top + k->my - a->lay.menu.y;
                if (li >= 0 && li < a->menu_lines.n && a->menu_lines.v[li].block >= 0) {
                    a->menu_sel = a->menu_lines.v[li].block;
                    a->dirty = true;
                    return a->menu_sel;
                }
            }
            a->dirty = a->menu_top != old_top;
            return -1;
        default: return -1;
        }
    } else {
        switch (k->code) {
        case 'k': a->menu_sel--; break;
        case 'j': a->menu_sel++; break;
        case 'g': a->menu_sel = 0; break;
        case 'G': a->menu_sel = a->ncat - 1; break;
        case '\n': case '\r': case ' ': return a->ncat ? a->menu_sel : -1;
        default: return -1;
        }
    }
    if (a->menu_sel >= a->ncat) a->menu_sel = a->ncat - 1;
    if (a->menu_sel < 0) a->menu_sel = 0;
    if (a->menu_sel != old || a->menu_top != old_top) {
        if (a->menu_width) keep_visible(a, h);
        a->dirty = true;
    }
    return -1;
}
