/* gpu_trace.c - allocation traces for the caching-allocator model (gpu_trace.h: parse, replay,
 * record sinks). Trace format: docs/allocator.md. */
#include "gpu_trace.h"
#include "gpu_err.h"
#include "gpu_file.h"
#include "gpu_u64map.h"
#include "gpu_units.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- parser ----------------------------------------------------------------------------------- */

struct tok {
    const char *s;
    size_t len;
};

static bool next_tok(const char **p, const char *end, struct tok *t)
{
    while (*p < end && (**p == ' ' || **p == '\t' || **p == '\r')) (*p)++;
    if (*p >= end) return false;
    t->s = *p;
    while (*p < end && **p != ' ' && **p != '\t' && **p != '\r') (*p)++;
    t->len = (size_t)(*p - t->s);
    return true;
}

static bool parse_u64(const char *s, size_t len, uint64_t *v, size_t *used)
{
    uint64_t x = 0;
    size_t i = 0;
    unsigned base = 10;
    if (len > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
        base = 16;
        i = 2;
    }
    size_t start = i;
    for (; i < len; i++) {
        unsigned d;
        char ch = s[i];
        if (ch >= '0' && ch <= '9') d = (unsigned)(ch - '0');
        else if (base == 16 && ch >= 'a' && ch <= 'f') d = (unsigned)(ch - 'a' + 10);
        else if (base == 16 && ch >= 'A' && ch <= 'F') d = (unsigned)(ch - 'A' + 10);
        else break;
        if (x > (UINT64_MAX - d) / base) return false;
        x = x * base + d;
    }
    if (i == start) return false;
    *v = x;
    *used = i;
    return true;
}

static bool parse_id(struct tok t, uint64_t *v)
{
    size_t used;
    return parse_u64(t.s, t.len, v, &used) && used == t.len;
}

/* A size: plain digits or 0x hex bytes (as ids are written), else the one size grammar of
 * gpu_units.h ("1536KiB", "1.5MiB", "2GB"), which must come to whole bytes. */
static bool parse_size(struct tok t, uint64_t *v)
{
    size_t used;
    if (parse_u64(t.s, t.len, v, &used) && used == t.len) return true;
    struct gpu_qty q;
    if (gpu_qty_read(t.s, t.len, &q) != GPU_QR_OK || !(q.flags & GPU_QF_EXACT)) return false;
    if (q.kind != GPU_QK_SIZE) return false;
    *v = q.exact;
    return true;
}

static int tok_print_len(struct tok t) { return t.len > 40 ? 40 : (int)t.len; }

static bool push_ev(struct gpu_trace *t, struct gpu_trace_ev ev)
{
    if (t->n == t->cap) {
        size_t cap = t->cap ? t->cap * 2 : 1024;
        struct gpu_trace_ev *e = realloc(t->ev, cap * sizeof *e);
        if (!e) return false;
        t->ev = e;
        t->cap = cap;
    }
    t->ev[t->n++] = ev;
    return true;
}

void gpu_trace_free(struct gpu_trace *t)
{
    if (!t) return;
    free(t->ev);
    memset(t, 0, sizeof *t);
}

