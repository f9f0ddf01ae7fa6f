/* tui_cmd.h - the command line as one table. Each subcommand is one `struct tui_cmd`: its name,
 * operands, own options, what it needs opened (the data folder, the lessons, the device, a
 * recording) and its handler. The same table drives dispatch, option parsing (getopt_long on
 * the command's own argv, with the global options it uses), `vramlab --help`, `vramlab COMMAND
 * --help`, the man page's SYNOPSIS, COMMANDS and OPTIONS headers (`vramlab --help-man`, which a
 * test diffs against docs/vramlab.1) and bash completion (`vramlab __complete`), so none of them
 * can drift from what the program accepts. main.c parses the global options, opens what the
 * command needs and calls its handler; the handlers live in tui_cmd_*.c by theme. */
#ifndef TUI_CMD_H
#define TUI_CMD_H

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "lt.h"

/* Every option of the command line: the global ones, then the commands' own. */
enum tui_opt_id {
    TUI_O_BACKEND, TUI_O_PROFILE, TUI_O_SEED, TUI_O_DETERMINISTIC, TUI_O_LANG, TUI_O_DEVICE,
    TUI_O_CAP, TUI_O_DATADIR, TUI_O_RECORD, TUI_O_REPLAY, TUI_O_HELP, TUI_O_VERSION,
    TUI_O_HELP_MAN, TUI_O_THEME, TUI_O_LESSONS,
    TUI_O_JSON, TUI_O_CSV, TUI_O_YES, TUI_O_LIST, TUI_O_TOP, TUI_O_WHATIF, TUI_O_CAPACITY,
    TUI_O_SNAP_DEVICE, TUI_O_TUI, TUI_O_ANSWERS, TUI_O_RUN, TUI_O_STRICT, TUI_O_TRY,
    TUI_O_DRAFT, TUI_O_DIR, TUI_O_SNAPSHOT, TUI_O_COLLAPSED, TUI_O_AT, TUI_O_SEGMENTS,
    TUI_O_STUDENT, TUI_O_ANSWER_FILE, TUI_O_RESULTS, TUI_O_MINUTES, TUI_O_NO_SUBMIT, TUI_O_ROSTER,
    TUI_O_N
};

/* What a command needs; a global option applies to a command that has its need. */
enum {
    TUI_CMD_DATA = 1 << 0,    /* the data folder (lessons/, assets/): --datadir, --lang */
    TUI_CMD_LESSONS = 1 << 1, /* the lesson catalog: a Lua runtime (on the simulator when the
                                 command needs no device) */
    TUI_CMD_DEVICE = 1 << 2,  /* the device backend: --backend --profile --seed ... */
    TUI_CMD_RECORD = 1 << 3,  /* runs experiments: --record, --replay */
    TUI_CMD_HIDDEN = 1 << 4,  /* for tools (completion): not in the usage or the man page */
};

struct tui_opt {
    enum tui_opt_id id;
    const char *name;   /* long name, without -- */
    char letter;        /* short option ('\0': none) */
    const char *arg;    /* its value's placeholder (NULL: a flag); "a|b|c" lists the choices;
                           FILE, DIR, PROFILE, LESSON complete as such */
    const char *help;   /* one line */
    unsigned needs;     /* global options: the command needs it uses (0: every command) */
};

struct tui_ctx;

struct tui_cmd {
    const char *name;      /* NULL: the tutor, `vramlab [LESSON]` */
    const char *operands;  /* e.g. "LESSON EXERCISE ANSWER", "[FILE...]", "replay FILE [CAPACITY]":
                              UPPER placeholders, lower literals, [optional], ... repeats */
    const char *summary;   /* one line for `vramlab --help` */
    const char *details;   /* more for `vramlab COMMAND --help` (NULL: none) */
    const struct tui_opt *opts; /* its own options, ending with {.name = NULL} */
    unsigned needs;
    int min_args, max_args; /* operand count (max -1: any) */
    int (*run)(struct tui_ctx *c);
};

/* What a handler gets: the parsed command line and what main opened for it. */
/* The command line speaks Chinese (--lang zh, VRAMLAB_LANG or the locale): set once by main
 * when the language is known; TUI_CLI_T(en, zh) picks a command's text by it. */
extern bool tui_cli_zh;
#define TUI_CLI_T(en, zh) (tui_cli_zh ? (zh) : (en))

struct tui_ctx {
    const struct tui_cmd *cmd;
    const char *opt[TUI_O_N]; /* each option's value as given, "" for a flag; NULL: not given */
    int argc;                 /* the command's operands */
    char **argv;
    /* the global settings (options over the environment) */
    const char *lang;         /* "en" or "zh" */
    const char *version;
    char datadir[PATH_MAX];   /* normalised (realpath) */
    char more_lessons[4096];  /* --lessons DIR (repeatable), colon-separated, in order given */
    char lessons[8192];       /* DATADIR/lessons, then VRAMLAB_LESSONS, then --lessons: the
                                 folders lt_catalog_scan reads, colon-separated */
    char assets[8192];        /* where simulator profiles are found: the lessons folders that
                                 have an assets/ of their own, then DATADIR (colon-separated) */
    /* opened by main, per cmd->needs */
    struct gpu_dev *dev;      /* DEVICE: the chosen backend; LESSONS: the simulator (or NULL) */
    struct lt_runtime *rt;    /* DEVICE or LESSONS (NULL when the simulator could not open) */
    char why[1024];           /* why the GPU backend did not open ("" when it did) */
    char warning[1400];       /* said once at start (also on the tutor's status line), or "" */
    struct tui_rec *rec;      /* RECORD: --record */
    struct tui_replay *rp;    /* RECORD: --replay */
};

