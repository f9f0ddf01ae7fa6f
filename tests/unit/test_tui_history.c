/* test_tui_history.c - the REPL history: escaping round trip (multi-line entries, backslashes),
 * persistence across loads, skipping blanks and repeats, the size cap, and the file left by the
 * crash-safe writer (no temp files behind); a list of recent files: an entry once, moved to the
 * newest place when added again, at most its own cap, in a file of its own name. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tui_history.h"

static char dir[64];

static int mkdir_tmp(void **s)
{
    strcpy(dir, "/tmp/vramlab-history-XXXXXX");
    assert_non_null(mkdtemp(dir));
    return 0;
}

static int rm_tmp(void **s)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    return system(cmd);
}

static void test_escape(void **s)
{
    const char *cases[] = {"1+2", "function f(x)\n  return x\nend", "a\\nb", "\\", "x\\\n"};
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char *e = tui_history_escape(cases[i]);
        assert_non_null(e);
        assert_null(strchr(e, '\n'));
        char *u = tui_history_unescape(e);
        assert_string_equal(u, cases[i]);
        free(e), free(u);
    }
}

static void test_persist(void **s)
{
    char err[256];
    struct tui_history *h = tui_history_load(dir);
    assert_int_equal(tui_history_count(h), 0);
    assert_true(tui_history_add(h, "1+2", err, sizeof err));
    assert_true(tui_history_add(h, "1+2", err, sizeof err)); /* a repeat: kept once */
    assert_true(tui_history_add(h, "   \n", err, sizeof err)); /* blank: skipped */
    assert_true(tui_history_add(h, "for i = 1, 3 do\n  print(i)\nend", err, sizeof err));
    assert_int_equal(tui_history_count(h), 2);
    tui_history_free(h);
    h = tui_history_load(dir);
    assert_int_equal(tui_history_count(h), 2);
    assert_string_equal(tui_history_get(h, 0), "1+2");
    assert_string_equal(tui_history_get(h, 1), "for i = 1, 3 do\n  print(i)\nend");
    assert_string_equal(tui_history_get(h, 5), "");
    tui_history_free(h);
    /* the writer leaves no temp file behind */
    DIR *d = opendir(dir);
    struct dirent *e;
    int others = 0;
    while ((e = readdir(d)))
        others += e->d_name[0] == '.' && strcmp(e->d_name, ".") && strcmp(e->d_name, "..") &&
                  strcmp(e->d_name, ".lock"); /* the state folder's lock stays */
    closedir(d);
    assert_int_equal(others, 0);
}

static void test_cap(void **s)
{
    char err[256], entry[32];
    struct tui_history *h = tui_history_load(dir);
    for (int i = 0; i < TUI_HISTORY_MAX + 20; i++) {
        snprintf(entry, sizeof entry, "x = %d", i);
        assert_true(tui_history_add(h, entry, err, sizeof err));
    }
    assert_int_equal(tui_history_count(h), TUI_HISTORY_MAX);
    snprintf(entry, sizeof entry, "x = %d", TUI_HISTORY_MAX + 19);
    assert_string_equal(tui_history_get(h, TUI_HISTORY_MAX - 1), entry);
    tui_history_free(h);
    h = tui_history_load(dir);
    assert_int_equal(tui_history_count(h), TUI_HISTORY_MAX);
    tui_history_free(h);
}

static void test_recent(void **s)
{
    char err[256];
    struct tui_history *h = tui_history_open(dir, "recent-snapshots", 3, true);
    assert_non_null(h);
    const char *add[] = {"/a.pickle", "/b.pickle", "/a.pickle", "/c.pickle", "/d.pickle"};
    for (size_t i = 0; i < sizeof add / sizeof *add; i++) assert_true(tui_history_add(h, add[i], err, sizeof err));
    /* a moved past b (b a), then c, and d pushes the oldest, b, out: a c d */
    assert_int_equal(tui_history_count(h), 3);
    assert_string_equal(tui_history_get(h, 0), "/a.pickle");
    assert_string_equal(tui_history_get(h, 2), "/d.pickle");
    assert_true(tui_history_add(h, "/b.pickle", err, sizeof err));
    tui_history_free(h);
    h = tui_history_open(dir, "recent-snapshots", 3, true); /* read back: c d b */
    assert_int_equal(tui_history_count(h), 3);
    assert_string_equal(tui_history_get(h, 0), "/c.pickle");
    assert_string_equal(tui_history_get(h, 2), "/b.pickle");
    tui_history_free(h);
    h = tui_history_load(dir); /* the REPL's history is another file */
    assert_int_equal(tui_history_count(h), 0);
    tui_history_free(h);
}

static void test_unwritable(void **s)
{
    char err[256];
    struct tui_history *h = tui_history_load("/proc/vramlab-no-such-dir");
    assert_non_null(h);
    assert_false(tui_history_add(h, "1", err, sizeof err));
    assert_true(strlen(err) > 0);
    assert_int_equal(tui_history_count(h), 1); /* kept in memory for this session */
    tui_history_free(h);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_escape),
        cmocka_unit_test_setup_teardown(test_persist, mkdir_tmp, rm_tmp),
        cmocka_unit_test_setup_teardown(test_cap, mkdir_tmp, rm_tmp),
        cmocka_unit_test_setup_teardown(test_recent, mkdir_tmp, rm_tmp),
        cmocka_unit_test(test_unwritable),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
