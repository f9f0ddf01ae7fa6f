/* lt_int.h - internals shared by the files of the Lua bridge (not for tui/). */
#ifndef LT_INT_H
#define LT_INT_H

#include <pthread.h>
#include <stdatomic.h>

#include <lauxlib.h>
#include <lua.h>

#include "lt.h"

/* A long primitive (a copy bench, a latency ladder step, a trace replay) that runs on a worker
 * thread while the call yields (TUI) or waits (headless), so that a limit or Esc can cancel it.
 * `fn` runs off the Lua thread and touches no Lua state; `push` runs on the Lua thread
 * afterwards and pushes the results; `release` (optional) runs on the Lua thread once the job
 * is over, whether its results were pushed or the call was cancelled. */
struct lt_job {
    void (*fn)(struct lt_job *j);
    int (*push)(lua_State *L, struct lt_job *j);
    void (*release)(struct lt_job *j);
    struct lt_runtime *rt;
    pthread_t th;
    atomic_int done;
    bool pause;      /* ex:pause: the screen may end it early; not a measurement */
    gpu_status st;
    char why[256];            /* the refusal in English; its key and numbers, for lt_job_why */
    enum gpu_why_key why_key;
    double why_arg[4];
};

/* What a VM holds for sandboxed code outside Lua's heap (a device buffer, an allocator): one
 * intrusive list per VM that each module's object embeds, so the VM frees what a run made (Esc,
 * the end of an experiment, the VM's end) without knowing the module (liolib's file handles:
 * each owns its release). */
struct lt_res {
    struct lt_res *prev, *next;
    int generation;                   /* the run that made it (vm->generation then) */
    void (*release)(struct lt_res *); /* frees what it holds and unlinks it (lt_res_remove) */
};
/* Link r into the VM's list for the run going on now. */
void lt_res_add(struct lt_vm *vm, struct lt_res *r, void (*release)(struct lt_res *));
/* Unlink r (its release calls this); an unlinked r is ignored. */
void lt_res_remove(struct lt_vm *vm, struct lt_res *r);
/* Release every resource made at or after `generation` (INT_MIN: all). */
void lt_res_release(struct lt_vm *vm, int generation);

struct lt_runtime {
    struct gpu_dev *dev;
    const struct lt_module *modules; /* what each VM opens (lt_modules.c; the caller's table) */
    char datadir[1024];
    char assets[8192]; /* folders with lesson assets, first match wins (lt_runtime_set_assets) */
    char snapshot[4096]; /* the learner's snapshot file (lt_runtime_set_snapshot), "" none */
    char lang[4];             /* "en" or "zh": the owner thread's alone (lt_runtime_lang) */
    pthread_t owner;          /* the thread that made the runtime: the one Lua runs on */
    lt_sink_fn sink;
    void *sink_ud;
    struct lt_limits lim;
    bool async;
    pthread_mutex_t devlock;  /* one device user at a time: the worker or the Lua thread */
    struct lt_job *job;       /* the job in flight while the call yields, if any */
    lua_State *run_thread;    /* the experiment coroutine that may yield for jobs */
    gpu_cancel_flag cancel;
    atomic_bool pause_next;   /* the screen ends the pause in progress */
    atomic_bool stepping;     /* a pause lasts until pause_next, not its seconds */
    unsigned pauses;          /* pauses begun (the screen counts the steps) */
    struct lt_tr { char *s[2]; } *tr; /* en/zh pairs lessons picked from (lt_runtime_translate) */
    int ntr, cap_tr;
    pthread_mutex_t job_mu;   /* with job_cv: a worker says it is done to a thread that waits */
    pthread_cond_t job_cv;
    void (*fatal)(const char *msg);
    struct {                  /* what runs now, for lt_runtime_activity (watchdog thread) */
        pthread_mutex_t mu;
        struct lt_activity a;
    } watch;
};

/* The call a VM runs as a coroutine (lt_task.c): an experiment, a grading, a REPL entry. */
struct lt_task {
    lua_State *co;  /* NULL: none */
    int ref;        /* the coroutine's registry reference */
    int nargs;      /* arguments for the first resume */
    bool fresh;     /* not resumed yet */
    int generation; /* the VM's generation when it started: what a cancel frees */
};

