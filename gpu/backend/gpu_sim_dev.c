/* gpu_sim_dev.c - see gpu_sim_dev.h: the profile a simulator device was opened with, fault
 * injection and the one-sided noise every simulated time gets. */
#include "gpu_sim_dev.h"

#include <time.h>

const struct gpu_profile *gpu_sim_profile(const struct gpu_dev *dev)
{
    return dev && dev->be == &gpu_sim_backend ? &((const struct sim_dev *)dev)->prof : NULL;
}

/* Fault injection for tests: fault_sticky = N (VRAMLAB_FAULT_STICKY) makes the Nth device
 * operation (alloc, memset, copy, latency, STREAM) fail as an illegal address or a kernel fault
 * does on a real GPU: sticky, the context is lost for the rest of the process. fault_hang = N
 * (VRAMLAB_FAULT_HANG) makes the Nth one never return, as a hung kernel or driver call does: it ignores cancellation, so only
 * the watchdog (tui/screen/tui_watchdog.c) can end the process. */
static bool sticky_fault(struct sim_dev *d, const char *what)
{
    if (!d->sticky_at && !d->hang_at) return false;
    d->ops++;
    while (d->ops == d->hang_at) {
        struct timespec ts = {1, 0};
        nanosleep(&ts, NULL);
    }
    if (d->ops != d->sticky_at) return false;
    d->pub.failed = GPU_ERR_STICKY;
    gpu_set_why(&d->pub, "cudaErrorIllegalAddress (an illegal memory access was encountered) in "
                "%s: SIMULATED sticky error injected at device operation #%ld "
                "(VRAMLAB_FAULT_STICKY); the GPU context is lost until vramlab restarts",
                what, d->ops);
    return true;
}

static double noisy(struct sim_dev *d, double t)
{
    if (d->deterministic || d->prof.noise <= 0) return t;
    /* Measurement noise is one-sided: interference only ever makes a run slower. */
    double u = (gpu_rand(&d->rng) >> 11) * (1.0 / 9007199254740992.0);
    return t * (1.0 + d->prof.noise * u * u * 3.0);
}

double gpu_sim_noisy(struct gpu_dev *dev, double t)
{
    return noisy((struct sim_dev *)dev, t);
}

bool gpu_sim_fault(struct gpu_dev *dev, const char *what)
{
    return sticky_fault((struct sim_dev *)dev, what);
}
