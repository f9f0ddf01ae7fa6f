/* tui_keys.c - key tables: lookup, dispatch, key names and footer hints (see tui_keys.h). Help
 * and hints call the same tui_keys_resolve the dispatch calls: a key shadowed by an earlier
 * table is not listed under the later one. */
#include "tui_keys.h"

#include <curses.h>
#include <stdio.h>
#include <string.h>

#include "tui_wrap.h"

bool tui_key_printable(int code) { return code >= 32 && code != 127 && code < 0x110000; }

static const struct {
    int code;
    const char *en, *zh;
} names[] = {
    {TUI_KEY_FN(KEY_UP), "↑", NULL},
    {TUI_KEY_FN(KEY_DOWN), "↓", NULL},
    {TUI_KEY_FN(KEY_LEFT), "←", NULL},
    {TUI_KEY_FN(KEY_RIGHT), "→", NULL},
    {TUI_KEY_FN(KEY_PPAGE), "PgUp", NULL},
    {TUI_KEY_FN(KEY_NPAGE), "PgDn", NULL},
    {TUI_KEY_FN(KEY_HOME), "Home", NULL},
    {TUI_KEY_FN(KEY_END), "End", NULL},
    {TUI_KEY_FN(KEY_BACKSPACE), "Backspace", NULL},
    {TUI_KEY_FN(KEY_DC), "Delete", NULL},
    {TUI_KEY_FN(KEY_BTAB), "Shift-Tab", NULL},
    {TUI_KEY_ENTER, "Enter", NULL},
    {TUI_KEY_ESC, "Esc", NULL},
    {'\t', "Tab", NULL},
    {' ', "Space", "空格"},
    {TUI_KEY_WHEEL_UP, "wheel↑", "滚轮↑"},
    {TUI_KEY_WHEEL_DOWN, "wheel↓", "滚轮↓"},
    {TUI_KEY_CLICK, "click", "点击"},
    {TUI_KEY_TEXT, "text", "文字"},
};

int tui_key_name(int code, bool zh, char *out, size_t n)
{
    for (size_t i = 0; i < sizeof names / sizeof *names; i++)
        if (names[i].code == code)
            return snprintf(out, n, "%s", zh && names[i].zh ? names[i].zh : names[i].en);
    if (code >= TUI_KEY_FN(KEY_F(1)) && code <= TUI_KEY_FN(KEY_F(24)))
        return snprintf(out, n, "F%d", code - TUI_KEY_FN(KEY_F(0)));
    if (code > 0 && code < 32) return snprintf(out, n, "Ctrl-%c", '@' + code);
    if (tui_key_printable(code)) {
        char u[5] = {0};
        gpu_utf8_encode((unsigned)code, 0, u);
        return snprintf(out, n, "%s", u);
    }
    return snprintf(out, n, "key-%d", code);
}

/* The row of m that code reaches: its own key first, then "any text". */
static const struct tui_binding *find(const struct tui_keymap *m, int code)
{
    const struct tui_binding *text = NULL;
    for (int i = 0; i < m->n; i++)
        for (const int *k = m->v[i].keys; *k && k < m->v[i].keys + TUI_BIND_KEYS; k++) {
            if (*k == code) return &m->v[i];
            if (*k == TUI_KEY_TEXT && !text && tui_key_printable(code)) text = &m->v[i];
        }
    return text;
}

const struct tui_binding *tui_keys_resolve(const struct tui_keymap *const *ctx, int code, int *map)
{
    for (int i = 0; ctx[i]; i++) {
        const struct tui_binding *b = find(ctx[i], code);
        if (b) {
            if (map) *map = i;
            return b;
        }
    }
    return NULL;
}

static void *target_of(const struct tui_keymap *m, const struct tui_targets *t)
{
    return m->target == TUI_TO_SCROLL ? t->scroll : m->target == TUI_TO_EDIT ? t->edit : t->screen;
}

