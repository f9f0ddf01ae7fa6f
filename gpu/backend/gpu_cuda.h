/* gpu_cuda.h - the `cuda` backend (gpu_cuda.c): real measurements through the CUDA runtime.
 * Only built when nvcc is found (GPU_HAVE_CUDA); at run time open() fails cleanly with the
 * driver's reason when there is no driver or no device. */
#ifndef GPU_CUDA_H
#define GPU_CUDA_H

#include "gpu.h"

extern const struct gpu_backend gpu_cuda_backend;

#endif
