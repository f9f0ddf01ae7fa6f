/* lt_snapshot.c - alloc.snapshot([path] [, opts]): a PyTorch memory snapshot read for a lesson
 * or the learner (the summary `vramlab snapshot` prints, a decimated timeline, and the what-if
 * replay), with the reading, parsing and replay on the worker so the screen stays live, and
 * every step looking at the cancel flag (Esc, a limit) every few thousand entries.
 * With {diff = B}, a second snapshot of the same kinds of file is read too and compared with the
 * first (gpu_snap_diff: what grew and what went, by first user frame), as `snapshot diff A B`.
 * Two kinds of file:
 *   - the one the learner named (`vramlab eval FILE --snapshot S`, `vramlab repl --snapshot S`,
 *     the REPL's :open S): alloc.snapshot() with no path, or that path; read through the safe
 *     reader with the CLI's limits (GPU_SNAPSHOT_MAX_FILE);
 *   - files the project ships: the path is relative to the data folder (or to a teacher's
 *     lessons folder, looked in first) and must lie, after every symlink is resolved, in
 *     assets/snapshots/ or lessons/assets/ of that folder. Absolute paths, `..` and links that
 *     lead out are refused before anything is opened, and the opened file is checked again
 *     (through /proc/self/fd) so a folder swapped for a link in between is caught too; at most
 *     MAX_FILE bytes, charged to the lesson's memory. */
#include "lt_alloc_int.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gpu_file.h"
#include "gpu_snap_diff.h"
#include "gpu_snap_replay.h"
#include "gpu_snap_summary.h"
#include "gpu_snap_walk.h"
#include "gpu_snapshot.h"
#include "lt_snap_words.h"

static const char *const roots[] = {"assets/snapshots", "lessons/assets"};
#define NROOTS (sizeof roots / sizeof *roots)
#define MAX_FILE (4ull << 20) /* lesson assets are small; the heap cap bounds the rest */
#define MAX_COLUMNS 2000
#define MAX_TOP 50

struct snap_job {
    struct lt_job base;
    int fd;
    uint64_t file_bytes, max_file;
    char path[PATH_MAX];  /* as the lesson gave it */
    int device;           /* -1: the first with a trace */
    size_t top, columns;
    bool replay, has_conf;
    char conf[256];
    uint64_t capacity;
    int fd2;              /* the diff's second file, or -1 */
    uint64_t file_bytes2, max_file2;
    char path2[PATH_MAX];
    /* results */
    struct gpu_snapshot *s, *s2;
    struct gpu_snap_diff diff;
    bool has_diff;
    struct gpu_snap_summary sum;
    size_t di;            /* index into sum.dev */
    struct gpu_snap_column *cols;
    struct gpu_snap_replay *r;
    struct lt_vm *vm;
    long long charged;
};

static bool under(const char *p, const char *dir)
{
    size_t n = strlen(dir);
    return !strncmp(p, dir, n) && p[n] == '/';
}

/* Is `p` (absolute, resolved) inside one of the allowed folders of datadir? A folder that is
 * itself a link out of the data folder allows nothing. */
static bool inside_roots(const char *datadir, const char *p)
{
    char data[PATH_MAX];
    if (!realpath(datadir, data)) return false;
    for (size_t i = 0; i < NROOTS; i++) {
        char want[PATH_MAX + 64], real[PATH_MAX];
        snprintf(want, sizeof want, "%s/%s", datadir, roots[i]);
        if (!realpath(want, real) || !under(real, data)) continue;
        if (under(p, real)) return true;
    }
    return false;
}

/* The lesson's path, checked: relative, no "..", under an allowed folder, a regular file whose
 * real path (symlinks resolved) is still under it. Returns an open descriptor or raises. */
