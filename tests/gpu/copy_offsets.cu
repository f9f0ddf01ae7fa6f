// copy_offsets.cu - the device kernels behind every validated figure, checked byte for byte on a
// GPU (make test-gpu builds it from build/gpu/backend/gpu_kernels.o; needs a GPU):
//   - the SM copy (gpu_k_copy) at source and destination offsets 0..15 x sizes {1, 15, 16, 17,
//     4095, 4097, 1 MiB + 3}: every word width and the scalar head and tail paths, which
//     cudaMalloc'd (256-byte aligned) benchmark buffers never reach; the bytes around the
//     destination must stay untouched;
//   - the validation kernels: the device fill writes exactly gpu_pattern.h's bytes at any
//     alignment, and the compare kernels count a flipped byte and a wrong double, and where;
//   - the pointer chase with either load (ld.global.ca and generic) ends on the line the ring
//     says; the busy kernel runs every block for the time asked.
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
    /* the chase, both loads: from line 0 of a ring where line i holds line (i + 97) mod 4096's
     * address, warm + steps loads end on line (warm + steps) x 97 mod 4096, on the SM asked */
    {
        const size_t lines = 4096, words = 128 / sizeof(uint64_t), warm = 10, steps = 1000;
        uint64_t *ring, *h_ring = (uint64_t *)calloc(lines * words, sizeof(uint64_t));
        gpu_k_chase_io *io, h_io;
        CHECK(cudaMalloc(&ring, lines * words * sizeof(uint64_t)));
        CHECK(cudaMalloc(&io, sizeof *io));
        for (size_t i = 0; i < lines; i++)
            h_ring[i * words] = (uint64_t)(uintptr_t)(ring + ((i + 97) % lines) * words);
        CHECK(cudaMemcpy(ring, h_ring, lines * words * sizeof(uint64_t), cudaMemcpyHostToDevice));
        for (int generic = 0; generic < 2; generic++) {
            memset(&h_io, 0, sizeof h_io);
            h_io.p = (uint64_t)(uintptr_t)ring;
            CHECK(cudaMemcpy(io, &h_io, sizeof h_io, cudaMemcpyHostToDevice));
            const int target = cfg.sms - 1;
            CHECK((cudaError_t)gpu_k_chase(io, warm, steps, target, generic, &cfg, s));
            CHECK(cudaMemcpyAsync(&h_io, io, sizeof h_io, cudaMemcpyDeviceToHost, s));
            CHECK(cudaStreamSynchronize(s));
            const uint64_t want = (uint64_t)(uintptr_t)(ring + ((warm + steps) * 97 % lines) * words);
            result(h_io.ran == 1 && h_io.p == want && h_io.ns > 0 && h_io.cycles > 0,
                   generic ? "gpu_k_chase (generic loads) ends where the ring says"
                           : "gpu_k_chase (ld.global.ca) ends where the ring says",
                   0, 0, steps, (size_t)((h_io.p - (uint64_t)(uintptr_t)ring) / 128));
        }
        CHECK(cudaFree(io));
        CHECK(cudaFree(ring));
        free(h_ring);
    }

    /* the busy kernel: every block says it ran, and it lasts at least the time asked */
    {
        const int blocks = cfg.blocks[GPU_K_BUSY];
        int *flags = NULL, *flags_dev = NULL;
        cudaEvent_t e0, e1;
        float ms = 0;
        CHECK(cudaHostAlloc((void **)&flags, (size_t)blocks * sizeof(int), cudaHostAllocMapped));
        CHECK(cudaHostGetDevicePointer((void **)&flags_dev, flags, 0));
        memset(flags, 0, (size_t)blocks * sizeof(int));
        CHECK(cudaEventCreate(&e0));
        CHECK(cudaEventCreate(&e1));
        CHECK(cudaEventRecord(e0, s));
        CHECK((cudaError_t)gpu_k_busy(flags_dev, 20000000ull, &cfg, s));
        CHECK(cudaEventRecord(e1, s));
        CHECK(cudaEventSynchronize(e1));
        CHECK(cudaEventElapsedTime(&ms, e0, e1));
        int n = 0;
        for (int b = 0; b < blocks; b++) n += flags[b] == 1;
        result(n == blocks && blocks >= cfg.sms && ms >= 19.0f,
               "gpu_k_busy: every block ran, for 20 ms", 0, 0, (size_t)blocks, (size_t)n);
        CHECK(cudaEventDestroy(e0));
        CHECK(cudaEventDestroy(e1));
        CHECK(cudaFreeHost(flags));
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
