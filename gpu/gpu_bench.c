/* gpu_bench.c - backend-neutral device experiments: buffers within the cap, warm-up, timed
 * trials, statistics, and everything freed on every path (error and cancel included). */
#include "gpu.h"

#include <math.h>

#define TARGET_TRIAL_S 0.02 /* aim each timed trial at ~20 ms of back-to-back copies */
#define EVENT_RES_S 0.5e-6  /* cudaEventElapsedTime resolution (CUDA runtime API docs) */

static int auto_reps(double one_copy_s)
{
    if (!(one_copy_s > 0)) return 1;
    double r = ceil(TARGET_TRIAL_S / one_copy_s);
    return r < 1 ? 1 : r > 1000 ? 1000 : (int)r;
}

static gpu_status check_copy_req(struct gpu_dev *dev, const struct gpu_copy_req *q)
{
    unsigned caps = dev->be->caps;
    if (q->bytes == 0 || q->dir > GPU_D2D || q->method > GPU_SM || q->trials < 0 ||
        q->trials > GPU_MAX_SAMPLES || q->reps < 0) {
        gpu_set_why(dev, "copy: bytes must be > 0, trials 0..%d, reps >= 0", GPU_MAX_SAMPLES);
        return GPU_ERR_ARG;
    }
    if (q->method == GPU_SM && !(caps & GPU_CAP_SM_COPY)) {
        gpu_set_why(dev, "the %s backend has no SM copy kernel", dev->be->name);
        return GPU_ERR_UNSUPPORTED;
    }
    if (q->pinned && !(caps & GPU_CAP_PINNED)) {
        gpu_set_why(dev, "the %s backend cannot page-lock host memory", dev->be->name);
        return GPU_ERR_UNSUPPORTED;
    }
    if (q->method == GPU_SM && q->dir != GPU_D2D && !q->pinned) {
        gpu_set_why(dev, "an SM kernel can only reach host memory that is pinned (pinned=true)");
        return GPU_ERR_UNSUPPORTED;
    }
    return GPU_OK;
}

gpu_status gpu_bench_copy(struct gpu_dev *dev, const struct gpu_copy_req *q, struct gpu_result *r,
                          gpu_cancel_flag *cancel)
{
    const struct gpu_backend *be = dev->be;
    void *a = NULL, *b = NULL; /* a: device; b: device (D2D) or host */
    double t[GPU_MAX_SAMPLES], one = 0;
    int trials = q->trials ? q->trials : 10, reps = q->reps;
    bool d2d = q->dir == GPU_D2D;
    *r = (struct gpu_result){.bytes = q->bytes, .simulated = dev->info.simulated};
    if (dev->failed) return GPU_ERR_STICKY;
    gpu_status st = check_copy_req(dev, q);
    if (st != GPU_OK) return st;

    uint64_t need = d2d ? 2 * q->bytes : q->bytes, budget = gpu_alloc_budget(dev);
    if (need > budget) {
        gpu_set_why(dev, "copy of %.2f MiB needs %.2f MiB of device memory; experiments may take "
                    "at most %.0f%% of free memory (%.2f MiB)", q->bytes / 1048576.0,
                    need / 1048576.0, dev->cap_fraction * 100, budget / 1048576.0);
        return GPU_ERR_CAP;
    }
    st = gpu_alloc(dev, q->bytes, &a);
    if (st == GPU_OK)
        st = d2d ? gpu_alloc(dev, q->bytes, &b) : gpu_host_alloc(dev, q->bytes, q->pinned, &b);
    if (st == GPU_OK) st = be->memset(dev, a, 1, q->bytes);
    if (st == GPU_OK && d2d) st = be->memset(dev, b, 2, q->bytes);

    void *dst = q->dir == GPU_D2H ? b : a, *src = q->dir == GPU_D2H ? a : b;
    if (q->dir == GPU_D2D) dst = b, src = a;
    /* Warm-up: first-touch, context and clock ramp-up stay out of the timed trials. */
    if (st == GPU_OK) st = be->copy(dev, q->dir, q->method, dst, src, q->bytes, 1, &one);
    if (st == GPU_OK && !reps) reps = auto_reps(one);
    if (st == GPU_OK) st = be->copy(dev, q->dir, q->method, dst, src, q->bytes, reps, &one);
    for (int i = 0; st == GPU_OK && i < trials; i++) {
        if (gpu_cancelled(cancel)) st = GPU_ERR_CANCELLED;
        else st = be->copy(dev, q->dir, q->method, dst, src, q->bytes, reps, &t[i]);
    }

    if (b) d2d ? (void)gpu_free(dev, b, q->bytes) : (void)gpu_host_free(dev, b, q->pinned);
    gpu_free(dev, a, q->bytes);
    if (st != GPU_OK) return st;

    gpu_stats(r, t, trials);
    r->moved_bytes = 2 * q->bytes;
    r->bytes_per_s = q->bytes / r->best_s;
    r->rw_bytes_per_s = d2d ? 2.0 * q->bytes / r->best_s : 0;
    r->ticks = r->best_s * reps / EVENT_RES_S;
    if (!r->simulated && r->ticks < 20) r->warn |= GPU_WARN_FEW_TICKS;
    if (r->simulated) r->warn &= ~GPU_WARN_SPREAD; /* the model's noise is not a machine's */
    return GPU_OK;
}

