/* gpu_bench.c - backend-neutral device experiments: buffers within the cap, known content in,
 * warm-up, timed trials, statistics, then the content checked (nvbandwidth and BabelStream do the
 * same: a copy or kernel whose data is wrong is a failed run, never a number), and everything
 * freed on every path (error and cancel included). */
#include "gpu.h"

#include <math.h>
#include <string.h>

#include "gpu_numa.h"

#define TARGET_TRIAL_S 0.02 /* aim each timed trial at ~20 ms of back-to-back copies */
#define EVENT_RES_S 0.5e-6  /* cudaEventElapsedTime resolution (CUDA runtime API docs) */
#define EPS 2.220446049250313e-16 /* DBL_EPSILON */

int gpu_bench_reps(double one_s)
{
    if (!(one_s > 0)) return 1;
    double r = ceil(TARGET_TRIAL_S / one_s);
    return r < 1 ? 1 : r > 1000 ? 1000 : (int)r;
}

/* NVML's clocks into r, read between timed trials (the GPU is at its running clock then). */
static void run_clocks(struct gpu_dev *dev, struct gpu_result *r)
{
    struct gpu_clocks c;
    if (!dev->be->clocks || dev->be->clocks(dev, &c) != GPU_OK) return;
    r->run_sm_mhz = c.sm_mhz;
    r->run_mem_mhz = c.mem_mhz;
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
    if (q->single && !dev->be->copy_single) {
        gpu_set_why(dev, "the %s backend cannot time single copies", dev->be->name);
        return GPU_ERR_UNSUPPORTED;
    }
    return GPU_OK;
}

static gpu_status fill(struct gpu_dev *dev, void *p, uint64_t bytes, bool host,
                       const struct gpu_content *c)
{
    return dev->be->fill ? dev->be->fill(dev, p, bytes, host, c) : GPU_OK;
}

/* GPU_OK when p holds what it should; GPU_ERR_VALIDATION, saying what differs, when not. */
static gpu_status validate(struct gpu_dev *dev, const void *p, uint64_t bytes, bool host,
                           const struct gpu_content *want, const char *what, bool *checked)
{
    struct gpu_mismatch m;
    if (!dev->be->check) return GPU_OK;
    gpu_status st = dev->be->check(dev, p, bytes, host, want, &m);
    if (st != GPU_OK) return st;
    *checked = true;
    if (!m.count) return GPU_OK;
    char diff[160];
    gpu_mismatch_str(&m, want, bytes, diff, sizeof diff);
    gpu_set_why(dev, "validation failed: %s: %s; the figure is not reported", what, diff);
    return GPU_ERR_VALIDATION;
}

/* What every device result carries besides its times: warnings the backend raised during the
 * timed calls, other processes on the GPU, a MIG slice's whole-GPU peak. */
void gpu_bench_finish(struct gpu_dev *dev, struct gpu_result *r, int reps)
{
    r->warn |= dev->op_warn;
    if (dev->be->shared && dev->be->shared(dev)) r->warn |= GPU_WARN_SHARED_GPU;
    if (dev->info.mig) r->warn |= GPU_WARN_MIG;
    r->ticks = r->best_s * reps / EVENT_RES_S;
    if (!r->simulated && r->ticks < 20) r->warn |= GPU_WARN_FEW_TICKS;
    if (r->simulated) r->warn &= ~GPU_WARN_SPREAD; /* the model's noise is not a machine's */
}

