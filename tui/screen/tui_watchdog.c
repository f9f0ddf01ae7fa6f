/* tui_watchdog.c - see tui_watchdog.h. The thread wakes ten times a second and reads two things
 * that other threads publish for it: what the sandbox runs and its deadlines (a mutex-protected
 * copy in the runtime, lt_runtime_activity) and the first quit signal with its time (atomics
 * in tui_term.c). When it acts it uses only what is safe while another thread is stuck in any
 * state: write(2), the async-signal-safe terminal restore, _exit. */
#include "tui_watchdog.h"

#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "tui_state.h"
#include "tui_term.h"

#define WATCHDOG_MAX_MARGIN 5.0 /* s */
#define QUIT_GRACE 2.0          /* s a quit signal may wait for the loop */

static struct {
    pthread_t th;
    bool started, stop;
    pthread_mutex_t mu; /* with cv: stop wakes the thread at once */
    pthread_cond_t cv;
    struct lt_runtime *rt;
} W = {.mu = PTHREAD_MUTEX_INITIALIZER};

double tui_watchdog_margin(double limit)
{
    return limit < WATCHDOG_MAX_MARGIN ? limit : WATCHDOG_MAX_MARGIN;
}

static void say(const char *msg)
{
    size_t len = strlen(msg);
    while (len) {
        ssize_t k = write(STDERR_FILENO, msg, len);
        if (k <= 0) break;
        msg += k, len -= (size_t)k;
    }
}

/* msg ends "...; " and goes on with what happens now */
static _Noreturn void fire(int code, const char *msg)
{
    char tail[120];
    bool screen = tui_term_emergency_restore();
    snprintf(tail, sizeof tail, "%svramlab exits with code %d\n",
             screen ? "the terminal was restored and " : "", code);
    say(msg);
    say(tail);
    tui_state_reap();
    _exit(code);
}

static const char *signame(int sig)
{
    switch (sig) {
    case SIGINT: return "Ctrl-C (SIGINT)";
    case SIGTERM: return "SIGTERM";
    case SIGHUP: return "SIGHUP";
    case SIGQUIT: return "SIGQUIT";
    default: return "a quit signal";
    }
}

static void check(void)
{
    struct lt_activity a;
    char msg[800];
    double now = gpu_now(), at = 0;
    lt_runtime_activity(W.rt, &a);
    double lua_now = a.lua_deadline > 0 ? gpu_clock_read(a.lua_clock) : 0;
    if (a.lua_deadline > 0 && lua_now > a.lua_deadline + tui_watchdog_margin(a.lua_limit)) {
        snprintf(msg, sizeof msg, "\nvramlab: watchdog: %s ran %.1f s past the sandbox's limit of "
                 "%g s of Lua time without stopping (stuck inside a C call); ", a.what,
                 lua_now - a.lua_deadline, a.lua_limit);
        fire(TUI_WATCHDOG_EXIT, msg);
    }
    if (a.wall_end > 0 && now > a.wall_end + tui_watchdog_margin(a.wall_limit)) {
        snprintf(msg, sizeof msg, "\nvramlab: watchdog: %s ran %.1f s past the sandbox's limit of "
                 "%g s of wall time (measurements included) without stopping (a measurement that "
                 "did not answer its cancel?); ", a.what, now - a.wall_end, a.wall_limit);
        fire(TUI_WATCHDOG_EXIT, msg);
    }
    int sig = tui_term_signal_since(&at);
    if (sig && now - at > QUIT_GRACE) {
        snprintf(msg, sizeof msg, "\nvramlab: watchdog: %s came %.1f s ago and vramlab did not "
                 "get to it (%s %s); ", signame(sig), now - at, a.wall_end > 0 ? "running" : "busy",
                 a.wall_end > 0 ? a.what : "outside the sandbox");
        fire(128 + sig, msg);
    }
}

static void *loop(void *arg)
{
    (void)arg;
    /* quit signals are for the main thread's handlers; this thread never takes one */
    sigset_t all;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, NULL);
    pthread_mutex_lock(&W.mu);
    while (!W.stop) {
        struct timespec ts;
        clock_gettime(CLOCK_MONOTONIC, &ts);
        ts.tv_nsec += 100 * 1000 * 1000;
        if (ts.tv_nsec >= 1000000000L) ts.tv_sec++, ts.tv_nsec -= 1000000000L;
        pthread_cond_timedwait(&W.cv, &W.mu, &ts);
        if (W.stop) break;
        pthread_mutex_unlock(&W.mu);
        check();
        pthread_mutex_lock(&W.mu);
    }
    pthread_mutex_unlock(&W.mu);
    return NULL;
}

void tui_watchdog_start(struct lt_runtime *rt)
{
    if (W.started || !rt) return;
    W.rt = rt;
    W.stop = false;
    pthread_condattr_t ca;
    pthread_condattr_init(&ca);
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    pthread_cond_init(&W.cv, &ca);
    pthread_condattr_destroy(&ca);
    W.started = pthread_create(&W.th, NULL, loop, NULL) == 0;
}

void tui_watchdog_stop(void)
{
    if (!W.started) return;
    pthread_mutex_lock(&W.mu);
    W.stop = true;
    pthread_cond_signal(&W.cv);
    pthread_mutex_unlock(&W.mu);
    pthread_join(W.th, NULL);
    pthread_cond_destroy(&W.cv);
    W.started = false;
}

void tui_watchdog_fatal(const char *msg)
{
    (void)msg; /* the caller prints it, on the restored terminal */
    tui_term_emergency_restore();
}
