/* test_tui_exam.c - an exam's sheet in the state folder (tui_exam.c): started once (a second
 * start keeps the first clock), answers saved as typed and read back whole (line breaks and
 * backslashes escaped), the last answer of a question kept, cleared with "", refused after the
 * submission and past the time limit; four students answering at once in child processes keep
 * every one of each other's answers; a damaged file is kept aside; the results written whole,
 * JSON lines and CSV, a formula-like answer kept text. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "tui_exam.h"

static char dir[64];

static int setup(void **s)
{
    (void)s;
    strcpy(dir, "/tmp/vramlab-exam-XXXXXX");
    assert_non_null(mkdtemp(dir));
    chmod(dir, 0700);
    setenv("XDG_STATE_HOME", dir, 1);
    return 0;
}

static int teardown(void **s)
{
    (void)s;
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    return system(cmd);
}

static char *file_text(const char *rel)
{
    static char buf[1 << 16];
    char path[256];
    snprintf(path, sizeof path, "%s/%s", dir, rel);
    FILE *f = fopen(path, "r");
    if (!f) return NULL;
    size_t k = fread(buf, 1, sizeof buf - 1, f);
    buf[k] = 0;
    fclose(f);
    return buf;
}

static void test_sheet(void **state)
{
    (void)state;
    struct tui_exam_sheet s;
    char note[256], err[1400];
    assert_true(tui_exam_open(&s, "quiz", "alice", note, sizeof note, err, sizeof err));
    assert_int_equal(s.started, 0);
    assert_false(tui_exam_answer(&s, "9.1:q", "4", err, sizeof err)); /* not started */
    assert_non_null(strstr(err, "has not started"));
    assert_true(tui_exam_start(&s, 600, err, sizeof err));
    long started = s.started;
    assert_true(started > 0 && s.seconds == 600);
    assert_true(tui_exam_start(&s, 60, err, sizeof err)); /* the first start holds */
    assert_int_equal(s.started, started);
    assert_int_equal(s.seconds, 600);
    assert_true(tui_exam_answer(&s, "9.1:q", "4", err, sizeof err));
    assert_true(tui_exam_answer(&s, "9.1:q", "5", err, sizeof err));
    assert_true(tui_exam_answer(&s, "9.1:code", "function f(x)\n  return x \\ 2\nend", err, sizeof err));
    tui_exam_close(&s);
    assert_true(tui_exam_open(&s, "quiz", "alice", note, sizeof note, err, sizeof err));
    assert_string_equal(tui_exam_get(&s, "9.1:q"), "5"); /* the last */
    assert_string_equal(tui_exam_get(&s, "9.1:code"), "function f(x)\n  return x \\ 2\nend");
    assert_non_null(strstr(file_text("vramlab/exams"), "ans quiz alice 9.1:code "));
    assert_non_null(strstr(file_text("vramlab/exams"), "function f(x)\\n  return x \\\\ 2\\nend\n"));
    assert_true(tui_exam_answer(&s, "9.1:q", "", err, sizeof err)); /* cleared */
    assert_null(tui_exam_get(&s, "9.1:q"));
    assert_false(tui_exam_answer(&s, "nonsense", "1", err, sizeof err));
    assert_true(tui_exam_left(&s, started + 10) == 590);
    assert_true(tui_exam_submit(&s, err, sizeof err));
    assert_true(s.submitted > 0);
    assert_false(tui_exam_answer(&s, "9.1:q", "6", err, sizeof err));
    assert_non_null(strstr(err, "submitted already"));
    tui_exam_close(&s);
    /* past the time limit: refused */
    assert_true(tui_exam_open(&s, "quiz", "bob", note, sizeof note, err, sizeof err));
    assert_true(tui_exam_start(&s, 1, err, sizeof err));
    char *t = file_text("vramlab/exams"), path[256];
    char *at = strstr(t, "start quiz bob ");
    assert_non_null(at);
    char rewritten[1 << 16];
    snprintf(rewritten, sizeof rewritten, "%.*sstart quiz bob %ld 1%s", (int)(at - t), t,
             (long)time(NULL) - 100, strchr(at, '\n'));
    snprintf(path, sizeof path, "%s/vramlab/exams", dir);
    FILE *f = fopen(path, "w");
    fputs(rewritten, f);
    fclose(f);
    assert_false(tui_exam_answer(&s, "9.1:q", "1", err, sizeof err));
    assert_non_null(strstr(err, "the time is up"));
    tui_exam_close(&s);
    /* a damaged file is kept aside and said */
    f = fopen(path, "w");
    fputs("vramlab-exams 1\nstart nonsense\n", f);
    fclose(f);
    assert_true(tui_exam_open(&s, "quiz", "carol", note, sizeof note, err, sizeof err));
    assert_non_null(strstr(note, "exams"));
    assert_int_equal(s.started, 0);
    tui_exam_close(&s);
}

