/* test_lt_header.c - the catalog's reading of a lesson header without running the file
 * (lt_header.c): the plain form read exactly (titles, a draft's marker, exercise ids), what hides
 * in comments and strings ignored, commas inside functions not taken for the table's, and every
 * way a header could say something else than the loaded lesson refused (computed values, names
 * redefined, _ENV, load, code after the table, unbalanced text); then, against the loader, the
 * two readings agree (lt_lesson_check_header) on a plain lesson, and a non-plain one is named. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gpu.h"
#include "lt.h"
#include "lt_header.h"
#include "lt_lex.h"

#define HEAD "return lesson {\n  id = \"9.2\", chapter = 9,\n" \
             "  chapter_title = { en = \"Labs\", zh = \"实验\" },\n" \
             "  title = { en = \"Pinned memory\", zh = \"锁页内存\" },\n"
#define TEXT "  text { en = \"# A\", zh = \"# 甲\" },\n"
#define EXERCISE(id) "  exercise { id = \"" id "\", kind = \"number\", answer = 1 },\n"

static bool scan(const char *src, struct lt_header *h, char *why, size_t n)
{
    return lt_header_scan(src, strlen(src), h, why, n);
}

static void test_plain(void **state)
{
    (void)state;
    struct lt_header h;
    char why[256];
    const char *src = "-- a lesson\nlocal MiB = units.MiB\nlocal function gbs(x) return x / 1e9 end\n" HEAD
                      "  requires = { \"host\", (\"g\" .. \"pu\") },\n" TEXT
                      "  experiment { id = \"e\", run = function(ex) local a, b = 1, { 2, 3 } "
                      "if a then for i = 1, 2 do ex:note(\"p\", i) end end repeat a = a + 1 until a > 3 end },\n"
                      EXERCISE("first") EXERCISE("second-2") "}\n";
    assert_true(scan(src, &h, why, sizeof why));
    assert_string_equal(h.id, "9.2");
    assert_int_equal(h.chapter, 9);
    assert_int_equal(h.line, 4);
    assert_string_equal(h.title[0], "Pinned memory");
    assert_string_equal(h.title[1], "锁页内存");
    assert_string_equal(h.chapter_title[0], "Labs");
    assert_string_equal(h.chapter_title[1], "实验");
    assert_int_equal(h.nexercises, 2);
    assert_string_equal(h.exercises[0], "first");
    assert_string_equal(h.exercises[1], "second-2");
    lt_header_free(&h);
}

static void test_strings_and_comments(void **state)
{
    (void)state;
    struct lt_header h;
    char why[256];
    /* a fake lesson inside a long comment and a long string; ']]' and '}' inside strings; a
     * title in a long bracket, escapes \\ \" \' */
    const char *src = "--[==[ return lesson { id = \"1.1\" } ]]\n]==]\n"
                      "local s = [[ } } return lesson { ]]\nlocal q = '}\\'}'\n"
                      "return lesson {\n  id = '9.3'; chapter = 9;\n"
                      "  chapter_title = { en = [[C \"x\"]], zh = [==[\n章]==] },\n"
                      "  title = { en = \"a \\\"quoted\\\" \\\\ title\", zh = 'it\\'s' },\n"
                      "  text { en = [[ } ]], zh = \"}\" }; -- } a comment\n"
                      "  exercise { id = \"x\", prompt = { en = \"id = 'y'\" }, hints = { { id = 'z' } } };\n"
                      "};\n";
    assert_true(scan(src, &h, why, sizeof why));
    assert_string_equal(h.id, "9.3");
    assert_string_equal(h.chapter_title[0], "C \"x\"");
    assert_string_equal(h.chapter_title[1], "章"); /* the long string's first new line dropped */
    assert_string_equal(h.title[0], "a \"quoted\" \\ title");
    assert_string_equal(h.title[1], "it's");
    assert_int_equal(h.nexercises, 1);
    assert_string_equal(h.exercises[0], "x"); /* nested tables' ids are not the exercise's */
    lt_header_free(&h);
}

static void test_draft(void **state)
{
    (void)state;
    struct lt_header h;
    char why[256];
    const char *src = "return lesson {\n  id = \"9.4\", chapter = 9, draft = \"en\",\n"
                      "  chapter_title = { en = \"Labs\" }, title = { en = \"Draft\" },\n"
                      "  text { en = \"# A\" },\n}\n";
    assert_true(scan(src, &h, why, sizeof why));
    assert_string_equal(h.title[0], "Draft");
    assert_string_equal(h.title[1], "Draft（尚未翻译）");
    assert_string_equal(h.chapter_title[1], "Labs");
    lt_header_free(&h);
    /* without draft a missing language is the loader's error, not a plain header */
    src = "return lesson {\n  id = \"9.4\", chapter = 9,\n"
          "  chapter_title = { en = \"Labs\" }, title = { en = \"Draft\" },\n  text { en = \"# A\" },\n}\n";
    assert_false(scan(src, &h, why, sizeof why));
}