extern const struct tui_cmd tui_cmds[];   /* the tutor first, then the commands; NULL run ends */
extern const struct tui_opt tui_globals[]; /* ends with {.name = NULL} */

/* A command by name (NULL: not one; hidden ones included). */
const struct tui_cmd *tui_cmd_find(const char *name);
/* The command a mistyped word was most likely meant to be (gpu_suggest.h), or NULL. */
const char *tui_cmd_suggest(const char *word);
/* --lessons DIR: one more folder of lessons (kept in c->more_lessons). */
void tui_cmd_add_lessons(struct tui_ctx *c, const char *dir);
/* The course's folders into out: DATADIR/lessons, then VRAMLAB_LESSONS, then the --lessons ones
 * (c->lessons for a command; completion builds it for the words it reads). */
void tui_cmd_course(const struct tui_ctx *c, const char *datadir, char *out, size_t n);
/* "run", or "vramlab" for the tutor: how messages name the command. */
const char *tui_cmd_label(const struct tui_cmd *cmd);

/* Parse c->cmd's argv (argv[0] is skipped: the command's name, or for the tutor the word before
 * its first operand) into c->opt and the operands, with getopt_long over the command's own
 * options and the global ones it uses; operand counts and literals are checked. Returns -1 when
 * parsed, else the exit code: 0 after --help, 2 after one line on stderr such as
 * "vramlab: list: unknown option '--csv' (vramlab list --help)". */
int tui_cmd_parse(struct tui_ctx *c, int argc, char **argv);

/* The options after this command: its own, then the global ones it uses (--help included). */
int tui_cmd_options(const struct tui_cmd *cmd, const struct tui_opt **out, int max);

/* One line on stderr with the pointer to the command's help; returns 2. */
int tui_cmd_usage_error(const struct tui_cmd *cmd, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* "run LESSON [--json]": name, operands, own options (for usage lines and messages). */
void tui_cmd_synopsis(const struct tui_cmd *cmd, char *buf, size_t n);
void tui_cmd_usage(FILE *f);                              /* vramlab --help */
void tui_cmd_help(const struct tui_cmd *cmd, FILE *f);    /* vramlab COMMAND --help */
void tui_cmd_man(FILE *f);                                /* vramlab --help-man */

/* The handlers (tui_cmd_lesson.c, tui_cmd_device.c, tui_cmd_learner.c, tui_cmd_class.c,
 * tui_complete.c). Exit codes as main's. */
int tui_cmd_tutor(struct tui_ctx *c);
int tui_cmd_list(struct tui_ctx *c);
int tui_cmd_run(struct tui_ctx *c);
int tui_cmd_eval(struct tui_ctx *c);
int tui_cmd_check(struct tui_ctx *c);
int tui_cmd_grade(struct tui_ctx *c);
int tui_cmd_new_lesson(struct tui_ctx *c); /* tui_cmd_author.c */
int tui_cmd_info(struct tui_ctx *c);
int tui_cmd_profiles(struct tui_ctx *c);
int tui_cmd_ledger(struct tui_ctx *c);
int tui_cmd_trace(struct tui_ctx *c);
int tui_cmd_snapshot(struct tui_ctx *c);
int tui_cmd_progress(struct tui_ctx *c);
int tui_cmd_reset(struct tui_ctx *c);
int tui_cmd_exercises(struct tui_ctx *c);
int tui_cmd_watch(struct tui_ctx *c);
int tui_cmd_present(struct tui_ctx *c);
int tui_cmd_results(struct tui_ctx *c);
int tui_cmd_compare(struct tui_ctx *c);
int tui_cmd_complete(struct tui_ctx *c);
int tui_cmd_exam(struct tui_ctx *c); /* tui_cmd_exam.c */

/* ---- shared by the handlers (tui_cmd_lesson.c) ------------------------------------------- */

/* A lesson by id ("1.3") from the catalog, or a path to a .lua file: malloc'ed path, or NULL
 * after saying on stderr "vramlab: CMD: no lesson 'X'; known: 1.1 1.2 ... (vramlab list)". */
char *tui_cli_lesson_path(struct tui_ctx *c, const char *what);
/* Says on stderr that `what` is no lesson of the catalog, with the id it most likely meant
 * ("did you mean 1.3?", gpu_suggest.h) and the ids there are, in the learner's language. */
void tui_cli_no_lesson(struct tui_ctx *c, const char *what);
/* An exercise kind ("choice", "number", "predict", "code") as a learner reads it. */
const char *tui_kind_label(const char *kind, bool zh);
/* Is id a lesson of the catalog (one that loads)? */
bool tui_cli_has_lesson(struct tui_ctx *c, const char *id);
/* The ids of the catalog's lessons that load, space-separated, into buf (for messages). */
void tui_cli_lesson_ids(struct tui_ctx *c, char *buf, size_t n);
/* "Course: TITLE (FOLDER/course.lua)" and a blank line on stdout, when a teacher's course.lua
 * gives the course (lt_course.h); nothing otherwise. */
void tui_cli_course_title(struct tui_ctx *c);

#endif
