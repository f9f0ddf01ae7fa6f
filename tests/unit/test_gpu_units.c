/* test_gpu_units.c - the one unit grammar (gpu/base/gpu_units.h): every unit the course uses,
 * in the spellings engineers write (bits and bytes apart: Gb/s, Gbit/s, Gbps are bits; GB/s,
 * GByte/s, GBps bytes), numbers as people type them (1,024, full-width digits, 1.5e9, 1.5x10^9,
 * the minus sign), the readings that are asked about instead of guessed (gb/s, 24G, 1,5), exact
 * whole bytes, the English explanations, and gpu_parse_size built on it. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "gpu_parse.h"
#include "gpu_units.h"

static enum gpu_qread rd(const char *s, struct gpu_qty *q) { return gpu_qty_read(s, strlen(s), q); }

/* s reads as value (relative 1e-12) of kind, spelled unit */
static void ok(const char *s, double value, enum gpu_qkind kind, const char *unit)
{
    struct gpu_qty q;
    enum gpu_qread r = rd(s, &q);
    if (r != GPU_QR_OK) fail_msg("'%s': read %d, not OK", s, (int)r);
    if (q.kind != kind) fail_msg("'%s': kind %s, want %s", s, gpu_qkind_name(q.kind), gpu_qkind_name(kind));
    if (!(fabs(q.value - value) <= 1e-12 * fabs(value))) fail_msg("'%s': %.17g, want %.17g", s, q.value, value);
    if (strcmp(q.unit, unit)) fail_msg("'%s': unit '%s', want '%s'", s, q.unit, unit);
}

static void test_sizes(void **state)
{
    (void)state;
    /* bytes, decimal and binary, every prefix the course uses, in the spellings people write */
    ok("512 B", 512, GPU_QK_SIZE, "B");
    ok("4 bytes", 4, GPU_QK_SIZE, "B");
    ok("602.112 KB", 602112, GPU_QK_SIZE, "KB");
    ok("5 kB", 5000, GPU_QK_SIZE, "KB");
    ok("102.2 MB", 102.2e6, GPU_QK_SIZE, "MB");
    ok("70.22 GB", 70.22e9, GPU_QK_SIZE, "GB");
    ok("1 TB", 1e12, GPU_QK_SIZE, "TB");
    ok("2 PB", 2e15, GPU_QK_SIZE, "PB");
    ok("128 KiB", 131072, GPU_QK_SIZE, "KiB");
    ok("536 MiB", 536.0 * (1 << 20), GPU_QK_SIZE, "MiB");
    ok("16GiB", 16.0 * (1 << 30), GPU_QK_SIZE, "GiB");
    ok("4 TiB", 4.0 * (1ull << 40), GPU_QK_SIZE, "TiB");
    ok("1 PiB", (double)(1ull << 50), GPU_QK_SIZE, "PiB");
    ok("16 Gi", 16.0 * (1 << 30), GPU_QK_SIZE, "GiB"); /* as Kubernetes writes it */
    ok("1 GByte", 1e9, GPU_QK_SIZE, "GB");
    ok("3 gigabytes", 3e9, GPU_QK_SIZE, "GB");
    ok("2 gibibytes", 2.0 * (1 << 30), GPU_QK_SIZE, "GiB");
    ok("2 MIB", 2.0 * (1 << 20), GPU_QK_SIZE, "MiB"); /* case that changes nothing */
    ok("8 字节", 8, GPU_QK_SIZE, "B");
    /* bits: a lower-case b, or the word */
    ok("4.156 bit", 4.156 / 8, GPU_QK_SIZE, "b");
    ok("4 bits", 0.5, GPU_QK_SIZE, "b");
    ok("8 Gb", 1e9, GPU_QK_SIZE, "Gb");
    ok("8 Gbit", 1e9, GPU_QK_SIZE, "Gb");
    ok("8 gigabits", 1e9, GPU_QK_SIZE, "Gb");
    ok("8 Mb", 1e6, GPU_QK_SIZE, "Mb");
    ok("8 Kb", 1e3, GPU_QK_SIZE, "kb");
    ok("8 Kib", 1024, GPU_QK_SIZE, "Kib");
    ok("16 比特", 2, GPU_QK_SIZE, "b");
}

