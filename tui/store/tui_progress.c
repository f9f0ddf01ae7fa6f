/* tui_progress.c - saved progress (see tui_progress.h). File format, one record a line:
 *   vramlab-progress 1
 *   visit <lesson> <unix time>
 *   ex <lesson> <exercise> <tries> <solved 0|1> <unix time> <last answer...>
 */
#include "tui_progress.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "gpu_err.h"
#include "gpu_file.h"
#include "gpu_parse.h"
#include "gpu_utf8.h"
#include "tui_file.h"
#include "tui_state.h"

struct rec {
    bool is_ex;
    char lesson[LT_ID_MAX + 1], exercise[LT_ID_MAX + 1];
    int tries;
    bool solved;
    long when;
    char answer[96];
};

struct recs {
    struct rec *r;
    int n, cap;
};

/* What this process changed, kept until it is on disk: a save applies these to the file as it
 * is then, so another process's records in between are kept. */
enum op_kind { OP_VISIT, OP_ATTEMPT, OP_RESET };
struct op {
    enum op_kind kind;
    struct rec r; /* reset: r.lesson, or "" for everything */
};

struct tui_progress {
    char dir[1024], path[1100];
    bool no_dir; /* no private folder: nothing is kept (said once, at load) */
    bool unread; /* the file could not be read at load (the note says why) */
    struct recs now; /* the file as last read or written, with the pending operations applied */
    struct op *ops;
    int nops, capops;
};

/* the ids a record holds are the ones a file name may hold (tui_file.h): one rule, one length */
static bool valid_id(const char *s) { return tui_file_id_ok(s); }

static struct rec *add(struct recs *p)
{
    if (p->n == p->cap) {
        int nc = p->cap ? p->cap * 2 : 32;
        struct rec *nr = realloc(p->r, (size_t)nc * sizeof *nr);
        if (!nr) return NULL;
        p->r = nr, p->cap = nc;
    }
    struct rec *r = &p->r[p->n++];
    memset(r, 0, sizeof *r);
    return r;
}

/* Unix times a progress record can carry: 1970 up to the end of year 9999 (localtime and
 * strftime handle those everywhere; a larger one made localtime fail). */
#define WHEN_MAX 253402300799ull

static bool parse_line(struct recs *p, char *line)
{
    char *rest = line, *kind = tui_file_field(&rest), *lesson = tui_file_field(&rest);
    char *exercise = NULL;
    char *tries_s = NULL, *solved_s = NULL, *when_s, why[128];
    uint64_t tries = 0, solved = 0, when;
    if (!kind || !lesson || !valid_id(lesson)) return false;
    bool ex = !strcmp(kind, "ex");
    if (!ex && strcmp(kind, "visit")) return false;
    if (ex && (!(exercise = tui_file_field(&rest)) || !valid_id(exercise) ||
               !(tries_s = tui_file_field(&rest)) || !(solved_s = tui_file_field(&rest)) ||
               !gpu_parse_u64(tries_s, 0, INT_MAX, &tries, why, sizeof why) ||
               !gpu_parse_u64(solved_s, 0, 1, &solved, why, sizeof why)))
        return false;
    if (!(when_s = tui_file_field(&rest)) || !gpu_parse_u64(when_s, 0, WHEN_MAX, &when, why, sizeof why))
        return false;
    if (!ex && *rest) return false;
    struct rec *r = add(p);
    if (!r) return false;
    r->is_ex = ex;
    snprintf(r->lesson, sizeof r->lesson, "%s", lesson);
    if (ex) snprintf(r->exercise, sizeof r->exercise, "%s", exercise);
    r->tries = (int)tries, r->solved = solved, r->when = (long)when;
    if (ex) snprintf(r->answer, sizeof r->answer, "%s", rest);
    return true;
}

/* The records of a progress file's text (NULL: none yet) into out; DAMAGED with why and the
 * name to keep it aside under when it is not one this version reads. */
static bool line_fn(void *ud, char *line) { return parse_line(ud, line); }

static enum tui_state_verdict parse(const char *text, size_t len, struct recs *out, char *aside,
                                    size_t naside, char *why, size_t nwhy)
{
    out->n = 0;
    if (!text) return TUI_STATE_SAME;
    enum tui_state_verdict v = tui_state_records(text, len, "vramlab-progress", TUI_PROGRESS_VERSION,
                                                 line_fn, out, aside, naside, why, nwhy);
    if (v != TUI_STATE_SAME) out->n = 0;
    return v;
}

