/* tui_exam_results.c - what a teacher does with a class's exam results (the files `vramlab exam`
 * writes, tui_exam.h): `vramlab results DIR` (or the files) sums them up by exam: the scores,
 * each question's right, wrong and blank answers, and the wrong answers grouped by the mistake
 * they match (GB for GiB, bits for bytes, a percentage for a fraction, x2, a lesson's declared
 * mistake, a choice), with the answers given most; then each student. --csv and --json give the
 * same as rows (row = question, mistake or student). `vramlab compare` puts the students side by
 * side, question by question. Files are read through the safe reader and the strict JSON-lines
 * reader: a file that is not an exam's results is said and left out. tests/cli/exam.sh. */
#include "tui_exam_results.h"

#include <dirent.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "gpu_err.h"
#include "gpu_esc.h"
#include "gpu_file.h"
#include "tui_csv.h"
#include "tui_exam.h"
#include "tui_file.h"
#include "tui_json.h"
#include "tui_jsonl.h"
#include "tui_roster.h"
#include "tui_wrap.h"

#define TR(zh, en, zh_) ((zh) ? (zh_) : (en))
#define MAX_FILE (16u << 20)
#define MAX_FILES 10000

struct qrow { /* one question of one student's results */
    char *q, *kind, *answer, *status, *mistake, *detail, *detail_zh;
};

struct sheet { /* one student's results */
    char *path, *exam, *title, *title_zh, *student, *backend;
    bool timed_out;
    int n, right, broken, answered;
    struct qrow *q;
};

struct answer_count { /* the strings below point into the sheets: not owned */
    const char *text;
    int n;
};

struct mistake { /* wrong answers of one question that match one mistake */
    const char *kind, *detail, *detail_zh;
    int n, nans;
    struct answer_count ans[64];
};

struct qstat {
    const char *q, *kind;
    int right, wrong, blank, unreadable, broken;
    int nm;
    struct mistake m[32];
};

static char *dup_str(const struct tui_jobj *o, const char *k)
{
    const char *s = tui_jobj_str(o, k, NULL);
    return s ? strdup(s) : NULL;
}

static void sheet_free(struct sheet *s)
{
    for (int i = 0; i < s->n; i++) {
        struct qrow *r = &s->q[i];
        free(r->q), free(r->kind), free(r->answer), free(r->status), free(r->mistake), free(r->detail),
            free(r->detail_zh);
    }
    free(s->q), free(s->path), free(s->exam), free(s->title), free(s->title_zh), free(s->student),
        free(s->backend);
}

