/* tui_exam.c - an exam's sheet in the state folder and its results (tui_exam.h). */
#include "tui_exam.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "gpu_err.h"
#include "gpu_parse.h"
#include "tui_csv.h"
#include "tui_file.h"
#include "tui_json.h"
#include "tui_state.h"

#define WHEN_MAX 253402300799L /* the end of year 9999 */

/* One record of the file, any exam's, any student's. */
struct rec {
    char kind; /* 's' start, 'a' answer, 'u' submit */
    char exam[LT_ID_MAX + 1], student[LT_ID_MAX + 1], qid[2 * LT_ID_MAX + 2];
    long a, b; /* start: started, seconds; answer: when; submit: when */
    char *text;
};

struct recs {
    struct rec *r;
    int n, cap;
};

static void recs_free(struct recs *p)
{
    for (int i = 0; i < p->n; i++) free(p->r[i].text);
    free(p->r);
    memset(p, 0, sizeof *p);
}

static struct rec *add(struct recs *p)
{
    if (p->n == p->cap) {
        int nc = p->cap ? 2 * p->cap : 32;
        struct rec *nr = realloc(p->r, (size_t)nc * sizeof *nr);
        if (!nr) return NULL;
        p->r = nr, p->cap = nc;
    }
    struct rec *r = &p->r[p->n++];
    memset(r, 0, sizeof *r);
    return r;
}

bool tui_exam_qid_ok(const char *q) /* "9.1:weights-gib" */
{
    const char *c = strchr(q, ':');
    char lesson[LT_ID_MAX + 1];
    if (!c || (size_t)(c - q) > LT_ID_MAX) return false;
    snprintf(lesson, sizeof lesson, "%.*s", (int)(c - q), q);
    return tui_file_id_ok(lesson) && tui_file_id_ok(c + 1);
}

static bool num(const char *s, long lo, long hi, long *out)
{
    uint64_t v;
    char why[64];
    if (!s || !gpu_parse_u64(s, (uint64_t)lo, (uint64_t)hi, &v, why, sizeof why)) return false;
    *out = (long)v;
    return true;
}

/* "a\\b\nc" as written in the file, back to the text */
static char *unescape(const char *s)
{
    char *out = malloc(strlen(s) + 1), *o = out;
    if (!out) return NULL;
    for (; *s; s++) {
        if (*s != '\\') {
            *o++ = *s;
            continue;
        }
        s++;
        if (*s == 'n') *o++ = '\n';
        else if (*s == 'r') *o++ = '\r';
        else if (*s == '\\') *o++ = '\\';
        else {
            free(out);
            return NULL;
        }
    }
    *o = 0;
    return out;
}

static bool parse_line(struct recs *p, char *line)
{
    char *rest = line, *kind = tui_file_field(&rest), *exam = tui_file_field(&rest);
    char *student = tui_file_field(&rest);
    if (!kind || !exam || !student || !tui_file_id_ok(exam) || !tui_file_id_ok(student)) return false;
    struct rec r = {0};
    snprintf(r.exam, sizeof r.exam, "%s", exam);
    snprintf(r.student, sizeof r.student, "%s", student);
    if (!strcmp(kind, "start")) {
        r.kind = 's';
        if (!num(tui_file_field(&rest), 0, WHEN_MAX, &r.a) ||
            !num(tui_file_field(&rest), 1, 86400, &r.b) || *rest)
            return false;
    } else if (!strcmp(kind, "submit")) {
        r.kind = 'u';
        if (!num(tui_file_field(&rest), 0, WHEN_MAX, &r.a) || *rest) return false;
    } else if (!strcmp(kind, "ans")) {
        char *q = tui_file_field(&rest);
        r.kind = 'a';
        if (!q || !tui_exam_qid_ok(q) || !num(tui_file_field(&rest), 0, WHEN_MAX, &r.a)) return false;
        snprintf(r.qid, sizeof r.qid, "%s", q);
        if (!(r.text = unescape(rest))) return false;
    } else {
        return false;
    }
    struct rec *to = add(p);
    if (!to) {
        free(r.text);
        return false;
    }
    *to = r;
    return true;
}

static bool line_fn(void *ud, char *line) { return parse_line(ud, line); }

static enum tui_state_verdict parse(const char *text, size_t len, struct recs *out, char *aside,
                                    size_t naside, char *why, size_t nwhy)
{
    recs_free(out);
    if (!text) return TUI_STATE_SAME;
    enum tui_state_verdict v = tui_state_records(text, len, "vramlab-exams", TUI_EXAM_VERSION,
                                                 line_fn, out, aside, naside, why, nwhy);
    if (v != TUI_STATE_SAME) recs_free(out);
    return v;
}

