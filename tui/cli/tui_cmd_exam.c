/* tui_cmd_exam.c - `vramlab exam EXAM`: a timed set of exercises (lt_exam.h) a student answers
 * without hints or feedback, every answer saved as typed in the state folder (tui_exam.h), then
 * graded with each lesson's own grader and written as the student's results (JSON lines and CSV)
 * into the class's folder (--results, or course.lua's `results`, else the state folder's
 * results/). On a terminal it is the exam screen (tui_examview.c); with --answers FILE (or
 * without a terminal) the answers come from a file, one "QUESTION ANSWER" a line, for scripts and
 * tests. A resumed exam keeps its clock; past the time limit it is submitted as it is; a
 * submitted exam is not taken again (its results are written again when they are missing).
 * Predict questions are graded against this machine's figure, which the results record. */
#include "tui_cmd.h"

#include <dirent.h>
#include <limits.h>
#include <math.h>
#include <pwd.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "gpu_err.h"
#include "gpu_esc.h"
#include "gpu_file.h"
#include "gpu_suggest.h"
#include "lt_course.h"
#include "lt_exam.h"
#include "tui_exam.h"
#include "tui_examview.h"
#include "tui_file.h"
#include "tui_state.h"

/* The lessons the questions come from, each loaded once. */
struct loaded {
    char *path;
    struct lt_lesson *ls;
};

struct run {
    struct tui_ctx *c;
    struct lt_exam e;
    struct tui_exam_sheet sheet;
    struct loaded *ls;
    int nls;
    struct tui_exam_item *items; /* in the exam's order */
    int *block;                  /* each question's block in its lesson */
    char student[LT_ID_MAX + 1], results[4200];
    bool zh;
};

#define TR(r, en, zh_) ((r)->zh ? (zh_) : (en))

static void report(void *ud, const char *msg)
{
    (void)ud;
    char shown[4096];
    fprintf(stderr, "%s\n", gpu_esc_field(shown, sizeof shown, msg));
}

static struct lt_lesson *lesson(struct run *r, const char *path, char *err, size_t n)
{
    for (int i = 0; i < r->nls; i++)
        if (!strcmp(r->ls[i].path, path)) return r->ls[i].ls;
    struct lt_lesson *ls = lt_lesson_load(r->c->rt, path, err, n);
    if (!ls) return NULL;
    struct loaded *nl = realloc(r->ls, (size_t)(r->nls + 1) * sizeof *nl);
    if (!nl || !(nl[r->nls].path = strdup(path))) {
        if (nl) r->ls = nl;
        lt_lesson_free(ls);
        gpu_errf(err, n, "out of memory");
        return NULL;
    }
    r->ls = nl;
    r->ls[r->nls].ls = ls;
    return r->ls[r->nls++].ls;
}
/* The NAMEs of the exams (NAME.exam.lua) in the folders added with --lessons and their exams/
 * subfolders, for "did you mean": at most max. */
static int exam_names(const char *folders, char (*names)[64], int max)
{
    char one[PATH_MAX], dir[PATH_MAX + 8];
    int n = 0, k = 0;
    for (const char *p = folders; (p = gpu_path_next(p, one, sizeof one)); k++) {
        static const char *const sub[] = {"", "/exams"};
        for (int i = 0; k > 0 && one[0] && i < 2; i++) {
            snprintf(dir, sizeof dir, "%s%s", one, sub[i]);
            DIR *d = opendir(dir);
            for (struct dirent *e; d && n < max && (e = readdir(d));) {
                size_t l = strlen(e->d_name);
                if (l > 9 && l - 9 < 64 && !strcmp(e->d_name + l - 9, ".exam.lua"))
                    snprintf(names[n++], 64, "%.*s", (int)(l - 9), e->d_name);
            }
            if (d) closedir(d);
        }
    }
    return n;
}