static void test_rates(void **state)
{
    (void)state;
    ok("936 GB/s", 936e9, GPU_QK_RATE, "GB/s");
    ok("912.096 GB/s", 912.096e9, GPU_QK_RATE, "GB/s");
    ok("1 GByte/s", 1e9, GPU_QK_RATE, "GB/s");
    ok("100 GBps", 100e9, GPU_QK_RATE, "GB/s");
    ok("4.8 TB/s", 4.8e12, GPU_QK_RATE, "TB/s");
    ok("5 MB/s", 5e6, GPU_QK_RATE, "MB/s");
    ok("5 KB/s", 5e3, GPU_QK_RATE, "KB/s");
    ok("1 GiB/s", (double)(1 << 30), GPU_QK_RATE, "GiB/s");
    ok("12 GB/sec", 12e9, GPU_QK_RATE, "GB/s");
    ok("12 GB / s", 12e9, GPU_QK_RATE, "GB/s");
    ok("12 GB/秒", 12e9, GPU_QK_RATE, "GB/s");
    ok("12 GB每秒", 12e9, GPU_QK_RATE, "GB/s");
    ok("3 gigabytes per second", 3e9, GPU_QK_RATE, "GB/s");
    /* bits per second: 912 Gb/s is 114 GB/s, and 7296.77 Gb/s is 912.1 GB/s */
    ok("912 Gb/s", 114e9, GPU_QK_RATE, "Gb/s");
    ok("7296.768 Gb/s", 912.096e9, GPU_QK_RATE, "Gb/s");
    ok("100 Gbit/s", 12.5e9, GPU_QK_RATE, "Gb/s");
    ok("100 Gbps", 12.5e9, GPU_QK_RATE, "Gb/s");
    ok("100 gbps", 12.5e9, GPU_QK_RATE, "Gb/s"); /* "bps" is bits in any case */
    ok("1 Mbit/s", 125e3, GPU_QK_RATE, "Mb/s");
    ok("1 kbps", 125, GPU_QK_RATE, "kb/s");
    ok("64 bps", 8, GPU_QK_RATE, "b/s");
    ok("64 Bps", 64, GPU_QK_RATE, "B/s");
}

static void test_times_counts(void **state)
{
    (void)state;
    ok("15ns", 15e-9, GPU_QK_TIME, "ns");
    ok("3 us", 3e-6, GPU_QK_TIME, "us");
    ok("3 µs", 3e-6, GPU_QK_TIME, "us");
    ok("3 μs", 3e-6, GPU_QK_TIME, "us");
    ok("2 ms", 2e-3, GPU_QK_TIME, "ms");
    ok("1.5 s", 1.5, GPU_QK_TIME, "s");
    ok("2 min", 120, GPU_QK_TIME, "min");
    ok("6.8 d", 6.8 * 86400, GPU_QK_TIME, "d");
    ok("2 毫秒", 2e-3, GPU_QK_TIME, "ms");
    ok("3 秒", 3, GPU_QK_TIME, "s");
    ok("512", 512, GPU_QK_COUNT, "");
    ok("85 %", 0.85, GPU_QK_COUNT, "%");
    ok("85％", 0.85, GPU_QK_COUNT, "%");
    ok("37.44x", 37.44, GPU_QK_COUNT, "x");
    ok("37.44 ×", 37.44, GPU_QK_COUNT, "x");
    ok("3 times", 3, GPU_QK_COUNT, "x");
    ok("3 倍", 3, GPU_QK_COUNT, "x");
}

static void test_numbers(void **state)
{
    (void)state;
    ok("1,024", 1024, GPU_QK_COUNT, "");
    ok("12,345,678.5", 12345678.5, GPU_QK_COUNT, "");
    ok("1,073,741,824 B", 1073741824.0, GPU_QK_SIZE, "B");
    ok("1\xe2\x80\xaf" "024", 1024, GPU_QK_COUNT, ""); /* U+202F between digits groups them */
    ok("１２", 12, GPU_QK_COUNT, "");
    ok("1 024", 1024, GPU_QK_COUNT, "");                  /* SI's grouping by a space */
    ok("1 073 741 824 B", 1073741824.0, GPU_QK_SIZE, "B");
    ok("24 576 MiB", 24576.0 * (1 << 20), GPU_QK_SIZE, "MiB");
    ok("1.024×10³", 1024, GPU_QK_COUNT, "");              /* superscript powers */
    ok("1.5 × 10⁹ B", 1.5e9, GPU_QK_SIZE, "B");
    ok("2.5×10⁻³ s", 2.5e-3, GPU_QK_TIME, "s");
    ok("２４ ＧＢ", 24e9, GPU_QK_SIZE, "GB");
    ok("３７．４４ｘ", 37.44, GPU_QK_COUNT, "x");
    ok("1.5e9", 1.5e9, GPU_QK_COUNT, "");
    ok("1.5E-3 s", 1.5e-3, GPU_QK_TIME, "s");
    ok("1.5x10^9", 1.5e9, GPU_QK_COUNT, "");
    ok("1.5 × 10^9 B", 1.5e9, GPU_QK_SIZE, "B");
    ok("2*10**3", 2000, GPU_QK_COUNT, "");
    ok(".5", 0.5, GPU_QK_COUNT, "");
    ok("5.", 5, GPU_QK_COUNT, "");
    ok("−3", -3, GPU_QK_COUNT, "");
    ok("+3", 3, GPU_QK_COUNT, "");
    ok("  24 GiB  ", 24.0 * (1 << 30), GPU_QK_SIZE, "GiB");
    struct gpu_qty q;
    static const char *const bad[] = {"", " ", "abc", "GB", "-", ".", "0x10", "inf", "nan", "1e400",
                                      "1..2", "1 02", "1 0245", "1.5 000", "1234 567", NULL};
    for (const char *const *b = bad; *b; b++)
        if (rd(*b, &q) != GPU_QR_BAD && rd(*b, &q) != GPU_QR_WORD) fail_msg("'%s' was read", *b);
    assert_int_equal(gpu_qty_read("12\0GB", 5, &q), GPU_QR_BAD); /* a NUL inside */
    assert_int_equal(rd("12 \xff", &q), GPU_QR_BAD);            /* not UTF-8 */
    char longs[300];
    memset(longs, '1', sizeof longs - 1), longs[sizeof longs - 1] = 0;
    assert_int_equal(rd(longs, &q), GPU_QR_BAD);
    /* a number and a word that is no unit: the caller may know it (an exercise's own unit) */
    assert_int_equal(rd("120 tok/s", &q), GPU_QR_WORD);
    assert_string_equal(q.word, "tok/s");
    assert_true(q.number > 119.9 && q.number < 120.1);
    assert_int_equal(rd("295 FLOP/B", &q), GPU_QR_WORD);
    assert_string_equal(q.word, "FLOP/B");
    assert_int_equal(rd("3 GPUs", &q), GPU_QR_WORD);
    assert_int_equal(rd("2e", &q), GPU_QR_WORD); /* an exponent needs digits */
}

