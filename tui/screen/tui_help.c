/* tui_help.c - the help overlay: every key, and what the colours and tags mean. A box over the
 * middle of the screen; it scrolls when the terminal is short and redraws on any resize. */
#include <curses.h>
#include <stdio.h>
#include <string.h>

#include "tui_app.h"
#include "tui_term.h"
#include "tui_wrap.h"

struct help_row {
    const char *key, *en, *zh;
};

static const struct help_row rows[] = {
    {"↑ ↓  j k", "scroll one line", "滚动一行"},
    {"PgUp PgDn Space", "scroll one page", "翻页"},
    {"Home End  g G", "top / bottom", "到顶 / 到底"},
    {"Tab", "switch focus: lesson text / live panel", "切换焦点：课文 / 实时面板"},
    {"Enter", "menu: open the section. lesson: run the selected experiment, or answer the "
              "selected exercise",
     "菜单：打开小节。课程：运行选中的实验，或回答选中的练习"},
    {"[  ]", "previous / next experiment or exercise", "上一个 / 下一个实验或练习"},
    {"r", "lesson: run the experiment shown in the live panel. menu, without a GPU: replay the "
          "shipped recording offered there, or go back to the simulator",
     "课程：运行实时面板中的实验。菜单（没有 GPU 时）：回放菜单上提供的随附记录，或回到模拟器"},
    {"1 - 9", "pick a choice in a multiple-choice exercise", "选择题：直接选第几项"},
    {"e", "code exercise: write the answer in $VISUAL / $EDITOR (default vi); graded when the "
          "editor exits, kept in $XDG_STATE_HOME/vramlab/answers",
     "代码练习：用 $VISUAL / $EDITOR（默认 vi）写答案；编辑器退出后评分，"
     "文件保存在 $XDG_STATE_HOME/vramlab/answers"},
    {"Esc", "cancel a running experiment or measurement, stop editing an answer, close this help",
     "取消正在运行的实验或测量、结束答案编辑、关闭帮助"},
    {"n  p", "next / previous section", "下一节 / 上一节"},
    {"L", "switch language: English / 中文", "切换语言：English / 中文"},
    {":  F2", "the sandbox: a Lua prompt with the lesson modules and plot.* (also s in the menu)",
     "沙箱：带课程模块和 plot.* 的 Lua 提示符（菜单中也可按 s）"},
    {"o", "menu: your own program's memory - open a PyTorch memory snapshot (a file prompt with "
          "Tab completion, the shipped examples listed)",
     "菜单：你自己程序的显存——打开一个 PyTorch 显存快照（可用 Tab 补全路径，列出随附示例）"},
    {"?  F1", "this help (F1 also inside the sandbox)", "本帮助（沙箱中用 F1）"},
    {"q", "back to the menu; in the menu, quit", "返回菜单；在菜单中退出"},
    {"Ctrl-C", "quit now (the terminal is restored)", "立即退出（终端会恢复原状）"},
    {"mouse", "wheel scrolls; a click opens a section, runs an experiment, picks a choice",
     "滚轮滚动；点击可打开小节、运行实验、选择答案"},
    {"", "", ""},
    {"answer field", "← → Home End Backspace Delete edit; Enter submits; Esc stops editing",
     "← → Home End Backspace Delete 编辑；Enter 提交；Esc 结束编辑"},
    {"sandbox", "Enter runs (an unfinished chunk continues with >>); ↑ ↓ history (saved); "
                "Ctrl-A E K U W edit; PgUp PgDn scroll; Esc cancels a running entry, drops "
                "unfinished input, then goes back",
     "Enter 运行（未完成的代码块以 >> 继续）；↑ ↓ 历史（会保存）；Ctrl-A E K U W 编辑；"
     "PgUp PgDn 滚动；Esc 取消正在运行的输入，放弃未完成的输入，再返回"},
    {"progress", "◐ visited, ✓ every exercise solved; saved in $XDG_STATE_HOME/vramlab "
                 "(`vramlab progress`, `vramlab reset`)",
     "◐ 已学习，✓ 练习全部答对；保存在 $XDG_STATE_HOME/vramlab（`vramlab progress`、`vramlab reset`）"},
    {"REPLAY", "--replay FILE or r in the menu: the numbers were recorded on the machine named in "
               "the status line, not measured here",
     "--replay 文件：数字来自状态栏所示机器上的记录，不是在本机测量的"},
    {"", "", ""},
    {"measured", "a number measured on this machine (green)", "在本机实测的数字（绿色）"},
    {"SIM", "SIMULATED: from the GPU simulator's model, not a measurement (magenta, ▓)",
     "模拟（SIMULATED）：来自 GPU 模拟器的模型，不是实测（品红，▓）"},
    {"theory", "theoretical peak: bus width / 8 x data rate (cyan, ░)",
     "理论峰值：位宽 / 8 × 数据速率（青色，░）"},
    {"ref", "a reference figure: a datasheet or the lecture (yellow, ▒)",
     "参考数字：数据手册或讲义（黄色，▒）"},
};

