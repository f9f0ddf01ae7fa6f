/* lt_gpu.c - the `gpu` module: device facts, capped allocations as buffer userdata (freed by
 * :free(), <close>, the GC, Esc, or the VM's end), and copy/latency measurements that run on the
 * worker thread while the experiment coroutine waits. */
#include "lt_int.h"

#include <stdio.h>
#include <string.h>

#include "gpu_sim.h"

#define BUF_MT "vramlab.buffer"

struct lt_buffer {
    struct lt_res res; /* first: the VM's list of what it holds (lt_res) */
    void *ptr;         /* NULL once freed */
    uint64_t bytes;
    struct lt_vm *vm;
};

static struct gpu_dev *dev_of(lua_State *L) { return lt_vm_of(L)->rt->dev; }

static void buf_release(struct lt_buffer *b)
{
    if (!b->ptr) return;
    struct lt_vm *vm = b->vm;
    pthread_mutex_lock(&vm->rt->devlock);
    gpu_free(vm->rt->dev, b->ptr, b->bytes);
    pthread_mutex_unlock(&vm->rt->devlock);
    b->ptr = NULL;
    lt_res_remove(vm, &b->res);
}

static void buf_release_res(struct lt_res *r) { buf_release((struct lt_buffer *)(void *)r); }

static struct lt_buffer *check_buf(lua_State *L)
{
    struct lt_buffer *b = luaL_checkudata(L, 1, BUF_MT);
    if (!b->ptr) luaL_error(L, "buffer used after :free()");
    return b;
}

static int buf_size(lua_State *L)
{
    lt_push_size(L, check_buf(L)->bytes);
    return 1;
}

static int buf_free(lua_State *L)
{
    buf_release(check_buf(L));
    return 0;
}

static int buf_gc(lua_State *L)
{
    buf_release(luaL_checkudata(L, 1, BUF_MT));
    return 0;
}

static int buf_tostring(lua_State *L)
{
    struct lt_buffer *b = luaL_checkudata(L, 1, BUF_MT);
    if (b->ptr) lua_pushfstring(L, "gpu buffer (%f MiB)", (double)b->bytes / 1048576.0);
    else lua_pushliteral(L, "gpu buffer (freed)");
    return 1;
}

/* A size of 0 usually comes from sizing by gpu.budget() on a GPU with nothing free (other
 * processes hold it): say that, not just "must be positive". */
static int no_room(lua_State *L, const char *what)
{
    struct lt_vm *vm = lt_vm_of(L);
    pthread_mutex_lock(&vm->rt->devlock);
    uint64_t budget = gpu_alloc_budget(vm->rt->dev);
    bool failed = vm->rt->dev->failed != 0;
    pthread_mutex_unlock(&vm->rt->devlock);
    bool zh = !strcmp(lt_runtime_lang(vm->rt), "zh");
    if (failed)
        return luaL_error(L, zh ? "%s：大小为 0，而且 GPU 处于失败状态（粘滞错误）：重启 vramlab 之前"
                                  "设备实验都无法运行"
                                : "%s: size 0, and the GPU is in a failed state (sticky error): device "
                                  "experiments cannot run until vramlab restarts", what);
    if (budget < (1u << 20))
        return luaL_error(L, zh ? "%s：大小为 0：GPU 没有可供实验的空闲显存（gpu.budget() 是 %d 字节："
                                  "其他进程占着它）"
                                : "%s: size 0 - the GPU has no free memory for experiments "
                                  "(gpu.budget() is %d bytes: other processes hold it)", what, (int)budget);
    return 0;
}

static int l_alloc(lua_State *L)
{
    struct lt_vm *vm = lt_vm_of(L);
    uint64_t n = lt_arg_bytes(L, 1, 0);
    if (n == 0) no_room(L, "gpu.alloc");
    luaL_argcheck(L, n > 0, 1, "size must be a positive number of bytes");
    struct lt_buffer *b = lua_newuserdatauv(L, sizeof *b, 0);
    memset(b, 0, sizeof *b);
    luaL_setmetatable(L, BUF_MT);
    pthread_mutex_lock(&vm->rt->devlock);
    gpu_status st = gpu_alloc(vm->rt->dev, (uint64_t)n, &b->ptr);
    pthread_mutex_unlock(&vm->rt->devlock);
    if (st != GPU_OK) {
        lua_pushnil(L);
        char why[512];
        lua_pushstring(L, lt_dev_why(vm->rt, vm->rt->dev, st, why, sizeof why));
        return 2;
    }
    b->bytes = (uint64_t)n;
    b->vm = vm;
    lt_res_add(vm, &b->res, buf_release_res); /* freed with the run that made it */
    return 1;
}