static int open_checked(lua_State *L, const char *datadir, const char *path, size_t len,
                        uint64_t *bytes)
{
    static const char why_out[] = "a lesson may read only assets/snapshots/ and lessons/assets/";
    if (strlen(path) != len || len == 0 || len >= PATH_MAX - 1100)
        luaL_error(L, "alloc.snapshot: not a usable path");
    if (path[0] == '/') luaL_error(L, "alloc.snapshot: '%s' is absolute; %s, relative to the data folder", path, why_out);
    for (const char *p = path; *p;) { /* no ".." component */
        const char *e = strchr(p, '/');
        size_t n = e ? (size_t)(e - p) : strlen(p);
        if (n == 2 && p[0] == '.' && p[1] == '.') luaL_error(L, "alloc.snapshot: '%s' has '..'; %s", path, why_out);
        p += n + (e != NULL);
    }
    bool prefix = false;
    for (size_t i = 0; i < NROOTS; i++) {
        size_t n = strlen(roots[i]);
        prefix |= !strncmp(path, roots[i], n) && path[n] == '/';
    }
    if (!prefix) luaL_error(L, "alloc.snapshot: '%s' is outside the allowed folders; %s", path, why_out);
    char full[PATH_MAX + 1100], real[PATH_MAX];
    snprintf(full, sizeof full, "%s/%s", datadir, path);
    if (!realpath(full, real)) luaL_error(L, "alloc.snapshot: %s: %s", path, strerror(errno));
    if (!inside_roots(datadir, real))
        luaL_error(L, "alloc.snapshot: '%s' leads outside the allowed folders (a link); %s", path, why_out);
    int fd = open(real, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0) luaL_error(L, "alloc.snapshot: %s: %s", path, strerror(errno));
    /* the file opened is the one checked: a folder of the path swapped for a link meanwhile
     * would show here */
    char proc[64], now[PATH_MAX];
    snprintf(proc, sizeof proc, "/proc/self/fd/%d", fd);
    ssize_t k = readlink(proc, now, sizeof now - 1);
    if (k > 0) {
        now[k] = 0;
        if (!inside_roots(datadir, now)) {
            close(fd);
            luaL_error(L, "alloc.snapshot: '%s' leads outside the allowed folders; %s", path, why_out);
        }
    }
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        close(fd);
        luaL_error(L, "alloc.snapshot: %s: not a regular file", path);
    }
    if ((uint64_t)st.st_size > MAX_FILE) {
        close(fd);
        luaL_error(L, "alloc.snapshot: %s: %llu bytes, more than a lesson may read (%llu MiB)", path,
                   (unsigned long long)st.st_size, (unsigned long long)(MAX_FILE >> 20));
    }
    *bytes = (uint64_t)st.st_size;
    return fd;
}

/* open_checked in the first of the colon-separated folders that has the path (a teacher's
 * lessons folder before the data folder); none: the last one's refusal. */
static int open_first(lua_State *L, const char *folders, const char *path, size_t len,
                      uint64_t *bytes)
{
    char dir[PATH_MAX] = ".", full[2 * PATH_MAX];
    for (const char *p = folders; (p = gpu_path_next(p, dir, sizeof dir));) {
        snprintf(full, sizeof full, "%s/%s", dir, path);
        if (!*p || (strlen(path) == len && access(full, F_OK) == 0)) break;
    }
    return open_checked(L, dir, path, len, bytes);
}