static void put_escaped(FILE *f, const char *s)
{
    for (; *s; s++) {
        if (*s == '\n') fputs("\\n", f);
        else if (*s == '\r') fputs("\\r", f);
        else if (*s == '\\') fputs("\\\\", f);
        else fputc(*s, f);
    }
}

static char *serialise(const struct recs *p, size_t *len)
{
    char *text = NULL;
    FILE *f = open_memstream(&text, len);
    bool ok = f && fprintf(f, "vramlab-exams %d\n", TUI_EXAM_VERSION) > 0;
    for (int i = 0; ok && i < p->n; i++) {
        const struct rec *r = &p->r[i];
        if (r->kind == 's') ok = fprintf(f, "start %s %s %ld %ld\n", r->exam, r->student, r->a, r->b) > 0;
        else if (r->kind == 'u') ok = fprintf(f, "submit %s %s %ld\n", r->exam, r->student, r->a) > 0;
        else {
            ok = fprintf(f, "ans %s %s %s %ld ", r->exam, r->student, r->qid, r->a) > 0;
            put_escaped(f, r->text);
            ok = ok && fputc('\n', f) != EOF;
        }
    }
    if (f && fclose(f) != 0) ok = false;
    if (!ok) free(text);
    return ok ? text : NULL;
}

static struct rec *find(struct recs *p, char kind, const char *exam, const char *student, const char *qid)
{
    for (int i = 0; i < p->n; i++) {
        struct rec *r = &p->r[i];
        if (r->kind == kind && !strcmp(r->exam, exam) && !strcmp(r->student, student) &&
            (kind != 'a' || !strcmp(r->qid, qid)))
            return r;
    }
    return NULL;
}

/* The change to make, applied to the file as it is under the lock. */
struct change {
    struct tui_exam_sheet *s;
    char kind; /* 's', 'a', 'u', 0 (read only) */
    const char *qid, *text;
    long now, seconds;
    char refused[256]; /* the change is not allowed (time is up, submitted) */
    struct recs got;
};

static enum tui_state_verdict change_fn(void *ud, const char *text, size_t len, char **out,
                                        size_t *olen, char *aside, size_t naside, char *why,
                                        size_t nwhy)
{
    struct change *c = ud;
    enum tui_state_verdict v = parse(text, len, &c->got, aside, naside, why, nwhy);
    if (v == TUI_STATE_DAMAGED || !c->kind) return v;
    const char *e = c->s->exam, *st = c->s->student;
    struct rec *start = find(&c->got, 's', e, st, NULL), *sub = find(&c->got, 'u', e, st, NULL);
    if (c->kind == 's') {
        if (start) return TUI_STATE_SAME; /* the first start holds: a resumed exam keeps its clock */
    } else if (sub) {
        snprintf(c->refused, sizeof c->refused, "the exam was submitted already: nothing changes now");
        return TUI_STATE_SAME;
    } else if (c->kind == 'a' && (!start || c->now > start->a + start->b)) {
        snprintf(c->refused, sizeof c->refused, "%s", start ? "the time is up: the answer was not saved"
                                                            : "the exam has not started");
        return TUI_STATE_SAME;
    }
    struct rec *r = c->kind == 'a' ? find(&c->got, 'a', e, st, c->qid) : NULL;
    if (!r && !(r = add(&c->got))) return TUI_STATE_WRITE; /* *out NULL: out of memory */
    r->kind = c->kind;
    snprintf(r->exam, sizeof r->exam, "%s", e);
    snprintf(r->student, sizeof r->student, "%s", st);
    r->a = c->now, r->b = c->seconds;
    if (c->kind == 'a') {
        snprintf(r->qid, sizeof r->qid, "%s", c->qid);
        free(r->text);
        if (!(r->text = strdup(c->text))) return TUI_STATE_WRITE;
    }
    *out = serialise(&c->got, olen);
    return TUI_STATE_WRITE;
}

/* The sheet from the records of the file (this exam's, this student's). */
static bool take(struct tui_exam_sheet *s, struct recs *got)
{
    for (int i = 0; i < s->n; i++) free(s->a[i].text);
    free(s->a);
    s->a = NULL, s->n = 0, s->started = s->seconds = s->submitted = 0;
    int k = 0;
    for (int i = 0; i < got->n; i++) k += got->r[i].kind == 'a';
    if (k && !(s->a = calloc((size_t)k, sizeof *s->a))) return false;
    for (int i = 0; i < got->n; i++) {
        struct rec *r = &got->r[i];
        if (strcmp(r->exam, s->exam) || strcmp(r->student, s->student)) continue;
        if (r->kind == 's') s->started = r->a, s->seconds = r->b;
        else if (r->kind == 'u') s->submitted = r->a;
        else {
            struct tui_exam_ans *a = &s->a[s->n++];
            snprintf(a->qid, sizeof a->qid, "%s", r->qid);
            a->when = r->a, a->text = r->text;
            r->text = NULL;
        }
    }
    return true;
}

