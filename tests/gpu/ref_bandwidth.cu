// ref_bandwidth.cu - the reference the GPU benchmarks compare vramlab against: a plain
// bandwidthTest-style measurement (NVIDIA cuda-samples recipe): cudaMemcpyAsync back to back
// between two events, best of 10 trials after a warm-up. Prints one "name value" line per figure:
//   d2d_rw_bytes_per_s   1 GiB device-to-device, counted 2n/t (as bandwidthTest counts it)
//   h2d_bytes_per_s      256 MiB pinned host-to-device, n/t
//   d2h_bytes_per_s      256 MiB pinned device-to-host, n/t
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>

#define CHECK(x)                                                                                   \
    do {                                                                                           \
        cudaError_t e_ = (x);                                                                      \
        if (e_ != cudaSuccess) {                                                                   \
            fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e_));    \
            exit(1);                                                                               \
        }                                                                                          \
    } while (0)

static double best_rate(void *dst, const void *src, size_t n, cudaMemcpyKind kind, int reps,
                        double count, cudaStream_t s)
{
    cudaEvent_t a, b;
    CHECK(cudaEventCreate(&a));
    CHECK(cudaEventCreate(&b));
    CHECK(cudaMemcpyAsync(dst, src, n, kind, s)); // warm-up
    CHECK(cudaStreamSynchronize(s));
    double best = 0;
    for (int t = 0; t < 10; t++) {
        CHECK(cudaEventRecord(a, s));
        for (int r = 0; r < reps; r++) CHECK(cudaMemcpyAsync(dst, src, n, kind, s));
        CHECK(cudaEventRecord(b, s));
        CHECK(cudaEventSynchronize(b));
        float ms = 0;
        CHECK(cudaEventElapsedTime(&ms, a, b));
        double rate = count * n * reps / (ms / 1e3);
        if (rate > best) best = rate;
    }
    CHECK(cudaEventDestroy(a));
    CHECK(cudaEventDestroy(b));
    return best;
}

int main(void)
{
    const size_t big = (size_t)1 << 30, pcie = (size_t)256 << 20;
    void *d0, *d1, *h;
    cudaStream_t s;
    CHECK(cudaStreamCreate(&s));
    CHECK(cudaMalloc(&d0, big));
    CHECK(cudaMalloc(&d1, big));
    CHECK(cudaMallocHost(&h, pcie));
    CHECK(cudaMemset(d0, 1, big));
    CHECK(cudaMemset(d1, 2, big));
    printf("d2d_rw_bytes_per_s %.6e\n", best_rate(d1, d0, big, cudaMemcpyDeviceToDevice, 10, 2.0, s));
    printf("h2d_bytes_per_s %.6e\n", best_rate(d0, h, pcie, cudaMemcpyHostToDevice, 10, 1.0, s));
    printf("d2h_bytes_per_s %.6e\n", best_rate(h, d0, pcie, cudaMemcpyDeviceToHost, 10, 1.0, s));
    CHECK(cudaFreeHost(h));
    CHECK(cudaFree(d1));
    CHECK(cudaFree(d0));
    return 0;
}
