/* lt.h - the Lua bridge: one sandboxed VM per lesson (or sandbox session), the modules it exposes
 * (gpu, host, alloc, units, vram, lesson helpers), the lesson loader/validator, and the stepper
 * that runs a lesson's experiments as coroutines whose long primitives run on a worker thread.
 * Callers (tui/) see opaque handles only. */
#ifndef LT_H
#define LT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "gpu.h"
#include "lt_event.h"
#include "lt_limits.h"

/* ---- runtime: what every VM shares -------------------------------------------------------- */

/* One event from an experiment to a panel (or from print() to the log): lt_event.h, the
 * registry of event kinds, panel kinds, styles and map states. */
typedef void (*lt_sink_fn)(void *ud, const struct lt_event *ev);

struct lt_limits {
    size_t mem_bytes;        /* Lua heap cap, C-side allocator structures included (64 MiB) */
    long long instructions;  /* VM instructions per run/resume (default 200 million) */
    double seconds;          /* wall time of Lua execution per run/resume (default 10 s) */
    double wall_seconds;     /* wall time of a whole run, measurements included (default 300 s;
                              * 0 or less: the default) */
    double course_seconds;   /* reading a course's lessons for the catalog, in all (default 5 s;
                              * 0 or less: the default) */
    int course_lessons;      /* lessons read from one of the catalog's folders (default 1000) */
};

struct lt_runtime; /* shared by all VMs of a process: device, language, sink, worker */

/* The C modules a VM opens (lua/mod/lt_modules.c): a library lessons require, or a global of the
 * trusted support code. The core names none; the caller passes the table (lt_modules). */
struct lua_State;
enum lt_module_kind { LT_MODULE_LIB, LT_MODULE_GLOBAL };
struct lt_module {
    const char *name;
    int (*open)(struct lua_State *L); /* a library's luaopen_ function, or the global itself */
    enum lt_module_kind kind;
};
extern const struct lt_module lt_modules[]; /* gpu, host, alloc and the support functions */

struct lt_runtime *lt_runtime_new(struct gpu_dev *dev, const char *datadir,
                                  const struct lt_module *modules);
void lt_runtime_free(struct lt_runtime *rt);
void lt_runtime_set_sink(struct lt_runtime *rt, lt_sink_fn fn, void *ud);
void lt_runtime_set_lang(struct lt_runtime *rt, const char *lang); /* "en" or "zh" */
const char *lt_runtime_lang(const struct lt_runtime *rt);
void lt_runtime_set_limits(struct lt_runtime *rt, const struct lt_limits *lim);
void lt_runtime_limits(const struct lt_runtime *rt, struct lt_limits *out);
/* "seconds=1,instructions=5e6,memory=16MiB,wall=2,course=5,lessons=1000" (any subset;
 * VRAMLAB_LIMITS) over lim.
 * False with "what is wrong" in err. */
bool lt_limits_parse(const char *s, struct lt_limits *lim, char *err, size_t n);

/* What runs now, for a watchdog on another thread (thread-safe). lua_deadline: Lua computes on
 * the calling thread and must stop when that thread's CPU time (lua_clock) reaches it (0: it
 * does not compute now); wall_end: the run
 * must end by then, measurements included (0: nothing runs). `what` names it: "lesson 1.3,
 * experiment 'sweep'", "REPL entry: ...", "file x.lua". */
struct lt_activity {
    double lua_deadline, lua_limit, wall_end, wall_limit;
    clockid_t lua_clock; /* lua_deadline is on this clock: the Lua thread's CPU time */
    char what[240];
};
void lt_runtime_activity(struct lt_runtime *rt, struct lt_activity *out);
/* Called (then the process aborts) when Lua raises an error nothing catches (a Lua panic): the
 * front end restores the terminal. */
void lt_runtime_set_fatal(struct lt_runtime *rt, void (*fatal)(const char *msg));
/* Async mode (TUI): long primitives run on a worker thread and the experiment coroutine yields;
 * otherwise (headless) they run inline. */
void lt_runtime_set_async(struct lt_runtime *rt, bool async);
/* A call (experiment, grading, REPL entry) is running Lua, not waiting for the worker: a front
 * end steps it again without waiting for a key. */
