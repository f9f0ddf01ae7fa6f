/* tui_results.c - see tui_results.h. Bars and gauges are reported as a panel last showed them
 * (an experiment may update a bar many times while it runs); curve points are all kept by
 * `results` and summarised as each series' peak by `compare`. */
#include "tui_results.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gpu_fmt.h"
#include "gpu_strtab.h"
#include "gpu_u64map.h"
#include "tui_csv.h"
#include "tui_json.h"
#include "tui_plain.h"
#include "tui_record.h"
#include "tui_widget.h"
#include "tui_wrap.h"

struct row {
    const struct tui_replay_run *run;
    int i;          /* the event's index in its run */
    uint32_t slot;  /* its panel in the run (gens) */
    uint32_t gen;   /* that panel's clear count when the row was made */
};

/* Rows of the runs read so far. A clear is lazy: it bumps the panel's count, and rows made
 * before it stop being live; so a clear costs O(1) however many rows the panel had. */
struct rows {
    struct row *v;
    int n, cap;
    uint32_t *gens;
    size_t ngens, gcap;
};

static bool live(const struct rows *R, int j) { return R->v[j].gen == R->gens[R->v[j].slot]; }

static void rows_free(struct rows *R)
{
    free(R->v);
    free(R->gens);
}

static const char *kind_name(enum lt_event_type t) { return lt_event_name(t); }

/* Text output is for people, in their language; CSV and JSON keep the English names above,
 * which programs match on. */
#define TR(zh, en, cn) ((zh) ? (cn) : (en))

static const char *kind_text(enum lt_event_type t, bool zh)
{
    return zh ? (t == LT_EV_BAR ? "柱" : t == LT_EV_GAUGE ? "仪表" : "曲线") : kind_name(t);
}

/* s padded with spaces to w display columns (CJK counts two). */
static void pad(FILE *f, const char *s, int w)
{
    fputs(s, f);
    for (int k = tui_width(s, strlen(s)); k < w; k++) fputc(' ', f);
}

static const char *style_text(enum lt_style s)
{
    static const char *const n[LT_STYLE_COUNT] = {"实测", "SIMULATED", "理论值", "参考值"};
    return n[(unsigned)s < LT_STYLE_COUNT ? s : 0];
}

static bool push(struct rows *R, struct row r)
{
    if (R->n == R->cap) {
        int nc = R->cap ? 2 * R->cap : 64;
        struct row *nv = realloc(R->v, (size_t)nc * sizeof *nv);
        if (!nv) return false;
        R->v = nv, R->cap = nc;
    }
    R->v[R->n++] = r;
    return true;
}

/* The rows of one run: bars and gauges by their last value, every point. Lookups are hashed on
 * the replay's interned strings, so a run costs O(events). */
static bool run_rows(struct rows *R, const struct tui_replay_run *run)
{
    struct gpu_u64map panels = {0}, bars = {0}; /* panel -> slot; (kind, panel, series) -> row */
    bool ok = true;
    for (int i = 0; i < run->nev && ok; i++) {
        struct lt_event ev;
        tui_replay_get(run, i, &ev);
        if (ev.type != LT_EV_BAR && ev.type != LT_EV_GAUGE && ev.type != LT_EV_POINT &&
            ev.type != LT_EV_CLEAR)
            continue;
        uint32_t pid = tui_replay_str_id(run->rp, ev.panel);
        uint64_t slot;
        if (!gpu_u64map_get(&panels, pid, &slot)) {
            slot = (uint64_t)R->ngens;
            size_t nc = R->gcap ? 2 * R->gcap : 64;
            uint32_t *ng = R->ngens < R->gcap ? R->gens : realloc(R->gens, nc * sizeof *ng);
            if (!ng || !gpu_u64map_put(&panels, pid, slot)) {
                ok = false;
                break;
            }
            if (ng != R->gens) R->gens = ng, R->gcap = nc;
            R->gens[R->ngens++] = 0;
        }
        if (ev.type == LT_EV_CLEAR) { /* a cleared panel forgets its bars, as on screen */
            R->gens[slot]++;
            continue;
        }
        struct row r = {run, i, (uint32_t)slot, R->gens[slot]};
        if (ev.type == LT_EV_POINT) {
            ok = push(R, r);
            continue;
        }
        uint64_t key = (uint64_t)(ev.type == LT_EV_GAUGE) << 63 | (uint64_t)pid << 32 |
                       tui_replay_str_id(run->rp, lt_tx(ev.series, false));
        uint64_t j;
        if (gpu_u64map_get(&bars, key, &j) && live(R, (int)j)) R->v[j].i = i;
        else ok = push(R, r) && gpu_u64map_put(&bars, key, (uint64_t)(R->n - 1));
    }
    gpu_u64map_free(&panels);
    gpu_u64map_free(&bars);
    return ok;
}