/* EXAM: a file, a name (NAME.exam.lua in a teacher's folder or its exams/), a list, "course". */
static int read_exam(struct run *r, const char *what)
{
    char err[4800], path[4400], one[4096];
    size_t l = strlen(what);
    bool file = strchr(what, '/') || (l > 4 && !strcmp(what + l - 4, ".lua"));
    if (!file && !strchr(what, ':') && !strchr(what, ',') && strcmp(what, "course") &&
        !(strspn(what, "0123456789.") == l && strchr(what, '.'))) { /* a name: find its file */
        int k = 0;
        path[0] = 0;
        for (const char *p = r->c->lessons; !path[0] && (p = gpu_path_next(p, one, sizeof one)); k++) {
            static const char *const sub[] = {"", "/exams"};
            for (int i = 0; k > 0 && one[0] && !path[0] && i < 2; i++) {
                snprintf(path, sizeof path, "%s%s/%s.exam.lua", one, sub[i], what);
                if (access(path, F_OK) != 0) path[0] = 0;
            }
        }
        if (!path[0]) {
            char names[32][64], mean[96] = " ";
            struct gpu_suggest sg; /* cours: did you mean course? */
            gpu_suggest_init(&sg, what);
            gpu_suggest_add(&sg, "course");
            int nn = exam_names(r->c->lessons, names, 32);
            for (int i = 0; i < nn; i++) gpu_suggest_add(&sg, names[i]);
            if (sg.best) snprintf(mean, sizeof mean, "; did you mean '%s'? ", sg.best);
            fprintf(stderr, "vramlab: exam: no exam '%s'%s(NAME.exam.lua in a folder added with "
                    "--lessons), and it is not a list such as 9.1:weights-gib,9.2\n", what, mean);
            return 2;
        }
        what = path, file = true;
    }
    if (file ? lt_exam_read_file(what, &r->e, err, sizeof err) < 0
             : !lt_exam_from_list(what, &r->e, err, sizeof err)) {
        report(NULL, file ? err : (snprintf(path, sizeof path, "vramlab: exam: %s", err), path));
        return file ? 1 : 2;
    }
    return lt_exam_resolve(r->c->rt, r->c->lessons, &r->e, report, NULL) ? 1 : 0;
}

/* Each question's lesson loaded, its exercise found, and what the screen shows of it. */
static int prepare(struct run *r)
{
    char err[1024];
    r->items = calloc((size_t)r->e.n + 1, sizeof *r->items);
    r->block = calloc((size_t)r->e.n + 1, sizeof *r->block);
    if (!r->items || !r->block) return fprintf(stderr, "vramlab: out of memory\n"), 3;
    for (int i = 0; i < r->e.n; i++) {
        struct lt_exam_q *q = &r->e.q[i];
        struct lt_lesson *ls = lesson(r, q->path, err, sizeof err);
        if (!ls) {
            report(NULL, err);
            return 1;
        }
        struct lt_exercise_info x;
        int b = 0;
        while (b < lt_lesson_nblocks(ls) && !(lt_lesson_exercise(ls, b, &x) && !strcmp(x.id, q->exercise))) b++;
        if (b == lt_lesson_nblocks(ls)) {
            fprintf(stderr, "vramlab: exam: lesson %s has no exercise '%s'\n", q->lesson, q->exercise);
            return 1;
        }
        r->block[i] = b;
        struct tui_exam_item *it = &r->items[i];
        it->qid = q->qid, it->lesson = q->lesson, it->title = lt_lesson_title(ls);
        it->kind = x.kind, it->unit = x.unit, it->prompt = x.prompt ? x.prompt : "";
        it->nchoices = x.nchoices;
        for (int k = 0; k < x.nchoices; k++) it->choices[k] = x.choices[k];
    }
    return 0;
}

/* --student, else VRAMLAB_STUDENT, else the login name. */
static bool student(struct run *r)
{
    const char *s = r->c->opt[TUI_O_STUDENT] ? r->c->opt[TUI_O_STUDENT] : getenv("VRAMLAB_STUDENT");
    const struct passwd *pw = s && *s ? NULL : getpwuid(getuid());
    if (!(s && *s) && pw) s = pw->pw_name;
    if (!s || !tui_file_id_ok(s)) {
        fprintf(stderr, "vramlab: exam: '%s' is not a student name results can be kept under: "
                "letters, digits, '.', '_' and '-' (--student NAME)\n", s ? s : "");
        return false;
    }
    snprintf(r->student, sizeof r->student, "%s", s);
    return true;
}

