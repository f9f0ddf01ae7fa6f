/* lt_say.c - see lt_say.h. */
#include "lt_say.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static const char *const say[2][LT_SAY_COUNT] = {
#define LT_X_SAY_EN(id, en, zh) en,
#define LT_X_SAY_ZH(id, en, zh) zh,
    {LT_SAY_LIST(LT_X_SAY_EN)},
    {LT_SAY_LIST(LT_X_SAY_ZH)},
#undef LT_X_SAY_EN
#undef LT_X_SAY_ZH
};

/* the rows that follow the device layer's lists keep their order */
_Static_assert(GPU_WARN_LAST == 1u << (LT_SAY_WARN_LOW_CLOCK - LT_SAY_WARN_FEW_TICKS),
               "one WARN_ row per GPU_WARN_* bit, in order");
_Static_assert(GPU_WHY_COUNT - GPU_WHY_ZERO == LT_SAY_WHY_FEED_MANAGED - LT_SAY_WHY_ZERO + 1,
               "one WHY_ row per keyed GPU_WHY_LIST entry, in order");

bool lt_say_zh(const char *lang) { return lang && !strcmp(lang, "zh"); }

const char *lt_say_fmt(enum lt_say_id id, const char *lang)
{
    return (unsigned)id < LT_SAY_COUNT ? say[lt_say_zh(lang)][id] : "?";
}

const char *lt_say(char *buf, size_t n, const char *lang, enum lt_say_id id, ...)
{
    if (!n) return buf;
    va_list ap;
    va_start(ap, id);
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral" /* the table's: both columns checked alike */
    vsnprintf(buf, n, lt_say_fmt(id, lang), ap);
#pragma GCC diagnostic pop
    va_end(ap);
    return buf;
}

const char *lt_say_warn(unsigned bit, const char *lang, char *buf, size_t n)
{
    if (n) buf[0] = 0;
    for (int i = 0; i <= LT_SAY_WARN_LOW_CLOCK - LT_SAY_WARN_FEW_TICKS; i++)
        if (bit == 1u << i) return lt_say(buf, n, lang, (enum lt_say_id)(LT_SAY_WARN_FEW_TICKS + i));
    return buf;
}

const char *lt_say_why(enum gpu_why_key key, const double arg[4], const char *en,
                       const char *lang, char *buf, size_t n)
{
    if (!n) return buf;
    if (!en[0] || key <= GPU_WHY_TEXT || key >= GPU_WHY_COUNT || !lt_say_zh(lang)) {
        snprintf(buf, n, "%s", en);
        return buf;
    }
    char a[4][48];
    gpu_why_args(key, arg, a);
    return lt_say(buf, n, lang, (enum lt_say_id)(LT_SAY_WHY_ZERO + (key - GPU_WHY_ZERO)), a[0], a[1],
                  a[2], a[3]);
}