/* A curve point's x with its axis's unit: "1 MiB" on a bytes axis (the point's text, the panel's
 * x label), else "16,384 tokens" (a word in the lesson's one language: left out in 中文); the bare
 * number when the axis has no label. */
static void x_text(const struct lt_event *ev, bool zh, char *out, size_t n)
{
    const char *u = lt_tx(ev->text, zh);
    char num[64];
    if (zh && !tui_w_bytes_axis(u)) u = "";
    if (tui_w_bytes_axis(u) && ev->x >= 0) {
        gpu_fmt_bytes(ev->x, GPU_FMT_BIN, out, n);
        return;
    }
    gpu_fmt_num(ev->x, num, sizeof num);
    snprintf(out, n, "%s%s%s", num, *u ? " " : "", u);
}

int tui_results_cmd(const char *path, enum tui_results_format fmt, bool zh, FILE *out)
{
    char err[1024], machine[256], label[300];
    struct tui_replay *rp = tui_replay_load(path, err, sizeof err);
    if (!rp) {
        fprintf(stderr, "vramlab: %s\n", err);
        return 1;
    }
    struct rows R = {0};
    struct tui_json j;
    bool ok = true;
    tui_json_init(&j, out);
    for (int i = 0; i < rp->nruns && ok; i++) ok = run_rows(&R, &rp->runs[i]);
    if (!ok) {
        fprintf(stderr, "vramlab: out of memory\n");
        rows_free(&R);
        tui_replay_free(rp);
        return 1;
    }
    int nlive = 0;
    for (int i = 0; i < R.n; i++) nlive += live(&R, i);
    tui_replay_machine(rp, machine, sizeof machine);
    if (fmt == TUI_RES_CSV)
        fputs("machine,backend,simulated,date,lesson,experiment,run,panel,kind,label,x,x_unit,value,"
              "max,unit,style\n", out);
    if (fmt == TUI_RES_TEXT) {
        tui_replay_label(rp, label, sizeof label);
        fprintf(out, "%s: %s\n", path, label + strlen("REPLAY · "));
        const char *drv = *rp->driver ? rp->driver : "n/a";
        if (zh && !strcmp(drv, "simulator (no driver)")) drv = "模拟器（无驱动）";
        fprintf(out, TR(zh, "  backend %s%s, driver %s, host CPU %s, vramlab %s\n",
                        "  后端 %s%s，驱动 %s，主机 CPU %s，vramlab %s\n"), rp->backend,
                rp->simulated ? TR(zh, " (SIMULATED: device figures come from the simulator's model)",
                                   "（SIMULATED：设备数字来自模拟器的模型）") : "",
                drv, *rp->host_cpu ? rp->host_cpu : "n/a", *rp->version ? rp->version : "?");
        fprintf(out, TR(zh, "  %d run(s), %d result row(s)%s\n\n", "  %d 次运行，%d 行结果%s\n\n"),
                rp->nruns, nlive, rp->bad_lines ? TR(zh, " (some unreadable lines were skipped)",
                                                     "（跳过了一些读不懂的行）") : "");
        static const char *const head[][9] = {
            {"lesson", "experiment", "run", "panel", "kind", "label", "value", "unit", "style"},
            {"课程", "实验", "次", "面板", "类型", "标签", "数值", "单位", "方式"}};
        static const int hw[] = {6, 16, 3, 10, 5, 28};
        fputs("  ", out);
        for (int c = 0; c < 6; c++) pad(out, head[zh][c], hw[c]), fputc(' ', out);
        for (int k = tui_width(head[zh][6], strlen(head[zh][6])); k < 12; k++) fputc(' ', out);
        fprintf(out, "%s  ", head[zh][6]);
        pad(out, head[zh][7], 8);
        fprintf(out, " %s\n", head[zh][8]);
    }
    for (int i = 0; i < R.n; i++) {
        if (!live(&R, i)) continue;
        struct lt_event evb, *ev = &evb;
        const struct tui_replay_run *run = R.v[i].run;
        tui_replay_get(run, R.v[i].i, ev);
        double value = ev->type == LT_EV_POINT ? ev->y : ev->value;
        switch (fmt) {
        case TUI_RES_CSV:
            tui_csv_field(out, rp->gpu), fputc(',', out);
            tui_csv_field(out, rp->backend);
            fprintf(out, ",%s,", rp->simulated ? "true" : "false");
            tui_csv_field(out, rp->date), fputc(',', out);
            tui_csv_field(out, run->lesson), fputc(',', out);
            tui_csv_field(out, run->experiment);
            fprintf(out, ",%d,", run->run);
            tui_csv_field(out, ev->panel);
            fprintf(out, ",%s,", kind_name(ev->type));
            tui_csv_field(out, lt_tx(ev->series, zh)), fputc(',', out);
            if (ev->type == LT_EV_POINT) tui_csv_num(out, ev->x);
            fputc(',', out);
            if (ev->type == LT_EV_POINT) tui_csv_field(out, lt_tx(ev->text, zh));
            fputc(',', out), tui_csv_num(out, value), fputc(',', out);
            if (ev->type == LT_EV_GAUGE) tui_csv_num(out, ev->max);
            fputc(',', out), tui_csv_field(out, lt_tx(ev->unit, zh));
            fprintf(out, ",%s\n", lt_style_name(ev->style));
            break;
        case TUI_RES_JSON:
            tui_json_obj(&j);
            tui_json_kstr(&j, "machine", rp->gpu);
            tui_json_kstr(&j, "backend", rp->backend);
            tui_json_kbool(&j, "simulated", rp->simulated);
            tui_json_kstr(&j, "date", rp->date);
            tui_json_kstr(&j, "lesson", run->lesson);
            tui_json_kstr(&j, "experiment", run->experiment);
            tui_json_kint(&j, "run", run->run);
            tui_json_kstr(&j, "panel", ev->panel);
            tui_json_kstr(&j, "kind", kind_name(ev->type));
            tui_json_kstr(&j, "label", lt_tx(ev->series, zh));
            tui_json_kmaybe(&j, "x", ev->x, ev->type == LT_EV_POINT);
            if (ev->type == LT_EV_POINT && *lt_tx(ev->text, zh)) tui_json_kstr(&j, "x_unit", lt_tx(ev->text, zh));
            tui_json_knum(&j, "value", value);
            tui_json_kmaybe(&j, "max", ev->max, ev->type == LT_EV_GAUGE);
            tui_json_kstr(&j, "unit", lt_tx(ev->unit, zh));
            tui_json_kstr(&j, "style", lt_style_name(ev->style));
            tui_json_end(&j);
            break;
        case TUI_RES_TEXT: {
            char lab[128], num[64];
            if (ev->type == LT_EV_POINT) {
                char l2[200], x[96], name[128];
                x_text(ev, zh, x, sizeof x);
                /* the series is cut, never x: a number keeps its unit */
                int xw = tui_width(x, strlen(x)) + 3, nw = 28 - xw < 4 ? 4 : 28 - xw;
                const char *se = lt_tx(ev->series, zh);
                if (tui_width(se, strlen(se)) <= nw) snprintf(name, sizeof name, "%s", se);
                else tui_fit(se, strlen(se), nw, TUI_LEFT, false, name, sizeof name);
                snprintf(l2, sizeof l2, "%s @ %s", name, x);
                tui_fit(l2, strlen(l2), 28, TUI_LEFT, false, lab, sizeof lab);
            } else {
                tui_fit(lt_tx(ev->series, zh), strlen(lt_tx(ev->series, zh)), 28, TUI_LEFT, false, lab, sizeof lab);
            }
            gpu_fmt_num(value, num, sizeof num);
            fprintf(out, "  %-6s %-16s %-3d %-10s ", run->lesson, run->experiment, run->run, ev->panel);
            pad(out, kind_text(ev->type, zh), 5);
            fprintf(out, " %s %12s  %-8s %s\n", lab, num, lt_tx(ev->unit, zh), zh ? style_text(ev->style) : lt_style_name(ev->style));
            break;
        }
        }
    }
    rows_free(&R);
    tui_replay_free(rp);
    return 0;
}

