/* tui_record.c - see tui_record.h. */
#include "tui_record.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tui_file.h"
#include "tui_jsonl.h"
#include "tui_plain.h"

static const char *const ev_names[] = {"print", "point", "bar", "row", "gauge",
                                       "note",  "map",   "clear", "status"};
static const char *const style_names[] = {"measured", "simulated", "theoretical", "reference"};

double tui_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* ---- writing -------------------------------------------------------------------------------- */

struct tui_rec {
    FILE *f;
    char path[1024];
    char err[512];
    int run;
    bool in_run;
    double t0;
};

static void check(struct tui_rec *r)
{
    if (r->err[0]) return;
    if (fflush(r->f) != 0 || ferror(r->f))
        snprintf(r->err, sizeof r->err, "recording to %s stopped: %s", r->path, strerror(errno));
}

static void kv_str(FILE *f, const char *k, const char *v)
{
    fprintf(f, ",\"%s\":", k);
    tui_json_str(f, v ? v : "");
}

struct tui_rec *tui_rec_open(const char *path, struct lt_runtime *rt, const char *version,
                             char *err, size_t n)
{
    struct tui_rec *r = calloc(1, sizeof *r);
    if (!r) {
        snprintf(err, n, "out of memory");
        return NULL;
    }
    snprintf(r->path, sizeof r->path, "%s", path);
    if (!(r->f = fopen(path, "w"))) {
        snprintf(err, n, "cannot record to %s: %s", path, strerror(errno));
        free(r);
        return NULL;
    }
    const struct gpu_info *i = &lt_runtime_dev(rt)->info;
    struct gpu_host_info h;
    char line[256], date[64];
    gpu_host_info(&h);
    lt_runtime_backend_line(rt, line, sizeof line);
    time_t now = time(NULL);
    struct tm tm;
    localtime_r(&now, &tm);
    strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%S%z", &tm);
    FILE *f = r->f;
    fprintf(f, "{\"type\":\"header\",\"format\":\"%s\",\"version\":%d", TUI_RECORD_FORMAT,
            TUI_RECORD_VERSION);
    kv_str(f, "vramlab", version);
    kv_str(f, "gpu", i->name);
    kv_str(f, "backend", i->backend);
    kv_str(f, "profile", i->profile);
    fprintf(f, ",\"simulated\":%s", i->simulated ? "true" : "false");
    kv_str(f, "driver", i->driver);
    kv_str(f, "memory_type", i->memory_type);
    kv_str(f, "backend_line", line);
    kv_str(f, "host_cpu", h.cpu);
    fprintf(f, ",\"host_threads\":%d", h.threads);
    kv_str(f, "date", date);
    fprintf(f, ",\"unix_time\":%lld", (long long)now);
    kv_str(f, "lang", lt_runtime_lang(rt));
    fputs("}\n", f);
    check(r);
    if (r->err[0]) {
        snprintf(err, n, "%s", r->err);
        tui_rec_close(r);
        return NULL;
    }
    return r;
}

void tui_rec_close(struct tui_rec *r)
{
    if (!r) return;
    if (r->in_run) tui_rec_end(r, LT_RUN_CANCELLED, "the session ended during the run");
    fclose(r->f);
    free(r);
}

void tui_rec_begin(struct tui_rec *r, const char *lesson, const char *experiment,
                   const char *title)
{
    if (!r || r->err[0]) return;
    if (r->in_run) tui_rec_end(r, LT_RUN_CANCELLED, "");
    r->run++;
    r->in_run = true;
    r->t0 = tui_now();
    fprintf(r->f, "{\"type\":\"run\",\"run\":%d", r->run);
    kv_str(r->f, "lesson", lesson);
    kv_str(r->f, "experiment", experiment);
    kv_str(r->f, "title", title);
    fputs("}\n", r->f);
    check(r);
}