static void test_students_race(void **state)
{
    (void)state;
    enum { KIDS = 4, ANSWERS = 20 };
    pid_t kids[KIDS];
    for (int k = 0; k < KIDS; k++) {
        if ((kids[k] = fork()) == 0) {
            struct tui_exam_sheet s;
            char note[256], err[1400], name[16], qid[32], a[32];
            snprintf(name, sizeof name, "s%d", k);
            if (!tui_exam_open(&s, "race", name, note, sizeof note, err, sizeof err) ||
                !tui_exam_start(&s, 600, err, sizeof err))
                _exit(1);
            for (int i = 0; i < ANSWERS; i++) {
                snprintf(qid, sizeof qid, "9.%d:q%d", k, i);
                snprintf(a, sizeof a, "%d.%d", k, i);
                if (!tui_exam_answer(&s, qid, a, err, sizeof err)) _exit(2);
            }
            _exit(tui_exam_submit(&s, err, sizeof err) ? 0 : 3);
        }
    }
    for (int k = 0; k < KIDS; k++) {
        int st;
        assert_int_equal(waitpid(kids[k], &st, 0), kids[k]);
        assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
    }
    for (int k = 0; k < KIDS; k++) {
        struct tui_exam_sheet s;
        char note[256], err[1400], name[16], qid[32], a[32];
        snprintf(name, sizeof name, "s%d", k);
        assert_true(tui_exam_open(&s, "race", name, note, sizeof note, err, sizeof err));
        assert_true(s.submitted > 0);
        for (int i = 0; i < ANSWERS; i++) {
            snprintf(qid, sizeof qid, "9.%d:q%d", k, i);
            snprintf(a, sizeof a, "%d.%d", k, i);
            assert_non_null(tui_exam_get(&s, qid));
            assert_string_equal(tui_exam_get(&s, qid), a);
        }
        tui_exam_close(&s);
    }
}

static void test_results(void **state)
{
    (void)state;
    struct tui_exam_qres q[2] = {
        {.qid = "9.1:q", .lesson = "9.1", .exercise = "q", .kind = "number", .unit = "GiB",
         .answer = "=HYPERLINK(\"x\")", .status = "wrong", .mistake = "gib_gb",
         .detail = {"GB for GiB, \"quoted\"", "混淆"}, .figure = NAN},
        {.qid = "9.2:p", .lesson = "9.2", .exercise = "p", .kind = "predict", .unit = "GB/s",
         .answer = "400", .status = "right", .figure = 392.5, .how = "simulated"},
    };
    struct tui_exam_result r = {.exam = "quiz", .title = {"Quiz", "测验"}, .student = "alice",
                                .version = "0", .backend = "SIMULATED", .lang = "en", .simulated = true,
                                .started = 100, .submitted = 200, .seconds = 600, .n = 2, .q = q};
    char j[512], c[512], err[1400], res[128];
    snprintf(res, sizeof res, "%s/res", dir);
    mkdir(res, 0700);
    assert_true(tui_exam_write_results(res, &r, j, sizeof j, c, sizeof c, err, sizeof err));
    char *t = file_text("res/quiz-alice.jsonl");
    assert_non_null(t);
    assert_non_null(strstr(t, "{\"type\":\"exam\",\"format\":\"vramlab-exam\",\"version\":1,"));
    assert_non_null(strstr(t, "\"right\":1,\"broken\":0,\"score\":0.5}\n"));
    assert_non_null(strstr(t, "\"figure\":392.5,\"figure_how\":\"simulated\"}"));
    t = file_text("res/quiz-alice.csv");
    assert_non_null(strstr(t, "quiz,alice,1,9.1:q,9.1,q,number,GiB,\"'=HYPERLINK(\"\"x\"\")\",wrong,gib_gb,,,"
                              "\"GB for GiB, \"\"quoted\"\"\"\n"));
    assert_false(tui_exam_write_results("/nonexistent-dir", &r, j, sizeof j, c, sizeof c, err, sizeof err));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_sheet, setup, teardown),
        cmocka_unit_test_setup_teardown(test_students_race, setup, teardown),
        cmocka_unit_test_setup_teardown(test_results, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
