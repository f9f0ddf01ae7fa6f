/* gpu_cuda.c - the `cuda` backend: device facts, allocations, event-timed copies (copy engine or
 * SM kernel), STREAM kernels, validation of their data, and a pointer-chase latency probe on a
 * real NVIDIA GPU through the CUDA runtime. Kernels live in gpu_kernels.cu. Every runtime call
 * goes through CU_CHECK/CU_TRY, which record the expression, the error's name and file:line in
 * dev->why and return a status: we run inside a TUI, so nothing here prints or exits.
 * Builds with CUDA toolkits from 12.0 on: enumerators newer than that are guarded by
 * CUDART_VERSION. */
#include "gpu_cuda.h"
#include "gpu_cuda_int.h"

#include <cuda_runtime_api.h>
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gpu_err.h"
#include "gpu_feed.h"
#include "gpu_file.h"
#include "gpu_kernels.h"
#include "gpu_numa.h"
#include "gpu_nvml.h"

/* Pointer-chase line: one address per 128 bytes, the L1/L2 line size of every GPU we build for,
 * so each dependent load lands on a line no earlier step of the lap has brought in. */
#define CU_CHASE_LINE 128u
#define CU_CHASE_WORDS (CU_CHASE_LINE / sizeof(uint64_t))
/* Host staging buffer for writing the chase array (the whole array never exists on the host). */
#define CU_STAGE_BYTES (16u << 20)
/* The spin kernel holds the stream while the host queues a timed batch. Only for batches the
 * driver can queue without blocking the host (a blocked enqueue would just wait out the timeout),
 * and with a timeout well under a display watchdog's two seconds. */
#define CU_SPIN_MAX_OPS 256
#define CU_SPIN_TIMEOUT_NS 1000000000ull
/* How long every SM is kept busy before a latency chase, so that the SM clock is at speed. */
#define CU_WARM_NS 30000000ull
static struct cu_dev *cu(struct gpu_dev *dev)
{
    return (struct cu_dev *)dev;
}

/* ---- device facts ------------------------------------------------------------------------- */

static int cu_attr(enum cudaDeviceAttr a, int ordinal)
{
    int v = 0;
    if (cudaDeviceGetAttribute(&v, a, ordinal) != cudaSuccess) {
        (void)cudaGetLastError();
        return 0; /* unknown */
    }
    return v;
}

static void cu_version(char *buf, size_t n, int v)
{
    snprintf(buf, n, "%d.%d", v / 1000, (v % 1000) / 10);
}

/* The kernel module's version from the first line of /proc/driver/nvidia/version:
 * "NVRM version: NVIDIA UNIX x86_64 Kernel Module  580.65.06  ..." or
 * "NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  580.65.06  ...". */
static void cu_parse_nvrm(const char *line, char *buf, size_t n)
{
    const char *p = strstr(line, "Module");
    char tok[64];
    int used = 0;
    buf[0] = '\0';
    while (p && sscanf(p, "%63s%n", tok, &used) == 1) {
        if (tok[0] >= '0' && tok[0] <= '9' && strchr(tok, '.')) {
            snprintf(buf, n, "%s", tok);
            return;
        }
        p += used;
    }
}

static void cu_kernel_module(char *buf, size_t n)
{
    char line[256];
    buf[0] = '\0';
    FILE *f = gpu_file_open("/proc/driver/nvidia/version", 64u << 10, 0, NULL, 0);
    if (!f) return;
    if (fgets(line, sizeof line, f)) cu_parse_nvrm(line, buf, n);
    fclose(f);
}

/* First line of a sysfs attribute as a number; 0 when missing or not a number ("Unknown"). */
static double cu_sysfs_num(const char *dir, const char *attr)
{
    char path[PATH_MAX + 64], text[64];
    snprintf(path, sizeof path, "%s/%s", dir, attr);
    FILE *f = gpu_file_open(path, 64u << 10, 0, NULL, 0); /* sysfs: a regular file, never waited on */
    if (!f) return 0;
    double v = 0;
    if (fgets(text, sizeof text, f)) v = strtod(text, NULL);
    fclose(f);
    return v > 0 ? v : 0;
}

/* "16.0 GT/s PCIe" -> 4. */
static int cu_pcie_gen(double gts)
{
    static const double rate[] = {2.5, 5, 8, 16, 32, 64};
    int gen = 0;
    for (int i = 0; i < (int)(sizeof rate / sizeof rate[0]); i++)
        if (gts >= rate[i] * 0.9) gen = i + 1;
    return gen;
}

/* cudart cannot report the PCIe link; NVML and sysfs can. An idle NVIDIA GPU drops its link to
 * a slower generation (and sometimes width) to save power, so the state now would often say
 * "gen 1"; what a transfer gets is what the link trains to under load. So the maximum is
 * reported, never less than the state now: NVML's (nvmlDeviceGetMaxPcieLinkGeneration: "this
 * device and system"), else the lower of the device's and its upstream port's maxima in sysfs,
 * else (no upstream port visible, as in a VM whose GPU sits on the guest's root bus) the
 * device's own maximum, else the state now. pcie_source says which. */
static void cu_pcie_sysfs(const char *path, struct gpu_info *in)
{
    char real[PATH_MAX];
    in->pcie_gen_current = cu_pcie_gen(cu_sysfs_num(path, "current_link_speed"));
    in->pcie_width_current = (int)cu_sysfs_num(path, "current_link_width");
    int gen = cu_pcie_gen(cu_sysfs_num(path, "max_link_speed"));
    int width = (int)cu_sysfs_num(path, "max_link_width");
    const char *src = gen > 0 ? "sysfs-device" : "sysfs-current";
    if (realpath(path, real)) {
        char *slash = strrchr(real, '/');
        if (slash) *slash = '\0'; /* the parent in /sys/devices: the upstream bridge port */
        const char *up = slash ? strrchr(real, '/') : NULL;
        if (up && strchr(up, ':') && strchr(up, '.')) { /* a port, not a root bus */
            int up_gen = cu_pcie_gen(cu_sysfs_num(real, "max_link_speed"));
            int up_w = (int)cu_sysfs_num(real, "max_link_width");
            if (up_gen > 0 && gen > 0) {
                gen = up_gen < gen ? up_gen : gen;
                src = "sysfs-port";
            }
            if (up_w > 0 && width > 0) width = up_w < width ? up_w : width;
        }
    }
    in->pcie_gen = gen > in->pcie_gen_current ? gen : in->pcie_gen_current;
    in->pcie_width = width > in->pcie_width_current ? width : in->pcie_width_current;
    snprintf(in->pcie_source, sizeof in->pcie_source, "%s", in->pcie_gen ? src : "");
}

static void cu_pcie(const char *busid, struct gpu_info *in)
{
    char path[96], why[160];
    unsigned dom, bus, devn, fn;
    int mg = 0, mw = 0, cg = 0, cw = 0;
    in->pcie_gen = in->pcie_width = in->pcie_gen_current = in->pcie_width_current = 0;
    in->pcie_source[0] = '\0';
    /* sysfs spells it lower-case with a 4-digit domain; cudart may not. */
    if (sscanf(busid, "%x:%x:%x.%x", &dom, &bus, &devn, &fn) == 4) {
        snprintf(path, sizeof path, "/sys/bus/pci/devices/%04x:%02x:%02x.%x", dom, bus, devn, fn);
        cu_pcie_sysfs(path, in);
    }
    if (gpu_nvml_pcie(busid, &mg, &mw, &cg, &cw, why, sizeof why) != GPU_OK || mg <= 0) return;
    if (cg > 0) in->pcie_gen_current = cg;
    if (cw > 0) in->pcie_width_current = cw;
    in->pcie_gen = mg > in->pcie_gen_current ? mg : in->pcie_gen_current;
    if (mw > 0) in->pcie_width = mw > in->pcie_width_current ? mw : in->pcie_width_current;
    snprintf(in->pcie_source, sizeof in->pcie_source, "nvml");
}