/* --results, else course.lua's, else the state folder's results/: known to be writable before
 * the exam starts, not after the student answered. */
static bool results_dir(struct run *r)
{
    struct lt_course course;
    char err[4600];
    const char *dir = r->c->opt[TUI_O_RESULTS];
    bool have = lt_course_read(r->c->lessons, &course, err, sizeof err) > 0;
    if (!dir && have && course.results) dir = course.results;
    if (dir) snprintf(r->results, sizeof r->results, "%s", dir);
    lt_course_free(&course);
    if (!dir) {
        char sd[1024];
        if (!tui_state_dir(sd, sizeof sd, err, sizeof err) || !tui_state_ready(sd, "results", err, sizeof err)) {
            fprintf(stderr, "vramlab: exam: %s\n", err);
            return false;
        }
        snprintf(r->results, sizeof r->results, "%s/results", sd);
    }
    struct stat st;
    const char *why = stat(r->results, &st) != 0 ? TR(r, "does not exist", "不存在")
                      : !S_ISDIR(st.st_mode)     ? TR(r, "is not a folder", "不是文件夹")
                      : access(r->results, W_OK) != 0 ? TR(r, "cannot be written by this account", "本账户无法写入")
                                                      : NULL;
    if (why) {
        char shown[sizeof r->results + 64];
        gpu_esc_field(shown, sizeof shown, r->results);
        fprintf(stderr, TR(r, "vramlab: exam: the results folder %s %s: ask your teacher (--results DIR)\n",
                           "vramlab: exam: 结果文件夹 %s %s：请询问老师（--results DIR）\n"), shown, why);
        return false;
    }
    return true;
}

static void discard(void *ud, const struct lt_event *ev) { (void)ud, (void)ev; }

