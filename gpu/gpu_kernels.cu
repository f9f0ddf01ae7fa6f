/* gpu_kernels.cu - the device code of the cuda backend: an SM copy kernel, a read-everything
 * warm-up, a one-thread pointer chase and a stream-holding spin kernel, each behind an extern "C"
 * host wrapper declared in gpu_kernels.h. Wrappers return cudaError_t as int and never exit. */
#include "gpu_kernels.h"

#include <cuda_runtime.h>

namespace
{

const int k_threads = 256; /* a multiple of the warp; 8 resident blocks fill a 2048-thread SM */
const int k_unroll = 4;    /* independent 16-byte loads in flight per thread per iteration */

/* Grid-stride copy of n words of type T that start `head` bytes into dst0/src0, plus the scalar
 * head bytes before them and `tail` bytes after them (both < sizeof(T)).
 * Each iteration issues k_unroll loads before any store: HBM needs many bytes in flight (Little's
 * law: ~4.8 TB/s x ~0.6 us is ~3 MB across the chip), and a load-store-load chain would leave one
 * request per thread outstanding. Within a warp the words are consecutive, so every load and
 * store instruction is one fully coalesced 512-byte (T = uint4) transaction group. */
template <typename T>
__global__ void __launch_bounds__(k_threads)
    k_copy(unsigned char *dst0, const unsigned char *src0, size_t head, size_t n, size_t tail)
{
    const size_t tid = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    const size_t stride = (size_t)gridDim.x * blockDim.x;
    const size_t tail_off = head + n * sizeof(T);

    if (tid < head) dst0[tid] = src0[tid];
    if (tid < tail) dst0[tail_off + tid] = src0[tail_off + tid];

    T *d = reinterpret_cast<T *>(dst0 + head);
    const T *s = reinterpret_cast<const T *>(src0 + head);
    size_t i = tid;
    for (; i + (size_t)(k_unroll - 1) * stride < n; i += (size_t)k_unroll * stride) {
        T v[k_unroll];
#pragma unroll
        for (int u = 0; u < k_unroll; u++)
            v[u] = s[i + (size_t)u * stride];
#pragma unroll
        for (int u = 0; u < k_unroll; u++)
            d[i + (size_t)u * stride] = v[u];
    }
    for (; i < n; i += stride)
        d[i] = s[i];
}

/* STREAM kernels on double2 (16-byte) words, grid-stride; the scalar tail (n odd) is done by
 * thread 0. K: 2 copy, 3 scale, 4 add, 5 triad (enum gpu_host_kind). */
template <int K>
__global__ void __launch_bounds__(k_threads) k_stream(double *a, double *b, double *c, size_t n)
{
    const double s = 3.0;
    const size_t tid = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    const size_t stride = (size_t)gridDim.x * blockDim.x;
    const size_t n2 = n / 2;
    double2 *a2 = reinterpret_cast<double2 *>(a), *b2 = reinterpret_cast<double2 *>(b),
            *c2 = reinterpret_cast<double2 *>(c);
    for (size_t i = tid; i < n2; i += stride) {
        if (K == 2) c2[i] = a2[i];
        if (K == 3) { const double2 v = c2[i]; b2[i] = make_double2(s * v.x, s * v.y); }
        if (K == 4) { const double2 x = a2[i], y = b2[i]; c2[i] = make_double2(x.x + y.x, x.y + y.y); }
        if (K == 5) {
            const double2 x = b2[i], y = c2[i];
            a2[i] = make_double2(x.x + s * y.x, x.y + s * y.y);
        }
    }
    if (tid == 0 && (n & 1)) {
        const size_t i = n - 1;
        if (K == 2) c[i] = a[i];
        if (K == 3) b[i] = s * c[i];
        if (K == 4) c[i] = a[i] + b[i];
        if (K == 5) a[i] = b[i] + s * c[i];
    }
}

/* Written only when an XOR of the data hits one particular value: the compiler has to keep every
 * load, and in practice nothing is ever written. */
__device__ unsigned int k_sink;

__global__ void __launch_bounds__(k_threads)
    k_touch(const uint4 *p, size_t n, const unsigned char *tailp, size_t tail)
{
    const size_t tid = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    const size_t stride = (size_t)gridDim.x * blockDim.x;
    unsigned int acc = 0;
    for (size_t i = tid; i < n; i += stride) {
        const uint4 v = p[i];
        acc ^= v.x ^ v.y ^ v.z ^ v.w;
    }
    if (tid < tail) acc ^= tailp[tid];
    if (acc == 0x9e3779b9u) k_sink = acc;
}

__device__ __forceinline__ uint64_t k_globaltimer(void)
{
    uint64_t t;
    /* "memory": no load may be moved across the timer read. */
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t) : : "memory");
    return t;
}

