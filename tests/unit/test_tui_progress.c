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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_round_trip, mkdir_tmp, rm_tmp),
        cmocka_unit_test_setup_teardown(test_corrupt_kept_aside, mkdir_tmp, rm_tmp),
        cmocka_unit_test_setup_teardown(test_sigkill_during_saves, mkdir_tmp, rm_tmp),
        cmocka_unit_test_setup_teardown(test_save_failure_keeps_old, mkdir_tmp, rm_tmp),
        cmocka_unit_test_setup_teardown(test_disk_full, mkdir_tmp, rm_tmp),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
