/* gpu_cuda_int.h - what the files of the cuda backend share (gpu_cuda.c, gpu_cuda_access.c,
 * gpu_cuda_feed.c, gpu_cuda_err.c): the device's private state, the error path that records a
 * CUDA error's name and file:line in dev->why (sticky errors mark the device failed), and the
 * CU_CHECK/CU_TRY macros over it. Not for the rest of the tree. */
#ifndef GPU_CUDA_INT_H
#define GPU_CUDA_INT_H

#include <cuda_runtime_api.h>
#include <pthread.h>

#include "gpu.h"
#include "gpu_kernels.h"

/* Device scratch the backend keeps: validation counters, dot partial sums, the chase's state. */
struct cu_scratch {
    unsigned long long res[2];
    struct gpu_k_chase_io io;
    double partial[GPU_K_DOT_MAX_BLOCKS];
};

struct cu_dev {
    struct gpu_dev pub; /* first: the registry sees only this */
    int ordinal;
    cudaStream_t stream; /* dedicated, non-blocking: no implicit sync with the legacy stream */
    cudaEvent_t ev0, ev1;
    bool have_stream, have_ev0, have_ev1;
    pthread_mutex_t lock; /* the stream and the two events serve one timed run at a time */
    struct gpu_k_launch launch;
    /* mapped page-locked {release, timed out} pair; NULL: no spin, batches start at once */
    volatile int *spin_host;
    volatile int *spin_dev;
    struct cu_scratch *scratch; /* device memory */
    uint64_t rng;
    struct cu_access *access;   /* gpu_cuda_access.c's state, made at its first use */
};

/* The error path (gpu_cuda_err.c): why, the status, a sticky error marks the device failed. */
void gpu_cu_why(struct gpu_dev *dev, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
gpu_status gpu_cu_fail(struct gpu_dev *dev, cudaError_t e, const char *expr, const char *file,
                       int line);
/* Select this device on the calling thread; refuses work after a sticky error. */
gpu_status gpu_cu_enter(struct gpu_dev *dev);
/* After a failed enqueue: let what was queued finish, so the caller may free the buffers. */
void gpu_cu_drain(struct cu_dev *d);
/* The access-pattern experiments (gpu_cuda_access.c): the backend's `access` operation, and
 * what it keeps between calls, freed when the device closes. */
gpu_status gpu_cu_access(struct gpu_dev *dev, struct gpu_access *a);
void gpu_cu_access_release(struct cu_dev *d);

/* Kernel wrappers return cudaError_t as int; the cast makes one macro serve both. */
#define CU_CHECK(dev, expr)                                                                        \
    do {                                                                                           \
        const cudaError_t cu_e_ = (cudaError_t)(expr);                                             \
        if (cu_e_ != cudaSuccess) return gpu_cu_fail((dev), cu_e_, #expr, __FILE__, __LINE__);     \
    } while (0)

#define CU_TRY(dev, st, expr, label)                                                               \
    do {                                                                                           \
        const cudaError_t cu_e_ = (cudaError_t)(expr);                                             \
        if (cu_e_ != cudaSuccess) {                                                                \
            (st) = gpu_cu_fail((dev), cu_e_, #expr, __FILE__, __LINE__);                           \
            goto label;                                                                            \
        }                                                                                          \
    } while (0)

#endif
