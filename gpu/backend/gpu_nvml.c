/* gpu_nvml.c - the few NVML calls vramlab needs, through dlopen/dlsym: the structs are declared
 * here with NVML's documented layouts (nvml.h), so no NVML header or library is needed to build.
 * The process list tries the _v3/_v2 entry points (24-byte nvmlProcessInfo_t) and falls back to
 * the original one (16-byte nvmlProcessInfo_v1_t) on old drivers. */
#include "gpu_nvml.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gpu_err.h"

typedef int nvml_ret;       /* nvmlReturn_t: 0 = NVML_SUCCESS */
typedef void *nvml_device;  /* nvmlDevice_t */
#define NVML_SUCCESS 0
#define NVML_ERROR_INSUFFICIENT_SIZE 7
#define NVML_VALUE_NOT_AVAILABLE (~0ull)

struct nvml_memory {        /* nvmlMemory_t (v1) */
    unsigned long long total, free, used;
};
struct nvml_memory_v2 {     /* nvmlMemory_v2_t: `reserved` is the driver's own, apart from used */
    unsigned int version;
    unsigned long long total, reserved, free, used;
};
/* NVML_STRUCT_VERSION(Memory, 2): the struct's size with the version in the top byte */
#define NVML_MEMORY_V2 ((unsigned int)(sizeof(struct nvml_memory_v2) | (2u << 24)))
enum { NVML_CLOCK_SM = 1, NVML_CLOCK_MEM = 2 }; /* nvmlClockType_t */
struct nvml_proc_v1 {       /* nvmlProcessInfo_v1_t */
    unsigned int pid;
    unsigned long long used;
};
struct nvml_proc_v2 {       /* nvmlProcessInfo_v2_t = nvmlProcessInfo_t of the _v2/_v3 calls */
    unsigned int pid;
    unsigned long long used;
    unsigned int gpu_instance, compute_instance;
};

typedef nvml_ret (*procs_fn)(nvml_device, unsigned int *, void *);

static struct {
    pthread_once_t once;
    bool ok;
    char why[160];
    nvml_ret (*by_bus)(const char *, nvml_device *);
    nvml_ret (*mem)(nvml_device, struct nvml_memory *);
    procs_fn compute, graphics; /* with the stride below */
    size_t stride;
    nvml_ret (*name)(unsigned int, char *, unsigned int);
    const char *(*err)(nvml_ret);
    nvml_ret (*by_uuid)(const char *, nvml_device *);
    nvml_ret (*gi_id)(nvml_device, unsigned int *);
    nvml_ret (*mem2)(nvml_device, struct nvml_memory_v2 *);
    nvml_ret (*max_gen)(nvml_device, unsigned int *), (*max_width)(nvml_device, unsigned int *);
    nvml_ret (*cur_gen)(nvml_device, unsigned int *), (*cur_width)(nvml_device, unsigned int *);
    nvml_ret (*clock)(nvml_device, int, unsigned int *), (*max_clock)(nvml_device, int, unsigned int *);
    nvml_ret (*reasons)(nvml_device, unsigned long long *);
} nv = {.once = PTHREAD_ONCE_INIT};
static bool nv_off; /* gpu_nvml_disable: written before the first use, read under the once */

void gpu_nvml_disable(void) { nv_off = true; }

static const char *nv_err(nvml_ret r)
{
    static char buf[32];
    if (nv.err) return nv.err(r);
    snprintf(buf, sizeof buf, "NVML error %d", r);
    return buf;
}

