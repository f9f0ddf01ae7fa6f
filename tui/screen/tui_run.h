/* tui_run.h - the one consumer of an experiment's events. Every screen that shows a run (the
 * lesson view, the presenter, the REPL's panel, the snapshot screen's map) and `vramlab run`
 * hand each event to tui_run_event with what it has: a recording to write it to, a log to keep
 * it in (so L shows it in the other language, and a lesson left and opened again shows it as
 * it was), the panels to draw it on, the printer (`vramlab run`'s plain or JSON lines). The order is always
 * record, keep, show; a print()'s NUL bytes are made visible for the screen ("\u2400") and the
 * printer ("\\0"). `vramlab watch` shows only a check's print() lines, with a sink of its own.
 * No ncurses (the panel set draws into lines): tests/unit/test_tui_evlog.c. */
#ifndef TUI_RUN_H
#define TUI_RUN_H

#include <stdbool.h>

#include "lt.h"
#include "tui_evlog.h"
#include "tui_panel.h"
#include "tui_record.h"

struct tui_run {
    struct tui_rec *rec;      /* where the run is recorded (NULL: it is not) */
    struct tui_evlog *log;    /* where its events are kept (NULL: they are not) */
    struct tui_panelset *ps;  /* the panels it is shown on (NULL: none) */
    lt_sink_fn print;         /* the plain or JSON printer (tui_plain_sink; NULL: none) */
    void *print_ud;
};

/* One event through the run; true when the panels changed. */
bool tui_run_event(const struct tui_run *r, const struct lt_event *ev);
/* An lt_sink_fn over a struct tui_run. */
void tui_run_sink(void *ud, const struct lt_event *ev);
/* The panels in another language: the kept events applied again (when every event was kept;
 * else the panels keep what they show). Returns whether they were built again. */
bool tui_run_relang(const struct tui_run *r, const char *lang);

#endif
