/* lt_runtime.c - what all VMs of a process share: the device, language, sink, limits, what runs
 * now (for the watchdog), and the worker threads that run long primitives. A measurement always
 * runs on a worker: the Lua thread yields meanwhile (TUI) or waits (headless), so a run's
 * wall-time limit and Esc can cancel it however it was started. */
#include "lt.h"
#include "lt_int.h"

#include <assert.h>
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "gpu_err.h"
#include "gpu_parse.h"
#include "gpu_units.h"

#define WALL_DEFAULT 300.0 /* s: a run's wall time, measurements included */
#define COURSE_SECONDS_DEFAULT 5.0 /* s: reading a course for the catalog (docs/lesson-format.md) */
#define COURSE_LESSONS_DEFAULT 1000 /* lessons one catalog folder may hold */

struct lt_runtime *lt_runtime_new(struct gpu_dev *dev, const char *datadir,
                                  const struct lt_module *modules)
{
    struct lt_runtime *rt = calloc(1, sizeof *rt);
    if (!rt) return NULL;
    rt->dev = dev;
    rt->modules = modules;
    snprintf(rt->datadir, sizeof rt->datadir, "%s", datadir ? datadir : ".");
    strcpy(rt->lang, "en");
    rt->owner = pthread_self(); /* the Lua thread: the one that reads and writes the language */
    rt->lim = (struct lt_limits){64u << 20, 200000000LL, 10.0, WALL_DEFAULT,
                                 COURSE_SECONDS_DEFAULT, COURSE_LESSONS_DEFAULT};
    pthread_mutex_init(&rt->devlock, NULL);
    pthread_mutex_init(&rt->job_mu, NULL);
    pthread_condattr_t ca;
    pthread_condattr_init(&ca);
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC); /* gpu_now()'s clock */
    pthread_cond_init(&rt->job_cv, &ca);
    pthread_condattr_destroy(&ca);
    pthread_mutex_init(&rt->watch.mu, NULL);
    return rt;
}

void lt_runtime_free(struct lt_runtime *rt)
{
    if (!rt) return;
    if (rt->job) lt_job_wait(rt);
    pthread_mutex_destroy(&rt->devlock);
    pthread_mutex_destroy(&rt->job_mu);
    pthread_cond_destroy(&rt->job_cv);
    pthread_mutex_destroy(&rt->watch.mu);
    for (int i = 0; i < rt->ntr; i++) free(rt->tr[i].s[0]), free(rt->tr[i].s[1]);
    free(rt->tr);
    free(rt);
}

void lt_runtime_set_sink(struct lt_runtime *rt, lt_sink_fn fn, void *ud)
{
    rt->sink = fn;
    rt->sink_ud = ud;
}

void lt_runtime_set_lang(struct lt_runtime *rt, const char *lang)
{
    assert(pthread_equal(pthread_self(), rt->owner));
    snprintf(rt->lang, sizeof rt->lang, "%s", lang && !strcmp(lang, "zh") ? "zh" : "en");
}

void lt_runtime_set_limits(struct lt_runtime *rt, const struct lt_limits *lim)
{
    rt->lim = *lim;
    if (!(rt->lim.wall_seconds > 0)) rt->lim.wall_seconds = WALL_DEFAULT;
    if (!(rt->lim.course_seconds > 0)) rt->lim.course_seconds = COURSE_SECONDS_DEFAULT;
    if (rt->lim.course_lessons <= 0) rt->lim.course_lessons = COURSE_LESSONS_DEFAULT;
}

void lt_runtime_limits(const struct lt_runtime *rt, struct lt_limits *out) { *out = rt->lim; }