static void snap_fn(struct lt_job *j)
{
    struct snap_job *sj = (struct snap_job *)j;
    const gpu_cancel_flag *cancel = &j->rt->cancel;
    char why[200];
    int fd = sj->fd;
    sj->fd = -1; /* the reader takes it */
    j->st = gpu_snapshot_load_fd(fd, sj->path, sj->max_file, cancel, &sj->s, j->why, sizeof j->why);
    if (j->st != GPU_OK) return;
    j->st = gpu_snapshot_summarize(sj->s, sj->top, cancel, &sj->sum, why, sizeof why);
    if (j->st != GPU_OK) {
        snprintf(j->why, sizeof j->why, "%s: %s", sj->path, why);
        return;
    }
    if (sj->sum.ndev == 0) {
        j->st = GPU_ERR_ARG;
        snprintf(j->why, sizeof j->why, "%s: the snapshot has no device", sj->path);
        return;
    }
    size_t di = 0;
    bool found = false;
    for (size_t i = 0; i < sj->sum.ndev && !found; i++) {
        bool pick = sj->device < 0 ? sj->sum.dev[i].events > 0 : sj->sum.dev[i].device == sj->device;
        if (pick) di = i, found = true;
    }
    if (!found && sj->device >= 0) {
        j->st = GPU_ERR_ARG;
        snprintf(j->why, sizeof j->why, "%s: no device %d in the snapshot", sj->path, sj->device);
        return;
    }
    sj->di = di;
    const struct gpu_snap_device *d = &sj->sum.dev[di];
    sj->cols = calloc(sj->columns, sizeof *sj->cols);
    if (!sj->cols) {
        j->st = GPU_ERR_HOST_NOMEM;
        snprintf(j->why, sizeof j->why, "%s: out of memory", sj->path);
        return;
    }
    j->st = gpu_snap_timeline(sj->s, d->device, 0, d->events, sj->columns, sj->cols, cancel);
    if (j->st != GPU_OK) {
        snprintf(j->why, sizeof j->why, "%s: %s", sj->path, gpu_status_str(j->st));
        return;
    }
    if (sj->fd2 >= 0) {
        int fd2 = sj->fd2;
        sj->fd2 = -1; /* the reader takes it */
        j->st = gpu_snapshot_load_fd(fd2, sj->path2, sj->max_file2, cancel, &sj->s2, j->why, sizeof j->why);
        if (j->st != GPU_OK) return;
        j->st = gpu_snapshot_diff(sj->s, sj->s2, sj->top, &sj->diff, why, sizeof why);
        if (j->st != GPU_OK) {
            snprintf(j->why, sizeof j->why, "diff %s %s: %s", sj->path, sj->path2, why);
            return;
        }
        sj->has_diff = true;
    }
    if (!sj->replay) return;
    sj->r = calloc(1, sizeof *sj->r);
    struct gpu_caching_opts w;
    gpu_snapshot_recorded_opts(sj->s, &w);
    if (sj->r && sj->has_conf && gpu_caching_parse_conf(sj->conf, &w, why, sizeof why) != GPU_OK) {
        j->st = GPU_ERR_ARG;
        snprintf(j->why, sizeof j->why, "replay: %s", why);
        return;
    }
    if (!sj->r) j->st = GPU_ERR_HOST_NOMEM, snprintf(why, sizeof why, "out of memory");
    else j->st = gpu_snapshot_replay(sj->s, d->device, sj->capacity, sj->has_conf ? &w : NULL, NULL,
                                     cancel, sj->r, why, sizeof why);
    if (j->st != GPU_OK) snprintf(j->why, sizeof j->why, "%s: replay: %s", sj->path, why);
}

/* What the worker made: freed after the results are pushed, or by the userdata's __gc when the
 * call was cancelled before (release runs first, on the Lua thread, either way). */
static void snap_free_results(struct snap_job *sj)
{
    gpu_snap_summary_free(&sj->sum);
    gpu_snapshot_free(sj->s);
    sj->s = NULL;
    free(sj->cols);
    sj->cols = NULL;
    free(sj->r);
    sj->r = NULL;
    if (sj->has_diff) gpu_snap_diff_free(&sj->diff);
    sj->has_diff = false;
    gpu_snapshot_free(sj->s2);
    sj->s2 = NULL;
}

static int snap_gc(lua_State *L)
{
    struct snap_job *sj = lua_touserdata(L, 1);
    if (sj->fd >= 0) close(sj->fd);
    if (sj->fd2 >= 0) close(sj->fd2);
    sj->fd = sj->fd2 = -1;
    snap_free_results(sj);
    return 0;
}

static void snap_release(struct lt_job *j)
{
    struct snap_job *sj = (struct snap_job *)j;
    if (sj->fd >= 0) close(sj->fd);
    if (sj->fd2 >= 0) close(sj->fd2);
    sj->fd = sj->fd2 = -1;
    lt_vm_mem_add(sj->vm, -sj->charged);
    sj->charged = 0;
}

static void push_lstr(lua_State *L, const char *k, const char *s, size_t n)
{
    lua_pushlstring(L, s ? s : "", s ? n : 0);
    lua_setfield(L, -2, k);
}

