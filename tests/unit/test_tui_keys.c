/* test_tui_keys.c - help lists exactly what the keys do. For every key context of every screen
 * (menu, lesson and its running / answer / grading states, sandbox, help overlay, presenter,
 * watch), in English and Chinese: the help overlay's text is read back, each key named on a row
 * must reach (through the dispatch's own lookup) the row whose description stands beside it, and
 * each key that reaches a row must be named on that row, once. Every table row acts (a function,
 * both descriptions) and is reachable in some context, key names are unambiguous, and every
 * footer hint names keys that reach the row with that label. Needs a UTF-8 locale. */
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

#include "tui.h"
#include "tui_app.h"
#include "tui_examview.h"
#include "tui_help.h"
#include "tui_keys.h"
#include "tui_lineedit.h"
#include "tui_loop.h"
#include "tui_scroll.h"
#include "tui_snapview.h"

static const struct {
    const char *name;
    const struct tui_keymap *const *ctx;
} contexts[] = {
    {"menu", tui_menu_keys},
    {"lesson", tui_lesson_keys},
    {"lesson, reading (no action on screen)", tui_lesson_read_keys},
    {"lesson, an exercise selected", tui_lesson_exercise_keys},
    {"lesson running", tui_lesson_running_keys},
    {"lesson running, its steps shown", tui_lesson_watch_keys},
    {"lesson running, step by step", tui_lesson_step_keys},
    {"answer field", tui_lesson_answer_keys},
    {"answer being graded", tui_lesson_grading_keys},
    {"sandbox", tui_repl_keys},
    {"sandbox running", tui_repl_busy_keys},
    {"help", tui_help_keys},
    {"presenter", tui_present_keys},
    {"presenter, experiment step", tui_present_run_keys},
    {"presenter, question step", tui_present_ask_keys},
    {"presenter, a run going on", tui_present_running_keys},
    {"presenter, a run paused", tui_present_held_keys},
    {"watch", tui_watch_keys},
    {"watch, device list", tui_watch_list_keys},
    {"watch, checking", tui_watch_checking_keys},
    {"snapshot", tui_snapview_keys},
    {"snapshot file prompt", tui_snapview_pick_keys},
    {"snapshot second file prompt", tui_snapview_b_keys},
    {"exam, start page", tui_exam_start_keys},
    {"exam, a question", tui_exam_question_keys},
    {"exam, the questions", tui_exam_list_keys},
    {"exam, a confirmation", tui_exam_confirm_keys},
};
#define NCTX (sizeof contexts / sizeof *contexts)

/* ---- every key code a table names, and the common ones none does --------------------------- */

static int universe[512];
static int nuni;

static void add(int code)
{
    for (int i = 0; i < nuni; i++)
        if (universe[i] == code) return;
    assert_true(nuni < (int)(sizeof universe / sizeof *universe));
    universe[nuni++] = code;
}

static int setup(void **state)
{
    for (int c = 1; c < 127; c++)
        if (c != 8) add(c); /* 8 arrives as Backspace */
    static const int fn[] = {KEY_UP,   KEY_DOWN, KEY_LEFT,      KEY_RIGHT, KEY_PPAGE, KEY_NPAGE,
                             KEY_HOME, KEY_END,  KEY_BACKSPACE, KEY_DC,    KEY_BTAB,  KEY_IC};
    for (size_t i = 0; i < sizeof fn / sizeof *fn; i++) add(TUI_KEY_FN(fn[i]));
    for (int f = 1; f <= 12; f++) add(TUI_KEY_FN(KEY_F(f)));
    add(TUI_KEY_WHEEL_UP), add(TUI_KEY_WHEEL_DOWN), add(TUI_KEY_CLICK);
    add(0x4e2d); /* 中: typed text */
    for (size_t c = 0; c < NCTX; c++)
        for (int m = 0; contexts[c].ctx[m]; m++)
            for (int r = 0; r < contexts[c].ctx[m]->n; r++)
                for (const int *k = contexts[c].ctx[m]->v[r].keys; *k; k++)
                    if (*k != TUI_KEY_TEXT) add(*k);
    return 0;
}