static void set_str(lua_State *L, const char *k, const char *v)
{
    if (!v || !*v) return; /* unknown stays nil */
    lua_pushstring(L, v);
    lua_setfield(L, -2, k);
}

static void set_num(lua_State *L, const char *k, double v)
{
    if (v <= 0) return;
    lua_pushnumber(L, v);
    lua_setfield(L, -2, k);
}

static void set_size(lua_State *L, const char *k, uint64_t v)
{
    if (!v) return;
    lt_push_size(L, v);
    lua_setfield(L, -2, k);
}

static void set_int(lua_State *L, const char *k, long long v)
{
    if (v <= 0) return;
    lua_pushinteger(L, v);
    lua_setfield(L, -2, k);
}

static void push_info(lua_State *L, const struct gpu_info *i)
{
    lua_createtable(L, 0, 24);
    set_str(L, "name", i->name);
    set_str(L, "backend", i->backend);
    set_str(L, "memory_type", i->memory_type);
    set_str(L, "profile", i->profile);
    set_str(L, "source", i->source);
    /* the simulator's "driver" is a phrase, not a version: said in the learner's language */
    bool zh = !strcmp(lt_runtime_lang(lt_vm_of(L)->rt), "zh");
    set_str(L, "driver", i->simulated && zh ? "模拟器（无驱动）" : i->driver);
    lua_pushboolean(L, i->simulated);
    lua_setfield(L, -2, "simulated");
    set_size(L, "total_bytes", i->total_bytes);
    set_int(L, "bus_width_bits", i->bus_width_bits);
    set_int(L, "mem_clock_khz", i->mem_clock_khz);
    set_num(L, "peak_bytes_per_s", i->peak_bytes_per_s);
    set_num(L, "published_bytes_per_s", i->published_bytes_per_s);
    set_size(L, "l2_bytes", i->l2_bytes);
    set_int(L, "sm_count", i->sm_count);
    if (i->cc_major > 0) {
        lua_pushfstring(L, "%d.%d", i->cc_major, i->cc_minor);
        lua_setfield(L, -2, "compute_capability");
    }
    set_int(L, "pcie_gen", i->pcie_gen);
    set_int(L, "pcie_width", i->pcie_width);
    set_num(L, "pcie_bytes_per_s", gpu_pcie_bytes_per_s(i->pcie_gen, i->pcie_width));
    lua_pushinteger(L, i->device);
    lua_setfield(L, -2, "device");
    set_size(L, "l1_bytes", i->l1_bytes);
    lua_pushboolean(L, i->mig);
    lua_setfield(L, -2, "mig");
    if (i->mig_instance >= 0) {
        lua_pushinteger(L, i->mig_instance);
        lua_setfield(L, -2, "mig_instance");
    }
    if (i->numa_node >= 0) {
        lua_pushinteger(L, i->numa_node);
        lua_setfield(L, -2, "numa_node");
    }
    set_str(L, "published_profile", i->published_profile);
    set_int(L, "l2_persist_max_bytes", (long long)i->l2_persist_max_bytes);
    set_int(L, "l2_window_max_bytes", (long long)i->l2_window_max_bytes);
    set_int(L, "fp32_lanes_per_sm", i->fp32_lanes_per_sm);
    set_num(L, "sm_clock_mhz", i->sm_clock_khz / 1e3);
    set_num(L, "fp32_flops", i->fp32_flops);
    set_int(L, "async_engines", i->async_engines);
    set_int(L, "pcie_gen_current", i->pcie_gen_current);
    set_int(L, "pcie_width_current", i->pcie_width_current);
    set_str(L, "pcie_source", i->pcie_source);
    set_int(L, "nvml_total_bytes", (long long)i->nvml_total_bytes);
    set_int(L, "nvml_reserved_bytes", (long long)i->nvml_reserved_bytes);
}