static void nv_load(void)
{
    if (nv_off) {
        snprintf(nv.why, sizeof nv.why, "NVML not used (VRAMLAB_NO_NVML is set)");
        return;
    }
    /* RTLD_LOCAL: nothing of NVML leaks into the symbol namespace; it stays loaded for the
     * process's lifetime, as nvidia-smi's own users do. */
    void *h = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        snprintf(nv.why, sizeof nv.why, "NVML not found (libnvidia-ml.so.1: no NVIDIA driver)");
        return;
    }
    nvml_ret (*init)(void) = (nvml_ret(*)(void))dlsym(h, "nvmlInit_v2");
    nv.err = (const char *(*)(nvml_ret))dlsym(h, "nvmlErrorString");
    nv.by_bus = (nvml_ret(*)(const char *, nvml_device *))dlsym(h, "nvmlDeviceGetHandleByPciBusId_v2");
    nv.mem = (nvml_ret(*)(nvml_device, struct nvml_memory *))dlsym(h, "nvmlDeviceGetMemoryInfo");
    nv.name = (nvml_ret(*)(unsigned int, char *, unsigned int))dlsym(h, "nvmlSystemGetProcessName");
    nv.by_uuid = (nvml_ret(*)(const char *, nvml_device *))dlsym(h, "nvmlDeviceGetHandleByUUID");
    nv.gi_id = (nvml_ret(*)(nvml_device, unsigned int *))dlsym(h, "nvmlDeviceGetGpuInstanceId");
    nv.mem2 = (nvml_ret(*)(nvml_device, struct nvml_memory_v2 *))dlsym(h, "nvmlDeviceGetMemoryInfo_v2");
    typedef nvml_ret (*uint_fn)(nvml_device, unsigned int *);
    nv.max_gen = (uint_fn)dlsym(h, "nvmlDeviceGetMaxPcieLinkGeneration");
    nv.max_width = (uint_fn)dlsym(h, "nvmlDeviceGetMaxPcieLinkWidth");
    nv.cur_gen = (uint_fn)dlsym(h, "nvmlDeviceGetCurrPcieLinkGeneration");
    nv.cur_width = (uint_fn)dlsym(h, "nvmlDeviceGetCurrPcieLinkWidth");
    typedef nvml_ret (*clock_fn)(nvml_device, int, unsigned int *);
    nv.clock = (clock_fn)dlsym(h, "nvmlDeviceGetClockInfo");
    nv.max_clock = (clock_fn)dlsym(h, "nvmlDeviceGetMaxClockInfo");
    /* the name since driver 535; the older one is the same call */
    typedef nvml_ret (*reasons_fn)(nvml_device, unsigned long long *);
    nv.reasons = (reasons_fn)dlsym(h, "nvmlDeviceGetCurrentClocksEventReasons");
    if (!nv.reasons) nv.reasons = (reasons_fn)dlsym(h, "nvmlDeviceGetCurrentClocksThrottleReasons");
    static const char *const v3[] = {"nvmlDeviceGetComputeRunningProcesses_v3",
                                     "nvmlDeviceGetGraphicsRunningProcesses_v3"};
    static const char *const v2[] = {"nvmlDeviceGetComputeRunningProcesses_v2",
                                     "nvmlDeviceGetGraphicsRunningProcesses_v2"};
    static const char *const v1[] = {"nvmlDeviceGetComputeRunningProcesses",
                                     "nvmlDeviceGetGraphicsRunningProcesses"};
    const char *const *names[] = {v3, v2, v1};
    for (int i = 0; i < 3 && !nv.compute; i++) {
        nv.compute = (procs_fn)dlsym(h, names[i][0]);
        nv.graphics = (procs_fn)dlsym(h, names[i][1]);
        nv.stride = i < 2 ? sizeof(struct nvml_proc_v2) : sizeof(struct nvml_proc_v1);
    }
    if (!init || !nv.by_bus || !nv.mem) {
        snprintf(nv.why, sizeof nv.why, "NVML too old (nvmlInit_v2 or a device call missing)");
        return;
    }
    nvml_ret r = init();
    if (r != NVML_SUCCESS) {
        snprintf(nv.why, sizeof nv.why, "NVML failed to initialise: %s", nv_err(r));
        return;
    }
    nv.ok = true;
}

bool gpu_nvml_available(char *why, size_t n)
{
    pthread_once(&nv.once, nv_load);
    if (!nv.ok && why && n) gpu_errf(why, n, "%s", nv.why);
    return nv.ok;
}

static bool nv_device(const char *bus, nvml_device *d, char *why, size_t n)
{
    if (!gpu_nvml_available(why, n)) return false;
    if (!bus || !*bus) {
        gpu_errf(why, n, "the device's PCI bus id is unknown, so NVML cannot find it");
        return false;
    }
    nvml_ret r = nv.by_bus(bus, d);
    if (r != NVML_SUCCESS) {
        gpu_errf(why, n, "NVML: no device at %s: %s", bus, nv_err(r));
        return false;
    }
    return true;
}