/* Grade every question with its lesson's grader, write the results, print what the exam shows. */
static int grade(struct run *r, bool timed_out)
{
    struct tui_exam_qres *q = calloc((size_t)r->e.n + 1, sizeof *q);
    char (*fb)[2048] = calloc((size_t)r->e.n + 1, sizeof *fb);
    char **keep = calloc((size_t)r->e.n * 4 + 1, sizeof *keep); /* the strings info lends */
    if (!q || !fb || !keep) {
        free(q), free(fb), free(keep);
        return fprintf(stderr, "vramlab: out of memory\n"), 3;
    }
    lt_runtime_set_async(r->c->rt, false);
    lt_runtime_set_sink(r->c->rt, discard, NULL);
    /* each answer's grading within the exam's answer_seconds (its Lua and its measurements),
     * or the process's limits where they are lower: a looping answer is wrong in seconds */
    struct lt_limits lim, each;
    lt_runtime_limits(r->c->rt, &lim);
    each = lim;
    if (!(each.seconds > 0 && each.seconds <= r->e.answer_seconds)) each.seconds = r->e.answer_seconds;
    if (!(each.wall_seconds > 0 && each.wall_seconds <= r->e.answer_seconds))
        each.wall_seconds = r->e.answer_seconds;
    lt_runtime_set_limits(r->c->rt, &each);
    int right = 0, broken = 0;
    for (int i = 0; i < r->e.n; i++) {
        struct lt_exam_q *eq = &r->e.q[i];
        struct tui_exam_qres *o = &q[i];
        struct lt_lesson *ls = lesson(r, eq->path, fb[i], sizeof fb[i]);
        o->qid = eq->qid, o->lesson = eq->lesson, o->exercise = eq->exercise;
        o->kind = r->items[i].kind, o->unit = r->items[i].unit, o->figure = NAN;
        o->answer = tui_exam_get(&r->sheet, eq->qid);
        if (!o->answer) {
            o->status = "blank";
            continue;
        }
        struct lt_exercise_info x;
        struct lt_answer_info ai;
        lt_lesson_set_tries(ls, r->block[i], 0);
        bool ok = lt_lesson_answer(ls, r->block[i], o->answer, fb[i], sizeof fb[i]);
        lt_lesson_exercise(ls, r->block[i], &x);
        bool info = lt_lesson_answer_info(ls, &ai);
        if (info) { /* copied: the next grading of the same lesson replaces them */
            const char *s[4] = {ai.mistake, ai.detail[0], ai.detail[1], ai.how};
            for (int k = 0; k < 4; k++) keep[4 * i + k] = s[k] ? strdup(s[k]) : NULL;
            o->mistake = keep[4 * i], o->detail[0] = keep[4 * i + 1], o->detail[1] = keep[4 * i + 2];
            o->how = keep[4 * i + 3], o->figure = ai.figure;
        }
        if (x.tries == 0) { /* not graded: the exercise is broken, or the answer cannot be read */
            bool br = info && ai.broken;
            o->status = br ? "broken" : "unreadable";
            o->mistake = br ? "broken" : "unreadable";
            free(keep[4 * i + 1]);
            keep[4 * i + 1] = strdup(br ? ai.broken : fb[i]);
            o->detail[0] = keep[4 * i + 1], o->detail[1] = NULL;
            broken += br;
            continue;
        }
        o->status = ok ? "right" : "wrong";
        right += ok;
    }
    lt_runtime_set_limits(r->c->rt, &lim);
    lt_runtime_set_sink(r->c->rt, NULL, NULL);
    char backend[256], jpath[4600], cpath[4600], err[4800];
    lt_runtime_backend_line(r->c->rt, backend, sizeof backend);
    struct tui_exam_result res = {
        .exam = r->e.id, .title = {r->e.title[0], r->e.title[1]}, .student = r->student,
        .version = VRAMLAB_VERSION, .backend = backend, .lang = r->c->lang,
        .simulated = r->c->dev && r->c->dev->info.simulated, .timed_out = timed_out,
        .started = r->sheet.started, .submitted = r->sheet.submitted, .seconds = r->sheet.seconds,
        .n = r->e.n, .q = q};
    bool written = tui_exam_write_results(r->results, &res, jpath, sizeof jpath, cpath, sizeof cpath, err, sizeof err);
    if (timed_out) printf("%s\n", TR(r, "Time is up: your answers were submitted as they were.",
                                    "时间到：答案已按当时的样子提交。"));
    else printf("%s\n", TR(r, "Submitted.", "已提交。"));
    int graded = r->e.n - broken;
    if (r->e.show != LT_EXAM_SHOW_NOTHING && graded > 0)
        printf(TR(r, "%d of %d right (%d %%).\n", "答对 %d / %d（%d %%）。\n"), right, graded,
               (int)(100.0 * right / graded + 0.5));
    if (r->e.show == LT_EXAM_SHOW_ANSWERS)
        for (int i = 0; i < r->e.n; i++)
            printf("  %2d  %-24s %s\n", i + 1, q[i].qid,
                   !strcmp(q[i].status, "right")    ? TR(r, "right", "对")
                   : !strcmp(q[i].status, "blank")  ? TR(r, "blank", "未作答")
                   : !strcmp(q[i].status, "broken") ? TR(r, "not graded (the exercise is broken)", "未评分（练习本身有错误）")
                                                    : TR(r, "wrong", "错"));
    if (broken)
        printf(TR(r, "%d question(s) could not be graded: the exercise is broken (your teacher sees it in the results).\n",
                  "%d 道题无法评分：练习本身有错误（老师会在结果里看到）。\n"), broken);
    int rc = 0;
    if (written) printf(TR(r, "Results: %s and %s\n", "结果：%s 和 %s\n"), jpath, cpath);
    else fprintf(stderr, "vramlab: exam: the results were not written: %s\n", err), rc = 1;
    for (int i = 0; i < r->e.n * 4; i++) free(keep[i]);
    free(keep), free(q), free(fb);
    return rc;
}

static int answered(const struct run *r)
{
    int k = 0;
    for (int i = 0; i < r->e.n; i++) k += tui_exam_get(&r->sheet, r->e.q[i].qid) != NULL;
    return k;
}

static bool submit(struct run *r)
{
    char err[1400];
    if (tui_exam_submit(&r->sheet, err, sizeof err) || r->sheet.submitted) return true;
    fprintf(stderr, "vramlab: exam: %s\n", err);
    return false;
}

/* --answers FILE: "QUESTION ANSWER" a line (# comments and blank lines skipped; \n in an answer
 * is a line break, for code), each saved as a student's typing would be. */
