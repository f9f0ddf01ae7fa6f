/* test_gpu_suggest.c - "did you mean": the distance (swaps count one, case does not count), the
 * threshold by the word's length, ties to the name that shares the word's start, then the first, and no suggestion for a word that is
 * nothing like any name. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "gpu_suggest.h"

static const char *best(const char *word, const char *const *names)
{
    struct gpu_suggest s;
    gpu_suggest_init(&s, word);
    for (; *names; names++) gpu_suggest_add(&s, *names);
    return s.best;
}

static void test_distance(void **state)
{
    (void)state;
    assert_int_equal(gpu_edit_distance("list", "list", 3), 0);
    assert_int_equal(gpu_edit_distance("lsit", "list", 3), 1); /* a swap */
    assert_int_equal(gpu_edit_distance("LIST", "list", 3), 0);
    assert_int_equal(gpu_edit_distance("2.33", "2.3", 3), 1);
    assert_int_equal(gpu_edit_distance("", "abc", 3), 3);
    assert_int_equal(gpu_edit_distance("abcdef", "a", 2), 3); /* beyond max: max + 1 */
}

static void test_suggest(void **state)
{
    (void)state;
    static const char *const cmds[] = {"list", "info", "run", "eval", "check", "grade", "present",
                                       "results", "compare", "snapshot", NULL};
    assert_string_equal(best("lsit", cmds), "list");
    assert_string_equal(best("presnt", cmds), "present");
    assert_string_equal(best("snapshto", cmds), "snapshot");
    assert_string_equal(best("reslts", cmds), "results");
    assert_null(best("xyzzy", cmds));
    assert_null(best("list", cmds)); /* the word itself is no suggestion */
    assert_null(best("ab", cmds));  /* two letters are too short to guess from */
    static const char *const ids[] = {"1.1", "2.3", "2.4", "3.1", "5.2", NULL};
    assert_string_equal(best("2.33", ids), "2.3");
    assert_string_equal(best("3.11", ids), "3.1"); /* 1.1 is as close: 3.1 shares the start */
    assert_string_equal(best("5.3", ids), "5.2");  /* not 2.3 */
    assert_string_equal(best("2.2", ids), "2.3");  /* 2.4 shares as much: the first */
    assert_string_equal(best("23", ids), "2.3");
    assert_null(best("9.9.9", ids));
    static const char *const ex[] = {"frag-order", "empty", "reserved", "expandable", NULL};
    assert_string_equal(best("frag-ordr", ex), "frag-order");
    assert_string_equal(best("reservd", ex), "reserved");
    assert_null(best("kv", ex));
    static const char *const gpus[] = {"a100-80gb", "h100-sxm", "h200", "rtx3090", "t4", NULL};
    assert_string_equal(best("h100", gpus), "h100-sxm"); /* its start, not h200 one letter off */
    assert_string_equal(best("a100", gpus), "a100-80gb");
    assert_string_equal(best("rtx309", gpus), "rtx3090");
    assert_null(best("rtx", gpus)); /* a start of 3 is too short to guess from */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_distance),
        cmocka_unit_test(test_suggest),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