static void build(struct tui_app *a, struct tui_lines *L, int width)
{
    struct tui_render_opts o = {width, tui_app_lang(a), a->ascii, -1};
    for (size_t i = 0; i < sizeof rows / sizeof *rows; i++) {
        const char *desc = TUI_TR(a, rows[i].en, rows[i].zh);
        if (!*rows[i].key) {
            struct tui_lb b = {.L = L};
            tui_lb_end(&b, -1, TUI_LK_TEXT, 0);
            continue;
        }
        char first[64];
        struct tui_lb b = {.L = L};
        int kw = width < 40 ? 12 : 17;
        tui_lb_fit(&b, rows[i].key, kw, TUI_LEFT, a->ascii, TS_EM);
        snprintf(first, sizeof first, "%.*s ", b.len < 60 ? b.len : 60, b.s ? b.s : "");
        tui_lb_free(&b);
        tui_render_para(L, desc, strlen(desc), TS_PLAIN, false, first, TS_EM, &o);
    }
}

void tui_help_draw(struct tui_app *a)
{
    const struct tui_rect *r = &a->lay.help;
    if (r->h < 3 || r->w < 6) return;
    const struct tui_glyphs *g = tui_glyphs(a->ascii);
    struct tui_lines L = {0};
    build(a, &L, r->w - 4);
    int inner = r->h - 2;
    int maxtop = L.n - inner > 0 ? L.n - inner : 0;
    if (a->help_top > maxtop) a->help_top = maxtop;
    if (a->help_top < 0) a->help_top = 0;
    /* frame */
    struct tui_lines F = {0};
    struct tui_lb b = {.L = &F};
    const char *title = TUI_TR(a, " Keys (Esc closes) ", " 按键（Esc 关闭） ");
    tui_lb_puts(&b, g->tl, TS_RULE);
    tui_lb_puts(&b, g->h, TS_RULE);
    int tw = tui_width(title, strlen(title));
    tui_lb_fit(&b, title, tw < r->w - 4 ? tw : r->w - 4, TUI_LEFT, a->ascii, TS_EM);
    while (b.width < r->w - 1) tui_lb_puts(&b, g->h, TS_RULE);
    tui_lb_puts(&b, g->tr, TS_RULE);
    tui_lb_end(&b, -1, TUI_LK_TEXT, 0);
    tui_lb_puts(&b, g->bl, TS_RULE);
    const char *more = a->help_top < maxtop ? TUI_TR(a, " more ↓ ", " 更多 ↓ ") : "";
    if (*more) {
        tui_lb_puts(&b, g->h, TS_RULE);
        tui_lb_fit(&b, more, tui_width(more, strlen(more)) < r->w - 4 ? tui_width(more, strlen(more)) : r->w - 4, TUI_LEFT, a->ascii, TS_DIM);
    }
    while (b.width < r->w - 1) tui_lb_puts(&b, g->h, TS_RULE);
    tui_lb_puts(&b, g->br, TS_RULE);
    tui_lb_end(&b, -1, TUI_LK_TEXT, 0);
    tui_lb_free(&b);
    tui_term_line(r->y, r->x, r->w, &F.v[0], TS_PLAIN);
    for (int i = 0; i < inner; i++) {
        int y = r->y + 1 + i, li = a->help_top + i;
        tui_term_put(y, r->x, 1, g->v, strlen(g->v), NULL, TS_RULE);
        tui_term_fill(y, r->x + 1, 1, r->w - 2, TS_PLAIN);
        if (li < L.n) tui_term_line(y, r->x + 2, r->w - 4, &L.v[li], TS_PLAIN);
        tui_term_put(y, r->x + r->w - 1, 1, g->v, strlen(g->v), NULL, TS_RULE);
    }
    tui_term_line(r->y + r->h - 1, r->x, r->w, &F.v[1], TS_PLAIN);
    tui_lines_free(&F);
    tui_lines_free(&L);
}

void tui_help_key(struct tui_app *a, const struct tui_key *k)
{
    int page = a->lay.help.h > 4 ? a->lay.help.h - 3 : 1;
    if (k->fn) {
        switch (k->code) {
        case KEY_UP: a->help_top--; break;
        case KEY_DOWN: a->help_top++; break;
        case KEY_PPAGE: a->help_top -= page; break;
        case KEY_NPAGE: a->help_top += page; break;
        case KEY_HOME: a->help_top = 0; break;
        case KEY_END: a->help_top = 1 << 20; break;
        case KEY_MOUSE:
            if (k->mbutton == 4) a->help_top -= 3;
            else if (k->mbutton == 5) a->help_top += 3;
            else if (k->mbutton == 1 && !tui_rect_contains(&a->lay.help, k->my, k->mx)) a->help = false;
            break;
        default: return;
        }
    } else {
        switch (k->code) {
        case 'k': a->help_top--; break;
        case 'j': a->help_top++; break;
        case ' ': a->help_top += page; break;
        case 'g': a->help_top = 0; break;
        case 'G': a->help_top = 1 << 20; break;
        case 27: case '?': case 'q': case 'h': a->help = false; break;
        default: return;
        }
    }
    if (a->help_top < 0) a->help_top = 0;
    a->dirty = true;
}
