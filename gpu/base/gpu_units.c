/* gpu_units.c - see gpu_units.h. The text is first brought to one spelling (full-width forms,
 * the minus sign, the multiplication sign, the micro sign), then read as a number and a unit:
 * the unit through the tables below, so adding a unit is one row. */
#include "gpu_units.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu_err.h"
#include "gpu_esc.h"
#include "gpu_utf8.h"

#define QMAX 192 /* longer text is no quantity */

/* ---- one spelling ------------------------------------------------------------------------------ */

static bool digit(char c) { return c >= '0' && c <= '9'; }
static bool upper(char c) { return c >= 'A' && c <= 'Z'; }
static char lower(char c) { return upper(c) ? (char)(c - 'A' + 'a') : c; }

/* A superscript digit or minus (10³, 10⁻³) as its ASCII character, else 0. */
static char superscript(unsigned cp)
{
    if (cp == 0x2070) return '0';
    if (cp == 0xB9) return '1';
    if (cp == 0xB2 || cp == 0xB3) return (char)('2' + (cp - 0xB2));
    if (cp >= 0x2074 && cp <= 0x2079) return (char)('4' + (cp - 0x2074));
    return cp == 0x207B ? '-' : 0;
}

/* A plain space in "1 024" groups thousands: a run of 1 to 3 whole digits before it (not after
 * a decimal point), exactly 3 digits after it and then no digit. */
static bool space_groups(const char *t, size_t k, const char *s, size_t rest)
{
    size_t run = 0;
    while (run < k && digit(t[k - 1 - run])) run++;
    if (run < 1 || run > 3 || (run < k && t[k - 1 - run] == '.')) return false;
    return rest >= 4 && digit(s[1]) && digit(s[2]) && digit(s[3]) && (rest == 4 || !digit(s[4]));
}

/* s[0..len) into t (at most cap - 1 bytes, terminated): full-width ASCII (U+FF01..U+FF5E) and
 * the ideographic space to ASCII, U+2212 to '-', U+00D7 to 'x', the micro sign and Greek mu to
 * 'u', superscript digits to a power (10³ -> 10^3); a no-break or thin space between digits
 * groups them (','), and so does a plain one before a group of three (1 024); elsewhere a space
 * is a blank. Other characters are copied (the Chinese units). False when too long, not UTF-8,
 * or holding a NUL. */
static bool normalize(const char *s, size_t len, char *t, size_t cap, size_t *tlen)
{
    size_t k = 0;
    bool sup = false; /* the last character written came from a superscript */
    for (size_t i = 0; i < len;) {
        unsigned cp;
        int w = gpu_utf8_next(s + i, len - i, &cp, 0);
        if (w <= 0 || k + (size_t)w + 1 >= cap || (cp != '\t' && gpu_esc_control(cp)) || cp == 0) return false;
        char c = 0, up = superscript(cp);
        if (up) {
            if (!sup) t[k++] = '^';
            t[k++] = up, sup = true, i += (size_t)w;
            continue;
        }
        sup = false;
        if (cp == ' ' && space_groups(t, k, s + i, len - i)) c = ',';
        else if (cp >= 0xFF01 && cp <= 0xFF5E) c = (char)(cp - 0xFEE0);
        else if (cp == 0x3000) c = ' ';
        else if (cp == 0x2212) c = '-';
        else if (cp == 0xD7) c = 'x';
        else if (cp == 0xB5 || cp == 0x3BC) c = 'u';
        else if (cp == 0xA0 || cp == 0x2009 || cp == 0x202F)
            c = k && digit(t[k - 1]) && i + (size_t)w < len && digit(s[i + (size_t)w]) ? ',' : ' ';
        if (c) t[k++] = c;
        else memcpy(t + k, s + i, (size_t)w), k += (size_t)w;
        i += (size_t)w;
    }
    t[k] = 0;
    *tlen = k;
    return true;
}

/* ---- the number --------------------------------------------------------------------------------- */

struct num {
    double v;      /* the number */
    uint64_t d;    /* its digits as an integer (exact while dok) */
    int e10;       /* ... times 10^e10 */
    bool dok, neg;
    bool comma_bad; /* a comma that does not group thousands */
    char alt[2][24];
};

