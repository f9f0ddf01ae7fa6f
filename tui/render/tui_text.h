/* tui_text.h - lesson markup as plain text: headings underlined, lists indented, tables aligned
 * by display width, code indented, callouts labelled in the language given; the emphasis
 * markers dropped. For the headless output (tui_plain.c) and the files made for the learner
 * (an exercise's template). */
#ifndef TUI_TEXT_H
#define TUI_TEXT_H

#include <stdio.h>

/* Markup source src to f as plain text; a source that does not parse is printed as it is, after
 * a line that says why. */
void tui_text_markup(FILE *f, const char *src, const char *lang);

#endif
