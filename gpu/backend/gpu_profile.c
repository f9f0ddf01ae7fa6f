/* gpu_profile.c - reads the simulator's GPU profiles: assets/gpus/<id>.txt, "key = value" lines,
 * '#' comments. Every field is checked, and every number says where it comes from: a line ends
 * with [tag] naming a `source.<tag> = text` line of the same file (or, for ce_efficiency and
 * sm_efficiency, their own *_source line). A mistake is reported as file:line: what. */
#include "gpu_sim.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gpu_err.h"
#include "gpu_file.h"
#include "gpu_parse.h"
#include "gpu_suggest.h"

enum kind { K_STR, K_U64, K_INT, K_DBL, K_GBS, K_CC, K_MIB };
struct field {
    const char *key;
    enum kind kind;
    size_t off;
    size_t len; /* strings: buffer size */
    bool required;
};

#define PI(f) offsetof(struct gpu_profile, info.f)
#define PP(f) offsetof(struct gpu_profile, f)
#define SZ(f) sizeof(((struct gpu_profile *)0)->info.f)
static const struct field fields[] = {
    {"name", K_STR, PI(name), SZ(name), true},
    {"memory_type", K_STR, PI(memory_type), SZ(memory_type), true},
    {"source", K_STR, PI(source), SZ(source), true},
    {"total_bytes", K_U64, PI(total_bytes), 0, true},
    {"smi_total_mib", K_MIB, PP(smi_total_bytes), 0, true},
    {"marketed_gb", K_DBL, PP(marketed_gb), 0, true},
    {"bus_width_bits", K_INT, PI(bus_width_bits), 0, true},
    {"mem_clock_khz", K_INT, PI(mem_clock_khz), 0, true},
    {"published_gbs", K_GBS, PI(published_bytes_per_s), 0, true},
    {"l2_bytes", K_U64, PI(l2_bytes), 0, true},
    {"sm_count", K_INT, PI(sm_count), 0, true},
    {"compute_capability", K_CC, PI(cc_major), 0, true},
    {"pcie_gen", K_INT, PI(pcie_gen), 0, true},
    {"pcie_width", K_INT, PI(pcie_width), 0, true},
    {"context_bytes", K_U64, PP(context_bytes), 0, true},
    {"ce_efficiency", K_DBL, PP(ce_efficiency), 0, true},
    {"ce_source", K_STR, PP(ce_source), sizeof(((struct gpu_profile *)0)->ce_source), true},
    {"sm_efficiency", K_DBL, PP(sm_efficiency), 0, true},
    {"sm_source", K_STR, PP(sm_source), sizeof(((struct gpu_profile *)0)->sm_source), true},
    {"l2_speedup", K_DBL, PP(l2_speedup), 0, true},
    {"pcie_efficiency", K_DBL, PP(pcie_efficiency), 0, true},
    {"pageable_factor", K_DBL, PP(pageable_factor), 0, true},
    {"copy_overhead_us", K_DBL, PP(copy_overhead_us), 0, true},
    {"l1_bytes", K_DBL, PP(l1_bytes), 0, true},
    {"l1_ns", K_DBL, PP(l1_ns), 0, true},
    {"l2_ns", K_DBL, PP(l2_ns), 0, true},
    {"dram_ns", K_DBL, PP(dram_ns), 0, true},
    {"noise", K_DBL, PP(noise), 0, true},
    {"async_engines", K_INT, PP(async_engines), 0, true},
    {"pin_alloc_s_per_gib", K_DBL, PP(pin_alloc_s_per_gib), 0, true},
    {"pin_register_s_per_gib", K_DBL, PP(pin_register_s_per_gib), 0, true},
    {"launch_us", K_DBL, PP(launch_us), 0, true},
    {"zerocopy_efficiency", K_DBL, PP(zerocopy_efficiency), 0, true},
    {"um_fault_efficiency", K_DBL, PP(um_fault_efficiency), 0, true},
    {"um_prefetch_efficiency", K_DBL, PP(um_prefetch_efficiency), 0, true},
    {"um_evict_efficiency", K_DBL, PP(um_evict_efficiency), 0, true},
    {"fp32_tflops", K_DBL, PP(fp32_tflops), 0, true},
    {"fp32_lanes_per_sm", K_INT, PI(fp32_lanes_per_sm), 0, true},
    {"l2_persist_max_bytes", K_U64, PI(l2_persist_max_bytes), 0, true},
    {"l2_window_max_bytes", K_U64, PI(l2_window_max_bytes), 0, true},
    {"tlb_l1_reach_bytes", K_DBL, PP(tlb_l1_reach), 0, true},
    {"tlb_l2_reach_bytes", K_DBL, PP(tlb_l2_reach), 0, true},
    {"tlb_l1_miss_ns", K_DBL, PP(tlb_l1_miss_ns), 0, true},
    {"tlb_l2_miss_ns", K_DBL, PP(tlb_l2_miss_ns), 0, true},
};
#define NFIELDS (sizeof fields / sizeof fields[0])
_Static_assert(NFIELDS <= sizeof ((struct gpu_profile *)0)->field_src /
                              sizeof ((struct gpu_profile *)0)->field_src[0],
               "field_src has a row per field");

