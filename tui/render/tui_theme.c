/* tui_theme.c - the style table (see tui_theme.h). Each style has one meaning; the roles take
 * their colours first and the series palette takes others, so a curve never looks like a
 * "measured" or "error" value. The backgrounds assumed are black (dark) and white (light) of
 * the standard xterm palette; with 8 or 16 colours a few hues are unreadable on one of them
 * (xterm's blue on black, green or yellow on white), so those roles fall back to an attribute,
 * a background, or the default colour, and the panels say what a value is in words as well.
 * With 8 or 16 colours there are not enough hues for six series apart from the roles: there
 * the marker glyph of each series (tui_panel.c) tells them apart; with 256 they never share. */
#include "tui_theme.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define B TUI_A_BOLD
#define U TUI_A_UNDER
#define R TUI_A_REV
#define D TUI_A_DIM
#define I TUI_A_ITALIC
#define L(f, b, a) {f, b, a}
#define NONE L(-1, -1, 0)

struct row {
    int mono;
    struct tui_look dark[3], light[3]; /* 8, 16, 256 colours */
};

/* accent: headings, marks, panel titles; chrome: rules, borders, axes (grey, never a hue) */
#define ACCENT(a) {L(-1, -1, B | (a)), L(15, -1, B | (a)), L(75, -1, (a))}, \
                  {L(-1, -1, B | (a)), L(-1, -1, B | (a)), L(19, -1, (a))}
#define CHROME    {L(-1, -1, D), L(8, -1, 0), L(244, -1, 0)}, {L(-1, -1, D), L(8, -1, 0), L(244, -1, 0)}
#define WARN      {L(3, -1, B), L(11, -1, B), L(220, -1, B)}, {L(0, 3, B), L(0, 3, B), L(94, -1, B)}
#define ERROR     {L(7, 1, B), L(9, -1, B), L(210, -1, B)}, {L(1, -1, B), L(1, -1, B), L(160, -1, B)}
#define GOOD      {L(2, -1, B), L(10, -1, B), L(78, -1, B)}, {L(-1, -1, B), L(-1, -1, B), L(23, -1, B)}
#define BAR       {L(0, 7, 0), L(0, 7, 0), L(252, 237, 0)}, {L(0, 7, 0), L(0, 7, 0), L(235, 252, 0)}

static const struct row rows[TS_COUNT] = {
    [TS_PLAIN] = {0, {NONE, NONE, NONE}, {NONE, NONE, NONE}},
    [TS_EM] = {B, {L(-1, -1, B), L(-1, -1, B), L(-1, -1, B)}, {L(-1, -1, B), L(-1, -1, B), L(-1, -1, B)}},
    [TS_CODE] = {0, {NONE, L(7, -1, 0), L(180, -1, 0)}, {NONE, NONE, L(54, -1, 0)}},
    [TS_H1] = {B, ACCENT(B)},
    [TS_H2] = {B, ACCENT(B)},
    [TS_H3] = {B | U, ACCENT(U)},
    [TS_RULE] = {0, CHROME},
    [TS_MARK] = {B, ACCENT(0)},
    [TS_TABLE_HEAD] = {B, {L(-1, -1, B), L(-1, -1, B), L(-1, -1, B)}, {L(-1, -1, B), L(-1, -1, B), L(-1, -1, B)}},
    [TS_CALLOUT] = {B, ACCENT(B)},
    [TS_WARN_LABEL] = {B, WARN},
    [TS_BUTTON] = {B, ACCENT(0)}, /* not brighter than the results it produces */
    [TS_BUTTON_SEL] = {R | B, {L(0, 2, B), L(0, 2, B), L(16, 114, B)}, {L(0, 2, B), L(0, 2, B), L(231, 28, B)}},
    [TS_INPUT] = {U, {L(-1, -1, U), L(-1, -1, U), L(-1, -1, U)}, {L(-1, -1, U), L(-1, -1, U), L(-1, -1, U)}},
    [TS_GOOD] = {B, GOOD},
    [TS_BAD] = {B, ERROR},
    [TS_DIM] = {D, {L(-1, -1, D), L(-1, -1, D), L(-1, -1, D)}, {L(-1, -1, D), L(-1, -1, D), L(-1, -1, D)}},
    [TS_MEASURED] = {B, {L(2, -1, B), L(10, -1, B), L(114, -1, B)}, {L(4, -1, B), L(4, -1, B), L(22, -1, B)}},
    [TS_SIMULATED] = {0, {L(6, -1, 0), L(13, -1, 0), L(177, -1, 0)}, {L(0, 6, 0), L(5, -1, 0), L(127, -1, 0)}},
    [TS_THEORETICAL] = {D, {L(-1, -1, D), L(6, -1, 0), L(110, -1, 0)}, {L(-1, -1, 0), L(0, -1, 0), L(60, -1, 0)}},
    [TS_REFERENCE] = {U, {L(-1, -1, U), L(7, -1, U), L(223, -1, 0)}, {L(-1, -1, U), L(-1, -1, U), L(58, -1, 0)}},
    [TS_REPLAYED] = {U, {L(-1, -1, U), L(14, -1, 0), L(81, -1, 0)}, {L(-1, -1, U), L(12, -1, 0), L(25, -1, 0)}},
    [TS_NOTE] = {D, {L(-1, -1, D), L(8, -1, 0), L(248, -1, 0)}, {L(-1, -1, D), L(-1, -1, D), L(242, -1, 0)}},
    [TS_SERIES0] = {B, {L(3, -1, 0), L(3, -1, 0), L(214, -1, 0)}, {L(4, -1, 0), L(9, -1, 0), L(166, -1, 0)}},
    [TS_SERIES1] = {0, {L(6, -1, 0), L(12, -1, 0), L(39, -1, 0)}, {L(1, -1, 0), L(12, -1, 0), L(26, -1, 0)}},
    [TS_SERIES2] = {D, {L(5, -1, 0), L(5, -1, 0), L(213, -1, 0)}, {L(5, -1, 0), L(13, -1, 0), L(125, -1, 0)}},
    [TS_SERIES3] = {U, {L(1, -1, 0), L(2, -1, 0), L(156, -1, 0)}, {L(0, -1, 0), L(1, -1, 0), L(64, -1, 0)}},
    [TS_SERIES4] = {0, {L(2, -1, 0), L(1, -1, 0), L(43, -1, 0)}, {L(4, -1, U), L(4, -1, 0), L(31, -1, 0)}},
    [TS_SERIES5] = {0, {L(7, -1, 0), L(15, -1, 0), L(195, -1, 0)}, {L(1, -1, U), L(5, -1, 0), L(90, -1, 0)}},
    [TS_TITLE] = {R | B, BAR},
    [TS_STATUS] = {R, BAR},
    [TS_SELECTED] = {R, {L(-1, -1, R), L(-1, -1, R), L(-1, -1, R)}, {L(-1, -1, R), L(-1, -1, R), L(-1, -1, R)}},
    [TS_PANEL_HEAD] = {B | U, ACCENT(B | U)},
    /* italic where the terminal has it (terminfo sitm); the text reads the same without */
    [TS_ITALIC] = {I, {L(-1, -1, I), L(-1, -1, I), L(-1, -1, I)}, {L(-1, -1, I), L(-1, -1, I), L(-1, -1, I)}},
};

