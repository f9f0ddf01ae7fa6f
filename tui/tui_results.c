/* tui_results.c - see tui_results.h. Bars and gauges are reported as a panel last showed them
 * (an experiment may update a bar many times while it runs); curve points are all kept by
 * `results` and summarised as each series' peak by `compare`. */
#include "tui_results.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tui_jsonl.h"
#include "tui_plain.h"
#include "tui_record.h"
#include "tui_wrap.h"

struct row {
    const struct tui_replay_run *run;
    const struct lt_event *ev;
};

struct rows {
    struct row *v;
    int n, cap;
};

static const char *kind_name(enum lt_event_type t)
{
    return t == LT_EV_BAR ? "bar" : t == LT_EV_GAUGE ? "gauge" : "point";
}

static const char *style_name(enum lt_style s)
{
    static const char *const n[] = {"measured", "simulated", "theoretical", "reference"};
    return (unsigned)s <= LT_REFERENCE ? n[s] : "measured";
}

static bool push(struct rows *R, const struct tui_replay_run *run, const struct lt_event *ev)
{
    if (R->n == R->cap) {
        int nc = R->cap ? 2 * R->cap : 64;
        struct row *nv = realloc(R->v, (size_t)nc * sizeof *nv);
        if (!nv) return false;
        R->v = nv, R->cap = nc;
    }
    R->v[R->n++] = (struct row){run, ev};
    return true;
}

/* The rows of one run: bars and gauges by their last value, every point. */
static bool run_rows(struct rows *R, const struct tui_replay_run *run)
{
    int first = R->n;
    for (int i = 0; i < run->nev; i++) {
        const struct lt_event *ev = &run->ev[i].ev;
        if (ev->type == LT_EV_CLEAR) { /* a cleared panel forgets its bars, as on screen */
            int k = first;
            for (int j = first; j < R->n; j++)
                if (strcmp(R->v[j].ev->panel, ev->panel)) R->v[k++] = R->v[j];
            R->n = k;
            continue;
        }
        if (ev->type != LT_EV_BAR && ev->type != LT_EV_GAUGE && ev->type != LT_EV_POINT) continue;
        bool replaced = false;
        for (int j = first; ev->type != LT_EV_POINT && j < R->n && !replaced; j++)
            if (R->v[j].ev->type == ev->type && !strcmp(R->v[j].ev->panel, ev->panel) &&
                !strcmp(R->v[j].ev->series, ev->series))
                R->v[j].ev = ev, replaced = true;
        if (!replaced && !push(R, run, ev)) return false;
    }
    return true;
}

static void csv_field(FILE *f, const char *s)
{
    if (!strpbrk(s, ",\"\n\r")) {
        fputs(s, f);
        return;
    }
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"') fputc('"', f);
        fputc(*s, f);
    }
    fputc('"', f);
}

static void csv_num(FILE *f, double v)
{
    if (isfinite(v)) fprintf(f, "%.17g", v);
}

