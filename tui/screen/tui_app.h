/* tui_app.h - state shared by the tutor's views (menu, lesson view, sandbox REPL) and the help
 * overlay, and the view interface (tig's view_ops): each view draws from this state and names
 * the key context it answers to now; tui.c runs them in the one event loop (tui_loop.c). Only the
 * loop reads the terminal's input. */
#ifndef TUI_APP_H
#define TUI_APP_H

#include <stdbool.h>

#include "lt.h"
#include "lt_course.h"
#include "tui.h"
#include "tui_evlog.h"
#include "tui_help.h"
#include "tui_keys.h"
#include "tui_layout.h"
#include "tui_loop.h"
#include "tui_panel.h"
#include "tui_progress.h"
#include "tui_record.h"
#include "tui_render.h"
#include "tui_scroll.h"

enum tui_mark { TUI_NEW, TUI_STARTED, TUI_DONE };

struct tui_app;
struct tui_lesson;
struct tui_repl;

struct tui_view {
    void (*draw)(struct tui_app *a);
    bool (*cursor)(const struct tui_app *a, int *y, int *x); /* false: hidden */
    /* The key context it answers to now, with the targets of its tables; k (NULL for help and
     * hints) says where a mouse event points, which picks the view a wheel scrolls. */
    const struct tui_keymap *const *(*keys)(struct tui_app *a, const struct tui_key *k,
                                            struct tui_targets *t);
    void (*title)(const struct tui_app *a, char *out, size_t n);
    void (*back)(struct tui_app *a); /* q on the "too small" screen: one level back */
    void (*scrolled)(struct tui_app *a, struct tui_scroll *s); /* after a scroll key (NULL) */
    const struct tui_keymap *const *also; /* a context the help lists too (NULL: none) */
    /* Its life in the tutor; the app calls these for every view (NULL: nothing to do). */
    bool (*show)(struct tui_app *a); /* becoming the view (tui_app_show): false, with a notice,
                                      * keeps the one shown */
    bool (*open)(struct tui_app *a, int item); /* open catalog entry item in it, closing the one
                                                * open (-1: opts->open_lesson); false: no memory */
    bool (*busy)(const struct tui_app *a);     /* its code runs: the loop ticks it */
    bool (*tick)(struct tui_app *a);           /* step that code; true when the screen changed */
    /* an event of the code it runs, while it is a->events_to */
    void (*sink)(struct tui_app *a, const struct lt_event *ev);
    void (*lang_changed)(struct tui_app *a); /* L: what it holds, in the language now on */
    void (*close)(struct tui_app *a);        /* the tutor ends: everything it holds back */
};
/* The views. The app names only these objects; a view names no other view's function, and
 * switches through tui_app_show. */
extern const struct tui_view tui_menu_view, tui_lesson_view, tui_repl_view;

struct tui_app {
    struct lt_runtime *rt;
    const struct tui_opts *opts;
    bool ascii; /* not a UTF-8 locale: ASCII glyphs, English only */
    bool quit;
    bool dirty; /* set by the sinks and finished work: the next tick redraws */
    const struct tui_view *view;
    const struct tui_view *events_to; /* the view whose Lua code runs now: the runtime's
                                       * events go to its sink (NULL: dropped) */
    struct tui_layout lay;
    char backend[256];
    char notice[256]; /* one line shown in the status bar until the next key */
    char notice_bad[256]; /* the last error or warning given: the notice shows in the error style
                           * only while it is that text (information never does) */
    struct tui_help help;
    /* lesson catalog and the menu */
    struct lt_catalog_entry *cat;
    int ncat;
    struct lt_course course; /* a teacher's course.lua, its title on the menu (path "": none) */
    unsigned char *progress; /* enum tui_mark per catalog entry, from `saved` */
    struct tui_progress *saved; /* the learner's saved progress (NULL: out of memory) */
    int menu_sel;
    struct tui_scroll menu_sc;
    struct tui_lines menu_lines;
    int menu_width; /* width menu_lines were built for (0: rebuild: what it lists changed) */
    /* the open lesson */
    struct tui_lesson *lv;
    /* the sandbox REPL (created on first use, kept for the session) */
    struct tui_repl *repl;
    const struct tui_view *repl_back; /* where leaving it returns to */
    /* --replay: what the status line and panels say instead of this machine */
    char replay_label[256];
    /* No GPU here, but a shipped recording: offered above the lessons (r), real GPUs first.
     * Taken, it becomes the replay of opts_own, as --replay would. */
    bool has_offer;
    struct tui_rec_offer offer;
    struct tui_replay *offered; /* loaded when taken; NULL while the simulator measures */
    struct tui_opts opts_own;
    /* the results of experiments in lessons left this session, shown again on coming back */
    struct tui_kept *kept;
    int nkept;
};

/* The tutor's own keys (help, sandbox, language): in the menu's and the lesson's contexts. */
extern const struct tui_keymap tui_app_keys;

/* tui.c */
/* Show view v (its show first: false, and nothing changes, when it cannot). */
bool tui_app_show(struct tui_app *a, const struct tui_view *v);
void tui_app_toggle_offer(struct tui_app *a); /* take the offered recording, or back to sim */
void tui_app_toggle_lang(struct tui_app *a);  /* English <-> 中文 (L), every view told */
const char *tui_app_lang(const struct tui_app *a); /* "en" / "zh" */
bool tui_app_zh(const struct tui_app *a);
/* Pick a string by language. */
#define TUI_TR(app, en, zh) (tui_app_zh(app) ? (zh) : (en))
/* Saved progress changed: write it (a failure goes to the status line), refresh the marks. */
void tui_app_progress_changed(struct tui_app *a);
void tui_app_open_entry(struct tui_app *a, int cat_index); /* in the lesson view; -1: opts->open_lesson */
void tui_app_divider(struct tui_app *a);
/* A notice that is an error or a warning (printf-style); plain snprintf into a->notice is
 * information. */
void tui_app_error(struct tui_app *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* An experiment's results: its panels, its events (in the language it ran in) and how it ended. */
struct tui_kept_run {
    struct tui_panelset *ps;
    struct tui_evlog *log;
    char lang[4];
    enum lt_run_state ran;
    char *err; /* why it failed */
};
/* Kept when its lesson closes (lesson file, experiment id or block index): put takes what r
 * holds (true; r is emptied) or leaves it to the caller; take moves a kept run into out (false:
 * none kept). */
bool tui_kept_put(struct tui_app *a, const char *lesson, const char *exp, int block,
                  struct tui_kept_run *r);
bool tui_kept_take(struct tui_app *a, const char *lesson, const char *exp, int block,
                   struct tui_kept_run *out);
void tui_kept_clear(struct tui_app *a);

/* tui_lesson.c: its key contexts (for the help/keys consistency test). */
extern const struct tui_keymap *const tui_lesson_keys[], *const tui_lesson_read_keys[],
    *const tui_lesson_exercise_keys[],
    *const tui_lesson_running_keys[],
    *const tui_lesson_watch_keys[], *const tui_lesson_step_keys[],
    *const tui_lesson_answer_keys[], *const tui_lesson_grading_keys[];

/* tui_menu.c */
extern const struct tui_keymap *const tui_menu_keys[];

/* tui_repl.c: the sandbox REPL's */
extern const struct tui_keymap *const tui_repl_keys[], *const tui_repl_busy_keys[];

#endif