gpu_status gpu_bench_copy(struct gpu_dev *dev, const struct gpu_copy_req *q, struct gpu_result *r,
                          gpu_cancel_flag *cancel)
{
    const struct gpu_backend *be = dev->be;
    void *a = NULL, *b = NULL; /* a: device; b: device (D2D) or host */
    double t[GPU_MAX_SAMPLES], one = 0;
    int trials = q->trials ? q->trials : 10, reps = q->reps;
    bool d2d = q->dir == GPU_D2D, checked = false;
    struct gpu_numa_pin pin = {.node = -1};
    *r = (struct gpu_result){.bytes = q->bytes, .simulated = dev->info.simulated, .numa_node = -1};
    if (dev->failed) return GPU_ERR_STICKY;
    gpu_status st = check_copy_req(dev, q);
    if (st != GPU_OK) return st;

    uint64_t need = d2d ? 2 * q->bytes : q->bytes, budget = gpu_alloc_budget(dev);
    if (need > budget) {
        gpu_set_why_key(dev, GPU_WHY_COPY_CAP, q->bytes / 1048576.0, need / 1048576.0,
                        dev->cap_fraction * 100, budget / 1048576.0);
        return GPU_ERR_CAP;
    }
    /* The host buffer goes on the GPU's NUMA node: pinned next to it while it is allocated. */
    if (!d2d && gpu_numa_bind("/sys", dev->pci_bus_id, &pin) >= 0 && pin.pinned)
        r->numa_node = pin.node;
    st = gpu_alloc(dev, q->bytes, &a);
    if (st == GPU_OK)
        st = d2d ? gpu_alloc(dev, q->bytes, &b) : gpu_host_alloc(dev, q->bytes, q->pinned, &b);

    void *dst = q->dir == GPU_D2H ? b : a, *src = q->dir == GPU_D2H ? a : b;
    if (d2d) dst = b, src = a;
    /* nvbandwidth's recipe: the source holds an index-derived pattern, the destination another
     * one, so a copy that moved nothing (or moved it wrong) cannot pass the check. */
    const struct gpu_content pat = {.kind = GPU_CONTENT_PATTERN, .seed = 0xBAADF00D};
    const struct gpu_content old = {.kind = GPU_CONTENT_PATTERN, .seed = 0xCAFEBABE};
    if (st == GPU_OK) st = fill(dev, src, q->bytes, q->dir == GPU_H2D, &pat);
    if (st == GPU_OK) st = fill(dev, dst, q->bytes, q->dir == GPU_D2H, &old);
    dev->op_warn = 0;
    /* held batches (copy), or one copy at a time as an application makes them (copy_single) */
    gpu_status (*op)(struct gpu_dev *, enum gpu_dir, enum gpu_method, void *, const void *,
                     uint64_t, int, double *) = q->single ? be->copy_single : be->copy;
    /* Warm-up: first-touch, context and clock ramp-up stay out of the timed trials. */
    if (st == GPU_OK) st = op(dev, q->dir, q->method, dst, src, q->bytes, 1, &one);
    if (st == GPU_OK && !reps) reps = gpu_bench_reps(one);
    if (st == GPU_OK) st = op(dev, q->dir, q->method, dst, src, q->bytes, reps, &one);
    dev->op_warn = 0; /* what the warm-up raised does not concern the timed trials */
    for (int i = 0; st == GPU_OK && i < trials; i++) {
        if (gpu_cancelled(cancel)) st = GPU_ERR_CANCELLED;
        else st = op(dev, q->dir, q->method, dst, src, q->bytes, reps, &t[i]);
        if (st == GPU_OK && i == trials / 2) run_clocks(dev, r);
    }
    if (st == GPU_OK)
        st = validate(dev, dst, q->bytes, q->dir == GPU_D2H, &pat, "the copy's destination",
                      &checked);

    if (b) d2d ? (void)gpu_free(dev, b, q->bytes) : (void)gpu_host_free(dev, b, q->pinned);
    gpu_free(dev, a, q->bytes);
    gpu_numa_unbind(&pin);
    if (st != GPU_OK) return st;

    gpu_stats(r, t, trials);
    r->validated = checked;
    r->reps = reps;
    r->single = q->single;
    r->moved_bytes = 2 * q->bytes;
    r->bytes_per_s = q->bytes / r->best_s;
    r->rw_bytes_per_s = d2d ? 2.0 * q->bytes / r->best_s : 0;
    gpu_bench_finish(dev, r, reps);
    return GPU_OK;
}

gpu_status gpu_bench_latency(struct gpu_dev *dev, uint64_t bytes, struct gpu_result *r,
                             gpu_cancel_flag *cancel)
{
    return gpu_bench_latency_load(dev, bytes, GPU_LOAD_GLOBAL, r, cancel);
}

/* The SM clock a chase ran at (cycles / ns of its fastest SM) against the maximum: below 90 %, a
 * GPU that just left idle has not reached its running clock and its ns per load read slow. */
#define LOW_CLOCK 0.9
static double chase_mhz(const struct gpu_chase *c, int best)
{
    return c->cycles[best] > 0 && c->ns[best] > 0 ? 1e3 * c->cycles[best] / c->ns[best] : 0;
}

static int fastest(const struct gpu_chase *c)
{
    int best = 0;
    for (int i = 1; i < c->n; i++)
        if (c->ns[i] < c->ns[best]) best = i;
    return best;
}

