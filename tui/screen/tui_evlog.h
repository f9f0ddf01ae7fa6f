/* tui_evlog.h - an experiment's events as it emitted them, kept with its panels so that the
 * panels can be built again in the other language (L) without running it again (a measurement
 * would give other numbers): each text goes back in through the lesson's own pairs
 * (lt_runtime_translate). Bounded: a run past TUI_EVLOG_MAX events stops being kept and stays
 * in the language it ran in. */
#ifndef TUI_EVLOG_H
#define TUI_EVLOG_H

#include <stdbool.h>

#include "lt.h"

#define TUI_EVLOG_MAX 20000

struct tui_evlog;

struct tui_evlog *tui_evlog_new(void);
void tui_evlog_free(struct tui_evlog *g);
void tui_evlog_clear(struct tui_evlog *g); /* a new run */
void tui_evlog_add(struct tui_evlog *g, const struct lt_event *ev);
/* Every event of the run was kept (none dropped for the bound or memory). */
bool tui_evlog_complete(const struct tui_evlog *g);
/* Each kept event, its texts in `lang` where the lesson's pairs know them (rt NULL: as they
 * were), to fn. */
void tui_evlog_replay(const struct tui_evlog *g, const struct lt_runtime *rt, const char *lang,
                      void (*fn)(void *ud, const struct lt_event *ev), void *ud);
/* One event so: its texts in out's own buffers (valid until the next call); returns out. */
const struct lt_event *tui_evlog_translate(const struct lt_event *ev, const struct lt_runtime *rt,
                                           const char *lang, struct lt_event *out);

#endif
