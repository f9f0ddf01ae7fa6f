/* tui_term.h - the one module that owns the terminal (htop's CRT): set-up and restore on every
 * exit path (normal, atexit, SIGINT/SIGTERM/SIGHUP/SIGQUIT as flags, fatal signals restored
 * in the handler with async-signal-safe calls, then re-raised), colours with meaning and their
 * NO_COLOR / monochrome fallback, and drawing UTF-8 text clipped by display width. */
#ifndef TUI_TERM_H
#define TUI_TERM_H

#include <stdbool.h>
#include <stddef.h>

#include "tui_render.h"

/* Open the terminal (newterm on stdin/stdout). On failure returns false with a reason; the
 * terminal is untouched then. */
bool tui_term_init(char *err, size_t n);
/* Restore the terminal; safe to call more than once. */
void tui_term_done(void);
bool tui_term_active(void);
/* Hand the terminal to `cmd "$arg"` run by /bin/sh (an editor: "$EDITOR" may carry options) and
 * take it back afterwards; ^C and ^\ go to the program meanwhile. Returns its exit status
 * (127: it could not be run, 128+N: killed by signal N, -1: no terminal or no fork). */
int tui_term_run(const char *cmd, const char *arg);

bool tui_term_utf8(void);  /* the locale's codeset is UTF-8: wide glyphs, box drawing */
bool tui_term_color(void); /* colours in use (a colour terminal and NO_COLOR unset) */
/* The colour theme (enum tui_theme): set by --theme or VRAMLAB_THEME (`by` names which) before
 * tui_term_init; otherwise tui_term_init asks the terminal for its background (OSC 11, at most
 * TUI_BG_WAIT_MS; a terminal that does not know OSC 11 answers the DA1 sent after it at once),
 * then reads COLORFGBG, then takes dark. NO_COLOR: mono. tui_term_theme is the one in use. */
#define TUI_BG_WAIT_MS 200
void tui_term_set_theme(int theme, const char *by);
int tui_term_theme(void);
/* One line saying which theme is in use and why, for the help overlay. */
void tui_term_theme_line(char *out, size_t n, bool zh);

/* A quit signal that arrived (SIGINT, SIGTERM, SIGHUP, SIGQUIT), or 0. A second one does not
 * wait for the loop: the handler restores the terminal and exits (128 + N) at once. */
int tui_term_signal(void);
/* The first quit signal and when it came (CLOCK_MONOTONIC seconds), or 0: for the watchdog. 0
 * too while an editor started by tui_term_run owns the terminal (the loop waits for it). */
int tui_term_signal_since(double *at);
/* Put the terminal back (saved modes, leave the alternate screen, cursor on) with
 * async-signal-safe calls only: from a signal handler or another thread, when the loop that owns
 * the terminal cannot. Nothing when the tutor has no screen. */
bool tui_term_emergency_restore(void); /* true when there was a screen to put back */

/* A frame: tui_term_frame_begin blanks the screen and starts composing in a cell grid
 * (tui_grid.h), every drawing call below writes into it, tui_term_frame_end hands it to ncurses
 * row by row (then the caller refreshes). Outside a frame the calls draw directly. */
void tui_term_frame_begin(void);
void tui_term_frame_end(void);

/* ncurses attributes (with colour pair) for a style. */
int tui_term_attr(int style);
/* Attributes added to everything drawn until reset with 0 (a selected row: A_REVERSE). */
void tui_term_extra(int attrs);

/* Draw s[0..n) at (y, x) within `w` columns, each byte's style from st (or all `style` when st
 * is NULL); never draws past x + w and never half a wide glyph. Controls draw as '?', glyphs
 * the locale cannot show as '?'. Returns the columns drawn. */
int tui_term_put(int y, int x, int w, const char *s, size_t n, const unsigned char *st, int style);
/* A rendered line, horizontally clipped, then padded with `fill` style to w columns. */
void tui_term_line(int y, int x, int w, const struct tui_line *l, int fill);
/* A string in one style padded to exactly w columns; one too wide is cut at a word boundary
 * and ends in an ellipsis ("…", "~" without UTF-8). */
void tui_term_text(int y, int x, int w, const char *s, int style);
void tui_term_fill(int y, int x, int h, int w, int style);
/* A full-width bar (title or status line): `left`, and `right` kept whole at the right end when
 * there is room for both. */
void tui_term_bar(int y, int w, const char *left, const char *right, int style);
/* A screen's header strip: tui_term_bar with, when `sim`, a reverse-video " SIMULATED " badge
 * (" SIMULATED 模拟 " in 中文) before `right`: the one place a screen says SIMULATED. */
void tui_term_title_bar(int y, int w, const char *left, const char *right, bool sim, bool zh,
                        int style);

#endif
