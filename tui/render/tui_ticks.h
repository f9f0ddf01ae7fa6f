/* tui_ticks.h - where an axis puts its ticks: at round values, a step of 1, 2 or 5 times a power
 * of ten (0, 500, 1,000, 1,500; 0, 0.2, 0.4), as many as the room allows and no more, so a
 * reader can interpolate between two labels at a glance (Heckbert's "nice numbers"; the same
 * steps as gnuplot's and matplotlib's default locators). Pure; unit-tested by
 * tests/unit/test_tui_ticks.c. */
#ifndef TUI_TICKS_H
#define TUI_TICKS_H

/* The smallest step of 1, 2 or 5 x 10^k that covers `span` in at most `max_steps` steps
 * (max_steps >= 1; span > 0 and finite, else 1). */
double tui_tick_step(double span, int max_steps);

/* The ticks of a linear axis over [lo, hi]: every multiple of the step in it, at most
 * `max_ticks` of them (>= 2) and at most `cap` written to out. Returns the count; *step gets the
 * step. lo > hi is taken as hi..lo; lo == hi gives that one value. Values within a millionth of
 * a step of a multiple are that multiple (0.30000000000000004 is 0.3). */
int tui_ticks_linear(double lo, double hi, int max_ticks, double *out, int cap, double *step);

/* The top of a linear axis from 0 that holds `max` in at most `max_steps` round steps: the
 * first multiple of the step at or above max (1 when max <= 0 or is not finite). *step gets
 * the step. */
double tui_ticks_top(double max, int max_steps, double *step);

#endif
