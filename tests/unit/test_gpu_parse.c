/* test_gpu_parse.c - the strict readers of numbers and sizes: the whole text must be the number
 * (no blanks, no trailing text, no hex, inf or nan), out of range is an error that states the
 * range (never a clamp), and a refusal leaves the output alone; a NULL or zero-size error buffer
 * is allowed. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "gpu_parse.h"

static void test_u64(void **state)
{
    (void)state;
    uint64_t v = 7;
    char err[128];
    assert_true(gpu_parse_u64("12", 0, 100, &v, err, sizeof err));
    assert_int_equal(v, 12);
    assert_true(gpu_parse_u64("18446744073709551615", 0, UINT64_MAX, &v, err, sizeof err));
    assert_int_equal(v, UINT64_MAX);
    static const char *const bad[] = {"", " 1", "1 ", "+1", "-1", "1.5", "0x10", "1e3", "12a", NULL};
    for (int i = 0; bad[i]; i++) {
        v = 7;
        assert_false(gpu_parse_u64(bad[i], 0, 100, &v, err, sizeof err));
        assert_non_null(strstr(err, "is not a whole number"));
        assert_int_equal(v, 7); /* untouched */
    }
    assert_false(gpu_parse_u64("101", 0, 100, &v, err, sizeof err));
    assert_string_equal(err, "101 is out of range [0, 100]");
    assert_false(gpu_parse_u64("18446744073709551616", 0, UINT64_MAX, &v, err, sizeof err));
    assert_non_null(strstr(err, "out of range")); /* past 2^64: the range, not "not a number" */
    assert_false(gpu_parse_u64(NULL, 0, 100, &v, err, sizeof err));
    assert_false(gpu_parse_u64("x", 0, 100, &v, NULL, 0)); /* no buffer: no message, no crash */
}

static void test_double(void **state)
{
    (void)state;
    double v = 7;
    char err[128];
    assert_true(gpu_parse_double("0.9", 0, 1, &v, err, sizeof err));
    assert_true(v == 0.9);
    assert_true(gpu_parse_double("-2.5e-3", -1, 1, &v, err, sizeof err));
    assert_true(v == -2.5e-3);
    assert_true(gpu_parse_double("1.", 0, 2, &v, err, sizeof err));
    assert_true(gpu_parse_double(".5", 0, 2, &v, err, sizeof err));
    static const char *const bad[] = {"", " 1", "1 ", "0.9abc", "0x10", "inf", "nan", "-inf",
                                      "1e", "1e+", ".", "-", "e5", NULL};
    for (int i = 0; bad[i]; i++) {
        v = 7;
        assert_false(gpu_parse_double(bad[i], -10, 10, &v, err, sizeof err));
        assert_non_null(strstr(err, "is not a number"));
        assert_true(v == 7);
    }
    assert_false(gpu_parse_double("2", 0.01, 1, &v, err, sizeof err));
    assert_string_equal(err, "2 is out of range [0.01, 1]");
    assert_false(gpu_parse_double("1e999", 0, 1e300, &v, err, sizeof err)); /* overflows: refused */
    assert_non_null(strstr(err, "out of range"));
}

static void test_size(void **state)
{
    (void)state;
    uint64_t v = 7;
    char err[160];
    assert_true(gpu_parse_size("80GiB", 1, UINT64_MAX, &v, err, sizeof err));
    assert_int_equal(v, 80ull << 30);
    assert_true(gpu_parse_size("1073741824", 1, UINT64_MAX, &v, err, sizeof err));
    assert_int_equal(v, 1ull << 30);
    assert_true(gpu_parse_size("4KiB", 1, UINT64_MAX, &v, err, sizeof err));
    assert_int_equal(v, 4096);
    static const char *const bad[] = {"", "GiB", "0x10GiB", "-1GiB", "12 apples", "80 gb", NULL};
    for (int i = 0; bad[i]; i++) {
        v = 7;
        assert_false(gpu_parse_size(bad[i], 1, UINT64_MAX, &v, err, sizeof err));
        assert_true(err[0]);
        assert_int_equal(v, 7);
    }
    assert_false(gpu_parse_size("2GiB", 1, 1ull << 30, &v, err, sizeof err));
    assert_string_equal(err, "2GiB is out of range [1 B, 1 GiB]"); /* limits stated exactly */
    assert_false(gpu_parse_size("99999999999999999999TiB", 1, UINT64_MAX, &v, err, sizeof err));
    assert_int_equal(v, 7); /* an overflow is never wrapped around */
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_u64), cmocka_unit_test(test_double),
                                       cmocka_unit_test(test_size)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
