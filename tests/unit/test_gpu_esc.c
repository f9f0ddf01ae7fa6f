/* test_gpu_esc.c - the one escaping function: every control character (C0 with \n \r \t, DEL,
 * C1, the bidi controls) shown as \x / \u text, invalid UTF-8 as U+FFFD, other text as it is; a
 * field that does not fit is cut at a character boundary with "…", never past its buffer; and
 * the check that refuses names holding a control character. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "gpu_esc.h"

static void test_field(void **state)
{
    (void)state;
    char out[128];
    assert_string_equal(gpu_esc_field(out, sizeof out, "plain 显存 text"), "plain 显存 text");
    assert_string_equal(gpu_esc_field(out, sizeof out, "a\nb\rc\td\x1b[2J\x7f"),
                        "a\\x0ab\\x0dc\\x09d\\x1b[2J\\x7f");
    assert_string_equal(gpu_esc_field(out, sizeof out, "\xc2\x85 \xe2\x80\xae \xe2\x81\xa6 \xd8\x9c"),
                        "\\u0085 \\u202e \\u2066 \\u061c");
    assert_string_equal(gpu_esc_field(out, sizeof out, "bad\xff\xc3"), "bad\xef\xbf\xbd\xef\xbf\xbd");
    assert_string_equal(gpu_esc_field(out, sizeof out, NULL), "");
    /* cut to fit: whole characters, then the mark */
    char small[10];
    assert_string_equal(gpu_esc_field(small, sizeof small, "abcdefghijkl"), "abcdef\xe2\x80\xa6");
    assert_string_equal(gpu_esc_field(small, sizeof small, "ab\ncdefgh"), "ab\\x0a\xe2\x80\xa6");
    assert_string_equal(gpu_esc_field(small, sizeof small, "显存显存"), "显存\xe2\x80\xa6");
    assert_string_equal(gpu_esc_field(small, sizeof small, "abcdefghi"), "abcdefghi");
    char one[1];
    assert_string_equal(gpu_esc_field(one, sizeof one, "x"), "");
}

static void test_clean(void **state)
{
    (void)state;
    assert_true(gpu_esc_clean("lessons/ch09/9.1-显存.lua", true));
    assert_false(gpu_esc_clean("a\nb", false));
    assert_false(gpu_esc_clean("tab\there", false));
    assert_false(gpu_esc_clean("rlo\xe2\x80\xae", false));
    assert_true(gpu_esc_clean("latin1-\xe9", false)); /* not UTF-8, but no control */
    assert_false(gpu_esc_clean("latin1-\xe9", true));
    assert_true(gpu_esc_clean("", true));
    /* the edges of the printable ASCII run the check skips in one loop: space and ~ pass, the
     * bytes next to them (0x1f, DEL) and a control after a long run or after a wide character
     * do not */
    assert_true(gpu_esc_clean(" ~", true));
    assert_false(gpu_esc_clean("abc\x1f", false));
    assert_false(gpu_esc_clean("abc\x7f", false));
    char run[4096];
    memset(run, 'x', sizeof run - 1), run[sizeof run - 1] = 0;
    assert_true(gpu_esc_clean(run, true));
    run[sizeof run - 2] = '\r';
    assert_false(gpu_esc_clean(run, false));
    assert_false(gpu_esc_clean("x\xe6\x98\xbe\xe5\xad\x98x\xc2\x85", false)); /* NEL, C1 */
    assert_false(gpu_esc_clean("xx\xe6\x98", true)); /* a cut sequence at the end */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_field),
        cmocka_unit_test(test_clean),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