static char *serialise(const struct recs *p, size_t *len)
{
    char *text = NULL;
    FILE *f = open_memstream(&text, len);
    bool ok = f && fprintf(f, "vramlab-progress %d\n", TUI_PROGRESS_VERSION) > 0;
    for (int i = 0; ok && i < p->n; i++) {
        const struct rec *r = &p->r[i];
        if (r->is_ex)
            ok = fprintf(f, "ex %s %s %d %d %ld %s\n", r->lesson, r->exercise, r->tries,
                         r->solved, r->when, r->answer) > 0;
        else ok = fprintf(f, "visit %s %ld\n", r->lesson, r->when) > 0;
    }
    if (f && fclose(f) != 0) ok = false;
    if (!ok) free(text);
    return ok ? text : NULL;
}

static struct rec *find(const struct recs *p, bool is_ex, const char *lesson, const char *exercise)
{
    for (int i = 0; i < p->n; i++)
        if (p->r[i].is_ex == is_ex && !strcmp(p->r[i].lesson, lesson) &&
            (!is_ex || !strcmp(p->r[i].exercise, exercise)))
            return &p->r[i];
    return NULL;
}

/* One operation on a list of records; the records it removed (reset), or -1 out of memory. */
static int apply(struct recs *p, const struct op *o)
{
    if (o->kind == OP_RESET) {
        int kept = 0, gone = 0;
        for (int i = 0; i < p->n; i++) {
            if (!o->r.lesson[0] || !strcmp(p->r[i].lesson, o->r.lesson)) gone++;
            else p->r[kept++] = p->r[i];
        }
        p->n = kept;
        return gone;
    }
    bool ex = o->kind == OP_ATTEMPT;
    struct rec *r = find(p, ex, o->r.lesson, o->r.exercise);
    if (!r) {
        if (!(r = add(p))) return -1;
        r->is_ex = ex;
        memcpy(r->lesson, o->r.lesson, sizeof r->lesson);
        if (ex) memcpy(r->exercise, o->r.exercise, sizeof r->exercise);
    }
    r->when = o->r.when;
    if (ex) {
        if (r->tries < INT_MAX) r->tries++;
        r->solved |= o->r.solved;
        memcpy(r->answer, o->r.answer, sizeof r->answer);
    }
    return 0;
}

/* Record an operation and apply it to what this process shows. */
static int push(struct tui_progress *p, const struct op *o)
{
    if (p->nops == p->capops) {
        int nc = p->capops ? p->capops * 2 : 16;
        struct op *no = realloc(p->ops, (size_t)nc * sizeof *no);
        if (!no) return -1;
        p->ops = no, p->capops = nc;
    }
    p->ops[p->nops++] = *o;
    return apply(&p->now, o);
}

struct merge {
    struct tui_progress *p;
    struct recs got;
};

/* tui_state_update's function: the file as it is now, this process's operations on top */
static enum tui_state_verdict merge_fn(void *ud, const char *text, size_t len, char **out,
                                       size_t *olen, char *aside, size_t naside, char *why,
                                       size_t nwhy)
{
    struct merge *m = ud;
    enum tui_state_verdict v = parse(text, len, &m->got, aside, naside, why, nwhy);
    if (v == TUI_STATE_DAMAGED || !m->p) return v;
    for (int i = 0; i < m->p->nops; i++)
        if (apply(&m->got, &m->p->ops[i]) < 0) return TUI_STATE_WRITE; /* *out NULL: no memory */
    *out = serialise(&m->got, olen);
    return TUI_STATE_WRITE;
}

struct tui_progress *tui_progress_load(const char *dir, char *note, size_t n)
{
    struct tui_progress *p = calloc(1, sizeof *p);
    if (n) note[0] = 0;
    if (!p) return NULL;
    snprintf(p->dir, sizeof p->dir, "%s", dir);
    snprintf(p->path, sizeof p->path, "%s/progress", dir);
    size_t len = 0;
    bool missing = false;
    char err[1400], aside[48], why[128];
    char *text = tui_state_read(dir, "progress", TUI_PROGRESS_MAX_FILE, &len, &missing, err, sizeof err);
    if ((text || missing) && parse(text, len, &p->now, aside, sizeof aside, why, sizeof why) == TUI_STATE_SAME) {
        free(text);
        return p;
    }
    free(text);
    free(p->now.r);
    p->now = (struct recs){0};
    /* there but not usable: read again under the lock and kept aside, or a reason it cannot be */
    struct merge m = {NULL, {0}};
    if (!tui_state_update(dir, "progress", TUI_PROGRESS_MAX_FILE, merge_fn, &m, note, n, err, sizeof err)) {
        snprintf(note, n, "%s", err);
        p->unread = true;
    }
    p->now = m.got;
    return p;
}

struct tui_progress *tui_progress_open(char *note, size_t n)
{
    char dir[1024], err[512];
    if (tui_state_dir(dir, sizeof dir, err, sizeof err)) return tui_progress_load(dir, note, n);
    struct tui_progress *p = calloc(1, sizeof *p);
    if (p) p->no_dir = p->unread = true;
    snprintf(note, n, "%s", err);
    return p;
}

