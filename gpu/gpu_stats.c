/* gpu_stats.c - best/median/worst/spread over timed trials, the monotonic clock, and the small
 * RNG shared by the simulator and the pointer-chase setup. */
#include "gpu.h"

#include <pthread.h>
#include <stdlib.h>
#include <time.h>

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double gpu_median(double *t, int n)
{
    if (n <= 0) return 0;
    qsort(t, (size_t)n, sizeof *t, cmp_double);
    return n % 2 ? t[n / 2] : 0.5 * (t[n / 2 - 1] + t[n / 2]);
}

void gpu_stats(struct gpu_result *r, const double *t, int n)
{
    double s[GPU_MAX_SAMPLES];
    if (n > GPU_MAX_SAMPLES) n = GPU_MAX_SAMPLES;
    for (int i = 0; i < n; i++) s[i] = t[i];
    r->samples = n;
    r->median_s = gpu_median(s, n);
    r->best_s = n ? s[0] : 0;
    r->worst_s = n ? s[n - 1] : 0;
    r->spread = r->best_s > 0 ? (r->worst_s - r->best_s) / r->best_s : 0;
    if (r->spread > 0.10) r->warn |= GPU_WARN_SPREAD;
}

double gpu_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

double gpu_clock_read(clockid_t clock)
{
    struct timespec ts;
    if (clock_gettime(clock, &ts) != 0) return 0;
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

double gpu_cpu_now(void) { return gpu_clock_read(CLOCK_THREAD_CPUTIME_ID); }

clockid_t gpu_cpu_clock(void)
{
    clockid_t c;
    return pthread_getcpuclockid(pthread_self(), &c) == 0 ? c : CLOCK_THREAD_CPUTIME_ID;
}

double gpu_timer_resolution(void)
{
    struct timespec ts;
    clock_getres(CLOCK_MONOTONIC, &ts);
    double res = ts.tv_sec + ts.tv_nsec * 1e-9;
    return res > 0 ? res : 1e-9;
}

uint64_t gpu_rand(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15ull); /* splitmix64 */
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}