/* The simulator's model of the two copy paths, with where each figure comes from. */
static void push_model(lua_State *L, const struct gpu_profile *p)
{
    lua_createtable(L, 0, 14);
    set_num(L, "ce_efficiency", p->ce_efficiency);
    set_str(L, "ce_source", p->ce_source);
    set_num(L, "sm_efficiency", p->sm_efficiency);
    set_str(L, "sm_source", p->sm_source);
    /* feeding the GPU (chapter 6): pinning, launches, zero-copy and unified memory */
    set_num(L, "pin_alloc_s_per_gib", p->pin_alloc_s_per_gib);
    set_num(L, "pin_register_s_per_gib", p->pin_register_s_per_gib);
    set_num(L, "launch_us", p->launch_us);
    set_num(L, "copy_overhead_us", p->copy_overhead_us);
    set_num(L, "pcie_efficiency", p->pcie_efficiency);
    set_num(L, "pageable_factor", p->pageable_factor);
    set_num(L, "zerocopy_efficiency", p->zerocopy_efficiency);
    set_num(L, "um_fault_efficiency", p->um_fault_efficiency);
    set_num(L, "um_prefetch_efficiency", p->um_prefetch_efficiency);
    set_num(L, "um_evict_efficiency", p->um_evict_efficiency);
    lua_setfield(L, -2, "model");
}

/* A profile's capacities as nvidia-smi shows them and as sold, and where each figure comes from:
 * sources = {total_bytes = "text", ...} (several sources of one field joined by "; "). */
static void add_source(const char *key, const char *text, void *ud)
{
    lua_State *L = ud;
    if (lua_getfield(L, -1, key) == LUA_TSTRING) {
        lua_pushstring(L, "; ");
        lua_pushstring(L, text);
        lua_concat(L, 3);
    } else {
        lua_pop(L, 1);
        lua_pushstring(L, text);
    }
    lua_setfield(L, -2, key);
}

static void push_published(lua_State *L, const struct gpu_profile *p)
{
    set_int(L, "smi_total_bytes", (long long)p->smi_total_bytes);
    set_num(L, "marketed_gb", p->marketed_gb);
    lua_newtable(L);
    gpu_profile_sources(p, add_source, L);
    lua_setfield(L, -2, "sources");
}

static int l_info(lua_State *L)
{
    struct lt_vm *vm = lt_vm_of(L);
    uint64_t fr = 0, tot = 0;
    push_info(L, &vm->rt->dev->info);
    if (vm->rt->dev->has_context_bytes) set_int(L, "context_bytes", (long long)vm->rt->dev->context_bytes);
    const struct gpu_profile *prof = gpu_sim_profile(vm->rt->dev);
    if (prof) push_model(L, prof), push_published(L, prof);
    pthread_mutex_lock(&vm->rt->devlock);
    gpu_status st = gpu_mem_info(vm->rt->dev, &fr, &tot);
    pthread_mutex_unlock(&vm->rt->devlock);
    if (st == GPU_OK) {
        lt_push_size(L, fr);
        lua_setfield(L, -2, "free_bytes");
    }
    return 1;
}

static int l_backend(lua_State *L)
{
    lua_pushstring(L, dev_of(L)->be->name);
    return 1;
}

static int l_mem(lua_State *L)
{
    struct lt_vm *vm = lt_vm_of(L);
    uint64_t fr = 0, tot = 0;
    pthread_mutex_lock(&vm->rt->devlock);
    gpu_status st = gpu_mem_info(vm->rt->dev, &fr, &tot);
    pthread_mutex_unlock(&vm->rt->devlock);
    if (st != GPU_OK) {
        lua_pushnil(L);
        lua_pushstring(L, gpu_status_str(st));
        return 2;
    }
    lt_push_size(L, fr);
    lt_push_size(L, tot);
    return 2;
}

static int l_budget(lua_State *L)
{
    struct lt_vm *vm = lt_vm_of(L);
    pthread_mutex_lock(&vm->rt->devlock);
    uint64_t b = gpu_alloc_budget(vm->rt->dev);
    pthread_mutex_unlock(&vm->rt->devlock);
    lt_push_size(L, b);
    return 1;
}

static int l_peak(lua_State *L)
{
    lua_Integer khz = luaL_checkinteger(L, 1), bits = luaL_checkinteger(L, 2);
    luaL_argcheck(L, khz > 0 && khz < 100000000, 1, "memory clock in kHz");
    luaL_argcheck(L, bits > 0 && bits <= 65536, 2, "bus width in bits");
    lua_pushnumber(L, gpu_peak_bytes_per_s((int)khz, (int)bits));
    return 1;
}

