/* test_gpu_utf8.c - the one UTF-8 codec against a reference: every code point round-trips
 * through encode and the strict and lenient decoders; every malformed class (overlong, cut,
 * stray continuation, past U+10FFFF, surrogates with and without the flag) is refused by the
 * strict decoder and read as one U+FFFD byte by the lenient one; stepping back and cutting land
 * on the boundaries a forward walk finds, on valid and invalid text alike. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "gpu_utf8.h"

static void test_round_trip(void **state)
{
    (void)state;
    char b[8];
    for (unsigned cp = 0; cp <= 0x10ffff; cp++) {
        bool sur = cp >= 0xd800 && cp <= 0xdfff;
        int k = gpu_utf8_encode(cp, 0, b);
        unsigned got;
        assert_int_equal(k, sur ? 3 : cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4);
        assert_int_equal(gpu_utf8_next(b, (size_t)k, &got, 0), k);
        assert_int_equal(got, sur ? 0xfffd : cp); /* a surrogate is not encoded without the flag */
        if (sur) {
            k = gpu_utf8_encode(cp, GPU_UTF8_SURROGATES, b);
            assert_int_equal(k, 3);
            assert_int_equal(gpu_utf8_next(b, 3, &got, 0), 0); /* strict: refused */
            assert_int_equal(gpu_utf8_next(b, 3, &got, GPU_UTF8_SURROGATES), 3);
            assert_int_equal(got, cp);
            assert_false(gpu_utf8_valid(b, 3, 0));
            assert_true(gpu_utf8_valid(b, 3, GPU_UTF8_SURROGATES));
            assert_int_equal(gpu_utf8_decode(b, 3, &got), 1);
            assert_int_equal(got, 0xfffd);
        } else {
            assert_int_equal(gpu_utf8_decode(b, (size_t)k, &got), k);
            assert_int_equal(got, cp);
            assert_true(gpu_utf8_valid(b, (size_t)k, 0));
            /* every proper prefix of a multi-byte sequence is partial, and not valid */
            for (int m = 1; m < k; m++) {
                assert_true(gpu_utf8_partial(b, (size_t)m));
                assert_int_equal(gpu_utf8_next(b, (size_t)m, &got, 0), 0);
            }
            assert_false(gpu_utf8_partial(b, (size_t)k));
        }
    }
    assert_int_equal(gpu_utf8_encode(0x110000, 0, b), 3); /* past the range: U+FFFD */
    assert_memory_equal(b, "\xef\xbf\xbd", 3);
}

static void test_malformed(void **state)
{
    (void)state;
    static const char *const bad[] = {
        "\xc0\xaf", "\xc1\xbf",         /* overlong two-byte leads */
        "\xe0\x80\xaf",                 /* overlong three */
        "\xf0\x80\x80\xaf",             /* overlong four */
        "\xf4\x90\x80\x80",             /* past U+10FFFF */
        "\xf5\x80\x80\x80", "\xff",     /* leads that never start a sequence */
        "\x80", "\xbf",                 /* a stray continuation */
        "\xe4\xb8",                     /* cut */
        "\xe4\x41\x41",                 /* a lead without its continuations */
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        size_t n = strlen(bad[i]);
        unsigned cp = 1;
        assert_int_equal(gpu_utf8_next(bad[i], n, &cp, GPU_UTF8_SURROGATES), 0);
        assert_int_equal(gpu_utf8_decode(bad[i], n, &cp), 1);
        assert_int_equal(cp, 0xfffd);
        assert_false(gpu_utf8_valid(bad[i], n, GPU_UTF8_SURROGATES));
    }
    assert_true(gpu_utf8_partial("\xe4\xb8", 2));
    assert_false(gpu_utf8_partial("\xe4\x41", 2)); /* broken, not waiting for more */
    assert_false(gpu_utf8_partial("a", 1));
    assert_false(gpu_utf8_partial("", 0));
}

/* prev and cut agree with the boundaries a forward walk with gpu_utf8_decode finds */
static void test_boundaries(void **state)
{
    (void)state;
    static const char *const texts[] = {
        "a\xc3\xa9\xe4\xb8\xad\xf0\x9f\x98\x80z",          /* 1, 2, 3, 4 bytes */
        "\x80\xe4\xb8\xe4\xb8\xad\xc3",                      /* stray, cut, whole, cut at the end */
        "\xf0\x9f\x98\x80\x80\x80\xe4\xb8\xad",              /* extra continuations after a whole one */
        "",
    };
    for (size_t t = 0; t < sizeof texts / sizeof *texts; t++) {
        const char *s = texts[t];
        size_t n = strlen(s);
        bool at[64] = {0};
        for (size_t i = 0; i < n;) {
            at[i] = true;
            unsigned cp;
            i += (size_t)gpu_utf8_decode(s + i, n - i, &cp);
        }
        at[n] = true;
        for (size_t i = 1; i <= n; i++) {
            size_t p = gpu_utf8_prev(s, i);
            if (at[i]) { /* the previous boundary, and the walk from it ends at i */
                assert_true(at[p]);
                for (size_t q = p + 1; q < i; q++) assert_false(at[q]);
            }
            size_t c = gpu_utf8_cut(s, i);
            assert_true(c <= i);
            assert_true(at[c] || c == i);
        }
        assert_int_equal(gpu_utf8_prev(s, 0), 0);
    }
    /* cutting a copy: never half a character of valid text */
    const char *zh = "\xe4\xb8\xad\xe6\x96\x87"; /* 中文 */
    assert_int_equal(gpu_utf8_cut(zh, 1), 0);
    assert_int_equal(gpu_utf8_cut(zh, 2), 0);
    assert_int_equal(gpu_utf8_cut(zh, 3), 3);
    assert_int_equal(gpu_utf8_cut(zh, 5), 3);
    assert_int_equal(gpu_utf8_cut(zh, 6), 6);
}

/* wide characters: CJK, kana, hangul and fullwidth forms are; Latin, arrows and the ellipsis are
 * not; lines join without a space only between two wide ones */
static void test_wide(void **state)
{
    (void)state;
    const unsigned wide[] = {0x4e2d, 0x3002, 0xff0c, 0x3042, 0xac00, 0x20000, 0x2e80};
    const unsigned narrow[] = {'a', 0xe9, 0x2192, 0x2026, 0x3b1, 0x2500, 0xfffd};
    for (size_t i = 0; i < sizeof wide / sizeof *wide; i++) assert_true(gpu_utf8_wide(wide[i]));
    for (size_t i = 0; i < sizeof narrow / sizeof *narrow; i++) assert_false(gpu_utf8_wide(narrow[i]));
    assert_true(gpu_utf8_join_tight("显存", 6, "分配", 6));
    assert_false(gpu_utf8_join_tight("显存", 6, "GiB", 3));
    assert_false(gpu_utf8_join_tight("café", 5, "über", 5)); /* non-ASCII, not wide: a space */
    assert_false(gpu_utf8_join_tight("", 0, "分配", 6));
    assert_false(gpu_utf8_join_tight("中", 3, "", 0));
    assert_false(gpu_utf8_join_tight("\xe4\xb8", 2, "\xe5", 1)); /* cut: U+FFFD is not wide */
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_round_trip),
                                       cmocka_unit_test(test_malformed),
                                       cmocka_unit_test(test_boundaries),
                                       cmocka_unit_test(test_wide)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
