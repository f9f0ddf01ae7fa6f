/* test_tui_lineedit.c - the one line editor (the answer field and the REPL prompt): the cursor
 * moves and deletes by glyph (a wide CJK glyph, a letter with its combining marks, an invalid
 * byte), stops at both ends, the size limit never cuts a sequence, the history hook browses and
 * gives back the line being typed, and the visible window of a narrow field always shows the
 * cursor and never half a glyph. Needs a UTF-8 locale (C.UTF-8 is tried first). */
#include <curses.h>
#include <locale.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "tui_lineedit.h"
#include "tui_wrap.h"

static struct tui_lineedit ed;

static void key(struct tui_lineedit *e, int code)
{
    static const struct tui_keymap *const ctx[] = {&tui_lineedit_history_keys, &tui_lineedit_keys,
                                                   NULL};
    struct tui_targets t = {NULL, NULL, e};
    struct tui_key k = {.code = code};
    assert_non_null(tui_keys_dispatch(ctx, &t, &k));
}

static void type(struct tui_lineedit *e, const char *s)
{
    for (size_t i = 0; s[i];) {
        unsigned cp;
        i += (size_t)gpu_utf8_decode(s + i, strlen(s + i), &cp);
        key(e, (int)cp);
    }
}

#define LEFT TUI_KEY_FN(KEY_LEFT)
#define RIGHT TUI_KEY_FN(KEY_RIGHT)
#define BS TUI_KEY_FN(KEY_BACKSPACE)
#define DEL TUI_KEY_FN(KEY_DC)

static void test_ascii_and_ends(void **state)
{
    tui_lineedit_init(&ed, 0);
    key(&ed, LEFT);
    key(&ed, BS);
    key(&ed, DEL);
    key(&ed, RIGHT); /* nothing to move over or delete: nothing happens */
    assert_int_equal(ed.len, 0);
    assert_int_equal(ed.cur, 0);
    type(&ed, "x = 1");
    assert_string_equal(ed.s, "x = 1");
    assert_int_equal(ed.cur, 5);
    key(&ed, RIGHT);
    assert_int_equal(ed.cur, 5); /* stops at the end */
    key(&ed, TUI_KEY_FN(KEY_HOME));
    key(&ed, LEFT);
    assert_int_equal(ed.cur, 0); /* and at the start */
    key(&ed, DEL);
    assert_string_equal(ed.s, " = 1");
    type(&ed, "y");
    assert_string_equal(ed.s, "y = 1");
    key(&ed, TUI_CTRL('E'));
    key(&ed, BS);
    type(&ed, "2");
    assert_string_equal(ed.s, "y = 2");
    key(&ed, TUI_CTRL('W'));
    assert_string_equal(ed.s, "y = ");
    key(&ed, TUI_CTRL('A'));
    key(&ed, TUI_CTRL('F'));
    key(&ed, TUI_CTRL('K'));
    assert_string_equal(ed.s, "y");
    key(&ed, TUI_CTRL('U'));
    assert_string_equal(ed.s, "");
    assert_int_equal(ed.cur, 0);
}

/* "a中b" + e with a combining acute + a stray continuation byte: each is one step. */
static void test_glyph_steps(void **state)
{
    static const char s[] = "a\xe4\xb8\xad" "be\xcc\x81\x80z"; /* a 中 b é(e+U+0301) \x80 z */
    static const int bounds[] = {0, 1, 4, 5, 8, 9, 10};
    tui_lineedit_init(&ed, 0);
    tui_lineedit_set(&ed, s);
    assert_int_equal(ed.len, 10);
    assert_int_equal(ed.cur, 10);
    for (int i = 6; i > 0; i--) {
        key(&ed, LEFT);
        assert_int_equal(ed.cur, bounds[i - 1]);
    }
    for (int i = 1; i <= 6; i++) {
        key(&ed, RIGHT);
        assert_int_equal(ed.cur, bounds[i]);
    }
    /* backspace over the wide glyph, then over the letter with its mark */
    ed.cur = 4;
    key(&ed, BS);
    assert_string_equal(ed.s, "abe\xcc\x81\x80z");
    assert_int_equal(ed.cur, 1);
    ed.cur = 5;
    key(&ed, BS);
    assert_string_equal(ed.s, "ab\x80z");
    key(&ed, DEL); /* the stray byte goes alone */
    assert_string_equal(ed.s, "abz");
    type(&ed, "中文");
    assert_string_equal(ed.s, "ab中文z");
    key(&ed, LEFT);
    key(&ed, DEL);
    assert_string_equal(ed.s, "ab中z");
}

/* Every cursor position reached by moves is a glyph boundary, both ways, for random text. */
static void test_random_boundaries(void **state)
{
    static const char *const parts[] = {"a", "中", "e\xcc\x81", "\xf0\x9f\x98\x80", "\xe4\xb8",
                                        "\x80", " ", "\n", "é"};
    srand(7);
    for (int round = 0; round < 500; round++) {
        char s[200] = "";
        int n = rand() % 12;
        for (int i = 0; i < n; i++) strcat(s, parts[rand() % 9]);
        tui_lineedit_init(&ed, 0);
        tui_lineedit_set(&ed, s);
        int fwd[64], nf = 0, back[64], nb = 0;
        for (int i = 0; i < ed.len; i = tui_lineedit_next(&ed, i)) fwd[nf++] = i;
        for (int i = ed.len; i > 0;) back[nb++] = i = tui_lineedit_prev(&ed, i);
        assert_int_equal(nf, nb);
        for (int i = 0; i < nf; i++) assert_int_equal(fwd[i], back[nf - 1 - i]);
        /* deleting every glyph from the end empties it, one boundary at a time */
        while (ed.len) {
            int was = ed.len;
            key(&ed, BS);
            assert_true(ed.len < was);
            assert_int_equal(ed.cur, ed.len);
        }
    }
}