/* GUESS: cudart does not report the memory type, so it is inferred from the marketing name. The
 * guess is labelled as such in gpu_info.source; names not listed stay "" (unknown). Phrases match
 * whole words ("HBM3" does not match "HBM3e", "H200" does not match "GH200", whose memory
 * depends on the variant). First match wins. */
static const struct {
    const char *has, *also, *unless, *type;
} cu_memtypes[] = {
    {"HBM3e", NULL, NULL, "HBM3e"}, /* some names say it outright: "NVIDIA GH200 144G HBM3e" */
    {"HBM3", NULL, NULL, "HBM3"},   /* "NVIDIA H100 80GB HBM3" */
    {"H200", NULL, NULL, "HBM3e"},
    {"B200", NULL, NULL, "HBM3e"},
    {"H100", "PCIe", NULL, "HBM2e"},
    {"H100", NULL, NULL, "HBM3"},
    {"H800", "PCIe", NULL, "HBM2e"},
    {"H800", NULL, NULL, "HBM3"},
    {"A100", "80GB", NULL, "HBM2e"},
    {"A100", NULL, NULL, "HBM2"},
    {"A800", "80GB", NULL, "HBM2e"},
    {"V100", NULL, NULL, "HBM2"},
    {"RTX 5090", NULL, NULL, "GDDR7"},
    {"RTX 5080", NULL, NULL, "GDDR7"},
    {"RTX 4090", NULL, "Laptop", "GDDR6X"},
    {"RTX 4080", NULL, "Laptop", "GDDR6X"},
    {"RTX 3090", NULL, "Laptop", "GDDR6X"},
    {"RTX 3080", NULL, "Laptop", "GDDR6X"},
    {"T4", NULL, NULL, "GDDR6"},
    {"L4", NULL, NULL, "GDDR6"},
    {"L40", NULL, NULL, "GDDR6"},
    {"L40S", NULL, NULL, "GDDR6"},
    {"A10", NULL, NULL, "GDDR6"},
    {"A40", NULL, NULL, "GDDR6"},
};

static bool cu_isalnum(char c)
{
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static bool cu_has_word(const char *s, const char *w)
{
    size_t n = strlen(w);
    for (const char *p = strstr(s, w); p; p = strstr(p + 1, w))
        if ((p == s || !cu_isalnum(p[-1])) && !cu_isalnum(p[n])) return true;
    return false;
}

static const char *cu_memory_type_guess(const char *name)
{
    for (size_t i = 0; i < sizeof cu_memtypes / sizeof cu_memtypes[0]; i++) {
        if (!cu_has_word(name, cu_memtypes[i].has)) continue;
        if (cu_memtypes[i].also && !cu_has_word(name, cu_memtypes[i].also)) continue;
        if (cu_memtypes[i].unless && cu_has_word(name, cu_memtypes[i].unless)) continue;
        return cu_memtypes[i].type;
    }
    return "";
}

/* Unified L1 data cache + shared memory per SM, by compute capability (CUDA C++ Programming
 * Guide, "Features and Technical Specifications"): the runtime reports the shared-memory part
 * only. A latency chase uses no shared memory, so the driver gives L1 the rest. */
static uint64_t cu_l1_bytes(int major, int minor)
{
    static const struct {
        int major, minor, kib;
    } t[] = {{7, 0, 128}, {7, 2, 128}, {7, 5, 96},  {8, 0, 192},  {8, 6, 128},  {8, 7, 192},
             {8, 9, 128}, {9, 0, 256}, {10, 0, 256}, {10, 3, 256}, {12, 0, 128}, {12, 1, 128}};
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
        if (t[i].major == major && t[i].minor == minor) return (uint64_t)t[i].kib << 10;
    return 0;
}

/* "MIG-xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx", as NVML and nvidia-smi -L spell a MIG device; the
 * runtime reports a MIG slice's own UUID (cuDeviceGetUuid_v2). */
static void cu_uuid(const cudaUUID_t *u, const char *prefix, char *buf, size_t n)
{
    const unsigned char *b = (const unsigned char *)u->bytes;
    snprintf(buf, n,
             "%s%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", prefix,
             b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13],
             b[14], b[15]);
}

/* A MIG slice: the device name says so ("NVIDIA A100-SXM4-40GB MIG 1g.5gb"), or the process was
 * given one by UUID, or NVML knows the UUID as a MIG device. */
static void cu_mig(const struct cudaDeviceProp *prop, struct gpu_info *in)
{
    char uuid[64], why[160];
    const char *vis = getenv("CUDA_VISIBLE_DEVICES");
    in->mig_instance = -1;
    in->mig = cu_has_word(prop->name, "MIG") || (vis && strstr(vis, "MIG-"));
    cu_uuid(&prop->uuid, "MIG-", uuid, sizeof uuid);
    in->mig_instance = gpu_nvml_mig_instance(uuid, why, sizeof why);
    if (in->mig_instance >= 0) in->mig = true;
}