struct tui_look tui_theme_look(enum tui_theme t, enum tui_depth d, int style)
{
    if (style < 0 || style >= TS_COUNT) return (struct tui_look)NONE;
    if (t == TUI_THEME_MONO) return (struct tui_look){-1, -1, rows[style].mono};
    if ((int)d < 0 || d > TUI_DEPTH_256) d = TUI_DEPTH_8;
    return t == TUI_THEME_LIGHT ? rows[style].light[d] : rows[style].dark[d];
}

int tui_theme_mono(int style) { return style >= 0 && style < TS_COUNT ? rows[style].mono : 0; }

int tui_theme_bg(enum tui_theme t, enum tui_depth d)
{
    if (t == TUI_THEME_LIGHT) return d == TUI_DEPTH_256 ? 231 : d == TUI_DEPTH_16 ? 15 : 7;
    return d == TUI_DEPTH_256 ? 16 : 0;
}

int tui_theme_fg(enum tui_theme t, enum tui_depth d)
{
    if (t == TUI_THEME_LIGHT) return d == TUI_DEPTH_256 ? 16 : 0;
    return d == TUI_DEPTH_256 ? 252 : 7;
}

bool tui_theme_is_series(int style) { return style >= TS_SERIES0 && style < TS_SERIES0 + TS_NSERIES; }

double tui_theme_min_contrast(int style)
{
    return tui_theme_is_series(style) || style == TS_RULE || style == TS_MARK ? 3.0 : 4.5;
}

int tui_theme_parse(const char *name)
{
    if (!name) return -1;
    static const char *const names[] = {"dark", "light", "mono"};
    for (int i = 0; i < 3; i++)
        if (!strcmp(name, names[i])) return i;
    return -1;
}

enum tui_theme tui_theme_detect(const char *colorfgbg)
{
    if (!colorfgbg || !*colorfgbg) return TUI_THEME_DARK;
    const char *last = strrchr(colorfgbg, ';');
    const char *bg = last ? last + 1 : colorfgbg;
    char *end;
    long v = strtol(bg, &end, 10);
    if (end == bg || *end || v < 0 || v > 255) return TUI_THEME_DARK;
    if (v == 7 || v == 15) return TUI_THEME_LIGHT;
    if (v < 16) return TUI_THEME_DARK;
    unsigned char rgb[3];
    tui_palette_rgb((int)v, rgb);
    return tui_theme_for_rgb(rgb);
}