/* Each of these is valid Lua (or close to it) whose header the catalog must not guess. */
static void test_not_plain(void **state)
{
    (void)state;
    static const char *const cases[] = {
        "local ID = \"9.2\"\nreturn lesson { id = ID, chapter = 9, chapter_title = { en = \"a\", zh = \"b\" }, title = { en = \"a\", zh = \"b\" }, " TEXT "}",
        "local exercise = text\n" HEAD EXERCISE("a") "}",
        "exercise = text\n" HEAD EXERCISE("a") "}",
        "local function f() exercise = text end f()\n" HEAD EXERCISE("a") "}",
        "function text(t) return t end\n" HEAD TEXT "}",
        "local a, lesson = 1, nil\n" HEAD TEXT "}",
        "_ENV.exercise = text\n" HEAD EXERCISE("a") "}",
        "_G.exercise = text\n" HEAD EXERCISE("a") "}",
        "load(\"exercise = text\")()\n" HEAD EXERCISE("a") "}",
        HEAD TEXT "}\nprint(1)",
        HEAD TEXT,
        HEAD "  table.unpack(blocks),\n}",
        HEAD "  exercise { id = \"a\" .. \"b\" },\n}",
        HEAD "  exercise { kind = \"choice\" },\n}",
        HEAD EXERCISE("a") EXERCISE("a") "}",
        HEAD "  exercise({ id = \"a\" }),\n}",
        HEAD "  extra = 1,\n" TEXT "}",
        HEAD "  [\"id\"] = \"9.2\",\n" TEXT "}",
        "return lesson {\n  id = \"9.2\", chapter = 8, chapter_title = { en = \"a\", zh = \"b\" }, title = { en = \"a\", zh = \"b\" }, " TEXT "}",
        "return lesson {\n  id = \"9\", chapter = 9, chapter_title = { en = \"a\", zh = \"b\" }, title = { en = \"a\", zh = \"b\" }, " TEXT "}",
        "return lesson {\n  id = \"9.2\", chapter = 9.0, chapter_title = { en = \"a\", zh = \"b\" }, title = { en = \"a\", zh = \"b\" }, " TEXT "}",
        "return lesson {\n  id = \"9.2\", chapter = 9, chapter_title = { en = \"a\", zh = \"\" }, title = { en = \"a\", zh = \"b\" }, " TEXT "}",
        "return lesson {\n  id = \"9.2\", chapter = 9, chapter_title = { en = \"a\", zh = \"b\" }, title = { en = \"a\\n\", zh = \"b\" }, " TEXT "}",
        "return lesson {\n  id = \"9.2\", chapter = 9, chapter_title = { en = \"a\", zh = \"b\" }, title = { en = \"a\", zh = \"b\", fr = \"c\" }, " TEXT "}",
        "return lesson {\n  id = \"9.2\", chapter = 9, draft = \"fr\", chapter_title = { en = \"a\", zh = \"b\" }, title = { en = \"a\", zh = \"b\" }, " TEXT "}",
        "return lesson {\n  id = \"9.2\", chapter = 9, chapter_title = { en = \"a\", zh = \"b\" }, title = { en = \"a\", zh = \"b\" },\n}",
        HEAD "  experiment { run = function() end end },\n}",
        HEAD "  text { en = [[ never closed",
        HEAD "  text { en = \"never closed\n\" },\n}",
        "if x then\n" HEAD TEXT "}\nend",
        "return lesson({ id = \"9.2\" })",
        "\x1bLua",
        "",
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct lt_header h;
        char why[256];
        why[0] = 0;
        if (scan(cases[i], &h, why, sizeof why)) {
            fprintf(stderr, "case %zu read as plain: %s\n", i, cases[i]);
            fail();
        }
        assert_true(!strncmp(why, "line ", 5)); /* "line N: what" */
        assert_null(h.title[0]); /* nothing left allocated */
    }
}

/* The loader and the reader agree on a plain lesson; a computed header is named, with its line. */
/* lt_lex_field_line: the line of a field in a constructor's table, by path (keys and 1-based
 * positions), past nested tables, functions and long strings; 0 when it is not a literal there. */
static int fline(const char *src, int line, const char *name, const char *path)
{
    return lt_lex_field_line(src, strlen(src), line, name, path);
}