static gpu_status cu_fill_info(struct cu_dev *d)
{
    struct gpu_dev *dev = &d->pub;
    struct gpu_info *in = &dev->info;
    const int o = d->ordinal;
    struct cudaDeviceProp prop;
    size_t free_b = 0, total_b = 0;

    CU_CHECK(dev, cudaGetDeviceProperties(&prop, o));
    CU_CHECK(dev, cudaMemGetInfo(&free_b, &total_b));
    memset(in, 0, sizeof *in);
    snprintf(in->name, sizeof in->name, "%.127s", prop.name);
    snprintf(in->backend, sizeof in->backend, "cuda");
    in->simulated = false;
    in->device = o;
    in->total_bytes = total_b; /* a MIG slice's own memory */
    in->bus_width_bits = cu_attr(cudaDevAttrGlobalMemoryBusWidth, o);
    /* CUDA 13 removed cudaDeviceProp::memoryClockRate; the attribute remains. */
    in->mem_clock_khz = cu_attr(cudaDevAttrMemoryClockRate, o);
    in->peak_bytes_per_s = gpu_peak_bytes_per_s(in->mem_clock_khz, in->bus_width_bits);
    in->l2_bytes = (uint64_t)cu_attr(cudaDevAttrL2CacheSize, o);
    in->sm_count = cu_attr(cudaDevAttrMultiProcessorCount, o);
    in->cc_major = cu_attr(cudaDevAttrComputeCapabilityMajor, o);
    in->cc_minor = cu_attr(cudaDevAttrComputeCapabilityMinor, o);
    in->l1_bytes = cu_l1_bytes(in->cc_major, in->cc_minor);
    in->async_engines = cu_attr(cudaDevAttrAsyncEngineCount, o);
    in->l2_persist_max_bytes = (uint64_t)cu_attr(cudaDevAttrMaxPersistingL2CacheSize, o);
    in->l2_window_max_bytes = (uint64_t)cu_attr(cudaDevAttrMaxAccessPolicyWindowSize, o);
    in->fp32_lanes_per_sm = gpu_fp32_lanes(in->cc_major, in->cc_minor);
    in->sm_clock_khz = cu_attr(cudaDevAttrClockRate, o); /* the boost clock, kHz */
    in->fp32_flops = gpu_fp32_flops(in->sm_count, in->fp32_lanes_per_sm, in->sm_clock_khz);
    cu_pcie(dev->pci_bus_id, in);
    cu_mig(&prop, in);
    struct gpu_nvml_memory nm;
    char nvwhy[160];
    if (gpu_nvml_memory(dev->pci_bus_id, &nm, nvwhy, sizeof nvwhy) == GPU_OK) {
        in->nvml_total_bytes = nm.total;
        in->nvml_reserved_bytes = nm.has_reserved ? nm.reserved : 0;
    }
    in->numa_node = gpu_numa_node("/sys", dev->pci_bus_id);

    const char *mt = cu_memory_type_guess(in->name);
    snprintf(in->memory_type, sizeof in->memory_type, "%s", mt);
    if (*mt)
        snprintf(in->source, sizeof in->source,
                 "memory type guessed from the device name (the CUDA runtime does not report it)");

    int dv = 0, rv = 0;
    char dvs[16] = "?", rvs[16] = "?", km[64];
    if (cudaDriverGetVersion(&dv) == cudaSuccess) cu_version(dvs, sizeof dvs, dv);
    if (cudaRuntimeGetVersion(&rv) == cudaSuccess) cu_version(rvs, sizeof rvs, rv);
    (void)cudaGetLastError();
    cu_kernel_module(km, sizeof km);
    char text[160];
    /* A driver older than the runtime still runs this build's native code, but cannot compile
     * its PTX for a GPU newer than the build: said here, before a kernel fails to load. */
    const char *older = dv > 0 && rv > 0 && dv < rv ? ", driver older than runtime" : "";
    if (*km)
        snprintf(text, sizeof text, "driver %s / runtime %s (kernel module %s%s)", dvs, rvs, km,
                 older);
    else
        snprintf(text, sizeof text, "driver %s / runtime %s%s", dvs, rvs, *older ? " (driver older than runtime)" : "");
    snprintf(in->driver, sizeof in->driver, "%.127s", text);
    return GPU_OK;
}

/* ---- open / close ------------------------------------------------------------------------- */

/* Why cudaGetDeviceCount failed, in the words a user can act on. */
static gpu_status cu_open_why(cudaError_t e, int count, char *why, size_t n)
{
    const char *vis = getenv("CUDA_VISIBLE_DEVICES");
    char visnote[96] = "";
    if (vis) snprintf(visnote, sizeof visnote, "; CUDA_VISIBLE_DEVICES=\"%.60s\"", vis);
    int dv = 0, rv = 0;
    switch (e) {
    case cudaSuccess:
        gpu_errf(why, n, "no CUDA device (%d visible%s)", count, visnote);
        return GPU_ERR_NO_DEVICE;
    case cudaErrorInsufficientDriver:
        if (cudaDriverGetVersion(&dv) == cudaSuccess && dv > 0 &&
            cudaRuntimeGetVersion(&rv) == cudaSuccess) {
            gpu_errf(why, n,
                     "CUDA driver too old: it supports CUDA %d.%d, this build needs %d.%d "
                     "(error %d: %s)",
                     dv / 1000, (dv % 1000) / 10, rv / 1000, (rv % 1000) / 10, (int)e,
                     cudaGetErrorName(e));
        } else {
            gpu_errf(why, n, "CUDA driver not found (error %d: %s)", (int)e, cudaGetErrorName(e));
        }
        (void)cudaGetLastError();
        return GPU_ERR_DRIVER;
    case cudaErrorStubLibrary:
        gpu_errf(why, n,
                 "CUDA driver not found: only the stub libcuda.so was loaded (error %d: %s)",
                 (int)e, cudaGetErrorName(e));
        return GPU_ERR_DRIVER;
    case cudaErrorNoDevice:
        gpu_errf(why, n, "no CUDA device (error %d: %s%s)", (int)e, cudaGetErrorName(e), visnote);
        return GPU_ERR_NO_DEVICE;
    case cudaErrorSystemDriverMismatch:
        gpu_errf(why, n,
                 "CUDA driver library and kernel module versions differ (error %d: %s); "
                 "reboot or reload the nvidia module",
                 (int)e, cudaGetErrorName(e));
        return GPU_ERR_DRIVER;
    default:
        gpu_errf(why, n, "CUDA initialisation failed (error %d: %s: %s)", (int)e,
                 cudaGetErrorName(e), cudaGetErrorString(e));
        return GPU_ERR_DRIVER;
    }
}

#ifndef GPU_CUDA_ARCHS
#define GPU_CUDA_ARCHS "?"
#endif

/* Loading the kernels is where a build meets a GPU or driver it was not made for: no native code
 * for this GPU and a driver too old to compile the PTX that was shipped. Say which, in numbers. */
static gpu_status cu_kernels_init(struct cu_dev *d)
{
    struct gpu_dev *dev = &d->pub;
    const cudaError_t e = (cudaError_t)gpu_k_init(&d->launch);
    if (e == cudaSuccess) return GPU_OK;
    gpu_status st = gpu_cu_fail(dev, e, "gpu_k_init (loading the kernels)", __FILE__, __LINE__);
    int dv = 0, rv = 0;
    (void)cudaDriverGetVersion(&dv);
    (void)cudaRuntimeGetVersion(&rv);
    const int major = cu_attr(cudaDevAttrComputeCapabilityMajor, d->ordinal),
              minor = cu_attr(cudaDevAttrComputeCapabilityMinor, d->ordinal);
    switch ((int)e) {
    case cudaErrorNoKernelImageForDevice:
    case cudaErrorUnsupportedPtxVersion:
    case cudaErrorInvalidPtx:
    case cudaErrorJitCompilerNotFound:
    case cudaErrorJitCompilationDisabled:
        gpu_cu_why(dev,
               "%s: this build has native code for sm_%s plus PTX; the GPU is compute capability "
               "%d.%d and its driver supports CUDA %d.%d, the toolkit that built vramlab is CUDA "
               "%d.%d: %s",
               cudaGetErrorName(e), GPU_CUDA_ARCHS, major, minor, dv / 1000, (dv % 1000) / 10,
               rv / 1000, (rv % 1000) / 10,
               dv < rv ? "the driver is older than the toolkit; update the driver, or build with "
                         "a toolkit no newer than the driver"
                       : "rebuild with a toolkit that knows this GPU");
        break;
    default:
        break;
    }
    (void)cudaGetLastError();
    return st;
}

/* Frees what open created, in any state of completion. No cudaDeviceReset: the primary context
 * is shared with anything else in the process. */