gpu_status gpu_nvml_memory(const char *pci_bus_id, struct gpu_nvml_memory *out, char *why,
                           size_t n)
{
    nvml_device d;
    memset(out, 0, sizeof *out);
    if (!nv_device(pci_bus_id, &d, why, n)) return GPU_ERR_UNSUPPORTED;
    /* v2 first: it reports the driver's reservation apart, as nvidia-smi's "Reserved" row;
     * v1 folds it into used */
    struct nvml_memory_v2 m2 = {.version = NVML_MEMORY_V2};
    if (nv.mem2 && nv.mem2(d, &m2) == NVML_SUCCESS) {
        *out = (struct gpu_nvml_memory){m2.total, m2.reserved, m2.free, m2.used, true};
        return GPU_OK;
    }
    struct nvml_memory m;
    nvml_ret r = nv.mem(d, &m);
    if (r != NVML_SUCCESS) {
        gpu_errf(why, n, "nvmlDeviceGetMemoryInfo: %s", nv_err(r));
        return GPU_ERR_DRIVER;
    }
    *out = (struct gpu_nvml_memory){m.total, 0, m.free, m.used, false};
    return GPU_OK;
}

gpu_status gpu_nvml_mem(const char *pci_bus_id, uint64_t *free_b, uint64_t *total_b,
                        uint64_t *used_b, char *why, size_t n)
{
    struct gpu_nvml_memory m;
    gpu_status st = gpu_nvml_memory(pci_bus_id, &m, why, n);
    if (st != GPU_OK) return st;
    if (free_b) *free_b = m.free;
    if (total_b) *total_b = m.total;
    if (used_b) *used_b = m.used;
    return GPU_OK;
}

gpu_status gpu_nvml_pcie(const char *pci_bus_id, int *max_gen, int *max_width, int *cur_gen,
                         int *cur_width, char *why, size_t n)
{
    nvml_device d;
    unsigned int v[4] = {0, 0, 0, 0};
    *max_gen = *max_width = *cur_gen = *cur_width = 0;
    if (!nv_device(pci_bus_id, &d, why, n)) return GPU_ERR_UNSUPPORTED;
    if (!nv.max_gen || !nv.max_width) {
        gpu_errf(why, n, "NVML has no PCIe link calls");
        return GPU_ERR_UNSUPPORTED;
    }
    nvml_ret r = nv.max_gen(d, &v[0]);
    if (r == NVML_SUCCESS) r = nv.max_width(d, &v[1]);
    if (r != NVML_SUCCESS) {
        gpu_errf(why, n, "nvmlDeviceGetMaxPcieLink*: %s", nv_err(r));
        return GPU_ERR_DRIVER;
    }
    if (nv.cur_gen && nv.cur_gen(d, &v[2]) != NVML_SUCCESS) v[2] = 0;
    if (nv.cur_width && nv.cur_width(d, &v[3]) != NVML_SUCCESS) v[3] = 0;
    *max_gen = (int)v[0], *max_width = (int)v[1], *cur_gen = (int)v[2], *cur_width = (int)v[3];
    return GPU_OK;
}

gpu_status gpu_nvml_clocks(const char *pci_bus_id, struct gpu_clocks *c, char *why, size_t n)
{
    nvml_device d;
    unsigned int v = 0;
    memset(c, 0, sizeof *c);
    if (!nv_device(pci_bus_id, &d, why, n)) return GPU_ERR_UNSUPPORTED;
    if (!nv.clock) {
        gpu_errf(why, n, "NVML has no nvmlDeviceGetClockInfo");
        return GPU_ERR_UNSUPPORTED;
    }
    nvml_ret r = nv.clock(d, NVML_CLOCK_SM, &v);
    if (r != NVML_SUCCESS) {
        gpu_errf(why, n, "nvmlDeviceGetClockInfo: %s", nv_err(r));
        return GPU_ERR_DRIVER;
    }
    c->sm_mhz = (int)v;
    if (nv.clock(d, NVML_CLOCK_MEM, &v) == NVML_SUCCESS) c->mem_mhz = (int)v;
    if (nv.max_clock && nv.max_clock(d, NVML_CLOCK_SM, &v) == NVML_SUCCESS) c->sm_max_mhz = (int)v;
    if (nv.max_clock && nv.max_clock(d, NVML_CLOCK_MEM, &v) == NVML_SUCCESS) c->mem_max_mhz = (int)v;
    c->has_reasons = nv.reasons && nv.reasons(d, &c->reasons) == NVML_SUCCESS;
    return GPU_OK;
}

