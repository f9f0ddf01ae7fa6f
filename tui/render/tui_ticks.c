/* tui_ticks.c - round ticks for an axis (see tui_ticks.h). */
#include "tui_ticks.h"

#include <math.h>

double tui_tick_step(double span, int max_steps)
{
    if (!(span > 0) || !isfinite(span)) return 1;
    if (max_steps < 1) max_steps = 1;
    double raw = span / max_steps;
    double p = pow(10, floor(log10(raw)));
    static const double mult[] = {1, 2, 5, 10};
    for (int i = 0; i < 4; i++)
        if (mult[i] * p >= raw * (1 - 1e-9)) return mult[i] * p;
    return 10 * p;
}

/* k steps, computed as k x mantissa, then scaled by the power of ten: 3 x 1 / 10 is 0.3 to the
 * last bit, where 3 x 0.1 is 0.30000000000000004 */
static double times(double k, double step)
{
    double e = floor(log10(step) + 1e-9), m = round(step / pow(10, e));
    return e >= 0 ? k * m * pow(10, e) : k * m / pow(10, -e);
}

static double snap(double v, double step)
{
    double k = round(v / step);
    return fabs(v / step - k) < 1e-6 ? times(k, step) : v;
}

int tui_ticks_linear(double lo, double hi, int max_ticks, double *out, int cap, double *step)
{
    double st = 1;
    int n = 0;
    if (step) *step = st;
    if (!isfinite(lo) || !isfinite(hi) || cap < 1) return 0;
    if (lo > hi) {
        double t = lo;
        lo = hi, hi = t;
    }
    if (max_ticks < 2) max_ticks = 2;
    if (!(hi > lo)) {
        out[0] = lo;
        return 1;
    }
    /* the step leaves at most max_ticks multiples inside: max_ticks - 1 steps span the range */
    st = tui_tick_step(hi - lo, max_ticks - 1);
    double first = ceil(snap(lo, st) / st) * st;
    /* (hi - lo) / st <= max_ticks - 1, so at most max_ticks multiples fit */
    double k0 = round(first / st);
    for (double k = k0; times(k, st) <= hi + st * 1e-6 && n < cap && n < max_ticks; k++) {
        double t = times(k, st);
        out[n++] = fabs(t) < st * 1e-9 ? 0 : t; /* never "-0" */
    }
    if (step) *step = st;
    return n;
}

double tui_ticks_top(double max, int max_steps, double *step)
{
    double st = 1;
    if (step) *step = st;
    if (!(max > 0) || !isfinite(max)) return 1;
    if (max_steps < 1) max_steps = 1;
    st = tui_tick_step(max, max_steps);
    double top = times(ceil(max / st * (1 - 1e-9)), st);
    if (step) *step = st;
    return top;
}
