/* test_lt_say.c - the message table: every row has both languages, the two formats take the
 * same conversions in the same order (one set of arguments serves both), the Chinese has no
 * English sentence left in it and the English no CJK; the rows that follow the device layer's
 * lists say what those lists mean (a warning bit, a refusal key with its numbers) in either
 * language, the English refusals word for word as the device layer's own. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "gpu_utf8.h"
#include "lt_say.h"

/* The conversions of a printf format, as a string of their letters ("%s%%%d" -> "s%d"). */
static void conversions(const char *f, char *out, size_t n)
{
    size_t o = 0;
    for (; *f; f++) {
        if (*f != '%') continue;
        f++;
        while (*f && strchr("-+ #0123456789.*lhzjt", *f)) f++;
        if (*f && o + 1 < n) out[o++] = *f;
        if (!*f) break;
    }
    out[o] = 0;
}

static bool has_cjk(const char *s)
{
    for (size_t i = 0, n = strlen(s); i < n;) {
        unsigned cp;
        i += (size_t)gpu_utf8_decode(s + i, n - i, &cp);
        if (cp >= 0x2e80) return true;
    }
    return false;
}

static void test_rows(void **state)
{
    (void)state;
    for (int id = 0; id < LT_SAY_COUNT; id++) {
        const char *en = lt_say_fmt((enum lt_say_id)id, "en"), *zh = lt_say_fmt((enum lt_say_id)id, "zh");
        char ce[32], cz[32];
        assert_non_null(en);
        assert_non_null(zh);
        assert_true(en[0] && zh[0]);
        conversions(en, ce, sizeof ce);
        conversions(zh, cz, sizeof cz);
        if (strcmp(ce, cz)) fail_msg("row %d: \"%s\" takes %s, \"%s\" takes %s", id, en, ce, zh, cz);
        if (has_cjk(en)) fail_msg("row %d: CJK in the English \"%s\"", id, en);
        assert_true(gpu_utf8_valid(zh, strlen(zh), 0));
    }
    assert_string_equal(lt_say_fmt(LT_SAY_COUNT, "en"), "?");
    assert_ptr_equal(lt_say_fmt(LT_SAY_LEDGER_FREE, NULL), lt_say_fmt(LT_SAY_LEDGER_FREE, "en"));
    assert_ptr_equal(lt_say_fmt(LT_SAY_LEDGER_FREE, "fr"), lt_say_fmt(LT_SAY_LEDGER_FREE, "en"));
}

static void test_say(void **state)
{
    (void)state;
    char b[128];
    assert_string_equal(lt_say(b, sizeof b, "en", LT_SAY_HOST_NOMEM, "12.0 MiB"),
                        "cannot allocate 12.0 MiB of host memory");
    assert_string_equal(lt_say(b, sizeof b, "zh", LT_SAY_HOST_NOMEM, "12.0 MiB"), "无法分配 12.0 MiB 主机内存");
    assert_string_equal(lt_say(b, 8, "en", LT_SAY_HOST_NOMEM, "x"), "cannot "); /* cut, terminated */
    for (unsigned bit = 1; bit <= GPU_WARN_LAST; bit <<= 1) {
        assert_true(strlen(lt_say_warn(bit, "en", b, sizeof b)) > 10);
        assert_true(has_cjk(lt_say_warn(bit, "zh", b, sizeof b)));
        assert_true(gpu_warn_key(bit)[0]);
    }
    assert_string_equal(lt_say_warn(GPU_WARN_SMALL_ARRAY, "en", b, sizeof b), "array smaller than 4x the last-level cache");
    assert_string_equal(lt_say_warn(GPU_WARN_SPREAD, "zh", b, sizeof b), "离散度超过 10%（机器忙？）");
    assert_string_equal(lt_say_warn(3, "en", b, sizeof b), ""); /* two bits are not one warning */
    assert_string_equal(gpu_warn_key(GPU_WARN_SMALL_ARRAY), "small_array");
}

/* A refusal keeps its English from the device layer; in Chinese its numbers come through. */
static void test_why(void **state)
{
    (void)state;
#define X_EN(name, kinds, en) en,
    static const char *const gpu_en[] = {GPU_WHY_LIST(X_EN)};
#undef X_EN
    for (int k = GPU_WHY_ZERO; k < GPU_WHY_COUNT; k++) /* one text, one place it is checked */
        assert_string_equal(lt_say_fmt((enum lt_say_id)(LT_SAY_WHY_ZERO + k - GPU_WHY_ZERO), "en"), gpu_en[k]);
    double arg[4] = {40.0 * 1024, 90, 20.0 * 1024, 0}; /* MiB, percent, MiB */
    char b[256];
    lt_say_why(GPU_WHY_CAP, arg, "the English", "en", b, sizeof b);
    assert_string_equal(b, "the English");
    lt_say_why(GPU_WHY_CAP, arg, "the English", "zh", b, sizeof b);
    assert_string_equal(b, "申请 40 GiB，但实验总共最多只能用空闲显存的 90%（已占用的也算在内；还剩 20 GiB）");
    lt_say_why(GPU_WHY_TEXT, arg, "a driver's words", "zh", b, sizeof b);
    assert_string_equal(b, "a driver's words"); /* no key: nothing to translate */
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_rows), cmocka_unit_test(test_say),
                                       cmocka_unit_test(test_why)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