static void cu_release(struct cu_dev *d)
{
    if (d->have_stream) (void)cudaStreamSynchronize(d->stream);
    gpu_cu_access_release(d);
    /* spin_host is volatile (the GPU writes it); the cast through uintptr_t drops that on purpose */
    if (d->spin_host) (void)cudaFreeHost((void *)(uintptr_t)d->spin_host);
    if (d->scratch) (void)cudaFree(d->scratch);
    d->scratch = NULL;
    if (d->have_ev1) (void)cudaEventDestroy(d->ev1);
    if (d->have_ev0) (void)cudaEventDestroy(d->ev0);
    if (d->have_stream) (void)cudaStreamDestroy(d->stream);
    (void)cudaGetLastError();
    d->spin_host = d->spin_dev = NULL;
    d->have_stream = d->have_ev0 = d->have_ev1 = false;
}

static gpu_status cu_open(const struct gpu_config *cfg, struct gpu_dev **out, char *why, size_t n)
{
    int count = 0;
    *out = NULL;
    if (why && n) why[0] = '\0';
    cudaError_t e = cudaGetDeviceCount(&count);
    if (e != cudaSuccess || count <= 0) {
        char tmp[256];
        gpu_status st = cu_open_why(e, count, tmp, sizeof tmp);
        (void)cudaGetLastError();
        if (why && n) gpu_errf(why, n, "%s", tmp);
        return st;
    }
    const int ordinal = cfg ? cfg->device : 0;
    if (ordinal < 0 || ordinal >= count) {
        if (why && n)
            gpu_errf(why, n, "CUDA device %d requested, but only %d visible (0..%d)", ordinal,
                     count, count - 1);
        return GPU_ERR_NO_DEVICE;
    }

    struct cu_dev *d = calloc(1, sizeof *d);
    if (!d) {
        if (why && n) gpu_errf(why, n, "out of host memory");
        return GPU_ERR_HOST_NOMEM;
    }
    struct gpu_dev *dev = &d->pub;
    dev->be = &gpu_cuda_backend;
    dev->cap_fraction = cfg && cfg->cap_fraction > 0 ? cfg->cap_fraction : 0.9;
    dev->cap_bytes = cfg ? cfg->cap_bytes : 0;
    d->ordinal = ordinal;
    d->rng = cfg ? cfg->seed : 0;
    if (pthread_mutex_init(&d->lock, NULL) != 0) {
        free(d);
        if (why && n) gpu_errf(why, n, "pthread_mutex_init failed");
        return GPU_ERR_HOST_NOMEM;
    }

    gpu_status st = GPU_OK;
    void *flag = NULL, *flag_dev = NULL;
    /* The context's own footprint: NVML's free memory before the context exists vs after open
     * (device queries create no context). Another process allocating meanwhile skews it. */
    uint64_t nv_free0 = 0;
    bool have_free0 = false;
    char nvwhy[160];
    if (cudaDeviceGetPCIBusId(dev->pci_bus_id, (int)sizeof dev->pci_bus_id, ordinal) == cudaSuccess)
        have_free0 = gpu_nvml_mem(dev->pci_bus_id, &nv_free0, NULL, NULL, nvwhy, sizeof nvwhy) ==
                     GPU_OK;
    else dev->pci_bus_id[0] = '\0';
    (void)cudaGetLastError();
    /* cudaSetDevice creates the primary context: the first place a broken install shows. */
    CU_TRY(dev, st, cudaSetDevice(ordinal), fail);
    CU_TRY(dev, st, cudaStreamCreateWithFlags(&d->stream, cudaStreamNonBlocking), fail);
    d->have_stream = true;
    CU_TRY(dev, st, cudaEventCreate(&d->ev0), fail);
    d->have_ev0 = true;
    CU_TRY(dev, st, cudaEventCreate(&d->ev1), fail);
    d->have_ev1 = true;
    if ((st = cu_kernels_init(d)) != GPU_OK) goto fail; /* it says why, in the user's words */
    if ((st = cu_fill_info(d)) != GPU_OK) goto fail; /* it wrote the reason into dev->why */
    /* The context with its kernels loaded, read before the backend's own scratch word (a page of
     * device memory to the driver) and mapped flag: those are vramlab's, not the context's.
     * On a MIG slice NVML's free memory is the whole GPU's: other slices move it. */
    uint64_t nv_free1 = 0;
    if (have_free0 && !dev->info.mig &&
        gpu_nvml_mem(dev->pci_bus_id, &nv_free1, NULL, NULL, nvwhy, sizeof nvwhy) == GPU_OK &&
        nv_free1 <= nv_free0) {
        dev->context_bytes = nv_free0 - nv_free1;
        dev->has_context_bytes = true;
    }
    CU_TRY(dev, st, cudaMalloc((void **)&d->scratch, sizeof *d->scratch), fail);

    /* Optional: without the mapped flag, timed batches simply start as they are queued. */
    if (cudaHostAlloc(&flag, 2 * sizeof(int), cudaHostAllocMapped) == cudaSuccess) {
        if (cudaHostGetDevicePointer(&flag_dev, flag, 0) == cudaSuccess) {
            d->spin_host = flag;
            d->spin_dev = flag_dev;
            d->spin_host[0] = 1;
            d->spin_host[1] = 0;
        } else {
            (void)cudaFreeHost(flag);
        }
    }
    (void)cudaGetLastError();
    dev->why[0] = '\0';
    *out = dev;
    return GPU_OK;

fail:
    if (why && n) gpu_errf(why, n, "%s", dev->why);
    cu_release(d);
    pthread_mutex_destroy(&d->lock);
    free(d);
    return st;
}

static void cu_close(struct gpu_dev *dev)
{
    if (!dev) return;
    struct cu_dev *d = cu(dev);
    if (cudaSetDevice(d->ordinal) != cudaSuccess) (void)cudaGetLastError();
    cu_release(d);
    pthread_mutex_destroy(&d->lock);
    free(d);
}

/* ---- memory ------------------------------------------------------------------------------- */

static gpu_status cu_mem_info(struct gpu_dev *dev, uint64_t *free_b, uint64_t *total_b)
{
    size_t f = 0, t = 0;
    gpu_status st = gpu_cu_enter(dev);
    if (st) return st;
    CU_CHECK(dev, cudaMemGetInfo(&f, &t));
    if (free_b) *free_b = f;
    if (total_b) *total_b = t;
    return GPU_OK;
}

static gpu_status cu_alloc(struct gpu_dev *dev, uint64_t bytes, void **ptr)
{
    if (!ptr || bytes == 0 || bytes > SIZE_MAX) {
        gpu_cu_why(dev, "cudaMalloc: invalid size %llu", (unsigned long long)bytes);
        return GPU_ERR_ARG;
    }
    *ptr = NULL;
    gpu_status st = gpu_cu_enter(dev);
    if (st) return st;
    CU_CHECK(dev, cudaMalloc(ptr, (size_t)bytes));
    return GPU_OK;
}

static gpu_status cu_free(struct gpu_dev *dev, void *ptr)
{
    if (!ptr) return GPU_OK;
    gpu_status st = gpu_cu_enter(dev);
    if (st) return st;
    CU_CHECK(dev, cudaFree(ptr));
    return GPU_OK;
}