/* Every load depends on the previous one, so the time per step is the load-to-use latency of
 * whichever level of the hierarchy holds next[j]. Plain loads: they go through L1, as a real
 * kernel's would. Warm-up and timed part run in one launch, so both run on the same SM (its L1
 * is the one the warm-up filled) and no launch overhead is timed. %globaltimer counts
 * nanoseconds; its update granularity (up to ~1 us on some parts) is small against a chase of
 * many thousand loads. The final index is stored so the chain is live. */
__global__ void k_chase(const uint64_t *next, uint64_t warm, uint64_t steps, uint64_t *io)
{
    uint64_t j = io[0];
    for (uint64_t k = 0; k < warm; k++)
        j = next[j];
    const uint64_t t0 = k_globaltimer();
#pragma unroll 8
    for (uint64_t k = 0; k < steps; k++)
        j = next[j];
    const uint64_t t1 = k_globaltimer();
    io[0] = j;
    io[1] = t1 - t0;
}

__global__ void k_spin(volatile int *flag, uint64_t timeout_ns)
{
    const uint64_t t0 = k_globaltimer();
    while (*flag == 0 && k_globaltimer() - t0 < timeout_ns)
        __nanosleep(256);
}

template <typename T>
cudaError_t launch_copy(void *dst, const void *src, size_t bytes, const gpu_k_launch *cfg,
                        cudaStream_t stream)
{
    const size_t w = sizeof(T);
    size_t head = (w - ((uintptr_t)src & (w - 1))) & (w - 1);
    if (head > bytes) head = bytes;
    const size_t n = (bytes - head) / w;
    const size_t tail = bytes - head - n * w;
    /* Small copies: no more blocks than there are words (at least one, for head and tail). */
    const size_t threads = (size_t)cfg->threads;
    size_t blocks = (n + threads - 1) / threads;
    if (blocks > (size_t)cfg->blocks) blocks = (size_t)cfg->blocks;
    if (blocks < 1) blocks = 1;
    k_copy<T><<<(unsigned)blocks, (unsigned)threads, 0, stream>>>(
        static_cast<unsigned char *>(dst), static_cast<const unsigned char *>(src), head, n, tail);
    return cudaGetLastError();
}

} // namespace

#define K_TRY(expr)                                                                                \
    do {                                                                                           \
        const cudaError_t k_e_ = (expr);                                                           \
        if (k_e_ != cudaSuccess) return (int)k_e_;                                                 \
    } while (0)

extern "C" int gpu_k_init(struct gpu_k_launch *cfg)
{
    int dev = 0, sms = 0, per_sm = 0;
    K_TRY(cudaGetDevice(&dev));
    K_TRY(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    K_TRY(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, k_copy<uint4>, k_threads, 0));
    cfg->threads = k_threads;
    cfg->blocks = (sms > 0 ? sms : 1) * (per_sm > 0 ? per_sm : 1);

    /* Querying a kernel's attributes loads its module now rather than at its first launch. */
    cudaFuncAttributes a;
    K_TRY(cudaFuncGetAttributes(&a, k_copy<uint4>));
    K_TRY(cudaFuncGetAttributes(&a, k_copy<uint2>));
    K_TRY(cudaFuncGetAttributes(&a, k_copy<unsigned int>));
    K_TRY(cudaFuncGetAttributes(&a, k_copy<unsigned short>));
    K_TRY(cudaFuncGetAttributes(&a, k_copy<unsigned char>));
    K_TRY(cudaFuncGetAttributes(&a, k_touch));
    K_TRY(cudaFuncGetAttributes(&a, k_stream<2>));
    K_TRY(cudaFuncGetAttributes(&a, k_stream<3>));
    K_TRY(cudaFuncGetAttributes(&a, k_stream<4>));
    K_TRY(cudaFuncGetAttributes(&a, k_stream<5>));
    K_TRY(cudaFuncGetAttributes(&a, k_chase));
    K_TRY(cudaFuncGetAttributes(&a, k_spin));
    return (int)cudaSuccess;
}

