/* tui_app.h - state shared by the tutor's screens (menu, lesson view, sandbox REPL, help overlay) and the
 * event loop in tui.c. Each screen draws from this state and turns keys into state changes;
 * only tui.c talks to the terminal's input. */
#ifndef TUI_APP_H
#define TUI_APP_H

#include <stdbool.h>

#include "lt.h"
#include "tui.h"
#include "tui_layout.h"
#include "tui_panel.h"
#include "tui_progress.h"
#include "tui_record.h"
#include "tui_render.h"

/* A key: a function key (KEY_UP, KEY_RESIZE, KEY_MOUSE, ...) or a typed character. */
struct tui_key {
    bool fn;
    int code;
    int my, mx;   /* KEY_MOUSE: where */
    int mbutton;  /* KEY_MOUSE: 1 click, 4 wheel up, 5 wheel down */
};

enum tui_screen { TUI_SCR_MENU, TUI_SCR_LESSON, TUI_SCR_REPL };
enum tui_mark { TUI_NEW, TUI_STARTED, TUI_DONE };

struct tui_lesson;
struct tui_repl;

struct tui_app {
    struct lt_runtime *rt;
    const struct tui_opts *opts;
    bool ascii; /* not a UTF-8 locale: ASCII glyphs, English only */
    bool quit;
    bool dirty;
    enum tui_screen screen;
    struct tui_layout lay;
    char backend[256];
    char notice[256]; /* one line shown in the status bar until the next key */
    /* help overlay */
    bool help;
    int help_top;
    /* lesson catalog and the menu */
    struct lt_catalog_entry *cat;
    int ncat;
    unsigned char *progress; /* enum tui_mark per catalog entry, from `saved` */
    struct tui_progress *saved; /* the learner's saved progress (NULL: out of memory) */
    int menu_sel, menu_top;
    struct tui_lines menu_lines;
    int menu_width; /* width menu_lines were built for (0: rebuild) */
    /* the open lesson */
    struct tui_lesson *lv;
    /* the sandbox REPL (created on first use, kept for the session) */
    struct tui_repl *repl;
    enum tui_screen repl_back; /* where Esc returns to */
    bool repl_eval;            /* events now come from the REPL, not an experiment */
    /* --replay: what the status line and panels say instead of this machine */
    char replay_label[256];
    /* No GPU here, but a shipped recording: offered above the lessons (r), real GPUs first.
     * Taken, it becomes the replay of opts_own, as --replay would. */
    bool has_offer;
    struct tui_rec_offer offer;
    struct tui_replay *offered; /* loaded when taken; NULL while the simulator measures */
    struct tui_opts opts_own;
};

/* tui.c: take the offered recording, or go back to the simulator. */
void tui_app_toggle_offer(struct tui_app *a);

const char *tui_app_lang(const struct tui_app *a); /* "en" / "zh" */
bool tui_app_zh(const struct tui_app *a);
/* Pick a string by language. */
#define TUI_TR(app, en, zh) (tui_app_zh(app) ? (zh) : (en))

/* tui.c: saved progress changed: write it (a failure goes to the status line) and refresh the
 * menu marks. */
void tui_app_progress_changed(struct tui_app *a);

/* tui_menu.c */
void tui_menu_invalidate(struct tui_app *a);
void tui_menu_draw(struct tui_app *a);
/* Returns a catalog index to open, or -1. */
int tui_menu_key(struct tui_app *a, const struct tui_key *k);

/* tui_lesson.c */
struct tui_lesson *tui_lesson_open(struct tui_app *a, int cat_index);
void tui_lesson_close(struct tui_app *a); /* cancels a running experiment first */
void tui_lesson_draw(struct tui_app *a);
void tui_lesson_key(struct tui_app *a, const struct tui_key *k);
bool tui_lesson_running(const struct tui_app *a);
bool tui_lesson_editing(const struct tui_app *a); /* an answer field has the keyboard */
bool tui_lesson_grading(const struct tui_app *a); /* an answer is being graded (Esc cancels) */
/* Step a running experiment; true when something changed on screen. */
bool tui_lesson_tick(struct tui_app *a);
void tui_lesson_lang_changed(struct tui_app *a);
void tui_lesson_sink(struct tui_app *a, const struct lt_event *ev);
/* Where the terminal cursor goes (an answer field being edited); false when hidden. */
bool tui_lesson_cursor(const struct tui_app *a, int *y, int *x);
int tui_lesson_cat_index(const struct tui_app *a);

/* tui_repl.c: the sandbox REPL screen */
bool tui_repl_enter(struct tui_app *a); /* false (with a notice) when the VM cannot start */
void tui_repl_free(struct tui_app *a);
void tui_repl_draw(struct tui_app *a);
void tui_repl_key(struct tui_app *a, const struct tui_key *k);
void tui_repl_sink(struct tui_app *a, const struct lt_event *ev);
bool tui_repl_cursor(const struct tui_app *a, int *y, int *x);
bool tui_repl_busy(const struct tui_app *a); /* an entry is being evaluated */
bool tui_repl_tick(struct tui_app *a);       /* step it; true when it finished */

/* tui_help.c */
void tui_help_draw(struct tui_app *a);
void tui_help_key(struct tui_app *a, const struct tui_key *k);

#endif
