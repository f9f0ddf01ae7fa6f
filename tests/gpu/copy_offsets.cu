// copy_offsets.cu - the device kernels behind every validated figure, checked byte for byte on a
// GPU (make test-gpu builds it from build/gpu/backend/gpu_kernels.o; needs a GPU):
//   - the SM copy (gpu_k_copy) at source and destination offsets 0..15 x sizes {1, 15, 16, 17,
//     4095, 4097, 1 MiB + 3}: every word width and the scalar head and tail paths, which
//     cudaMalloc'd (256-byte aligned) benchmark buffers never reach; the bytes around the
//     destination must stay untouched;
//   - the validation kernels: the device fill writes exactly gpu_pattern.h's bytes at any
//     alignment, and the compare kernels count a flipped byte and a wrong double, and where.
// Prints one line per failure and "N passed, M failed"; exits 1 on any failure.
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu_kernels.h"
#include "gpu_pattern.h"

#define CHECK(x)                                                                                   \
    do {                                                                                           \
        cudaError_t e_ = (x);                                                                      \
        if (e_ != cudaSuccess) {                                                                   \
            fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e_));    \
            exit(2);                                                                               \
        }                                                                                          \
    } while (0)

static int pass, fail;

static void result(bool ok, const char *what, size_t so, size_t dof, size_t n, size_t at)
{
    if (ok) {
        pass++;
        return;
    }
    if (++fail <= 20)
        printf("FAIL: %s (src offset %zu, dst offset %zu, %zu bytes): first bad byte at %zu\n",
               what, so, dof, n, at);
}

int main(void)
{
    const size_t sizes[] = {1, 15, 16, 17, 4095, 4097, (1u << 20) + 3};
    const size_t maxn = (1u << 20) + 3, guard = 64, span = maxn + 16 + 2 * guard;
    gpu_k_launch cfg;
    CHECK((cudaError_t)gpu_k_init(&cfg));
    cudaStream_t s;
    CHECK(cudaStreamCreate(&s));
    unsigned char *src, *dst, *h_src = (unsigned char *)malloc(span), *h_dst = (unsigned char *)malloc(span);
    CHECK(cudaMalloc(&src, span));
    CHECK(cudaMalloc(&dst, span));
    for (size_t i = 0; i < span; i++) h_src[i] = gpu_pattern_byte(42, i);
    CHECK(cudaMemcpy(src, h_src, span, cudaMemcpyHostToDevice));

    /* the SM copy at every alignment pair and size */
    for (size_t so = 0; so < 16; so++)
        for (size_t dof = 0; dof < 16; dof++)
            for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
                const size_t n = sizes[k];
                CHECK(cudaMemsetAsync(dst, 0xA5, span, s));
                CHECK((cudaError_t)gpu_k_copy(dst + guard + dof, src + guard + so, n, &cfg, s));
                CHECK(cudaMemcpyAsync(h_dst, dst, span, cudaMemcpyDeviceToHost, s));
                CHECK(cudaStreamSynchronize(s));
                size_t bad = span;
                for (size_t i = 0; i < span && bad == span; i++) {
                    const bool inside = i >= guard + dof && i < guard + dof + n;
                    const unsigned char want = inside ? h_src[i - dof + so] : 0xA5;
                    if (h_dst[i] != want) bad = i;
                }
                result(bad == span, "gpu_k_copy", so, dof, n, bad);
            }

    /* the pattern fill, at every start alignment, writes the rule's bytes and nothing else */
    for (size_t off = 0; off < 16; off++) {
        const size_t n = 4097;
        CHECK(cudaMemsetAsync(dst, 0xA5, span, s));
        CHECK((cudaError_t)gpu_k_fill(dst + guard + off, n, 7, &cfg, s));
        CHECK(cudaMemcpyAsync(h_dst, dst, span, cudaMemcpyDeviceToHost, s));
        CHECK(cudaStreamSynchronize(s));
        size_t bad = span;
        for (size_t i = 0; i < span && bad == span; i++) {
            const bool inside = i >= guard + off && i < guard + off + n;
            if (h_dst[i] != (inside ? gpu_pattern_byte(7, i - guard - off) : 0xA5)) bad = i;
        }
        result(bad == span, "gpu_k_fill", 0, off, n, bad);
    }

    /* the compare kernels: nothing on a right buffer, one flipped byte counted where it is */
    unsigned long long *res, h_res[2];
    CHECK(cudaMalloc(&res, sizeof h_res));
    for (size_t off = 0; off < 16; off += 5) {
        const size_t n = (1u << 20) + 3, flip = 777777;
        unsigned char *p = dst + guard + off;
        CHECK((cudaError_t)gpu_k_fill(p, n, 9, &cfg, s));
        const unsigned char flipped = (unsigned char)~gpu_pattern_byte(9, flip);
        for (int round = 0; round < 2; round++) {
            if (round) CHECK(cudaMemcpyAsync(p + flip, &flipped, 1, cudaMemcpyHostToDevice, s));
            h_res[0] = 0, h_res[1] = ~0ull;
            CHECK(cudaMemcpyAsync(res, h_res, sizeof h_res, cudaMemcpyHostToDevice, s));
            CHECK((cudaError_t)gpu_k_check(p, n, 9, res, &cfg, s));
            CHECK(cudaMemcpyAsync(h_res, res, sizeof h_res, cudaMemcpyDeviceToHost, s));
            CHECK(cudaStreamSynchronize(s));
            const bool ok = round ? h_res[0] == 1 && h_res[1] == flip : h_res[0] == 0;
            result(ok, round ? "gpu_k_check finds a flipped byte" : "gpu_k_check on a right buffer",
                   0, off, n, (size_t)h_res[1]);
        }
    }
    {
        const size_t n = 100001;
        double *d = (double *)(void *)dst, bad_value = 0.5;
        CHECK((cudaError_t)gpu_k_fill_f64(d, n, 0.35, &cfg, s));
        CHECK(cudaMemcpyAsync(d + 4321, &bad_value, sizeof bad_value, cudaMemcpyHostToDevice, s));
        h_res[0] = 0, h_res[1] = ~0ull;
        CHECK(cudaMemcpyAsync(res, h_res, sizeof h_res, cudaMemcpyHostToDevice, s));
        CHECK((cudaError_t)gpu_k_check_f64(d, n, 0.35, 1e-14, res, &cfg, s));
        CHECK(cudaMemcpyAsync(h_res, res, sizeof h_res, cudaMemcpyDeviceToHost, s));
        CHECK(cudaStreamSynchronize(s));
        result(h_res[0] == 1 && h_res[1] == 4321, "gpu_k_check_f64 finds a wrong double", 0, 0, n,
               (size_t)h_res[1]);
    }
    printf("kernels: %d threads per block; registers per thread: copy16 %d, triad %d, dot %d\n",
           cfg.threads, cfg.regs[GPU_K_COPY16], cfg.regs[GPU_K_STREAM_TRIAD], cfg.regs[GPU_K_DOT]);
    printf("%d passed, %d failed\n", pass, fail);
    CHECK(cudaFree(res));
    CHECK(cudaFree(src));
    CHECK(cudaFree(dst));
    free(h_src);
    free(h_dst);
    return fail ? 1 : 0;
}
