/* test_tui_progress.c - saved progress: round trip, corrupt and future-version files kept aside,
 * and crash safety: a child saving in a loop is SIGKILLed at random moments and the file is
 * always readable, holding one of the versions it wrote. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "tui_progress.h"

static char dir[64];

static int mkdir_tmp(void **s)
{
    strcpy(dir, "/tmp/vramlab-progress-XXXXXX");
    assert_non_null(mkdtemp(dir));
    return 0;
}

static int rm_tmp(void **s)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    return system(cmd);
}

static int count_files(const char *prefix)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    int n = 0;
    while (d && (e = readdir(d))) n += !strncmp(e->d_name, prefix, strlen(prefix));
    if (d) closedir(d);
    return n;
}

static void write_raw(const char *text)
{
    char path[128];
    snprintf(path, sizeof path, "%s/progress", dir);
    FILE *f = fopen(path, "w");
    fputs(text, f);
    fclose(f);
}

static void test_round_trip(void **s)
{
    char note[256], err[256];
    struct tui_progress *p = tui_progress_load(dir, note, sizeof note);
    assert_string_equal(note, "");
    assert_false(tui_progress_visited(p, "1.3"));
    tui_progress_visit(p, "1.3");
    tui_progress_attempt(p, "1.3", "ratio", false, "10");
    tui_progress_attempt(p, "1.3", "ratio", true, "37.4 with\nnewline");
    tui_progress_attempt(p, "1.3", "path", false, "1");
    tui_progress_visit(p, "bad id with spaces"); /* ignored, never written */
    assert_true(tui_progress_save(p, err, sizeof err));
    tui_progress_free(p);
    p = tui_progress_load(dir, note, sizeof note);
    assert_string_equal(note, "");
    assert_true(tui_progress_visited(p, "1.3"));
    assert_int_equal(tui_progress_solved(p, "1.3"), 1);
    assert_int_equal(tui_progress_attempted(p, "1.3"), 2);
    assert_true(tui_progress_exercise_solved(p, "1.3", "ratio"));
    assert_false(tui_progress_exercise_solved(p, "1.3", "path"));
    assert_int_equal(tui_progress_reset(p, "1.3"), 3);
    assert_false(tui_progress_visited(p, "1.3"));
    tui_progress_free(p);
}

/* The last answer is one line: line breaks and tabs written as \n and \t, a long answer cut at
 * a character boundary with "…", and the file reads back. */
static void test_answer_one_line(void **s)
{
    char note[256], err[256], big[400] = "";
    struct tui_progress *p = tui_progress_load(dir, note, sizeof note);
    tui_progress_attempt(p, "1.2", "code", false, "function f(x)\n\treturn x\r\nend");
    for (int i = 0; i < 60; i++) strcat(big, "显"); /* 180 bytes: past what is kept */
    tui_progress_attempt(p, "1.2", "long", false, big);
    assert_true(tui_progress_save(p, err, sizeof err));
    tui_progress_free(p);
    p = tui_progress_load(dir, note, sizeof note);
    assert_string_equal(note, "");
    struct tui_progress_rec r;
    assert_true(tui_progress_get(p, 0, &r));
    assert_string_equal(r.answer, "function f(x)\\n\\treturn x\\r\\nend");
    assert_true(tui_progress_get(p, 1, &r));
    size_t n = strlen(r.answer);
    assert_true(n < 96 && n % 3 == 0);          /* whole characters, then the mark */
    assert_string_equal(r.answer + n - 3, "…");
    assert_int_equal(strncmp(r.answer, big, n - 3), 0);
    tui_progress_free(p);
}

static void test_corrupt_kept_aside(void **s)
{
    char note[256];
    write_raw("vramlab-progress 1\nvisit 1.3 12\nex 1.3 q notanumber 0 0\n");
    struct tui_progress *p = tui_progress_load(dir, note, sizeof note);
    assert_non_null(strstr(note, "damaged at line 3"));
    assert_false(tui_progress_visited(p, "1.3")); /* a damaged file is not half-trusted */
    assert_int_equal(count_files("progress.corrupt-"), 1);
    tui_progress_free(p);
    write_raw("vramlab-progress 7\nwhatever a newer vramlab writes\n");
    p = tui_progress_load(dir, note, sizeof note);
    assert_non_null(strstr(note, "newer vramlab"));
    assert_int_equal(count_files("progress.v7"), 1);
    tui_progress_free(p);
    write_raw("\x7f" "ELF binary junk");
    p = tui_progress_load(dir, note, sizeof note);
    assert_non_null(strstr(note, "damaged"));
    tui_progress_free(p);
}

