/* gpu_kernels.cu - the device code of the cuda backend: an SM copy kernel, STREAM's kernels and
 * BabelStream's dot, fill and compare kernels for validation, a read-everything warm-up, a
 * pointer chase (global or generic loads), a stream-holding spin kernel and a kernel that keeps
 * every SM busy, each behind an extern "C" host wrapper declared
 * in gpu_kernels.h. Wrappers return cudaError_t as int and never exit. */
#include "gpu_kernels.h"

#include <cuda_runtime.h>

#include "gpu_kernels_dev.cuh"
#include "gpu_pattern.h"

namespace
{

const int k_threads = 256; /* a multiple of the warp; 8 resident blocks fill a 2048-thread SM */
/* __launch_bounds__(k_threads, K_MIN_BLOCKS): the compiler keeps registers within what a full SM
 * of 256-thread blocks allows, so no architecture's code loses occupancy to its register count
 * (NVVM for sm_100 otherwise gave the STREAM kernels 48 registers: 5 blocks, not 8). A full SM
 * is 2048 threads (8 blocks), 1536 on sm_86/89/120 (6), 1024 on sm_75 (4); asking for more than
 * fit makes ptxas ignore the bound and say so. The programming guide's pattern: per __CUDA_ARCH__. */
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ == 750
#define K_MIN_BLOCKS 4
#elif defined(__CUDA_ARCH__) && (__CUDA_ARCH__ == 860 || __CUDA_ARCH__ == 890 || __CUDA_ARCH__ >= 1200)
#define K_MIN_BLOCKS 6
#else
#define K_MIN_BLOCKS 8
#endif
/* 16-byte loads in flight per thread before the first store: Little's law on HBM wants many
 * bytes in flight (~4.8 TB/s x ~0.6 us is ~3 MB across the chip), and a load-store chain would
 * leave one request per thread outstanding. Kernels with two input arrays batch half as many
 * elements, so every kernel keeps 64 bytes per thread in flight. */
const int k_inflight = 4;

/* Grid-stride copy of n words of type T that start `head` bytes into dst0/src0, plus the scalar
 * head bytes before them and `tail` bytes after them (both < sizeof(T)). Each iteration issues
 * k_inflight loads before any store; within a warp the words are consecutive, so every load and
 * store instruction is one fully coalesced 512-byte (T = uint4) transaction group. */
template <typename T>
__global__ void __launch_bounds__(k_threads, K_MIN_BLOCKS)
    k_copy(unsigned char *__restrict__ dst0, const unsigned char *__restrict__ src0, size_t head,
           size_t n, size_t tail)
{
    const size_t tid = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    const size_t stride = (size_t)gridDim.x * blockDim.x;
    const size_t tail_off = head + n * sizeof(T);

    if (tid < head) dst0[tid] = src0[tid];
    if (tid < tail) dst0[tail_off + tid] = src0[tail_off + tid];

    T *__restrict__ d = reinterpret_cast<T *>(dst0 + head);
    const T *__restrict__ s = reinterpret_cast<const T *>(src0 + head);
    size_t i = tid;
    for (; i + (size_t)(k_inflight - 1) * stride < n; i += (size_t)k_inflight * stride) {
        T v[k_inflight];
#pragma unroll
        for (int u = 0; u < k_inflight; u++) v[u] = s[i + (size_t)u * stride];
#pragma unroll
        for (int u = 0; u < k_inflight; u++) d[i + (size_t)u * stride] = v[u];
    }
    for (; i < n; i += stride) d[i] = s[i];
}

/* STREAM, BabelStream-style: each iteration loads all its elements (U of them, 16 bytes each
 * per input array), then computes and stores; __restrict__ tells the compiler the stores cannot
 * change what was loaded. Kinds as enum gpu_host_kind: 2 copy c = a, 3 scale b = s*c,
 * 4 add c = a + b, 5 triad a = b + s*c. The last double of an odd n is done by thread 0. */
template <int K> struct k_op;
template <> struct k_op<2> {
    static const int in = 1;
    __device__ static double2 *out(double2 *a, double2 *b, double2 *c) { return c; }
    __device__ static double2 x(const double2 *a, const double2 *b, const double2 *c, size_t j) { return a[j]; }
    __device__ static double2 y(const double2 *, const double2 *, const double2 *, size_t) { return double2(); }
    __device__ static double2 f(double2 x, double2) { return x; }
};
template <> struct k_op<3> {
    static const int in = 1;
    __device__ static double2 *out(double2 *a, double2 *b, double2 *c) { return b; }
    __device__ static double2 x(const double2 *a, const double2 *b, const double2 *c, size_t j) { return c[j]; }
    __device__ static double2 y(const double2 *, const double2 *, const double2 *, size_t) { return double2(); }
    __device__ static double2 f(double2 x, double2) { return make_double2(3.0 * x.x, 3.0 * x.y); }
};
template <> struct k_op<4> {
    static const int in = 2;
    __device__ static double2 *out(double2 *a, double2 *b, double2 *c) { return c; }
    __device__ static double2 x(const double2 *a, const double2 *b, const double2 *c, size_t j) { return a[j]; }
    __device__ static double2 y(const double2 *a, const double2 *b, const double2 *c, size_t j) { return b[j]; }
    __device__ static double2 f(double2 x, double2 y) { return make_double2(x.x + y.x, x.y + y.y); }
};
template <> struct k_op<5> {
    static const int in = 2;
    __device__ static double2 *out(double2 *a, double2 *b, double2 *c) { return a; }
    __device__ static double2 x(const double2 *a, const double2 *b, const double2 *c, size_t j) { return b[j]; }
    __device__ static double2 y(const double2 *a, const double2 *b, const double2 *c, size_t j) { return c[j]; }
    __device__ static double2 f(double2 x, double2 y) { return make_double2(x.x + 3.0 * y.x, x.y + 3.0 * y.y); }
};

template <int K>
__global__ void __launch_bounds__(k_threads, K_MIN_BLOCKS)
    k_stream(double2 *__restrict__ a, double2 *__restrict__ b, double2 *__restrict__ c, size_t n2,
             bool odd)
{
    typedef k_op<K> op;
    const int U = k_inflight / op::in;
    const size_t tid = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    const size_t stride = (size_t)gridDim.x * blockDim.x;
    double2 *__restrict__ o = op::out(a, b, c);
    size_t i = tid;
    for (; i + (size_t)(U - 1) * stride < n2; i += (size_t)U * stride) {
        double2 x[U], y[U];
#pragma unroll
        for (int u = 0; u < U; u++) {
            x[u] = op::x(a, b, c, i + (size_t)u * stride);
            y[u] = op::y(a, b, c, i + (size_t)u * stride);
        }
#pragma unroll
        for (int u = 0; u < U; u++) o[i + (size_t)u * stride] = op::f(x[u], y[u]);
    }
    for (; i < n2; i += stride) o[i] = op::f(op::x(a, b, c, i), op::y(a, b, c, i));
    if (tid == 0 && odd) { /* the last double, as half of a double2 whose other half is unused */
        const double *da = reinterpret_cast<const double *>(a + n2),
                     *db = reinterpret_cast<const double *>(b + n2),
                     *dc = reinterpret_cast<const double *>(c + n2);
        double *dout = reinterpret_cast<double *>(o + n2);
        const double2 xv = K == 2 ? make_double2(*da, 0) : K == 3 ? make_double2(*dc, 0)
                                  : K == 4 ? make_double2(*da, 0) : make_double2(*db, 0);
        const double2 yv = K == 4 ? make_double2(*db, 0) : K == 5 ? make_double2(*dc, 0)
                                                                   : make_double2(0, 0);
        *dout = op::f(xv, yv).x;
    }
}

/* BabelStream's dot: each thread sums a[i]*b[i] over its grid-stride share (two 16-byte loads
 * per array in flight), then the block reduces in shared memory and writes one partial sum. */
__global__ void __launch_bounds__(k_threads, K_MIN_BLOCKS)
    k_dot(const double2 *__restrict__ a, const double2 *__restrict__ b, size_t n2, bool odd,
          double *__restrict__ partial)
{
    __shared__ double sh[k_threads];
    const size_t tid = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    const size_t stride = (size_t)gridDim.x * blockDim.x;
    double acc = 0;
    size_t i = tid;
    for (; i + stride < n2; i += 2 * stride) {
        const double2 x0 = a[i], y0 = b[i], x1 = a[i + stride], y1 = b[i + stride];
        acc += x0.x * y0.x + x0.y * y0.y;
        acc += x1.x * y1.x + x1.y * y1.y;
    }
    for (; i < n2; i += stride) {
        const double2 x = a[i], y = b[i];
        acc += x.x * y.x + x.y * y.y;
    }
    if (tid == 0 && odd)
        acc += reinterpret_cast<const double *>(a + n2)[0] * reinterpret_cast<const double *>(b + n2)[0];
    sh[threadIdx.x] = acc;
    for (int off = k_threads / 2; off > 0; off /= 2) {
        __syncthreads();
        if ((int)threadIdx.x < off) sh[threadIdx.x] += sh[threadIdx.x + off];
    }
    if (threadIdx.x == 0) partial[blockIdx.x] = sh[0];
}

/* Validation. The pattern is written as whole 8-byte words when the buffer is 8-byte aligned,
 * byte by byte otherwise (the byte-offset rule is the same, gpu_pattern.h). */
__global__ void __launch_bounds__(k_threads)
    k_fill(unsigned char *p, size_t bytes, uint64_t seed)
{
    const size_t stride = (size_t)gridDim.x * blockDim.x;
    const bool aligned = ((uintptr_t)p & 7) == 0;
    for (size_t w = (size_t)blockIdx.x * blockDim.x + threadIdx.x; w * 8 < bytes; w += stride) {
        if (aligned && w * 8 + 8 <= bytes) {
            reinterpret_cast<uint64_t *>(p)[w] = gpu_pattern_word(seed, w);
        } else {
            for (size_t i = w * 8; i < w * 8 + 8 && i < bytes; i++) p[i] = gpu_pattern_byte(seed, i);
        }
    }
}

__global__ void __launch_bounds__(k_threads)
    k_check(const unsigned char *p, size_t bytes, uint64_t seed, unsigned long long *res)
{
    const size_t stride = (size_t)gridDim.x * blockDim.x;
    const bool aligned = ((uintptr_t)p & 7) == 0;
    unsigned long long bad = 0, first = ~0ull;
    for (size_t w = (size_t)blockIdx.x * blockDim.x + threadIdx.x; w * 8 < bytes; w += stride) {
        if (aligned && w * 8 + 8 <= bytes) {
            const uint64_t got = reinterpret_cast<const uint64_t *>(p)[w];
            const uint64_t want = gpu_pattern_word(seed, w);
            if (got == want) continue;
            for (int k = 0; k < 8; k++)
                if (((got ^ want) >> (8 * k)) & 0xff) {
                    if (!bad++ || w * 8 + k < first) first = w * 8 + k;
                }
        } else {
            for (size_t i = w * 8; i < w * 8 + 8 && i < bytes; i++)
                if (p[i] != gpu_pattern_byte(seed, i) && (!bad++ || i < first)) first = i;
        }
    }
    gpu_dev_report(bad, first, res);
}

__global__ void __launch_bounds__(k_threads) k_fill_f64(double *p, size_t n, double v)
{
    const size_t stride = (size_t)gridDim.x * blockDim.x;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) p[i] = v;
}