static size_t skip_blank(const char *t, size_t i)
{
    while (t[i] == ' ' || t[i] == '\t') i++;
    return i;
}

static void add_digit(struct num *n, char c, bool frac)
{
    unsigned dv = (unsigned)(c - '0');
    if (n->dok && n->d <= (UINT64_MAX - dv) / 10) {
        n->d = n->d * 10 + dv;
        if (frac) n->e10--;
    } else {
        if (!frac) n->e10++; /* a digit past 19: the value is no longer exact */
        n->dok = false;
    }
}

/* The number at t[*i]: sign, digits (grouped by commas), fraction, exponent (e9, x10^9). */
static bool read_num(const char *t, size_t *i, struct num *n)
{
    char a[80]; /* the number as strtod reads it */
    size_t k = 0, j = *i, nd = 0, ncomma = 0, run = 0, first = 0;
    memset(n, 0, sizeof *n);
    n->dok = true;
    if (t[j] == '+' || t[j] == '-') n->neg = t[j] == '-', a[k++] = t[j++];
    for (;; j++) {
        if (digit(t[j])) {
            if (k + 2 >= sizeof a) return false;
            a[k++] = t[j], add_digit(n, t[j], false), nd++, run++;
        } else if (t[j] == ',' && run && digit(t[j + 1])) {
            if (ncomma++ == 0) first = run;
            else if (run != 3) n->comma_bad = true;
            run = 0;
        } else {
            break;
        }
    }
    if (ncomma && (first > 3 || run != 3)) n->comma_bad = true;
    if (t[j] == '.' && (nd || digit(t[j + 1]))) {
        a[k++] = t[j++];
        for (; digit(t[j]); j++) {
            if (k + 2 >= sizeof a) return false;
            a[k++] = t[j], add_digit(n, t[j], true), nd++;
        }
    }
    if (!nd) return false;
    /* the exponent: e9, E-3, or x10^9, *10^9, x 10**9 (the "x" of "37.44x" is a unit) */
    size_t e = j;
    bool sci = false;
    if ((t[e] == 'e' || t[e] == 'E') && (digit(t[e + 1]) || ((t[e + 1] == '+' || t[e + 1] == '-') && digit(t[e + 2])))) {
        e++, sci = true;
    } else {
        size_t x = skip_blank(t, e);
        if (t[x] == 'x' || t[x] == 'X' || t[x] == '*') {
            x = skip_blank(t, x + 1);
            if (t[x] == '1' && t[x + 1] == '0' && (t[x + 2] == '^' || (t[x + 2] == '*' && t[x + 3] == '*'))) {
                x += t[x + 2] == '^' ? 3 : 4;
                if (digit(t[x]) || ((t[x] == '+' || t[x] == '-') && digit(t[x + 1]))) e = x, sci = true;
            }
        }
    }
    if (sci) {
        int sign = 1, ev = 0;
        a[k++] = 'e';
        if (t[e] == '+' || t[e] == '-') sign = t[e] == '-' ? -1 : 1, a[k++] = t[e++];
        for (; digit(t[e]); e++) {
            if (k + 2 >= sizeof a) return false;
            a[k++] = t[e];
            if (ev < 100000) ev = ev * 10 + (t[e] - '0');
        }
        n->e10 += sign * ev;
        j = e;
    }
    a[k] = 0;
    n->v = strtod(a, NULL);
    if (!isfinite(n->v)) return false;
    if (n->comma_bad) { /* the two readings: the last comma a decimal point, or no commas */
        size_t p = 0, q = 0, last = 0;
        for (size_t m = *i; m < j; m++) if (t[m] == ',') last = m;
        for (size_t m = *i; m < j && p + 1 < sizeof n->alt[0]; m++) {
            if (t[m] != ',') n->alt[0][p++] = t[m], n->alt[1][q++] = t[m];
            else if (m == last) n->alt[0][p++] = '.';
        }
        n->alt[0][p] = 0, n->alt[1][q] = 0;
    }
    *i = j;
    return true;
}

/* ---- the unit ----------------------------------------------------------------------------------- */

