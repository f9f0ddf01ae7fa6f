/* test_tui_ticks.c - the ticks an axis gets: steps of 1, 2 or 5 x 10^k, every multiple in the
 * range and no more than asked, no float dust (0.30000000000000004), and odd ranges survived. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "tui_ticks.h"

static void test_steps_are_1_2_5(void **state)
{
    (void)state;
    assert_true(tui_tick_step(10, 10) == 1);
    assert_true(tui_tick_step(10, 5) == 2);
    assert_true(tui_tick_step(10, 2) == 5);
    assert_true(tui_tick_step(10, 1) == 10);
    assert_true(tui_tick_step(2500, 5) == 500);
    assert_true(tui_tick_step(2600, 5) == 1000);
    assert_true(tui_tick_step(0.9, 4) == 0.5);
    assert_true(fabs(tui_tick_step(0.03, 3) - 0.01) < 1e-15);
    assert_true(tui_tick_step(3e12, 3) == 1e12);
    /* nothing to cover: a step of 1, never NaN or 0 */
    assert_true(tui_tick_step(0, 4) == 1);
    assert_true(tui_tick_step(-5, 4) == 1);
    assert_true(tui_tick_step(NAN, 4) == 1);
    assert_true(tui_tick_step(INFINITY, 4) == 1);
    assert_true(tui_tick_step(10, 0) == 10);
    /* every step is 1, 2 or 5 times a power of ten, and covers the span */
    for (double span = 0.0013; span < 1e9; span *= 1.37)
        for (int n = 1; n <= 12; n++) {
            double st = tui_tick_step(span, n), m = st / pow(10, floor(log10(st) + 1e-9));
            assert_true(fabs(m - 1) < 1e-9 || fabs(m - 2) < 1e-9 || fabs(m - 5) < 1e-9);
            assert_true(st * n >= span * (1 - 1e-9));
            /* and is the smallest that does: the next one down would not */
            double down = fabs(m - 1) < 1e-9 ? st / 2 : fabs(m - 2) < 1e-9 ? st / 2 : st * 2 / 5;
            assert_true(down * n < span);
        }
}

static void test_linear_ticks(void **state)
{
    (void)state;
    double t[16], st;
    /* 4.1's step: events 1..2,903 in at most 6 ticks */
    int n = tui_ticks_linear(1, 2903, 6, t, 16, &st);
    assert_true(st == 1000);
    assert_int_equal(n, 2);
    assert_true(t[0] == 1000 && t[1] == 2000);
    n = tui_ticks_linear(0, 2903, 8, t, 16, &st);
    assert_true(st == 500);
    assert_int_equal(n, 6);
    for (int i = 0; i < n; i++) assert_true(t[i] == 500 * i);
    /* float dust snapped: 0, 0.1 .. 0.5 exactly as written */
    n = tui_ticks_linear(0, 0.5, 6, t, 16, &st);
    assert_int_equal(n, 6);
    assert_true(t[3] == 0.3);
    /* negative ranges, reversed bounds, and 0 never "-0" */
    n = tui_ticks_linear(5, -5, 3, t, 16, &st);
    assert_int_equal(n, 3);
    assert_true(t[0] == -5 && t[1] == 0 && !signbit(t[1]) && t[2] == 5);
    /* one value; nothing finite; no room */
    assert_int_equal(tui_ticks_linear(7, 7, 5, t, 16, &st), 1);
    assert_true(t[0] == 7);
    assert_int_equal(tui_ticks_linear(NAN, 7, 5, t, 16, &st), 0);
    assert_int_equal(tui_ticks_linear(0, INFINITY, 5, t, 16, &st), 0);
    assert_int_equal(tui_ticks_linear(0, 10, 5, t, 0, &st), 0);
    /* never more than asked, for any range, and each inside it */
    for (double lo = -3.7; lo < 50; lo += 6.1)
        for (double w = 0.01; w < 1e7; w *= 3.3)
            for (int m = 2; m <= 10; m++) {
                n = tui_ticks_linear(lo, lo + w, m, t, 16, &st);
                assert_true(n <= m);
                /* none only when the range holds no multiple of the step (narrower than it) */
                if (n == 0) assert_true(w < st);
                for (int i = 0; i < n; i++) assert_true(t[i] >= lo - st * 1e-6 && t[i] <= lo + w + st * 1e-6);
            }
}

static void test_axis_top(void **state)
{
    (void)state;
    double st;
    assert_true(tui_ticks_top(2345, 5, &st) == 2500 && st == 500);
    assert_true(tui_ticks_top(419.9, 4, &st) == 600 && st == 200);
    assert_true(tui_ticks_top(419.9, 5, &st) == 500 && st == 100);
    assert_true(tui_ticks_top(400, 4, &st) == 400 && st == 100);
    assert_true(tui_ticks_top(0.87, 2, &st) == 1 && st == 0.5);
    assert_true(tui_ticks_top(0, 4, &st) == 1);
    assert_true(tui_ticks_top(NAN, 4, &st) == 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_steps_are_1_2_5),
        cmocka_unit_test(test_linear_ticks),
        cmocka_unit_test(test_axis_top),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
