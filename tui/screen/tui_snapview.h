/* tui_snapview.h - the snapshot screen: a PyTorch memory snapshot in the terminal (timeline of
 * requested and reserved bytes with zoom and a cursor, the largest allocations live at the
 * cursor, the stack of the selected one, and a what-if replay through the allocator model). */
#ifndef TUI_SNAPVIEW_H
#define TUI_SNAPVIEW_H

#include <stdbool.h>

#include "tui_keys.h"

/* Open `path` in the screen until q/Esc; the terminal is set up and restored here. Returns an
 * exit code: 0, 1 when the file cannot be read as a snapshot (the message is shown first), 3
 * without a terminal, 128 + N after a quit signal. */
int tui_snapview(const char *path, bool zh);
/* From the tutor's menu, on its terminal: a file prompt with Tab completion and the examples
 * (assets/snapshots/ of each colon-separated folder: a teacher's lessons folders, then the data
 * folder), then the screen for the file chosen; Esc comes back. */
void tui_snapview_pick(const char *folders, bool *zh); /* *zh: the language L left it in */

/* The key contexts of the screen and of the file prompt (tests check help against keys). */
extern const struct tui_keymap *const tui_snapview_keys[];
extern const struct tui_keymap *const tui_snapview_pick_keys[];
/* The second snapshot's path prompt (b). */
extern const struct tui_keymap *const tui_snapview_b_keys[];

#endif
