/* test_tui_json.c - the one JSON writer (tui_json.h): strings of any bytes come back through the
 * reader as valid UTF-8 with nothing a terminal would act on; commas, colons and nesting are
 * right at every depth and a top-level value is one line; numbers are finite, integral ones print
 * as integers and the others read back to the same double; the ASCII mode escapes everything
 * past U+007F as Python's json.dumps does; NUL bytes inside a counted string survive. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tui_json.h"
#include "tui_jsonl.h"
#include "tui_out.h"
#include "safe_filter.h"

/* What the writer wrote, as one string (freed at the next call). */
struct out {
    char *s;
    size_t n;
    FILE *f;
    struct tui_json j;
};

static struct tui_json *begin(struct out *o, bool ascii)
{
    free(o->s);
    o->s = NULL;
    o->f = open_memstream(&o->s, &o->n);
    assert_non_null(o->f);
    if (ascii) tui_json_init_ascii(&o->j, o->f);
    else tui_json_init(&o->j, o->f);
    return &o->j;
}

static const char *finish(struct out *o)
{
    fclose(o->f);
    return o->s;
}


/* Any bytes: the JSON reader takes them back, as UTF-8 with nothing raw that a terminal would
 * act on; text without such characters comes back unchanged. */
static void test_any_bytes(void **state)
{
    struct out o = {0};
    uint64_t seed = 1;
    for (int round = 0; round < 3000; round++) {
        char in[32], err[128];
        size_t n = 1 + round % 24;
        for (size_t i = 0; i < n; i++) {
            seed = seed * 6364136223846793005ull + 1442695040888963407ull;
            in[i] = (char)(round < 256 && i == 0 ? (uint64_t)round : (seed >> 33) & 0xff);
            if (!in[i]) in[i] = 'z';
        }
        in[n] = 0;
        struct tui_json *j = begin(&o, false);
        tui_json_obj(j);
        tui_json_kstr(j, "k", in);
        tui_json_end(j);
        const char *line = finish(&o);
        assert_int_equal(line[strlen(line) - 1], '\n');
        struct tui_jobj ob;
        if (!tui_jsonl_parse(line, &ob, err, sizeof err)) fail_msg("%s: %s", line, err);
        const char *back = tui_jobj_str(&ob, "k", NULL);
        assert_non_null(back);
        assert_string_equal(filter(back, strlen(back)), filter(in, n)); /* same text, shown alike */
        for (const unsigned char *p = (const unsigned char *)line; p[1]; p++)
            assert_true(*p >= 0x20 && *p != 0x7f);
        tui_jobj_free(&ob);
    }
    struct tui_json *j = begin(&o, false);
    tui_json_str(j, "显存 \"q\" \\ \xe2\x80\xae \xc2\x85 \x7f \xff \xe2\x80\xa8");
    assert_string_equal(finish(&o), "\"显存 \\\"q\\\" \\\\ \\u202e \\u0085 \\u007f \\ufffd \\u2028\"\n");
    free(o.s);
}

/* Separators at every depth, keys escaped, null for a NULL string, one line per top value. */
static void test_structure(void **state)
{
    struct out o = {0};
    struct tui_json *j = begin(&o, false);
    tui_json_obj(j);
    tui_json_kstr(j, "a\"b", "x");
    tui_json_key(j, "list");
    tui_json_arr(j);
    tui_json_int(j, 1);
    tui_json_arr(j);
    tui_json_end(j);
    tui_json_obj(j);
    tui_json_knull(j, "n");
    tui_json_kbool(j, "t", true);
    tui_json_end(j);
    tui_json_str(j, NULL);
    tui_json_end(j);
    tui_json_key(j, "empty");
    tui_json_obj(j);
    tui_json_end(j);
    tui_json_kmaybe(j, "unknown", 5, false);
    tui_json_kmaybe(j, "known", 5, true);
    tui_json_end(j);
    tui_json_arr(j);
    tui_json_end(j);
    tui_json_num(j, 7);
    assert_string_equal(finish(&o), "{\"a\\\"b\":\"x\",\"list\":[1,[],{\"n\":null,\"t\":true},null],"
                                    "\"empty\":{},\"unknown\":null,\"known\":5}\n[]\n7\n");
    free(o.s);
}