bool lt_runtime_computing(const struct lt_runtime *rt);
/* ex:pause in a front end that shows the steps (async mode): the run waits in a pause now; end
 * it now (the next step); stepping: every pause lasts until it is ended, not its seconds. A
 * pause's time does not count against the run's wall-time limit. */
bool lt_runtime_pausing(const struct lt_runtime *rt);
unsigned lt_runtime_pauses(const struct lt_runtime *rt); /* pauses begun so far, all runs */
/* s, which an experiment wrote in one language, in `lang` ("en"/"zh"), from the pairs its
 * ex:t calls picked from: the whole text, or a known start of it ("forward " .. stage). Returns
 * s itself when no pair knows it; otherwise buf (or s when buf is too small). */
const char *lt_runtime_translate(const struct lt_runtime *rt, const char *s, const char *lang,
                                 char *buf, size_t n);
void lt_runtime_pause_next(struct lt_runtime *rt);
void lt_runtime_set_stepping(struct lt_runtime *rt, bool on);
bool lt_runtime_stepping(const struct lt_runtime *rt);
struct gpu_dev *lt_runtime_dev(struct lt_runtime *rt);
const char *lt_runtime_datadir(const struct lt_runtime *rt);
/* The folders a lesson's assets are looked up in, colon-separated, first match wins: a teacher's
 * lessons folders before the data folder (which it is when never set). */
void lt_runtime_set_assets(struct lt_runtime *rt, const char *folders);
const char *lt_runtime_assets(const struct lt_runtime *rt);
/* The snapshot file the learner named (vramlab eval/repl --snapshot, the REPL's :open): what
 * alloc.snapshot() reads, with the CLI's limits. NULL when none. */
void lt_runtime_set_snapshot(struct lt_runtime *rt, const char *path);
const char *lt_runtime_snapshot(const struct lt_runtime *rt);
/* One line for a status bar: "CUDA device 0 · NVIDIA H200" or "SIMULATED · RTX 3090 profile". */
void lt_runtime_backend_line(struct lt_runtime *rt, char *buf, size_t n);

/* ---- a sandboxed VM ----------------------------------------------------------------------- */

struct lt_vm;
struct lt_vm *lt_vm_new(struct lt_runtime *rt, char *err, size_t n);
void lt_vm_free(struct lt_vm *vm); /* frees every device buffer the VM still holds */

/* Run a Lua file / string in the sandbox. On error, err holds "file:line: message" and the
 * return is false. `name` is the chunk name shown in messages. */
bool lt_vm_dofile(struct lt_vm *vm, const char *path, char *err, size_t n);
bool lt_vm_dostring(struct lt_vm *vm, const char *src, const char *name, char *err, size_t n);

/* Read a whole text file (a regular file of at most LT_MAX_FILE bytes; "-" is standard input,
 * under the same limit), NUL-terminated; NULL with "path: why" in err ("path: too large (...)",
 * "path: not a regular file (a FIFO)"). */
char *lt_read_file(const char *path, size_t *len, char *err, size_t n);

/* ---- lessons ------------------------------------------------------------------------------ */

enum lt_block_kind { LT_BLOCK_TEXT, LT_BLOCK_EXPERIMENT, LT_BLOCK_EXERCISE };

struct lt_lesson;

/* The lessons under a folder, or colon-separated folders (recursively, *.lua but not a lesson's
 * *.answers.lua), loaded and validated, sorted by chapter then id. A file that fails to load is
 * kept with its error (and a title made from its file name); so is the second file of an id,
 * with an error naming both files. */
/* The catalog reads each lesson's header without running the file (lt_header.h): a lesson whose
 * body does not load is listed, and says why when it is opened (or checked). A lesson not in the
 * plain form is loaded to be listed. Reading a course stops at the runtime's course budget
 * (lt_limits: course_seconds in all, course_lessons per folder): the lessons past it are listed
 * with an error, "not loaded: the course took too long to load". */