static void list_cb(const char *id, void *ud)
{
    lua_State *L = ud;
    lua_pushstring(L, id);
    lua_rawseti(L, -2, (lua_Integer)lua_rawlen(L, -2) + 1);
}

static int l_profiles(lua_State *L)
{
    lua_newtable(L);
    gpu_profile_list(lt_vm_of(L)->rt->datadir, list_cb, L);
    return 1;
}

static int l_profile(lua_State *L)
{
    struct gpu_profile p;
    char err[512];
    if (gpu_profile_load(lt_vm_of(L)->rt->datadir, luaL_checkstring(L, 1), &p, err, sizeof err) !=
        GPU_OK) {
        lua_pushnil(L);
        lua_pushstring(L, err);
        return 2;
    }
    p.info.simulated = true;
    push_info(L, &p.info);
    push_model(L, &p);
    push_published(L, &p);
    return 1;
}

/* ---- measurements on the worker ------------------------------------------------------------ */

enum job_mode { JOB_COPY, JOB_LATENCY, JOB_STREAM };

struct copy_job {
    struct lt_job base;
    struct gpu_copy_req q;
    struct gpu_result r;
    enum job_mode mode;
    int kernel; /* JOB_STREAM: enum gpu_host_kind */
    enum gpu_chase_load load; /* JOB_LATENCY */
};

static void copy_fn(struct lt_job *j)
{
    struct copy_job *c = (struct copy_job *)j;
    struct gpu_dev *dev = j->rt->dev;
    dev->why[0] = 0;
    if (c->mode == JOB_LATENCY)
        j->st = gpu_bench_latency_load(dev, c->q.bytes, c->load, &c->r, &j->rt->cancel);
    else if (c->mode == JOB_STREAM)
        j->st = gpu_bench_stream(dev, c->kernel, c->q.bytes, c->q.trials, &c->r, &j->rt->cancel);
    else j->st = gpu_bench_copy(dev, &c->q, &c->r, &j->rt->cancel);
    lt_job_keep_why(j, dev); /* said in the learner's language by copy_push, on the Lua thread */
}

static int copy_push(lua_State *L, struct lt_job *j)
{
    struct copy_job *c = (struct copy_job *)j;
    if (j->st == GPU_ERR_CANCELLED) return luaL_error(L, "cancelled");
    if (j->st != GPU_OK) {
        char why[512];
        lua_pushnil(L);
        lua_pushstring(L, lt_job_why(j, why, sizeof why));
        return 2;
    }
    lt_push_result(L, &c->r, j->rt->dev->be->name);
    if (c->mode == JOB_STREAM) {
        lua_pushstring(L, gpu_host_kind_name((enum gpu_host_kind)c->kernel));
        lua_setfield(L, -2, "kernel");
    }
    return 1;
}

static int l_copy(lua_State *L)
{
    static const char *const dirs[] = {"h2d", "d2h", "d2d", NULL};
    static const char *const methods[] = {"ce", "sm", NULL};
    static const char *const keys[] = {"dir", "bytes", "method", "pinned", "trials", "reps",
                                       "single", NULL};
    lt_opt_check(L, 1, "gpu.copy", false, keys);
    struct copy_job *c = lua_newuserdatauv(L, sizeof *c, 0); /* anchored on the stack */
    memset(c, 0, sizeof *c);
    c->base.fn = copy_fn;
    c->base.push = copy_push;
    c->q.dir = (enum gpu_dir)lt_opt_enum(L, 1, "dir", -1, dirs, "gpu.copy");
    c->q.method = (enum gpu_method)lt_opt_enum(L, 1, "method", 0, methods, "gpu.copy");
    c->q.bytes = lt_opt_bytes(L, 1, "bytes", 0);
    if (c->q.bytes == 0) no_room(L, "gpu.copy");
    if (c->q.bytes == 0) return luaL_error(L, "gpu.copy: 'bytes' must be given and > 0");
    c->q.pinned = lt_opt_bool(L, 1, "pinned", true);
    c->q.trials = lt_opt_range(L, 1, "trials", 10, 1, GPU_MAX_SAMPLES, "gpu.copy");
    c->q.reps = lt_opt_range(L, 1, "reps", 0, 0, 100000, "gpu.copy");
    c->q.single = lt_opt_bool(L, 1, "single", false);
    return lt_job_run(L, &c->base);
}