int tui_results_cmd(const char *path, enum tui_results_format fmt, FILE *out)
{
    char err[1024], machine[256], label[300];
    struct tui_replay *rp = tui_replay_load(path, err, sizeof err);
    if (!rp) {
        fprintf(stderr, "vramlab: %s\n", err);
        return 1;
    }
    struct rows R = {0};
    bool ok = true;
    for (int i = 0; i < rp->nruns && ok; i++) ok = run_rows(&R, &rp->runs[i]);
    if (!ok) {
        fprintf(stderr, "vramlab: out of memory\n");
        free(R.v);
        tui_replay_free(rp);
        return 1;
    }
    tui_replay_machine(rp, machine, sizeof machine);
    if (fmt == TUI_RES_CSV)
        fputs("machine,backend,simulated,date,lesson,experiment,run,panel,kind,label,x,value,max,"
              "unit,style\n", out);
    if (fmt == TUI_RES_TEXT) {
        tui_replay_label(rp, label, sizeof label);
        fprintf(out, "%s: %s\n", path, label + strlen("REPLAY · "));
        fprintf(out, "  backend %s%s, driver %s, host CPU %s, vramlab %s\n", rp->backend,
                rp->simulated ? " (SIMULATED: device figures come from the simulator's model)" : "",
                *rp->driver ? rp->driver : "n/a", *rp->host_cpu ? rp->host_cpu : "n/a",
                *rp->version ? rp->version : "?");
        fprintf(out, "  %d run(s), %d result row(s)%s\n\n", rp->nruns, R.n,
                rp->bad_lines ? " (some unreadable lines were skipped)" : "");
        fprintf(out, "  %-6s %-16s %-3s %-10s %-5s %-28s %12s  %-8s %s\n", "lesson", "experiment",
                "run", "panel", "kind", "label", "value", "unit", "style");
    }
    for (int i = 0; i < R.n; i++) {
        const struct lt_event *ev = R.v[i].ev;
        const struct tui_replay_run *run = R.v[i].run;
        double value = ev->type == LT_EV_POINT ? ev->y : ev->value;
        switch (fmt) {
        case TUI_RES_CSV:
            csv_field(out, rp->gpu), fputc(',', out);
            csv_field(out, rp->backend);
            fprintf(out, ",%s,", rp->simulated ? "true" : "false");
            csv_field(out, rp->date), fputc(',', out);
            csv_field(out, run->lesson), fputc(',', out);
            csv_field(out, run->experiment);
            fprintf(out, ",%d,", run->run);
            csv_field(out, ev->panel);
            fprintf(out, ",%s,", kind_name(ev->type));
            csv_field(out, ev->series), fputc(',', out);
            if (ev->type == LT_EV_POINT) csv_num(out, ev->x);
            fputc(',', out), csv_num(out, value), fputc(',', out);
            if (ev->type == LT_EV_GAUGE) csv_num(out, ev->max);
            fputc(',', out), csv_field(out, ev->unit);
            fprintf(out, ",%s\n", style_name(ev->style));
            break;
        case TUI_RES_JSON:
            fputs("{\"machine\":", out), tui_json_str(out, rp->gpu);
            fputs(",\"backend\":", out), tui_json_str(out, rp->backend);
            fprintf(out, ",\"simulated\":%s,\"date\":", rp->simulated ? "true" : "false");
            tui_json_str(out, rp->date);
            fputs(",\"lesson\":", out), tui_json_str(out, run->lesson);
            fputs(",\"experiment\":", out), tui_json_str(out, run->experiment);
            fprintf(out, ",\"run\":%d,\"panel\":", run->run);
            tui_json_str(out, ev->panel);
            fprintf(out, ",\"kind\":\"%s\",\"label\":", kind_name(ev->type));
            tui_json_str(out, ev->series);
            fputs(",\"x\":", out);
            if (ev->type == LT_EV_POINT) tui_json_num(out, ev->x);
            else fputs("null", out);
            fputs(",\"value\":", out), tui_json_num(out, value);
            fputs(",\"max\":", out);
            if (ev->type == LT_EV_GAUGE) tui_json_num(out, ev->max);
            else fputs("null", out);
            fputs(",\"unit\":", out), tui_json_str(out, ev->unit);
            fprintf(out, ",\"style\":\"%s\"}\n", style_name(ev->style));
            break;
        case TUI_RES_TEXT: {
            char lab[128], num[64];
            if (ev->type == LT_EV_POINT) {
                char l2[160];
                snprintf(l2, sizeof l2, "%s @ %.4g", ev->series, ev->x);
                tui_fit(l2, strlen(l2), 28, TUI_LEFT, false, lab, sizeof lab);
            } else {
                tui_fit(ev->series, strlen(ev->series), 28, TUI_LEFT, false, lab, sizeof lab);
            }
            snprintf(num, sizeof num, "%.4g", value);
            fprintf(out, "  %-6s %-16s %-3d %-10s %-5s %s %12s  %-8s %s\n", run->lesson,
                    run->experiment, run->run, ev->panel, kind_name(ev->type), lab, num,
                    ev->unit, style_name(ev->style));
            break;
        }
        }
    }
    free(R.v);
    tui_replay_free(rp);
    return 0;
}

/* ---- compare -------------------------------------------------------------------------------- */

#define MAXM 16 /* machines side by side */

struct ckey {
    char *lesson, *experiment, *title, *panel, *label, *unit;
    double v[MAXM];
    int style[MAXM];
};

struct ctab {
    struct ckey *k;
    int n, cap;
};

static struct ckey *key_get(struct ctab *T, const struct tui_replay_run *run,
                            const struct lt_event *ev, const char *label)
{
    for (int i = 0; i < T->n; i++) {
        struct ckey *k = &T->k[i];
        if (!strcmp(k->lesson, run->lesson) && !strcmp(k->experiment, run->experiment) &&
            !strcmp(k->panel, ev->panel) && !strcmp(k->label, label))
            return k;
    }
    if (T->n == T->cap) {
        int nc = T->cap ? 2 * T->cap : 32;
        struct ckey *nk = realloc(T->k, (size_t)nc * sizeof *nk);
        if (!nk) return NULL;
        T->k = nk, T->cap = nc;
    }
    struct ckey *k = &T->k[T->n];
    memset(k, 0, sizeof *k);
    k->lesson = strdup(run->lesson), k->experiment = strdup(run->experiment);
    k->title = strdup(run->title), k->panel = strdup(ev->panel), k->label = strdup(label);
    k->unit = strdup(ev->unit);
    if (!k->lesson || !k->experiment || !k->title || !k->panel || !k->label || !k->unit) {
        free(k->lesson), free(k->experiment), free(k->title), free(k->panel), free(k->label);
        free(k->unit);
        return NULL;
    }
    for (int m = 0; m < MAXM; m++) k->v[m] = NAN;
    T->n++;
    return k;
}