/* Units that take no prefix. ci: any case (the spelling has one meaning). */
static const struct plain {
    const char *name;
    enum gpu_qkind kind;
    double factor;
    unsigned flags;
    bool ci;
    const char *unit;
} plain[] = {
    {"%", GPU_QK_COUNT, 0.01, GPU_QF_PERCENT, false, "%"},
    {"percent", GPU_QK_COUNT, 0.01, GPU_QF_PERCENT, true, "%"},
    {"x", GPU_QK_COUNT, 1, GPU_QF_TIMES, true, "x"},
    {"times", GPU_QK_COUNT, 1, GPU_QF_TIMES, true, "x"},
    {"\xe5\x80\x8d", GPU_QK_COUNT, 1, GPU_QF_TIMES, false, "x"}, /* 倍 */
    {"ns", GPU_QK_TIME, 1e-9, 0, true, "ns"},
    {"us", GPU_QK_TIME, 1e-6, 0, true, "us"},
    {"ms", GPU_QK_TIME, 1e-3, 0, true, "ms"},
    {"s", GPU_QK_TIME, 1, 0, true, "s"},
    {"sec", GPU_QK_TIME, 1, 0, true, "s"},
    {"secs", GPU_QK_TIME, 1, 0, true, "s"},
    {"second", GPU_QK_TIME, 1, 0, true, "s"},
    {"seconds", GPU_QK_TIME, 1, 0, true, "s"},
    {"min", GPU_QK_TIME, 60, 0, true, "min"},
    {"mins", GPU_QK_TIME, 60, 0, true, "min"},
    {"minute", GPU_QK_TIME, 60, 0, true, "min"},
    {"minutes", GPU_QK_TIME, 60, 0, true, "min"},
    {"h", GPU_QK_TIME, 3600, 0, true, "h"},
    {"hr", GPU_QK_TIME, 3600, 0, true, "h"},
    {"hour", GPU_QK_TIME, 3600, 0, true, "h"},
    {"hours", GPU_QK_TIME, 3600, 0, true, "h"},
    {"d", GPU_QK_TIME, 86400, 0, true, "d"},
    {"day", GPU_QK_TIME, 86400, 0, true, "d"},
    {"days", GPU_QK_TIME, 86400, 0, true, "d"},
    {"\xe7\xba\xb3\xe7\xa7\x92", GPU_QK_TIME, 1e-9, 0, false, "ns"},             /* 纳秒 */
    {"\xe5\xbe\xae\xe7\xa7\x92", GPU_QK_TIME, 1e-6, 0, false, "us"},             /* 微秒 */
    {"\xe6\xaf\xab\xe7\xa7\x92", GPU_QK_TIME, 1e-3, 0, false, "ms"},             /* 毫秒 */
    {"\xe7\xa7\x92", GPU_QK_TIME, 1, 0, false, "s"},                             /* 秒 */
    {"\xe5\x88\x86\xe9\x92\x9f", GPU_QK_TIME, 60, 0, false, "min"},              /* 分钟 */
    {"\xe5\xb0\x8f\xe6\x97\xb6", GPU_QK_TIME, 3600, 0, false, "h"},              /* 小时 */
    {"\xe5\xa4\xa9", GPU_QK_TIME, 86400, 0, false, "d"},                         /* 天 */
};

/* "per second", longest first; any case. "ps" (Gbps, GBps) is handled apart. */
static const char *const per_s[] = {"/second", "/sec", "/s", "persecond",
                                    "/\xe7\xa7\x92" /* /秒 */, "\xe6\xaf\x8f\xe7\xa7\x92" /* 每秒 */};

static const char *const dec_sym[] = {"", "K", "M", "G", "T", "P"};
static const char *const bit_sym[] = {"", "k", "M", "G", "T", "P"};
static const char *const dec_word[] = {"", "kilo", "mega", "giga", "tera", "peta"};
static const char *const bin_word[] = {"", "kibi", "mebi", "gibi", "tebi", "pebi"};

static bool ieq(const char *a, const char *b)
{
    for (; *a && *b; a++, b++)
        if (lower(*a) != lower(*b)) return false;
    return !*a && !*b;
}

/* 1 when s ends with suffix (any case), setting *base_len */
static bool ends_ci(const char *s, size_t len, const char *suf, size_t *base)
{
    size_t l = strlen(suf);
    if (len <= l) return false;
    for (size_t i = 0; i < l; i++)
        if (lower(s[len - l + i]) != lower(suf[i])) return false;
    *base = len - l;
    return true;
}