static void push_side(lua_State *L, const char *k, const struct gpu_snap_side *s, const char *conf,
                      bool model)
{
    lua_createtable(L, 0, 12);
    lt_seti(L, "peak_reserved", s->peak_reserved);
    lt_seti(L, "end_reserved", s->end_reserved);
    lt_seti(L, "peak_requested", s->peak_requested);
    lt_seti(L, "device_allocs", s->device_allocs);
    lt_seti(L, "device_frees", s->device_frees);
    lt_seti(L, "segments", s->end_segments);
    lt_seti(L, "ooms", s->ooms);
    if (s->first_oom_event >= 0) lt_seti(L, "first_oom_entry", (uint64_t)s->first_oom_event);
    if (model && s->first_oom[0]) {
        lua_pushstring(L, s->first_oom);
        lua_setfield(L, -2, "first_oom");
    }
    if (model) lt_seti(L, "recorded_ooms_fit", s->recorded_ooms_fit);
    lua_pushstring(L, conf);
    lua_setfield(L, -2, "conf");
    lua_pushboolean(L, model);
    lua_setfield(L, -2, "simulated");
    lua_setfield(L, -2, k);
}

/* findings in the run's language (this runs on the Lua thread) */
static void push_findings(lua_State *L, const char *k, const struct gpu_snap_finding *f, size_t n)
{
    bool zh = !strcmp(lt_runtime_lang(lt_vm_of(L)->rt), "zh");
    lua_createtable(L, (int)n, 0);
    for (size_t i = 0; i < n; i++) {
        char b[512];
        lua_pushstring(L, lt_snap_finding_text(&f[i], zh, b, sizeof b));
        lua_rawseti(L, -2, (lua_Integer)i + 1);
    }
    lua_setfield(L, -2, k);
}

static int snap_push_results(lua_State *L, struct snap_job *sj);

static void push_groups(lua_State *L, const char *k, const struct gpu_snap_group *g, size_t n)
{
    lua_createtable(L, (int)n, 0);
    for (size_t i = 0; i < n; i++) {
        lua_createtable(L, 0, 4);
        push_lstr(L, "where", g[i].where, g[i].where_len);
        push_lstr(L, "func", g[i].function, g[i].function_len);
        lt_seti(L, "bytes", g[i].bytes);
        lt_seti(L, "count", g[i].count);
        lua_rawseti(L, -2, (lua_Integer)i + 1);
    }
    lua_setfield(L, -2, k);
}

static void push_pair(lua_State *L, const char *k, const uint64_t v[2])
{
    lua_createtable(L, 0, 3);
    lt_seti(L, "a", v[0]);
    lt_seti(L, "b", v[1]);
    lua_pushinteger(L, (lua_Integer)v[1] - (lua_Integer)v[0]);
    lua_setfield(L, -2, "delta");
    lua_setfield(L, -2, k);
}

/* The diff of the summary's device as the field `diff` (a device only A has: no counts). */
static void push_diff(lua_State *L, const struct snap_job *sj, int device)
{
    const struct gpu_snap_diff_dev *dv = NULL;
    for (size_t i = 0; i < sj->diff.ndev; i++)
        if (sj->diff.dev[i].device == device) dv = &sj->diff.dev[i];
    lua_createtable(L, 0, 14);
    lua_pushstring(L, sj->path2);
    lua_setfield(L, -2, "path");
    lt_seti(L, "device", (uint64_t)device);
    if (dv) {
        push_pair(L, "reserved", dv->reserved);
        push_pair(L, "allocated", dv->allocated);
        push_pair(L, "requested", dv->requested);
        push_pair(L, "cached", dv->cached);
        push_pair(L, "segments", dv->nsegs);
        lt_seti(L, "only_in_a_bytes", dv->only_bytes[0]);
        lt_seti(L, "only_in_b_bytes", dv->only_bytes[1]);
        lt_seti(L, "grown_bytes", dv->grown_bytes);
        lt_seti(L, "gone_bytes", dv->gone_bytes);
        push_groups(L, "grown", dv->grown, dv->ngrown);
        push_groups(L, "gone", dv->gone, dv->ngone);
    }
    lua_pushboolean(L, false); /* both recorded by PyTorch */
    lua_setfield(L, -2, "simulated");
    lua_setfield(L, -2, "diff");
}

