/* lt_exam.c - an exam's questions read and resolved against the course (lt_exam.h). */
#include "lt_exam.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu_err.h"
#include "gpu_file.h"
#include "gpu_strtab.h"
#include "gpu_suggest.h"
#include "lt_data.h"

#define EXAM_MAX_FILE (1u << 20)
#define EXAM_MAX_QUESTIONS 500

static bool id_ok(const char *s) /* an exercise id: a word of letters, digits, _ and - */
{
    size_t n = strlen(s);
    return n > 0 && n <= LT_ID_MAX &&
           strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-") == n;
}

static bool section_ok(const char *s)
{
    size_t a = strspn(s, "0123456789");
    return a > 0 && s[a] == '.' && s[a + 1] && strspn(s + a + 1, "0123456789") == strlen(s + a + 1) &&
           strlen(s) <= LT_ID_MAX;
}

/* One question as written, "9.1:weights-gib" or "9.1" (exercise ""), added to e. */
static bool add(struct lt_exam *e, const char *text, int line, char *why, size_t n)
{
    char lesson[LT_ID_MAX + 8] = "", exercise[LT_ID_MAX + 8] = "";
    const char *colon = strchr(text, ':');
    size_t ll = colon ? (size_t)(colon - text) : strlen(text);
    if (ll >= sizeof lesson || (colon && strlen(colon + 1) >= sizeof exercise)) ll = sizeof lesson;
    if (ll < sizeof lesson) {
        memcpy(lesson, text, ll);
        if (colon) snprintf(exercise, sizeof exercise, "%s", colon + 1);
    }
    if (!section_ok(lesson) || (colon && !id_ok(exercise))) {
        gpu_errf(why, n, "'%s' is not a question: write \"SECTION:EXERCISE\" (\"9.1:weights-gib\") "
                 "or a section (\"9.2\": each of its exercises)", text);
        return false;
    }
    if (e->n == EXAM_MAX_QUESTIONS) {
        gpu_errf(why, n, "more than %d questions", EXAM_MAX_QUESTIONS);
        return false;
    }
    struct lt_exam_q *nq = realloc(e->q, (size_t)(e->n + 1) * sizeof *nq);
    if (!nq) return gpu_errf(why, n, "out of memory"), false;
    e->q = nq;
    struct lt_exam_q *q = &e->q[e->n++];
    memset(q, 0, sizeof *q);
    snprintf(q->lesson, sizeof q->lesson, "%s", lesson);
    snprintf(q->exercise, sizeof q->exercise, "%s", exercise);
    q->line = line, q->block = -1;
    return true;
}