__global__ void __launch_bounds__(k_threads)
    k_check_f64(const double *p, size_t n, double v, double tol, unsigned long long *res)
{
    const size_t stride = (size_t)gridDim.x * blockDim.x;
    unsigned long long bad = 0, first = ~0ull;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
        if (!(fabs(p[i] - v) <= tol) && (!bad++ || i < first)) first = i; /* NaN differs */
    gpu_dev_report(bad, first, res);
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

/* Each load's result is the next load's address: the time per step is the load-to-use latency
 * of whichever level holds the line, with no address arithmetic between the loads (an index
 * chase adds a shift and an add to every step). Loads through L1, as a real kernel's would go:
 * ld.global.ca (LOAD = GPU_DEV_LOAD_L1, the papers' way) or the plain generic load (PLAIN,
 * nvbandwidth's), gpu_kernels_dev.cuh. Warm-up and timed part run in one launch on one SM, so the warm-up fills the L1 the timed
 * part reads and no launch overhead is timed. %globaltimer counts nanoseconds (its update
 * granularity, up to ~1 us on some parts, is small against 2^18 loads); clock64 counts this SM's
 * cycles, the unit the microbenchmark papers report. Only block `target` chases: nvbandwidth's
 * way of choosing where a chase runs; %smid says which SM that was. */
template <int LOAD>
__global__ void k_chase(gpu_k_chase_io *io, uint64_t warm, uint64_t steps, int target)
{
    if ((int)blockIdx.x == target) gpu_dev_chase<LOAD>(io, warm, steps);
}

__global__ void k_spin(volatile int *flag, uint64_t timeout_ns)
{
    const uint64_t t0 = gpu_dev_globaltimer();
    while (flag[0] == 0) {
        if (gpu_dev_globaltimer() - t0 >= timeout_ns) {
            flag[1] = 1; /* the host reads it after the batch: that trial is flagged */
            return;
        }
        __nanosleep(256);
    }
}

/* Every thread of every block waits for `ns` of %globaltimer from its block's start: with the
 * grid at the kernel's full occupancy, no SM has room for another block meanwhile. Each block
 * says it started in started[blockIdx.x] (mapped host memory, plain stores: atomics over PCIe
 * are not portable) once all its threads are in, so the host knows when every SM is full.
 * Without `started` it only keeps the GPU busy (its clocks come up to speed). */
__global__ void __launch_bounds__(k_threads) k_busy(volatile int *started, uint64_t ns)
{
    __shared__ uint64_t t0;
    if (threadIdx.x == 0) t0 = gpu_dev_globaltimer();
    __syncthreads();
    if (threadIdx.x == 0 && started) {
        started[blockIdx.x] = 1;
        __threadfence_system();
    }
    while (gpu_dev_globaltimer() - t0 < ns) __nanosleep(1000);
}

template <typename T>
cudaError_t launch_copy(void *dst, const void *src, size_t bytes, const gpu_k_launch *cfg, int id,
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
    if (blocks > (size_t)cfg->blocks[id]) blocks = (size_t)cfg->blocks[id];
    if (blocks < 1) blocks = 1;
    k_copy<T><<<(unsigned)blocks, (unsigned)threads, 0, stream>>>(
        static_cast<unsigned char *>(dst), static_cast<const unsigned char *>(src), head, n, tail);
    return cudaGetLastError();
}

/* Blocks for a grid-stride kernel over `items`: no more than the items need, at most a full
 * device. */
unsigned grid(const gpu_k_launch *cfg, int id, size_t items)
{
    size_t b = (items + (size_t)cfg->threads - 1) / (size_t)cfg->threads;
    if (b > (size_t)cfg->blocks[id]) b = (size_t)cfg->blocks[id];
    return b < 1 ? 1u : (unsigned)b;
}

bool cfg_ok(const gpu_k_launch *cfg)
{
    return cfg && cfg->threads > 0 && cfg->sms > 0;
}

template <typename K> cudaError_t occupancy(gpu_k_launch *cfg, int id, K kernel)
{
    return gpu_dev_occupancy(kernel, k_threads, cfg->sms, &cfg->blocks[id], &cfg->regs[id]);
}

} // namespace

