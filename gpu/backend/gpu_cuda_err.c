/* gpu_cuda_err.c - the cuda backend's error path, shared by its files (gpu_cuda.c,
 * gpu_cuda_access.c, gpu_cuda_feed.c): a CUDA error's name, text, expression and file:line in
 * dev->why, the status it maps to, sticky errors that mark the device failed; selecting the device
 * on the calling thread; draining the stream after a failed enqueue. It calls no other file of the
 * backend, so the files that use it never call each other in a circle. */
#include "gpu_cuda_int.h"

#include <cuda_runtime_api.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>

void gpu_cu_why(struct gpu_dev *dev, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(dev->why, sizeof dev->why, fmt, ap);
    va_end(ap);
    dev->why_key = GPU_WHY_TEXT;
}

/* Errors after which the context is unusable: every later call returns the same error, and only a
 * new process recovers (CUDA runtime API, "sticky" errors; an MPS client the server terminated
 * "must be terminated and relaunched"). A switch on the int: some codes have no name before
 * CUDA 12.8, and a C switch on the enum would reject them. */
static bool cu_sticky(cudaError_t e)
{
    switch ((int)e) {
    case cudaErrorIllegalAddress:
    case cudaErrorLaunchFailure:
    case cudaErrorLaunchTimeout:
    case cudaErrorHardwareStackError:
    case cudaErrorIllegalInstruction:
    case cudaErrorMisalignedAddress:
    case cudaErrorInvalidAddressSpace:
    case cudaErrorInvalidPc:
    case cudaErrorAssert:
    case cudaErrorECCUncorrectable:
    case cudaErrorNvlinkUncorrectable:
    case cudaErrorExternalDevice:
    case cudaErrorMpsRpcFailure:       /* the link to the MPS server is gone */
    case cudaErrorMpsClientTerminated: /* the MPS server terminated this client */
#if CUDART_VERSION >= 12080
    case cudaErrorContained:
    case cudaErrorTensorMemoryLeak:
#else
    case 226: /* cudaErrorContained */
    case 721: /* cudaErrorTensorMemoryLeak */
#endif
        return true;
    default:
        return false;
    }
}

gpu_status gpu_cu_fail(struct gpu_dev *dev, cudaError_t e, const char *expr, const char *file,
                       int line)
{
    gpu_cu_why(dev, "%s (%s) in %s at %s:%d", cudaGetErrorName(e), cudaGetErrorString(e), expr,
               file, line);
    if (cu_sticky(e)) {
        dev->failed = GPU_ERR_STICKY;
        return GPU_ERR_STICKY;
    }
    /* A non-sticky error also stays in the thread's last-error slot; clear it so the next
     * kernel-launch check does not report it a second time. */
    (void)cudaGetLastError();
    switch (e) {
    case cudaErrorMemoryAllocation:
        return GPU_ERR_NOMEM;
    case cudaErrorInvalidValue:
    case cudaErrorInvalidDevicePointer:
    case cudaErrorInvalidMemcpyDirection:
        return GPU_ERR_ARG;
    case cudaErrorNoDevice:
    case cudaErrorInvalidDevice:
    case cudaErrorDevicesUnavailable:
        return GPU_ERR_NO_DEVICE;
    default:
        return GPU_ERR_DRIVER;
    }
}

/* The current device is per host thread and experiments run on worker threads: select ours on
 * every entry (cheap when it already is). Also refuses work once a sticky error was seen. */
gpu_status gpu_cu_enter(struct gpu_dev *dev)
{
    if (dev->failed) return dev->failed;
    CU_CHECK(dev, cudaSetDevice(((struct cu_dev *)dev)->ordinal));
    return GPU_OK;
}

/* After a failed enqueue: let whatever was queued finish, so the caller may free the buffers. */
void gpu_cu_drain(struct cu_dev *d)
{
    if (!d->pub.failed) (void)cudaStreamSynchronize(d->stream);
    (void)cudaGetLastError();
}
