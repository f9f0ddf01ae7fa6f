/* tui.h - the ncurses front ends, called by main.c when stdout is a terminal: the tutor and the
 * presenter. */
#ifndef TUI_H
#define TUI_H

#include "lt.h"

struct tui_rec;
struct tui_replay;

struct tui_opts {
    const char *lessons_dir; /* folder scanned with lt_catalog_scan */
    const char *open_lesson; /* open this lesson id directly (NULL: the menu) */
    const char *fallback_why; /* why the real GPU backend did not open ("" when it did) */
    struct tui_rec *rec;              /* --record: every experiment run is saved (NULL: off) */
    const struct tui_replay *replay;  /* --replay: experiments play this back, nothing is
                                         measured (NULL: live) */
    const char *warning;              /* said once on the status line (NULL or "": none) */
};

/* Runs until the user quits; restores the terminal on every exit path. Returns an exit code. */
int tui_run(struct lt_runtime *rt, const struct tui_opts *opts);

/* Presenter mode (tui_present.c): one lesson step by step, key figures in big digits. */
int tui_present(struct lt_runtime *rt, const struct tui_opts *opts);

/* The key contexts of the presenter (on an experiment step: run_keys; on a question: ask_keys)
 * and of `vramlab watch` (tui_watch.c), for the test that help lists exactly what the keys do. */
struct tui_keymap;
extern const struct tui_keymap *const tui_present_keys[], *const tui_present_run_keys[],
    *const tui_present_ask_keys[], *const tui_present_running_keys[], *const tui_present_held_keys[],
    *const tui_watch_keys[], *const tui_watch_list_keys[],
    *const tui_watch_checking_keys[];

#endif