#define K_TRY GPU_DEV_TRY

extern "C" int gpu_k_init(struct gpu_k_launch *cfg)
{
    K_TRY(gpu_dev_sms(&cfg->sms));
    cfg->threads = k_threads;
    K_TRY(occupancy(cfg, GPU_K_COPY16, k_copy<uint4>));
    K_TRY(occupancy(cfg, GPU_K_COPY8, k_copy<uint2>));
    K_TRY(occupancy(cfg, GPU_K_COPY4, k_copy<unsigned int>));
    K_TRY(occupancy(cfg, GPU_K_COPY2, k_copy<unsigned short>));
    K_TRY(occupancy(cfg, GPU_K_COPY1, k_copy<unsigned char>));
    K_TRY(occupancy(cfg, GPU_K_STREAM_COPY, k_stream<2>));
    K_TRY(occupancy(cfg, GPU_K_STREAM_SCALE, k_stream<3>));
    K_TRY(occupancy(cfg, GPU_K_STREAM_ADD, k_stream<4>));
    K_TRY(occupancy(cfg, GPU_K_STREAM_TRIAD, k_stream<5>));
    K_TRY(occupancy(cfg, GPU_K_DOT, k_dot));
    K_TRY(occupancy(cfg, GPU_K_TOUCH, k_touch));
    K_TRY(occupancy(cfg, GPU_K_FILL, k_fill));
    K_TRY(occupancy(cfg, GPU_K_CHECK, k_check));
    K_TRY(occupancy(cfg, GPU_K_FILL_F64, k_fill_f64));
    K_TRY(occupancy(cfg, GPU_K_CHECK_F64, k_check_f64));
    K_TRY(occupancy(cfg, GPU_K_BUSY, k_busy));
    if (cfg->blocks[GPU_K_DOT] > GPU_K_DOT_MAX_BLOCKS) cfg->blocks[GPU_K_DOT] = GPU_K_DOT_MAX_BLOCKS;
    cudaFuncAttributes a;
    K_TRY(cudaFuncGetAttributes(&a, k_chase<GPU_DEV_LOAD_L1>));
    K_TRY(cudaFuncGetAttributes(&a, k_chase<GPU_DEV_LOAD_PLAIN>));
    K_TRY(cudaFuncGetAttributes(&a, k_spin));
    return (int)cudaSuccess;
}