static char *trim(char *s)
{
    while (*s == ' ' || *s == '\t') s++;
    char *e = s + strlen(s);
    while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\n' || e[-1] == '\r')) *--e = 0;
    return s;
}

/* why: the number's own complaint ("... out of range [0, N]"), or "" */
static bool parse_value(const struct field *f, const char *v, struct gpu_profile *p, char *why,
                        size_t wn)
{
    void *dst = (char *)p + f->off;
    uint64_t u, mi;
    double x;
    why[0] = 0;
    switch (f->kind) {
    case K_STR:
        if (strlen(v) >= f->len) return false;
        memcpy(dst, v, strlen(v) + 1);
        return true;
    case K_U64: return gpu_parse_u64(v, 0, GPU_PROFILE_MAX_BYTES, (uint64_t *)dst, why, wn);
    case K_MIB:
        if (!gpu_parse_u64(v, 0, GPU_PROFILE_MAX_BYTES >> 20, &u, why, wn)) return false;
        *(uint64_t *)dst = u << 20;
        return true;
    case K_INT:
        if (!gpu_parse_u64(v, 0, 1000000000, &u, why, wn)) return false;
        *(int *)dst = (int)u;
        return true;
    case K_DBL:
    case K_GBS:
        /* finite and not negative: an "inf" bandwidth would make every simulated time 0 */
        if (!gpu_parse_double(v, 0, 1e15, &x, why, wn)) return false;
        *(double *)dst = f->kind == K_GBS ? x * 1e9 : x;
        return true;
    case K_CC: { /* "9.0" */
        char ma[16];
        const char *dot = strchr(v, '.');
        if (!dot || (size_t)(dot - v) >= sizeof ma) return false;
        memcpy(ma, v, (size_t)(dot - v));
        ma[dot - v] = 0;
        if (!gpu_parse_u64(ma, 0, 99, &u, why, wn) ||
            !gpu_parse_u64(dot + 1, 0, 99, &mi, why, wn))
            return false;
        p->info.cc_major = (int)u;
        p->info.cc_minor = (int)mi;
        return true;
    }
    }
    return false;
}

static bool valid_tag(const char *t, size_t n)
{
    if (!n || n >= sizeof ((struct gpu_profile_source *)0)->tag) return false;
    for (size_t i = 0; i < n; i++)
        if (!((t[i] >= 'a' && t[i] <= 'z') || (t[i] >= '0' && t[i] <= '9') || t[i] == '_' ||
              t[i] == '-'))
            return false;
    return true;
}