static gpu_status cu_host_alloc(struct gpu_dev *dev, uint64_t bytes, bool pinned, void **ptr)
{
    if (!ptr || bytes == 0 || bytes > SIZE_MAX / 2) {
        gpu_cu_why(dev, "host buffer: invalid size %llu", (unsigned long long)bytes);
        return GPU_ERR_ARG;
    }
    *ptr = NULL;
    if (pinned) {
        gpu_status st = gpu_cu_enter(dev);
        if (st) return st;
        CU_TRY(dev, st, cudaMallocHost(ptr, (size_t)bytes), fail_pinned);
        return GPU_OK;
    fail_pinned:
        return st == GPU_ERR_NOMEM ? GPU_ERR_HOST_NOMEM : st;
    }
    long pg = sysconf(_SC_PAGESIZE);
    size_t page = pg > 0 ? (size_t)pg : 4096;
    size_t size = ((size_t)bytes + page - 1) / page * page;
    char *p = aligned_alloc(page, size);
    if (!p) {
        gpu_cu_why(dev, "aligned_alloc of %zu bytes failed", size);
        return GPU_ERR_HOST_NOMEM;
    }
    /* First touch now, so page faults are not part of a timed copy later. */
    for (size_t off = 0; off < size; off += page)
        ((volatile char *)p)[off] = 0;
    *ptr = p;
    return GPU_OK;
}

static gpu_status cu_host_free(struct gpu_dev *dev, void *ptr, bool pinned)
{
    if (!ptr) return GPU_OK;
    if (!pinned) {
        free(ptr);
        return GPU_OK;
    }
    gpu_status st = gpu_cu_enter(dev);
    if (st) return st;
    CU_CHECK(dev, cudaFreeHost(ptr));
    return GPU_OK;
}

static gpu_status cu_memset(struct gpu_dev *dev, void *ptr, int value, uint64_t bytes)
{
    struct cu_dev *d = cu(dev);
    if (!ptr) {
        gpu_cu_why(dev, "memset: NULL buffer");
        return GPU_ERR_ARG;
    }
    gpu_status st = gpu_cu_enter(dev);
    if (st) return st;
    pthread_mutex_lock(&d->lock);
    CU_TRY(dev, st, cudaMemsetAsync(ptr, value, (size_t)bytes, d->stream), out);
    CU_TRY(dev, st, cudaStreamSynchronize(d->stream), out);
out:
    pthread_mutex_unlock(&d->lock);
    return st;
}

/* ---- timed work --------------------------------------------------------------------------- */

/* Hold the stream until cu_spin_release (see gpu_k_spin). */
static cudaError_t cu_spin_hold(struct cu_dev *d)
{
    __atomic_store_n(&d->spin_host[1], 0, __ATOMIC_SEQ_CST);
    __atomic_store_n(&d->spin_host[0], 0, __ATOMIC_SEQ_CST);
    return (cudaError_t)gpu_k_spin(d->spin_dev, CU_SPIN_TIMEOUT_NS, d->stream);
}

static void cu_spin_release(struct cu_dev *d)
{
    __atomic_store_n(&d->spin_host[0], 1, __ATOMIC_SEQ_CST);
}

/* One piece of timed work, enqueued `reps` times by cu_timed. */
struct cu_work {
    enum { CU_MEMCPY, CU_KCOPY, CU_KSTREAM, CU_KDOT } kind;
    void *dst;
    const void *src;
    size_t bytes;
    enum cudaMemcpyKind copy_kind;
    int stream_kind;
    void *a, *b, *c;
    int dot_blocks; /* out: partial sums the last dot wrote */
};

static cudaError_t cu_enqueue(struct cu_dev *d, struct cu_work *w)
{
    switch (w->kind) {
    case CU_MEMCPY: return cudaMemcpyAsync(w->dst, w->src, w->bytes, w->copy_kind, d->stream);
    case CU_KCOPY: return (cudaError_t)gpu_k_copy(w->dst, w->src, w->bytes, &d->launch, d->stream);
    case CU_KSTREAM:
        return (cudaError_t)gpu_k_stream(w->stream_kind, w->a, w->b, w->c, w->bytes / 8,
                                         &d->launch, d->stream);
    case CU_KDOT:
        return (cudaError_t)gpu_k_dot(w->a, w->b, w->bytes / 8, d->scratch->partial,
                                      &w->dot_blocks, &d->launch, d->stream);
    }
    return cudaErrorInvalidValue;
}

/* One batch: [hold, one warm-up op,] ev0, `reps` ops, ev1, [release]; milliseconds between the
 * events. Held, the GPU starts only when the whole batch is queued, so what is timed is the
 * work, not the host's enqueue rate; the warm-up inside the hold (nvbandwidth's order) lets
 * the first timed op start from a running pipeline, not from the spin kernel's exit. */
static gpu_status cu_batch(struct cu_dev *d, struct cu_work *w, bool hold, int reps, float *ms)
{
    struct gpu_dev *dev = &d->pub;
    gpu_status st = GPU_OK;
    bool held = false;
    if (hold) {
        CU_TRY(dev, st, cu_spin_hold(d), fail);
        held = true;
        CU_TRY(dev, st, cu_enqueue(d, w), fail);
    }
    CU_TRY(dev, st, cudaEventRecord(d->ev0, d->stream), fail);
    for (int r = 0; r < reps; r++) CU_TRY(dev, st, cu_enqueue(d, w), fail);
    CU_TRY(dev, st, cudaEventRecord(d->ev1, d->stream), fail);
    if (held) cu_spin_release(d);
    held = false;
    CU_TRY(dev, st, cudaEventSynchronize(d->ev1), fail);
    CU_TRY(dev, st, cudaEventElapsedTime(ms, d->ev0, d->ev1), fail);
    /* The spin kernel gave up before the batch was queued: the host's enqueue time is in it. */
    if (hold && __atomic_load_n(&d->spin_host[1], __ATOMIC_SEQ_CST))
        dev->op_warn |= GPU_WARN_HOLD_TIMEOUT;
    return GPU_OK;
fail:
    if (held) cu_spin_release(d);
    gpu_cu_drain(d);
    return st;
}

/* bandwidthTest/nvbandwidth recipe: `reps` operations of the same kind back to back between two
 * events on our own stream, held by a spin kernel until queued: at every size, in batches of at
 * most CU_SPIN_MAX_OPS (the driver queues that many without blocking the host), their event
 * times summed. Work that blocks the host (a pageable copy) cannot be held: `spin_ok` false. */
static gpu_status cu_timed(struct gpu_dev *dev, struct cu_work *w, bool spin_ok, int reps,
                           double *seconds)
{
    struct cu_dev *d = cu(dev);
    const bool hold = d->spin_host && spin_ok;
    const int per = hold ? CU_SPIN_MAX_OPS - 1 : reps; /* one slot for the warm-up */
    gpu_status st = GPU_OK;
    double total = 0;
    pthread_mutex_lock(&d->lock);
    for (int done = 0; st == GPU_OK && done < reps; done += per) {
        float ms = 0;
        st = cu_batch(d, w, hold, reps - done < per ? reps - done : per, &ms);
        total += ms;
    }
    pthread_mutex_unlock(&d->lock);
    if (st == GPU_OK) *seconds = total / 1e3 / reps;
    return st;
}