gpu_status gpu_trace_parse(const char *text, size_t len, struct gpu_trace *t, char *err, size_t n)
{
    if (err && n) err[0] = '\0';
    if (!t || (!text && len)) return GPU_ERR_ARG;
    memset(t, 0, sizeof *t);
    struct gpu_u64map ids = {0}; /* live id -> its slot << 32 | the line that allocated it */
    uint32_t *spare = NULL; /* slots of freed ids, reused first */
    size_t nspare = 0, spare_cap = 0;
    gpu_status st = GPU_OK;
    const char *p = text, *end = text + len;
    uint32_t line = 0;
    while (p < end && st == GPU_OK) {
        const char *eol = memchr(p, '\n', (size_t)(end - p));
        if (!eol) eol = end;
        line++;
        struct tok op, a1, a2, extra;
        const char *q = p;
        p = eol + 1;
        if (!next_tok(&q, eol, &op) || op.s[0] == '#') continue;
        struct gpu_trace_ev ev = {.line = line};
        int want;
        if (op.len == 1 && op.s[0] == 'a') {
            ev.op = GPU_TRACE_ALLOC;
            want = 2;
        } else if (op.len == 1 && op.s[0] == 'f') {
            ev.op = GPU_TRACE_FREE;
            want = 1;
        } else if (op.len == 1 && op.s[0] == 'e') {
            ev.op = GPU_TRACE_EMPTY;
            want = 0;
        } else {
            gpu_errf(err, n, "line %u: unknown event '%.*s' (expected a, f, e or #)", line,
                    tok_print_len(op), op.s);
            st = GPU_ERR_ARG;
            break;
        }
        int got = 0;
        if (want >= 1 && next_tok(&q, eol, &a1)) got++;
        if (want >= 2 && got == 1 && next_tok(&q, eol, &a2)) got++;
        if (got < want) {
            gpu_errf(err, n, "line %u: '%c' needs %s", line, op.s[0],
                    want == 2 ? "an id and a size" : "an id");
            st = GPU_ERR_ARG;
            break;
        }
        if (next_tok(&q, eol, &extra) && extra.s[0] != '#') {
            gpu_errf(err, n, "line %u: unexpected '%.*s' after the event", line,
                    tok_print_len(extra), extra.s);
            st = GPU_ERR_ARG;
            break;
        }
        if (want >= 1 && !parse_id(a1, &ev.id)) {
            gpu_errf(err, n, "line %u: bad id '%.*s' (a decimal or 0x number)", line,
                    tok_print_len(a1), a1.s);
            st = GPU_ERR_ARG;
            break;
        }
        if (want == 2 && (!parse_size(a2, &ev.bytes) || ev.bytes == 0)) {
            gpu_errf(err, n, "line %u: bad size '%.*s' (whole bytes > 0: 4096, 0x1000, 1536KiB, 1.5MiB, 2GB)",
                    line, tok_print_len(a2), a2.s);
            st = GPU_ERR_ARG;
            break;
        }
        size_t at = want ? gpu_u64map_find(&ids, ev.id) : SIZE_MAX;
        if (ev.op == GPU_TRACE_ALLOC) {
            if (at != SIZE_MAX) {
                gpu_errf(err, n, "line %u: id %llu is already live (allocated on line %u)", line,
                        (unsigned long long)ev.id, (unsigned)(ids.val[at] & 0xffffffffu));
                st = GPU_ERR_ARG;
                break;
            }
            if (!gpu_u64map_reserve(&ids, 1)) {
                st = GPU_ERR_HOST_NOMEM;
                break;
            }
            ev.slot = nspare ? spare[--nspare] : (uint32_t)t->nslots++;
            (void)gpu_u64map_put(&ids, ev.id, (uint64_t)ev.slot << 32 | line); /* reserved */
        } else if (ev.op == GPU_TRACE_FREE) {
            if (at == SIZE_MAX) {
                gpu_errf(err, n, "line %u: free of id %llu, which is not live", line,
                        (unsigned long long)ev.id);
                st = GPU_ERR_ARG;
                break;
            }
            ev.slot = (uint32_t)(ids.val[at] >> 32);
            gpu_u64map_del_at(&ids, at);
            if (nspare == spare_cap) {
                size_t cap = spare_cap ? spare_cap * 2 : 256;
                uint32_t *s = realloc(spare, cap * sizeof *s);
                if (!s) {
                    st = GPU_ERR_HOST_NOMEM;
                    break;
                }
                spare = s;
                spare_cap = cap;
            }
            spare[nspare++] = ev.slot;
        }
        if (t->n == GPU_TRACE_MAX_EVENTS) {
            gpu_errf(err, n, "line %u: more than %u events (the limit)", line, GPU_TRACE_MAX_EVENTS);
            st = GPU_ERR_ARG;
            break;
        }
        if (!push_ev(t, ev)) st = GPU_ERR_HOST_NOMEM;
    }
    if (st == GPU_ERR_HOST_NOMEM) gpu_errf(err, n, "line %u: %s", line, gpu_status_str(st));
    gpu_u64map_free(&ids);
    free(spare);
    if (st != GPU_OK) gpu_trace_free(t);
    return st;
}

/* The recorder's "# conf: ..." line among the first few lines, if any. */
static void header_conf(const char *text, size_t len, char *conf, size_t n)
{
    const char *p = text, *end = text + len;
    conf[0] = 0;
    for (int i = 0; i < 8 && p < end; i++) {
        const char *eol = memchr(p, '\n', (size_t)(end - p));
        if (!eol) eol = end;
        if ((size_t)(eol - p) > 7 && !memcmp(p, "# conf:", 7)) {
            const char *v = p + 7;
            while (v < eol && *v == ' ') v++;
            size_t l = (size_t)(eol - v);
            while (l && (v[l - 1] == '\r' || v[l - 1] == ' ')) l--;
            if (l < n) memcpy(conf, v, l), conf[l] = 0; /* too long to be ours: ignored */
            return;
        }
        p = eol + 1;
    }
}

