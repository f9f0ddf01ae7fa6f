/* tui.h - the ncurses tutor's entry point, called by main.c when stdout is a terminal. */
#ifndef TUI_H
#define TUI_H

#include "lt.h"

struct tui_opts {
    const char *lessons_dir; /* folder scanned with lt_catalog_scan */
    const char *open_lesson; /* open this lesson id directly (NULL: the menu) */
    const char *fallback_why; /* why the real GPU backend did not open ("" when it did) */
};

/* Runs until the user quits; restores the terminal on every exit path. Returns an exit code. */
int tui_run(struct lt_runtime *rt, const struct tui_opts *opts);

#endif