static const char *num(struct out *o, double v, bool real)
{
    struct tui_json *j = begin(o, false);
    if (real) tui_json_real(j, v);
    else tui_json_num(j, v);
    finish(o);
    char *s = o->s;
    s[strcspn(s, "\n")] = 0;
    return s;
}

/* Integral values as integers, the others the shortest text that reads back exactly; no NaN or
 * infinity ever (JSON has neither). */
static void test_numbers(void **state)
{
    struct out o = {0};
    assert_string_equal(num(&o, 0, false), "0");
    assert_string_equal(num(&o, -0.0, false), "-0");
    assert_string_equal(num(&o, 16106127360.0, false), "16106127360");
    assert_string_equal(num(&o, -42, false), "-42");
    assert_string_equal(num(&o, 0.1, false), "0.1");
    assert_string_equal(num(&o, 2.5e-7, false), "2.5e-07");
    assert_string_equal(num(&o, 1e300, false), "1e+300");
    assert_string_equal(num(&o, NAN, false), "null");
    assert_string_equal(num(&o, INFINITY, false), "null");
    assert_string_equal(num(&o, -INFINITY, false), "null");
    assert_string_equal(num(&o, 0, true), "0.0");
    assert_string_equal(num(&o, 3, true), "3.0");
    assert_string_equal(num(&o, 0.75, true), "0.75");
    assert_string_equal(num(&o, NAN, true), "null");
    uint64_t seed = 7;
    for (int i = 0; i < 20000; i++) { /* random doubles: read back to the same bits */
        seed = seed * 6364136223846793005ull + 1442695040888963407ull;
        double v;
        memcpy(&v, &seed, sizeof v);
        const char *s = num(&o, v, false);
        if (!isfinite(v)) {
            assert_string_equal(s, "null");
            continue;
        }
        double back = strtod(s, NULL);
        assert_memory_equal(&back, &v, sizeof v);
        assert_true(strlen(s) <= 24);
    }
    struct tui_json *j = begin(&o, false);
    tui_json_arr(j);
    tui_json_int(j, INT64_MIN);
    tui_json_uint(j, UINT64_MAX);
    tui_json_end(j);
    assert_string_equal(finish(&o), "[-9223372036854775808,18446744073709551615]\n");
    free(o.s);
}

/* ASCII mode: everything past U+007F a \u escape (a surrogate pair past U+FFFF), a lone
 * surrogate kept as one, NUL in a counted string too. UTF-8 mode keeps text and NULs too. */
static void test_ascii_and_nul(void **state)
{
    struct out o = {0};
    struct tui_json *j = begin(&o, true);
    tui_json_obj(j);
    tui_json_kstr(j, "显", "a\xe6\x98\xbe \xf0\x9f\x98\x80 \xed\xa0\x80 \x1b\x7f\"");
    tui_json_key(j, "n");
    tui_json_strn(j, "a\0b", 3);
    tui_json_end(j);
    assert_string_equal(finish(&o), "{\"\\u663e\":\"a\\u663e \\ud83d\\ude00 \\ud800 \\u001b\\u007f\\\"\","
                                    "\"n\":\"a\\u0000b\"}\n");
    j = begin(&o, false);
    tui_json_arr(j);
    tui_json_strn(j, "a\0\xe6\x98\xbe\0", 6);
    tui_json_strn(j, "\0", 1);
    tui_json_strn(j, "", 0);
    tui_json_strn(j, "cut here", 3);
    tui_json_end(j);
    assert_string_equal(finish(&o), "[\"a\\u0000显\\u0000\",\"\\u0000\",\"\",\"cut\"]\n");
    free(o.s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_any_bytes),
        cmocka_unit_test(test_structure),
        cmocka_unit_test(test_numbers),
        cmocka_unit_test(test_ascii_and_nul),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