void tui_rec_event(struct tui_rec *r, const struct lt_event *ev)
{
    if (!r || !r->in_run || r->err[0] || (unsigned)ev->type > LT_EV_STATUS) return;
    FILE *f = r->f;
    fprintf(f, "{\"type\":\"event\",\"run\":%d,\"t\":%.6f,\"ev\":\"%s\"", r->run,
            tui_now() - r->t0, ev_names[ev->type]);
    kv_str(f, "panel", ev->panel);
    kv_str(f, "series", ev->series);
    char *text = tui_event_text(ev, "\\0"); /* NUL bytes written out, and what follows them */
    kv_str(f, "text", text ? text : ev->text);
    free(text);
    kv_str(f, "unit", ev->unit);
    fputs(",\"x\":", f), tui_json_num(f, ev->x);
    fputs(",\"y\":", f), tui_json_num(f, ev->y);
    fputs(",\"value\":", f), tui_json_num(f, ev->value);
    fputs(",\"max\":", f), tui_json_num(f, ev->max);
    fprintf(f, ",\"style\":\"%s\",\"cells\":[",
            (unsigned)ev->style <= LT_REFERENCE ? style_names[ev->style] : "measured");
    for (int i = 0; i < ev->ncells && i < LT_MAX_CELLS; i++) {
        if (i) fputc(',', f);
        tui_json_str(f, ev->cells[i] ? ev->cells[i] : "");
    }
    fputs("]}\n", f);
    check(r);
}

void tui_rec_end(struct tui_rec *r, enum lt_run_state st, const char *err)
{
    static const char *const states[] = {"idle", "busy", "done", "failed", "cancelled"};
    if (!r || !r->in_run) return;
    r->in_run = false;
    if (r->err[0]) return;
    fprintf(r->f, "{\"type\":\"end\",\"run\":%d,\"t\":%.6f,\"state\":\"%s\"", r->run,
            tui_now() - r->t0, (unsigned)st <= LT_RUN_CANCELLED ? states[st] : "failed");
    kv_str(r->f, "error", err);
    fputs("}\n", r->f);
    check(r);
}

const char *tui_rec_error(const struct tui_rec *r) { return r && r->err[0] ? r->err : NULL; }

/* ---- reading -------------------------------------------------------------------------------- */

static char *dupz(const char *s) { return strdup(s ? s : ""); }

static void free_event(struct lt_event *ev)
{
    free((char *)ev->panel), free((char *)ev->series), free((char *)ev->text);
    free((char *)ev->unit);
    for (int i = 0; i < ev->ncells; i++) free((char *)ev->cells[i]);
}

static void free_run(struct tui_replay_run *run)
{
    free(run->lesson), free(run->experiment), free(run->title), free(run->state);
    free(run->error);
    for (int i = 0; i < run->nev; i++) free_event(&run->ev[i].ev);
    free(run->ev);
}

void tui_replay_free(struct tui_replay *rp)
{
    if (!rp) return;
    for (int i = 0; i < rp->nruns; i++) free_run(&rp->runs[i]);
    free(rp->runs);
    free(rp->path), free(rp->gpu), free(rp->backend), free(rp->profile), free(rp->driver);
    free(rp->memory_type), free(rp->host_cpu), free(rp->date), free(rp->version);
    free(rp->backend_line);
    free(rp);
}

static int lookup(const char *const *names, int n, const char *s)
{
    for (int i = 0; s && i < n; i++)
        if (!strcmp(names[i], s)) return i;
    return -1;
}

static struct tui_replay_run *run_of(struct tui_replay *rp, int run)
{
    for (int i = rp->nruns - 1; i >= 0; i--)
        if (rp->runs[i].run == run) return &rp->runs[i];
    return NULL;
}