bool lt_limits_parse(const char *s, struct lt_limits *lim, char *err, size_t n)
{
    static const struct { const char *k; double min, max; } keys[] = {
        {"seconds", 0.01, 86400}, {"instructions", 1e4, 1e15}, {"memory", 1 << 20, 1ull << 40},
        {"wall", 0.01, 604800}, {"course", 0.001, 86400}, {"lessons", 1, 1000000}};
    const size_t nkeys = sizeof keys / sizeof keys[0];
    while (s && *s) {
        size_t kl = strcspn(s, "=,");
        size_t i = 0;
        while (i < nkeys && (strlen(keys[i].k) != kl || strncmp(s, keys[i].k, kl))) i++;
        if (i == nkeys || s[kl] != '=') {
            gpu_errf(err, n, "'%.*s': expected seconds=, instructions=, memory=, wall=, course= or "
                     "lessons=", (int)kl, s);
            return false;
        }
        /* memory is a size in the one grammar (gpu_units.h): 64MiB, 1GiB, 500MB */
        const char *val = s + kl + 1, *end = val + strcspn(val, ",");
        double v = NAN;
        struct gpu_qty q;
        char num[64];
        if (i == 2) {
            if (gpu_qty_read(val, (size_t)(end - val), &q) == GPU_QR_OK &&
                (q.kind == GPU_QK_SIZE || (q.kind == GPU_QK_COUNT && !q.unit[0])))
                v = q.value;
        } else if ((size_t)(end - val) < sizeof num) {
            memcpy(num, val, (size_t)(end - val));
            num[end - val] = 0;
            if (!gpu_parse_double(num, keys[i].min, keys[i].max, &v, NULL, 0)) v = NAN;
        }
        if (!isfinite(v) || v < keys[i].min || v > keys[i].max) {
            gpu_errf(err, n, "%s must be a number between %g and %g%s", keys[i].k, keys[i].min,
                     keys[i].max, i == 2 ? " bytes (or a size such as 64MiB)" : "");
            return false;
        }
        if (i == 0) lim->seconds = v;
        else if (i == 1) lim->instructions = (long long)v;
        else if (i == 2) lim->mem_bytes = (size_t)v;
        else if (i == 3) lim->wall_seconds = v;
        else if (i == 4) lim->course_seconds = v;
        else lim->course_lessons = (int)v;
        s = *end ? end + 1 : end;
    }
    return true;
}

void lt_runtime_activity(struct lt_runtime *rt, struct lt_activity *out)
{
    pthread_mutex_lock(&rt->watch.mu);
    *out = rt->watch.a;
    pthread_mutex_unlock(&rt->watch.mu);
}

void lt_runtime_set_fatal(struct lt_runtime *rt, void (*fatal)(const char *msg)) { rt->fatal = fatal; }

/* The Lua thread's alone (the worker gets what it needs in its job): a read from another
 * thread while L changes it would be a data race, which debug builds stop here. */
const char *lt_runtime_lang(const struct lt_runtime *rt)
{
    assert(pthread_equal(pthread_self(), rt->owner));
    return rt->lang;
}
void lt_runtime_set_async(struct lt_runtime *rt, bool async) { rt->async = async; }
struct gpu_dev *lt_runtime_dev(struct lt_runtime *rt) { return rt->dev; }
bool lt_runtime_computing(const struct lt_runtime *rt) { return rt->run_thread && !rt->job; }
const char *lt_runtime_datadir(const struct lt_runtime *rt) { return rt->datadir; }

void lt_runtime_set_assets(struct lt_runtime *rt, const char *folders)
{
    snprintf(rt->assets, sizeof rt->assets, "%s", folders ? folders : "");
}

const char *lt_runtime_assets(const struct lt_runtime *rt)
{
    return rt->assets[0] ? rt->assets : rt->datadir;
}

void lt_runtime_set_snapshot(struct lt_runtime *rt, const char *path)
{
    snprintf(rt->snapshot, sizeof rt->snapshot, "%s", path ? path : "");
}

const char *lt_runtime_snapshot(const struct lt_runtime *rt)
{
    return rt->snapshot[0] ? rt->snapshot : NULL;
}

