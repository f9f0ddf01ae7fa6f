/* test_tui_grid.c - the frame grid keeps wide glyphs whole: a write over either half of a CJK
 * glyph blanks the other half, a glyph never crosses the right edge, and a row reads back with
 * every column where it was put (the help box's border over a Chinese line stays in its column).
 * Display widths are given by the caller here, so no locale is needed. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "tui_grid.h"

/* "测试测试" (four wide glyphs, eight columns) on row 0 */
static void line(struct tui_grid *g)
{
    static const uint32_t cjk[] = {0x6d4b, 0x8bd5, 0x6d4b, 0x8bd5};
    for (int i = 0; i < 4; i++) assert_int_equal(tui_grid_put(g, 0, 2 * i, cjk[i], 2, 7), 2);
}

static void test_half_overwrites(void **state)
{
    (void)state;
    struct tui_grid g = {0};
    char out[64];
    assert_true(tui_grid_reset(&g, 2, 10));
    line(&g);
    tui_grid_row_text(&g, 0, out, sizeof out);
    assert_string_equal(out, "测试测试  ");
    /* a border on the right half of 试 (columns 2-3): 试 goes, column 2 is a space */
    tui_grid_put(&g, 0, 3, '|', 1, 1);
    tui_grid_row_text(&g, 0, out, sizeof out);
    assert_string_equal(out, "测 |测试  ");
    assert_int_equal(g.c[2].attr, 7); /* the blanked half keeps the look it had */
    /* a border on the left half of 测 (columns 4-5): column 5 becomes a space */
    tui_grid_put(&g, 0, 4, '|', 1, 1);
    tui_grid_row_text(&g, 0, out, sizeof out);
    assert_string_equal(out, "测 || 试  ");
    /* a wide glyph over two halves of two others: both neighbours go */
    line(&g);
    tui_grid_put(&g, 0, 3, 0x4e2d, 2, 2);
    tui_grid_row_text(&g, 0, out, sizeof out);
    assert_string_equal(out, "测 中 试  ");
    tui_grid_free(&g);
}

static void test_fill_and_edges(void **state)
{
    (void)state;
    struct tui_grid g = {0};
    char out[64];
    assert_true(tui_grid_reset(&g, 2, 10));
    line(&g);
    tui_grid_fill(&g, 0, 1, 2, 3); /* the right half of 测 and the left half of 试 */
    tui_grid_row_text(&g, 0, out, sizeof out);
    assert_string_equal(out, "    测试  ");
    /* a wide glyph at the last column does not fit; nothing outside the grid is written */
    assert_int_equal(tui_grid_put(&g, 1, 9, 0x4e2d, 2, 0), 0);
    assert_int_equal(tui_grid_put(&g, 1, 8, 0x4e2d, 2, 0), 2);
    assert_int_equal(tui_grid_put(&g, 2, 0, 'x', 1, 0), 0);
    assert_int_equal(tui_grid_put(&g, -1, 0, 'x', 1, 0), 0);
    tui_grid_fill(&g, 1, -3, 100, 0);
    tui_grid_row_text(&g, 1, out, sizeof out);
    assert_string_equal(out, "          ");
    /* every row after a reset is blank, at the new size */
    assert_true(tui_grid_reset(&g, 3, 4));
    for (int y = 0; y < 3; y++) {
        tui_grid_row_text(&g, y, out, sizeof out);
        assert_string_equal(out, "    ");
    }
    tui_grid_free(&g);
    assert_null(g.c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_half_overwrites),
        cmocka_unit_test(test_fill_and_edges),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
