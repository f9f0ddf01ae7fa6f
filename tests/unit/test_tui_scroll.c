/* test_tui_scroll.c - the one scrolling viewport: at every content size and view height, every
 * move (line, page, Home/End, wheel, bring-into-view) leaves the first line shown in range; the
 * end of a log stays in view while it grows; and the "more" marks appear exactly when lines are
 * hidden, drawn on a real (off-screen) ncurses screen. */
#include <curses.h>
#include <locale.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "tui_scroll.h"

static void in_range(const struct tui_scroll *s)
{
    int h = s->height > 0 ? s->height : 0;
    assert_true(s->top >= 0);
    assert_true(s->top <= (s->total > h ? s->total - h : 0));
    /* nothing hidden: no mark; a mark: something really is hidden there */
    assert_int_equal(tui_scroll_above(s), s->top > 0);
    assert_int_equal(tui_scroll_below(s), s->top + h < s->total);
}

static void press(struct tui_scroll *s, int code)
{
    struct tui_key k = {.code = code};
    assert_true(tui_scroll_key(s, &k));
}

/* Every key and move at totals 0..40 and heights -1..42, from every starting line. */
static void test_clamp_every_size(void **state)
{
    static const int codes[] = {TUI_KEY_FN(KEY_UP),   TUI_KEY_FN(KEY_DOWN),  'k', 'j',
                                TUI_KEY_FN(KEY_PPAGE), TUI_KEY_FN(KEY_NPAGE), TUI_KEY_FN(KEY_HOME),
                                TUI_KEY_FN(KEY_END),  'g', 'G', TUI_KEY_WHEEL_UP, TUI_KEY_WHEEL_DOWN};
    for (int total = 0; total <= 40; total++)
        for (int h = -1; h <= 42; h++)
            for (int top = -2; top <= total + 2; top++)
                for (size_t c = 0; c < sizeof codes / sizeof *codes; c++) {
                    struct tui_scroll s = {.top = top};
                    tui_scroll_resize(&s, total, h);
                    in_range(&s);
                    int before = s.top;
                    press(&s, codes[c]);
                    in_range(&s);
                    int max = tui_scroll_max(&s), want;
                    switch (codes[c]) {
                    case TUI_KEY_FN(KEY_UP): case 'k': want = before - 1; break;
                    case TUI_KEY_FN(KEY_DOWN): case 'j': want = before + 1; break;
                    case TUI_KEY_FN(KEY_PPAGE): want = before - tui_scroll_page(&s); break;
                    case TUI_KEY_FN(KEY_NPAGE): want = before + tui_scroll_page(&s); break;
                    case TUI_KEY_FN(KEY_HOME): case 'g': want = 0; break;
                    case TUI_KEY_WHEEL_UP: want = before - TUI_WHEEL_LINES; break;
                    case TUI_KEY_WHEEL_DOWN: want = before + TUI_WHEEL_LINES; break;
                    default: want = max; break;
                    }
                    want = want < 0 ? 0 : want > max ? max : want;
                    assert_int_equal(s.top, want);
                    /* the content shrinks under the view: still in range */
                    tui_scroll_resize(&s, total / 2, h);
                    in_range(&s);
                }
}

static void test_page(void **state)
{
    struct tui_scroll s = {0};
    for (int h = -1; h <= 3; h++) {
        tui_scroll_resize(&s, 100, h);
        assert_int_equal(tui_scroll_page(&s), 1); /* a page always moves */
    }
    tui_scroll_resize(&s, 100, 20);
    assert_int_equal(tui_scroll_page(&s), 18); /* two lines of context */
}

static void test_far_moves_do_not_overflow(void **state)
{
    struct tui_scroll s = {0};
    tui_scroll_resize(&s, 50, 10);
    tui_scroll_to(&s, 30);
    tui_scroll_by(&s, 2147483647);
    assert_int_equal(s.top, 40);
    tui_scroll_by(&s, -2147483647 - 1);
    assert_int_equal(s.top, 0);
}

