/* tui_evlog.h - an experiment's events as it emitted them, kept with its panels so that the
 * panels can be built again in the other language (L) without running it again (a measurement
 * would give other numbers): every event carries its texts in both languages (lt_event.h), so
 * building again is applying them again. Bounded: a run past TUI_EVLOG_MAX events stops being
 * kept and stays in the language it ran in. Pure: no ncurses; tests/unit/test_tui_evlog.c. */
#ifndef TUI_EVLOG_H
#define TUI_EVLOG_H

#include <stdbool.h>

#include "lt.h"

#define TUI_EVLOG_MAX 20000

struct tui_evlog;

struct tui_evlog *tui_evlog_new(void);
void tui_evlog_free(struct tui_evlog *g);
void tui_evlog_clear(struct tui_evlog *g); /* a new run */
/* Keep a deep copy of ev (its strings, cells and blocks). */
void tui_evlog_add(struct tui_evlog *g, const struct lt_event *ev);
/* Every event of the run was kept (none dropped for the bound or memory). */
bool tui_evlog_complete(const struct tui_evlog *g);
int tui_evlog_count(const struct tui_evlog *g);
/* Each kept event, in order, to fn. */
void tui_evlog_replay(const struct tui_evlog *g, void (*fn)(void *ud, const struct lt_event *ev),
                      void *ud);

#endif
