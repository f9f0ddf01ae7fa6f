/* gpu_check.c - what validation compares against: the closed form of the STREAM kernels (as
 * BabelStream's check_solution replays them on scalars) and host versions of the backends'
 * fill/check. A measurement whose data is wrong is an error, never a number. */
#include "gpu.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "gpu_pattern.h"

void gpu_stream_expect(int kind, double abc[3])
{
    /* Each kernel reads arrays it never writes, so running it again gives the same values. */
    double a = GPU_STREAM_A, b = GPU_STREAM_B, c = GPU_STREAM_C;
    switch (kind) {
    case GPU_HOST_COPY: c = a; break;
    case GPU_HOST_SCALE: b = GPU_STREAM_S * c; break;
    case GPU_HOST_ADD: c = a + b; break;
    case GPU_HOST_TRIAD: a = b + GPU_STREAM_S * c; break;
    default: break; /* dot writes nothing */
    }
    abc[0] = a, abc[1] = b, abc[2] = c;
}

double gpu_stream_dot_expect(uint64_t n)
{
    return GPU_STREAM_A * GPU_STREAM_B * (double)n;
}

void gpu_content_fill(void *p, uint64_t bytes, const struct gpu_content *want)
{
    unsigned char *q = p;
    if (want->kind == GPU_CONTENT_F64) {
        for (uint64_t i = 0; i < bytes / 8; i++) memcpy(q + 8 * i, &want->value, 8);
        return;
    }
    uint64_t i = 0;
    for (; i < bytes && ((uintptr_t)(q + i) & 7); i++) q[i] = gpu_pattern_byte(want->seed, i);
    if (i % 8 == 0) /* buffer and word boundaries agree: whole words */
        for (; i + 8 <= bytes; i += 8) {
            uint64_t w = gpu_pattern_word(want->seed, i >> 3);
            memcpy(q + i, &w, 8);
        }
    for (; i < bytes; i++) q[i] = gpu_pattern_byte(want->seed, i);
}

void gpu_content_check(const void *p, uint64_t bytes, const struct gpu_content *want,
                       struct gpu_mismatch *m)
{
    const unsigned char *q = p;
    *m = (struct gpu_mismatch){0, 0};
    if (want->kind == GPU_CONTENT_F64) {
        const double v = want->value, tol = want->tol * fabs(v);
        for (uint64_t i = 0; i < bytes / 8; i++) {
            double x;
            memcpy(&x, q + 8 * i, 8);
            if (!(fabs(x - v) <= tol) && !m->count++) m->first = i; /* NaN fails too */
        }
        return;
    }
    for (uint64_t i = 0; i < bytes; i++)
        if (q[i] != gpu_pattern_byte(want->seed, i) && !m->count++) m->first = i;
}

void gpu_mismatch_str(const struct gpu_mismatch *m, const struct gpu_content *want,
                      uint64_t bytes, char *buf, size_t n)
{
    if (want->kind == GPU_CONTENT_F64)
        snprintf(buf, n, "%llu of %llu doubles differ from %.17g (first at element %llu)",
                 (unsigned long long)m->count, (unsigned long long)(bytes / 8), want->value,
                 (unsigned long long)m->first);
    else
        snprintf(buf, n, "%llu of %llu bytes differ from the source pattern (first at byte %llu)",
                 (unsigned long long)m->count, (unsigned long long)bytes,
                 (unsigned long long)m->first);
}

uint64_t gpu_free_tolerance(uint64_t bytes)
{
    const uint64_t floor = 2ull << 20, scaled = bytes / 10000; /* 2 MiB, 0.01 % */
    return scaled > floor ? scaled : floor;
}
