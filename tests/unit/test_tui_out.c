/* test_tui_out.c - the one filter between plain output and the terminal: which characters are
 * shown escaped (C0 but \n and \t, DEL, C1, bidi controls) and which pass (text, CJK, emoji),
 * invalid UTF-8 replaced, the same result however the text is cut into writes (a sequence split
 * across two stdio buffers). (JSON strings: test_tui_json.c.) */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tui_out.h"

#include "safe_filter.h"

static void test_shown_escaped(void **state)
{
    static const struct {
        const char *in, *out;
    } cases[] = {
        {"plain text, 显存 and 😀\n\tok", "plain text, 显存 and 😀\n\tok"},
        {"\033]0;TITLE\007", "\\x1b]0;TITLE\\x07"},
        {"\033]52;c;ZWNobyBwd25lZA==\007", "\\x1b]52;c;ZWNobyBwd25lZA==\\x07"},
        {"a\rb\bc\x7f" "d", "a\\x0db\\x08c\\x7fd"},
        {"\xc2\x85 \xc2\x9b" "31m", "\\u0085 \\u009b31m"},                 /* C1: NEL, CSI */
        {"\xe2\x80\xae" "evil \xe2\x81\xa6 \xe2\x80\x8f \xd8\x9c", "\\u202eevil \\u2066 \\u200f \\u061c"},
        {"\xff bad \xc0\xaf overlong \xed\xa0\x80 surrogate", "\xef\xbf\xbd bad \xef\xbf\xbd\xef\xbf\xbd overlong "
                                                            "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd surrogate"},
        {"cut at the end \xe6\x98", "cut at the end \xef\xbf\xbd\xef\xbf\xbd"},
        {"\xe2\x80\x8b zero width passes", "\xe2\x80\x8b zero width passes"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
        assert_string_equal(filter(cases[i].in, strlen(cases[i].in)), cases[i].out);
    assert_string_equal(filter("a\0b", 3), "a\\x00b");
}

/* Cut anywhere into two writes (as two stdio buffers would), the output is the same. */
static void test_split_writes(void **state)
{
    const char *s = "x\xe6\x98\xbe\xe5\xad\x98 \xf0\x9f\x98\x80 \xe2\x80\xae\033[2J\xff\xc2\x85 end \xe6\x98";
    size_t n = strlen(s);
    char whole[4096];
    snprintf(whole, sizeof whole, "%s", filter(s, n));
    for (size_t cut = 0; cut <= n; cut++) {
        struct buf b = {.n = 0};
        size_t used = tui_out_filter(s, cut, false, put, &b);
        assert_true(used <= cut && cut - used <= 3);
        char rest[64];
        memcpy(rest, s + used, n - used); /* what was left waits for the next write */
        assert_int_equal(tui_out_filter(rest, n - used, true, put, &b), n - used);
        assert_string_equal(b.s, whole);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_shown_escaped),
        cmocka_unit_test(test_split_writes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
