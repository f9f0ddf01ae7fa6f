/* test_tui_theme.c - the style table keeps its promises: every role and series colour is
 * readable on the background its theme is for (WCAG 2 contrast against the standard xterm
 * palette for 8 and 16 colours and the exact RGB of the 256-colour cube: 4.5:1 for text, 3:1
 * for rules, marks and chart lines), series never repeat within a chart and never take a
 * role's colour where the depth has hues to spare, chrome is grey; the terminal's answer to
 * OSC 11 is read in every form terminals send, the theme it picks keeps text readable on the
 * backgrounds terminals really have, and COLORFGBG is the fallback. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "tui_theme.h"

static const char *const depth_name[] = {"8", "16", "256"};

static void test_palette(void **state)
{
    (void)state;
    unsigned char c[3];
    tui_palette_rgb(196, c); /* the cube: 16 + 36*5 */
    assert_int_equal(c[0], 255), assert_int_equal(c[1], 0), assert_int_equal(c[2], 0);
    tui_palette_rgb(244, c);
    assert_int_equal(c[0], 128);
    /* WCAG's own reference points: black on white is 21:1, a colour with itself 1:1 */
    assert_true(tui_contrast(16, 231) > 20.99 && tui_contrast(16, 231) < 21.01);
    assert_true(tui_contrast(9, 9) > 0.999 && tui_contrast(9, 9) < 1.001);
    /* xterm's blue (0000ee) on black is the classic unreadable one: the test can see it */
    assert_true(tui_contrast(4, 0) < 3);
}

/* Contrast of every style with a colour, in every theme and depth. */
static void test_contrast(void **state)
{
    (void)state;
    int checked = 0;
    for (int t = TUI_THEME_DARK; t <= TUI_THEME_LIGHT; t++)
        for (int d = TUI_DEPTH_8; d <= TUI_DEPTH_256; d++)
            for (int s = 0; s < TS_COUNT; s++) {
                struct tui_look lk = tui_theme_look(t, d, s);
                if (lk.fg < 0 && lk.bg < 0) continue; /* the terminal's own colours */
                int fg = lk.fg >= 0 ? lk.fg : tui_theme_fg(t, d);
                int bg = lk.bg >= 0 ? lk.bg : tui_theme_bg(t, d);
                int maxi = d == TUI_DEPTH_8 ? 7 : d == TUI_DEPTH_16 ? 15 : 255;
                if (fg > maxi || bg > maxi)
                    fail_msg("%s %s-colour style %d uses colour %d", t ? "light" : "dark",
                             depth_name[d], s, fg > maxi ? fg : bg);
                double cr = tui_contrast(fg, bg), need = tui_theme_min_contrast(s);
                if (cr < need)
                    fail_msg("%s theme, %s colours: style %d, colour %d on %d is %.2f:1 < %.1f:1",
                             t ? "light" : "dark", depth_name[d], s, fg, bg, cr, need);
                checked++;
            }
    assert_true(checked > 100);
}

static bool is_grey(int i)
{
    unsigned char c[3];
    tui_palette_rgb(i, c);
    return c[0] == c[1] && c[1] == c[2];
}

static void test_series_apart(void **state)
{
    (void)state;
    for (int t = TUI_THEME_DARK; t <= TUI_THEME_LIGHT; t++)
        for (int d = TUI_DEPTH_16; d <= TUI_DEPTH_256; d++)
            for (int a = 0; a < TS_NSERIES; a++) {
                int fa = tui_theme_look(t, d, TS_SERIES0 + a).fg;
                assert_true(fa >= 0);
                for (int b = a + 1; b < TS_NSERIES; b++)
                    if (fa == tui_theme_look(t, d, TS_SERIES0 + b).fg)
                        fail_msg("%s %s colours: series %d and %d share colour %d",
                                 t ? "light" : "dark", depth_name[d], a, b, fa);
                if (d != TUI_DEPTH_256) continue; /* 16 colours: markers tell them apart */
                for (int s = 0; s < TS_COUNT; s++) {
                    if (tui_theme_is_series(s)) continue;
                    struct tui_look r = tui_theme_look(t, d, s);
                    if (r.fg == fa || r.bg == fa)
                        fail_msg("%s 256 colours: series %d reuses colour %d of style %d",
                                 t ? "light" : "dark", a, fa, s);
                }
            }
}

/* Rules, borders and axes are grey (or dim), never a saturated hue; neutral notes are not the
 * warning or error colour. */