static int prefix_power(char c)
{
    static const char p[] = "kmgtp";
    const char *f = strchr(p, lower(c));
    return c && f ? (int)(f - p) + 1 : 0;
}

/* The unit's spelling in the course ("GiB/s", "Gb", "KB") into buf. */
static void spell(int power, unsigned flags, bool rate, char *buf, size_t n)
{
    bool bits = flags & GPU_QF_BITS, bin = flags & GPU_QF_BIN;
    snprintf(buf, n, "%s%s%s%s", bits ? bit_sym[power] : dec_sym[power], bin && power ? "i" : "",
             bits ? "b" : "B", rate ? "/s" : "");
    if (bits && bin && power == 1) buf[0] = 'K'; /* Kib: the binary k is a capital */
}

/* A size base (what is left of a rate without its "per second"): power and flags; 1 found,
 * 0 not a size, -1 a bare decimal prefix ("G": GB or GiB?). */
static int size_base(const char *b, size_t len, int *power, unsigned *flags)
{
    char w[40];
    if (len == 0 || len >= sizeof w) return 0;
    memcpy(w, b, len), w[len] = 0;
    *power = 0, *flags = 0;
    /* words: bytes, gigabytes, gibibits; 字节, 比特 */
    if (!strcmp(w, "\xe5\xad\x97\xe8\x8a\x82")) return 1;                           /* 字节 */
    if (!strcmp(w, "\xe6\xaf\x94\xe7\x89\xb9")) return *flags = GPU_QF_BITS, 1;      /* 比特 */
    for (int p = 0; p <= 5; p++) {
        for (int bin = 0; bin < 2; bin++) {
            const char *pw = bin ? bin_word[p] : dec_word[p];
            size_t pl = strlen(pw);
            if ((bin && !p) || len < pl) continue;
            bool same = true;
            for (size_t i = 0; i < pl && same; i++) same = lower(w[i]) == pw[i];
            if (!same) continue;
            const char *r = w + pl;
            bool bits = ieq(r, "bit") || ieq(r, "bits"), bytes = ieq(r, "byte") || ieq(r, "bytes");
            if (!bits && !bytes) continue;
            *power = p;
            *flags = (bits ? GPU_QF_BITS : 0) | (p ? (bin ? GPU_QF_BIN : GPU_QF_DEC) : 0);
            return 1;
        }
    }
    /* symbols: [prefix][i](B | b | byte | bit): GB, Gb, GiB, GByte, Gbit, kB, B, b */
    size_t j = 0;
    int p = prefix_power(w[0]);
    if (p && len > 1 && !(w[1] == 'i' || w[1] == 'I' || w[1] == 'b' || w[1] == 'B' || ieq(w + 1, "byte") ||
                          ieq(w + 1, "bytes") || ieq(w + 1, "bit") || ieq(w + 1, "bits")))
        p = 0; /* not a prefix: "bytes" begins with no prefix letter anyway */
    if (p) j = 1;
    bool bin = false;
    if (p && (w[j] == 'i' || w[j] == 'I')) bin = true, j++;
    const char *r = w + j;
    unsigned f = p ? (bin ? GPU_QF_BIN : GPU_QF_DEC) : 0;
    if (!*r) {
        if (!p) return 0;
        if (bin) return *power = p, *flags = f, 1; /* Gi: GiB, as Kubernetes writes it */
        return *power = p, *flags = f, -1;         /* G: GB or GiB? */
    }
    if (!strcmp(r, "B") || ieq(r, "byte") || ieq(r, "bytes")) return *power = p, *flags = f, 1;
    if (!strcmp(r, "b") || ieq(r, "bit") || ieq(r, "bits")) return *power = p, *flags = f | GPU_QF_BITS, 1;
    return 0;
}

static double ipow(double b, int e)
{
    double v = 1;
    while (e-- > 0) v *= b;
    return v;
}

/* n times 10^e into *out, false on overflow */
static bool mul10(uint64_t n, int e, uint64_t *out)
{
    for (; e > 0; e--) {
        if (n > UINT64_MAX / 10) return false;
        n *= 10;
    }
    *out = n;
    return true;
}

