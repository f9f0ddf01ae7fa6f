/* test_gpu_fmt.c - numbers read like a person wrote them: no exponents, no ".0" on whole values,
 * commas in large counts, byte units scaled to the value, short axis ticks; and the string
 * builder the text reports write through (gpu_buf: cut at a fixed buffer's end, counting what
 * the whole text needs, or grown on the heap). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "gpu_buf.h"
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

static const char *bytes(double v, unsigned flags)
{
    static char b[64];
    gpu_fmt_bytes(v, flags, b, sizeof b);
    return b;
}

/* A limit stated exactly: the largest binary unit that divides it, whole */
static void test_bytes_exact(void **state)
{
    (void)state;
    char b[48];
    struct { uint64_t v; const char *s; } c[] = {
        {0, "0 B"}, {1000, "1000 B"}, {1536, "1536 B"}, {1024, "1 KiB"}, {2 << 20, "2 MiB"},
        {3ull << 30, "3 GiB"}, {4ull << 40, "4 TiB"}, {1ull << 60, "1024 PiB"},
        {(1ull << 30) + 1024, "1048577 KiB"}, {UINT64_MAX, "18446744073709551615 B"}};
    for (size_t i = 0; i < sizeof c / sizeof *c; i++) {
        gpu_fmt_bytes_exact(c[i].v, b, sizeof b);
        assert_string_equal(b, c[i].s);
    }
}

/* The one byte formatter (units.bytes/si/rate in Lua are this): the number as gpu_fmt_num
 * writes it, whole bytes whole, a rounding that reaches the next unit says the next unit. */
static void test_bytes(void **state)
{
    (void)state;
    assert_string_equal(bytes(0, GPU_FMT_BIN), "0 B");
    assert_string_equal(bytes(512, GPU_FMT_BIN), "512 B");
    assert_string_equal(bytes(1023, GPU_FMT_BIN), "1023 B");
    assert_string_equal(bytes(1024, GPU_FMT_BIN), "1 KiB");
    assert_string_equal(bytes(1.5 * 1073741824, GPU_FMT_BIN), "1.50 GiB");
    assert_string_equal(bytes(14.75 * 1073741824, GPU_FMT_BIN), "14.75 GiB");
    assert_string_equal(bytes(16.0 * 1073741824, GPU_FMT_BIN), "16 GiB");
    assert_string_equal(bytes(512.0 * 1048576, GPU_FMT_BIN), "512 MiB");
    assert_string_equal(bytes(300.25 * 1048576, GPU_FMT_BIN), "300.2 MiB");
    assert_string_equal(bytes(1023.999 * 1024, GPU_FMT_BIN), "1 MiB"); /* not "1024 KiB" */
    assert_string_equal(bytes(-3.0 * 1048576, GPU_FMT_BIN), "-3 MiB");
    assert_string_equal(bytes(17179869184.0, GPU_FMT_DEC), "17.18 GB");
    assert_string_equal(bytes(936e9, GPU_FMT_DEC | GPU_FMT_RATE), "936 GB/s");
    assert_string_equal(bytes(12.5e9, GPU_FMT_DEC | GPU_FMT_RATE), "12.50 GB/s");
    assert_string_equal(bytes(3e18, GPU_FMT_DEC), "3000 PB"); /* past the last unit: stays */
    assert_string_equal(bytes(1073741824.0, GPU_FMT_BIN | GPU_FMT_DIGITS(2)), "1.00 GiB");
    assert_string_equal(bytes(16.0 * 1073741824, GPU_FMT_BIN | GPU_FMT_DIGITS(1)), "16.0 GiB");
    assert_string_equal(bytes(16.4 * 1073741824, GPU_FMT_BIN | GPU_FMT_DIGITS(0)), "16 GiB");
    assert_string_equal(bytes(4096, GPU_FMT_TICK), "4K");
    assert_string_equal(bytes(1.5 * 1048576, GPU_FMT_TICK), "1.5M");
    assert_string_equal(bytes(256.0 * 1048576, GPU_FMT_TICK), "256M");
    assert_string_equal(bytes(1073741824.0, GPU_FMT_TICK), "1G");
    assert_string_equal(bytes(NAN, GPU_FMT_BIN), "n/a");
    assert_string_equal(bytes(INFINITY, GPU_FMT_DEC | GPU_FMT_RATE), "n/a");
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

static void test_buf(void **state)
{
    (void)state;
    char small[8];
    struct gpu_buf f = GPU_BUF_FIXED(small, sizeof small);
    assert_true(gpu_buf_add(&f, "abc", 3));
    assert_true(gpu_buf_printf(&f, "%d", 42));
    assert_string_equal(small, "abc42");
    assert_false(gpu_buf_printf(&f, "%s", "xyz")); /* one byte short: cut, still terminated */
    assert_string_equal(small, "abc42xy");
    assert_false(gpu_buf_add(&f, "more", 4));
    assert_string_equal(small, "abc42xy");
    assert_int_equal(f.len, 12); /* what the whole text needs, as snprintf counts */
    assert_int_equal(gpu_buf_used(&f), 7);
    struct gpu_buf none = GPU_BUF_FIXED(NULL, 0); /* a size query only */
    gpu_buf_printf(&none, "%s", "twelve bytes");
    assert_int_equal(none.len, 12);

    struct gpu_buf g = GPU_BUF_GROW;
    for (int i = 0; i < 1000; i++) assert_true(gpu_buf_printf(&g, "%03d,", i));
    assert_true(gpu_buf_add(&g, "end", 3));
    assert_int_equal(g.len, 4003);
    assert_int_equal(strlen(g.p), 4003);
    assert_memory_equal(g.p, "000,001,", 8);
    assert_string_equal(g.p + 3996, "999,end");
    assert_false(g.oom);
    free(g.p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_num), cmocka_unit_test(test_qty),
                                       cmocka_unit_test(test_bytes), cmocka_unit_test(test_bytes_exact),
                                       cmocka_unit_test(test_tick), cmocka_unit_test(test_buf)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
