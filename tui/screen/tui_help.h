/* tui_help.h - the help overlay of every screen, generated from its key contexts (tig's help.c
 * walks its keymaps): a section per table, a row per action listing exactly the keys that reach
 * it there, then notes that are not keys (what a colour or a tag means). A box over the middle
 * of the screen that scrolls like every other view. tui_help_lines is pure (no ncurses). */
#ifndef TUI_HELP_H
#define TUI_HELP_H

#include <stdbool.h>

#include "tui_keys.h"
#include "tui_layout.h"
#include "tui_render.h"
#include "tui_scroll.h"

/* A row that is not a key. */
struct tui_help_note {
    const char *label, *en, *zh;
    const char *label_zh; /* the label in 中文 (NULL: a tag shown as is on screen, SIM) */
};

#define TUI_HELP_CTX_MAX 4
struct tui_help {
    bool open;
    struct tui_scroll sc;
    /* the contexts listed, the one in effect first; a table already listed is not repeated */
    const struct tui_keymap *const *ctx[TUI_HELP_CTX_MAX];
    int nctx;
    const struct tui_help_note *notes;
    int nnotes;
    struct tui_rect r; /* where it was drawn: a click outside closes it */
};

void tui_help_open(struct tui_help *h, const struct tui_keymap *const *const *ctx, int nctx,
                   const struct tui_help_note *notes, int nnotes);
/* Draw the box in r (the layout's help rectangle). */
void tui_help_draw(struct tui_help *h, const struct tui_rect *r, bool zh, bool ascii);
/* A key while the overlay is open: scrolls it, or closes it. */
void tui_help_key(struct tui_help *h, const struct tui_key *k);
/* The keys the open overlay answers to (its footer hints come from here too). */
extern const struct tui_keymap *const tui_help_keys[];

/* The overlay's text for `width` columns, appended to L. */
void tui_help_lines(struct tui_lines *L, const struct tui_keymap *const *const *ctx, int nctx,
                    const struct tui_help_note *notes, int nnotes, int width, bool zh,
                    bool ascii);
/* The key column of a help row is this wide at `width` (longer key lists get a line of their
 * own). */
int tui_help_key_cols(int width);

#endif