static void test_sigkill_during_saves(void **s)
{
    char note[256];
    srand((unsigned)time(NULL));
    for (int round = 0; round < 40; round++) {
        pid_t pid = fork();
        assert_true(pid >= 0);
        if (pid == 0) {
            char err[256];
            struct tui_progress *p = tui_progress_load(dir, err, sizeof err);
            for (int i = 0;; i++) {
                char ex[16];
                snprintf(ex, sizeof ex, "e%d", i % 50);
                tui_progress_attempt(p, "1.3", ex, i % 3 == 0, "42");
                tui_progress_save(p, err, sizeof err);
            }
        }
        usleep((useconds_t)(rand() % 20000));
        kill(pid, SIGKILL);
        waitpid(pid, NULL, 0);
        struct tui_progress *p = tui_progress_load(dir, note, sizeof note);
        assert_non_null(p);
        if (note[0]) fail_msg("round %d: %s", round, note);
        tui_progress_free(p);
    }
    assert_int_equal(count_files("progress.corrupt"), 0);
}

static void test_save_failure_keeps_old(void **s)
{
    char note[256], err[256];
    struct tui_progress *p = tui_progress_load(dir, note, sizeof note);
    tui_progress_visit(p, "2.1");
    assert_true(tui_progress_save(p, err, sizeof err));
    tui_progress_free(p);
    if (geteuid() == 0) return; /* root writes anywhere: the permission case cannot be staged */
    char cmd[128];
    snprintf(cmd, sizeof cmd, "chmod 500 '%s'", dir);
    assert_int_equal(system(cmd), 0);
    p = tui_progress_load(dir, note, sizeof note);
    tui_progress_visit(p, "2.2");
    assert_false(tui_progress_save(p, err, sizeof err));
    tui_progress_free(p);
    snprintf(cmd, sizeof cmd, "chmod 700 '%s'", dir);
    assert_int_equal(system(cmd), 0);
    p = tui_progress_load(dir, note, sizeof note);
    assert_true(tui_progress_visited(p, "2.1"));
    tui_progress_free(p);
}

/* A full disk, simulated: the file-size limit makes every write past 16 bytes fail (EFBIG, as
 * ENOSPC would). The save reports it and the previous file stays whole. */
static void test_disk_full(void **s)
{
    char note[256], err[256];
    struct tui_progress *p = tui_progress_load(dir, note, sizeof note);
    tui_progress_visit(p, "1.1");
    assert_true(tui_progress_save(p, err, sizeof err));
    tui_progress_free(p);
    pid_t pid = fork();
    if (pid == 0) {
        signal(SIGXFSZ, SIG_IGN);
        struct rlimit rl = {16, 16};
        setrlimit(RLIMIT_FSIZE, &rl);
        struct tui_progress *q = tui_progress_load(dir, note, sizeof note);
        for (int i = 0; i < 100; i++) tui_progress_attempt(q, "1.1", "big", false, "0123456789");
        _exit(tui_progress_save(q, err, sizeof err) ? 1 : 0);
    }
    int status;
    waitpid(pid, &status, 0);
    assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0); /* the save said it failed */
    p = tui_progress_load(dir, note, sizeof note);
    assert_string_equal(note, "");
    assert_true(tui_progress_visited(p, "1.1"));
    assert_int_equal(tui_progress_attempted(p, "1.1"), 0);
    tui_progress_free(p);
    assert_int_equal(count_files(".progress-"), 0); /* no temp file left behind */
}

/* Numbers in a progress file are read strictly: a time past year 9999 (localtime fails there),
 * negative, with trailing text, or a count that overflows makes the file damaged, set aside like
 * any other; the largest accepted time prints. */