void tui_palette_rgb(int i, unsigned char rgb[3])
{
    static const unsigned char base[16][3] = {
        {0, 0, 0},       {205, 0, 0},     {0, 205, 0},     {205, 205, 0},
        {0, 0, 238},     {205, 0, 205},   {0, 205, 205},   {229, 229, 229},
        {127, 127, 127}, {255, 0, 0},     {0, 255, 0},     {255, 255, 0},
        {92, 92, 255},   {255, 0, 255},   {0, 255, 255},   {255, 255, 255}};
    if (i < 0 || i > 255) i = 0;
    if (i < 16) {
        memcpy(rgb, base[i], 3);
    } else if (i < 232) {
        static const unsigned char lv[6] = {0, 95, 135, 175, 215, 255};
        int k = i - 16;
        rgb[0] = lv[k / 36], rgb[1] = lv[(k / 6) % 6], rgb[2] = lv[k % 6];
    } else {
        rgb[0] = rgb[1] = rgb[2] = (unsigned char)(8 + 10 * (i - 232));
    }
}

static double lum_rgb(const unsigned char c[3])
{
    double v[3];
    for (int k = 0; k < 3; k++) {
        double s = c[k] / 255.0;
        v[k] = s <= 0.04045 ? s / 12.92 : pow((s + 0.055) / 1.055, 2.4);
    }
    return 0.2126 * v[0] + 0.7152 * v[1] + 0.0722 * v[2];
}

static double lum(int i)
{
    unsigned char c[3];
    tui_palette_rgb(i, c);
    return lum_rgb(c);
}

static double ratio(double a, double b) { return a > b ? (a + 0.05) / (b + 0.05) : (b + 0.05) / (a + 0.05); }

double tui_contrast_rgb(int fg, const unsigned char bg[3]) { return ratio(lum(fg), lum_rgb(bg)); }

enum tui_theme tui_theme_for_rgb(const unsigned char rgb[3])
{
    /* black text's contrast (L + 0.05) / 0.05 beats white's 1.05 / (L + 0.05) above L = 0.179 */
    return lum_rgb(rgb) > 0.179 ? TUI_THEME_LIGHT : TUI_THEME_DARK;
}

static int hexval(char c)
{
    return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10
           : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

/* "rrrr/gggg/bbbb" (1-4 hex digits each) at s, ending exactly at e. */
static bool parse_rgb(const char *s, const char *e, unsigned char rgb[3])
{
    for (int k = 0; k < 3; k++) {
        unsigned v = 0, digits = 0;
        for (; s < e && hexval(*s) >= 0; s++, digits++) v = v * 16 + (unsigned)hexval(*s);
        if (digits < 1 || digits > 4) return false;
        unsigned max = (1u << (4 * digits)) - 1;
        rgb[k] = (unsigned char)((v * 255 + max / 2) / max);
        if (k < 2) {
            if (s >= e || *s != '/') return false;
            s++;
        }
    }
    return s == e || *s == '/'; /* rgba: an alpha component may follow */
}

enum tui_bg_reply tui_theme_bg_reply(const char *buf, size_t n, unsigned char rgb[3], bool *got_rgb,
                                     size_t *end)
{
    const char *e = buf + n;
    *got_rgb = false;
    for (const char *p = buf; p < e; p++) {
        if (*p != '\033' || p + 1 >= e) continue;
        if (p[1] == ']') { /* OSC 11 ; colour ST|BEL */
            const char *body = p + 2, *stop = NULL;
            if (e - body < 3 || memcmp(body, "11;", 3)) continue;
            body += 3;
            size_t len = 0;
            for (const char *t = body; t < e && !stop; t++)
                if (*t == '\a') stop = t, len = 1;
                else if (*t == '\033' && t + 1 < e && t[1] == '\\') stop = t, len = 2;
            if (!stop) return TUI_BG_MORE;
            const char *c = body;
            if (stop - c > 5 && !memcmp(c, "rgba:", 5)) c += 5;
            else if (stop - c > 4 && !memcmp(c, "rgb:", 4)) c += 4;
            else c = NULL;
            if (c && parse_rgb(c, stop, rgb)) *got_rgb = true; /* else: as if none came */
            p = stop + len - 1;
        } else if (p[1] == '[' && p + 2 < e && p[2] == '?') { /* DA1: ESC [ ? digits ; ... c */
            const char *t = p + 3;
            while (t < e && ((*t >= '0' && *t <= '9') || *t == ';')) t++;
            if (t >= e) return TUI_BG_MORE;
            if (*t == 'c') {
                if (end) *end = (size_t)(t + 1 - buf);
                return TUI_BG_DONE;
            }
        }
    }
    return TUI_BG_MORE;
}

double tui_contrast(int fg, int bg) { return ratio(lum(fg), lum(bg)); }
