/* tui_lineedit.h - the one line editor, shared by the lesson's answer field and the REPL prompt:
 * UTF-8 text edited by glyph (a wide CJK glyph, or a letter with its combining marks, moves and
 * deletes as one), readline's Ctrl keys, an optional history to browse, and the visible window of
 * a field narrower than the text, scrolled so the cursor shows. Its keys are two tables
 * (tui_lineedit_keys, tui_lineedit_history_keys) that the screens put in their key contexts.
 * Pure: no ncurses calls; unit-tested. */
#ifndef TUI_LINEEDIT_H
#define TUI_LINEEDIT_H

#include <stdbool.h>
#include <stddef.h>

#include "lt_limits.h"
#include "tui_keys.h"

#define TUI_LINE_MAX (LT_TYPED_MAX + 1)

/* Entries to browse with ↑ ↓ (oldest first). */
struct tui_history_hook {
    void *ud;
    int (*count)(void *ud);
    const char *(*get)(void *ud, int i);
};

struct tui_lineedit {
    char s[TUI_LINE_MAX]; /* the text (may hold '\n': a recalled multi-line entry) */
    int len, cur, max;    /* max: bytes it may hold (< TUI_LINE_MAX) */
    struct tui_history_hook hist;
    int hpos;                   /* browsing: the entry shown (count: the line being typed) */
    char typed[TUI_LINE_MAX];   /* the line being typed, kept while browsing */
};

/* An empty editor for at most max bytes (0 or too big: TUI_LINE_MAX - 1). */
void tui_lineedit_init(struct tui_lineedit *e, int max);
/* Replace the text (cut at a glyph boundary to fit), cursor at the end. */
void tui_lineedit_set(struct tui_lineedit *e, const char *s);
/* Insert at the cursor; false (and nothing inserted) when it does not fit. */
bool tui_lineedit_insert(struct tui_lineedit *e, const char *s, size_t n);
/* Delete the glyph under the cursor. */
void tui_lineedit_delete(struct tui_lineedit *e);
/* Glyph boundaries around byte i: a code point with the zero-width marks that follow it. */
int tui_lineedit_next(const struct tui_lineedit *e, int i);
int tui_lineedit_prev(const struct tui_lineedit *e, int i);
/* Leave browsing: the next ↑ starts from the newest entry (after a submit). */
void tui_lineedit_history_reset(struct tui_lineedit *e);

/* ← → Home End Backspace Delete, Ctrl-A E B F K U W, typed text. */
extern const struct tui_keymap tui_lineedit_keys;
/* ↑ ↓ Ctrl-P Ctrl-N through the history hook. */
extern const struct tui_keymap tui_lineedit_history_keys;

/* The part of the text a field `width` columns wide shows, scrolled so the cursor fits, with
 * each '\n' shown as `nl`: written to out (NUL-terminated, never a cut glyph); *cursor gets the
 * cursor's column in it. */
void tui_lineedit_view(const struct tui_lineedit *e, int width, const char *nl, char *out,
                       size_t cap, int *cursor);

#endif