const struct tui_keymap *tui_keys_dispatch(const struct tui_keymap *const *ctx,
                                           const struct tui_targets *t, const struct tui_key *k)
{
    for (int i = 0; ctx[i]; i++) {
        void *to = target_of(ctx[i], t);
        const struct tui_binding *b = to ? find(ctx[i], k->code) : NULL;
        if (b) {
            b->run(to, k);
            return ctx[i];
        }
    }
    return NULL;
}

/* Does `code` (one of b's keys) reach b in ctx? "Any text" reaches b unless an earlier table
 * takes any text too. */
static bool reaches(const struct tui_keymap *const *ctx, const struct tui_binding *b, int code)
{
    if (code != TUI_KEY_TEXT) return tui_keys_resolve(ctx, code, NULL) == b;
    for (int i = 0; ctx[i]; i++) {
        if (ctx[i]->v <= b && b < ctx[i]->v + ctx[i]->n) return true;
        for (int r = 0; r < ctx[i]->n; r++)
            for (const int *k = ctx[i]->v[r].keys; *k && k < ctx[i]->v[r].keys + TUI_BIND_KEYS; k++)
                if (*k == TUI_KEY_TEXT) return false;
    }
    return false;
}

static void append(char *out, size_t n, size_t *len, const char *s)
{
    int w = snprintf(out + *len, n - *len, "%s%s", *len ? " " : "", s);
    if (w > 0) *len = *len + (size_t)w < n ? *len + (size_t)w : n - 1;
}

int tui_keys_names(const struct tui_keymap *const *ctx, const struct tui_binding *b, bool zh,
                   char *out, size_t n)
{
    size_t len = 0;
    int count = 0;
    if (n) out[0] = 0;
    const int *k = b->keys, *end = b->keys + TUI_BIND_KEYS;
    while (k < end && *k) {
        if (!reaches(ctx, b, *k)) {
            k++;
            continue;
        }
        /* a run of consecutive reachable characters ('1'..'9') is named "1-9" */
        const int *e = k;
        while (e + 1 < end && e[1] == e[0] + 1 && tui_key_printable(e[0]) && reaches(ctx, b, e[1])) e++;
        char a[32], z[32], both[70];
        tui_key_name(*k, zh, a, sizeof a);
        if (e - k >= 2) {
            tui_key_name(*e, zh, z, sizeof z);
            snprintf(both, sizeof both, "%s-%s", a, z);
            append(out, n, &len, both);
            count += (int)(e - k) + 1;
            k = e + 1;
        } else {
            append(out, n, &len, a);
            count++;
            k++;
        }
    }
    return count;
}

void tui_keys_hints(const struct tui_keymap *const *ctx, bool zh, const char *sep, int max_cols,
                    char *out, size_t n)
{
    size_t len = 0;
    int cols = 0, sw = tui_width(sep, strlen(sep));
    if (n) out[0] = 0;
    for (int i = 0; ctx[i]; i++)
        for (int r = 0; r < ctx[i]->n; r++) {
            const struct tui_binding *b = &ctx[i]->v[r];
            if (!b->hint_en) continue;
            char item[128];
            int il = 0, named = 0, want = b->hint_keys > 0 ? b->hint_keys : 1;
            for (const int *k = b->keys; *k && k < b->keys + TUI_BIND_KEYS && named < want; k++) {
                if (!reaches(ctx, b, *k)) continue;
                /* "↑↓", but "Space/→": a word runs into the next name otherwise */
                if (named && tui_width(item, (size_t)il) > named) item[il++] = '/', item[il] = 0;
                il += tui_key_name(*k, zh, item + il, sizeof item - (size_t)il);
                if (il >= (int)sizeof item) il = (int)sizeof item - 1;
                named++;
            }
            if (!named) continue;
            snprintf(item + il, sizeof item - (size_t)il, " %s", zh ? b->hint_zh : b->hint_en);
            int w = tui_width(item, strlen(item)) + (len ? sw : 0);
            if (cols + w > max_cols) return;
            int wr = snprintf(out + len, n - len, "%s%s", len ? sep : "", item);
            if (wr < 0 || len + (size_t)wr >= n) return;
            len += (size_t)wr, cols += w;
        }
}