/* One "event" line into its run. False: not a valid event. */
static bool add_event(struct tui_replay *rp, const struct tui_jobj *o)
{
    struct tui_replay_run *run = run_of(rp, (int)tui_jobj_num(o, "run", -1));
    int type = lookup(ev_names, 9, tui_jobj_str(o, "ev", NULL));
    int style = lookup(style_names, 4, tui_jobj_str(o, "style", "measured"));
    if (!run || type < 0 || style < 0) return false;
    if (run->nev % 64 == 0) {
        if (run->nev >= 1000000) return false;
        struct tui_replay_event *ne = realloc(run->ev, (size_t)(run->nev + 64) * sizeof *ne);
        if (!ne) return false;
        run->ev = ne;
    }
    struct tui_replay_event *e = &run->ev[run->nev];
    memset(e, 0, sizeof *e);
    e->t = tui_jobj_num(o, "t", 0);
    if (!(e->t >= 0)) e->t = 0;
    struct lt_event *ev = &e->ev;
    ev->type = (enum lt_event_type)type;
    ev->style = (enum lt_style)style;
    ev->panel = dupz(tui_jobj_str(o, "panel", ""));
    ev->series = dupz(tui_jobj_str(o, "series", ""));
    ev->text = dupz(tui_jobj_str(o, "text", ""));
    ev->unit = dupz(tui_jobj_str(o, "unit", ""));
    ev->x = tui_jobj_num(o, "x", 0);
    ev->y = tui_jobj_num(o, "y", 0);
    ev->value = tui_jobj_num(o, "value", 0);
    ev->max = tui_jobj_num(o, "max", 0);
    const struct tui_jval *cells = tui_jobj_get(o, "cells");
    if (cells && cells->type == TUI_JARR)
        for (int i = 0; i < cells->nitems && ev->ncells < LT_MAX_CELLS; i++)
            ev->cells[ev->ncells++] = dupz(cells->items[i]);
    bool ok = ev->panel && ev->series && ev->text && ev->unit;
    for (int i = 0; i < ev->ncells; i++) ok = ok && ev->cells[i];
    if (!ok) {
        free_event(ev);
        return false;
    }
    run->nev++;
    return true;
}

static bool add_run(struct tui_replay *rp, const struct tui_jobj *o)
{
    double num = tui_jobj_num(o, "run", -1);
    const char *lesson = tui_jobj_str(o, "lesson", NULL), *exp = tui_jobj_str(o, "experiment", NULL);
    if (!(num >= 1 && num < 1e9) || !lesson || !exp) return false;
    struct tui_replay_run *nr = realloc(rp->runs, (size_t)(rp->nruns + 1) * sizeof *nr);
    if (!nr) return false;
    rp->runs = nr;
    struct tui_replay_run *r = &rp->runs[rp->nruns];
    memset(r, 0, sizeof *r);
    r->run = (int)num;
    r->lesson = dupz(lesson), r->experiment = dupz(exp);
    r->title = dupz(tui_jobj_str(o, "title", exp));
    r->state = dupz("incomplete"), r->error = dupz("");
    if (!r->lesson || !r->experiment || !r->title || !r->state || !r->error) {
        free_run(r);
        return false;
    }
    rp->nruns++;
    return true;
}

static bool end_run(struct tui_replay *rp, const struct tui_jobj *o)
{
    struct tui_replay_run *run = run_of(rp, (int)tui_jobj_num(o, "run", -1));
    if (!run) return false;
    char *s = dupz(tui_jobj_str(o, "state", "done")), *e = dupz(tui_jobj_str(o, "error", ""));
    if (!s || !e) {
        free(s), free(e);
        return false;
    }
    free(run->state), free(run->error);
    run->state = s, run->error = e;
    return true;
}

static bool header(struct tui_replay *rp, const struct tui_jobj *o, char *why, size_t n)
{
    const char *fmt = tui_jobj_str(o, "format", "");
    double v = tui_jobj_num(o, "version", 0);
    if (strcmp(tui_jobj_str(o, "type", ""), "header") || strcmp(fmt, TUI_RECORD_FORMAT)) {
        snprintf(why, n, "not a vramlab recording (no header; make one with --record FILE)");
        return false;
    }
    if (v > TUI_RECORD_VERSION || !(v >= 1)) {
        snprintf(why, n, "recording format version %g; this vramlab reads version %d", v,
                 TUI_RECORD_VERSION);
        return false;
    }
    rp->gpu = dupz(tui_jobj_str(o, "gpu", "unknown GPU"));
    rp->backend = dupz(tui_jobj_str(o, "backend", ""));
    rp->profile = dupz(tui_jobj_str(o, "profile", ""));
    rp->driver = dupz(tui_jobj_str(o, "driver", ""));
    rp->memory_type = dupz(tui_jobj_str(o, "memory_type", ""));
    rp->host_cpu = dupz(tui_jobj_str(o, "host_cpu", ""));
    rp->date = dupz(tui_jobj_str(o, "date", ""));
    rp->version = dupz(tui_jobj_str(o, "vramlab", ""));
    rp->backend_line = dupz(tui_jobj_str(o, "backend_line", ""));
    rp->simulated = tui_jobj_bool(o, "simulated", false);
    if (!rp->gpu || !rp->backend || !rp->profile || !rp->driver || !rp->memory_type ||
        !rp->host_cpu || !rp->date || !rp->version || !rp->backend_line) {
        snprintf(why, n, "out of memory");
        return false;
    }
    return true;
}

