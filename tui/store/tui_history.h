/* tui_history.h - the sandbox REPL's input history: entries (possibly several lines each) kept
 * in memory and in $XDG_STATE_HOME/vramlab/history, rewritten crash-safely after each entry.
 * One entry per file line, with "\n" and "\\" escaped. No ncurses: unit-tested. */
#ifndef TUI_HISTORY_H
#define TUI_HISTORY_H

#include <stdbool.h>
#include <stddef.h>

#define TUI_HISTORY_MAX 500 /* the oldest entries go beyond this */

struct tui_history;

/* Load dir/history (missing: empty). NULL only when out of memory. */
struct tui_history *tui_history_load(const char *dir);
void tui_history_free(struct tui_history *h);
/* Append an entry (blank ones and a repeat of the last are skipped) and save. False with err
 * when the file could not be written (the entry is still in memory). */
bool tui_history_add(struct tui_history *h, const char *entry, char *err, size_t n);
int tui_history_count(const struct tui_history *h);
/* Entry i, 0 = oldest. */
const char *tui_history_get(const struct tui_history *h, int i);

/* The escaping used on disk (exposed for the tests). Return malloc'ed strings. */
char *tui_history_escape(const char *s);
char *tui_history_unescape(const char *s);

#endif