gpu_status gpu_bench_latency_load(struct gpu_dev *dev, uint64_t bytes, enum gpu_chase_load load,
                                  struct gpu_result *r, gpu_cancel_flag *cancel)
{
    double t[GPU_MAX_CHASES];
    *r = (struct gpu_result){.bytes = bytes, .simulated = dev->info.simulated, .numa_node = -1,
                             .load = load};
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
        gpu_set_why_key(dev, GPU_WHY_LATENCY_CAP, bytes / 1048576.0, budget / 1048576.0, 0, 0);
        return GPU_ERR_CAP;
    }
    if (gpu_cancelled(cancel)) return GPU_ERR_CANCELLED;
    /* One chase from each of 5 SMs: an L2 hit's latency depends on which SM asks (the L2 is
     * split into partitions), so one SM's figure is not the GPU's. */
    struct gpu_chase c = {.bytes = bytes, .steps = 1u << 18, .n = 5, .load = load};
    dev->op_warn = 0;
    gpu_status st = dev->be->latency(dev, &c);
    if (st != GPU_OK) return st;
    /* Below the maximum SM clock the ns are the clock's, not the memory's: once more (the
     * backend warms the clock up before every chase), then say so. */
    const double max_mhz = dev->info.sm_clock_khz / 1e3;
    if (max_mhz > 0 && chase_mhz(&c, fastest(&c)) > 0 &&
        chase_mhz(&c, fastest(&c)) < LOW_CLOCK * max_mhz && !gpu_cancelled(cancel)) {
        struct gpu_chase again = c;
        if ((st = dev->be->latency(dev, &again)) != GPU_OK) return st;
        if (chase_mhz(&again, fastest(&again)) > chase_mhz(&c, fastest(&c))) c = again;
    }
    const int best = fastest(&c);
    for (int i = 0; i < c.n; i++) {
        t[i] = c.ns[i] * 1e-9;
        r->sm[i] = c.sm[i];
    }
    r->nsm = c.n;
    gpu_stats(r, t, c.n);
    r->ns_per_load = r->best_s * 1e9;
    r->cycles_per_load = c.cycles[best];
    r->sm_clock_mhz = chase_mhz(&c, best);
    r->sm_clock_max_mhz = max_mhz;
    r->low_clock = max_mhz > 0 && r->sm_clock_mhz > 0 && r->sm_clock_mhz < LOW_CLOCK * max_mhz;
    gpu_bench_finish(dev, r, 1);
    if (r->low_clock) r->warn |= GPU_WARN_LOW_CLOCK;
    r->warn &= ~GPU_WARN_FEW_TICKS; /* timed in-kernel over 2^18 loads, not by events */
    r->ticks = 0;
    return GPU_OK;
}