static void test_chrome_and_notes(void **state)
{
    (void)state;
    for (int t = TUI_THEME_DARK; t <= TUI_THEME_LIGHT; t++)
        for (int d = TUI_DEPTH_8; d <= TUI_DEPTH_256; d++) {
            struct tui_look r = tui_theme_look(t, d, TS_RULE);
            assert_true(r.fg < 0 ? (r.attr & TUI_A_DIM) != 0 : is_grey(r.fg) && r.fg != 0 && r.fg != 15);
            struct tui_look n = tui_theme_look(t, d, TS_NOTE), w = tui_theme_look(t, d, TS_WARN_LABEL),
                            e = tui_theme_look(t, d, TS_BAD);
            assert_true(n.fg < 0 || is_grey(n.fg));
            assert_false(n.fg >= 0 && (n.fg == w.fg || n.fg == e.fg));
        }
    /* mono: no colour at all, meaning by attributes */
    for (int s = 0; s < TS_COUNT; s++) {
        struct tui_look m = tui_theme_look(TUI_THEME_MONO, TUI_DEPTH_256, s);
        assert_int_equal(m.fg, -1), assert_int_equal(m.bg, -1);
        assert_int_equal(m.attr, tui_theme_mono(s));
    }
}

static void test_choice(void **state)
{
    (void)state;
    assert_int_equal(tui_theme_parse("dark"), TUI_THEME_DARK);
    assert_int_equal(tui_theme_parse("light"), TUI_THEME_LIGHT);
    assert_int_equal(tui_theme_parse("mono"), TUI_THEME_MONO);
    assert_int_equal(tui_theme_parse("Dark"), -1);
    assert_int_equal(tui_theme_parse(""), -1);
    assert_int_equal(tui_theme_parse(NULL), -1);
    assert_int_equal(tui_theme_detect(NULL), TUI_THEME_DARK);
    assert_int_equal(tui_theme_detect("15;0"), TUI_THEME_DARK);
    assert_int_equal(tui_theme_detect("0;15"), TUI_THEME_LIGHT);
    assert_int_equal(tui_theme_detect("0;default;15"), TUI_THEME_LIGHT);
    assert_int_equal(tui_theme_detect("12;7"), TUI_THEME_LIGHT);
    assert_int_equal(tui_theme_detect("0;231"), TUI_THEME_LIGHT);
    assert_int_equal(tui_theme_detect("7;234"), TUI_THEME_DARK);
    assert_int_equal(tui_theme_detect("garbage"), TUI_THEME_DARK);
    assert_int_equal(tui_theme_detect("0;999"), TUI_THEME_DARK);
}

/* What terminals answer to OSC 11, in every form the parser takes: ST or BEL, 1-4 hex digits,
 * rgba, in pieces; DA1's answer ends the reply, with or without a colour before it. */
static void test_bg_reply(void **state)
{
    (void)state;
    unsigned char c[3];
    bool got;
    size_t end = 0;
    const char *white = "\033]11;rgb:ffff/ffff/ffff\033\\\033[?1;2c";
    assert_int_equal(tui_theme_bg_reply(white, strlen(white), c, &got, &end), TUI_BG_DONE);
    assert_true(got);
    assert_int_equal(c[0], 255), assert_int_equal(c[1], 255), assert_int_equal(c[2], 255);
    assert_int_equal(end, strlen(white));
    /* every prefix: more to come, never a wrong answer */
    for (size_t k = 0; k < strlen(white); k++)
        assert_int_equal(tui_theme_bg_reply(white, k, c, &got, &end), TUI_BG_MORE);
    const char *bel = "\033]11;rgb:1e/1e/1e\a\033[?62;22c";
    assert_int_equal(tui_theme_bg_reply(bel, strlen(bel), c, &got, &end), TUI_BG_DONE);
    assert_true(got);
    assert_int_equal(c[0], 30), assert_int_equal(c[2], 30);
    const char *one = "\033]11;rgb:f/8/0\033\\\033[?6c";
    assert_int_equal(tui_theme_bg_reply(one, strlen(one), c, &got, &end), TUI_BG_DONE);
    assert_int_equal(c[0], 255), assert_int_equal(c[1], 136), assert_int_equal(c[2], 0);
    const char *rgba = "\033]11;rgba:fdfd/f6f6/e3e3/ffff\033\\\033[?64;1c";
    assert_int_equal(tui_theme_bg_reply(rgba, strlen(rgba), c, &got, &end), TUI_BG_DONE);
    assert_true(got);
    assert_int_equal(c[0], 0xfd), assert_int_equal(c[1], 0xf6), assert_int_equal(c[2], 0xe3);
    /* no colour: DA1 alone (tmux, screen, the Linux console); keys typed ahead stay after end */
    const char *none = "\033[?1;2cjq";
    assert_int_equal(tui_theme_bg_reply(none, strlen(none), c, &got, &end), TUI_BG_DONE);
    assert_false(got);
    assert_int_equal(end, strlen(none) - 2);
    /* a colour in a form we do not read counts as none; garbage is not an answer */
    const char *odd = "\033]11;#ffffff\033\\\033[?1c";
    assert_int_equal(tui_theme_bg_reply(odd, strlen(odd), c, &got, &end), TUI_BG_DONE);
    assert_false(got);
    const char *bad = "\033]11;rgb:fffff/0/0\a\033[?1c";
    assert_int_equal(tui_theme_bg_reply(bad, strlen(bad), c, &got, &end), TUI_BG_DONE);
    assert_false(got);
    assert_int_equal(tui_theme_bg_reply("xyz\033[", 5, c, &got, &end), TUI_BG_MORE);
    assert_int_equal(tui_theme_bg_reply("", 0, c, &got, &end), TUI_BG_MORE);
}