extern "C" int gpu_k_copy(void *dst, const void *src, size_t bytes, const struct gpu_k_launch *cfg,
                          struct CUstream_st *stream)
{
    if (bytes == 0) return (int)cudaSuccess;
    if (!dst || !src || !cfg || cfg->threads <= 0 || cfg->blocks <= 0)
        return (int)cudaErrorInvalidValue;
    /* The widest word both pointers can be aligned to at once: after the same head, src and dst
     * must both sit on a word boundary. cudaMalloc'd buffers (256-byte aligned) take uint4. */
    const uintptr_t mis = (uintptr_t)dst ^ (uintptr_t)src;
    if ((mis & 15) == 0) return (int)launch_copy<uint4>(dst, src, bytes, cfg, stream);
    if ((mis & 7) == 0) return (int)launch_copy<uint2>(dst, src, bytes, cfg, stream);
    if ((mis & 3) == 0) return (int)launch_copy<unsigned int>(dst, src, bytes, cfg, stream);
    if ((mis & 1) == 0) return (int)launch_copy<unsigned short>(dst, src, bytes, cfg, stream);
    return (int)launch_copy<unsigned char>(dst, src, bytes, cfg, stream);
}

extern "C" int gpu_k_touch(const void *buf, size_t bytes, const struct gpu_k_launch *cfg,
                           struct CUstream_st *stream)
{
    if (bytes == 0) return (int)cudaSuccess;
    if (!buf || !cfg || cfg->threads <= 0 || cfg->blocks <= 0 || ((uintptr_t)buf & 15))
        return (int)cudaErrorInvalidValue;
    const size_t n = bytes / 16, tail = bytes % 16;
    k_touch<<<(unsigned)cfg->blocks, (unsigned)cfg->threads, 0, stream>>>(
        static_cast<const uint4 *>(buf), n, static_cast<const unsigned char *>(buf) + n * 16, tail);
    return (int)cudaGetLastError();
}

extern "C" int gpu_k_chase(const uint64_t *next, uint64_t warm, uint64_t steps, uint64_t *io,
                           struct CUstream_st *stream)
{
    if (!next || !io) return (int)cudaErrorInvalidValue;
    k_chase<<<1, 1, 0, stream>>>(next, warm, steps, io);
    return (int)cudaGetLastError();
}

extern "C" int gpu_k_spin(volatile int *flag, uint64_t timeout_ns, struct CUstream_st *stream)
{
    if (!flag) return (int)cudaErrorInvalidValue;
    k_spin<<<1, 1, 0, stream>>>(flag, timeout_ns);
    return (int)cudaGetLastError();
}

extern "C" int gpu_k_stream(int kind, double *a, double *b, double *c, size_t n,
                            const struct gpu_k_launch *cfg, struct CUstream_st *stream)
{
    if (!a || !b || !c || !cfg || cfg->threads <= 0 || cfg->blocks <= 0 ||
        (((uintptr_t)a | (uintptr_t)b | (uintptr_t)c) & 15))
        return (int)cudaErrorInvalidValue;
    const dim3 g((unsigned)cfg->blocks), t((unsigned)cfg->threads);
    switch (kind) {
    case 2: k_stream<2><<<g, t, 0, stream>>>(a, b, c, n); break;
    case 3: k_stream<3><<<g, t, 0, stream>>>(a, b, c, n); break;
    case 4: k_stream<4><<<g, t, 0, stream>>>(a, b, c, n); break;
    case 5: k_stream<5><<<g, t, 0, stream>>>(a, b, c, n); break;
    default: return (int)cudaErrorInvalidValue;
    }
    return (int)cudaGetLastError();
}