/* ---- compare -------------------------------------------------------------------------------- */

#define MAXM 16     /* machines side by side */
#define MAXKEYS 50000 /* labels in one comparison: far more than a page of results */

struct ckey {
    char *lesson, *experiment, *title, *panel, *label, *unit;
    uint64_t hash;
    int next;  /* the next key with the same hash (-1: none) */
    int group; /* its lesson/experiment, in order of first appearance */
    double v[MAXM];
    int style[MAXM];
};

struct ctab {
    struct ckey *k;
    int n, cap, ngroups;
    struct gpu_u64map by_hash; /* label hash -> first key with it */
    struct gpu_u64map groups;  /* lesson/experiment hash -> first key of the group */
};

static uint64_t hash_strs(const char *const *s, int n)
{
    uint64_t h = GPU_HASH_INIT;
    for (int i = 0; i < n; i++) h = gpu_hash(h, s[i], strlen(s[i]) + 1); /* NULs separate */
    return h;
}

/* The key of (lesson, experiment, panel, label), made on first sight. NULL with why. */
static struct ckey *key_get(struct ctab *T, const struct tui_replay_run *run,
                            const struct lt_event *ev, const char *label, bool zh, const char **why)
{
    const char *parts[] = {run->lesson, run->experiment, ev->panel, label};
    uint64_t h = hash_strs(parts, 4);
    uint64_t first;
    bool have = gpu_u64map_get(&T->by_hash, h, &first);
    for (int i = have ? (int)first : -1; i >= 0; i = T->k[i].next) {
        struct ckey *k = &T->k[i];
        if (!strcmp(k->lesson, run->lesson) && !strcmp(k->experiment, run->experiment) &&
            !strcmp(k->panel, ev->panel) && !strcmp(k->label, label))
            return k;
    }
    *why = "out of memory";
    if (T->n == MAXKEYS) {
        *why = "more than 50000 results to compare (the limit)";
        return NULL;
    }
    if (T->n == T->cap) {
        int nc = T->cap ? 2 * T->cap : 32;
        struct ckey *nk = realloc(T->k, (size_t)nc * sizeof *nk);
        if (!nk) return NULL;
        T->k = nk, T->cap = nc;
    }
    uint64_t gh = hash_strs(parts, 2);
    uint64_t g0;
    int group = -1;
    bool gseen = gpu_u64map_get(&T->groups, gh, &g0);
    /* the group's first key; every key only after a hash collision */
    for (int pass = 0; gseen && pass < 2 && group < 0; pass++)
        for (int i = pass ? 0 : (int)g0; i < (pass ? T->n : (int)g0 + 1) && group < 0; i++)
            if (!strcmp(T->k[i].lesson, run->lesson) && !strcmp(T->k[i].experiment, run->experiment))
                group = T->k[i].group;
    struct ckey *k = &T->k[T->n];
    memset(k, 0, sizeof *k);
    k->lesson = strdup(run->lesson), k->experiment = strdup(run->experiment);
    k->title = strdup(run->title), k->panel = strdup(ev->panel), k->label = strdup(label);
    k->unit = strdup(lt_tx(ev->unit, zh));
    k->hash = h;
    k->next = have ? (int)first : -1;
    k->group = group >= 0 ? group : T->ngroups;
    if (!k->lesson || !k->experiment || !k->title || !k->panel || !k->label || !k->unit ||
        !gpu_u64map_put(&T->by_hash, h, (uint64_t)T->n) ||
        (!gseen && !gpu_u64map_put(&T->groups, gh, (uint64_t)T->n))) {
        free(k->lesson), free(k->experiment), free(k->title), free(k->panel), free(k->label);
        free(k->unit);
        return NULL;
    }
    if (group < 0) T->ngroups++;
    for (int m = 0; m < MAXM; m++) k->v[m] = NAN;
    T->n++;
    return k;
}