struct lt_vm {
    lua_State *L;
    struct lt_task task;
    struct lt_runtime *rt;
    size_t mem, mem_peak;
    bool mem_refused;          /* the allocator said no: report the cap, not "not enough memory" */
    long long count;           /* instructions in the current run, in hook quanta */
    double deadline;           /* Lua's time limit, on `clock`: this thread's CPU seconds */
    clockid_t clock;
    double slice_end;          /* async: when the running call gives the screen its turn */
    double paused_at;          /* CPU time when the running call yielded without a measurement (0: not) */
    bool tripped;              /* a limit fired: every later hook call raises again */
    char stop_at[600];         /* where the code was when it first fired ("answer:3:"): the
                                * raises after it (a pcall caught the first) say the same */
    double wall_end;           /* the run's wall-time limit, measurements included (0: no run) */
    bool wall_tripped;         /* the run's wall time ran out: it stays stopped until it ends */
    bool nested_ok;            /* the coroutine running now can pass a yield up to the call the
                                * runner steps (lt_coro.c) */
    bool propagate;            /* the yield on its way up is for the runner, not the resumer */
    char label[200];           /* what runs, for the watchdog ("lesson 1.3, experiment 'x'") */
    struct lt_res *res;        /* what sandboxed code holds outside the heap (lt_res_add) */
    int generation;            /* bumped per experiment run: what an Esc must free */
    char *chunk;               /* name of the chunk run last ("@file", "=name"): errors and stops
                                * without a position are reported at a line of it */
    int chunk_line;            /* the line of it the limit hook saw last (0: none yet) */
    bool armed;                /* sandboxed code is running: the heap cap is strict */
    size_t text_bytes;         /* text the run has sent to the screen (lt_vm_emit) */
    struct gpu_host_arena *host_arena; /* host arrays kept between a run's host measurements
                                        * (lt_host.c), freed when the run ends */
};

/* The VM that owns L (stored in the main thread's extra space; threads inherit it). */
static inline struct lt_vm *lt_vm_of(lua_State *L) { return *(struct lt_vm **)lua_getextraspace(L); }

/* Run a job on a worker thread. In async mode, from the call's coroutine or any coroutine it
 * resumed (lt_coro.c), the coroutine yields until the job is done; elsewhere the calling thread
 * waits, bounded by the run's limits. Returns what `push` returns, or raises the sandbox stop
 * when a limit ended the wait. */
int lt_job_run(lua_State *L, struct lt_job *j);
/* Can L yield for a job (async mode, inside the running call, through yieldable resumers)? */
bool lt_job_can_yield(lua_State *L);
/* The thread that resumed the waiting coroutine cannot yield: wait for rt->job here. */
void lt_job_wait_here(lua_State *L);
/* The runner's side: is the job the coroutine waits on finished? Joins the thread if so. */
bool lt_job_poll(struct lt_runtime *rt);
void lt_job_wait(struct lt_runtime *rt);

/* Start a call: the function and its nargs arguments, on vm->L's top, move into a coroutine
 * (popped either way). False with err when one is running already or memory ran out. */
bool lt_task_start(struct lt_vm *vm, int nargs, char *err, size_t n);
/* Resume it until it ends or, in async mode, waits for the worker (LUA_YIELD). LUA_OK: its
 * nres results are on vm->task.co's top. Otherwise an error status, err "file:line: what". */
int lt_task_step(struct lt_vm *vm, int *nres, char *err, size_t n);
/* Forget the finished call; with free_allocations, the buffers and allocators it made go too. */
void lt_task_end(struct lt_vm *vm, bool free_allocations);
/* Stop it: waits for the worker's current trial, runs pending __close handlers under the
 * limits, frees what it allocated. */
void lt_task_cancel(struct lt_vm *vm);

/* A run (a file, an experiment, a grading, a REPL entry) starts or ends: its wall-time limit,
 * measurements included, and what the watchdog names. lt_vm_label sets the name first. */
