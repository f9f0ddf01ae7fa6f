/* tui_theme.h - the one table of what each style looks like: semantic roles (measured,
 * simulated, replayed, theoretical, warning, error, accent, chrome) and a separate series
 * palette, for a dark and a light theme in 8, 16 and 256 colours, plus mono (attributes only).
 * Pure (no ncurses): tui_term.c turns a look into curses pairs; the unit test computes the WCAG
 * contrast of every look against the theme's background from the palette here. */
#ifndef TUI_THEME_H
#define TUI_THEME_H

#include <stdbool.h>
#include <stddef.h>

#include "tui_style.h"

enum tui_theme { TUI_THEME_DARK, TUI_THEME_LIGHT, TUI_THEME_MONO };
enum tui_depth { TUI_DEPTH_8, TUI_DEPTH_16, TUI_DEPTH_256 };
enum { TUI_A_BOLD = 1, TUI_A_UNDER = 2, TUI_A_REV = 4, TUI_A_DIM = 8, TUI_A_ITALIC = 16 };

struct tui_look {
    short fg, bg; /* palette index, -1: the terminal's default */
    int attr;     /* TUI_A_* added to the colour */
};

/* The look of a style; mono ignores depth (fg = bg = -1). */
struct tui_look tui_theme_look(enum tui_theme t, enum tui_depth d, int style);
/* Attributes a style has without colour (mono, NO_COLOR). */
int tui_theme_mono(int style);
/* The background a theme is designed for: a palette index (black or white). */
int tui_theme_bg(enum tui_theme t, enum tui_depth d);
/* The default foreground the theme assumes where a look leaves it at -1. */
int tui_theme_fg(enum tui_theme t, enum tui_depth d);
/* The smallest contrast a style must keep: 4.5 for text, 3 for rules, chart lines, marks. */
double tui_theme_min_contrast(int style);
bool tui_theme_is_series(int style);

/* "dark" / "light" / "mono" -> theme; -1 for anything else. */
int tui_theme_parse(const char *name);
/* The default from COLORFGBG ("fg;bg" or "fg;default;bg"): a light background (7, 15, or a
 * 256-colour index that is light) -> light; otherwise (and unset) dark. */
enum tui_theme tui_theme_detect(const char *colorfgbg);

/* The terminal's background, asked for with OSC 11 ("ESC ] 11 ; ? ST") followed by a device
 * attributes request (DA1, "ESC [ c") that every terminal answers, in order: a terminal that
 * knows OSC 11 answers it first, so DA1's answer says that everything has come (and, alone,
 * "no colour to report") without waiting for a timeout. tui_theme_bg_reply reads what came back
 * so far: DONE once DA1's answer is in, else MORE. *got_rgb is set when the colour came ("rgb:"
 * or "rgba:" with 1-4 hex digits a component, ended by BEL or ST), with rgb filled; *end gets
 * the bytes up to the end of DA1's answer (what follows is typeahead). */
enum tui_bg_reply { TUI_BG_MORE, TUI_BG_DONE };
#define TUI_BG_QUERY "\033]11;?\033\\\033[c"
enum tui_bg_reply tui_theme_bg_reply(const char *buf, size_t n, unsigned char rgb[3], bool *got_rgb,
                                     size_t *end);
/* The theme for a background colour: light when dark text on it has more contrast than light
 * text (WCAG relative luminance above 0.179), else dark. */
enum tui_theme tui_theme_for_rgb(const unsigned char rgb[3]);
/* WCAG 2 contrast of palette entry fg on an arbitrary background colour. */
double tui_contrast_rgb(int fg, const unsigned char bg[3]);

/* The standard xterm palette: 0-15 as xterm's defaults, 16-231 the 6x6x6 cube, 232-255 grey. */
void tui_palette_rgb(int index, unsigned char rgb[3]);
double tui_contrast(int fg, int bg); /* WCAG 2 contrast ratio of two palette entries, 1..21 */

#endif