gpu_status gpu_bench_stream(struct gpu_dev *dev, int kind, uint64_t bytes, int trials,
                            struct gpu_result *r, gpu_cancel_flag *cancel)
{
    const struct gpu_backend *be = dev->be;
    void *a = NULL, *b = NULL, *c = NULL;
    double t[GPU_MAX_SAMPLES], one = 0, dot = 0;
    int reps = 1;
    bool checked = false;
    *r = (struct gpu_result){.bytes = bytes, .simulated = dev->info.simulated, .numa_node = -1};
    if (dev->failed) return GPU_ERR_STICKY;
    if (kind < GPU_HOST_COPY || kind > GPU_HOST_DOT || bytes < 4096 || trials < 1 ||
        trials > GPU_MAX_SAMPLES) {
        gpu_set_why(dev, "stream: kernel copy/scale/add/triad/dot, bytes >= 4 KiB, trials 1..%d",
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
        gpu_set_why_key(dev, GPU_WHY_STREAM_CAP, bytes / 1048576.0, budget / 1048576.0, 0, 0);
        return GPU_ERR_CAP;
    }
    gpu_status st = gpu_alloc(dev, bytes, &a);
    if (st == GPU_OK) st = gpu_alloc(dev, bytes, &b);
    if (st == GPU_OK) st = gpu_alloc(dev, bytes, &c);
    void *arr[3] = {a, b, c};
    const double init[3] = {GPU_STREAM_A, GPU_STREAM_B, GPU_STREAM_C};
    for (int i = 0; st == GPU_OK && i < 3; i++) {
        struct gpu_content v = {.kind = GPU_CONTENT_F64, .value = init[i]};
        st = fill(dev, arr[i], bytes, false, &v);
    }
    dev->op_warn = 0;
    if (st == GPU_OK) st = be->stream(dev, kind, a, b, c, bytes, 1, &one, &dot);
    if (st == GPU_OK) reps = gpu_bench_reps(one);
    dev->op_warn = 0;
    for (int i = 0; st == GPU_OK && i < trials; i++) {
        if (gpu_cancelled(cancel)) st = GPU_ERR_CANCELLED;
        else st = be->stream(dev, kind, a, b, c, bytes, reps, &t[i], &dot);
        if (st == GPU_OK && i == trials / 2) run_clocks(dev, r);
    }
    /* BabelStream's check_solution: every array against the kernel's closed form (100 epsilon),
     * the dot product against n x a x b (10^7 epsilon: a long sum rounds). */
    double abc[3];
    gpu_stream_expect(kind, abc);
    static const char *const names[] = {"array a", "array b", "array c"};
    for (int i = 0; st == GPU_OK && i < 3; i++) {
        struct gpu_content want = {.kind = GPU_CONTENT_F64, .value = abc[i], .tol = 100 * EPS};
        st = validate(dev, arr[i], bytes, false, &want, names[i], &checked);
    }
    const double want_dot = gpu_stream_dot_expect(bytes / 8);
    if (st == GPU_OK && kind == GPU_HOST_DOT && checked &&
        !(fabs(dot - want_dot) <= 1e7 * EPS * want_dot)) {
        gpu_set_why(dev, "validation failed: dot product %.17g, expected %.17g (n x %g x %g); "
                    "the figure is not reported", dot, want_dot, GPU_STREAM_A, GPU_STREAM_B);
        st = GPU_ERR_VALIDATION;
    }
    gpu_free(dev, c, bytes);
    gpu_free(dev, b, bytes);
    gpu_free(dev, a, bytes);
    if (st != GPU_OK) return st;
    gpu_stats(r, t, trials);
    r->validated = checked;
    r->reps = reps;
    r->dot = kind == GPU_HOST_DOT ? dot : 0;
    r->moved_bytes = (kind == GPU_HOST_ADD || kind == GPU_HOST_TRIAD ? 3 : 2) * bytes;
    r->bytes_per_s = r->moved_bytes / r->best_s;
    r->rw_bytes_per_s = r->bytes_per_s;
    gpu_bench_finish(dev, r, reps);
    return GPU_OK;
}

gpu_status gpu_bench_overlap(struct gpu_dev *dev, uint64_t bytes, double busy_s,
                             struct gpu_overlap *o)
{
    void *a = NULL, *b = NULL;
    memset(o, 0, sizeof *o);
    if (dev->failed) return GPU_ERR_STICKY;
    if (!dev->be->overlap) {
        gpu_set_why(dev, "the %s backend has no copy-engine overlap test", dev->be->name);
        return GPU_ERR_UNSUPPORTED;
    }
    if (bytes < 4096 || !(busy_s >= 0.001 && busy_s <= 1)) {
        gpu_set_why(dev, "overlap: bytes >= 4 KiB and a busy time of 1 ms .. 1 s");
        return GPU_ERR_ARG;
    }
    uint64_t budget = gpu_alloc_budget(dev);
    if (2 * bytes > budget) {
        gpu_set_why_key(dev, GPU_WHY_COPY_CAP, bytes / 1048576.0, 2 * bytes / 1048576.0,
                        dev->cap_fraction * 100, budget / 1048576.0);
        return GPU_ERR_CAP;
    }
    gpu_status st = gpu_alloc(dev, bytes, &a);
    if (st == GPU_OK) st = gpu_alloc(dev, bytes, &b);
    if (st == GPU_OK) st = dev->be->overlap(dev, b, a, bytes, busy_s, o);
    if (b) gpu_free(dev, b, bytes);
    if (a) gpu_free(dev, a, bytes);
    if (st == GPU_OK) o->bytes = bytes;
    return st;
}

gpu_status gpu_bench_clocks(struct gpu_dev *dev, struct gpu_clocks *c)
{
    memset(c, 0, sizeof *c);
    if (dev->failed) return GPU_ERR_STICKY;
    if (!dev->be->clocks) {
        gpu_set_why(dev, "the %s backend cannot read clocks", dev->be->name);
        return GPU_ERR_UNSUPPORTED;
    }
    return dev->be->clocks(dev, c);
}