static void test_field_line(void **state)
{
    (void)state;
    const char *src = "local x = { id = 1 }\n"                         /* 1 */
                      "return lesson {\n"                              /* 2 */
                      "  id = \"9.1\",\n"                              /* 3 */
                      "  exercise { id = \"q\", kind = \"number\",\n"  /* 4 */
                      "    prompt = { en = [[a\n"                      /* 5 */
                      "b]], zh = \"乙\" },\n"                          /* 6 */
                      "    check = function(fn) local t = { hints = 1 } return t end,\n" /* 7 */
                      "    hints = { { en = \"h\", zh = \"h\" },\n"    /* 8 */
                      "              { en = \"i\",\n"                  /* 9 */
                      "                zh = \"i\" } },\n"               /* 10 */
                      "    why = { [2] = { en = \"w\" } },\n"          /* 11 */
                      "    tolerance = -1 },\n"                        /* 12 */
                      "}\n";
    assert_int_equal(fline(src, 2, "lesson", "id"), 3);
    assert_int_equal(fline(src, 4, "exercise", "id"), 4);
    assert_int_equal(fline(src, 4, "exercise", "prompt.zh"), 6);
    assert_int_equal(fline(src, 4, "exercise", "hints"), 8);
    assert_int_equal(fline(src, 4, "exercise", "hints.2"), 9);
    assert_int_equal(fline(src, 4, "exercise", "hints.2.zh"), 10);
    assert_int_equal(fline(src, 4, "exercise", "why.2"), 11);
    assert_int_equal(fline(src, 4, "exercise", "tolerance"), 12);
    assert_int_equal(fline(src, 4, "exercise", "hints.3"), 0);    /* no such item */
    assert_int_equal(fline(src, 4, "exercise", "answer"), 0);     /* no such field */
    assert_int_equal(fline(src, 4, "experiment", "id"), 0);       /* no experiment{ on line 4 */
    assert_int_equal(fline(src, 1, NULL, "id"), 1);               /* the first { on the line */
    assert_int_equal(fline("return lesson { id = [[x", 1, "lesson", "id"), 1); /* cut short */
    assert_int_equal(fline("return lesson { a = }", 1, "lesson", "id"), 0);
}

static void test_against_loader(void **state)
{
    (void)state;
    struct gpu_config c = {.datadir = ".", .deterministic = true, .cap_fraction = 0.9};
    struct gpu_dev *dev;
    char why[512], err[1024], dir[] = "/tmp/vramlab-header-XXXXXX", path[128];
    assert_int_equal(gpu_open("sim", &c, &dev, why, sizeof why), GPU_OK);
    struct lt_runtime *rt = lt_runtime_new(dev, ".", lt_modules);
    assert_non_null(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/9.2-pinned.lua", dir);
    static const char *const src[] = {
        HEAD "  text { en = \"# A\\n\\n> [!source] Sources\\n> B\", zh = \"# 甲\\n\\n> [!source] 出处\\n> 乙\" },\n"
        "  exercise { id = \"q\", kind = \"choice\", prompt = { en = \"a\", zh = \"b\" }, explain = { en = \"a\", zh = \"b\" },\n"
        "    hints = { { en = \"h\", zh = \"h\" } }, choices = { { en = \"a\", zh = \"b\" }, { en = \"c\", zh = \"d\" } }, answer = 1 },\n}\n",
        "local T = { en = \"Pinned memory\", zh = \"锁页内存\" }\nreturn lesson {\n  id = \"9.2\", chapter = 9,\n"
        "  chapter_title = { en = \"Labs\", zh = \"实验\" }, title = T,\n  text { en = \"# A\", zh = \"# 甲\" },\n}\n",
    };
    for (int i = 0; i < 2; i++) {
        FILE *f = fopen(path, "w");
        assert_non_null(f);
        fputs(src[i], f);
        fclose(f);
        struct lt_lesson *ls = lt_lesson_load(rt, path, err, sizeof err);
        assert_non_null(ls);
        int r = lt_lesson_check_header(ls, err, sizeof err);
        assert_int_equal(r, i == 0 ? 1 : 0);
        if (i == 1) { /* "path:LINE: the header is not in the plain form (...)" */
            char want[256];
            snprintf(want, sizeof want, "%s:4: the header is not in the plain form", path);
            assert_true(!strncmp(err, want, strlen(want)));
        }
        lt_lesson_free(ls);
    }
    /* the catalog lists both forms the same way: the second by loading it */
    struct lt_catalog_entry *e;
    int n = lt_catalog_scan(rt, dir, &e);
    assert_int_equal(n, 1);
    assert_null(e[0].error);
    assert_string_equal(e[0].id, "9.2");
    assert_string_equal(e[0].title[1], "锁页内存");
    lt_catalog_free(e, n);
    unlink(path);
    rmdir(dir);
    lt_runtime_free(rt);
    gpu_close(dev);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_plain),
        cmocka_unit_test(test_strings_and_comments),
        cmocka_unit_test(test_draft),
        cmocka_unit_test(test_not_plain),
        cmocka_unit_test(test_field_line),
        cmocka_unit_test(test_against_loader),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