static bool add_machine(struct ctab *T, const struct tui_replay *rp, int m, bool zh, const char **why)
{
    for (int i = 0; i < rp->nruns; i++) {
        const struct tui_replay_run *run = &rp->runs[i];
        /* one run per experiment: the one a replay would show */
        if (!run->chosen) continue;
        struct rows R = {0};
        *why = "out of memory";
        if (!run_rows(&R, run)) return rows_free(&R), false;
        for (int j = 0; j < R.n; j++) {
            if (!live(&R, j)) continue;
            struct lt_event evb, *ev = &evb;
            tui_replay_get(run, R.v[j].i, ev);
            char label[300];
            if (ev->type == LT_EV_POINT)
                snprintf(label, sizeof label, TR(zh, "%s (peak)", "%s（峰值）"), lt_tx(ev->series, zh));
            else snprintf(label, sizeof label, "%s", lt_tx(ev->series, zh));
            struct ckey *k = key_get(T, run, ev, label, zh, why);
            if (!k) return rows_free(&R), false;
            double v = ev->type == LT_EV_POINT ? ev->y : ev->value;
            if (ev->type == LT_EV_POINT && isfinite(k->v[m]) && k->v[m] >= v) continue;
            k->v[m] = v, k->style[m] = (int)ev->style;
            if (!*k->unit && *lt_tx(ev->unit, zh)) {
                char *u = strdup(lt_tx(ev->unit, zh));
                if (u) free(k->unit), k->unit = u;
            }
        }
        rows_free(&R);
    }
    return true;
}