static int headless(struct run *r, const char *file)
{
    char err[1400];
    char *text = gpu_file_read(file, TUI_EXAM_MAX_FILE, GPU_FILE_STDIN, NULL, err, sizeof err);
    if (!text) return fprintf(stderr, "vramlab: exam: %s\n", err), 1;
    if (!r->sheet.started && !tui_exam_start(&r->sheet, (long)(r->e.minutes * 60 + 0.5), err, sizeof err)) {
        free(text);
        return fprintf(stderr, "vramlab: exam: %s\n", err), 1;
    }
    int ln = 0, rc = 0;
    bool late = tui_exam_left(&r->sheet, (long)time(NULL)) <= 0;
    for (char *line = text, *next; !late && line && *line; line = next) {
        next = strchr(line, '\n');
        if (next) *next++ = 0;
        ln++;
        line += strspn(line, " \t");
        if (!*line || *line == '#') continue;
        size_t ql = strcspn(line, " \t");
        char qid[2 * LT_ID_MAX + 2], ans[TUI_EXAM_MAX_ANSWER + 2];
        snprintf(qid, sizeof qid, "%.*s", (int)(ql < sizeof qid ? ql : 0), line);
        int k = 0;
        while (k < r->e.n && strcmp(r->e.q[k].qid, qid)) k++;
        if (k == r->e.n) {
            fprintf(stderr, "%s:%d: '%.*s' is not a question of this exam (vramlab exam %s "
                    "--list)\n", file, ln, (int)ql, line, r->c->argv[0]);
            rc = 2;
            continue;
        }
        const char *a = line + ql + strspn(line + ql, " \t");
        size_t o = 0;
        /* \n: a line break; \\: a backslash; one byte past the limit, for the store to refuse */
        for (; *a && o <= TUI_EXAM_MAX_ANSWER; a++)
            if (*a == '\\' && (a[1] == 'n' || a[1] == '\\')) ans[o++] = *++a == 'n' ? '\n' : '\\';
            else ans[o++] = *a;
        ans[o] = 0;
        if (!tui_exam_answer(&r->sheet, qid, ans, err, sizeof err)) {
            fprintf(stderr, "vramlab: exam: %s: %s\n", qid, err);
            late = tui_exam_left(&r->sheet, (long)time(NULL)) <= 0;
            if (!late) rc = 1;
        }
    }
    free(text);
    if (!late) late = tui_exam_left(&r->sheet, (long)time(NULL)) <= 0;
    if (r->c->opt[TUI_O_NO_SUBMIT] && !late) {
        printf(TR(r, "Saved: %d of %d answered; the exam goes on (the clock too).\n",
                  "已保存：已答 %d / %d；考试继续（计时也继续）。\n"), answered(r), r->e.n);
        return rc;
    }
    if (!submit(r)) return 1;
    int g = grade(r, late);
    return rc ? rc : g;
}

/* The questions, in this student's order, as a paper would print them (--list). */
static int list_questions(struct run *r, const int *order)
{
    printf("%s (%s)\n", r->e.title[r->zh], r->e.id);
    printf(TR(r, "%d questions, %g minutes\n", "%d 道题，%g 分钟\n"), r->e.n, r->e.minutes);
    for (int i = 0; i < r->e.n; i++) {
        const struct tui_exam_item *it = &r->items[order[i]];
        printf("%2d  %-28s %s%s%s%s\n", i + 1, it->qid, tui_kind_label(it->kind, r->zh),
               *it->unit ? " (" : "", it->unit, *it->unit ? ")" : "");
    }
    return 0;
}