/* A copy's work: checks, the host buffer's kind (*pinned), the pointers a kernel uses. */
static gpu_status cu_copy_work(struct gpu_dev *dev, enum gpu_dir dir, enum gpu_method method,
                               void *dst, const void *src, uint64_t bytes, int reps,
                               double *seconds, struct cu_work *out, bool *pinned_out)
{
    if (!dst || !src || bytes == 0 || bytes > SIZE_MAX || reps < 1 || !seconds ||
        (dir != GPU_H2D && dir != GPU_D2H && dir != GPU_D2D) ||
        (method != GPU_CE && method != GPU_SM)) {
        gpu_cu_why(dev, "copy: invalid arguments (%llu bytes, %d reps)", (unsigned long long)bytes,
               reps);
        return GPU_ERR_ARG;
    }
    gpu_status st = gpu_cu_enter(dev);
    if (st) return st;

    static const enum cudaMemcpyKind kinds[] = {
        [GPU_H2D] = cudaMemcpyHostToDevice,
        [GPU_D2H] = cudaMemcpyDeviceToHost,
        [GPU_D2D] = cudaMemcpyDeviceToDevice,
    };
    const void *host = dir == GPU_H2D ? src : dir == GPU_D2H ? (const void *)dst : NULL;
    void *kdst = dst;
    const void *ksrc = src;
    bool pinned = true;
    if (host) {
        struct cudaPointerAttributes a;
        CU_CHECK(dev, cudaPointerGetAttributes(&a, host));
        pinned = a.type == cudaMemoryTypeHost;
        if (method == GPU_SM) {
            /* A kernel can only reach host memory that is page-locked and mapped; with unified
             * addressing cudaMallocHost memory is both, at devicePointer. */
            if (!pinned || !a.devicePointer) {
                gpu_cu_why(dev,
                       "SM copy %s needs page-locked, mapped host memory (cudaMallocHost); "
                       "this host buffer is not",
                       dir == GPU_H2D ? "from the host" : "to the host");
                return GPU_ERR_UNSUPPORTED;
            }
            if (dir == GPU_H2D)
                ksrc = a.devicePointer;
            else
                kdst = a.devicePointer;
        }
    }
    struct cu_work w = {.dst = kdst, .src = ksrc, .bytes = (size_t)bytes};
    if (method == GPU_CE) {
        w.kind = CU_MEMCPY, w.dst = dst, w.src = src, w.copy_kind = kinds[dir];
    } else {
        w.kind = CU_KCOPY;
    }
    *out = w;
    *pinned_out = pinned;
    return GPU_OK;
}

/* A copy, timed in held batches (cu_timed). */
static gpu_status cu_copy(struct gpu_dev *dev, enum gpu_dir dir, enum gpu_method method, void *dst,
                          const void *src, uint64_t bytes, int reps, double *seconds)
{
    struct cu_work w;
    bool pinned = true;
    gpu_status st = cu_copy_work(dev, dir, method, dst, src, bytes, reps, seconds, &w, &pinned);
    if (st != GPU_OK) return st;
    /* Pageable copies block the host until done, so a held stream would never be released. */
    return cu_timed(dev, &w, pinned, reps, seconds);
}

/* A copy as an application makes one: issued alone, waited for, timed by the host's clock around
 * both; `reps` of them, the mean. The driver's call overhead and the completion's round trip
 * are in it, which held batches leave out. */
static gpu_status cu_copy_single(struct gpu_dev *dev, enum gpu_dir dir, enum gpu_method method,
                                 void *dst, const void *src, uint64_t bytes, int reps,
                                 double *seconds)
{
    struct cu_dev *d = cu(dev);
    struct cu_work w;
    bool pinned = true;
    gpu_status st = cu_copy_work(dev, dir, method, dst, src, bytes, reps, seconds, &w, &pinned);
    if (st != GPU_OK) return st;
    double total = 0;
    pthread_mutex_lock(&d->lock);
    for (int r = 0; r < reps; r++) {
        const double t0 = gpu_now();
        CU_TRY(dev, st, cu_enqueue(d, &w), fail);
        CU_TRY(dev, st, cudaStreamSynchronize(d->stream), fail);
        total += gpu_now() - t0;
    }
    pthread_mutex_unlock(&d->lock);
    *seconds = total / reps;
    return GPU_OK;
fail:
    gpu_cu_drain(d);
    pthread_mutex_unlock(&d->lock);
    return st;
}

/* STREAM kernels and dot, timed like copies; dot's partial sums are added on the host. */
static gpu_status cu_stream(struct gpu_dev *dev, int kind, void *a, void *b, void *c,
                            uint64_t bytes, int reps, double *seconds, double *dot)
{
    struct cu_dev *d = cu(dev);
    if (!a || !b || !c || bytes < 16 || reps < 1 || !seconds) {
        gpu_cu_why(dev, "stream: invalid arguments");
        return GPU_ERR_ARG;
    }
    gpu_status st = gpu_cu_enter(dev);
    if (st) return st;
    struct cu_work w = {.kind = kind == GPU_HOST_DOT ? CU_KDOT : CU_KSTREAM, .stream_kind = kind,
                        .a = a, .b = b, .c = c, .bytes = (size_t)bytes};
    if ((st = cu_timed(dev, &w, true, reps, seconds)) != GPU_OK || kind != GPU_HOST_DOT || !dot)
        return st;
    double part[GPU_K_DOT_MAX_BLOCKS], sum = 0;
    pthread_mutex_lock(&d->lock);
    CU_TRY(dev, st,
           cudaMemcpyAsync(part, d->scratch->partial, (size_t)w.dot_blocks * sizeof part[0],
                           cudaMemcpyDeviceToHost, d->stream),
           out);
    CU_TRY(dev, st, cudaStreamSynchronize(d->stream), out);
    for (int i = 0; i < w.dot_blocks; i++) sum += part[i];
    *dot = sum;
out:
    pthread_mutex_unlock(&d->lock);
    return st;
}

/* ---- validation --------------------------------------------------------------------------- */

static gpu_status cu_fill(struct gpu_dev *dev, void *ptr, uint64_t bytes, bool host,
                          const struct gpu_content *want)
{
    struct cu_dev *d = cu(dev);
    if (host) { /* pinned or pageable, the CPU writes it */
        gpu_content_fill(ptr, bytes, want);
        return GPU_OK;
    }
    gpu_status st = gpu_cu_enter(dev);
    if (st) return st;
    pthread_mutex_lock(&d->lock);
    if (want->kind == GPU_CONTENT_F64)
        CU_TRY(dev, st, gpu_k_fill_f64(ptr, (size_t)(bytes / 8), want->value, &d->launch, d->stream),
               out);
    else
        CU_TRY(dev, st, gpu_k_fill(ptr, (size_t)bytes, want->seed, &d->launch, d->stream), out);
    CU_TRY(dev, st, cudaStreamSynchronize(d->stream), out);
out:
    if (st) gpu_cu_drain(d);
    pthread_mutex_unlock(&d->lock);
    return st;
}

/* The compare kernel counts into device scratch, read back once: one error flag's worth of
 * traffic, as nvbandwidth's memcmp kernel. */