void lt_vm_label(struct lt_vm *vm, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void lt_vm_run_begin(struct lt_vm *vm);
void lt_vm_run_end(struct lt_vm *vm);
/* Every event Lua code sends (print, the lesson helpers, plot.*) reaches the sink through this:
 * each string cut at the source to its limit (lt_limits.h; the cut copies are pushed on L) and
 * counted against the run's LT_RUN_TEXT_MAX (past it, a Lua error stops the run). */
void lt_vm_emit(lua_State *L, struct lt_event *ev);
/* The VM's lua_Alloc (ud: the VM): the heap cap, with room for the C side outside a run. */
void *lt_vm_alloc(void *ud, void *ptr, size_t osize, size_t nsize);
/* Publish for the watchdog whether Lua computes now (lt_runtime_activity). */
void lt_vm_publish(struct lt_vm *vm, bool computing);
/* Push the sandbox stop message (which limit, without a position) onto L. */
void lt_vm_push_stop(struct lt_vm *vm, lua_State *L);
/* Raise the sandbox stop, with the position of the sandboxed code that runs. */
int lt_vm_stop(lua_State *L);
/* help([module or function]) in the sandbox: the modules, a module's functions, or one
 * function's doc line and an example, printed (lt_help.c). */
int lt_help(lua_State *L);
/* C-side memory held for sandboxed code (allocator structures, trace buffers) counts against the
 * heap cap: `delta` bytes more or fewer. False, and nothing counted, when a growth would take the
 * VM past the cap while sandboxed code runs (the caller undoes what it can and raises
 * lt_vm_mem_stop). */
bool lt_vm_mem_add(struct lt_vm *vm, long long delta);
int lt_vm_mem_stop(lua_State *L);
/* Arm the instruction/time limits for a new run or resume of thread th. */
void lt_vm_arm(struct lt_vm *vm, lua_State *th);
/* Re-arm th without a fresh budget (a resume after the lesson's own yield, not a measurement). */
void lt_vm_continue(struct lt_vm *vm, lua_State *th);
/* Sandboxed code stopped running: the main thread's hook goes, the C side gets heap headroom.
 * Coroutines keep their hooks: sandboxed code that resumes one later is still limited. */
void lt_vm_disarm(struct lt_vm *vm);
/* Charge `steps` units of work done inside a C function (pattern matching) to the running
 * code's instruction budget; raises the sandbox stop when the budget or the time is spent. Does
 * nothing for trusted code running outside a run (no limit hook on L). */
void lt_vm_charge(lua_State *L, long long steps);
/* Replace string.find/match/gmatch/gsub with versions that charge their matching work through
 * lt_vm_charge (Lua's own can backtrack for hours inside one call, out of the hook's reach). */
void lt_strlib_install(lua_State *L);
/* The other C library functions whose work Lua code can size (table.move/insert/remove/sort/
 * concat/unpack/pack, string.rep and the rest of string, utf8, select, math.max/min, os.date):
 * sandbox versions that charge it (lt_tablib.c, lt_charge.c). */
void lt_tablib_install(lua_State *L);
void lt_charge_install(lua_State *L);
/* coroutine.resume/wrap that pass a measurement's or a slice's yield up to the runner
 * (lt_coro.c). */
void lt_coro_install(lua_State *L);
/* Turn a Lua error on the stack top into "file:line: message" (translating limit trips). */
void lt_vm_errmsg(struct lt_vm *vm, int status, char *err, size_t n);

/* A loaded lesson's insides, for lt_answers.c: its VM and state, block i of the copy C reads
 * (the lesson itself for -1) and a function of lesson.lua, pushed. */
struct lt_lesson;
lua_State *lt_lesson_state(const struct lt_lesson *ls);
struct lt_vm *lt_lesson_vm(const struct lt_lesson *ls);
void lt_lesson_push_block(const struct lt_lesson *ls, int i);
void lt_lesson_push_fn(lua_State *L, const char *fn);

/* Run a file in the sandbox; with `keep`, its first result stays on the stack top. */
bool lt_vm_dofile_keep(struct lt_vm *vm, const char *path, bool keep, char *err, size_t n);

/* Modules (each file registers one). */
/* dev->why (or st's message) in the runtime's language, into buf; returns buf. The Lua thread
 * only (it reads the language): a job's fn keeps the refusal with lt_job_keep_why on the
 * worker, and its push says it with lt_job_why. */
const char *lt_dev_why(const struct lt_runtime *rt, const struct gpu_dev *dev, gpu_status st,
                       char *buf, size_t n);
int lt_fmt_bytes(lua_State *L); /* __lt_fmt_bytes: units.bytes/si/rate */
void lt_job_keep_why(struct lt_job *j, const struct gpu_dev *dev);
const char *lt_job_why(const struct lt_job *j, char *buf, size_t n);
int lt_open_gpu(lua_State *L);
/* gpu.strided, gpu.random, ... gpu.sectors: the access-pattern experiments, added to the gpu
 * table on the stack's top (lt_gpu_access.c). */
void lt_gpu_access_register(lua_State *L);
int lt_open_host(lua_State *L);
/* Adds gpu.program and gpu.pin to the gpu table on the stack top (lt_feed.c). */
void lt_feed_register(lua_State *L);
int lt_open_alloc(lua_State *L);

/* Emit an event table {type=, panel=, ...} to the runtime's sink (lt_lesson.c). */
int lt_emit(lua_State *L);
int lt_event_info(lua_State *L); /* __lt_event_info: panel kinds and the item limit */
/* __lt_pause(seconds): ex:pause (lt_runtime.c). */
int lt_pause(lua_State *L);
/* __lt_tr(en, zh): ex:t picked one of a pair; kept for lt_runtime_translate (lt_runtime.c). */
int lt_tr_add(lua_State *L);
/* __lt_units_read and __lt_units_parse, which lua/lib/units.lua exposes as units.read and
 * units.parse: the unit grammar of gpu_units.h (lt_units.c). */
int lt_units_read(lua_State *L);  /* __lt_units_read */
int lt_units_parse(lua_State *L); /* __lt_units_parse */
/* __lt_markup_check(s) -> nil, or "line N: what" (lt_lesson.c). */
int lt_markup_check(lua_State *L);
/* __lt_snapshot(t) -> a private deep copy of lesson data (plain tables only); __lt_same(t, snap)
 * -> does t still hold what snap does (lt_lesson.c). */
int lt_snapshot(lua_State *L);
int lt_same(lua_State *L);
/* __lt_suggest(word, names) -> the name word most likely meant, or nil (lt_lesson.c). */
int lt_suggest(lua_State *L);
/* __lt_field_line(src, line, name, path) -> the line of a constructor's field, or nil (lt_lex.h). */
int lt_field_line(lua_State *L);

/* Result table of a measurement. */
void lt_push_result(lua_State *L, const struct gpu_result *r, const char *backend);
/* A byte count to Lua: an integer, or an error past LT_SIZE_MAX (never a negative or rounded
 * number). Every size the modules hand to Lua goes through it. */
void lt_push_size(lua_State *L, uint64_t bytes);
/* A class of full userdata, as liolib's createmeta: the metatable `name` with the metamethods
 * `meta`, the methods `methods` (NULL: none) as its __index, and __metatable = "locked" so
 * sandboxed code can neither read nor replace it. The stack is left as it was. */
void lt_newclass(lua_State *L, const char *name, const luaL_Reg *meta, const luaL_Reg *methods);

/* Helpers to read optional fields of an argument table. Option tables are read raw (their
 * metatables are ignored): no sandboxed code runs while C reads them. lt_opt_field pushes
 * field k of the table at t, raw, and returns its type. */
int lt_opt_field(lua_State *L, int t, const char *k);
lua_Integer lt_opt_int(lua_State *L, int t, const char *k, lua_Integer def);
double lt_opt_num(lua_State *L, int t, const char *k, double def);
const char *lt_opt_str(lua_State *L, int t, const char *k, const char *def);
bool lt_opt_bool(lua_State *L, int t, const char *k, bool def);
/* An integer option within [lo, hi], checked before it becomes an int: "<what>: <k> must be
 * lo..hi" otherwise (2^32 + 10 trials is an error, not 10). */
int lt_opt_range(lua_State *L, int t, const char *k, int def, int lo, int hi, const char *what);
/* Sizes: a number of bytes or a string units.parse reads ("256MiB"). */
uint64_t lt_opt_bytes(lua_State *L, int t, const char *k, uint64_t def);
/* The one gate of every option table: t must be a table (or nil/none when optional) whose keys
 * are all in keys (NULL-ended); otherwise "<fn>: unknown option 'byts' (valid: bytes, trials)".
 * A misspelt key would else be ignored and its default silently measured. */
void lt_opt_check(lua_State *L, int t, const char *fn, bool optional, const char *const keys[]);
/* An enum option: index of its value in names (NULL-ended), def when absent (-1: required);
 * else "<fn>: <k> must be one of a, b, c (got 'x')". */
int lt_opt_enum(lua_State *L, int t, const char *k, int def, const char *const names[],
                const char *fn);
/* A size given as a positional argument: a whole number of bytes or a units string ("1GiB");
 * an error naming argument i otherwise. min is the least size accepted (0 or 1). */
uint64_t lt_arg_bytes(lua_State *L, int i, uint64_t min);

#endif