static int l_latency(lua_State *L)
{
    static const char *const keys[] = {"bytes", "load", NULL};
    static const char *const loads[] = {"global", "generic", NULL};
    lt_opt_check(L, 1, "gpu.latency", false, keys);
    struct copy_job *c = lua_newuserdatauv(L, sizeof *c, 0);
    memset(c, 0, sizeof *c);
    c->base.fn = copy_fn;
    c->base.push = copy_push;
    c->mode = JOB_LATENCY;
    c->load = (enum gpu_chase_load)lt_opt_enum(L, 1, "load", GPU_LOAD_GLOBAL, loads, "gpu.latency");
    c->q.bytes = lt_opt_bytes(L, 1, "bytes", 0);
    if (c->q.bytes < 4096) return luaL_error(L, "gpu.latency: 'bytes' must be at least 4 KiB");
    return lt_job_run(L, &c->base);
}

static int l_stream(lua_State *L)
{
    static const char *const keys[] = {"kernel", "bytes", "trials", NULL};
    static const char *const kernels[] = {"copy", "scale", "add", "triad", "dot", NULL};
    lt_opt_check(L, 1, "gpu.stream", false, keys);
    struct copy_job *c = lua_newuserdatauv(L, sizeof *c, 0);
    memset(c, 0, sizeof *c);
    c->base.fn = copy_fn;
    c->base.push = copy_push;
    c->mode = JOB_STREAM;
    c->kernel = gpu_host_kind_parse(kernels[lt_opt_enum(L, 1, "kernel", 3, kernels, "gpu.stream")]);
    c->q.bytes = lt_opt_bytes(L, 1, "bytes", 0);
    c->q.trials = lt_opt_range(L, 1, "trials", 10, 1, GPU_MAX_SAMPLES, "gpu.stream");
    if (c->q.bytes < 4096) return luaL_error(L, "gpu.stream: 'bytes' must be at least 4 KiB");
    return lt_job_run(L, &c->base);
}

/* gpu.overlap{bytes=, busy_ms=}: does a same-device copy run while a kernel holds every SM? */
struct overlap_job {
    struct lt_job base;
    uint64_t bytes;
    double busy_s;
    struct gpu_overlap o;
};

static void overlap_fn(struct lt_job *j)
{
    struct overlap_job *c = (struct overlap_job *)j;
    j->rt->dev->why[0] = 0;
    j->st = gpu_bench_overlap(j->rt->dev, c->bytes, c->busy_s, &c->o);
    lt_job_keep_why(j, j->rt->dev); /* said on the Lua thread (overlap_push) */
}

static void set_field_num(lua_State *L, const char *k, double v)
{
    lua_pushnumber(L, v);
    lua_setfield(L, -2, k);
}

static void set_field_bool(lua_State *L, const char *k, bool v)
{
    lua_pushboolean(L, v);
    lua_setfield(L, -2, k);
}

static int overlap_push(lua_State *L, struct lt_job *j)
{
    struct overlap_job *c = (struct overlap_job *)j;
    const struct gpu_overlap *o = &c->o;
    if (j->st == GPU_ERR_CANCELLED) return luaL_error(L, "cancelled");
    if (j->st != GPU_OK) {
        char why[512];
        lua_pushnil(L);
        lua_pushstring(L, lt_job_why(j, why, sizeof why));
        return 2;
    }
    lua_createtable(L, 0, 14);
    lua_pushinteger(L, (lua_Integer)o->bytes);
    lua_setfield(L, -2, "bytes");
    set_field_num(L, "busy_seconds", o->busy_s);
    set_field_num(L, "copy_start_seconds", o->copy_start_s);
    set_field_num(L, "copy_end_seconds", o->copy_end_s);
    set_field_num(L, "copy_seconds", o->copy_s);
    if (o->copy_s > 0) set_field_num(L, "copy_rw_bytes_per_s", 2.0 * o->bytes / o->copy_s);
    set_field_num(L, "sm_busy_seconds", o->sm_busy_s);
    set_field_num(L, "sm_copy_start_seconds", o->sm_copy_start_s);
    set_field_num(L, "sm_copy_end_seconds", o->sm_copy_end_s);
    lua_pushinteger(L, o->busy_blocks);
    lua_setfield(L, -2, "busy_blocks");
    lua_pushinteger(L, o->resident_blocks);
    lua_setfield(L, -2, "resident_blocks");
    set_field_bool(L, "ce_overlapped", o->ce_overlapped);
    set_field_bool(L, "sm_waited", o->sm_waited);
    lua_pushstring(L, "seconds from the busy kernel's start (CUDA events); the copy counted "
                      "read + written (2n/t)");
    lua_setfield(L, -2, "convention");
    return 1;
}