gpu_status gpu_trace_load(const char *path, struct gpu_trace *t, char *conf, size_t conf_n,
                          char *err, size_t n)
{
    if (!path || !t) return GPU_ERR_ARG;
    memset(t, 0, sizeof *t);
    if (conf && conf_n) conf[0] = 0;
    size_t len;
    char *buf = gpu_file_read(path, GPU_TRACE_MAX_FILE, GPU_FILE_STDIN, &len, err, n);
    if (!buf) return GPU_ERR_ARG;
    if (conf && conf_n) header_conf(buf, len, conf, conf_n);
    char why[256];
    gpu_status st = gpu_trace_parse(buf, len, t, why, sizeof why);
    free(buf);
    if (st != GPU_OK) {
        if (!strncmp(why, "line ", 5)) gpu_errf(err, n, "%s:%s", path, why + 5);
        else gpu_errf(err, n, "%s: %s", path, why);
    }
    return st;
}

/* ---- replay ----------------------------------------------------------------------------------- */

enum { SLOT_NONE, SLOT_LIVE, SLOT_FAILED };

gpu_status gpu_trace_replay(const struct gpu_trace *t, struct gpu_caching *c,
                            struct gpu_replay_result *r, const gpu_cancel_flag *cancel, char *err,
                            size_t n)
{
    if (err && n) err[0] = '\0';
    if (!t || !c || !r) return GPU_ERR_ARG;
    memset(r, 0, sizeof *r);
    size_t ns = t->nslots ? t->nslots : 1;
    uint64_t *addr = malloc(ns * sizeof *addr);
    unsigned char *state = calloc(ns, 1);
    if (!addr || !state) {
        free(addr);
        free(state);
        gpu_errf(err, n, "%s", gpu_status_str(GPU_ERR_HOST_NOMEM));
        return GPU_ERR_HOST_NOMEM;
    }
    gpu_status st = GPU_OK;
    char msg[512];
    for (size_t i = 0; i < t->n && st == GPU_OK; i++) {
        const struct gpu_trace_ev *e = &t->ev[i];
        if ((i & 4095) == 0 && gpu_cancelled(cancel)) {
            gpu_errf(err, n, "line %u: %s", e->line, gpu_status_str(GPU_ERR_CANCELLED));
            st = GPU_ERR_CANCELLED;
            break;
        }
        if (e->slot >= ns) {
            gpu_errf(err, n, "line %u: slot out of range (trace not from gpu_trace_parse?)", e->line);
            st = GPU_ERR_ARG;
            break;
        }
        switch (e->op) {
        case GPU_TRACE_ALLOC: {
            /* PyTorch's message is kept for the first OOM only: written for each of a million
             * OOMs it would cost more than the allocator's own work */
            bool say = !r->ooms;
            gpu_status a = gpu_caching_malloc(c, e->bytes, &addr[e->slot], say ? msg : NULL,
                                              say ? sizeof msg : 0);
            if (a == GPU_OK) {
                state[e->slot] = SLOT_LIVE;
                r->allocs++;
            } else if (a == GPU_ERR_NOMEM) {
                state[e->slot] = SLOT_FAILED;
                if (r->noom_list < GPU_REPLAY_OOM_LIST) {
                    r->oom_list[r->noom_list].line = e->line;
                    r->oom_list[r->noom_list++].bytes = e->bytes;
                }
                if (!r->ooms++) {
                    r->first_oom_line = e->line;
                    snprintf(r->first_oom, sizeof r->first_oom, "%s", msg);
                }
            } else {
                gpu_errf(err, n, "line %u: %s", e->line, say ? msg : gpu_status_str(a));
                st = a;
            }
            break;
        }
        case GPU_TRACE_FREE:
            if (state[e->slot] == SLOT_LIVE) {
                gpu_caching_free(c, addr[e->slot]);
                r->frees++;
            } else {
                r->skipped_frees++;
            }
            state[e->slot] = SLOT_NONE;
            break;
        case GPU_TRACE_EMPTY:
            gpu_caching_empty_cache(c);
            r->empties++;
            break;
        default:
            gpu_errf(err, n, "line %u: unknown event %u", e->line, e->op);
            st = GPU_ERR_ARG;
        }
    }
    free(addr);
    free(state);
    gpu_caching_stats(c, &r->stats);
    return st;
}

/* ---- record sinks ----------------------------------------------------------------------------- */

void gpu_trace_sink_file(void *ud, const char *line, size_t len)
{
    if (ud) fwrite(line, 1, len, (FILE *)ud);
}

void gpu_trace_sink_buf(void *ud, const char *line, size_t len)
{
    struct gpu_trace_buf *b = ud;
    if (!b || b->failed) return;
    if (b->len + len + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 4096;
        while (cap < b->len + len + 1) cap *= 2;
        char *d = realloc(b->data, cap);
        if (!d) {
            b->failed = true;
            return;
        }
        b->data = d;
        b->cap = cap;
    }
    memcpy(b->data + b->len, line, len);
    b->len += len;
    b->data[b->len] = '\0';
}

void gpu_trace_buf_free(struct gpu_trace_buf *b)
{
    if (!b) return;
    free(b->data);
    memset(b, 0, sizeof *b);
}
