/* tui_bigfont.c - see tui_bigfont.h. Glyphs are drawn as strings of '#' (ink) and ' ', all of
 * them TUI_BIG_ROWS rows high; lower-case letters sit on the same baseline as the digits. */
#include "tui_bigfont.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "gpu_float.h"

struct glyph {
    char c;
    const char *row[TUI_BIG_ROWS];
};

static const struct glyph font[] = {
    {'0', {" ## ", "#  #", "#  #", "#  #", " ## "}},
    {'1', {" #  ", "##  ", " #  ", " #  ", "### "}},
    {'2', {" ## ", "#  #", "  # ", " #  ", "####"}},
    {'3', {"### ", "   #", " ## ", "   #", "### "}},
    {'4', {"#  #", "#  #", "####", "   #", "   #"}},
    {'5', {"####", "#   ", "### ", "   #", "### "}},
    {'6', {" ## ", "#   ", "### ", "#  #", " ## "}},
    {'7', {"####", "   #", "  # ", " #  ", " #  "}},
    {'8', {" ## ", "#  #", " ## ", "#  #", " ## "}},
    {'9', {" ## ", "#  #", " ###", "   #", " ## "}},
    {'.', {" ", " ", " ", " ", "#"}},
    {',', {" ", " ", " ", "#", "#"}},
    {'-', {"   ", "   ", "###", "   ", "   "}},
    {'+', {"   ", " # ", "###", " # ", "   "}},
    {' ', {" ", " ", " ", " ", " "}},
    {'%', {"#  #", "   #", "  # ", " #  ", "#  #"}},
    {'/', {"   #", "  # ", "  # ", " #  ", "#   "}},
    {'x', {"   ", "   ", "# #", " # ", "# #"}},
    {'G', {" ###", "#   ", "# ##", "#  #", " ###"}},
    {'B', {"### ", "#  #", "### ", "#  #", "### "}},
    {'M', {"#   #", "## ##", "# # #", "#   #", "#   #"}},
    {'K', {"#  #", "# # ", "##  ", "# # ", "#  #"}},
    {'T', {"###", " # ", " # ", " # ", " # "}},
    {'i', {"#", " ", "#", "#", "#"}},
    {'s', {"   ", " ##", "#  ", "  #", "## "}},
    {'n', {"   ", "   ", "## ", "# #", "# #"}},
    {'u', {"   ", "   ", "# #", "# #", " ##"}},
    {'m', {"     ", "     ", "## # ", "# # #", "# # #"}},
    {'b', {"#  ", "#  ", "## ", "# #", "## "}},
    {'k', {"#  ", "# #", "## ", "# #", "# #"}},
};

static const struct glyph *find(char c)
{
    for (size_t i = 0; i < sizeof font / sizeof *font; i++)
        if (font[i].c == c) return &font[i];
    return NULL;
}

int tui_big_width(const char *s)
{
    int w = 0;
    for (const char *p = s; *p; p++) {
        const struct glyph *g = find(*p);
        if (!g) return -1;
        w += (int)strlen(g->row[0]) + (p[1] ? 1 : 0);
    }
    return w;
}

bool tui_big_render(struct tui_lines *L, const char *s, bool ascii, int style)
{
    return tui_big_render_scaled(L, s, 1, 0, ascii, style);
}

bool tui_big_render_scaled(struct tui_lines *L, const char *s, int scale, int indent, bool ascii,
                           int style)
{
    if (tui_big_width(s) < 0) return false;
    if (scale < 1) scale = 1;
    const char *ink = ascii ? "#" : "█";
    for (int r = 0; r < TUI_BIG_ROWS * scale; r++) {
        struct tui_lb b = {.L = L};
        if (indent > 0) tui_lb_pad(&b, indent, TS_PLAIN);
        for (const char *p = s; *p; p++) {
            const char *row = find(*p)->row[r / scale];
            for (const char *c = row; *c; c++)
                tui_lb_repeat(&b, *c == '#' ? ink : " ", scale, *c == '#' ? style : TS_PLAIN);
            if (p[1]) tui_lb_repeat(&b, " ", scale, TS_PLAIN);
        }
        tui_lb_end(&b, -1, TUI_LK_TEXT, 0);
        tui_lb_free(&b);
    }
    return true;
}

int tui_big_fit(const char *s, int cols, int rows)
{
    int w = tui_big_width(s);
    if (w <= 0 || w > cols || TUI_BIG_ROWS > rows) return 0;
    int k = 1;
    while (k < 64 && w * (k + 1) <= cols && TUI_BIG_ROWS * (k + 1) <= rows) k++;
    return k;
}

void tui_big_number(double v, char *buf, int n)
{
    if (!isfinite(v)) {
        snprintf(buf, (size_t)n, "n/a");
        return;
    }
    double a = fabs(v);
    int decimals = a >= 1000 || gpu_feq(a, 0) ? 0 : a >= 100 ? 1 : a >= 10 ? 2 : a >= 1 ? 3 : 4;
    if (a > 0 && a < 0.001) decimals = 6;
    snprintf(buf, (size_t)n, "%.*f", decimals, v);
    /* 2.500 -> 2.5: trailing zeros after the point say nothing on a slide */
    if (strchr(buf, '.')) {
        size_t l = strlen(buf);
        while (l && buf[l - 1] == '0') buf[--l] = 0;
        if (l && buf[l - 1] == '.') buf[--l] = 0;
    }
}