static gpu_status cu_check(struct gpu_dev *dev, const void *ptr, uint64_t bytes, bool host,
                           const struct gpu_content *want, struct gpu_mismatch *m)
{
    struct cu_dev *d = cu(dev);
    if (host) {
        gpu_content_check(ptr, bytes, want, m);
        return GPU_OK;
    }
    gpu_status st = gpu_cu_enter(dev);
    if (st) return st;
    unsigned long long res[2] = {0, ~0ull};
    pthread_mutex_lock(&d->lock);
    CU_TRY(dev, st,
           cudaMemcpyAsync(d->scratch->res, res, sizeof res, cudaMemcpyHostToDevice, d->stream),
           out);
    if (want->kind == GPU_CONTENT_F64)
        CU_TRY(dev, st,
               gpu_k_check_f64(ptr, (size_t)(bytes / 8), want->value,
                               want->tol * fabs(want->value), d->scratch->res, &d->launch,
                               d->stream),
               out);
    else
        CU_TRY(dev, st,
               gpu_k_check(ptr, (size_t)bytes, want->seed, d->scratch->res, &d->launch, d->stream),
               out);
    CU_TRY(dev, st,
           cudaMemcpyAsync(res, d->scratch->res, sizeof res, cudaMemcpyDeviceToHost, d->stream),
           out);
    CU_TRY(dev, st, cudaStreamSynchronize(d->stream), out);
    *m = (struct gpu_mismatch){res[0], res[0] ? res[1] : 0};
out:
    if (st) gpu_cu_drain(d);
    pthread_mutex_unlock(&d->lock);
    return st;
}

static bool cu_shared(struct gpu_dev *dev)
{
    return gpu_nvml_shared(dev->pci_bus_id, dev->info.mig ? dev->info.mig_instance : -1);
}

static gpu_status cu_clocks(struct gpu_dev *dev, struct gpu_clocks *c)
{
    char why[160];
    gpu_status st = gpu_nvml_clocks(dev->pci_bus_id, c, why, sizeof why);
    if (st != GPU_OK) gpu_cu_why(dev, "clocks: %s", why);
    return st;
}

/* ---- does a same-device copy need the SMs? ------------------------------------------------ */

/* Milliseconds from event a to event b (both complete), in seconds. */
static gpu_status cu_between(struct gpu_dev *dev, cudaEvent_t a, cudaEvent_t b, double *s)
{
    float ms = 0;
    CU_CHECK(dev, cudaEventElapsedTime(&ms, a, b));
    *s = ms / 1e3;
    return GPU_OK;
}

/* One round: the busy kernel on our stream (every SM full for busy_s), then, once every block
 * is resident (or half the busy time has passed), the copy on a second stream, by the copy engine
 * (cudaMemcpyAsync) or by the SM copy kernel. Times from the busy kernel's start: when it
 * ended, when the copy was issued and when it ended. */
static gpu_status cu_overlap_round(struct cu_dev *d, cudaStream_t other, cudaEvent_t ev[4],
                                   volatile int *started, volatile int *started_dev, int blocks,
                                   bool sm, void *dst,
                                   const void *src, uint64_t bytes, double busy_s, double out[3],
                                   int *resident)
{
    struct gpu_dev *dev = &d->pub;
    gpu_status st = GPU_OK;
    memset((void *)(uintptr_t)started, 0, (size_t)blocks * sizeof *started);
    CU_TRY(dev, st, cudaEventRecord(ev[0], d->stream), fail);
    CU_TRY(dev, st, gpu_k_busy(started_dev, (uint64_t)(busy_s * 1e9), &d->launch, d->stream),
           fail);
    CU_TRY(dev, st, cudaEventRecord(ev[1], d->stream), fail);
    /* every block started within half the busy time is every block resident at once (each
     * stays busy_s): then no SM has room for anything else */
    const double t0 = gpu_now();
    int n = 0;
    while (gpu_now() - t0 < busy_s / 2) {
        n = 0;
        for (int b = 0; b < blocks; b++) n += __atomic_load_n(&started[b], __ATOMIC_ACQUIRE) != 0;
        if (n == blocks) break;
    }
    *resident = n;
    CU_TRY(dev, st, cudaEventRecord(ev[2], other), fail);
    if (sm)
        CU_TRY(dev, st, gpu_k_copy(dst, src, (size_t)bytes, &d->launch, other), fail);
    else
        CU_TRY(dev, st, cudaMemcpyAsync(dst, src, (size_t)bytes, cudaMemcpyDeviceToDevice, other),
               fail);
    CU_TRY(dev, st, cudaEventRecord(ev[3], other), fail);
    CU_TRY(dev, st, cudaStreamSynchronize(other), fail);
    CU_TRY(dev, st, cudaStreamSynchronize(d->stream), fail);
    if ((st = cu_between(dev, ev[0], ev[1], &out[0])) != GPU_OK) return st;
    if ((st = cu_between(dev, ev[0], ev[2], &out[1])) != GPU_OK) return st;
    return cu_between(dev, ev[0], ev[3], &out[2]);
fail:
    if (!dev->failed) {
        (void)cudaStreamSynchronize(other);
        (void)cudaStreamSynchronize(d->stream);
    }
    (void)cudaGetLastError();
    return st;
}

/* Whether a same-device cudaMemcpyAsync runs on a copy engine: it does if it finishes while a
 * kernel holds every SM. The same round with the SM copy kernel in its place must wait for the
 * SMs: that shows the busy kernel really held them all (nvbandwidth keeps the two paths apart,
 * testcases_ce.cpp and testcases_sm.cpp; p2pBandwidthLatencyTest has --sm_copy). */
static gpu_status cu_overlap(struct gpu_dev *dev, void *dst, const void *src, uint64_t bytes,
                             double busy_s, struct gpu_overlap *o)
{
    struct cu_dev *d = cu(dev);
    gpu_status st = gpu_cu_enter(dev);
    if (st) return st;
    const int blocks = d->launch.blocks[GPU_K_BUSY];
    cudaStream_t other = NULL;
    cudaEvent_t ev[4] = {NULL, NULL, NULL, NULL};
    void *flags = NULL, *flags_dev = NULL;
    double ce[3] = {0, 0, 0}, smr[3] = {0, 0, 0};
    int res_ce = 0, res_sm = 0;
    pthread_mutex_lock(&d->lock);
    CU_TRY(dev, st, cudaHostAlloc(&flags, (size_t)blocks * sizeof(int), cudaHostAllocMapped), out);
    CU_TRY(dev, st, cudaHostGetDevicePointer(&flags_dev, flags, 0), out);
    CU_TRY(dev, st, cudaStreamCreateWithFlags(&other, cudaStreamNonBlocking), out);
    for (int i = 0; i < 4; i++) CU_TRY(dev, st, cudaEventCreate(&ev[i]), out);
    /* the host polls its own view of the flags; the kernel writes through the device pointer */
    st = cu_overlap_round(d, other, ev, flags, flags_dev, blocks, false, dst, src, bytes, busy_s,
                          ce, &res_ce);
    if (st == GPU_OK)
        st = cu_overlap_round(d, other, ev, flags, flags_dev, blocks, true, dst, src, bytes,
                              busy_s, smr, &res_sm);
    if (st == GPU_OK) {
        *o = (struct gpu_overlap){.busy_s = ce[0], .copy_start_s = ce[1], .copy_end_s = ce[2],
                                  .copy_s = ce[2] - ce[1], .busy_blocks = blocks,
                                  .resident_blocks = res_ce < res_sm ? res_ce : res_sm,
                                  .sm_busy_s = smr[0], .sm_copy_start_s = smr[1],
                                  .sm_copy_end_s = smr[2]};
        o->ce_overlapped = ce[2] < ce[0];
        o->sm_waited = smr[2] >= smr[0];
    }
out:
    for (int i = 0; i < 4; i++)
        if (ev[i]) (void)cudaEventDestroy(ev[i]);
    if (other) (void)cudaStreamDestroy(other);
    if (flags) (void)cudaFreeHost(flags);
    (void)cudaGetLastError();
    pthread_mutex_unlock(&d->lock);
    return st;
}