/* After a number: how it was obtained, in the words the panels use. */
static const char *style_tag(int style, bool zh)
{
    return style == LT_SIMULATED ? " SIM" : style == LT_THEORETICAL ? TR(zh, " theory", " 理论")
                                  : style == LT_REFERENCE ? TR(zh, " ref", " 参考") : "";
}

static void fit(FILE *f, const char *s, int w, enum tui_align al)
{
    char buf[512];
    tui_fit(s, strlen(s), w, al, false, buf, sizeof buf);
    fputs(buf, f);
}

int tui_compare_cmd(char **paths, int n, bool ascii, bool zh, FILE *out)
{
    char err[1024], m[256], lab[320];
    struct tui_replay *rp[MAXM] = {0};
    if (n < 1 || n > MAXM) {
        fprintf(stderr, "vramlab: compare takes 1 to %d recordings (made with --record FILE)\n", MAXM);
        return 2;
    }
    struct ctab T = {0};
    int rc = 0;
    for (int i = 0; i < n && !rc; i++) {
        const char *why;
        if (!(rp[i] = tui_replay_load(paths[i], err, sizeof err))) {
            fprintf(stderr, "vramlab: %s\n", err);
            rc = 1;
        } else if (!add_machine(&T, rp[i], i, zh, &why)) {
            fprintf(stderr, "vramlab: %s: %s\n", paths[i], why);
            rc = 1;
        }
    }
    /* keep each lesson/experiment together, in the order they first appear (a counting sort) */
    int *ord = calloc((size_t)T.n + 1, sizeof *ord), *at = calloc((size_t)T.ngroups + 1, sizeof *at);
    for (int i = 0; ord && at && i < T.n; i++) at[T.k[i].group + 1]++;
    for (int g = 0; ord && at && g < T.ngroups; g++) at[g + 1] += at[g];
    for (int i = 0; ord && at && i < T.n; i++) ord[at[T.k[i].group]++] = i;
    if (!at) free(ord), ord = NULL;
    free(at);
    if (!ord && !rc) {
        fprintf(stderr, "vramlab: out of memory\n");
        rc = 1;
    }
    if (!rc) {
        fprintf(out, TR(zh, "Comparing %d recording(s). GB/s = 1e9 B/s; SIM = simulated (the simulator's "
                            "model, not a measurement); theory = theoretical peak; ref = a reference figure.\n",
                        "比较 %d 份录制。GB/s = 1e9 B/s；SIM = 模拟（模拟器的模型，不是实测）；"
                        "理论 = 理论峰值；参考 = 参考数字。\n"), n);
        for (int i = 0; i < n; i++) {
            tui_replay_label(rp[i], lab, sizeof lab);
            fprintf(out, "  %c  %s  (%s)\n", 'A' + i, lab + strlen("REPLAY · "), paths[i]);
        }
        if (!T.n)
            fputs(TR(zh, "\nNo bar, gauge or curve results in these recordings.\n",
                     "\n这些录制里没有柱状图、仪表或曲线结果。\n"), out);
        const int lw = 30, cw = 13;
        const char *full = ascii ? "#" : "█";
        for (int i = 0; i < T.n; i++) {
            struct ckey *k = &T.k[ord[i]], *prev = i ? &T.k[ord[i - 1]] : NULL;
            if (!prev || strcmp(k->lesson, prev->lesson) || strcmp(k->experiment, prev->experiment)) {
                fprintf(out, "\n%s %s (%s)\n  ", k->lesson, k->title, k->experiment);
                fit(out, TR(zh, "label", "标签"), lw, TUI_LEFT);
                for (int j = 0; j < n; j++) {
                    snprintf(m, sizeof m, "%c", 'A' + j);
                    fputc(' ', out), fit(out, m, cw, TUI_RIGHT);
                }
                fputs(TR(zh, "  unit\n", "  单位\n"), out);
            }
            fputs("  ", out);
            fit(out, k->label, lw, TUI_LEFT);
            for (int j = 0; j < n; j++) {
                char num[64];
                char v[48];
                gpu_fmt_num(k->v[j], v, sizeof v);
                if (isfinite(k->v[j])) snprintf(num, sizeof num, "%s%s", v, style_tag(k->style[j], zh));
                else snprintf(num, sizeof num, "-");
                fputc(' ', out), fit(out, num, cw, TUI_RIGHT);
            }
            fprintf(out, "  %s\n", k->unit);
        }
        /* text bars: each label's machines on one scale */
        bool any = false;
        for (int i = 0; i < T.n; i++) {
            struct ckey *k = &T.k[ord[i]];
            double max = 0;
            int have = 0;
            for (int j = 0; j < n; j++)
                if (isfinite(k->v[j])) have++, max = fabs(k->v[j]) > max ? fabs(k->v[j]) : max;
            if (have < 2 || max <= 0) continue;
            if (!any)
                fputs(TR(zh, "\nSide by side (each label on its own scale)\n",
                         "\n并排对比（每个标签各用自己的刻度）\n"), out);
            any = true;
            fprintf(out, "  %s %s · %s%s%s%s\n", k->lesson, k->experiment, k->label,
                    *k->unit ? " [" : "", k->unit, *k->unit ? "]" : "");
            for (int j = 0; j < n; j++) {
                fprintf(out, "    %c ", 'A' + j);
                int w = isfinite(k->v[j]) ? (int)lround(fabs(k->v[j]) / max * 40) : 0;
                for (int c = 0; c < w; c++) fputs(full, out);
                for (int c = w; c < 40; c++) fputc(' ', out);
                char v[96];
                gpu_fmt_qty(k->v[j], k->unit, v, sizeof v); /* each number with its unit */
                if (isfinite(k->v[j])) fprintf(out, " %s%s\n", v, style_tag(k->style[j], zh));
                else fputs(" -\n", out);
            }
        }
    }
    free(ord);
    for (int i = 0; i < T.n; i++) {
        struct ckey *k = &T.k[i];
        free(k->lesson), free(k->experiment), free(k->title), free(k->panel), free(k->label);
        free(k->unit);
    }
    free(T.k);
    gpu_u64map_free(&T.by_hash);
    gpu_u64map_free(&T.groups);
    for (int i = 0; i < n; i++) tui_replay_free(rp[i]);
    return rc;
}