static bool add_machine(struct ctab *T, const struct tui_replay *rp, int m)
{
    for (int i = 0; i < rp->nruns; i++) {
        const struct tui_replay_run *run = &rp->runs[i];
        /* one run per experiment: the one a replay would show */
        if (tui_replay_find(rp, run->lesson, run->experiment) != run) continue;
        struct rows R = {0};
        if (!run_rows(&R, run)) return free(R.v), false;
        for (int j = 0; j < R.n; j++) {
            const struct lt_event *ev = R.v[j].ev;
            char label[300];
            if (ev->type == LT_EV_POINT) snprintf(label, sizeof label, "%s (peak)", ev->series);
            else snprintf(label, sizeof label, "%s", ev->series);
            struct ckey *k = key_get(T, run, ev, label);
            if (!k) return free(R.v), false;
            double v = ev->type == LT_EV_POINT ? ev->y : ev->value;
            if (ev->type == LT_EV_POINT && isfinite(k->v[m]) && k->v[m] >= v) continue;
            k->v[m] = v, k->style[m] = (int)ev->style;
            if (!*k->unit && *ev->unit) {
                char *u = strdup(ev->unit);
                if (u) free(k->unit), k->unit = u;
            }
        }
        free(R.v);
    }
    return true;
}

/* After a number: how it was obtained, in the words the panels use. */
static const char *style_tag(int style)
{
    return style == LT_SIMULATED ? " SIM" : style == LT_THEORETICAL ? " theory"
                                  : style == LT_REFERENCE ? " ref" : "";
}

static void fit(FILE *f, const char *s, int w, enum tui_align al)
{
    char buf[512];
    tui_fit(s, strlen(s), w, al, false, buf, sizeof buf);
    fputs(buf, f);
}

int tui_compare_cmd(char **paths, int n, bool ascii, FILE *out)
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
        if (!(rp[i] = tui_replay_load(paths[i], err, sizeof err))) {
            fprintf(stderr, "vramlab: %s\n", err);
            rc = 1;
        } else if (!add_machine(&T, rp[i], i)) {
            fprintf(stderr, "vramlab: out of memory\n");
            rc = 1;
        }
    }
    /* keep each lesson/experiment together, in the order they first appear */
    int *ord = calloc((size_t)T.n + 1, sizeof *ord), no = 0;
    for (int i = 0; ord && i < T.n; i++) {
        bool seen = false;
        for (int j = 0; j < i && !seen; j++)
            seen = !strcmp(T.k[j].lesson, T.k[i].lesson) && !strcmp(T.k[j].experiment, T.k[i].experiment);
        for (int j = i; !seen && j < T.n; j++)
            if (!strcmp(T.k[j].lesson, T.k[i].lesson) && !strcmp(T.k[j].experiment, T.k[i].experiment))
                ord[no++] = j;
    }
    if (!ord && !rc) {
        fprintf(stderr, "vramlab: out of memory\n");
        rc = 1;
    }
    if (!rc) {
        fprintf(out, "Comparing %d recording(s). GB/s = 1e9 B/s; SIM = simulated (the simulator's "
                "model, not a measurement); theory = theoretical peak; ref = a reference figure.\n", n);
        for (int i = 0; i < n; i++) {
            tui_replay_label(rp[i], lab, sizeof lab);
            fprintf(out, "  %c  %s  (%s)\n", 'A' + i, lab + strlen("REPLAY · "), paths[i]);
        }
        if (!T.n) fprintf(out, "\nNo bar, gauge or curve results in these recordings.\n");
        const int lw = 30, cw = 13;
        const char *full = ascii ? "#" : "█";
        for (int i = 0; i < T.n; i++) {
            struct ckey *k = &T.k[ord[i]], *prev = i ? &T.k[ord[i - 1]] : NULL;
            if (!prev || strcmp(k->lesson, prev->lesson) || strcmp(k->experiment, prev->experiment)) {
                fprintf(out, "\n%s %s (%s)\n  ", k->lesson, k->title, k->experiment);
                fit(out, "label", lw, TUI_LEFT);
                for (int j = 0; j < n; j++) {
                    snprintf(m, sizeof m, "%c", 'A' + j);
                    fputc(' ', out), fit(out, m, cw, TUI_RIGHT);
                }
                fputs("  unit\n", out);
            }
            fputs("  ", out);
            fit(out, k->label, lw, TUI_LEFT);
            for (int j = 0; j < n; j++) {
                char num[64];
                if (isfinite(k->v[j])) snprintf(num, sizeof num, "%.4g%s", k->v[j], style_tag(k->style[j]));
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
            if (!any) fputs("\nSide by side (each label on its own scale)\n", out);
            any = true;
            fprintf(out, "  %s %s · %s%s%s%s\n", k->lesson, k->experiment, k->label,
                    *k->unit ? " [" : "", k->unit, *k->unit ? "]" : "");
            for (int j = 0; j < n; j++) {
                fprintf(out, "    %c ", 'A' + j);
                int w = isfinite(k->v[j]) ? (int)lround(fabs(k->v[j]) / max * 40) : 0;
                for (int c = 0; c < w; c++) fputs(full, out);
                for (int c = w; c < 40; c++) fputc(' ', out);
                if (isfinite(k->v[j])) fprintf(out, " %.4g%s\n", k->v[j], style_tag(k->style[j]));
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
    for (int i = 0; i < n; i++) tui_replay_free(rp[i]);
    return rc;
}