/* "5120   [ds, arch]" -> value "5120", tags "ds, arch" (NULL when the line names none). */
static char *split_tags(char *val)
{
    size_t l = strlen(val);
    if (!l || val[l - 1] != ']') return NULL;
    char *open = strrchr(val, '[');
    if (!open) return NULL;
    val[l - 1] = 0;
    *open = 0;
    char *e = open;
    while (e > val && (e[-1] == ' ' || e[-1] == '\t')) *--e = 0;
    return open + 1;
}

static int find_source(const struct gpu_profile *p, const char *tag, size_t n)
{
    for (int i = 0; i < p->nsrc; i++)
        if (strlen(p->src[i].tag) == n && !strncmp(p->src[i].tag, tag, n)) return i;
    return -1;
}

void gpu_profile_sources(const struct gpu_profile *p,
                         void (*fn)(const char *key, const char *text, void *ud), void *ud)
{
    for (size_t i = 0; i < NFIELDS; i++) {
        if (fields[i].kind == K_STR) continue;
        if (!strcmp(fields[i].key, "ce_efficiency")) fn(fields[i].key, p->ce_source, ud);
        else if (!strcmp(fields[i].key, "sm_efficiency")) fn(fields[i].key, p->sm_source, ud);
        for (int k = 0; k < 3 && p->field_src[i][k]; k++)
            fn(fields[i].key, p->src[p->field_src[i][k] - 1].text, ud);
    }
}

static bool valid_id(const char *id)
{
    if (!*id || strlen(id) > GPU_PROFILE_ID_MAX) return false;
    for (const char *c = id; *c; c++)
        if (!((*c >= 'a' && *c <= 'z') || (*c >= '0' && *c <= '9') || *c == '_' || *c == '-'))
            return false;
    return true;
}

/* The known profile ids, appended to an error message. */
struct known {
    char *err;
    size_t n, l;
    struct gpu_suggest sg; /* "did you mean": its best kept in `best` (ids live for a call) */
    char best[64];
};

static void add_known(const char *id, void *ud)
{
    struct known *k = ud;
    if (k->l < k->n) k->l += (size_t)snprintf(k->err + k->l, k->n - k->l, " %s", id);
    gpu_suggest_add(&k->sg, id);
    if (k->sg.best == id) snprintf(k->best, sizeof k->best, "%s", id), k->sg.best = k->best;
}