struct lt_catalog_entry {
    char *path, *id, *error;  /* error: NULL when the header was read or the lesson loaded */
    int chapter;
    char *title[2];           /* [0] en, [1] zh */
    char *chapter_title[2];
    int nexercises;           /* exercise blocks (progress: "done" = all of them solved) */
    char **exercises;         /* their ids */
    int folder;               /* which of the colon-separated folders it is in (0: the first) */
};
int lt_catalog_scan(struct lt_runtime *rt, const char *dir, struct lt_catalog_entry **out);
/* The same without the course budget: `vramlab check` reads every lesson it is asked to. */
int lt_catalog_scan_all(struct lt_runtime *rt, const char *dir, struct lt_catalog_entry **out);
/* The same, but only the files named for lesson `id` (ID-*.lua, ID.lua) are loaded: a command
 * that opens one lesson by id validates that one, not the whole course (every vramlab start
 * would otherwise load and validate every lesson). */
int lt_catalog_find(struct lt_runtime *rt, const char *dir, const char *id,
                    struct lt_catalog_entry **out);
void lt_catalog_free(struct lt_catalog_entry *e, int n);
/* The line of a lesson file's `id =` (1 when it is not a literal in `lesson { ... }`): where a
 * clash of ids is reported. */
int lt_catalog_id_line(const char *path);

/* Load and validate one lesson file in a fresh VM. On error: NULL and "file:line: what". */
struct lt_lesson *lt_lesson_load(struct lt_runtime *rt, const char *path, char *err, size_t n);
void lt_lesson_free(struct lt_lesson *ls);
/* The course rules `vramlab check` adds to the loader's (lesson.lua's lint), each finding
 * reported as "file:line: what" with its severity; returns how many. LT_LINT_ERROR: a mistake
 * (a predict exercise after every experiment). LT_LINT_HOUSE: a house rule of the course (every
 * errata callout names its source, every lesson ends with a Sources callout): an error for the
 * built-in course, a warning for a teacher's lesson unless --strict. LT_LINT_WARN: a text not
 * translated (a draft's: "a draft in en: N text(s) not yet translated into zh"; a text whose zh
 * is its en word for word): a warning, an error with --strict. */
enum lt_lint { LT_LINT_ERROR, LT_LINT_HOUSE, LT_LINT_WARN };
int lt_lesson_lint(struct lt_lesson *ls, void (*report)(void *ud, enum lt_lint sev, const char *msg),
                   void *ud);
/* For `vramlab check`: does the catalog read the loaded lesson's file as what it is? 1: its header
 * reads without running it, the same as the loaded lesson; 0: the file is not in the plain form,
 * "file:line: why" in err (the catalog loads it to list it: slower, not wrong); -1: the two differ,
 * "file:line: what" in err (the menu would show another title or count). */
int lt_lesson_check_header(struct lt_lesson *ls, char *err, size_t n);

const char *lt_lesson_id(const struct lt_lesson *ls);      /* "1.3" */
int lt_lesson_chapter(const struct lt_lesson *ls);
const char *lt_lesson_title(const struct lt_lesson *ls);   /* in the runtime's language */
const char *lt_lesson_path(const struct lt_lesson *ls);
int lt_lesson_nblocks(const struct lt_lesson *ls);
enum lt_block_kind lt_lesson_block_kind(const struct lt_lesson *ls, int i);
/* Text block (or the intro of an experiment/exercise) in the runtime's language: markup source. */
const char *lt_lesson_block_text(const struct lt_lesson *ls, int i);
const char *lt_lesson_block_title(const struct lt_lesson *ls, int i);
/* The `id` of an experiment or exercise block (NULL for text): recordings and saved progress
 * name blocks by it. */
const char *lt_lesson_block_id(const struct lt_lesson *ls, int i);

/* Panels an experiment declares: id, kind ("curve", "bars", "table", "gauge", "map"), title,
 * axis/unit labels. Valid until the lesson is freed or the language changes. */
struct lt_panel {
    const char *id, *kind, *title, *x_label, *y_label, *unit;
    bool logx;
    double scale; /* declared scale: a bar's full length (in unit), a map's bytes; 0 = from data */
    bool key;     /* the experiment names this panel its key figure (`key = "id"`) */
};
int lt_lesson_panels(const struct lt_lesson *ls, int block, struct lt_panel *out, int max);

/* Running an experiment: start, then step until it is no longer LT_RUN_BUSY. In async mode a
 * step returns at once when the worker is still busy; headless, a step runs to completion. */