/* The size in whole bytes, exactly, when it is one: digits x 10^e10 x prefix / (8 for bits). */
static bool exact_bytes(const struct num *n, int power, unsigned flags, uint64_t *out)
{
    if (!n->dok || n->neg) return false;
    int e = n->e10;
    uint64_t num = n->d, den = 1;
    if (flags & GPU_QF_BIN) {
        for (int i = 0; i < power; i++) {
            if (num > UINT64_MAX / 1024) return false;
            num *= 1024;
        }
    } else {
        e += 3 * power;
    }
    if (e >= 0 && !mul10(num, e, &num)) return false;
    if (e < 0 && (e < -19 || !mul10(1, -e, &den))) return false;
    if (flags & GPU_QF_BITS) {
        if (den > UINT64_MAX / 8) return false;
        den *= 8;
    }
    if (num % den) return false;
    *out = num / den;
    return true;
}

enum gpu_qread gpu_qty_read(const char *s, size_t len, struct gpu_qty *q)
{
    char t[QMAX], u[QMAX];
    size_t tl, i = 0;
    struct num n;
    memset(q, 0, sizeof *q);
    if (!s || !normalize(s, len, t, sizeof t, &tl)) return GPU_QR_BAD;
    i = skip_blank(t, 0);
    if (!read_num(t, &i, &n)) return GPU_QR_BAD;
    q->number = n.v;
    size_t after = i; /* the unit as typed, blanks before it kept: "1,5 GiB" asks "1.5 GiB?" */
    i = skip_blank(t, i);
    /* the unit: trailing blanks cut; blanks inside dropped for the table ("GB / s") */
    size_t end = tl;
    while (end > i && (t[end - 1] == ' ' || t[end - 1] == '\t')) end--;
    size_t ul = 0;
    bool has_upper = false;
    for (size_t k = i; k < end; k++)
        if (t[k] != ' ' && t[k] != '\t') u[ul++] = t[k], has_upper |= upper(t[k]);
    u[ul] = 0;
    if (n.comma_bad) {
        q->amb = GPU_QA_COMMA;
        int rest = (int)(end - after);
        snprintf(q->alt[0], sizeof q->alt[0], "%s%.*s", n.alt[0], rest, t + after);
        snprintf(q->alt[1], sizeof q->alt[1], "%s%.*s", n.alt[1], rest, t + after);
        return GPU_QR_AMBIGUOUS;
    }
    if (!ul) {
        q->value = n.v, q->kind = GPU_QK_COUNT;
        if (exact_bytes(&n, 0, 0, &q->exact)) q->flags |= GPU_QF_EXACT;
        return GPU_QR_OK;
    }
    for (size_t k = 0; k < sizeof plain / sizeof plain[0]; k++) {
        const struct plain *p = &plain[k];
        if (p->ci ? !ieq(u, p->name) : strcmp(u, p->name)) continue;
        q->kind = p->kind, q->flags = p->flags, q->value = n.v * p->factor;
        snprintf(q->unit, sizeof q->unit, "%s", p->unit);
        return GPU_QR_OK;
    }
    /* a rate: a size per second */
    size_t base = ul;
    bool rate = false, ps = false;
    for (size_t k = 0; k < sizeof per_s / sizeof per_s[0] && !rate; k++) rate = ends_ci(u, ul, per_s[k], &base);
    if (!rate && ends_ci(u, ul, "ps", &base) && (u[base - 1] == 'b' || u[base - 1] == 'B')) rate = ps = true;
    int power;
    unsigned flags;
    int sb = size_base(u, base, &power, &flags);
    if (sb == 0) {
        snprintf(q->word, sizeof q->word, "%.*s", (int)(end - i), t + i);
        return GPU_QR_WORD;
    }
    /* "bps" is bits per second in any case; otherwise a b with no capital anywhere may be a
     * byte typed without the shift key: ask */
    if (ps && u[base - 1] == 'b') flags |= GPU_QF_BITS;
    if (sb < 0 || (!ps && (flags & GPU_QF_BITS) && u[base - 1] == 'b' && !has_upper)) {
        q->amb = sb < 0 ? GPU_QA_PREFIX : GPU_QA_BITS;
        q->power = power, q->flags = sb < 0 ? GPU_QF_BIN : flags; /* the second reading's */
        q->kind = rate ? GPU_QK_RATE : GPU_QK_SIZE;
        if (sb < 0) {
            spell(power, GPU_QF_DEC, rate, q->alt[0], sizeof q->alt[0]);
            spell(power, GPU_QF_BIN, rate, q->alt[1], sizeof q->alt[1]);
        } else {
            spell(power, flags & ~GPU_QF_BITS, rate, q->alt[0], sizeof q->alt[0]);
            spell(power, flags, rate, q->alt[1], sizeof q->alt[1]);
        }
        return GPU_QR_AMBIGUOUS;
    }
    double f = (flags & GPU_QF_BIN) ? ipow(1024, power) : ipow(1000, power);
    if (flags & GPU_QF_BITS) f /= 8;
    q->kind = rate ? GPU_QK_RATE : GPU_QK_SIZE;
    q->flags = flags, q->power = power, q->value = n.v * f;
    spell(power, flags, rate, q->unit, sizeof q->unit);
    if (!rate && exact_bytes(&n, power, flags, &q->exact)) q->flags |= GPU_QF_EXACT, q->value = (double)q->exact;
    return GPU_QR_OK;
}

