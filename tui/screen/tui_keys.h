/* tui_keys.h - keys and key tables (tig's keymaps). A screen state answers to a context: a
 * NULL-terminated list of tables, searched in order; each table row is {keys, action, en, zh,
 * footer hint}. The same context drives the dispatch, the help overlay (tui_help.c lists, per
 * table, exactly the keys that reach each row) and the footer hints, so help cannot drift from
 * what the keys do. No drawing here; tui_key_name is pure and unit-tested with the tables. */
#ifndef TUI_KEYS_H
#define TUI_KEYS_H

#include <stdbool.h>
#include <stddef.h>

/* A key as the loop delivers it: a character (Enter is '\n', Esc 27, Tab '\t', Ctrl-X its
 * control code; '\r' and KEY_ENTER arrive as '\n', 8 and 127 as Backspace), a function key
 * TUI_KEY_FN(KEY_...), or a mouse event with the cell it happened on. */
#define TUI_KEY_FN(c) (0x200000 + (c))
enum {
    TUI_KEY_WHEEL_UP = 0x300000,
    TUI_KEY_WHEEL_DOWN,
    TUI_KEY_CLICK,
    TUI_KEY_TEXT, /* in a table: any printable character the rows before it do not take */
};
#define TUI_KEY_ENTER '\n'
#define TUI_KEY_ESC 27
#define TUI_CTRL(c) ((c) & 0x1f)

struct tui_key {
    int code;
    int y, x; /* a mouse event: where */
};

/* What a table's actions receive: the screen's own state, or one of the shared widgets. */
enum tui_target { TUI_TO_SCREEN, TUI_TO_SCROLL, TUI_TO_EDIT };
struct tui_targets {
    void *screen, *scroll, *edit;
};

#define TUI_BIND_KEYS 10
struct tui_binding {
    int keys[TUI_BIND_KEYS]; /* 0-terminated */
    void (*run)(void *target, const struct tui_key *k);
    const char *en, *zh;           /* what it does, for the help overlay */
    const char *hint_en, *hint_zh; /* footer label after the key's name (NULL: not shown there) */
    int hint_keys;                 /* key names before that label (0: one) */
};

struct tui_keymap {
    const char *title_en, *title_zh; /* the help overlay's section */
    enum tui_target target;
    const struct tui_binding *v;
    int n;
};
#define TUI_KEYMAP(title_en, title_zh, target, rows) \
    {title_en, title_zh, target, rows, (int)(sizeof rows / sizeof *rows)}

/* A context: the tables a screen state answers to, in lookup order, NULL-terminated. */
typedef const struct tui_keymap *const tui_keyctx[];

bool tui_key_printable(int code);
/* "↑", "PgDn", "Enter", "Space", "Ctrl-A", "F1", "wheel ↓", "q". Returns the length. */
int tui_key_name(int code, bool zh, char *out, size_t n);

/* The row a key reaches in ctx (NULL: none), and the index of its table. */
const struct tui_binding *tui_keys_resolve(const struct tui_keymap *const *ctx, int code,
                                           int *map);
/* Run the row k reaches; returns its table (NULL: the key does nothing here). A table whose
 * target is NULL in t is left out. */
const struct tui_keymap *tui_keys_dispatch(const struct tui_keymap *const *ctx,
                                           const struct tui_targets *t, const struct tui_key *k);
/* The names of b's keys that reach b in ctx (b must belong to ctx), space separated, runs of
 * three or more consecutive characters as "1-9". Returns how many keys were named (0: b is
 * unreachable in ctx). */
int tui_keys_names(const struct tui_keymap *const *ctx, const struct tui_binding *b, bool zh,
                   char *out, size_t n);
/* The footer: "KEY label" for each reachable row with a hint, in lookup order, joined by sep,
 * as many as fit in max_cols columns. */
void tui_keys_hints(const struct tui_keymap *const *ctx, bool zh, const char *sep, int max_cols,
                    char *out, size_t n);

#endif