enum lt_run_state { LT_RUN_IDLE, LT_RUN_BUSY, LT_RUN_DONE, LT_RUN_FAILED, LT_RUN_CANCELLED };
enum lt_run_state lt_lesson_run_start(struct lt_lesson *ls, int block, char *err, size_t n);
enum lt_run_state lt_lesson_run_step(struct lt_lesson *ls, char *err, size_t n);
/* Cancel: waits for the worker's current trial, closes the coroutine, frees what the experiment
 * allocated. */
void lt_lesson_run_cancel(struct lt_lesson *ls);
enum lt_run_state lt_lesson_run_state(const struct lt_lesson *ls);
/* Hold a run (the presenter's Space): the front end stops stepping it, and the time held does
 * not count against its wall-time limit (what was left of it is given back when the hold
 * ends), so a long pause in a lecture neither trips the limit nor the watchdog. A measurement
 * already on the worker finishes; its result waits. No-op when no run is busy. */
void lt_lesson_run_hold(struct lt_lesson *ls, bool on);

/* Exercises. */
struct lt_exercise_info {
    const char *id, *kind; /* "choice", "number", "predict", "code" */
    const char *prompt;    /* markup, in the runtime's language */
    const char *unit;      /* number/predict: unit the answer is typed in ("" if none) */
    int nchoices;
    const char *choices[10];
    int tries;             /* attempts so far in this session */
    bool solved;
    /* code: the function the learner defines and the starter source ("" if none) */
    const char *entry, *starter;
    int nhints;            /* hints, in the runtime's language (at most 8) */
    const char *hints[8];
    const char *explain;   /* the explanation shown once solved, in the runtime's language */
    int answer_choice;     /* choice: the right choice, 1-based (0 for other kinds) */
};
bool lt_lesson_exercise(const struct lt_lesson *ls, int block, struct lt_exercise_info *out);
/* Grade an answer (typed text). feedback: a hint, the result, or after three tries the
 * explanation. Returns true when right. A "predict" exercise runs its experiment first. */
bool lt_lesson_answer(struct lt_lesson *ls, int block, const char *answer, char *feedback,
                      size_t n);
/* The same as a run, for front ends that stay live while a "predict" exercise measures: start,
 * step with lt_lesson_run_step, cancel with lt_lesson_run_cancel; once it is no longer BUSY,
 * lt_lesson_answer_result gives the feedback and whether it was right. FAILED at the start:
 * err says why and nothing was graded. */
enum lt_run_state lt_lesson_answer_start(struct lt_lesson *ls, int block, const char *answer,
                                         char *err, size_t n);
bool lt_lesson_answer_result(const struct lt_lesson *ls, char *feedback, size_t n);
/* What the last grading found besides right or wrong (valid until the next grading or the lesson
 * is freed): broken, the exercise's own error when its check or its measure raised ("file:line:
 * what"; the learner is told the exercise is broken and it is not a try); mistake, the kind of
 * a wrong answer (grading.lua's kind: gib_gb, mib_mb, kib_kb, tib_tb, bits_bytes,
 * percent_fraction, in_bytes, x2, x4, x8, x10, x1000, a declared mistake's name or "mistake N",
 * "choice N", a code answer's "error", "no_entry" or "wrong_result", else "other"); detail, that
 * mistake in words without the hint ([0] en, [1] zh); a predict's figure and where it came from
 * ("measured", "simulated", "model"; figure is NaN otherwise). False before any grading. */
struct lt_answer_info {
    const char *broken, *mistake, *detail[2], *how;
    double figure;
};
bool lt_lesson_answer_info(struct lt_lesson *ls, struct lt_answer_info *out);
/* `vramlab check --run`: a predict exercise's measure() run once and its figure held to the
 * exercise's unit (lesson.lua's measure_check: a field of its result in another scale or of
 * another kind is reported). 0: sound (or not a predict exercise); 1: "file:line: what" in msg;
 * -1: it could not run (msg says why). */
int lt_lesson_check_measure(struct lt_lesson *ls, int block, char *msg, size_t n);
/* Set the tries an exercise has had in this session: the next grading is try tries + 1 (its
 * hint, or after the third the answer and the explanation). */