void lt_runtime_backend_line(struct lt_runtime *rt, char *buf, size_t n)
{
    const struct gpu_info *i = &rt->dev->info;
    bool zh = !strcmp(rt->lang, "zh"); /* in the runtime's language: L changes it */
    if (i->simulated)
        snprintf(buf, n, zh ? "SIMULATED · %s 配置（%s）" : "SIMULATED · %s profile (%s)", i->name,
                 i->profile);
    else
        snprintf(buf, n, zh ? "CUDA 设备 %d · %s%s" : "CUDA device %d · %s%s", i->device, i->name,
                 i->mig ? (zh ? "（MIG 切片）" : " (MIG slice)") : "");
}

/* ---- translations ------------------------------------------------------------------------ */

/* The pairs ex:t picked from, so a screen can show an experiment's results again in the other
 * language without running it again (a measurement would give other numbers). Bounded: past
 * TR_MAX pairs the rest stay in the language they were written in; the search for a pair
 * already kept is charged to the run's budget like any loop the caller sizes. */
#define TR_MAX 4096 /* about 100 per lesson; pairs stay for the session (kept results use them) */

int lt_tr_add(lua_State *L)
{
    struct lt_runtime *rt = lt_vm_of(L)->rt;
    const char *en = luaL_checkstring(L, 1), *zh = luaL_checkstring(L, 2);
    if (!*en || !*zh || !strcmp(en, zh) || rt->ntr >= TR_MAX) return 0;
    lt_vm_charge(L, rt->ntr + 1);
    for (int i = rt->ntr - 1; i >= 0; i--)
        if (!strcmp(rt->tr[i].s[0], en) && !strcmp(rt->tr[i].s[1], zh)) return 0;
    if (rt->ntr == rt->cap_tr) {
        int nc = rt->cap_tr ? rt->cap_tr * 2 : 64;
        struct lt_tr *n = realloc(rt->tr, (size_t)nc * sizeof *n);
        if (!n) return 0;
        rt->tr = n, rt->cap_tr = nc;
    }
    char *a = strdup(en), *b = strdup(zh);
    if (!a || !b) {
        free(a), free(b);
        return 0;
    }
    rt->tr[rt->ntr++] = (struct lt_tr){{a, b}};
    return 0;
}

const char *lt_runtime_translate(const struct lt_runtime *rt, const char *s, const char *lang,
                                 char *buf, size_t n)
{
    int to = lang && !strcmp(lang, "zh"), from = !to;
    size_t best = 0;
    int bi = -1;
    if (!s || !*s) return s;
    for (int i = 0; i < rt->ntr; i++) {
        const char *k = rt->tr[i].s[from];
        size_t kl = strlen(k);
        if (!strcmp(k, s)) return rt->tr[i].s[to];
        /* a known start: "forward " .. stage; the longest wins, and it must end a word */
        if (kl > best && kl >= 3 && !strncmp(k, s, kl) &&
            (k[kl - 1] == ' ' || (unsigned char)k[kl - 1] >= 0x80 || strchr(":(", k[kl - 1])))
            best = kl, bi = i;
    }
    if (bi < 0) return s;
    int w = snprintf(buf, n, "%s%s", rt->tr[bi].s[to], s + best);
    return w >= 0 && (size_t)w < n ? buf : s;
}

/* ---- jobs --------------------------------------------------------------------------------- */

static void *job_main(void *arg)
{
    struct lt_job *j = arg;
    struct lt_runtime *rt = j->rt;
    pthread_mutex_lock(&rt->devlock);
    j->fn(j);
    pthread_mutex_unlock(&rt->devlock);
    pthread_mutex_lock(&rt->job_mu);
    atomic_store(&j->done, 1);
    pthread_cond_broadcast(&rt->job_cv);
    pthread_mutex_unlock(&rt->job_mu);
    return NULL;
}

/* Start j on a worker; false when no thread could be made (the caller runs it inline). The
 * worker takes no signals: a quit signal goes to the thread whose loop reads its flag. */