extern "C" int gpu_k_copy(void *dst, const void *src, size_t bytes, const struct gpu_k_launch *cfg,
                          struct CUstream_st *stream)
{
    if (bytes == 0) return (int)cudaSuccess;
    if (!dst || !src || !cfg_ok(cfg)) return (int)cudaErrorInvalidValue;
    /* The widest word both pointers can be aligned to at once: after the same head, src and dst
     * must both sit on a word boundary. cudaMalloc'd buffers (256-byte aligned) take uint4. */
    const uintptr_t mis = (uintptr_t)dst ^ (uintptr_t)src;
    if ((mis & 15) == 0) return (int)launch_copy<uint4>(dst, src, bytes, cfg, GPU_K_COPY16, stream);
    if ((mis & 7) == 0) return (int)launch_copy<uint2>(dst, src, bytes, cfg, GPU_K_COPY8, stream);
    if ((mis & 3) == 0) return (int)launch_copy<unsigned int>(dst, src, bytes, cfg, GPU_K_COPY4, stream);
    if ((mis & 1) == 0) return (int)launch_copy<unsigned short>(dst, src, bytes, cfg, GPU_K_COPY2, stream);
    return (int)launch_copy<unsigned char>(dst, src, bytes, cfg, GPU_K_COPY1, stream);
}