static int snap_push(lua_State *L, struct lt_job *j)
{
    struct snap_job *sj = (struct snap_job *)j;
    int n = snap_push_results(L, sj);
    snap_free_results(sj);
    return n;
}

static int snap_push_results(lua_State *L, struct snap_job *sj)
{
    struct lt_job *j = &sj->base;
    if (j->st == GPU_ERR_CANCELLED) {
        snap_free_results(sj);
        return luaL_error(L, "cancelled");
    }
    if (j->st != GPU_OK) {
        lua_pushnil(L);
        lua_pushstring(L, j->why);
        return 2;
    }
    const struct gpu_snap_device *d = &sj->sum.dev[sj->di];
    const struct gpu_snap_settings *set = gpu_snapshot_settings(sj->s);
    lua_createtable(L, 0, 40);
    lua_pushstring(L, sj->path);
    lua_setfield(L, -2, "path");
    lt_seti(L, "file_bytes", sj->file_bytes);
    lt_seti(L, "device", (uint64_t)d->device);
    lt_seti(L, "devices", sj->sum.ndev);
    if (set->present && set->conf) push_lstr(L, "conf", set->conf, set->conf_len);
    if (set->expandable >= 0) {
        lua_pushboolean(L, set->expandable);
        lua_setfield(L, -2, "expandable_segments");
    }
    lt_seti(L, "segments", d->nsegs);
    lt_seti(L, "reserved", d->reserved);
    lt_seti(L, "allocated", d->blocks[GPU_SNAP_ACTIVE_ALLOCATED].bytes);
    lt_seti(L, "requested", d->blocks[GPU_SNAP_ACTIVE_ALLOCATED].requested);
    lt_seti(L, "cached", d->blocks[GPU_SNAP_INACTIVE].bytes);
    lt_seti(L, "releasable", d->releasable);
    lt_seti(L, "non_releasable", d->non_releasable);
    lt_seti(L, "largest_free", d->largest_free);
    lt_seti(L, "entries", d->events);
    if (d->has_times) lt_seti(L, "duration_us", (uint64_t)(d->last_time - d->first_time));
    lt_seti(L, "start_live", (uint64_t)d->start_bytes);
    lt_seti(L, "end_live", (uint64_t)d->end_bytes);
    lt_seti(L, "peak", (uint64_t)d->peak_bytes);
    if (d->peak_event >= 0) lt_seti(L, "peak_entry", (uint64_t)d->peak_event);
    lt_seti(L, "start_reserved", (uint64_t)d->reserved_start);
    lt_seti(L, "reserved_peak", (uint64_t)d->reserved_peak);
    if (d->reserved_peak_event >= 0) lt_seti(L, "reserved_peak_entry", (uint64_t)d->reserved_peak_event);
    lua_createtable(L, (int)d->ntop, 0);
    for (size_t i = 0; i < d->ntop; i++) {
        const struct gpu_snap_group *g = &d->top[i];
        lua_createtable(L, 0, 4);
        push_lstr(L, "where", g->where, g->where_len);
        push_lstr(L, "func", g->function, g->function_len);
        lt_seti(L, "bytes", g->bytes);
        lt_seti(L, "count", g->count);
        lua_rawseti(L, -2, (lua_Integer)i + 1);
    }
    lua_setfield(L, -2, "top");
    lua_createtable(L, (int)d->nooms, 0);
    for (size_t i = 0; i < d->nooms; i++) {
        const struct gpu_snap_oom *m = &d->ooms[i];
        lua_createtable(L, 0, 6);
        lt_seti(L, "entry", m->event);
        lt_seti(L, "size", m->size);
        if (m->has_free) lt_seti(L, "device_free", m->device_free);
        lt_seti(L, "reserved", (uint64_t)m->reserved);
        lt_seti(L, "live", (uint64_t)m->live_requested);
        push_lstr(L, "where", m->where.where, m->where.where_len);
        lua_rawseti(L, -2, (lua_Integer)i + 1);
    }
    lua_setfield(L, -2, "ooms");
    lua_createtable(L, (int)sj->columns, 0);
    lua_Integer nc = 0;
    for (size_t i = 0; i < sj->columns; i++) {
        const struct gpu_snap_column *c = &sj->cols[i];
        if (c->first > c->last) continue;
        lua_createtable(L, 0, 4);
        lt_seti(L, "first", (uint64_t)c->first);
        lt_seti(L, "last", (uint64_t)c->last);
        lt_seti(L, "live", (uint64_t)c->live_max);
        lt_seti(L, "reserved", (uint64_t)c->reserved_max);
        lua_rawseti(L, -2, ++nc);
    }
    lua_setfield(L, -2, "timeline");
    lua_pushboolean(L, false); /* recorded by PyTorch; the replay below is the model's */
    lua_setfield(L, -2, "simulated");
    if (sj->has_diff) push_diff(L, sj, d->device);
    if (sj->r) {
        const struct gpu_snap_replay *r = sj->r;
        char rc[256], wc[256];
        gpu_snap_conf_text(&r->recorded_opts, rc, sizeof rc);
        gpu_snap_conf_text(&r->whatif_opts, wc, sizeof wc);
        lua_createtable(L, 0, 8);
        lt_seti(L, "capacity", r->capacity);
        push_side(L, "recorded", &r->recorded, rc, false);
        push_side(L, "model", &r->model_recorded, rc, true);
        if (r->have_whatif) push_side(L, "whatif", &r->model_whatif, wc, true);
        push_findings(L, "diffs", r->diffs, r->ndiffs);
        push_findings(L, "notes", r->notes, r->nnotes);
        lua_pushboolean(L, true);
        lua_setfield(L, -2, "simulated");
        lua_setfield(L, -2, "replay");
    }
    return 1;
}