static void test_unreasonable_numbers(void **s)
{
    static const char *const bad[] = {
        "visit 1.1 9223372036854775807\n", "visit 1.1 253402300800\n", "visit 1.1 -1\n",
        "visit 1.1 12abc\n", "visit 1.1 99999999999999999999\n", "visit 1.1 1 extra\n",
        "ex 1.1 q 99999999999 0 12 x\n", "ex 1.1 q 1 2 12 x\n", "ex 1.1 q -1 0 12 x\n",
        "ex 1.1 q 1 0 1e9 x\n", "ex 1.1 q 1 0\n", "visit 1.1  12\n"};
    char note[512], text[256];
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        snprintf(text, sizeof text, "vramlab-progress 1\nvisit 1.2 5\n%s", bad[i]);
        write_raw(text);
        struct tui_progress *p = tui_progress_load(dir, note, sizeof note);
        if (!strstr(note, "damaged at line 3")) fail_msg("'%s' accepted: %s", bad[i], note);
        assert_false(tui_progress_visited(p, "1.2"));
        tui_progress_free(p);
    }
    assert_true(count_files("progress.corrupt-") >= 1); /* one name per second */
    write_raw("vramlab-progress 99999999999999999999\n");
    struct tui_progress *p = tui_progress_load(dir, note, sizeof note);
    assert_non_null(strstr(note, "damaged"));
    tui_progress_free(p);
    write_raw("vramlab-progress 1\nvisit 1.1 253402300799\nex 1.1 q 3 1 0 last answer\n");
    p = tui_progress_load(dir, note, sizeof note);
    assert_string_equal(note, "");
    struct tui_progress_rec r;
    assert_int_equal(tui_progress_count(p), 2);
    assert_true(tui_progress_get(p, 0, &r));
    assert_false(r.is_ex);
    assert_true(r.when == 253402300799l); /* `vramlab progress` prints it (tests/cli/progress.sh) */
    assert_true(tui_progress_get(p, 1, &r));
    assert_true(r.is_ex && r.solved && r.tries == 3);
    assert_string_equal(r.answer, "last answer");
    assert_false(tui_progress_get(p, 2, &r));
    tui_progress_free(p);
}

/* A progress file that is a FIFO or too large is refused at once (no hang), kept aside, and the
 * learner starts afresh with a note saying why. */
static void test_not_a_progress_file(void **s)
{
    char note[512], path[128];
    snprintf(path, sizeof path, "%s/progress", dir);
    assert_int_equal(mkfifo(path, 0600), 0);
    struct tui_progress *p = tui_progress_load(dir, note, sizeof note);
    assert_non_null(strstr(note, "not a regular file (a FIFO)"));
    assert_true(count_files("progress.corrupt-") >= 1);
    tui_progress_free(p);
    FILE *f = fopen(path, "w");
    fputs("vramlab-progress 1\n", f);
    for (int i = 0; i < 300000; i++) fputs("visit 1.1 12\n", f); /* 3.9 MB: a valid size */
    fclose(f);
    p = tui_progress_load(dir, note, sizeof note);
    assert_string_equal(note, "");
    tui_progress_free(p);
    f = fopen(path, "a");
    for (int i = 0; i < 30000; i++) fputs("visit 1.1 12\n", f); /* past 4 MiB */
    fclose(f);
    p = tui_progress_load(dir, note, sizeof note);
    assert_non_null(strstr(note, "too large ("));
    assert_non_null(strstr(note, "the limit is 4 MiB"));
    tui_progress_free(p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_round_trip, mkdir_tmp, rm_tmp),
        cmocka_unit_test_setup_teardown(test_answer_one_line, mkdir_tmp, rm_tmp),
        cmocka_unit_test_setup_teardown(test_corrupt_kept_aside, mkdir_tmp, rm_tmp),
        cmocka_unit_test_setup_teardown(test_sigkill_during_saves, mkdir_tmp, rm_tmp),
        cmocka_unit_test_setup_teardown(test_save_failure_keeps_old, mkdir_tmp, rm_tmp),
        cmocka_unit_test_setup_teardown(test_disk_full, mkdir_tmp, rm_tmp),
        cmocka_unit_test_setup_teardown(test_unreasonable_numbers, mkdir_tmp, rm_tmp),
        cmocka_unit_test_setup_teardown(test_not_a_progress_file, mkdir_tmp, rm_tmp),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