int lt_exam_read_file(const char *path, struct lt_exam *e, char *err, size_t n)
{
    char why[512];
    memset(e, 0, sizeof *e);
    e->answer_seconds = LT_EXAM_ANSWER_SECONDS;
    snprintf(e->path, sizeof e->path, "%s", path);
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    size_t bl = strlen(base);
    if (bl > 9 && !strcmp(base + bl - 9, ".exam.lua")) bl -= 9;
    else if (bl > 4 && !strcmp(base + bl - 4, ".lua")) bl -= 4;
    snprintf(e->id, sizeof e->id, "%.*s", (int)(bl < sizeof e->id ? bl : 0), base);
    if (!id_ok(e->id)) {
        gpu_errf(err, n, "%s:1: an exam's file name makes its id (quiz1.exam.lua: quiz1): letters, "
                 "digits, _ and -, at most %d", path, LT_ID_MAX);
        return -1;
    }
    struct lt_data d;
    if (!lt_data_read_file(path, EXAM_MAX_FILE, &d, err, n)) return -1;
    bool ok = true;
    static const char *const fields[] = {"title", "minutes", "questions", "shuffle", "show", "answer_seconds", NULL};
    int at = d.line;
    for (int i = 0; ok && i < d.n; i++) {
        const struct lt_data *f = &d.items[i];
        int k = 0;
        while (f->key && fields[k] && strcmp(fields[k], f->key)) k++;
        if (!f->key || !fields[k]) {
            snprintf(why, sizeof why, "%s%s%s (an exam has title, minutes, questions, shuffle, show and answer_seconds)",
                     f->key ? "unknown field '" : "a value without a name", f->key ? f->key : "",
                     f->key ? "'" : "");
            at = f->line, ok = false;
        }
    }
    const struct lt_data *t = lt_data_field(&d, "title");
    for (int l = 0; ok && l < 2; l++) {
        const char *s = t ? lt_data_lang(t, l) : NULL;
        if (!s || !*s) {
            snprintf(why, sizeof why, "title must be { en = \"...\", zh = \"...\" }, both languages");
            at = t ? t->line : d.line, ok = false;
        } else if (!(e->title[l] = strdup(s))) {
            snprintf(why, sizeof why, "out of memory"), ok = false;
        }
    }
    const struct lt_data *m = lt_data_field(&d, "minutes");
    if (ok && (!m || m->kind != LT_DATA_NUMBER || !(m->num >= 1 && m->num <= 600))) {
        snprintf(why, sizeof why, "minutes must be the time limit, 1 to 600 minutes (minutes = 20)");
        at = m ? m->line : d.line, ok = false;
    }
    if (ok) e->minutes = m->num;
    const struct lt_data *as = lt_data_field(&d, "answer_seconds");
    if (ok && as && (as->kind != LT_DATA_NUMBER || !(as->num >= 1 && as->num <= LT_EXAM_ANSWER_SECONDS_MAX))) {
        snprintf(why, sizeof why, "answer_seconds must be how long one answer's grading may take, 1 to %d s",
                 LT_EXAM_ANSWER_SECONDS_MAX);
        at = as->line, ok = false;
    }
    if (ok && as) e->answer_seconds = as->num;
    const struct lt_data *qs = lt_data_field(&d, "questions");
    int k = qs ? lt_data_nitems(qs) : 0;
    if (ok && (!qs || qs->kind != LT_DATA_TABLE || !k || k != qs->n)) {
        snprintf(why, sizeof why, "questions must list them: questions = { \"9.1:weights-gib\", \"9.2\" }");
        at = qs ? qs->line : d.line, ok = false;
    }
    for (int i = 0; ok && i < k; i++) {
        const struct lt_data *v = lt_data_item(qs, i);
        at = v->line;
        if (v->kind != LT_DATA_STRING) {
            snprintf(why, sizeof why, "question %d must be a string such as \"9.1:weights-gib\"", i + 1);
            ok = false;
        } else {
            ok = add(e, v->str, v->line, why, sizeof why);
        }
    }
    const struct lt_data *sh = lt_data_field(&d, "shuffle");
    if (ok && sh && sh->kind != LT_DATA_BOOL) {
        snprintf(why, sizeof why, "shuffle must be true or false");
        at = sh->line, ok = false;
    }
    if (ok && sh) e->shuffle = sh->b;
    const struct lt_data *show = lt_data_field(&d, "show");
    if (ok && show) {
        at = show->line;
        if (show->kind == LT_DATA_STRING && !strcmp(show->str, "score")) e->show = LT_EXAM_SHOW_SCORE;
        else if (show->kind == LT_DATA_STRING && !strcmp(show->str, "answers")) e->show = LT_EXAM_SHOW_ANSWERS;
        else if (show->kind == LT_DATA_STRING && !strcmp(show->str, "nothing")) e->show = LT_EXAM_SHOW_NOTHING;
        else snprintf(why, sizeof why, "show must be \"score\", \"answers\" or \"nothing\""), ok = false;
    }
    lt_data_free(&d);
    if (ok) return 1;
    gpu_errf(err, n, "%s:%d: %s", path, at, why);
    char keep[sizeof e->path];
    memcpy(keep, e->path, sizeof keep);
    lt_exam_free(e);
    memcpy(e->path, keep, sizeof keep);
    return -1;
}

bool lt_exam_from_list(const char *list, struct lt_exam *e, char *err, size_t n)
{
    memset(e, 0, sizeof *e);
    bool course = !strcmp(list, "course");
    snprintf(e->id, sizeof e->id, "%s", course ? "course" : "list");
    e->minutes = 30;
    e->answer_seconds = LT_EXAM_ANSWER_SECONDS;
    e->title[0] = strdup(course ? "Every exercise of the course" : "Exam");
    e->title[1] = strdup(course ? "本课程的全部练习" : "测验");
    if (!e->title[0] || !e->title[1]) return gpu_errf(err, n, "out of memory"), false;
    if (course) return true; /* filled by lt_exam_resolve, from the catalog */
    char one[2 * LT_ID_MAX + 16];
    for (const char *p = list; *p;) {
        size_t l = strcspn(p, ",");
        if (l >= sizeof one) l = sizeof one - 1;
        snprintf(one, sizeof one, "%.*s", (int)l, p);
        if (!add(e, one, 0, err, n)) return false;
        p += strcspn(p, ",");
        if (*p) p++;
    }
    if (!e->n) return gpu_errf(err, n, "no questions in '%s'", list), false;
    return true;
}

/* "file:line: " for a question, or "" when it came from a list */
static void where(const struct lt_exam *e, int line, char *out, size_t n)
{
    if (e->path[0]) snprintf(out, n, "%s:%d: ", e->path, line);
    else snprintf(out, n, "exam: ");
}