static void amb(const char *s, enum gpu_qamb a, const char *alt0, const char *alt1)
{
    struct gpu_qty q;
    enum gpu_qread r = rd(s, &q);
    if (r != GPU_QR_AMBIGUOUS) fail_msg("'%s': read %d, not AMBIGUOUS", s, (int)r);
    if (q.amb != a) fail_msg("'%s': %s, want %s", s, gpu_qamb_name(q.amb), gpu_qamb_name(a));
    if (strcmp(q.alt[0], alt0) || strcmp(q.alt[1], alt1))
        fail_msg("'%s': '%s' or '%s', want '%s' or '%s'", s, q.alt[0], q.alt[1], alt0, alt1);
}

static void test_ambiguous(void **state)
{
    (void)state;
    /* no capital anywhere: a b may be a byte typed without the shift key */
    amb("912 gb/s", GPU_QA_BITS, "GB/s", "Gb/s");
    amb("24 gb", GPU_QA_BITS, "GB", "Gb");
    amb("5 mb", GPU_QA_BITS, "MB", "Mb");
    amb("5 kb", GPU_QA_BITS, "KB", "kb");
    amb("5 kib", GPU_QA_BITS, "KiB", "Kib");
    amb("16 gib", GPU_QA_BITS, "GiB", "Gib");
    amb("512 b", GPU_QA_BITS, "B", "b");
    /* a bare decimal prefix: powers of 1000 or 1024? */
    amb("24G", GPU_QA_PREFIX, "GB", "GiB");
    amb("4k", GPU_QA_PREFIX, "KB", "KiB");
    amb("3 M/s", GPU_QA_PREFIX, "MB/s", "MiB/s");
    /* a comma that does not group thousands */
    amb("1,5", GPU_QA_COMMA, "1.5", "15");
    amb("0,85", GPU_QA_COMMA, "0.85", "085");
    amb("1,5 GiB", GPU_QA_COMMA, "1.5 GiB", "15 GiB");
    amb("12,34,567", GPU_QA_COMMA, "1234.567", "1234567");
}

static void test_exact(void **state)
{
    (void)state;
    static const struct {
        const char *s;
        uint64_t bytes;
    } ex[] = {{"1.5GiB", 1610612736}, {"1.1KB", 1100}, {"8Gb", 1000000000}, {"1536KiB", 1572864},
              {"1e1GiB", 10737418240ull}, {"0.5 KiB", 512}, {"18446744073709551615", UINT64_MAX},
              {"16 EiB", 0}};
    for (size_t i = 0; i < sizeof ex / sizeof ex[0]; i++) {
        struct gpu_qty q;
        enum gpu_qread r = rd(ex[i].s, &q);
        if (!ex[i].bytes) {
            assert_int_not_equal(r, GPU_QR_OK);
            continue;
        }
        assert_int_equal(r, GPU_QR_OK);
        if (!(q.flags & GPU_QF_EXACT) || q.exact != ex[i].bytes)
            fail_msg("'%s': exact %d %llu", ex[i].s, !!(q.flags & GPU_QF_EXACT), (unsigned long long)q.exact);
    }
    struct gpu_qty q;
    assert_int_equal(rd("1 bit", &q), GPU_QR_OK);
    assert_false(q.flags & GPU_QF_EXACT); /* an eighth of a byte */
    assert_int_equal(rd("0.1 KiB", &q), GPU_QR_OK);
    assert_false(q.flags & GPU_QF_EXACT); /* 102.4 B */
    assert_int_equal(rd("99999999999999999999 GiB", &q), GPU_QR_OK);
    assert_false(q.flags & GPU_QF_EXACT); /* past 2^64 */
}