/* One list (compute or graphics) merged into out[0..k); with gi >= 0, that MIG instance's only. */
static int nv_list(procs_fn fn, nvml_device d, bool graphics, int gi, struct gpu_nvml_proc *out,
                   int k, int max, char *why, size_t n)
{
    if (!fn) return k;
    unsigned int cnt = 64;
    unsigned char *buf = NULL;
    nvml_ret r = NVML_SUCCESS;
    for (int tries = 0; tries < 4; tries++) {
        unsigned char *nb = realloc(buf, (size_t)cnt * nv.stride + 1);
        if (!nb) {
            free(buf);
            gpu_errf(why, n, "out of host memory");
            return -1;
        }
        buf = nb;
        unsigned int have = cnt;
        r = fn(d, &have, buf);
        if (r == NVML_ERROR_INSUFFICIENT_SIZE) {
            cnt = have + 16; /* processes come and go between the two calls */
            continue;
        }
        cnt = have;
        break;
    }
    if (r != NVML_SUCCESS) {
        free(buf);
        gpu_errf(why, n, "NVML process list: %s", nv_err(r));
        return -1;
    }
    for (unsigned int i = 0; i < cnt; i++) {
        unsigned int pid;
        unsigned long long used;
        if (nv.stride == sizeof(struct nvml_proc_v2)) {
            struct nvml_proc_v2 p;
            memcpy(&p, buf + i * nv.stride, sizeof p);
            pid = p.pid, used = p.used;
            if (gi >= 0 && p.gpu_instance != (unsigned)gi) continue;
        } else {
            struct nvml_proc_v1 p;
            memcpy(&p, buf + i * nv.stride, sizeof p);
            pid = p.pid, used = p.used;
        }
        int j = 0;
        while (j < k && out[j].pid != pid) j++;
        if (j == k) {
            if (k == max) continue;
            memset(&out[k], 0, sizeof out[k]);
            out[k].pid = pid;
            out[k].graphics = graphics;
            if (nv.name && nv.name(pid, out[k].name, sizeof out[k].name) != NVML_SUCCESS)
                out[k].name[0] = 0;
            k++;
        }
        /* A process with both kinds of context is one process: its memory counts once. */
        if (used != NVML_VALUE_NOT_AVAILABLE && (!out[j].has_used || used > out[j].used)) {
            out[j].used = used;
            out[j].has_used = true;
        }
    }
    free(buf);
    return k;
}

int gpu_nvml_procs(const char *pci_bus_id, int gpu_instance, struct gpu_nvml_proc *out, int max,
                   char *why, size_t n)
{
    nvml_device d;
    if (!nv_device(pci_bus_id, &d, why, n)) return -1;
    if (gpu_instance >= 0 && nv.stride != sizeof(struct nvml_proc_v2)) {
        gpu_errf(why, n, "this NVML lists processes without their MIG instance");
        return -1;
    }
    int k = nv_list(nv.compute, d, false, gpu_instance, out, 0, max, why, n);
    if (k >= 0) k = nv_list(nv.graphics, d, true, gpu_instance, out, k, max, why, n);
    return k;
}

int gpu_nvml_mig_instance(const char *uuid, char *why, size_t n)
{
    nvml_device d;
    unsigned int gi = 0;
    if (!gpu_nvml_available(why, n)) return -1;
    if (!nv.by_uuid || !nv.gi_id) {
        gpu_errf(why, n, "NVML has no MIG calls (nvmlDeviceGetHandleByUUID/GetGpuInstanceId)");
        return -1;
    }
    nvml_ret r = nv.by_uuid(uuid, &d);
    if (r == NVML_SUCCESS) r = nv.gi_id(d, &gi);
    if (r != NVML_SUCCESS) {
        gpu_errf(why, n, "NVML does not know MIG device %s: %s", uuid, nv_err(r));
        return -1;
    }
    return (int)gi;
}

bool gpu_nvml_shared(const char *pci_bus_id, int gpu_instance)
{
    struct gpu_nvml_proc p[64];
    char why[160];
    int k = gpu_nvml_procs(pci_bus_id, gpu_instance, p, 64, why, sizeof why);
    if (k < 0) return false; /* unknown is not "shared" */
    unsigned me = (unsigned)getpid();
    bool found_me = false, other = false;
    for (int i = 0; i < k; i++) {
        if (p[i].pid == me) found_me = true;
        else if (!p[i].has_used || p[i].used > 0) other = true;
    }
    return found_me ? other : k >= 2;
}