void tui_progress_free(struct tui_progress *p)
{
    if (!p) return;
    free(p->now.r);
    free(p->ops);
    free(p);
}

bool tui_progress_save(struct tui_progress *p, char *err, size_t n)
{
    if (p->no_dir || !p->nops) return true;
    struct merge m = {p, {0}};
    char note[1400];
    bool ok = tui_state_update(p->dir, "progress", TUI_PROGRESS_MAX_FILE, merge_fn, &m,
                               note, sizeof note, err, n);
    if (ok) { /* what is on disk now, everyone's records, is what this process shows */
        free(p->now.r);
        p->now = m.got;
        p->nops = 0;
    } else {
        free(m.got.r);
    }
    return ok;
}

void tui_progress_visit(struct tui_progress *p, const char *lesson)
{
    if (!valid_id(lesson)) return;
    struct op o = {OP_VISIT, {.when = (long)time(NULL)}};
    snprintf(o.r.lesson, sizeof o.r.lesson, "%s", lesson);
    push(p, &o);
}

/* The last answer on one line of the file: line breaks and tabs as \n, \r, \t; when it does
 * not fit, cut at a character boundary and marked with "…" (a code answer is shown, not kept). */
static void keep_answer(char *out, size_t n, const char *a)
{
    static const char mark[] = "\xe2\x80\xa6";
    size_t full = 0, o = 0;
    for (const char *c = a; *c; c++) full += strchr("\n\r\t", *c) ? 2 : 1;
    size_t limit = full < n ? n - 1 : n - sizeof mark;
    const char *c = a;
    for (; *c; c++) {
        char esc = *c == '\n' ? 'n' : *c == '\r' ? 'r' : *c == '\t' ? 't' : 0;
        if (o + (esc ? 2 : 1) > limit) break;
        if (esc) out[o++] = '\\', out[o++] = esc;
        else out[o++] = *c;
    }
    if (*c) { /* cut: drop a character's first bytes (never escaped: o and c step alike), mark it */
        o -= (size_t)(c - a) - gpu_utf8_cut(a, (size_t)(c - a));
        memcpy(out + o, mark, sizeof mark);
        return;
    }
    out[o] = 0;
}

void tui_progress_attempt(struct tui_progress *p, const char *lesson, const char *exercise,
                          bool solved, const char *answer)
{
    if (!valid_id(lesson) || !valid_id(exercise)) return;
    struct op o = {OP_ATTEMPT, {.is_ex = true, .solved = solved, .when = (long)time(NULL)}};
    snprintf(o.r.lesson, sizeof o.r.lesson, "%s", lesson);
    snprintf(o.r.exercise, sizeof o.r.exercise, "%s", exercise);
    keep_answer(o.r.answer, sizeof o.r.answer, answer ? answer : "");
    push(p, &o);
}

bool tui_progress_visited(const struct tui_progress *p, const char *lesson)
{
    return find(&p->now, false, lesson, NULL) != NULL;
}

int tui_progress_solved(const struct tui_progress *p, const char *lesson)
{
    int k = 0;
    for (int i = 0; i < p->now.n; i++) k += p->now.r[i].is_ex && p->now.r[i].solved && !strcmp(p->now.r[i].lesson, lesson);
    return k;
}

int tui_progress_attempted(const struct tui_progress *p, const char *lesson)
{
    int k = 0;
    for (int i = 0; i < p->now.n; i++) k += p->now.r[i].is_ex && !strcmp(p->now.r[i].lesson, lesson);
    return k;
}

bool tui_progress_exercise_solved(const struct tui_progress *p, const char *lesson,
                                  const char *exercise)
{
    const struct rec *r = find(&p->now, true, lesson, exercise);
    return r && r->solved;
}

int tui_progress_reset(struct tui_progress *p, const char *lesson)
{
    struct op o = {OP_RESET, {0}};
    if (lesson && !valid_id(lesson)) return 0;
    snprintf(o.r.lesson, sizeof o.r.lesson, "%s", lesson ? lesson : "");
    return push(p, &o);
}

int tui_progress_count(const struct tui_progress *p) { return p->now.n; }

bool tui_progress_get(const struct tui_progress *p, int i, struct tui_progress_rec *out)
{
    if (i < 0 || i >= p->now.n) return false;
    const struct rec *r = &p->now.r[i];
    *out = (struct tui_progress_rec){r->is_ex, r->lesson, r->exercise, r->tries, r->solved,
                                     r->when, r->answer};
    return true;
}

const char *tui_progress_path(const struct tui_progress *p) { return p->path; }

bool tui_progress_read(const struct tui_progress *p) { return !p->unread; }