static bool job_start(struct lt_runtime *rt, struct lt_job *j)
{
    j->rt = rt;
    atomic_store(&j->done, 0);
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, &old);
    bool ok = pthread_create(&j->th, NULL, job_main, j) == 0;
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    return ok;
}

/* The results, or the sandbox stop when a limit ended the wait (the job was cancelled). */
static int job_finish(lua_State *L, struct lt_job *j)
{
    struct lt_vm *vm = lt_vm_of(L);
    if (vm->tripped || vm->wall_tripped) return lt_vm_stop(L);
    return j->push(L, j);
}

static int job_cont(lua_State *L, int status, lua_KContext ctx)
{
    struct lt_job *j = (struct lt_job *)ctx;
    struct lt_runtime *rt = j->rt;
    if (rt->job == j) lt_job_wait(rt);
    return job_finish(L, j);
}

/* Wait on this thread until j is done. The wait ends the run at `deadline` (0: none): the job
 * is cancelled at its next check and the limit marked as spent. */
static void wait_until(struct lt_vm *vm, struct lt_job *j, double deadline, bool wall)
{
    struct lt_runtime *rt = vm->rt;
    pthread_mutex_lock(&rt->job_mu);
    while (!atomic_load(&j->done)) {
        if (deadline > 0 && !gpu_cancelled(&rt->cancel)) {
            struct timespec ts;
            double whole = floor(deadline);
            ts.tv_sec = (time_t)whole;
            ts.tv_nsec = (long)((deadline - whole) * 1e9);
            if (pthread_cond_timedwait(&rt->job_cv, &rt->job_mu, &ts) == ETIMEDOUT &&
                !atomic_load(&j->done)) {
                gpu_cancel_set(&rt->cancel, true);
                vm->tripped = true;
                vm->wall_tripped |= wall;
            }
        } else {
            pthread_cond_wait(&rt->job_cv, &rt->job_mu);
        }
    }
    pthread_mutex_unlock(&rt->job_mu);
    pthread_join(j->th, NULL);
}

/* A job the calling thread waits for. Headless, the measurement's time is not Lua's (the Lua
 * time limit is paused) and the run's wall-time limit bounds it. In the TUI this happens only
 * where nothing can yield (a metamethod, a C callback, a lesson file loading): the screen is
 * frozen meanwhile, so the wait counts as Lua time and the Lua time limit bounds it too. */
static void wait_here(struct lt_vm *vm, struct lt_job *j)
{
    struct lt_runtime *rt = vm->rt;
    bool running = vm->armed;
    double deadline = vm->wall_end, t0 = gpu_now();
    bool wall = true;
    /* Lua's limit is on the thread's CPU time, which a wait does not use: in the TUI the wait
     * gets what is left of it as wall time, and is charged to it afterwards */
    double lua_end = t0 + (vm->deadline - gpu_cpu_now());
    if (rt->async && running && (deadline <= 0 || lua_end < deadline))
        deadline = lua_end, wall = false;
    if (!rt->async && running) lt_vm_publish(vm, false); /* not computing: the watchdog waits */
    wait_until(vm, j, deadline, wall && deadline > 0);
    if (rt->async && running) vm->deadline -= gpu_now() - t0;
    if (running) lt_vm_publish(vm, true);
}

int lt_job_run(lua_State *L, struct lt_job *j)
{
    struct lt_vm *vm = lt_vm_of(L);
    struct lt_runtime *rt = vm->rt;
    lt_vm_charge(L, 1); /* a spent limit stops the run before another measurement starts */
    if (lt_job_can_yield(L) && job_start(rt, j)) {
        rt->job = j;
        if (L != vm->task.co) vm->propagate = true; /* lt_coro.c passes it up */
        /* j lives in a userdata the caller left on this coroutine's stack: it survives the yield */
        return lua_yieldk(L, 0, (lua_KContext)j, job_cont);
    }
    if (job_start(rt, j)) {
        wait_here(vm, j);
    } else { /* no thread: inline, as a last resort */
        pthread_mutex_lock(&rt->devlock);
        j->fn(j);
        pthread_mutex_unlock(&rt->devlock);
        atomic_store(&j->done, 1);
    }
    if (j->release) j->release(j);
    return job_finish(L, j);
}