static bool update(struct tui_exam_sheet *s, struct change *c, char *note, size_t nn, char *err, size_t n)
{
    c->s = s;
    char keep[1400];
    bool ok = tui_state_update(s->dir, "exams", TUI_EXAM_MAX_FILE, change_fn, c, note ? note : keep,
                               note ? nn : sizeof keep, err, n);
    if (ok && !take(s, &c->got)) ok = false, gpu_errf(err, n, "out of memory");
    recs_free(&c->got);
    if (ok && c->refused[0]) ok = false, gpu_errf(err, n, "%s", c->refused);
    return ok;
}

bool tui_exam_open(struct tui_exam_sheet *s, const char *exam, const char *student, char *note,
                   size_t nn, char *err, size_t n)
{
    memset(s, 0, sizeof *s);
    if (nn) note[0] = 0;
    if (!tui_file_id_ok(exam) || !tui_file_id_ok(student)) {
        gpu_errf(err, n, "'%s' is not a name an exam keeps answers under: letters, digits, '.', "
                 "'_' and '-', at most %d", tui_file_id_ok(exam) ? student : exam, LT_ID_MAX);
        return false;
    }
    snprintf(s->exam, sizeof s->exam, "%s", exam);
    snprintf(s->student, sizeof s->student, "%s", student);
    char why[1024];
    if (!tui_state_dir(s->dir, sizeof s->dir, why, sizeof why)) {
        gpu_errf(err, n, "an exam saves every answer as it is typed, and %s", why);
        return false;
    }
    if (!tui_state_ready(s->dir, NULL, err, n)) return false;
    struct change c = {.kind = 0};
    return update(s, &c, note, nn, err, n);
}

bool tui_exam_start(struct tui_exam_sheet *s, long seconds, char *err, size_t n)
{
    struct change c = {.kind = 's', .now = (long)time(NULL), .seconds = seconds};
    return update(s, &c, NULL, 0, err, n);
}

bool tui_exam_answer(struct tui_exam_sheet *s, const char *qid, const char *text, char *err, size_t n)
{
    if (!tui_exam_qid_ok(qid)) return gpu_errf(err, n, "'%s' is not a question", qid), false;
    if (strlen(text) > TUI_EXAM_MAX_ANSWER)
        return gpu_errf(err, n, "an answer of more than %d bytes is not saved", TUI_EXAM_MAX_ANSWER), false;
    const char *saved = tui_exam_get(s, qid);
    if (saved ? !strcmp(saved, text) : !*text) return true; /* nothing new to write */
    struct change c = {.kind = 'a', .qid = qid, .text = text, .now = (long)time(NULL)};
    return update(s, &c, NULL, 0, err, n);
}

bool tui_exam_submit(struct tui_exam_sheet *s, char *err, size_t n)
{
    struct change c = {.kind = 'u', .now = (long)time(NULL)};
    return update(s, &c, NULL, 0, err, n);
}

const char *tui_exam_get(const struct tui_exam_sheet *s, const char *qid)
{
    for (int i = 0; i < s->n; i++)
        if (!strcmp(s->a[i].qid, qid)) return s->a[i].text[0] ? s->a[i].text : NULL;
    return NULL;
}

long tui_exam_left(const struct tui_exam_sheet *s, long now)
{
    return s->started ? s->started + s->seconds - now : s->seconds;
}

void tui_exam_close(struct tui_exam_sheet *s)
{
    if (!s) return;
    for (int i = 0; i < s->n; i++) free(s->a[i].text);
    free(s->a);
    memset(s, 0, sizeof *s);
}

/* ---- results -------------------------------------------------------------------------------- */

static int count(const struct tui_exam_result *r, const char *status)
{
    int k = 0;
    for (int i = 0; i < r->n; i++) k += !strcmp(r->q[i].status, status);
    return k;
}