extern "C" int gpu_k_stream(int kind, double *a, double *b, double *c, size_t n,
                            const struct gpu_k_launch *cfg, struct CUstream_st *stream)
{
    if (!a || !b || !c || !cfg_ok(cfg) || (((uintptr_t)a | (uintptr_t)b | (uintptr_t)c) & 15))
        return (int)cudaErrorInvalidValue;
    double2 *a2 = reinterpret_cast<double2 *>(a), *b2 = reinterpret_cast<double2 *>(b),
            *c2 = reinterpret_cast<double2 *>(c);
    const size_t n2 = n / 2;
    const bool odd = n & 1;
    const unsigned t = (unsigned)cfg->threads;
    switch (kind) {
    case 2: k_stream<2><<<grid(cfg, GPU_K_STREAM_COPY, n2), t, 0, stream>>>(a2, b2, c2, n2, odd); break;
    case 3: k_stream<3><<<grid(cfg, GPU_K_STREAM_SCALE, n2), t, 0, stream>>>(a2, b2, c2, n2, odd); break;
    case 4: k_stream<4><<<grid(cfg, GPU_K_STREAM_ADD, n2), t, 0, stream>>>(a2, b2, c2, n2, odd); break;
    case 5: k_stream<5><<<grid(cfg, GPU_K_STREAM_TRIAD, n2), t, 0, stream>>>(a2, b2, c2, n2, odd); break;
    default: return (int)cudaErrorInvalidValue;
    }
    return (int)cudaGetLastError();
}

extern "C" int gpu_k_dot(const double *a, const double *b, size_t n, double *partial, int *nblocks,
                         const struct gpu_k_launch *cfg, struct CUstream_st *stream)
{
    if (!a || !b || !partial || !nblocks || !cfg_ok(cfg) || (((uintptr_t)a | (uintptr_t)b) & 15))
        return (int)cudaErrorInvalidValue;
    const unsigned g = grid(cfg, GPU_K_DOT, n / 2 ? n / 2 : 1);
    *nblocks = (int)g;
    k_dot<<<g, (unsigned)cfg->threads, 0, stream>>>(reinterpret_cast<const double2 *>(a),
                                                    reinterpret_cast<const double2 *>(b), n / 2,
                                                    n & 1, partial);
    return (int)cudaGetLastError();
}