/* Backgrounds terminals really report (their default and popular schemes, as OSC 11 gives
 * them): each picks the theme whose text is readable on it, at 256 colours, against that very
 * colour, not only the black or white the table was made for. */
static void test_real_backgrounds(void **state)
{
    (void)state;
    static const struct {
        const char *name;
        unsigned char rgb[3];
        enum tui_theme want;
    } bgs[] = {
        {"xterm / kitty / foot default", {0, 0, 0}, TUI_THEME_DARK},
        {"white (GNOME light, macOS Basic)", {255, 255, 255}, TUI_THEME_LIGHT},
        {"Solarized light", {0xfd, 0xf6, 0xe3}, TUI_THEME_LIGHT},
        {"Solarized dark", {0x00, 0x2b, 0x36}, TUI_THEME_DARK},
        {"Gruvbox light", {0xfb, 0xf1, 0xc7}, TUI_THEME_LIGHT},
        {"Gruvbox dark", {0x28, 0x28, 0x28}, TUI_THEME_DARK},
        {"Tango dark (GNOME Terminal)", {0x2e, 0x34, 0x36}, TUI_THEME_DARK},
        {"VS Code / Windows Terminal dark", {0x1e, 0x1e, 0x1e}, TUI_THEME_DARK},
        {"Campbell (Windows Terminal)", {0x0c, 0x0c, 0x0c}, TUI_THEME_DARK},
        {"Dracula", {0x28, 0x2a, 0x36}, TUI_THEME_DARK},
        {"One Light", {0xfa, 0xfa, 0xfa}, TUI_THEME_LIGHT},
        {"Tomorrow Night (Alacritty)", {0x1d, 0x1f, 0x21}, TUI_THEME_DARK},
        {"Nord", {0x2e, 0x34, 0x40}, TUI_THEME_DARK},
        {"PaperColor light", {0xee, 0xee, 0xee}, TUI_THEME_LIGHT},
    };
    int checked = 0, bad = 0;
    for (size_t i = 0; i < sizeof bgs / sizeof *bgs; i++) {
        enum tui_theme t = tui_theme_for_rgb(bgs[i].rgb);
        if (t != bgs[i].want)
            fail_msg("%s (#%02x%02x%02x) picks the %s theme", bgs[i].name, bgs[i].rgb[0],
                     bgs[i].rgb[1], bgs[i].rgb[2], t == TUI_THEME_LIGHT ? "light" : "dark");
        for (int s = 0; s < TS_COUNT; s++) {
            struct tui_look lk = tui_theme_look(t, TUI_DEPTH_256, s);
            if (lk.fg < 0 || lk.bg >= 0) continue; /* default text, or its own background */
            double cr = tui_contrast_rgb(lk.fg, bgs[i].rgb), need = tui_theme_min_contrast(s);
            if (cr < need) {
                print_message("%s: style %d, colour %d is %.2f:1 < %.1f:1\n", bgs[i].name, s, lk.fg, cr, need);
                bad++;
            }
            checked++;
        }
    }
    assert_int_equal(bad, 0);
    assert_true(checked > 200);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_palette),
        cmocka_unit_test(test_contrast),
        cmocka_unit_test(test_series_apart),
        cmocka_unit_test(test_chrome_and_notes),
        cmocka_unit_test(test_choice),
        cmocka_unit_test(test_bg_reply),
        cmocka_unit_test(test_real_backgrounds),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