/* The code a key name stands for (TUI_KEY_TEXT for "text"), or 0. */
static int code_of(const char *name, bool zh)
{
    char n[64];
    tui_key_name(TUI_KEY_TEXT, zh, n, sizeof n);
    if (!strcmp(n, name)) return TUI_KEY_TEXT;
    for (int i = 0; i < nuni; i++) {
        tui_key_name(universe[i], zh, n, sizeof n);
        if (!strcmp(n, name)) return universe[i];
    }
    return 0;
}

static void test_names_unambiguous(void **state)
{
    for (int zh = 0; zh <= 1; zh++)
        for (int i = 0; i < nuni; i++) {
            char n[64];
            tui_key_name(universe[i], zh, n, sizeof n);
            assert_true(n[0] && !strchr(n, ' '));
            assert_int_equal(code_of(n, zh), universe[i]);
        }
}

/* ---- reading the help back ------------------------------------------------------------------ */

struct help_row {
    int codes[64];
    int n;
    char desc[512];
};

/* A token of the key column: one key name, or a range "1-9". Appends its codes. */
static void token(struct help_row *r, const char *t, bool zh)
{
    int c = code_of(t, zh);
    if (c) {
        r->codes[r->n++] = c;
        return;
    }
    for (const char *d = strchr(t, '-'); d; d = strchr(d + 1, '-')) {
        char a[64];
        snprintf(a, sizeof a, "%.*s", (int)(d - t), t);
        int lo = code_of(a, zh), hi = code_of(d + 1, zh);
        if (lo && hi && lo < hi && hi - lo < 40) {
            for (int k = lo; k <= hi; k++) r->codes[r->n++] = k;
            return;
        }
    }
    fail_msg("help names a key no table has: '%s'", t);
}

static void trim_into(char *out, size_t n, const char *s, size_t len)
{
    while (len && *s == ' ') s++, len--;
    while (len && s[len - 1] == ' ') len--;
    snprintf(out, n, "%.*s", (int)len, s);
}

/* The rows of the help's key sections (a title, then rows, until a blank line; what follows the
 * last section, Ctrl-C and the notes, is not a table's). */
static int read_help(const struct tui_keymap *const *ctx, bool zh, struct help_row *rows, int max)
{
    struct tui_lines L = {0};
    const struct tui_keymap *const *one[1] = {ctx};
    tui_help_lines(&L, one, 1, NULL, 0, 400, zh, false);
    int n = 0;
    bool in_section = false, want_desc = false;
    for (int i = 0; i < L.n; i++) {
        const struct tui_line *l = &L.v[i];
        char text[1024];
        trim_into(text, sizeof text, l->s, (size_t)l->len);
        if (!text[0]) {
            in_section = false;
            continue;
        }
        if (l->st[0] == TS_H3) {
            in_section = true;
            continue;
        }
        if (!in_section) continue;
        if (want_desc) { /* the description under a key list too long for the column */
            assert_int_equal(l->s[0], ' ');
            snprintf(rows[n - 1].desc, sizeof rows[n - 1].desc, "%s", text);
            want_desc = false;
            continue;
        }
        assert_int_not_equal(l->s[0], ' '); /* no wrapped description at this width */
        assert_true(n < max);
        struct help_row *r = &rows[n++];
        memset(r, 0, sizeof *r);
        int k = 0;
        while (k < l->len && l->st[k] == TS_EM) k++;
        char keys[512];
        trim_into(keys, sizeof keys, l->s, (size_t)k);
        trim_into(r->desc, sizeof r->desc, l->s + k, (size_t)(l->len - k));
        want_desc = !r->desc[0];
        for (char *save = NULL, *t = strtok_r(keys, " ", &save); t; t = strtok_r(NULL, " ", &save))
            token(r, t, zh);
        assert_true(r->n > 0);
    }
    assert_false(want_desc);
    tui_lines_free(&L);
    return n;
}

