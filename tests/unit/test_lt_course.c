/* test_lt_course.c - a data-only Lua file read as tokens (lt_data.c) and a teacher's course.lua
 * (lt_course.c): literals, nesting and lines kept; every form that would need running refused
 * with its line; the manifest's fields checked (title in both languages, sections that are ids
 * and listed once, cap as a share or a size); the first teacher's folder gives the course, the
 * built-in one never does, and a second course.lua is an error. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lt_course.h"
#include "lt_data.h"
#include "lt_exam.h"

static bool rd(const char *src, struct lt_data *d, char *why, size_t n)
{
    return lt_data_read(src, strlen(src), d, why, n);
}

static void test_data(void **state)
{
    (void)state;
    struct lt_data d;
    char why[256];
    const char *src = "-- a comment\nreturn {\n  a = \"x\",\n  b = { 1, -2.5, true },\n"
                      "  [[long]], c = { d = 'it\\'s' }, --[[ skipped ]] }\n";
    assert_true(rd(src, &d, why, sizeof why));
    assert_int_equal(d.kind, LT_DATA_TABLE);
    assert_int_equal(d.n, 4);
    const struct lt_data *a = lt_data_field(&d, "a"), *b = lt_data_field(&d, "b");
    assert_string_equal(a->str, "x");
    assert_int_equal(a->line, 3);
    assert_int_equal(lt_data_nitems(b), 3);
    assert_true(lt_data_item(b, 0)->num == 1.0);
    assert_true(lt_data_item(b, 1)->num == -2.5);
    assert_true(lt_data_item(b, 2)->kind == LT_DATA_BOOL && lt_data_item(b, 2)->b);
    assert_string_equal(lt_data_item(&d, 0)->str, "long");
    assert_string_equal(lt_data_field(lt_data_field(&d, "c"), "d")->str, "it's");
    assert_null(lt_data_field(&d, "zz"));
    lt_data_free(&d);
    /* what would need running, or is not data: refused with its line */
    static const struct { const char *src, *why; } bad[] = {
        {"return { a = f() }", "line 1: not a literal value"},
        {"return {\n a = \"x\" .. \"y\" }", "line 2: a ',' or '}' is missing"},
        {"local t = {} return t", "line 1: the file must be 'return { ... }'"},
        {"return 42", "line 1: the file must be 'return { ... }'"},
        {"return { a = 1,\n a = 2 }", "line 2: 'a' is given twice (first at line 1)"},
        {"return { a = \"\\n\" }", "line 1: a string with escapes"},
        {"return { a = 0x10 }", "line 1: '0x10' is not a decimal number"},
        {"return { } x = 1", "line 1: something after the table"},
        {"return { a = { { { { { { { { { { { { { { { { { {} } } } } } } } } } } } } } } } } }",
         "tables nested deeper than 16"},
        {"return { a = [[x }", "line 1: not a literal value"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        if (rd(bad[i].src, &d, why, sizeof why)) fail_msg("accepted: %s", bad[i].src);
        if (!strstr(why, bad[i].why)) fail_msg("%s: got '%s', want '%s'", bad[i].src, why, bad[i].why);
    }
}

static char dir[64];