int lt_exam_resolve(struct lt_runtime *rt, const char *folders, struct lt_exam *e,
                    void (*report)(void *ud, const char *msg), void *ud)
{
    struct lt_catalog_entry *cat;
    int ncat = lt_catalog_scan(rt, folders, &cat), bad = 0;
    char msg[4800], at[4300];
    if (!strcmp(e->id, "course") && !e->path[0] && !e->n) /* every exercise of the course */
        for (int i = 0; i < ncat; i++)
            if (!cat[i].error) {
                char one[LT_ID_MAX + 1];
                snprintf(one, sizeof one, "%s", cat[i].id);
                add(e, one, 0, msg, sizeof msg);
            }
    struct lt_exam_q *out = calloc((size_t)EXAM_MAX_QUESTIONS * 2, sizeof *out);
    int nout = 0;
    if (!out) {
        report(ud, "out of memory");
        lt_catalog_free(cat, ncat);
        return 1;
    }
    for (int i = 0; i < e->n; i++) {
        struct lt_exam_q *q = &e->q[i];
        where(e, q->line, at, sizeof at);
        int k = 0;
        while (k < ncat && (cat[k].error || strcmp(cat[k].id, q->lesson))) k++;
        if (k == ncat) {
            struct gpu_suggest sg; /* 1.11: did you mean 1.1? */
            char mean[LT_ID_MAX + 32] = "";
            gpu_suggest_init(&sg, q->lesson);
            for (int c = 0; c < ncat; c++)
                if (!cat[c].error) gpu_suggest_add(&sg, cat[c].id);
            if (sg.best) snprintf(mean, sizeof mean, "; did you mean %s?", sg.best);
            snprintf(msg, sizeof msg, "%ssection %s is not a lesson of the course%s (vramlab list)", at, q->lesson,
                     mean);
            report(ud, msg), bad++;
            continue;
        }
        int first = 0, last = cat[k].nexercises;
        if (q->exercise[0]) {
            while (first < last && strcmp(cat[k].exercises[first], q->exercise)) first++;
            if (first == last) {
                size_t l = 0;
                char ids[2048] = "", mean[LT_ID_MAX + 32] = "";
                struct gpu_suggest sg;
                gpu_suggest_init(&sg, q->exercise);
                for (int x = 0; x < cat[k].nexercises && l < sizeof ids; x++) {
                    l += (size_t)snprintf(ids + l, sizeof ids - l, "%s%s", x ? ", " : "", cat[k].exercises[x]);
                    gpu_suggest_add(&sg, cat[k].exercises[x]);
                }
                if (sg.best) snprintf(mean, sizeof mean, "; did you mean '%s'?", sg.best);
                snprintf(msg, sizeof msg, "%slesson %s has no exercise '%s'%s (its exercises: %s)", at,
                         q->lesson, q->exercise, mean, l ? ids : "none");
                report(ud, msg), bad++;
                continue;
            }
            last = first + 1;
        } else if (!last) {
            snprintf(msg, sizeof msg, "%ssection %s has no exercises", at, q->lesson);
            report(ud, msg), bad++;
            continue;
        }
        for (int x = first; x < last; x++) {
            char qid[sizeof q->qid];
            snprintf(qid, sizeof qid, "%s:%s", q->lesson, cat[k].exercises[x]);
            int dup = 0;
            while (dup < nout && strcmp(out[dup].qid, qid)) dup++;
            if (dup < nout) {
                char first_at[64] = "";
                if (out[dup].line) snprintf(first_at, sizeof first_at, " (first at line %d)", out[dup].line);
                snprintf(msg, sizeof msg, "%squestion %s is asked twice%s", at, qid, first_at);
                report(ud, msg), bad++;
                continue;
            }
            if (nout == EXAM_MAX_QUESTIONS * 2) break;
            struct lt_exam_q *o = &out[nout++];
            *o = *q;
            snprintf(o->exercise, sizeof o->exercise, "%s", cat[k].exercises[x]);
            snprintf(o->qid, sizeof o->qid, "%s", qid);
            o->path = strdup(cat[k].path);
            o->block = -1; /* found in the loaded lesson by its id */
        }
    }
    for (int i = 0; i < e->n; i++) free(e->q[i].path);
    free(e->q);
    e->q = out, e->n = nout;
    if (!nout && !bad) report(ud, "exam: no questions"), bad++;
    lt_catalog_free(cat, ncat);
    return bad;
}

void lt_exam_order(const struct lt_exam *e, const char *student, int *order)
{
    for (int i = 0; i < e->n; i++) order[i] = i;
    if (!e->shuffle) return;
    char seed[2 * LT_ID_MAX + 4];
    snprintf(seed, sizeof seed, "%s/%s", e->id, student);
    uint64_t h = gpu_hash(GPU_HASH_INIT, seed, strlen(seed)) | 1; /* xorshift needs h != 0 */
    for (int i = e->n - 1; i > 0; i--) { /* Fisher-Yates on a xorshift64 stream */
        h ^= h << 13, h ^= h >> 7, h ^= h << 17;
        int j = (int)(h % (uint64_t)(i + 1)), t = order[i];
        order[i] = order[j], order[j] = t;
    }
}

void lt_exam_free(struct lt_exam *e)
{
    if (!e) return;
    for (int i = 0; i < e->n; i++) free(e->q[i].path);
    free(e->q), free(e->title[0]), free(e->title[1]);
    memset(e, 0, sizeof *e);
}