struct tui_replay *tui_replay_load(const char *path, char *err, size_t n)
{
    char why[256];
    size_t len;
    char *buf = tui_file_read(path, 256u << 20, &len, why, sizeof why);
    if (!buf) {
        snprintf(err, n, "cannot replay %s", why);
        return NULL;
    }
    struct tui_replay *rp = calloc(1, sizeof *rp);
    if (!rp || !(rp->path = strdup(path))) {
        snprintf(err, n, "out of memory");
        free(buf), free(rp);
        return NULL;
    }
    int ln = 0;
    bool have_header = false;
    for (char *line = buf, *next; line < buf + len; line = next) {
        next = strchr(line, '\n');
        if (next) *next++ = 0;
        else next = line + strlen(line);
        ln++;
        if (!line[strspn(line, " \t\r")]) continue;
        struct tui_jobj o;
        if (!tui_jsonl_parse(line, &o, why, sizeof why)) {
            if (!have_header) {
                snprintf(err, n, "%s:%d: not a vramlab recording (%s)", path, ln, why);
                goto fail;
            }
            rp->bad_lines++; /* a line cut by a crash: the rest is still worth showing */
            continue;
        }
        if (!have_header) {
            have_header = header(rp, &o, why, sizeof why);
            tui_jobj_free(&o);
            if (!have_header) {
                snprintf(err, n, "%s:%d: %s", path, ln, why);
                goto fail;
            }
            continue;
        }
        const char *type = tui_jobj_str(&o, "type", "");
        bool ok = !strcmp(type, "event") ? add_event(rp, &o)
                  : !strcmp(type, "run") ? add_run(rp, &o)
                  : !strcmp(type, "end") ? end_run(rp, &o)
                                         : true; /* unknown kinds: from a newer minor version */
        if (!ok) rp->bad_lines++;
        tui_jobj_free(&o);
    }
    free(buf);
    if (!have_header) {
        snprintf(err, n, "%s: empty, not a vramlab recording", path);
        tui_replay_free(rp);
        return NULL;
    }
    return rp;
fail:
    free(buf);
    tui_replay_free(rp);
    return NULL;
}

const struct tui_replay_run *tui_replay_find(const struct tui_replay *rp, const char *lesson,
                                             const char *experiment)
{
    const struct tui_replay_run *any = NULL;
    for (int i = rp->nruns - 1; i >= 0; i--) {
        const struct tui_replay_run *r = &rp->runs[i];
        if (strcmp(r->lesson, lesson ? lesson : "") || strcmp(r->experiment, experiment ? experiment : ""))
            continue;
        if (!strcmp(r->state, "done")) return r;
        if (!any) any = r;
    }
    return any;
}

void tui_replay_machine(const struct tui_replay *rp, char *buf, size_t n)
{
    snprintf(buf, n, "%s%s", rp->gpu, rp->simulated ? " (SIMULATED)" : "");
}

void tui_replay_label(const struct tui_replay *rp, char *buf, size_t n)
{
    char m[256], date[32];
    tui_replay_machine(rp, m, sizeof m);
    /* "2025-03-01T14:05:09+0100" -> "2025-03-01 14:05" */
    snprintf(date, sizeof date, "%.16s", rp->date);
    if (strlen(date) > 10 && date[10] == 'T') date[10] = ' ';
    snprintf(buf, n, "REPLAY · %s · %s", m, *date ? date : "undated");
}

void tui_player_start(struct tui_player *p, const struct tui_replay_run *run, double now,
                      double max_seconds)
{
    double dur = run && run->nev ? run->ev[run->nev - 1].t : 0;
    p->run = run, p->next = 0, p->start = now;
    p->speed = max_seconds <= 0 ? INFINITY : dur > max_seconds ? dur / max_seconds : 1.0;
}

bool tui_player_step(struct tui_player *p, double now, lt_sink_fn fn, void *ud)
{
    if (!p->run) return true;
    double t = isinf(p->speed) ? INFINITY : (now - p->start) * p->speed;
    while (p->next < p->run->nev && p->run->ev[p->next].t <= t) {
        if (fn) fn(ud, &p->run->ev[p->next].ev);
        p->next++;
    }
    return p->next >= p->run->nev;
}