/* The limit is in bytes: a glyph that does not fit is not inserted, and set() cuts only at a
 * sequence boundary. */
static void test_limit(void **state)
{
    tui_lineedit_init(&ed, 5);
    type(&ed, "ab中中");
    assert_string_equal(ed.s, "ab中");
    type(&ed, "c");
    assert_string_equal(ed.s, "ab中");
    tui_lineedit_set(&ed, "a中文");
    assert_string_equal(ed.s, "a中");
    assert_int_equal(ed.cur, 4);
    tui_lineedit_init(&ed, 100000); /* too big: the buffer's size */
    assert_int_equal(ed.max, TUI_LINE_MAX - 1);
}

static const char *const past[] = {"first", "二 second", "third\nline"};
static int hcount(void *ud) { return 3; }
static const char *hget(void *ud, int i) { return past[i]; }

static void test_history(void **state)
{
    tui_lineedit_init(&ed, 0);
    ed.hist = (struct tui_history_hook){NULL, hcount, hget};
    tui_lineedit_history_reset(&ed);
    type(&ed, "draft");
    key(&ed, TUI_KEY_FN(KEY_UP));
    assert_string_equal(ed.s, "third\nline");
    assert_int_equal(ed.cur, ed.len);
    key(&ed, TUI_CTRL('P'));
    key(&ed, TUI_KEY_FN(KEY_UP));
    assert_string_equal(ed.s, "first");
    key(&ed, TUI_KEY_FN(KEY_UP)); /* the oldest: stays */
    assert_string_equal(ed.s, "first");
    key(&ed, TUI_KEY_FN(KEY_DOWN));
    assert_string_equal(ed.s, "二 second");
    key(&ed, TUI_CTRL('N'));
    key(&ed, TUI_KEY_FN(KEY_DOWN));
    assert_string_equal(ed.s, "draft"); /* the line being typed comes back */
    key(&ed, TUI_KEY_FN(KEY_DOWN));
    assert_string_equal(ed.s, "draft");
    /* no hook: the keys do nothing */
    tui_lineedit_init(&ed, 0);
    type(&ed, "x");
    key(&ed, TUI_KEY_FN(KEY_UP));
    assert_string_equal(ed.s, "x");
}

/* The window of a field w columns wide: at most w columns, whole glyphs, the cursor inside it
 * (with a cell to stand on), and what the cursor is next to really shows beside it. */
static void test_view(void **state)
{
    static const char s[] = "local 中文 = \"é\"\nreturn 中";
    for (int w = 1; w <= 30; w++) {
        tui_lineedit_init(&ed, 0);
        tui_lineedit_set(&ed, s);
        for (int cur = 0;; cur = tui_lineedit_next(&ed, cur)) {
            ed.cur = cur;
            char out[256];
            int col = -1;
            tui_lineedit_view(&ed, w, "↵", out, sizeof out, &col);
            int vw = tui_width(out, strlen(out));
            assert_true(vw <= w);
            assert_true(col >= 0 && col <= w - 1 + (w == 1));
            for (size_t i = 0; out[i];) { /* whole sequences only */
                unsigned cp;
                int l = gpu_utf8_decode(out + i, strlen(out + i), &cp);
                assert_int_not_equal(cp, 0xfffd);
                assert_int_not_equal(cp, '\n'); /* shown as ↵ */
                i += (size_t)l;
            }
            if (cur < ed.len && ed.s[cur] != '\n') { /* the glyph under the cursor shows there */
                size_t off = 0;
                while (out[off] && tui_width(out, off) < col) {
                    unsigned cp;
                    off += (size_t)gpu_utf8_decode(out + off, strlen(out + off), &cp);
                }
                unsigned want, got;
                gpu_utf8_decode(ed.s + cur, (size_t)(ed.len - cur), &want);
                if (tui_width(out, off) == col && out[off]) {
                    gpu_utf8_decode(out + off, strlen(out + off), &got);
                    assert_int_equal(got, want);
                } else { /* only a glyph too wide for what is left of the field may be missing */
                    assert_true(tui_cp_width(want) > w - col);
                }
            }
            if (cur >= ed.len) break;
        }
    }
    /* a wide field shows it all, the cursor where the text says */
    tui_lineedit_set(&ed, "a中b");
    ed.cur = 4;
    char out[64];
    int col;
    tui_lineedit_view(&ed, 20, "|", out, sizeof out, &col);
    assert_string_equal(out, "a中b");
    assert_int_equal(col, 3);
}

int main(void)
{
    if (!setlocale(LC_CTYPE, "C.UTF-8") && !setlocale(LC_CTYPE, "en_US.UTF-8")) {
        printf("SKIP: no UTF-8 locale\n");
        return 0;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ascii_and_ends), cmocka_unit_test(test_glyph_steps),
        cmocka_unit_test(test_random_boundaries), cmocka_unit_test(test_limit),
        cmocka_unit_test(test_history), cmocka_unit_test(test_view),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