int tui_cmd_exam(struct tui_ctx *c)
{
    struct run r = {.c = c, .zh = !strcmp(c->lang, "zh")};
    int rc;
    char err[1400], note[1400];
    if (!c->rt) return fprintf(stderr, "vramlab: no device backend: %s\n", c->why), 3;
    if ((rc = read_exam(&r, c->argv[0]))) goto done;
    if (c->opt[TUI_O_MINUTES]) {
        char *end;
        double m = strtod(c->opt[TUI_O_MINUTES], &end);
        if (*end || end == c->opt[TUI_O_MINUTES] || !(m >= 1 && m <= 600)) {
            rc = tui_cmd_usage_error(c->cmd, "--minutes wants the time limit, 1 to 600 minutes, not '%s'",
                                     c->opt[TUI_O_MINUTES]);
            goto done;
        }
        r.e.minutes = m;
    }
    if ((rc = prepare(&r))) goto done;
    if (!student(&r)) {
        rc = 2;
        goto done;
    }
    int *order = calloc((size_t)r.e.n + 1, sizeof *order);
    if (!order) {
        rc = 3;
        goto done;
    }
    lt_exam_order(&r.e, r.student, order);
    if (c->opt[TUI_O_LIST]) {
        rc = list_questions(&r, order);
        free(order);
        goto done;
    }
    if (!results_dir(&r)) {
        rc = 1;
        free(order);
        goto done;
    }
    if (!tui_exam_open(&r.sheet, r.e.id, r.student, note, sizeof note, err, sizeof err)) {
        fprintf(stderr, "vramlab: exam: %s\n", err);
        rc = 1;
        free(order);
        goto done;
    }
    if (note[0]) fprintf(stderr, "vramlab: %s\n", note);
    char handed[sizeof r.results + 2 * LT_ID_MAX + 16];
    if (!r.sheet.submitted && tui_exam_handed_in(r.results, r.e.id, r.student, handed, sizeof handed)) {
        /* handed in from another machine or account that shares the results folder: taking it
         * here would overwrite those results */
        char shown[sizeof handed + 64];
        gpu_esc_field(shown, sizeof shown, handed);
        fprintf(stderr, TR(&r, "vramlab: exam: %s handed in exam %s already (%s, from another machine or "
                               "account): it is not taken twice; your teacher removes that file to let you take it again\n",
                           "vramlab: exam: %s 已经交过考试 %s（%s，在另一台机器或另一个账户上）：不能再考一次；"
                           "老师删除该文件后才能重考\n"),
                r.student, r.e.id, shown);
        rc = 1;
        free(order);
        tui_exam_close(&r.sheet);
        goto done;
    }
    if (r.sheet.submitted) { /* taken already: the results again, never the exam */
        printf(TR(&r, "%s submitted exam %s already: it is not taken twice.\n",
                  "%s 已经提交过考试 %s：不能再考一次。\n"), r.student, r.e.id);
        rc = grade(&r, false);
    } else if (c->opt[TUI_O_ANSWER_FILE] || !isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)) {
        if (!c->opt[TUI_O_ANSWER_FILE]) {
            fprintf(stderr, "vramlab: exam needs a terminal, or --answers FILE (- for standard input)\n");
            rc = 3;
        } else {
            rc = headless(&r, c->opt[TUI_O_ANSWER_FILE]);
        }
    } else {
        struct tui_exam_item *seen = calloc((size_t)r.e.n + 1, sizeof *seen);
        char backend[256];
        lt_runtime_backend_line(c->rt, backend, sizeof backend);
        for (int i = 0; seen && i < r.e.n; i++) seen[i] = r.items[order[i]];
        struct tui_exam_view_in in = {r.e.title[r.zh], r.student, backend, r.e.n, seen, &r.sheet,
                                      (long)(r.e.minutes * 60 + 0.5)};
        enum tui_exam_end end = TUI_EXAM_LEFT;
        rc = seen ? tui_examview(c->rt, &in, &end) : 3;
        free(seen);
        if (!rc && end != TUI_EXAM_LEFT) rc = grade(&r, end == TUI_EXAM_TIMED_OUT);
        else if (!rc && r.sheet.started)
            printf(TR(&r, "Left the exam: %d of %d answered and saved; the clock keeps running. "
                          "`vramlab exam %s` brings you back.\n",
                      "已离开考试：已答并保存 %d / %d；计时继续。`vramlab exam %s` 可回来继续。\n"),
                   answered(&r), r.e.n, c->argv[0]);
    }
    free(order);
    tui_exam_close(&r.sheet);
done:
    for (int i = 0; i < r.nls; i++) lt_lesson_free(r.ls[i].ls), free(r.ls[i].path);
    free(r.ls), free(r.items), free(r.block);
    lt_exam_free(&r.e);
    return rc;
}