/* The file the learner named, opened as the CLI opens one (the checks are the reader's). */
static int open_named(lua_State *L, const char *path, uint64_t *bytes)
{
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    if (fd < 0) luaL_error(L, "alloc.snapshot: %s: cannot open: %s", path, strerror(errno));
    struct stat st;
    *bytes = fstat(fd, &st) == 0 && S_ISREG(st.st_mode) ? (uint64_t)st.st_size : 0;
    return fd;
}

/* alloc.snapshot([path] [, {device=, top=, columns=, replay=CONF|true, capacity=}]) */
int lt_alloc_snapshot(lua_State *L)
{
    struct lt_vm *vm = lt_vm_of(L);
    size_t len = 0;
    const char *path = NULL, *named = lt_runtime_snapshot(vm->rt);
    int opt = 2;
    if (lua_isnoneornil(L, 1) || lua_istable(L, 1)) opt = 1;
    else path = luaL_checklstring(L, 1, &len);
    bool user = !path || (named && !strcmp(path, named));
    if (user && !named)
        luaL_error(L, "alloc.snapshot: no snapshot was named: give a shipped one's path, or name "
                      "yours with vramlab eval FILE --snapshot SNAPSHOT (or :open SNAPSHOT in the REPL)");
    if (user) path = named, len = strlen(named);
    static const char *const known[] = {"device", "top", "columns", "replay", "capacity", "diff", NULL};
    lt_opt_check(L, opt, "alloc.snapshot", true, known);
    lua_settop(L, 2);
    struct snap_job *sj = lua_newuserdatauv(L, sizeof *sj, 0); /* anchored on the stack */
    memset(sj, 0, sizeof *sj);
    sj->fd = sj->fd2 = -1;
    if (luaL_newmetatable(L, "vramlab.snapshot_job")) {
        lua_pushcfunction(L, snap_gc);
        lua_setfield(L, -2, "__gc");
        lua_pushliteral(L, "locked");
        lua_setfield(L, -2, "__metatable");
    }
    lua_setmetatable(L, -2);
    snprintf(sj->path, sizeof sj->path, "%s", path);
    sj->device = -1;
    sj->top = 5;
    sj->columns = 60;
    if (lua_istable(L, opt)) {
        lua_Integer dv = lt_opt_int(L, opt, "device", -1);
        lua_Integer tp = lt_opt_int(L, opt, "top", 5);
        lua_Integer nc = lt_opt_int(L, opt, "columns", 60);
        if (dv < -1 || dv > 1024) luaL_error(L, "alloc.snapshot: device must be a device number");
        if (tp < 0 || tp > MAX_TOP) luaL_error(L, "alloc.snapshot: top must be 0..%d", MAX_TOP);
        if (nc < 1 || nc > MAX_COLUMNS) luaL_error(L, "alloc.snapshot: columns must be 1..%d", MAX_COLUMNS);
        sj->device = (int)dv, sj->top = (size_t)tp, sj->columns = (size_t)nc;
        lt_opt_field(L, opt, "replay");
        if (lua_type(L, -1) == LUA_TSTRING) {
            size_t cl;
            const char *c = lua_tolstring(L, -1, &cl);
            if (cl >= sizeof sj->conf || strlen(c) != cl) luaL_error(L, "alloc.snapshot: replay: not a usable option text");
            memcpy(sj->conf, c, cl + 1);
            sj->has_conf = sj->replay = true;
        } else if (lua_type(L, -1) == LUA_TBOOLEAN) {
            sj->replay = lua_toboolean(L, -1);
        } else if (!lua_isnil(L, -1)) {
            luaL_error(L, "alloc.snapshot: replay must be PYTORCH_CUDA_ALLOC_CONF text or true");
        }
        lua_pop(L, 1);
        lt_opt_field(L, opt, "capacity");
        bool cap = !lua_isnil(L, -1);
        lua_pop(L, 1);
        if (cap) {
            sj->capacity = lt_alloc_opt_capacity(L, opt, 0);
            sj->replay = true;
        }
        lt_opt_field(L, opt, "diff");
        if (!lua_isnil(L, -1)) {
            size_t dl = 0;
            if (lua_type(L, -1) != LUA_TSTRING)
                luaL_error(L, "alloc.snapshot: diff must be the path of a second snapshot");
            const char *dp = lua_tolstring(L, -1, &dl);
            if (named && !strcmp(dp, named)) { /* the learner's own file, as for the first */
                sj->fd2 = open_named(L, dp, &sj->file_bytes2);
                sj->max_file2 = GPU_SNAPSHOT_MAX_FILE;
            } else {
                sj->fd2 = open_first(L, lt_runtime_assets(vm->rt), dp, dl, &sj->file_bytes2);
                sj->max_file2 = MAX_FILE;
            }
            snprintf(sj->path2, sizeof sj->path2, "%s", dp);
        }
        lua_pop(L, 1);
    }
    if (user) { /* the learner's own file: the CLI's limit, not the lesson's */
        sj->fd = open_named(L, path, &sj->file_bytes);
        sj->max_file = GPU_SNAPSHOT_MAX_FILE;
        sj->charged = (long long)sj->columns * 64 + (64 << 10);
    } else {
        sj->fd = open_first(L, lt_runtime_assets(vm->rt), path, len, &sj->file_bytes);
        sj->max_file = MAX_FILE;
        /* what reading a shipped snapshot takes in C, roughly: the parsed document (a value per
         * few bytes of pickle) while the compact model is made from it */
        sj->charged = (long long)sj->file_bytes * 8 + (long long)sj->columns * 64 + (64 << 10);
    }
    if (sj->fd2 >= 0) /* the second file, read and compared the same way */
        sj->charged += (sj->max_file2 == MAX_FILE ? (long long)sj->file_bytes2 * 8 : 0) + (64 << 10);
    lt_vm_charge(L, (long long)((sj->file_bytes + sj->file_bytes2) / 16));
    sj->vm = vm;
    if (!lt_vm_mem_add(vm, sj->charged)) {
        close(sj->fd);
        if (sj->fd2 >= 0) close(sj->fd2);
        sj->fd = sj->fd2 = -1;
        sj->charged = 0;
        return lt_vm_mem_stop(L);
    }
    sj->base.fn = snap_fn;
    sj->base.push = snap_push;
    sj->base.release = snap_release;
    return lt_job_run(L, &sj->base);
}
