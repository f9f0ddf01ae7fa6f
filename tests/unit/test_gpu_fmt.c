/* test_gpu_fmt.c - numbers read like a person wrote them: no exponents, no ".0" on whole values,
 * commas in large counts, byte units scaled to the value, short axis ticks. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "gpu_fmt.h"

static const char *num(double v)
{
    static char b[64];
    gpu_fmt_num(v, b, sizeof b);
    return b;
}

static const char *qty(double v, const char *u)
{
    static char b[64];
    gpu_fmt_qty(v, u, b, sizeof b);
    return b;
}

static const char *tick(double v)
{
    static char b[64];
    gpu_fmt_tick(v, b, sizeof b);
    return b;
}

static void test_num(void **state)
{
    (void)state;
    assert_string_equal(num(16384), "16,384");
    assert_string_equal(num(1234567), "1,234,567");
    assert_string_equal(num(-48000), "-48,000");
    assert_string_equal(num(4800), "4800");
    assert_string_equal(num(400), "400");
    assert_string_equal(num(1), "1");
    assert_string_equal(num(0), "0");
    assert_string_equal(num(18), "18");
    assert_string_equal(num(936.24), "936.2");
    assert_string_equal(num(7.26993), "7.27");
    assert_string_equal(num(0.5), "0.500");
    assert_string_equal(num(0.00123), "0.00123");
    assert_string_equal(num(1048576.4), "1,048,576");
    assert_string_equal(num(3e-12), "3.00e-12");
    assert_string_equal(num(NAN), "n/a");
    assert_string_equal(num(INFINITY), "n/a");
}

static void test_qty(void **state)
{
    (void)state;
    assert_string_equal(qty(7.80e-04, "GB"), "780 KB");
    assert_string_equal(qty(0.5, "GB/s"), "500 MB/s");
    assert_string_equal(qty(2330, "MB"), "2330 MB"); /* the lesson's unit stays */
    assert_string_equal(qty(2.5e6, "GB"), "2500 TB");
    assert_string_equal(qty(936.24, "GB/s"), "936.2 GB/s");
    assert_string_equal(qty(16384, "B"), "16,384 B");
    assert_string_equal(qty(0.25, "GiB"), "256 MiB");
    assert_string_equal(qty(3e9, "B/s"), "3000 MB/s");
    assert_string_equal(qty(400, "calls"), "400 calls");
    assert_string_equal(qty(1, "calls"), "1 calls");
    assert_string_equal(qty(0, "MiB"), "0 MiB");
    assert_string_equal(qty(12.5, ""), "12.50");
    assert_string_equal(qty(12.5, NULL), "12.50");
    assert_string_equal(qty(0.4, "B"), "0.400 B"); /* nothing below B to move to */
}

static void test_tick(void **state)
{
    (void)state;
    assert_string_equal(tick(10000), "10K");
    assert_string_equal(tick(100000), "100K");
    assert_string_equal(tick(1000000), "1M");
    assert_string_equal(tick(1e7), "10M");
    assert_string_equal(tick(2.5e6), "2.5M");
    assert_string_equal(tick(1.07e9), "1.1G");
    assert_string_equal(tick(950), "950");
    assert_string_equal(tick(0.5), "0.500");
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_num), cmocka_unit_test(test_qty),
                                       cmocka_unit_test(test_tick)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