/* ---- latency ------------------------------------------------------------------------------ */

/* Sattolo's algorithm: a uniformly random permutation that is one single cycle, so following
 * next[] from any line visits every line before returning. */
static void cu_sattolo(uint32_t *next, uint64_t n, uint64_t *rng)
{
    for (uint64_t i = 0; i < n; i++)
        next[i] = (uint32_t)i;
    for (uint64_t i = n - 1; i > 0; i--) {
        uint64_t j = gpu_rand(rng) % i; /* j < i: this is what makes it one cycle */
        uint32_t t = next[i];
        next[i] = next[j];
        next[j] = t;
    }
}

/* Dependent loads over a working set of c->bytes: one address per 128-byte line, each line
 * holding the device address of the next in the order of a random single-cycle permutation (no
 * stride for a prefetcher to learn). The array is written from the host in 16 MiB slices; only
 * the n 4-byte permutation entries live on the host at once.
 * Up to 4 x L2, the whole set is first read by the full device (L2, TLBs); beyond, nothing warms
 * it, so the DRAM step is not partly served from L2. Then c->n chases, each launched so that one
 * block on one SM chases (blocks spread over the device) and each continuing where the last
 * stopped, so no chase meets lines a previous one left in L2 unless the set fits there. */
static gpu_status cu_latency(struct gpu_dev *dev, struct gpu_chase *c)
{
    struct cu_dev *d = cu(dev);
    const uint64_t n = c->bytes / CU_CHASE_LINE, steps = c->steps;
    if (steps == 0 || n < 2 || n > UINT32_MAX || c->n < 1 || c->n > GPU_MAX_CHASES) {
        gpu_cu_why(dev,
               "latency: need at least 2 lines of %u bytes, fewer than 2^32 lines, steps > 0 "
               "and 1..%d chases (got %llu bytes, %llu steps)",
               CU_CHASE_LINE, GPU_MAX_CHASES, (unsigned long long)c->bytes,
               (unsigned long long)steps);
        return GPU_ERR_ARG;
    }
    gpu_status st = gpu_cu_enter(dev);
    if (st) return st;

    uint32_t *next = malloc(n * sizeof *next);
    const uint64_t max_slice = CU_STAGE_BYTES / CU_CHASE_LINE;
    const uint64_t slice_lines = n < max_slice ? n : max_slice;
    uint64_t *slice = malloc(slice_lines * CU_CHASE_LINE);
    uint64_t *buf = NULL;
    if (!next || !slice) {
        gpu_cu_why(dev, "latency: no host memory for a %llu-line permutation",
                   (unsigned long long)n);
        st = GPU_ERR_HOST_NOMEM;
        goto out_host;
    }
    cu_sattolo(next, n, &d->rng);

    pthread_mutex_lock(&d->lock);
    CU_TRY(dev, st, cudaMalloc((void **)&buf, (size_t)(n * CU_CHASE_LINE)), out);
    for (uint64_t l0 = 0; l0 < n; l0 += slice_lines) {
        const uint64_t cnt = n - l0 < slice_lines ? n - l0 : slice_lines;
        memset(slice, 0, (size_t)(cnt * CU_CHASE_LINE));
        for (uint64_t k = 0; k < cnt; k++)
            slice[k * CU_CHASE_WORDS] = (uint64_t)(uintptr_t)(buf + next[l0 + k] * CU_CHASE_WORDS);
        CU_TRY(dev, st,
               cudaMemcpyAsync(buf + l0 * CU_CHASE_WORDS, slice, (size_t)(cnt * CU_CHASE_LINE),
                               cudaMemcpyHostToDevice, d->stream),
               out);
        CU_TRY(dev, st, cudaStreamSynchronize(d->stream), out); /* the slice is reused */
    }
    /* Every SM busy for a while first: a GPU that was idle runs its SM clock at a fraction of
     * the maximum, and a single chasing thread does not bring it up by itself. */
    CU_TRY(dev, st, gpu_k_busy(NULL, CU_WARM_NS, &d->launch, d->stream), out);
    const uint64_t l2 = dev->info.l2_bytes;
    const bool cacheable = !l2 || c->bytes <= 4 * l2;
    if (cacheable)
        CU_TRY(dev, st, gpu_k_touch(buf, (size_t)(n * CU_CHASE_LINE), &d->launch, d->stream), out);
    /* Up to 4 x L2 the warm-up walks the set once on the chasing SM (its L1, the TLBs); beyond,
     * a short walk only brings the SM's clock up: it must not fill L2 ahead of the timed loads. */
    const uint64_t warm = cacheable ? (steps < n ? steps : n) : (n < 4096 ? n : 4096);
    struct gpu_k_chase_io io = {.p = (uint64_t)(uintptr_t)buf};
    for (int k = 0; k < c->n; k++) {
        io.ran = 0;
        CU_TRY(dev, st,
               cudaMemcpyAsync(&d->scratch->io, &io, sizeof io, cudaMemcpyHostToDevice, d->stream),
               out);
        const int target = (int)((long long)k * d->launch.sms / c->n);
        CU_TRY(dev, st,
               gpu_k_chase(&d->scratch->io, warm, steps, target, c->load == GPU_LOAD_GENERIC,
                           &d->launch, d->stream),
               out);
        CU_TRY(dev, st,
               cudaMemcpyAsync(&io, &d->scratch->io, sizeof io, cudaMemcpyDeviceToHost, d->stream),
               out);
        CU_TRY(dev, st, cudaStreamSynchronize(d->stream), out);
        if (!io.ran || io.ns == 0) {
            gpu_cu_why(dev, "latency: %s over %llu loads", io.ran ? "the GPU timer did not advance"
                                                              : "no block chased",
                   (unsigned long long)steps);
            st = GPU_ERR_DRIVER;
            goto out;
        }
        c->ns[k] = (double)io.ns / (double)steps;
        c->cycles[k] = (double)io.cycles / (double)steps;
        c->sm[k] = (int)io.sm;
    }

out:
    if (st) gpu_cu_drain(d);
    if (buf && cudaFree(buf) != cudaSuccess) (void)cudaGetLastError();
    pthread_mutex_unlock(&d->lock);
out_host:
    free(slice);
    free(next);
    return st;
}

/* ---- for the backend's other files (gpu_cuda_int.h) ------------------------------------- */

const struct gpu_backend gpu_cuda_backend = {
    .name = "cuda",
    .caps = GPU_CAP_REAL | GPU_CAP_SM_COPY | GPU_CAP_LATENCY | GPU_CAP_PINNED,
    .open = cu_open,
    .close = cu_close,
    .mem_info = cu_mem_info,
    .alloc = cu_alloc,
    .free = cu_free,
    .host_alloc = cu_host_alloc,
    .host_free = cu_host_free,
    .memset = cu_memset,
    .copy = cu_copy,
    .latency = cu_latency,
    .stream = cu_stream,
    .fill = cu_fill,
    .check = cu_check,
    .shared = cu_shared,
    .access = gpu_cu_access,
    .feed = &gpu_cuda_feed_ops,
    .copy_single = cu_copy_single,
    .clocks = cu_clocks,
    .overlap = cu_overlap,
};