static bool has_text_row(const struct tui_binding *b)
{
    for (const int *k = b->keys; *k; k++)
        if (*k == TUI_KEY_TEXT) return true;
    return false;
}

static void test_help_lists_exactly_the_keys(void **state)
{
    static struct help_row rows[128];
    for (size_t c = 0; c < NCTX; c++)
        for (int zh = 0; zh <= 1; zh++) {
            const struct tui_keymap *const *ctx = contexts[c].ctx;
            int n = read_help(ctx, zh, rows, 128);
            assert_true(n > 0);
            /* each key named reaches the row it is named on */
            for (int i = 0; i < n; i++)
                for (int j = 0; j < rows[i].n; j++) {
                    const struct tui_binding *b = tui_keys_resolve(ctx, rows[i].codes[j], NULL);
                    if (!b) fail_msg("%s: help names a key that does nothing", contexts[c].name);
                    if (strcmp(rows[i].desc, zh ? b->zh : b->en))
                        fail_msg("%s: a key listed for '%s' does '%s'", contexts[c].name,
                                 rows[i].desc, zh ? b->zh : b->en);
                }
            /* each key that does something is named, on its row, once */
            for (int u = 0; u < nuni; u++) {
                int code = universe[u];
                const struct tui_binding *b = tui_keys_resolve(ctx, code, NULL);
                int named = 0;
                for (int i = 0; i < n; i++)
                    for (int j = 0; j < rows[i].n; j++) {
                        int hc = rows[i].codes[j];
                        if (hc == code || (hc == TUI_KEY_TEXT && b && has_text_row(b) &&
                                           tui_keys_resolve(ctx, TUI_KEY_TEXT, NULL) == b &&
                                           !strcmp(rows[i].desc, zh ? b->zh : b->en) &&
                                           tui_key_printable(code)))
                            named++;
                    }
                char kn[64];
                tui_key_name(code, zh, kn, sizeof kn);
                if (b && named != 1)
                    fail_msg("%s: key %s is named %d times in help", contexts[c].name, kn, named);
                if (!b && named)
                    fail_msg("%s: key %s does nothing but help names it", contexts[c].name, kn);
            }
        }
}

/* ---- the tables themselves -------------------------------------------------------------------- */

static void test_every_row_acts(void **state)
{
    for (size_t c = 0; c < NCTX; c++)
        for (int m = 0; contexts[c].ctx[m]; m++) {
            const struct tui_keymap *map = contexts[c].ctx[m];
            assert_true(map->title_en[0] && map->title_zh[0]);
            for (int r = 0; r < map->n; r++) {
                const struct tui_binding *b = &map->v[r];
                assert_non_null(b->run);
                assert_true(b->keys[0] != 0);
                assert_true(b->en && b->en[0] && b->zh && b->zh[0]);
                assert_true(!b->hint_en == !b->hint_zh);
                /* some context reaches it: no dead rows */
                bool reached = false;
                for (size_t d = 0; d < NCTX && !reached; d++) {
                    char names[256];
                    for (int i = 0; contexts[d].ctx[i]; i++)
                        if (contexts[d].ctx[i] == map &&
                            tui_keys_names(contexts[d].ctx, b, false, names, sizeof names) > 0)
                            reached = true;
                }
                if (!reached) fail_msg("table '%s': no key reaches '%s'", map->title_en, b->en);
            }
        }
}