static void write_jsonl(FILE *f, const struct tui_exam_result *r)
{
    struct tui_json j;
    tui_json_init(&j, f);
    int right = count(r, "right"), broken = count(r, "broken"), graded = r->n - broken;
    tui_json_obj(&j);
    tui_json_kstr(&j, "type", "exam");
    tui_json_kstr(&j, "format", "vramlab-exam");
    tui_json_kint(&j, "version", TUI_EXAM_VERSION);
    tui_json_kstr(&j, "vramlab", r->version);
    tui_json_kstr(&j, "exam", r->exam);
    tui_json_kstr(&j, "title", r->title[0]);
    tui_json_kstr(&j, "title_zh", r->title[1]);
    tui_json_kstr(&j, "student", r->student);
    tui_json_kint(&j, "started", r->started);
    tui_json_kint(&j, "submitted", r->submitted);
    tui_json_kint(&j, "seconds", r->seconds);
    tui_json_kbool(&j, "timed_out", r->timed_out);
    tui_json_kstr(&j, "backend", r->backend);
    tui_json_kbool(&j, "simulated", r->simulated);
    tui_json_kstr(&j, "lang", r->lang);
    tui_json_kint(&j, "questions", r->n);
    tui_json_kint(&j, "answered", r->n - count(r, "blank"));
    tui_json_kint(&j, "right", right);
    tui_json_kint(&j, "broken", broken);
    tui_json_kmaybe(&j, "score", graded ? (double)right / graded : 0, graded > 0);
    tui_json_end(&j);
    for (int i = 0; i < r->n; i++) {
        const struct tui_exam_qres *q = &r->q[i];
        tui_json_obj(&j);
        tui_json_kstr(&j, "type", "question");
        tui_json_kint(&j, "n", i + 1);
        tui_json_kstr(&j, "q", q->qid);
        tui_json_kstr(&j, "lesson", q->lesson);
        tui_json_kstr(&j, "exercise", q->exercise);
        tui_json_kstr(&j, "kind", q->kind);
        tui_json_kstr(&j, "unit", q->unit ? q->unit : "");
        tui_json_kstr(&j, "answer", q->answer);
        tui_json_kstr(&j, "status", q->status);
        tui_json_kstr(&j, "mistake", q->mistake);
        tui_json_kstr(&j, "detail", q->detail[0]);
        tui_json_kstr(&j, "detail_zh", q->detail[1]);
        tui_json_kmaybe(&j, "figure", q->figure, isfinite(q->figure));
        tui_json_kstr(&j, "figure_how", q->how);
        tui_json_end(&j);
    }
}

static void write_csv(FILE *f, const struct tui_exam_result *r)
{
    fputs("exam,student,n,question,lesson,exercise,kind,unit,answer,status,mistake,figure,figure_how,detail\n", f);
    for (int i = 0; i < r->n; i++) {
        const struct tui_exam_qres *q = &r->q[i];
        tui_csv_field(f, r->exam), fputc(',', f);
        tui_csv_field(f, r->student);
        fprintf(f, ",%d,", i + 1);
        tui_csv_field(f, q->qid), fputc(',', f);
        tui_csv_field(f, q->lesson), fputc(',', f);
        tui_csv_field(f, q->exercise), fputc(',', f);
        tui_csv_field(f, q->kind), fputc(',', f);
        tui_csv_field(f, q->unit), fputc(',', f);
        tui_csv_field(f, q->answer), fputc(',', f);
        tui_csv_field(f, q->status), fputc(',', f);
        tui_csv_field(f, q->mistake), fputc(',', f);
        tui_csv_num(f, q->figure), fputc(',', f);
        tui_csv_field(f, q->how), fputc(',', f);
        tui_csv_field(f, q->detail[0]);
        fputc('\n', f);
    }
}

static bool write_one(const char *path, const struct tui_exam_result *r, bool csv, char *err, size_t n)
{
    struct tui_state_out *o = tui_state_out_open(path, err, n);
    if (!o) return false;
    FILE *f = tui_state_out_file(o);
    if (csv) write_csv(f, r);
    else write_jsonl(f, r);
    if (ferror(f)) {
        gpu_errf(err, n, "%s: could not be written", path);
        tui_state_out_abort(o);
        return false;
    }
    return tui_state_out_commit(o, err, n);
}

/* the one place a student's results are named: DIR/EXAM-STUDENT.EXT */
static void results_path(char *out, size_t n, const char *dir, const char *exam, const char *student,
                         const char *ext)
{
    snprintf(out, n, "%s/%s-%s.%s", dir, exam, student, ext);
}

bool tui_exam_handed_in(const char *dir, const char *exam, const char *student, char *path, size_t n)
{
    struct stat st;
    results_path(path, n, dir, exam, student, "jsonl");
    return lstat(path, &st) == 0;
}

bool tui_exam_write_results(const char *dir, const struct tui_exam_result *r, char *jsonl,
                            size_t nj, char *csv, size_t nc, char *err, size_t n)
{
    if (access(dir, W_OK) != 0) {
        gpu_errf(err, n, "%s: cannot write the results there (%s)", dir, strerror(errno));
        return false;
    }
    results_path(jsonl, nj, dir, r->exam, r->student, "jsonl");
    results_path(csv, nc, dir, r->exam, r->student, "csv");
    return write_one(jsonl, r, false, err, n) && write_one(csv, r, true, err, n);
}
