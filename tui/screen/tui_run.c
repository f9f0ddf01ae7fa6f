/* tui_run.c - see tui_run.h. */
#include "tui_run.h"

#include <stdlib.h>

bool tui_run_event(const struct tui_run *r, const struct lt_event *ev)
{
    if (r->rec) tui_rec_event(r->rec, ev); /* the raw event: the recorder writes NULs out */
    if (r->log) tui_evlog_add(r->log, ev);
    if (r->print) r->print(r->print_ud, ev);
    if (!r->ps) return false;
    struct lt_event copy;
    char *text;
    bool changed = tui_panelset_apply(r->ps, lt_event_visible(ev, "\u2400", &copy, &text));
    free(text);
    return changed;
}

void tui_run_sink(void *ud, const struct lt_event *ev) { tui_run_event(ud, ev); }

static void apply(void *ud, const struct lt_event *ev)
{
    struct lt_event copy;
    char *text;
    tui_panelset_apply(ud, lt_event_visible(ev, "\u2400", &copy, &text));
    free(text);
}

bool tui_run_relang(const struct tui_run *r, const char *lang)
{
    if (!r->ps) return false;
    tui_panelset_set_lang(r->ps, lang);
    if (!r->log || !tui_evlog_complete(r->log)) return false;
    tui_panelset_clear(r->ps);
    tui_evlog_replay(r->log, apply, r->ps);
    return true;
}