static int l_overlap(lua_State *L)
{
    static const char *const keys[] = {"bytes", "busy_ms", NULL};
    lt_opt_check(L, 1, "gpu.overlap", false, keys);
    struct overlap_job *c = lua_newuserdatauv(L, sizeof *c, 0);
    memset(c, 0, sizeof *c);
    c->base.fn = overlap_fn;
    c->base.push = overlap_push;
    c->bytes = lt_opt_bytes(L, 1, "bytes", 256ull << 20);
    c->busy_s = lt_opt_num(L, 1, "busy_ms", 50) / 1e3;
    if (c->bytes < 4096) return luaL_error(L, "gpu.overlap: 'bytes' must be at least 4 KiB");
    if (!(c->busy_s >= 0.001 && c->busy_s <= 1))
        return luaL_error(L, "gpu.overlap: 'busy_ms' must be 1 .. 1000");
    return lt_job_run(L, &c->base);
}

/* gpu.free_tolerance(bytes): how far free memory may come back off after `bytes` were allocated
 * and freed (gpu_free_tolerance: max(2 MiB, 0.01 %)). */
static int l_free_tolerance(lua_State *L)
{
    lua_pushinteger(L, (lua_Integer)gpu_free_tolerance(lt_arg_bytes(L, 1, 0)));
    return 1;
}

/* gpu.clocks(): SM and memory clocks now and their maxima (MHz), where the backend reads them. */
static int l_clocks(lua_State *L)
{
    struct lt_vm *vm = lt_vm_of(L);
    struct gpu_clocks c;
    char why[512];
    pthread_mutex_lock(&vm->rt->devlock);
    gpu_status st = gpu_bench_clocks(vm->rt->dev, &c);
    if (st != GPU_OK) lt_dev_why(vm->rt, vm->rt->dev, st, why, sizeof why);
    pthread_mutex_unlock(&vm->rt->devlock);
    if (st != GPU_OK) {
        lua_pushnil(L);
        lua_pushstring(L, why);
        return 2;
    }
    lua_createtable(L, 0, 5);
    set_int(L, "sm_mhz", c.sm_mhz);
    set_int(L, "mem_mhz", c.mem_mhz);
    set_int(L, "sm_max_mhz", c.sm_max_mhz);
    set_int(L, "mem_max_mhz", c.mem_max_mhz);
    if (c.has_reasons) {
        lua_pushinteger(L, (lua_Integer)c.reasons);
        lua_setfield(L, -2, "reasons");
    }
    return 1;
}

/* The cache sizes a ladder is named against: opts.levels = {{name=, bytes=}, ...} (smallest
 * first), else opts.where = "host" (this CPU's caches) or "gpu" (the device's L1 and L2, the
 * default). *host: whether the ladder is a host's (where = "host", with levels or without),
 * which names a step inside a cache level as a TLB step rather than a near and a far part. */