/* ---- messages ---------------------------------------------------------------------------------- */

const char *gpu_qkind_name(enum gpu_qkind k)
{
    static const char *const names[] = {"count", "size", "rate", "time"};
    return (unsigned)k < 4 ? names[k] : "?";
}

const char *gpu_qamb_name(enum gpu_qamb a)
{
    static const char *const names[] = {"none", "bits", "prefix", "comma"};
    return (unsigned)a < 4 ? names[a] : "?";
}

/* "gigabytes per second" for GB/s */
static void unit_words(int power, unsigned flags, bool rate, char *buf, size_t n)
{
    snprintf(buf, n, "%s%s%s", (flags & GPU_QF_BIN) ? bin_word[power] : dec_word[power],
             (flags & GPU_QF_BITS) ? "bits" : "bytes", rate ? " per second" : "");
}

void gpu_qty_explain(const char *s, size_t len, enum gpu_qread r, const struct gpu_qty *q,
                     char *buf, size_t n)
{
    char w0[48], w1[48], raw[64], e[160];
    /* the text as typed, cut and escaped: it may hold anything a person or a file gave */
    size_t l = len < sizeof raw - 1 ? len : sizeof raw - 1;
    memcpy(raw, s, l), raw[l] = 0;
    gpu_esc_field(e, sizeof e, raw);
    const char *more = len > l ? "..." : "";
    if (r == GPU_QR_AMBIGUOUS && q->amb == GPU_QA_COMMA) {
        gpu_errf(buf, n, "'%s%s': is the comma a decimal point? Write %s, or %s (a comma groups "
                 "thousands: 1,024)", e, more, q->alt[0], q->alt[1]);
    } else if (r == GPU_QR_AMBIGUOUS) {
        bool rate = q->kind == GPU_QK_RATE;
        unit_words(q->power, q->amb == GPU_QA_BITS ? q->flags & ~GPU_QF_BITS : GPU_QF_DEC, rate, w0, sizeof w0);
        unit_words(q->power, q->flags, rate, w1, sizeof w1);
        gpu_errf(buf, n, "'%s%s': %s? Write %g %s for %s or %g %s for %s%s", e, more,
                 q->amb == GPU_QA_BITS ? "bits or bytes" : "decimal or binary", q->number, q->alt[0], w0,
                 q->number, q->alt[1], w1, q->amb == GPU_QA_BITS ? " (B is a byte, b a bit)" : "");
    } else if (r == GPU_QR_WORD) {
        gpu_errf(buf, n, "unknown unit '%s' in '%s%s' (B, KB, MB, GB, TB, KiB, MiB, GiB, TiB; "
                 "GB/s, GiB/s, Gb/s; ns, us, ms, s; %%, x)", q->word, e, more);
    } else if (r == GPU_QR_BAD) {
        gpu_errf(buf, n, "cannot read '%s%s' as a size, rate or time (try '16GiB', '1.5 GB', "
                 "'936 GB/s', '2 ms')", e, more);
    } else {
        gpu_errf(buf, n, "'%s%s' is a %s", e, more, gpu_qkind_name(q->kind));
    }
}
