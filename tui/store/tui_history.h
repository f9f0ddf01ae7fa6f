/* tui_history.h - a list of entries kept in the state folder, newest last: the sandbox REPL's
 * input history (`history`, entries of several lines each) and the snapshot files opened before
 * (`recent-snapshots`, a path once, the last opened newest). Entries live in memory and in the
 * file, to which each is added through the state module (tui_state.h): under the lock, to the
 * file as it is then, so two tutors keep each other's entries. One entry per file line, with
 * "\n" and "\\" escaped. No ncurses: unit-tested. */
#ifndef TUI_HISTORY_H
#define TUI_HISTORY_H

#include <stdbool.h>
#include <stddef.h>

#define TUI_HISTORY_MAX 500 /* the oldest entries go beyond this, */
#define TUI_HISTORY_MAX_FILE (4u << 20) /* or beyond this many bytes of file */

struct tui_history;

/* Load dir/history (missing: empty). NULL only when out of memory. */
struct tui_history *tui_history_load(const char *dir);
/* Load dir/name, a list of at most max (<= TUI_HISTORY_MAX) entries; unique: an entry added
 * again moves to the newest place instead of being there twice (recent files). */
struct tui_history *tui_history_open(const char *dir, const char *name, int max, bool unique);
void tui_history_free(struct tui_history *h);
/* Append an entry (blank ones and a repeat of the last are skipped) to the file and show what it
 * holds now. False with err when the file could not be written (the entry is still in memory);
 * true with a note in err when a file that could not be used was kept aside. */
bool tui_history_add(struct tui_history *h, const char *entry, char *err, size_t n);
int tui_history_count(const struct tui_history *h);
/* Entry i, 0 = oldest. */
const char *tui_history_get(const struct tui_history *h, int i);

/* The escaping used on disk (exposed for the tests). Return malloc'ed strings. */
char *tui_history_escape(const char *s);
char *tui_history_unescape(const char *s);

#endif
