/* tui_watchdog.h - the last resort against a run that does not stop: a thread that watches what
 * the sandbox runs (lt_runtime_activity) and the quit signals, and when a run is well past its
 * limit, or a quit signal has waited ~2 s for a loop that does not come, restores the terminal,
 * says what was running, and exits. Every limit is enforced where the work happens first
 * (lua/); this thread only acts when that failed. */
#ifndef TUI_WATCHDOG_H
#define TUI_WATCHDOG_H

#include "lt.h"

/* The exit code when the watchdog ends a run that did not stop at its limit. (A quit signal the
 * loop did not answer ends with 128 + the signal, as the loop would have.) */
#define TUI_WATCHDOG_EXIT 6
/* How long past its limit a run may go before the watchdog acts: as long again as the limit,
 * at most WATCHDOG_MAX_MARGIN (5 s). */
double tui_watchdog_margin(double limit);

/* Start watching rt (once per process); stop before rt is freed. */
void tui_watchdog_start(struct lt_runtime *rt);
void tui_watchdog_stop(void);
/* For lt_runtime_set_fatal: the terminal back before a fatal error is printed. */
void tui_watchdog_fatal(const char *msg);

#endif