extern "C" int gpu_k_fill(void *p, size_t bytes, uint64_t seed, const struct gpu_k_launch *cfg,
                          struct CUstream_st *stream)
{
    if (bytes == 0) return (int)cudaSuccess;
    if (!p || !cfg_ok(cfg)) return (int)cudaErrorInvalidValue;
    k_fill<<<grid(cfg, GPU_K_FILL, (bytes + 7) / 8), (unsigned)cfg->threads, 0, stream>>>(
        static_cast<unsigned char *>(p), bytes, seed);
    return (int)cudaGetLastError();
}

extern "C" int gpu_k_check(const void *p, size_t bytes, uint64_t seed, unsigned long long *res,
                           const struct gpu_k_launch *cfg, struct CUstream_st *stream)
{
    if (bytes == 0) return (int)cudaSuccess;
    if (!p || !res || !cfg_ok(cfg)) return (int)cudaErrorInvalidValue;
    k_check<<<grid(cfg, GPU_K_CHECK, (bytes + 7) / 8), (unsigned)cfg->threads, 0, stream>>>(
        static_cast<const unsigned char *>(p), bytes, seed, res);
    return (int)cudaGetLastError();
}

extern "C" int gpu_k_fill_f64(double *p, size_t n, double v, const struct gpu_k_launch *cfg,
                              struct CUstream_st *stream)
{
    if (n == 0) return (int)cudaSuccess;
    if (!p || !cfg_ok(cfg)) return (int)cudaErrorInvalidValue;
    k_fill_f64<<<grid(cfg, GPU_K_FILL_F64, n), (unsigned)cfg->threads, 0, stream>>>(p, n, v);
    return (int)cudaGetLastError();
}

extern "C" int gpu_k_check_f64(const double *p, size_t n, double v, double tol,
                               unsigned long long *res, const struct gpu_k_launch *cfg,
                               struct CUstream_st *stream)
{
    if (n == 0) return (int)cudaSuccess;
    if (!p || !res || !cfg_ok(cfg)) return (int)cudaErrorInvalidValue;
    k_check_f64<<<grid(cfg, GPU_K_CHECK_F64, n), (unsigned)cfg->threads, 0, stream>>>(p, n, v, tol,
                                                                                      res);
    return (int)cudaGetLastError();
}

extern "C" int gpu_k_touch(const void *buf, size_t bytes, const struct gpu_k_launch *cfg,
                           struct CUstream_st *stream)
{
    if (bytes == 0) return (int)cudaSuccess;
    if (!buf || !cfg_ok(cfg) || ((uintptr_t)buf & 15)) return (int)cudaErrorInvalidValue;
    const size_t n = bytes / 16, tail = bytes % 16;
    k_touch<<<grid(cfg, GPU_K_TOUCH, n ? n : 1), (unsigned)cfg->threads, 0, stream>>>(
        static_cast<const uint4 *>(buf), n, static_cast<const unsigned char *>(buf) + n * 16, tail);
    return (int)cudaGetLastError();
}

extern "C" int gpu_k_chase(struct gpu_k_chase_io *io, uint64_t warm, uint64_t steps, int target,
                           int generic, const struct gpu_k_launch *cfg,
                           struct CUstream_st *stream)
{
    if (!io || !cfg_ok(cfg) || target < 0 || target >= cfg->sms) return (int)cudaErrorInvalidValue;
    if (generic) k_chase<GPU_DEV_LOAD_PLAIN><<<(unsigned)cfg->sms, 1, 0, stream>>>(io, warm, steps, target);
    else k_chase<GPU_DEV_LOAD_L1><<<(unsigned)cfg->sms, 1, 0, stream>>>(io, warm, steps, target);
    return (int)cudaGetLastError();
}

extern "C" int gpu_k_busy(volatile int *started, uint64_t ns, const struct gpu_k_launch *cfg,
                          struct CUstream_st *stream)
{
    if (!cfg_ok(cfg) || cfg->blocks[GPU_K_BUSY] < 1) return (int)cudaErrorInvalidValue;
    k_busy<<<(unsigned)cfg->blocks[GPU_K_BUSY], (unsigned)cfg->threads, 0, stream>>>(started, ns);
    return (int)cudaGetLastError();
}

extern "C" int gpu_k_spin(volatile int *flag, uint64_t timeout_ns, struct CUstream_st *stream)
{
    if (!flag) return (int)cudaErrorInvalidValue;
    k_spin<<<1, 1, 0, stream>>>(flag, timeout_ns);
    return (int)cudaGetLastError();
}
