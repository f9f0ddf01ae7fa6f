/* test_tui_layout.c - the pure layout function for every size from 1x1 to 300x100: everything
 * inside the screen, nothing overlapping on one screen, the lesson screen fully covered, stacked
 * below TUI_SIDE_COLS, "too small" below the minimum. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "tui_layout.h"

static bool inside(const struct tui_rect *r, int rows, int cols)
{
    if (r->h == 0 && r->w == 0) return true;
    return r->h > 0 && r->w > 0 && r->y >= 0 && r->x >= 0 && r->y + r->h <= rows &&
           r->x + r->w <= cols;
}

static bool overlap(const struct tui_rect *a, const struct tui_rect *b)
{
    if (!a->h || !a->w || !b->h || !b->w) return false;
    return a->x < b->x + b->w && b->x < a->x + a->w && a->y < b->y + b->h && b->y < a->y + a->h;
}

static int area(const struct tui_rect *r) { return r->h * r->w; }

static void check_disjoint(const struct tui_rect *const *v, int n, int rows, int cols)
{
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++)
            if (overlap(v[i], v[j]))
                fail_msg("%dx%d: rects %d and %d overlap", cols, rows, i, j);
}

static void test_every_size(void **state)
{
    (void)state;
    for (int rows = 1; rows <= 100; rows++) {
        for (int cols = 1; cols <= 300; cols++) {
            struct tui_layout l;
            tui_layout_compute(rows, cols, &l);
            assert_int_equal(l.rows, rows);
            assert_int_equal(l.cols, cols);
            const struct tui_rect *all[] = {&l.title, &l.menu, &l.text, &l.divider,
                                            &l.panel, &l.status, &l.help, &l.small};
            for (size_t i = 0; i < sizeof all / sizeof *all; i++)
                if (!inside(all[i], rows, cols))
                    fail_msg("%dx%d: rect %zu outside the screen", cols, rows, i);
            if (rows < TUI_MIN_ROWS || cols < TUI_MIN_COLS) {
                assert_int_equal(l.mode, TUI_TOO_SMALL);
                assert_int_equal(area(&l.small), rows * cols);
                assert_int_equal(area(&l.text) + area(&l.panel) + area(&l.menu), 0);
                continue;
            }
            assert_int_not_equal(l.mode, TUI_TOO_SMALL);
            assert_int_equal(l.mode, cols < TUI_SIDE_COLS ? TUI_STACKED : TUI_SIDE);
            const struct tui_rect *lesson[] = {&l.title, &l.text, &l.divider, &l.panel, &l.status};
            check_disjoint(lesson, 5, rows, cols);
            const struct tui_rect *menu[] = {&l.title, &l.menu, &l.status};
            check_disjoint(menu, 3, rows, cols);
            /* every cell of either screen belongs to one of its rects: nothing left unpainted */
            int sum = 0;
            for (int i = 0; i < 5; i++) sum += area(lesson[i]);
            assert_int_equal(sum, rows * cols);
            assert_int_equal(area(&l.title) + area(&l.menu) + area(&l.status), rows * cols);
            /* usable panes */
            assert_true(l.text.h >= 3 && l.text.w >= 20);
            assert_true(l.panel.h >= 3 && l.panel.w >= 20);
            assert_true(l.help.h >= 8 && l.help.w >= 30);
            if (l.mode == TUI_SIDE) {
                assert_int_equal(l.text.h, l.panel.h);
                assert_true(l.panel.x > l.text.x);
            } else {
                assert_int_equal(l.text.w, cols);
                assert_true(l.panel.y > l.text.y);
            }
        }
    }
}

static void test_contains(void **state)
{
    (void)state;
    struct tui_rect r = {2, 3, 4, 5};
    assert_true(tui_rect_contains(&r, 2, 3));
    assert_true(tui_rect_contains(&r, 5, 7));
    assert_false(tui_rect_contains(&r, 6, 7));
    assert_false(tui_rect_contains(&r, 5, 8));
    struct tui_rect z = {0, 0, 0, 0};
    assert_false(tui_rect_contains(&z, 0, 0));
}

static void test_negative(void **state)
{
    (void)state;
    struct tui_layout l;
    tui_layout_compute(-5, -7, &l);
    assert_int_equal(l.mode, TUI_TOO_SMALL);
    assert_int_equal(area(&l.small), 0);
    tui_layout_compute(0, 0, &l);
    assert_int_equal(l.mode, TUI_TOO_SMALL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_size),
        cmocka_unit_test(test_contains),
        cmocka_unit_test(test_negative),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