void lt_lesson_set_tries(struct lt_lesson *ls, int block, int tries);
/* The reference answers beside a lesson (N.M-slug.answers.lua; docs/lesson-format.md), each
 * graded through lt_lesson_answer as a first try, in English and then in Chinese: a right
 * answer must be graded right, a wrong one wrong (with its `says` in the English feedback), a
 * predict exercise's figure right once a wrong guess measured it, and labelled as `figure`
 * says. Then the tolerance audit of every number exercise (grading.lua): generated right
 * answers (roundings, other units) graded right, typical wrong ones (GB for GiB, bits for
 * bytes, the fraction for a percentage, x2, each declared mistake) wrong and naming their
 * mistake in both languages. report(ud, "file:line: what") for each failure (a lesson with
 * exercises and no answers file is one); returns the failures and sets *graded to the answers
 * of the file graded, *audited to the audit's. */
int lt_lesson_check_answers(struct lt_lesson *ls, int *graded, int *audited,
                            void (*report)(void *ud, const char *line), void *ud);
/* `vramlab new-lesson`: the source of a new lesson N.M (id) with its title, and of its
 * reference answers (malloc'ed), and the file name's slug; lang NULL for both languages, "en"
 * or "zh" for a draft in one. False with err. */
bool lt_scaffold(struct lt_runtime *rt, const char *id, const char *title, const char *lang,
                 char **lesson, char **answers, char *slug, size_t nslug, char *err, size_t n);
/* That feedback in lang ("en"/"zh"); graded in the tutor (async) it exists in both (NULL: not
 * in that language, or no result). */
const char *lt_lesson_answer_feedback(const struct lt_lesson *ls, const char *lang);
/* Is the current (or last) run a grading rather than an experiment? */
bool lt_lesson_run_grading(const struct lt_lesson *ls);

/* ---- the sandbox REPL (lt_repl.c) --------------------------------------------------------- */

/* Give a VM the REPL's extras: `plot`, whose point/bar/gauge/row/note/clear feed the panel
 * "repl" through the sink, so a learner can chart what they compute. */
void lt_vm_repl_setup(struct lt_vm *vm);
enum lt_eval_status { LT_EVAL_OK, LT_EVAL_INCOMPLETE, LT_EVAL_ERROR, LT_EVAL_BUSY };
/* Evaluate a REPL entry under the sandbox limits: an expression shows its values, a statement
 * runs. OK: `out` holds the results pretty-printed (tables one level deep, keys sorted; "" when
 * none). INCOMPLETE: the chunk ends early (more lines needed). ERROR: `out` says what. BUSY
 * (async mode only): a measurement is on the worker; call lt_vm_eval_step until it is not. */
enum lt_eval_status lt_vm_eval(struct lt_vm *vm, const char *src, char *out, size_t n);
enum lt_eval_status lt_vm_eval_step(struct lt_vm *vm, char *out, size_t n);
/* Stop the entry being evaluated; what it allocated is freed. */
void lt_vm_eval_cancel(struct lt_vm *vm);
/* Tab: the global names or table fields that complete `word`, a dotted path whose last part may
 * be cut short ("gpu.co", "hel"), as whole paths ("gpu.copy"), sorted, one per line in out.
 * Tables are read raw: no learner code runs. Returns how many (0: none, or not while running). */
int lt_vm_complete(struct lt_vm *vm, const char *word, char *out, size_t n);
/* "Did you mean": after an entry `src` failed with `err` on a name that is nil ("attempt to call a
 * nil value (global 'hepl')", "(field 'kv_cahce')", "(method ...)", or indexing one), the name
 * it most likely meant, as a path ("help", "vram.kv_cache"), into out (gpu_suggest.h). Fields
 * are looked for in the table `src` names before the field, read raw (no learner code runs).
 * False when there is none. */
bool lt_vm_suggest(struct lt_vm *vm, const char *src, const char *err, char *out, size_t n);
/* The same for a file that failed to run with err (lt_vm_dofile): "; did you mean exercise?"
 * appended to err when there is a name to offer (the file is read again; not stdin). */
bool lt_vm_suggest_file(struct lt_vm *vm, const char *path, char *err, size_t n);


#endif