void lt_job_wait_here(lua_State *L)
{
    struct lt_vm *vm = lt_vm_of(L);
    struct lt_runtime *rt = vm->rt;
    struct lt_job *j = rt->job;
    if (!j) return;
    wait_here(vm, j);
    rt->job = NULL;
    if (j->release) j->release(j);
}

bool lt_job_poll(struct lt_runtime *rt)
{
    if (!rt->job) return true;
    if (!atomic_load(&rt->job->done)) return false;
    lt_job_wait(rt);
    return true;
}

void lt_job_wait(struct lt_runtime *rt)
{
    struct lt_job *j = rt->job;
    if (!j) return;
    pthread_join(j->th, NULL);
    rt->job = NULL;
    if (j->release) j->release(j);
}

/* ex:pause(seconds): lets the screen show an intermediate state (a memory map at its peak) before
 * the experiment goes on. Only the TUI waits; headless runs and tests go straight through. The
 * screen may end a pause early (the next step) or, stepping, make each last until it does. The
 * pause is the learner's time, not the run's: the wall-time limit stops while it lasts (a pause
 * always answers the cancel flag, so nothing can hang in one). */
struct pause_job {
    struct lt_job base;
    double seconds;
    double wall_left; /* what the run's wall-time limit had left (0: no limit) */
};

static void pause_fn(struct lt_job *j)
{
    struct lt_runtime *rt = j->rt;
    double end = gpu_now() + ((struct pause_job *)j)->seconds;
    while (!gpu_cancelled(&rt->cancel) && !atomic_exchange(&rt->pause_next, false) &&
           (atomic_load(&rt->stepping) || gpu_now() < end)) {
        struct timespec ts = {0, 20 * 1000 * 1000};
        nanosleep(&ts, NULL);
    }
}

static int pause_push(lua_State *L, struct lt_job *j)
{
    struct lt_vm *vm = lt_vm_of(L);
    double left = ((struct pause_job *)j)->wall_left;
    if (left > 0) vm->wall_end = gpu_now() + left;
    lt_vm_publish(vm, true);
    return 0;
}

bool lt_runtime_pausing(const struct lt_runtime *rt)
{
    return rt->job && rt->job->pause && !atomic_load(&rt->job->done);
}

unsigned lt_runtime_pauses(const struct lt_runtime *rt) { return rt->pauses; }
void lt_runtime_pause_next(struct lt_runtime *rt) { atomic_store(&rt->pause_next, true); }
void lt_runtime_set_stepping(struct lt_runtime *rt, bool on) { atomic_store(&rt->stepping, on); }
bool lt_runtime_stepping(const struct lt_runtime *rt) { return atomic_load(&rt->stepping); }

int lt_pause(lua_State *L)
{
    double s = luaL_checknumber(L, 1);
    if (!lt_job_can_yield(L) || !(s > 0)) return 0;
    struct lt_vm *vm = lt_vm_of(L);
    struct pause_job *p = lua_newuserdatauv(L, sizeof *p, 0);
    memset(p, 0, sizeof *p);
    p->base.fn = pause_fn;
    p->base.push = pause_push;
    p->base.pause = true;
    p->seconds = s > 5 ? 5 : s;
    double now = gpu_now();
    p->wall_left = vm->wall_end > 0 ? (vm->wall_end > now ? vm->wall_end - now : 1e-3) : 0;
    vm->wall_end = 0; /* published when the call yields; set again when the pause ends */
    atomic_store(&vm->rt->pause_next, false); /* a key pressed before the pause is not for it */
    vm->rt->pauses++;
    return lt_job_run(L, &p->base);
}
