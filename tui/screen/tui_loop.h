/* tui_loop.h - the one event loop of every ncurses screen (the tutor, the presenter, watch), tig
 * and htop style: each turn do pending work, draw with wnoutrefresh/doupdate when something
 * changed, then wait for a key. Everything a screen must not get wrong lives here once: quit
 * signals (tui_term's flags) end the loop with 128 + N, KEY_RESIZE redraws whatever is open,
 * modals included, a terminal below the screen's minimum shows "too small" (q or Esc still
 * work), the input timeout follows the work (idle: wait long; a worker measuring: 50 ms; Lua
 * computing in slices: only peek for a key between them), keys are normalised (Enter, Backspace,
 * mouse) and a key is answered on screen before the next slice of work. */
#ifndef TUI_LOOP_H
#define TUI_LOOP_H

#include <stdbool.h>

#include "lt.h"
#include "tui_keys.h"

struct tui_screen_ops {
    void *ud;
    struct lt_runtime *rt; /* the language of the "too small" screen; is Lua computing? */
    void (*draw)(void *ud);                       /* paint stdscr (already erased) */
    void (*key)(void *ud, const struct tui_key *k);
    bool (*quit)(void *ud);                       /* the screen is done */
    bool (*tick)(void *ud);                       /* pending work; true: redraw (NULL: none) */
    bool (*busy)(void *ud);                       /* work runs: wake often (NULL: never) */
    void (*back)(void *ud);                       /* q / Esc on "too small" (NULL: quit) */
    bool (*cursor)(void *ud, int *y, int *x);     /* where the cursor shows (NULL: hidden) */
    int idle_ms;        /* key wait when idle (0: 1000) */
    int anim_ms;        /* while busy, redraw this often for a spinner (0: on change only) */
    int min_rows, min_cols;
};

/* Run until ops->quit says so (0) or a quit signal arrives (128 + N). */
int tui_loop_run(const struct tui_screen_ops *ops);
/* Paint now: for a screen that blocks for a moment inside a key or a tick ("checking…"). */
void tui_loop_paint(const struct tui_screen_ops *ops);

/* Keys every screen answers to (Ctrl-L redraws): the last table of every context. */
extern const struct tui_keymap tui_loop_keys;

#endif