/* One results file: 1 read, 0 not an exam's results, -1 damaged (err). */
static int read_sheet(const char *path, struct sheet *s, char *err, size_t n)
{
    memset(s, 0, sizeof *s);
    char *text = gpu_file_read(path, MAX_FILE, 0, NULL, err, n);
    if (!text) return -1;
    int ln = 0, got = 0;
    for (char *line = text, *next; line && *line; line = next) {
        next = strchr(line, '\n');
        if (next) *next++ = 0;
        ln++;
        struct tui_jobj o;
        char why[256];
        if (!tui_jsonl_parse(line, &o, why, sizeof why)) {
            if (ln == 1) break; /* not JSON lines: not an exam's results */
            gpu_errf(err, n, "%s:%d: %s", path, ln, why);
            got = -1;
            break;
        }
        const char *type = tui_jobj_str(&o, "type", "");
        if (ln == 1) {
            if (strcmp(type, "exam") || strcmp(tui_jobj_str(&o, "format", ""), "vramlab-exam")) {
                tui_jobj_free(&o);
                break;
            }
            s->path = strdup(path), s->exam = dup_str(&o, "exam"), s->title = dup_str(&o, "title");
            s->title_zh = dup_str(&o, "title_zh"), s->student = dup_str(&o, "student");
            s->backend = dup_str(&o, "backend"), s->timed_out = tui_jobj_bool(&o, "timed_out", false);
            /* ids, as the exam wrote them: never text that forges a line of the report */
            got = s->exam && s->student && tui_file_id_ok(s->exam) && tui_file_id_ok(s->student) ? 1 : -1;
            if (got < 0) gpu_errf(err, n, "%s:1: an exam's results without its exam or student id", path);
        } else if (!strcmp(type, "question")) {
            struct qrow *nq = realloc(s->q, (size_t)(s->n + 1) * sizeof *nq);
            if (nq) {
                s->q = nq;
                struct qrow *r = &s->q[s->n++];
                r->q = dup_str(&o, "q"), r->kind = dup_str(&o, "kind"), r->answer = dup_str(&o, "answer");
                r->status = dup_str(&o, "status"), r->mistake = dup_str(&o, "mistake");
                r->detail = dup_str(&o, "detail"), r->detail_zh = dup_str(&o, "detail_zh");
                if (!r->q || !r->status || !tui_exam_qid_ok(r->q)) {
                    gpu_errf(err, n, "%s:%d: a question without its id (LESSON:EXERCISE) or status", path, ln);
                    got = -1;
                }
                if (r->status && !strcmp(r->status, "right")) s->right++;
                if (r->status && !strcmp(r->status, "broken")) s->broken++;
                if (r->status && strcmp(r->status, "blank")) s->answered++;
            }
        }
        tui_jobj_free(&o);
        if (got <= 0) break;
    }
    free(text);
    if (got <= 0) sheet_free(s), memset(s, 0, sizeof *s);
    return got;
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* The results files: each operand a file, or a folder's *.jsonl that are an exam's results. */
static int gather(char **paths, int n, struct sheet **out, char *err, size_t en)
{
    struct sheet *v = NULL;
    int k = 0, bad = 0;
    for (int i = 0; i < n && !bad; i++) {
        struct stat st;
        char **files = NULL;
        int nf = 0;
        bool dir = stat(paths[i], &st) == 0 && S_ISDIR(st.st_mode);
        if (dir) {
            DIR *d = opendir(paths[i]);
            struct dirent *de;
            while (d && (de = readdir(d)) && nf < MAX_FILES) {
                size_t l = strlen(de->d_name);
                if (de->d_name[0] == '.' || l < 7 || strcmp(de->d_name + l - 6, ".jsonl")) continue;
                char one[4352];
                snprintf(one, sizeof one, "%s/%s", paths[i], de->d_name);
                if (!gpu_file_ok(one, MAX_FILE, 0)) continue; /* what the reader takes: no FIFO, no folder */
                char **nfv = realloc(files, (size_t)(nf + 1) * sizeof *nfv);
                if (!nfv) break;
                files = nfv;
                size_t pl = strlen(paths[i]) + l + 2;
                if ((files[nf] = malloc(pl))) snprintf(files[nf++], pl, "%s/%s", paths[i], de->d_name);
            }
            if (d) closedir(d);
            if (nf > 1) qsort(files, (size_t)nf, sizeof *files, cmp_str);
        } else {
            files = malloc(sizeof *files);
            if (files && (files[0] = strdup(paths[i]))) nf = 1;
        }
        for (int f = 0; f < nf; f++) {
            struct sheet s;
            char why[1200];
            int r = read_sheet(files[f], &s, why, sizeof why);
            if (r < 0 || (r == 0 && !dir)) {
                if (r == 0) snprintf(why, sizeof why, "%s: not an exam's results (vramlab exam writes them)", files[f]);
                gpu_errf(err, en, "%s", why);
                bad = 1;
            } else if (r > 0) {
                struct sheet *nv = realloc(v, (size_t)(k + 1) * sizeof *nv);
                if (nv) v = nv, v[k++] = s;
                else sheet_free(&s);
            }
            free(files[f]);
        }
        free(files);
    }
    *out = v;
    if (bad) {
        for (int i = 0; i < k; i++) sheet_free(&v[i]);
        free(v);
        *out = NULL;
        return -1;
    }
    if (!k) gpu_errf(err, en, "no exam results in %s", paths[0]);
    return k;
}

bool tui_exam_results_are(char **paths, int n)
{
    for (int i = 0; i < n; i++) {
        struct stat st;
        if (stat(paths[i], &st) == 0 && S_ISDIR(st.st_mode)) return true;
        char err[256];
        struct sheet s;
        int r = read_sheet(paths[i], &s, err, sizeof err);
        if (r > 0) sheet_free(&s);
        if (r > 0) return true;
    }
    return false;
}

/* ---- the class, question by question ---------------------------------------------------------- */

static const char *mistake_words(const char *k, bool zh)
{
    static const char *const w[][3] = {
        {"gib_gb", "GB and GiB mixed up", "GB 与 GiB 混淆"},
        {"mib_mb", "MB and MiB mixed up", "MB 与 MiB 混淆"},
        {"kib_kb", "KB and KiB mixed up", "KB 与 KiB 混淆"},
        {"tib_tb", "TB and TiB mixed up", "TB 与 TiB 混淆"},
        {"bits_bytes", "bits for bytes (x8)", "位与字节混淆（8 倍）"},
        {"percent_fraction", "a percentage for a fraction, or the reverse", "百分数与小数混淆"},
        {"in_bytes", "the answer in bytes, typed without a unit", "按字节算却没写单位"},
        {"x2", "off by 2 (counted once or twice?)", "差 2 倍（算一次还是两次？）"},
        {"x4", "off by 4 (bytes per value?)", "差 4 倍（每个数值几个字节？）"},
        {"x8", "off by 8 (bits or bytes?)", "差 8 倍（位还是字节？）"},
        {"x10", "off by 10", "差 10 倍"},
        {"x1000", "off by 1000 (a unit prefix)", "差 1000 倍（单位前缀）"},
        {"wrong_result", "code that returns a wrong result", "代码结果不对"},
        {"error", "code that raises an error", "代码出错"},
        {"no_entry", "code without the function asked for", "代码没有定义所要求的函数"},
        {"unreadable", "an answer the grader cannot read", "无法读取的答案"},
        {"broken", "the exercise is broken (the teacher's to fix)", "练习本身有错误（需老师修正）"},
        {"other", "no mistake the grader knows", "不属于已知的错误类型"},
    };
    for (size_t i = 0; i < sizeof w / sizeof *w; i++)
        if (!strcmp(w[i][0], k)) return w[i][zh ? 2 : 1];
    return NULL;
}

static struct qstat *find_q(struct qstat *qs, int *nq, int max, const char *q, const char *kind)
{
    for (int i = 0; i < *nq; i++)
        if (!strcmp(qs[i].q, q)) return &qs[i];
    if (*nq == max) return NULL;
    struct qstat *s = &qs[(*nq)++];
    memset(s, 0, sizeof *s);
    s->q = q, s->kind = kind;
    return s;
}

static void count_wrong(struct qstat *s, const struct qrow *r)
{
    const char *k = r->mistake ? r->mistake : "other";
    int i = 0;
    while (i < s->nm && strcmp(s->m[i].kind, k)) i++;
    if (i == s->nm) {
        if (s->nm == 32) return;
        memset(&s->m[s->nm], 0, sizeof s->m[0]);
        s->m[s->nm].kind = k, s->m[s->nm].detail = r->detail, s->m[s->nm].detail_zh = r->detail_zh;
        s->nm++;
    }
    struct mistake *m = &s->m[i];
    m->n++;
    const char *a = r->answer ? r->answer : "";
    int j = 0;
    while (j < m->nans && strcmp(m->ans[j].text, a)) j++;
    if (j == m->nans && m->nans < 64) m->ans[m->nans++] = (struct answer_count){a, 0};
    if (j < 64) m->ans[j].n++;
}

static int cmp_mistake(const void *a, const void *b)
{
    const struct mistake *x = a, *y = b;
    return (x->n < y->n) - (x->n > y->n);
}

static int cmp_answer(const void *a, const void *b)
{
    const struct answer_count *x = a, *y = b;
    return (x->n < y->n) - (x->n > y->n);
}

/* The statistics of one exam's sheets (those with exam id `exam`). */
static int stats(struct sheet *v, int n, const char *exam, struct qstat *qs, int max)
{
    int nq = 0;
    for (int i = 0; i < n; i++) {
        if (strcmp(v[i].exam, exam)) continue;
        for (int k = 0; k < v[i].n; k++) {
            struct qrow *r = &v[i].q[k];
            struct qstat *s = find_q(qs, &nq, max, r->q, r->kind);
            if (!s) continue;
            if (!strcmp(r->status, "right")) s->right++;
            else if (!strcmp(r->status, "blank")) s->blank++;
            else if (!strcmp(r->status, "broken")) s->broken++;
            else {
                if (!strcmp(r->status, "unreadable")) s->unreadable++;
                else s->wrong++;
                count_wrong(s, r);
            }
        }
    }
    for (int i = 0; i < nq; i++) {
        qsort(qs[i].m, (size_t)qs[i].nm, sizeof qs[i].m[0], cmp_mistake);
        for (int k = 0; k < qs[i].nm; k++)
            qsort(qs[i].m[k].ans, (size_t)qs[i].m[k].nans, sizeof qs[i].m[k].ans[0], cmp_answer);
    }
    return nq;
}

static double score(const struct sheet *s)
{
    int graded = s->n - s->broken;
    return graded > 0 ? (double)s->right / graded : NAN;
}

static void put_esc(FILE *out, const char *s, size_t max)
{
    char shown[600];
    gpu_esc_field(shown, sizeof shown < max ? sizeof shown : max, s ? s : "");
    fputs(shown, out);
}

/* s, then spaces to `width` display columns (at least one) */
static void pad(FILE *out, const char *s, int width)
{
    int w = tui_width(s, strlen(s));
    fprintf(out, "%s%*s", s, w < width ? width - w : 1, "");
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The class list against the results of one exam: who on it has none, and whose results are
 * from a name not on it (a mistyped --student). Text, or rows "missing" and "unlisted". */
static void roster_report(const struct sheet *v, int n, const char *exam, const struct gpu_strtab *ro,
                          enum tui_results_format fmt, bool zh, FILE *out)
{
    struct tui_json j;
    tui_json_init(&j, out);
    int missing = 0, unlisted = 0;
    for (int pass = 0; pass < 2; pass++) {
        if (pass && fmt == TUI_RES_TEXT) {
            if (missing) fprintf(out, TR(zh, "No results from %d of the %d on the roster:", "名单上的 %d 人中有 %d 人没有结果："),
                                 zh ? (int)ro->count : missing, zh ? missing : (int)ro->count);
            else fprintf(out, TR(zh, "Every student on the roster (%d) has results.", "名单上的 %d 名学生都有结果。"), (int)ro->count);
        }
        int k = 0;
        for (size_t r = 0; r < ro->count; r++) {
            const char *name = gpu_strtab_str(ro, (uint32_t)r, NULL);
            bool has = false;
            for (int i = 0; i < n && !has; i++) has = !strcmp(v[i].exam, exam) && !strcmp(v[i].student, name);
            if (has) continue;
            if (!pass) { missing++; continue; }
            if (fmt == TUI_RES_TEXT) {
                fputs(k++ ? TR(zh, ", ", "，") : TR(zh, " ", ""), out);
                fputs(name, out);
            } else if (fmt == TUI_RES_CSV) {
                fputs("missing,", out), tui_csv_field(out, exam), fputs(",,", out), tui_csv_field(out, name);
                fputs(",,,,,,,,,\n", out);
            } else {
                tui_json_obj(&j);
                tui_json_kstr(&j, "row", "missing"), tui_json_kstr(&j, "exam", exam), tui_json_kstr(&j, "student", name);
                tui_json_end(&j);
            }
        }
        if (pass && fmt == TUI_RES_TEXT) fputc('\n', out);
    }
    for (int pass = 0; pass < 2; pass++) {
        if (pass && fmt == TUI_RES_TEXT && unlisted)
            fprintf(out, TR(zh, "Results from %d not on the roster (a mistyped --student?):",
                            "%d 份结果的学生不在名单上（--student 打错了？）："), unlisted);
        int k = 0;
        for (int i = 0; i < n; i++) {
            if (strcmp(v[i].exam, exam) || tui_roster_has(ro, v[i].student)) continue;
            if (!pass) { unlisted++; continue; }
            if (fmt == TUI_RES_TEXT) {
                fputs(k++ ? TR(zh, ", ", "，") : TR(zh, " ", ""), out);
                put_esc(out, v[i].student, 80);
            } else if (fmt == TUI_RES_CSV) {
                fputs("unlisted,", out), tui_csv_field(out, exam), fputs(",,", out), tui_csv_field(out, v[i].student);
                fputs(",,,,,,,,,\n", out);
            } else {
                tui_json_obj(&j);
                tui_json_kstr(&j, "row", "unlisted"), tui_json_kstr(&j, "exam", exam), tui_json_kstr(&j, "student", v[i].student);
                tui_json_end(&j);
            }
        }
        if (pass && fmt == TUI_RES_TEXT && unlisted) fputc('\n', out);
    }
}

static void text_report(struct sheet *v, int n, const char *exam, const struct qstat *qs, int nq,
                        bool zh, FILE *out)
{
    int students = 0, timed = 0, scored = 0, band[5] = {0};
    double sum = 0, lo = 2, hi = -1;
    double *scores = malloc((size_t)(n ? n : 1) * sizeof *scores);
    const char *title = NULL, *backend = NULL;
    bool one_machine = true;
    for (int i = 0; i < n; i++) {
        if (strcmp(v[i].exam, exam)) continue;
        double sc = score(&v[i]);
        students++, timed += v[i].timed_out;
        if (isfinite(sc)) {
            sum += sc, lo = sc < lo ? sc : lo, hi = sc > hi ? sc : hi;
            if (scores) scores[scored] = sc;
            scored++;
            int b = (int)floor(sc * 5 + 1e-9); /* 0-19 %, 20-39 %, ... 80-100 % */
            band[b < 0 ? 0 : b > 4 ? 4 : b]++;
        }
        if (!title) title = zh && v[i].title_zh ? v[i].title_zh : v[i].title;
        if (!backend) backend = v[i].backend;
        else if (v[i].backend && strcmp(backend, v[i].backend)) one_machine = false;
    }
    fprintf(out, TR(zh, "Exam %s · ", "考试 %s · "), exam);
    put_esc(out, title, 300);
    fprintf(out, TR(zh, " · %d student(s)\n", " · %d 名学生\n"), students);
    if (backend && one_machine) {
        fputs(TR(zh, "Graded on: ", "评分所用机器："), out);
        put_esc(out, backend, 300);
        fputc('\n', out);
    } else if (backend) {
        fputs(TR(zh, "Graded on several machines (each student's own): predict questions differ by machine\n",
                 "在多台机器上评分（各学生自己的机器）：预测题的标准因机器而异\n"), out);
    }
    /* the mean and median of the students with a score (none: every question broken) */
    double median = NAN;
    if (scores && scored) {
        qsort(scores, (size_t)scored, sizeof *scores, cmp_double);
        median = scored % 2 ? scores[scored / 2] : (scores[scored / 2 - 1] + scores[scored / 2]) / 2;
    }
    free(scores);
    if (hi >= 0)
        fprintf(out, TR(zh, "Score: mean %.0f %%, median %.0f %%, lowest %.0f %%, highest %.0f %%",
                        "得分：平均 %.0f %%，中位数 %.0f %%，最低 %.0f %%，最高 %.0f %%"),
                100 * sum / scored, 100 * median, 100 * lo, 100 * hi);
    if (timed) fprintf(out, TR(zh, "; %d timed out", "；%d 人超时"), timed);
    if (hi >= 0) {
        static const char *const bands[] = {"0-19 %", "20-39 %", "40-59 %", "60-79 %", "80-100 %"};
        fputs(TR(zh, "\nStudents by score:", "\n按得分的人数："), out);
        for (int b = 0; b < 5; b++)
            fprintf(out, TR(zh, "%s%s: %d", "%s%s：%d"), b ? TR(zh, ", ", "，") : TR(zh, " ", ""), bands[b], band[b]);
    }
    fputs("\n\n", out);
    /* the count columns as wide as the class: "100/100" for a hundred students */
    int nw = 2;
    for (int i = 0; i < nq; i++) {
        char num[16];
        int all = qs[i].right + qs[i].wrong + qs[i].blank + qs[i].unreadable + qs[i].broken;
        int l = snprintf(num, sizeof num, "%d", all);
        nw = l > nw ? l : nw;
    }
    int rw = 2 * nw + 2, ww = nw + 4;
    fputs("  #  ", out);
    pad(out, TR(zh, "question", "题目"), 27);
    pad(out, TR(zh, "right", "对"), rw);
    pad(out, TR(zh, "wrong", "错"), ww);
    fprintf(out, "%s\n", TR(zh, "blank", "未答"));
    for (int i = 0; i < nq; i++) {
        const struct qstat *s = &qs[i];
        int all = s->right + s->wrong + s->blank + s->unreadable + s->broken;
        char right[40], wrong[16];
        snprintf(right, sizeof right, "%*d/%d", nw, s->right, all);
        snprintf(wrong, sizeof wrong, "%d", s->wrong + s->unreadable);
        fprintf(out, "%3d  %-26s ", i + 1, s->q);
        pad(out, right, rw);
        pad(out, wrong, ww);
        fprintf(out, "%d", s->blank);
        if (s->broken) fprintf(out, TR(zh, "   (%d not graded: the exercise is broken)", "   （%d 份未评分：练习本身有错误）"), s->broken);
        fputc('\n', out);
        for (int k = 0; k < s->nm; k++) {
            const struct mistake *m = &s->m[k];
            const char *w = mistake_words(m->kind, zh);
            fprintf(out, "       %d x ", m->n);
            if (w) fputs(w, out);
            else if (!strncmp(m->kind, "choice ", 7)) fputs(TR(zh, "chose ", "选了 "), out), put_esc(out, m->kind + 7, 60);
            else { /* a lesson's own words for the mistake: a sentence, its last stop dropped before ": " */
                char said[600];
                gpu_esc_field(said, 160, zh && m->detail_zh ? m->detail_zh : m->detail ? m->detail : m->kind);
                size_t l = strlen(said);
                if (l > 3 && !strcmp(said + l - 3, "。")) said[l - 3] = 0;
                else if (l > 1 && said[l - 1] == '.') said[l - 1] = 0;
                fputs(said, out);
            }
            fputs(": ", out);
            for (int a = 0; a < m->nans && a < 3; a++) {
                fputs(a ? ", \"" : "\"", out);
                put_esc(out, m->ans[a].text, 60);
                fputc('"', out);
                if (m->ans[a].n > 1) fprintf(out, " (%d)", m->ans[a].n);
            }
            if (m->nans > 3) fputs(", ...", out);
            fputc('\n', out);
        }
    }
    fprintf(out, "\n%s\n", TR(zh, "Students:", "学生："));
    int w = 0;
    for (int i = 0; i < n; i++) {
        int sw = tui_width(v[i].student, strlen(v[i].student));
        if (!strcmp(v[i].exam, exam) && sw > w) w = sw;
    }
    for (int i = 0; i < n; i++) {
        if (strcmp(v[i].exam, exam)) continue;
        double sc = score(&v[i]);
        fputs("  ", out);
        put_esc(out, v[i].student, 80);
        fprintf(out, "%*s  %d/%d", w - tui_width(v[i].student, strlen(v[i].student)), "", v[i].right,
                v[i].n - v[i].broken);
        if (isfinite(sc)) fprintf(out, "  %.0f %%", 100 * sc);
        if (v[i].timed_out) fputs(TR(zh, "  (timed out)", "  （超时）"), out);
        fputc('\n', out);
    }
}

static void rows_report(struct sheet *v, int n, const char *exam, const struct qstat *qs, int nq,
                        bool csv, FILE *out)
{
    struct tui_json j;
    tui_json_init(&j, out);
    for (int i = 0; i < nq; i++) {
        const struct qstat *s = &qs[i];
        if (csv) {
            fputs("question,", out), tui_csv_field(out, exam), fputc(',', out), tui_csv_field(out, s->q);
            fprintf(out, ",,%d,%d,%d,%d,%d,,,,\n", s->right, s->wrong, s->blank, s->unreadable, s->broken);
        } else {
            tui_json_obj(&j);
            tui_json_kstr(&j, "row", "question"), tui_json_kstr(&j, "exam", exam), tui_json_kstr(&j, "question", s->q);
            tui_json_kint(&j, "right", s->right), tui_json_kint(&j, "wrong", s->wrong);
            tui_json_kint(&j, "blank", s->blank), tui_json_kint(&j, "unreadable", s->unreadable);
            tui_json_kint(&j, "broken", s->broken);
            tui_json_end(&j);
        }
        for (int k = 0; k < s->nm; k++) {
            const struct mistake *m = &s->m[k];
            char ans[1024] = "";
            size_t l = 0;
            for (int a = 0; a < m->nans && l < sizeof ans; a++)
                l += (size_t)snprintf(ans + l, sizeof ans - l, "%s%s", a ? " | " : "", m->ans[a].text);
            if (csv) {
                fputs("mistake,", out), tui_csv_field(out, exam), fputc(',', out), tui_csv_field(out, s->q);
                fputs(",,,,,,,,", out), tui_csv_field(out, m->kind);
                fprintf(out, ",%d,", m->n), tui_csv_field(out, ans), fputc('\n', out);
            } else {
                tui_json_obj(&j);
                tui_json_kstr(&j, "row", "mistake"), tui_json_kstr(&j, "exam", exam), tui_json_kstr(&j, "question", s->q);
                tui_json_kstr(&j, "mistake", m->kind), tui_json_kint(&j, "count", m->n);
                tui_json_kstr(&j, "detail", m->detail), tui_json_kstr(&j, "answers", ans);
                tui_json_end(&j);
            }
        }
    }
    for (int i = 0; i < n; i++) {
        if (strcmp(v[i].exam, exam)) continue;
        int blank = v[i].n - v[i].answered;
        double sc = score(&v[i]);
        if (csv) {
            fputs("student,", out), tui_csv_field(out, exam), fputs(",,", out), tui_csv_field(out, v[i].student);
            fprintf(out, ",%d,%d,%d,,%d,", v[i].right, v[i].answered - v[i].right - v[i].broken, blank, v[i].broken);
            tui_csv_num(out, sc);
            fputs(",,,\n", out);
        } else {
            tui_json_obj(&j);
            tui_json_kstr(&j, "row", "student"), tui_json_kstr(&j, "exam", exam), tui_json_kstr(&j, "student", v[i].student);
            tui_json_kint(&j, "right", v[i].right), tui_json_kint(&j, "questions", v[i].n);
            tui_json_kint(&j, "blank", blank), tui_json_kint(&j, "broken", v[i].broken);
            tui_json_kmaybe(&j, "score", sc, isfinite(sc)), tui_json_kbool(&j, "timed_out", v[i].timed_out);
            tui_json_end(&j);
        }
    }
}

int tui_exam_results_cmd(char **paths, int n, const char *roster, enum tui_results_format fmt, bool zh,
                         FILE *out)
{
    struct sheet *v;
    char err[1400];
    struct gpu_strtab ro = {0};
    if (roster && !tui_roster_read(roster, &ro, err, sizeof err)) {
        fprintf(stderr, "vramlab: results: %s\n", err);
        return 1;
    }
    int k = gather(paths, n, &v, err, sizeof err);
    if (k <= 0) {
        fprintf(stderr, "vramlab: results: %s\n", err);
        gpu_strtab_free(&ro);
        return 1;
    }
    if (fmt == TUI_RES_CSV) fputs("row,exam,question,student,right,wrong,blank,unreadable,broken,score,mistake,count,answers\n", out);
    struct qstat *qs = calloc(EXAM_QMAX, sizeof *qs);
    for (int i = 0; qs && i < k; i++) {
        bool seen = false;
        for (int p = 0; p < i; p++) seen = seen || !strcmp(v[p].exam, v[i].exam);
        if (seen) continue;
        int nq = stats(v, k, v[i].exam, qs, EXAM_QMAX);
        if (fmt == TUI_RES_TEXT) {
            if (i) fputc('\n', out);
            text_report(v, k, v[i].exam, qs, nq, zh, out);
        } else {
            rows_report(v, k, v[i].exam, qs, nq, fmt == TUI_RES_CSV, out);
        }
        if (roster) roster_report(v, k, v[i].exam, &ro, fmt, zh, out);
    }
    gpu_strtab_free(&ro);
    free(qs);
    for (int i = 0; i < k; i++) sheet_free(&v[i]);
    free(v);
    return 0;
}

#define COMPARE_WIDTH 100

/* a column of a table: padded to width, but for the last of its line (no trailing spaces) */
static void cell(FILE *out, const char *s, int width, bool last)
{
    if (last) fputs(s, out);
    else pad(out, s, width);
}

/* a student's column in compare: the name's width, at most 12, at least "100%" */
static int col_width(const struct sheet *s)
{
    char name[64];
    gpu_esc_field(name, 13, s->student);
    int w = tui_width(name, strlen(name));
    return w < 4 ? 4 : w;
}

int tui_exam_compare_cmd(char **paths, int n, bool ascii, bool zh, FILE *out)
{
    struct sheet *v;
    char err[1400];
    int k = gather(paths, n, &v, err, sizeof err);
    if (k <= 0) {
        fprintf(stderr, "vramlab: compare: %s\n", err);
        return 1;
    }
    const char *exam = v[0].exam;
    fprintf(out, TR(zh, "Exam %s: %s right, %s wrong, %s blank, ! not graded\n\n",
                    "考试 %s：%s 对，%s 错，%s 未作答，! 未评分\n\n"), exam, ascii ? "+" : "✓",
            ascii ? "x" : "✗", ascii ? "." : "·");
    /* the students of this exam, in blocks that fit COMPARE_WIDTH columns (a class of a
     * hundred is pages of columns, never a line of 500); a column as wide as the name (at most
     * 12) and the score ("100%") */
    int *who = malloc((size_t)k * sizeof *who), nw = 0;
    for (int i = 0; who && i < k; i++)
        if (!strcmp(v[i].exam, exam)) who[nw++] = i;
    for (int first = 0; first < nw;) {
        int last = first, width = 26;
        while (last < nw && (last == first || width + 1 + col_width(&v[who[last]]) <= COMPARE_WIDTH))
            width += 1 + col_width(&v[who[last++]]);
        if (first) fputc('\n', out);
        pad(out, TR(zh, "question", "题目"), 26);
        for (int c = first; c < last; c++) {
            const struct sheet *s = &v[who[c]];
            char name[64];
            gpu_esc_field(name, 13, s->student);
            cell(out, name, col_width(s) + 1, c == last - 1);
        }
        fputc('\n', out);
        for (int q = 0; q < v[0].n; q++) {
            pad(out, v[0].q[q].q, 26);
            for (int c = first; c < last; c++) {
                const struct sheet *s = &v[who[c]];
                const char *st = "";
                for (int r = 0; r < s->n; r++)
                    if (!strcmp(s->q[r].q, v[0].q[q].q)) st = s->q[r].status;
                const char *mark = !strcmp(st, "right") ? (ascii ? "+" : "✓")
                                   : !strcmp(st, "blank") ? (ascii ? "." : "·")
                                   : !strcmp(st, "broken") ? "!" : (ascii ? "x" : "✗");
                cell(out, mark, col_width(s) + 1, c == last - 1);
            }
            fputc('\n', out);
        }
        pad(out, TR(zh, "score", "得分"), 26);
        for (int c = first; c < last; c++) {
            const struct sheet *s = &v[who[c]];
            char sc[32];
            double x = score(s);
            snprintf(sc, sizeof sc, isfinite(x) ? "%.0f%%" : "-", 100 * x);
            cell(out, sc, col_width(s) + 1, c == last - 1);
        }
        fputc('\n', out);
        first = last;
    }
    free(who);
    for (int i = 0; i < k; i++) sheet_free(&v[i]);
    free(v);
    return 0;
}