static int get_levels(lua_State *L, struct gpu_level *lv, int max, bool *host)
{
    static const char *const keys[] = {"where", "levels", NULL};
    static const char *const level_keys[] = {"name", "bytes", NULL};
    static const char *const wheres[] = {"gpu", "host", NULL};
    lt_opt_check(L, 2, "gpu.plateaus", true, keys);
    *host = false;
    if (!lua_istable(L, 2)) return gpu_dev_caches(&lt_vm_of(L)->rt->dev->info, lv, max);
    *host = lt_opt_enum(L, 2, "where", 0, wheres, "gpu.plateaus") == 1;
    lt_opt_field(L, 2, "levels");
    if (lua_istable(L, -1)) {
        int n = (int)lua_rawlen(L, -1);
        luaL_argcheck(L, n <= max, 2, "too many levels");
        for (int i = 0; i < n; i++) {
            lua_rawgeti(L, -1, i + 1);
            luaL_argcheck(L, lua_istable(L, -1), 2, "levels are tables {name=, bytes=}");
            lt_opt_check(L, -1, "gpu.plateaus: levels", false, level_keys);
            const char *name = lt_opt_str(L, -1, "name", NULL);
            lv[i].bytes = lt_opt_bytes(L, -1, "bytes", 0);
            luaL_argcheck(L, name && *name && strlen(name) < sizeof lv[i].name && lv[i].bytes > 0 &&
                                 (i == 0 || lv[i].bytes > lv[i - 1].bytes),
                          2, "levels need a short name and growing bytes");
            snprintf(lv[i].name, sizeof lv[i].name, "%s", name);
            lua_pop(L, 1);
        }
        lua_pop(L, 1);
        return n;
    }
    lua_pop(L, 1);
    if (*host) {
        const char *src;
        return gpu_host_caches(lv, max, &src);
    }
    return gpu_dev_caches(&lt_vm_of(L)->rt->dev->info, lv, max);
}

/* gpu.plateaus({{bytes=, ns=}, ...} [, {where=|levels=}]) -> {{from=, to=, ns=, label=}, ...} */
static int l_plateaus(lua_State *L)
{
    uint64_t bytes[128];
    double ns[128];
    struct gpu_plateau p[16];
    struct gpu_level lv[8];
    static const char *const point_keys[] = {"bytes", "ns", NULL};
    luaL_checktype(L, 1, LUA_TTABLE);
    int n = (int)lua_rawlen(L, 1);
    luaL_argcheck(L, n <= 128, 1, "at most 128 points");
    for (int i = 0; i < n; i++) {
        lua_rawgeti(L, 1, i + 1);
        luaL_argcheck(L, lua_istable(L, -1), 1, "points are tables {bytes=, ns=}");
        lt_opt_check(L, -1, "gpu.plateaus: points", false, point_keys);
        bytes[i] = lt_opt_bytes(L, -1, "bytes", 0);
        ns[i] = lt_opt_num(L, -1, "ns", 0);
        luaL_argcheck(L, ns[i] > 0 && (i == 0 || bytes[i] > bytes[i - 1]), 1,
                      "points need ns > 0 and increasing bytes");
        lua_pop(L, 1);
    }
    bool host;
    int nlv = get_levels(L, lv, 8, &host);
    int k = gpu_plateaus(bytes, ns, n, lv, nlv, host, p, 16);
    lua_createtable(L, k, 0);
    for (int i = 0; i < k; i++) {
        lua_createtable(L, 0, 4);
        lt_push_size(L, p[i].from_bytes);
        lua_setfield(L, -2, "from");
        lt_push_size(L, p[i].to_bytes);
        lua_setfield(L, -2, "to");
        lua_pushnumber(L, p[i].ns);
        lua_setfield(L, -2, "ns");
        lua_pushstring(L, p[i].label);
        lua_setfield(L, -2, "label");
        lua_rawseti(L, -2, i + 1);
    }
    return 1;
}

int lt_open_gpu(lua_State *L)
{
    static const luaL_Reg buf_methods[] = {{"size", buf_size}, {"free", buf_free}, {NULL, NULL}};
    static const luaL_Reg buf_meta[] = {{"__gc", buf_gc}, {"__close", buf_gc},
                                        {"__tostring", buf_tostring}, {NULL, NULL}};
    static const luaL_Reg funcs[] = {
        {"backend", l_backend}, {"info", l_info},         {"mem", l_mem},
        {"budget", l_budget},   {"alloc", l_alloc},       {"copy", l_copy},
        {"latency", l_latency}, {"peak", l_peak},         {"profiles", l_profiles},
        {"profile", l_profile}, {"stream", l_stream},     {"plateaus", l_plateaus},
        {"overlap", l_overlap}, {"clocks", l_clocks},     {"free_tolerance", l_free_tolerance},
        {NULL, NULL}};
    lt_newclass(L, BUF_MT, buf_meta, buf_methods);
    luaL_newlib(L, funcs);
    lt_gpu_access_register(L);
    lt_feed_register(L); /* gpu.program, gpu.pin (lt_feed.c) */
    return 1;
}