gpu_status gpu_profile_load(const char *datadir, const char *id, struct gpu_profile *p, char *err,
                            size_t n)
{
    char path[1024];
    bool seen[NFIELDS] = {0};
    memset(p, 0, sizeof *p);
    if (!valid_id(id)) {
        gpu_errf(err, n, "bad profile name '%s' (lower-case letters, digits, - and _)", id);
        return GPU_ERR_PROFILE;
    }
    /* datadir may be "A:B:C": the first folder that has the profile wins (a teacher's folder
     * before the installation's, overriding a profile by name) */
    char dir[1024];
    for (const char *q = datadir ? datadir : "."; (q = gpu_path_next(q, dir, sizeof dir));) {
        snprintf(path, sizeof path, "%s/assets/gpus/%s.txt", dir, id);
        if (!access(path, F_OK) || !*q) break;
    }
    /* a data folder may come from anyone: a regular file, 64 KiB at most (a profile is ~1 KiB) */
    char *text = gpu_file_read(path, GPU_PROFILE_MAX_FILE, 0, NULL, err, n);
    if (!text && access(path, F_OK) && errno == ENOENT) { /* a mistyped name, not a bad file */
        struct known k = {err, n, 0, {0}, ""};
        gpu_suggest_init(&k.sg, id);
        gpu_errf(err, n, "unknown profile '%s'; known:", id);
        k.l = err && n ? strlen(err) : 0;
        if (!gpu_profile_list(datadir, add_known, &k))
            gpu_errf(err, n, "unknown profile '%s': no profiles in %s/assets/gpus", id,
                     datadir ? datadir : ".");
        else if (k.sg.best && k.l < n) /* rtx309: did you mean rtx3090? */
            snprintf(err + k.l, n - k.l, "; did you mean %s?", k.sg.best);
        return GPU_ERR_PROFILE;
    }
    if (!text) {
        size_t l = strlen(err);
        snprintf(err + l, n > l ? n - l : 0, " (see `vramlab profiles`)");
        return GPU_ERR_PROFILE;
    }
    int ln = 0, line_of[NFIELDS] = {0}, src_line[GPU_PROFILE_SOURCES] = {0};
    char why[160];
    char tags[NFIELDS][64] = {{0}};
    bool used[GPU_PROFILE_SOURCES] = {0};
    gpu_status st = GPU_OK;
    for (char *line = text, *next; st == GPU_OK && *line; line = next) {
        next = line + strcspn(line, "\n");
        if (*next) *next++ = 0;
        ln++;
        char *s = trim(line);
        if (!*s || *s == '#') continue;
        char *eq = strchr(s, '=');
        if (!eq) {
            gpu_errf(err, n, "%s:%d: expected 'key = value'", path, ln);
            st = GPU_ERR_PROFILE;
            break;
        }
        *eq = 0;
        char *key = trim(s), *val = trim(eq + 1);
        if (!strncmp(key, "source.", 7)) { /* a source the numbers below name as [tag] */
            const char *tag = key + 7;
            if (!valid_tag(tag, strlen(tag))) {
                gpu_errf(err, n, "%s:%d: bad source name '%s' (lower-case letters, digits, - "
                         "and _)", path, ln, tag);
                st = GPU_ERR_PROFILE;
            } else if (find_source(p, tag, strlen(tag)) >= 0) {
                gpu_errf(err, n, "%s:%d: source '%s' given twice", path, ln, tag);
                st = GPU_ERR_PROFILE;
            } else if (p->nsrc == GPU_PROFILE_SOURCES || strlen(val) < 10 ||
                       strlen(val) >= sizeof p->src[0].text) {
                gpu_errf(err, n, "%s:%d: source '%s': %s", path, ln, tag,
                         p->nsrc == GPU_PROFILE_SOURCES ? "too many sources"
                                                        : "say what it is (10 to 399 characters)");
                st = GPU_ERR_PROFILE;
            } else {
                snprintf(p->src[p->nsrc].tag, sizeof p->src[0].tag, "%s", tag);
                snprintf(p->src[p->nsrc].text, sizeof p->src[0].text, "%s", val);
                src_line[p->nsrc++] = ln;
            }
            continue;
        }
        size_t i;
        for (i = 0; i < NFIELDS && strcmp(fields[i].key, key); i++) {}
        char *tg = i < NFIELDS && fields[i].kind != K_STR ? split_tags(val) : NULL;
        if (i == NFIELDS) {
            gpu_errf(err, n, "%s:%d: unknown key '%s'", path, ln, key);
            st = GPU_ERR_PROFILE;
        } else if (seen[i]) {
            gpu_errf(err, n, "%s:%d: '%s' given twice", path, ln, key);
            st = GPU_ERR_PROFILE;
        } else if (!parse_value(&fields[i], val, p, why, sizeof why)) {
            gpu_errf(err, n, "%s:%d: bad value for '%s': '%s'%s%s%s", path, ln, key, val,
                     *why ? " (" : "", why, *why ? ")" : "");
            st = GPU_ERR_PROFILE;
        } else {
            line_of[i] = ln;
            if (tg && tg[strspn(tg, " ,")]) snprintf(tags[i], sizeof tags[i], "%s", tg);
        }
        seen[i < NFIELDS ? i : 0] |= i < NFIELDS;
    }
    free(text);
    for (size_t i = 0; st == GPU_OK && i < NFIELDS; i++)
        if (fields[i].required && !seen[i]) {
            gpu_errf(err, n, "%s:%d: missing '%s'", path, ln, fields[i].key);
            st = GPU_ERR_PROFILE;
        }
    /* every number names its source; every source is named by a number */
    for (size_t i = 0; st == GPU_OK && i < NFIELDS; i++) {
        if (fields[i].kind == K_STR || !seen[i]) continue;
        bool own = (!strcmp(fields[i].key, "ce_efficiency") && p->ce_source[0]) ||
                   (!strcmp(fields[i].key, "sm_efficiency") && p->sm_source[0]);
        if (!tags[i][0] && !own) {
            gpu_errf(err, n, "%s:%d: '%s' has no source: end the line with [tag], naming a "
                     "'source.tag = ...' line", path, line_of[i], fields[i].key);
            st = GPU_ERR_PROFILE;
        }
        int k = 0;
        for (const char *t = tags[i]; st == GPU_OK && tags[i][0];) {
            while (*t == ' ' || *t == ',') t++;
            size_t l = strcspn(t, ", ");
            if (!l) break;
            int j = find_source(p, t, l);
            if (j < 0 || k == 3) {
                gpu_errf(err, n, "%s:%d: '%s' names %s [%.*s]%s", path, line_of[i],
                         fields[i].key, j < 0 ? "an unknown source" : "more than three sources:",
                         (int)l, t, j < 0 ? ": no 'source." : "");
                if (j < 0) {
                    size_t e = strlen(err);
                    snprintf(err + e, n > e ? n - e : 0, "%.*s = ...' line", (int)l, t);
                }
                st = GPU_ERR_PROFILE;
                break;
            }
            p->field_src[i][k++] = (unsigned char)(j + 1);
            used[j] = true;
            t += l;
        }
    }
    for (int j = 0; st == GPU_OK && j < p->nsrc; j++)
        if (!used[j]) {
            gpu_errf(err, n, "%s:%d: source '%s' is named by no field", path, src_line[j],
                     p->src[j].tag);
            st = GPU_ERR_PROFILE;
        }
    if (st == GPU_OK && p->info.l2_persist_max_bytes > p->info.l2_bytes) {
        gpu_errf(err, n, "%s: l2_persist_max_bytes is more than the L2 (l2_bytes)", path);
        st = GPU_ERR_PROFILE;
    }
    if (st == GPU_OK && (p->tlb_l1_reach <= 0 || p->tlb_l2_reach < p->tlb_l1_reach)) {
        gpu_errf(err, n, "%s: the TLBs' reach must be > 0 and grow from L1 to L2", path);
        st = GPU_ERR_PROFILE;
    }
    if (st == GPU_OK && (p->ce_efficiency > 1 || p->sm_efficiency > 1 || p->pcie_efficiency > 1 ||
                         p->pageable_factor > 1 || p->noise > 0.5 || p->zerocopy_efficiency > 1 ||
                         p->um_fault_efficiency > 1 || p->um_prefetch_efficiency > 1 ||
                         p->um_evict_efficiency > 1)) {
        gpu_errf(err, n, "%s: efficiencies and factors must be at most 1 (noise at most 0.5)", path);
        st = GPU_ERR_PROFILE;
    }
    if (st == GPU_OK && p->context_bytes >= p->info.total_bytes) { /* else all of it shows free */
        size_t i = 0;
        while (strcmp(fields[i].key, "context_bytes")) i++;
        gpu_errf(err, n, "%s:%d: context_bytes (%llu) must be less than total_bytes (%llu)", path,
                 line_of[i], (unsigned long long)p->context_bytes,
                 (unsigned long long)p->info.total_bytes);
        st = GPU_ERR_PROFILE;
    }
    /* a link rate times 0 would make a simulated copy take forever */
    if (st == GPU_OK && (p->async_engines < 1 || p->async_engines > 8 ||
                         !(p->zerocopy_efficiency > 0) || !(p->um_fault_efficiency > 0) ||
                         !(p->um_prefetch_efficiency > 0) || !(p->um_evict_efficiency > 0))) {
        gpu_errf(err, n, "%s: async_engines must be 1 to 8 and the link efficiencies above 0", path);
        st = GPU_ERR_PROFILE;
    }
    if (st == GPU_OK) {
        snprintf(p->info.profile, sizeof p->info.profile, "%s", id);
        p->info.peak_bytes_per_s = gpu_peak_bytes_per_s(p->info.mem_clock_khz,
                                                        p->info.bus_width_bits);
        p->info.async_engines = p->async_engines;
        /* the boost clock the published FP32 figure implies: SMs x lanes x 2 FLOPs x clock */
        const double per_clock = 2.0 * p->info.sm_count * p->info.fp32_lanes_per_sm;
        p->info.sm_clock_khz = per_clock > 0 ? (int)(p->fp32_tflops * 1e9 / per_clock + 0.5) : 0;
        p->info.fp32_flops = gpu_fp32_flops(p->info.sm_count, p->info.fp32_lanes_per_sm,
                                            p->info.sm_clock_khz);
    }
    return st;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

int gpu_profile_list(const char *datadir, void (*fn)(const char *id, void *ud), void *ud)
{
    char dir[1024], path[1100], *ids[128];
    int cnt = 0, out = 0;
    /* "A:B:C": the profiles of every folder, each name once (gpu_profile_load picks its file) */
    for (const char *q = datadir ? datadir : "."; (q = gpu_path_next(q, dir, sizeof dir));) {
        snprintf(path, sizeof path, "%s/assets/gpus", dir);
        DIR *d = dir[0] ? opendir(path) : NULL;
        struct dirent *e;
        while (d && (e = readdir(d)) && cnt < 128) {
            size_t k = strlen(e->d_name);
            char file[2400];
            snprintf(file, sizeof file, "%s/%s", path, e->d_name);
            /* listed only when the reader would take it (a FIFO or a device named x.txt is not) */
            char *id = k > 4 && !strcmp(e->d_name + k - 4, ".txt") ? strndup(e->d_name, k - 4) : NULL;
            if (id && valid_id(id) && gpu_file_ok(file, GPU_PROFILE_MAX_FILE, 0)) ids[cnt++] = id;
            else free(id);
        }
        if (d) closedir(d);
    }
    qsort(ids, (size_t)cnt, sizeof ids[0], cmp_str);
    for (int i = 0; i < cnt; i++) {
        if (fn && (!out || strcmp(ids[i], ids[i - 1]))) fn(ids[i], ud), out++;
        else if (!fn && (!out || strcmp(ids[i], ids[i - 1]))) out++;
    }
    for (int i = 0; i < cnt; i++) free(ids[i]);
    return out;
}

struct by_name {
    const char *datadir, *name;
    struct gpu_profile *p;
    char *id;
    size_t n;
    bool found;
};

static void match_name(const char *id, void *ud)
{
    struct by_name *b = ud;
    struct gpu_profile p;
    char err[512];
    if (b->found || gpu_profile_load(b->datadir, id, &p, err, sizeof err) != GPU_OK) return;
    if (strcmp(p.info.name, b->name)) return;
    *b->p = p;
    snprintf(b->id, b->n, "%s", id);
    b->found = true;
}

bool gpu_profile_by_name(const char *datadir, const char *name, struct gpu_profile *p,
                         char *id, size_t n)
{
    struct by_name b = {datadir, name, p, id, n, false};
    if (name && *name) gpu_profile_list(datadir, match_name, &b);
    return b.found;
}

double gpu_pcie_bytes_per_s(int gen, int width)
{
    /* GT/s per lane and line encoding: gen1/2 8b/10b, gen3+ 128b/130b (gen6 FLIT, ~242/256). */
    static const double gts[] = {0, 2.5, 5, 8, 16, 32, 64};
    if (gen < 1 || gen > 6 || width <= 0) return 0;
    double enc = gen <= 2 ? 0.8 : gen <= 5 ? 128.0 / 130.0 : 242.0 / 256.0;
    return gts[gen] * 1e9 * width * enc / 8.0;
}