static const char *explain(const char *s)
{
    static char b[256];
    struct gpu_qty q;
    enum gpu_qread r = rd(s, &q);
    gpu_qty_explain(s, strlen(s), r, &q, b, sizeof b);
    return b;
}

static void test_explain(void **state)
{
    (void)state;
    assert_string_equal(explain("80gb"), "'80gb': bits or bytes? Write 80 GB for gigabytes or 80 Gb "
                                         "for gigabits (B is a byte, b a bit)");
    assert_string_equal(explain("912 gb/s"), "'912 gb/s': bits or bytes? Write 912 GB/s for gigabytes per "
                                             "second or 912 Gb/s for gigabits per second (B is a byte, b a bit)");
    assert_string_equal(explain("24G"), "'24G': decimal or binary? Write 24 GB for gigabytes or 24 GiB "
                                        "for gibibytes");
    assert_string_equal(explain("1,5"), "'1,5': is the comma a decimal point? Write 1.5, or 15 (a comma "
                                        "groups thousands: 1,024)");
    assert_string_equal(explain("3 parsecs"), "unknown unit 'parsecs' in '3 parsecs' (B, KB, MB, GB, TB, "
                                              "KiB, MiB, GiB, TiB; GB/s, GiB/s, Gb/s; ns, us, ms, s; %, x)");
    assert_string_equal(explain("lots"), "cannot read 'lots' as a size, rate or time (try '16GiB', "
                                         "'1.5 GB', '936 GB/s', '2 ms')");
}

static void test_parse_size(void **state)
{
    (void)state;
    uint64_t v;
    char err[256];
    static const struct {
        const char *s;
        uint64_t v;
    } good[] = {{"80GiB", 80ull << 30}, {"80GB", 80000000000ull}, {"1.5GiB", 1610612736},
                {"1,073,741,824", 1073741824}, {"8Gb", 1000000000}, {"2 MiB", 2 << 20}, {"2e6", 2000000}};
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
        if (!gpu_parse_size(good[i].s, 0, UINT64_MAX, &v, err, sizeof err)) fail_msg("'%s': %s", good[i].s, err);
        assert_int_equal(v, good[i].v);
    }
    assert_false(gpu_parse_size("80gb", 0, UINT64_MAX, &v, err, sizeof err));
    assert_string_equal(err, "'80gb': bits or bytes? Write 80 GB for gigabytes or 80 Gb for gigabits (B is a "
                             "byte, b a bit)");
    assert_false(gpu_parse_size("0x10GiB", 0, UINT64_MAX, &v, err, sizeof err));
    assert_string_equal(err, "'0x10GiB' is not a size such as 80GiB or 1.5 GB (a number with B, KB, MB, GB, TB, "
                             "KiB, MiB, GiB or TiB; bits as b, Gb)");
    assert_false(gpu_parse_size("2 ms", 0, UINT64_MAX, &v, err, sizeof err));
    assert_non_null(strstr(err, "is not a size"));
    assert_false(gpu_parse_size("50%", 0, UINT64_MAX, &v, err, sizeof err));
    assert_false(gpu_parse_size("1.3B", 0, UINT64_MAX, &v, err, sizeof err));
    assert_string_equal(err, "'1.3B' is not a whole number of bytes (1.3 B)");
    assert_false(gpu_parse_size("5TiB", 2 << 20, 4ull << 40, &v, err, sizeof err));
    assert_string_equal(err, "5TiB is out of range [2 MiB, 4 TiB]");
    assert_false(gpu_parse_size("-1GiB", 0, UINT64_MAX, &v, err, sizeof err));
    assert_non_null(strstr(err, "out of range"));
    assert_false(gpu_parse_size("1e30GiB", 0, UINT64_MAX, &v, err, sizeof err));
    assert_non_null(strstr(err, "out of range"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sizes),     cmocka_unit_test(test_rates),
        cmocka_unit_test(test_times_counts), cmocka_unit_test(test_numbers),
        cmocka_unit_test(test_ambiguous), cmocka_unit_test(test_exact),
        cmocka_unit_test(test_explain),   cmocka_unit_test(test_parse_size),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