gpu_status gpu_bench_latency(struct gpu_dev *dev, uint64_t bytes, struct gpu_result *r,
                             gpu_cancel_flag *cancel)
{
    double t[GPU_MAX_SAMPLES], ns = 0;
    const int trials = 5;
    *r = (struct gpu_result){.bytes = bytes, .simulated = dev->info.simulated};
    if (dev->failed) return GPU_ERR_STICKY;
    if (!(dev->be->caps & GPU_CAP_LATENCY)) {
        gpu_set_why(dev, "the %s backend has no latency kernel", dev->be->name);
        return GPU_ERR_UNSUPPORTED;
    }
    if (bytes < 4096) {
        gpu_set_why(dev, "latency: working set must be at least 4 KiB");
        return GPU_ERR_ARG;
    }
    uint64_t budget = gpu_alloc_budget(dev);
    if (bytes > budget) {
        gpu_set_why(dev, "latency working set of %.2f MiB exceeds the experiment cap (%.2f MiB)",
                    bytes / 1048576.0, budget / 1048576.0);
        return GPU_ERR_CAP;
    }
    gpu_status st = dev->be->latency(dev, bytes, 1u << 16, &ns); /* warm-up */
    for (int i = 0; st == GPU_OK && i < trials; i++) {
        if (gpu_cancelled(cancel)) return GPU_ERR_CANCELLED;
        st = dev->be->latency(dev, bytes, 1u << 18, &ns);
        t[i] = ns * 1e-9;
    }
    if (st != GPU_OK) return st;
    gpu_stats(r, t, trials);
    r->ns_per_load = r->best_s * 1e9;
    if (r->simulated) r->warn &= ~GPU_WARN_SPREAD;
    return GPU_OK;
}

gpu_status gpu_bench_stream(struct gpu_dev *dev, int kind, uint64_t bytes, int trials,
                            struct gpu_result *r, gpu_cancel_flag *cancel)
{
    const struct gpu_backend *be = dev->be;
    void *a = NULL, *b = NULL, *c = NULL;
    double t[GPU_MAX_SAMPLES], one = 0;
    int reps = 1;
    *r = (struct gpu_result){.bytes = bytes, .simulated = dev->info.simulated};
    if (dev->failed) return GPU_ERR_STICKY;
    if (kind < GPU_HOST_COPY || kind > GPU_HOST_TRIAD || bytes < 4096 || trials < 1 ||
        trials > GPU_MAX_SAMPLES) {
        gpu_set_why(dev, "stream: kernel copy/scale/add/triad, bytes >= 4 KiB, trials 1..%d",
                    GPU_MAX_SAMPLES);
        return GPU_ERR_ARG;
    }
    if (!be->stream) {
        gpu_set_why(dev, "the %s backend has no STREAM kernels", be->name);
        return GPU_ERR_UNSUPPORTED;
    }
    bytes = bytes / 8 * 8;
    uint64_t budget = gpu_alloc_budget(dev);
    if (3 * bytes > budget) {
        gpu_set_why(dev, "STREAM needs 3 x %.2f MiB of device memory; experiments may take at most "
                    "%.2f MiB", bytes / 1048576.0, budget / 1048576.0);
        return GPU_ERR_CAP;
    }
    gpu_status st = gpu_alloc(dev, bytes, &a);
    if (st == GPU_OK) st = gpu_alloc(dev, bytes, &b);
    if (st == GPU_OK) st = gpu_alloc(dev, bytes, &c);
    for (int i = 0; st == GPU_OK && i < 3; i++) st = be->memset(dev, i ? i == 1 ? b : c : a, 0, bytes);
    if (st == GPU_OK) st = be->stream(dev, kind, a, b, c, bytes, 1, &one);
    if (st == GPU_OK) reps = auto_reps(one);
    for (int i = 0; st == GPU_OK && i < trials; i++) {
        if (gpu_cancelled(cancel)) st = GPU_ERR_CANCELLED;
        else st = be->stream(dev, kind, a, b, c, bytes, reps, &t[i]);
    }
    gpu_free(dev, c, bytes);
    gpu_free(dev, b, bytes);
    gpu_free(dev, a, bytes);
    if (st != GPU_OK) return st;
    gpu_stats(r, t, trials);
    r->moved_bytes = (kind == GPU_HOST_ADD || kind == GPU_HOST_TRIAD ? 3 : 2) * bytes;
    r->bytes_per_s = r->moved_bytes / r->best_s;
    r->rw_bytes_per_s = r->bytes_per_s;
    r->ticks = r->best_s * reps / EVENT_RES_S;
    if (!r->simulated && r->ticks < 20) r->warn |= GPU_WARN_FEW_TICKS;
    if (r->simulated) r->warn &= ~GPU_WARN_SPREAD;
    return GPU_OK;
}