/* Bring a range into view, with a margin, from above and below, at every height. */
static void test_show(void **state)
{
    for (int h = 1; h <= 12; h++)
        for (int first = 0; first < 30; first++)
            for (int len = 0; len < 3; len++)
                for (int start = 0; start <= 30; start += 5) {
                    struct tui_scroll s = {.top = start};
                    tui_scroll_resize(&s, 30, h);
                    int last = first + len < 30 ? first + len : 29;
                    tui_scroll_show(&s, first, last, 0);
                    in_range(&s);
                    assert_true(first >= s.top && first < s.top + h); /* the start shows */
                    if (last - first < h) assert_true(last < s.top + h); /* all of it if it fits */
                }
    struct tui_scroll s = {0};
    tui_scroll_resize(&s, 100, 10);
    tui_scroll_show(&s, 50, 50, 2);
    assert_int_equal(s.top, 43); /* line 50 with two lines below it */
    tui_scroll_show(&s, 20, 20, 2);
    assert_int_equal(s.top, 18); /* line 20 with two lines above it */
}

/* A following view (the REPL transcript) keeps showing the end while output arrives, and stops
 * following when the user scrolls up, until they go back to the end. */
static void test_follow(void **state)
{
    struct tui_scroll s = {.follow = true};
    tui_scroll_resize(&s, 0, 5);
    tui_scroll_end(&s);
    for (int n = 1; n <= 20; n++) {
        tui_scroll_resize(&s, n, 5);
        assert_int_equal(s.top, n > 5 ? n - 5 : 0);
        assert_false(tui_scroll_below(&s));
    }
    press(&s, TUI_KEY_FN(KEY_UP));
    assert_int_equal(s.top, 14);
    tui_scroll_resize(&s, 30, 5);
    assert_int_equal(s.top, 14); /* reading back: output does not move the view */
    assert_true(tui_scroll_below(&s));
    press(&s, 'G');
    tui_scroll_resize(&s, 31, 5);
    assert_int_equal(s.top, 26); /* following again */
    tui_scroll_resize(&s, 31, 8); /* a taller view still ends on the last line */
    assert_int_equal(s.top, 23);
}

static void test_not_a_scroll_key(void **state)
{
    struct tui_scroll s = {0};
    tui_scroll_resize(&s, 100, 10);
    static const int other[] = {'q', 'x', ' ', TUI_KEY_ENTER, TUI_KEY_ESC, TUI_KEY_CLICK,
                                TUI_KEY_FN(KEY_LEFT)};
    for (size_t i = 0; i < sizeof other / sizeof *other; i++) {
        struct tui_key k = {.code = other[i]};
        assert_false(tui_scroll_key(&s, &k));
        assert_int_equal(s.top, 0);
    }
}

/* ---- the marks, on a real curses screen written to /dev/null ------------------------------- */

static SCREEN *scr;
static FILE *fout, *fin;

static int open_screen(void **state)
{
    fout = fopen("/dev/null", "w");
    fin = fopen("/dev/null", "r");
    if (!fout || !fin) return -1;
    scr = newterm("vt100", fout, fin);
    return scr ? 0 : -1;
}

static int close_screen(void **state)
{
    if (scr) endwin(), delscreen(scr);
    if (fout) fclose(fout);
    if (fin) fclose(fin);
    return 0;
}

static char at(int y, int x) { return (char)(mvinch(y, x) & A_CHARTEXT); }

/* The marks sit in column x of the first and last rows of the view; the rows of a view with
 * nothing hidden stay blank. */
static void test_marks(void **state)
{
    for (int total = 0; total <= 12; total++)
        for (int h = 1; h <= 8; h++)
            for (int top = 0; top <= 12; top++) {
                struct tui_scroll s = {.top = top};
                tui_scroll_resize(&s, total, h);
                erase();
                tui_scroll_marks(&s, 2, 5, h, true);
                bool above = s.top > 0, below = s.top + h < total;
                for (int y = 0; y < 2 + h + 1; y++)
                    for (int x = 4; x <= 6; x++) {
                        char want = ' ';
                        if (x == 5 && y == 2 + h - 1 && below) want = 'v';
                        else if (x == 5 && y == 2 && above) want = '^';
                        assert_int_equal(at(y, x), want);
                    }
            }
}

int main(void)
{
    setlocale(LC_CTYPE, "C");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_clamp_every_size),
        cmocka_unit_test(test_page),
        cmocka_unit_test(test_far_moves_do_not_overflow),
        cmocka_unit_test(test_show),
        cmocka_unit_test(test_follow),
        cmocka_unit_test(test_not_a_scroll_key),
        cmocka_unit_test_setup_teardown(test_marks, open_screen, close_screen),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