/* Each footer hint "KEYS label": the keys, read back, reach the row with that label. */
static void test_hints(void **state)
{
    for (size_t c = 0; c < NCTX; c++)
        for (int zh = 0; zh <= 1; zh++) {
            const struct tui_keymap *const *ctx = contexts[c].ctx;
            char hints[2048];
            tui_keys_hints(ctx, zh, "|", 100000, hints, sizeof hints);
            int items = 0;
            for (char *save = NULL, *it = strtok_r(hints, "|", &save); it;
                 it = strtok_r(NULL, "|", &save), items++) {
                char *sp = strchr(it, ' ');
                assert_non_null(sp);
                *sp = 0;
                const char *label = sp + 1;
                /* the key names, run together ("↑↓") or after a word, a slash ("Space/→"):
                 * read greedily, longest name first */
                int keys = 0;
                for (const char *p = it; *p; keys++) {
                    if (keys && *p == '/') p++;
                    int best = 0, code = 0;
                    for (int u = 0; u < nuni; u++) {
                        char kn[64];
                        int l = tui_key_name(universe[u], zh, kn, sizeof kn);
                        if (l > best && !strncmp(p, kn, (size_t)l)) best = l, code = universe[u];
                    }
                    if (!best) fail_msg("%s: hint '%s' names no key", contexts[c].name, it);
                    const struct tui_binding *b = tui_keys_resolve(ctx, code, NULL);
                    assert_non_null(b);
                    assert_non_null(b->hint_en);
                    assert_string_equal(label, zh ? b->hint_zh : b->hint_en);
                    p += best;
                }
                assert_true(keys >= 1);
            }
            assert_true(items >= 1); /* every screen shows how to get out or get help */
        }
}

/* The dispatch runs the row the lookup names, on that table's target. */
static int ran;
static void *ran_on;
static void mark(void *to, const struct tui_key *k) { ran = k->code, ran_on = to; }

static void test_dispatch(void **state)
{
    static const struct tui_binding first[] = {
        {.keys = {'a', 'b'}, .run = mark, .en = "a", .zh = "a"},
    };
    static const struct tui_binding second[] = {
        {.keys = {'b', 'c'}, .run = mark, .en = "b", .zh = "b"},
        {.keys = {TUI_KEY_TEXT}, .run = mark, .en = "text", .zh = "text"},
    };
    static const struct tui_keymap m1 = TUI_KEYMAP("one", "one", TUI_TO_SCREEN, first);
    static const struct tui_keymap m2 = TUI_KEYMAP("two", "two", TUI_TO_EDIT, second);
    static const struct tui_keymap *const ctx[] = {&m1, &m2, NULL};
    int screen, edit;
    struct tui_targets t = {&screen, NULL, &edit};
    struct tui_key k = {.code = 'b'};
    assert_ptr_equal(tui_keys_dispatch(ctx, &t, &k), &m1); /* the earlier table wins */
    assert_ptr_equal(ran_on, &screen);
    k.code = 'z';
    assert_ptr_equal(tui_keys_dispatch(ctx, &t, &k), &m2); /* any text */
    assert_ptr_equal(ran_on, &edit);
    assert_int_equal(ran, 'z');
    k.code = TUI_KEY_FN(KEY_F(5));
    assert_null(tui_keys_dispatch(ctx, &t, &k)); /* not text, no row */
    t.edit = NULL; /* a table without its target is left out */
    k.code = 'c';
    assert_null(tui_keys_dispatch(ctx, &t, &k));
    char names[64];
    assert_int_equal(tui_keys_names(ctx, &second[0], false, names, sizeof names), 1);
    assert_string_equal(names, "c"); /* b is shadowed by the first table */
}

int main(void)
{
    if (!setlocale(LC_CTYPE, "C.UTF-8") && !setlocale(LC_CTYPE, "en_US.UTF-8")) {
        printf("SKIP: no UTF-8 locale\n");
        return 0;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_names_unambiguous),
        cmocka_unit_test(test_help_lists_exactly_the_keys),
        cmocka_unit_test(test_every_row_acts),
        cmocka_unit_test(test_hints),
        cmocka_unit_test(test_dispatch),
    };
    return cmocka_run_group_tests(tests, setup, NULL);
}