static void put(const char *rel, const char *text)
{
    char p[256];
    snprintf(p, sizeof p, "%s/%s", dir, rel);
    FILE *f = fopen(p, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static void test_course(void **state)
{
    (void)state;
    char err[4600], folders[512];
    struct lt_course c;
    strcpy(dir, "/tmp/vramlab-course-XXXXXX");
    assert_non_null(mkdtemp(dir));
    char a[128], b[128];
    snprintf(a, sizeof a, "%s/a", dir), snprintf(b, sizeof b, "%s/b", dir);
    mkdir(a, 0700), mkdir(b, 0700);
    put("course.lua", "return { title = { en = \"X\", zh = \"X\" }, sections = { \"1.1\" } }\n");
    /* the built-in course's folder (the first) is never read for a manifest */
    snprintf(folders, sizeof folders, "%s:%s", dir, a);
    assert_int_equal(lt_course_read(folders, &c, err, sizeof err), 0);
    put("a/course.lua", "return {\n title = { en = \"Class A\", zh = \"A 班\" },\n"
                        " sections = { \"9.1\", \"1.3\",\n \"10.2\" },\n cap = \"2GiB\",\n"
                        " results = \"/srv/a\" }\n");
    assert_int_equal(lt_course_read(folders, &c, err, sizeof err), 1);
    assert_string_equal(c.title[0], "Class A");
    assert_string_equal(c.title[1], "A 班");
    assert_int_equal(c.n, 3);
    assert_string_equal(c.sections[2].id, "10.2");
    assert_int_equal(c.sections[2].line, 4);
    assert_int_equal(lt_course_find(&c, "1.3"), 1);
    assert_int_equal(lt_course_find(&c, "1.2"), -1);
    assert_true(c.cap_bytes == UINT64_C(2) << 30);
    assert_string_equal(c.results, "/srv/a");
    lt_course_free(&c);
    /* a relative results folder is the course folder's, not the student's working folder's */
    put("a/course.lua", "return { title = { en = \"A\", zh = \"甲\" }, sections = { \"1.1\" },\n"
                        " results = \"class/results\" }\n");
    assert_int_equal(lt_course_read(folders, &c, err, sizeof err), 1);
    char want[200];
    snprintf(want, sizeof want, "%s/class/results", a);
    assert_string_equal(c.results, want);
    lt_course_free(&c);
    /* a second course.lua: one course at a time */
    put("b/course.lua", "return { title = { en = \"B\", zh = \"乙\" }, sections = { \"1.1\" } }\n");
    snprintf(folders, sizeof folders, "%s:%s:%s", dir, a, b);
    assert_int_equal(lt_course_read(folders, &c, err, sizeof err), -1);
    assert_non_null(strstr(err, "b/course.lua:1: a second course file"));
    lt_course_free(&c);
    static const struct { const char *src, *why; } bad[] = {
        {"return {\n sections = { \"1.1\" } }", ":1: title must be"},
        {"return {\n title = { en = \"A\" },\n sections = { \"1.1\" } }", ":2: title must be"},
        {"return { title = { en = \"A\", zh = \"甲\" },\n sections = { } }", ":2: sections must list"},
        {"return { title = { en = \"A\", zh = \"甲\" },\n sections = { \"1.1\", x = 1 } }", ":2: sections must list"},
        {"return { title = { en = \"A\", zh = \"甲\" },\n sections = { \"1.1\",\n \"one\" } }", ":3: section 2 must be"},
        {"return { title = { en = \"A\", zh = \"甲\" }, sections = { \"1.1\",\n \"1.1\" } }", ":2: section 1.1 is listed twice (first at line 1)"},
        {"return { title = { en = \"A\", zh = \"甲\" }, sections = { \"1.1\" },\n cap = 0 }", ":2: cap = 0"},
        {"return { title = { en = \"A\", zh = \"甲\" }, sections = { \"1.1\" },\n cap = \"2 lots\" }", ":2: cap must be"},
        {"return { title = { en = \"A\", zh = \"甲\" }, sections = { \"1.1\" },\n results = 3 }", ":2: results must be"},
        {"return { title = { en = \"A\", zh = \"甲\" }, sections = { \"1.1\" },\n exams = 3 }", ":2: unknown field 'exams'"},
    };
    char path[128];
    snprintf(path, sizeof path, "%s/course.lua", a);
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        put("a/course.lua", bad[i].src);
        if (lt_course_read_file(path, &c, err, sizeof err) != -1) fail_msg("accepted: %s", bad[i].src);
        if (!strstr(err, bad[i].why)) fail_msg("%s: got '%s', want '%s'", bad[i].src, err, bad[i].why);
        lt_course_free(&c);
    }
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    assert_int_equal(system(cmd), 0);
}

/* An exam file read as data (lt_exam.c), its id from the file's name; a shuffled order is a
 * permutation, the same for the same student, another for another. */
static void test_exam(void **state)
{
    (void)state;
    strcpy(dir, "/tmp/vramlab-exam-XXXXXX");
    assert_non_null(mkdtemp(dir));
    put("quiz-1.exam.lua", "return {\n title = { en = \"Q\", zh = \"问\" },\n minutes = 20,\n"
                           " questions = { \"9.1:a\", \"9.2\", \"9.3:b\", \"9.4:c\", \"9.5:d\", \"9.6:e\" },\n"
                           " shuffle = true, show = \"answers\" }\n");
    char path[128], err[4800];
    snprintf(path, sizeof path, "%s/quiz-1.exam.lua", dir);
    struct lt_exam e;
    assert_int_equal(lt_exam_read_file(path, &e, err, sizeof err), 1);
    assert_string_equal(e.id, "quiz-1");
    assert_string_equal(e.title[1], "问");
    assert_true(e.minutes == 20 && e.shuffle && e.show == LT_EXAM_SHOW_ANSWERS);
    assert_int_equal(e.n, 6);
    assert_string_equal(e.q[1].lesson, "9.2");
    assert_string_equal(e.q[1].exercise, "");
    assert_int_equal(e.q[2].line, 4);
    int a[6], b[6], c[6], seen[6] = {0};
    lt_exam_order(&e, "alice", a), lt_exam_order(&e, "alice", b), lt_exam_order(&e, "bob", c);
    assert_memory_equal(a, b, sizeof a);
    for (int i = 0; i < 6; i++) seen[a[i]]++;
    for (int i = 0; i < 6; i++) assert_int_equal(seen[i], 1);
    assert_memory_not_equal(a, c, sizeof a);
    e.shuffle = false;
    lt_exam_order(&e, "alice", a);
    for (int i = 0; i < 6; i++) assert_int_equal(a[i], i);
    lt_exam_free(&e);
    put("bad.exam.lua", "return { title = { en = \"Q\", zh = \"问\" }, minutes = 20,\n questions = { 3 } }\n");
    snprintf(path, sizeof path, "%s/bad.exam.lua", dir);
    assert_int_equal(lt_exam_read_file(path, &e, err, sizeof err), -1);
    assert_non_null(strstr(err, "bad.exam.lua:2: question 1 must be a string"));
    lt_exam_free(&e);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    assert_int_equal(system(cmd), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_data),
        cmocka_unit_test(test_course),
        cmocka_unit_test(test_exam),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
