/* test_tui_theme.c - the style table keeps its promises: every role and series colour is
 * readable on the background its theme is for (WCAG 2 contrast against the standard xterm
 * palette for 8 and 16 colours and the exact RGB of the 256-colour cube: 4.5:1 for text, 3:1
 * for rules, marks and chart lines), series never repeat within a chart and never take a
 * role's colour where the depth has hues to spare, chrome is grey, and the theme is chosen from
 * COLORFGBG when nothing else says. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_palette),
        cmocka_unit_test(test_contrast),
        cmocka_unit_test(test_series_apart),
        cmocka_unit_test(test_chrome_and_notes),
        cmocka_unit_test(test_choice),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
