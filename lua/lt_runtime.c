/* lt_runtime.c - what all VMs of a process share: the device, language, sink, limits, and the
 * worker thread that runs long primitives while an experiment coroutine yields. */
#include "lt.h"
#include "lt_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct lt_runtime *lt_runtime_new(struct gpu_dev *dev, const char *datadir)
{
    struct lt_runtime *rt = calloc(1, sizeof *rt);
    if (!rt) return NULL;
    rt->dev = dev;
    snprintf(rt->datadir, sizeof rt->datadir, "%s", datadir ? datadir : ".");
    strcpy(rt->lang, "en");
    rt->lim = (struct lt_limits){64u << 20, 200000000LL, 10.0};
    pthread_mutex_init(&rt->devlock, NULL);
    return rt;
}

void lt_runtime_free(struct lt_runtime *rt)
{
    if (!rt) return;
    if (rt->job) lt_job_wait(rt);
    pthread_mutex_destroy(&rt->devlock);
    free(rt);
}

void lt_runtime_set_sink(struct lt_runtime *rt, lt_sink_fn fn, void *ud)
{
    rt->sink = fn;
    rt->sink_ud = ud;
}

void lt_runtime_set_lang(struct lt_runtime *rt, const char *lang)
{
    snprintf(rt->lang, sizeof rt->lang, "%s", lang && !strcmp(lang, "zh") ? "zh" : "en");
}

const char *lt_runtime_lang(const struct lt_runtime *rt) { return rt->lang; }
void lt_runtime_set_limits(struct lt_runtime *rt, const struct lt_limits *lim) { rt->lim = *lim; }
void lt_runtime_set_async(struct lt_runtime *rt, bool async) { rt->async = async; }
struct gpu_dev *lt_runtime_dev(struct lt_runtime *rt) { return rt->dev; }
bool lt_runtime_computing(const struct lt_runtime *rt) { return rt->run_thread && !rt->job; }
const char *lt_runtime_datadir(const struct lt_runtime *rt) { return rt->datadir; }

void lt_runtime_backend_line(struct lt_runtime *rt, char *buf, size_t n)
{
    const struct gpu_info *i = &rt->dev->info;
    if (i->simulated) snprintf(buf, n, "SIMULATED · %s profile (%s)", i->name, i->profile);
    else snprintf(buf, n, "CUDA device %d · %s%s", i->device, i->name, i->mig ? " (MIG slice)" : "");
}

static void *job_main(void *arg)
{
    struct lt_job *j = arg;
    pthread_mutex_lock(&j->rt->devlock);
    j->fn(j);
    pthread_mutex_unlock(&j->rt->devlock);
    atomic_store(&j->done, 1);
    return NULL;
}

static int job_cont(lua_State *L, int status, lua_KContext ctx)
{
    struct lt_job *j = (struct lt_job *)ctx;
    struct lt_runtime *rt = j->rt;
    if (rt->job == j) lt_job_wait(rt);
    return j->push(L, j);
}

int lt_job_run(lua_State *L, struct lt_job *j)
{
    struct lt_runtime *rt = lt_vm_of(L)->rt;
    j->rt = rt;
    atomic_store(&j->done, 0);
    if (rt->async && L == rt->run_thread && lua_isyieldable(L) && !rt->job &&
        pthread_create(&j->th, NULL, job_main, j) == 0) {
        rt->job = j;
        /* j lives in a userdata the caller left on this coroutine's stack: it survives the yield */
        return lua_yieldk(L, 0, (lua_KContext)j, job_cont);
    }
    double t0 = gpu_now();
    pthread_mutex_lock(&rt->devlock);
    j->fn(j);
    pthread_mutex_unlock(&rt->devlock);
    atomic_store(&j->done, 1);
    lt_vm_of(L)->deadline += gpu_now() - t0; /* the limit is on Lua's time, not the measurement's */
    return j->push(L, j);
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
    if (!rt->job) return;
    pthread_join(rt->job->th, NULL);
    rt->job = NULL;
}

/* ex:pause(seconds): lets the screen show an intermediate state (a memory map at its peak) before
 * the experiment goes on. Only the TUI waits; headless runs and tests go straight through. */
struct pause_job {
    struct lt_job base;
    double seconds;
};

static void pause_fn(struct lt_job *j)
{
    double end = gpu_now() + ((struct pause_job *)j)->seconds;
    while (gpu_now() < end && !j->rt->cancel) {
        struct timespec ts = {0, 20 * 1000 * 1000};
        nanosleep(&ts, NULL);
    }
}

static int pause_push(lua_State *L, struct lt_job *j) { return 0; }

int lt_pause(lua_State *L)
{
    double s = luaL_checknumber(L, 1);
    struct lt_runtime *rt = lt_vm_of(L)->rt;
    if (!rt->async || L != rt->run_thread || !(s > 0)) return 0;
    struct pause_job *p = lua_newuserdatauv(L, sizeof *p, 0);
    memset(p, 0, sizeof *p);
    p->base.fn = pause_fn;
    p->base.push = pause_push;
    p->seconds = s > 5 ? 5 : s;
    return lt_job_run(L, &p->base);
}
