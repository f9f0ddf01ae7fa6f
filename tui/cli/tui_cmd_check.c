/* tui_cmd_check.c - `vramlab check`: lessons (a file, a folder, an id, or the whole course), GPU
 * profiles, and a teacher's course files, each mistake said as `file:line: what` at the field
 * that is wrong. What it holds a lesson to, beyond what the loader refuses:
 *  - the course rules (lesson.lua's lint): errors; the house rules of the built-in course (its
 *    Sources callouts) are errors there and warnings for a teacher's lesson unless --strict; a
 *    text not translated (a draft's, or a zh text that is its en word for word) is a warning,
 *    an error with --strict;
 *  - the catalog's reading of its header (lt_header.c): the same as what loads;
 *  - its lesson id against every other lesson of the course, built-in or a teacher's;
 *  - --run: every experiment runs, and every predict exercise's measure() returns its figure in
 *    the exercise's unit (lt_lesson_check_measure);
 *  - --answers: the reference answers and the tolerance audit (lt_answers.c); an exercise whose
 *    own checking code raises is reported as broken.
 * And a teacher's course.lua: read as data, each section a lesson of the course, the folder's
 * lessons it leaves out said; and each exam (NAME.exam.lua): each question an exercise of the
 * course, none twice, each mistake at its line.
 * Tested by tests/cli/check.sh and tests/cli/check_teacher.sh (a failing fixture per rule). */
#include "tui_cmd.h"

#include <dirent.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gpu_esc.h"
#include "gpu_file.h"
#include "gpu_sim.h"
#include "lt_course.h"
#include "lt_exam.h"

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* One record of check's report on stderr: what a lesson's own text put in it (an error message,
 * a file name) cannot start a line of its own (gpu_esc.h). */
static void report(const char *prefix, const char *msg)
{
    char shown[4096];
    fprintf(stderr, "%s%s\n", prefix, gpu_esc_field(shown, sizeof shown, msg));
}

struct check_ctx {
    const char *datadir;
    bool answers, strict, run, zh;
    int bad, total, graded, wrong, runs, run_bad, audited, warnings;
    char builtin[PATH_MAX];        /* the built-in course's folder (realpath), "" if unknown */
    struct lt_catalog_entry *course; /* every lesson of the course, for id clashes */
    int ncourse;
};

static void check_profile(const char *id, void *ud)
{
    struct check_ctx *c = ud;
    struct gpu_profile p;
    char err[1024];
    c->total++;
    if (gpu_profile_load(c->datadir, id, &p, err, sizeof err) != GPU_OK)
        report("", err), c->bad++;
    else printf(!c->zh ? "ok    profile %s\n" : "通过  配置 %s\n", id);
}

static void check_clash(const char *unused, const char *used, void *ud)
{
    struct check_ctx *c = ud;
    char line[2400];
    snprintf(line, sizeof line, "%s: a built-in file has this name (%s): this one is never used; "
             "rename it", unused, used);
    report("", line);
    c->bad++, c->total++;
}

static void report_line(void *ud, const char *line)
{
    (void)ud;
    report("", line);
}

/* Is path a lesson of the built-in course (under DATADIR/lessons)? */
static bool builtin(const struct check_ctx *c, const char *path)
{
    char real[PATH_MAX];
    size_t l = strlen(c->builtin);
    return l && realpath(path, real) && !strncmp(real, c->builtin, l) && real[l] == '/';
}

static bool same_file(const char *a, const char *b)
{
    struct stat x, y;
    return stat(a, &x) == 0 && stat(b, &y) == 0 && x.st_dev == y.st_dev && x.st_ino == y.st_ino;
}

/* A lesson id used by another lesson of the course, built-in or a teacher's: an error on the
 * teacher's file (a built-in lesson is reported only against another built-in one). */
static bool clashes(struct check_ctx *c, const char *path, const char *id)
{
    bool mine_builtin = builtin(c, path);
    for (int i = 0; i < c->ncourse; i++) {
        const struct lt_catalog_entry *e = &c->course[i];
        if (e->error || strcmp(e->id, id) || same_file(e->path, path)) continue;
        if (mine_builtin && !builtin(c, e->path)) continue; /* said on the teacher's file */
        char line[4200];
        snprintf(line, sizeof line, "%s:%d: lesson id %s is also used by %s: a course shows one "
                 "lesson per id; give this one another id", path, lt_catalog_id_line(path), id, e->path);
        report("", line);
        return true;
    }
    return false;
}

/* --run: every experiment runs to its end (on the simulator: check opens no GPU); what it
 * shows is not printed. Then each predict exercise's measure() once, its figure held to its
 * unit. The number that failed, each said as "file:line: what". */
static void discard(void *ud, const struct lt_event *ev) { (void)ud, (void)ev; }

static int run_all(struct lt_runtime *rt, struct lt_lesson *ls, int *runs)
{
    char err[1024];
    int bad = 0;
    lt_runtime_set_sink(rt, discard, NULL);
    for (int b = 0; b < lt_lesson_nblocks(ls); b++) {
        if (lt_lesson_block_kind(ls, b) == LT_BLOCK_EXERCISE) {
            struct lt_exercise_info x;
            lt_lesson_exercise(ls, b, &x);
            if (strcmp(x.kind, "predict")) continue;
            (*runs)++;
            int r = lt_lesson_check_measure(ls, b, err, sizeof err);
            if (r) {
                char line[1200];
                if (r < 0) snprintf(line, sizeof line, "%s (predict exercise '%s')", err, x.id);
                report("", r > 0 ? err : line);
                bad++;
            }
            continue;
        }
        if (lt_lesson_block_kind(ls, b) != LT_BLOCK_EXPERIMENT) continue;
        (*runs)++;
        err[0] = 0;
        enum lt_run_state st = lt_lesson_run_start(ls, b, err, sizeof err);
        while (st == LT_RUN_BUSY) st = lt_lesson_run_step(ls, err, sizeof err);
        if (st != LT_RUN_DONE) {
            char line[1200];
            snprintf(line, sizeof line, "%s (experiment '%s')", err[0] ? err : "did not finish",
                     lt_lesson_block_id(ls, b));
            report("", line);
            bad++;
        }
    }
    lt_runtime_set_sink(rt, NULL, NULL);
    return bad;
}

struct lint_ctx {
    struct check_ctx *c;
    bool builtin;
    int errors;
};

static void lint_report(void *ud, enum lt_lint sev, const char *msg)
{
    struct lint_ctx *l = ud;
    bool error = sev == LT_LINT_ERROR || l->c->strict || (sev == LT_LINT_HOUSE && l->builtin);
    report(!error ? "warning: " : sev == LT_LINT_WARN || (sev == LT_LINT_HOUSE && !l->builtin) ? "error: " : "", msg);
    if (error) l->errors++;
    else l->c->warnings++;
}

/* A lesson passes the loader and the course rules; with --run its experiments run, and with
 * --answers its reference answers are graded as they should be. */
static void check_lesson(struct lt_runtime *rt, const char *path, struct check_ctx *c)
{
    char err[1024];
    int graded = 0, audited = 0, wrong = 0, failed = 0;
    c->total++;
    struct lt_lesson *ls = lt_lesson_load(rt, path, err, sizeof err);
    if (!ls) {
        report("", err), c->bad++;
        return;
    }
    struct lint_ctx lc = {c, builtin(c, path), 0};
    lt_lesson_lint(ls, lint_report, &lc);
    /* the catalog lists it from its header: the same as what loads, or (a warning; an error
     * with --strict) not readable without running the file */
    int header = lt_lesson_check_header(ls, err, sizeof err);
    if (header == 0) lint_report(&lc, LT_LINT_WARN, err);
    if (header < 0) report("", err), lc.errors++;
    if (clashes(c, path, lt_lesson_id(ls))) lc.errors++;
    if (lc.errors) {
        c->bad++;
    } else {
        if (c->run) failed = run_all(rt, ls, &c->runs);
        if (c->answers) wrong = lt_lesson_check_answers(ls, &graded, &audited, report_line, NULL);
        c->graded += graded, c->audited += audited, c->wrong += wrong, c->run_bad += failed;
        c->bad += wrong + failed > 0;
        const char *ok = c->zh ? "通过" : "ok  ";
        if (!wrong && !failed && c->answers)
            printf(c->zh ? "%s  %s  %s  （%d 个答案，审查 %d 个）\n" : "%s  %s  %s  (%d answers, %d audited)\n",
                   ok, lt_lesson_id(ls), path, graded, audited);
        else if (!wrong && !failed) printf("%s  %s  %s\n", ok, lt_lesson_id(ls), path);
    }
    lt_lesson_free(ls);
}

/* A teacher's course.lua (lt_course.h): read as data, each section a lesson of the course (the
 * course's folders and `folder`, the one it is in), and the folder's own lessons that it leaves
 * out said (a warning: the class does not see them). */
static void check_course(struct tui_ctx *c, const char *path, struct check_ctx *cc)
{
    struct lt_course course;
    char err[4600], folders[sizeof c->lessons + 4200], folder[4200];
    cc->total++;
    if (lt_course_read_file(path, &course, err, sizeof err) < 0) {
        report("", err), cc->bad++;
        return;
    }
    snprintf(folder, sizeof folder, "%s", path);
    char *slash = strrchr(folder, '/');
    if (slash) *slash = 0;
    else snprintf(folder, sizeof folder, ".");
    snprintf(folders, sizeof folders, "%s:%s", c->lessons, folder);
    struct lt_catalog_entry *e;
    int n = lt_catalog_scan_all(c->rt, folders, &e), bad = 0;
    for (int i = 0; i < course.n; i++) {
        int k = 0;
        while (k < n && (e[k].error || strcmp(e[k].id, course.sections[i].id))) k++;
        if (k == n) {
            char line[4800];
            snprintf(line, sizeof line, "%s:%d: section %s is not a lesson of the course (vramlab "
                     "--lessons %s list shows them)", path, course.sections[i].line,
                     course.sections[i].id, folder);
            report("", line), bad++;
        }
    }
    char real[PATH_MAX], in[PATH_MAX];
    bool have_real = realpath(folder, real) != NULL;
    size_t rl = strlen(real);
    for (int k = 0; have_real && k < n; k++) { /* the folder's own lessons it leaves out */
        if (e[k].error || lt_course_find(&course, e[k].id) >= 0 || !realpath(e[k].path, in) ||
            strncmp(in, real, rl) || in[rl] != '/')
            continue;
        char line[4800];
        snprintf(line, sizeof line, "%s:%d: lesson %s is not in %s's sections: the class does "
                 "not see it", e[k].path, lt_catalog_id_line(e[k].path), e[k].id, path);
        report(cc->strict ? "error: " : "warning: ", line);
        if (cc->strict) bad++;
        else cc->warnings++;
    }
    lt_catalog_free(e, n);
    if (bad) cc->bad++;
    else printf(!cc->zh ? "ok    course %s (%d sections)\n" : "通过  课程 %s（%d 个小节）\n", path, course.n);
    lt_course_free(&course);
}

static void exam_report(void *ud, const char *msg)
{
    (*(int *)ud)++;
    report("", msg);
}

/* An exam file (lt_exam.h): read as data, each question an exercise of the course as the class
 * sees it, none twice. */
static void check_exam(struct tui_ctx *c, const char *path, struct check_ctx *cc)
{
    struct lt_exam e;
    char err[4800], folder[4200], folders[sizeof c->lessons + 4200];
    cc->total++;
    if (lt_exam_read_file(path, &e, err, sizeof err) < 0) {
        report("", err), cc->bad++;
        lt_exam_free(&e);
        return;
    }
    /* the course as the class sees it, the exam's own folder added when it is not in it */
    snprintf(folder, sizeof folder, "%s", path);
    char *slash = strrchr(folder, '/');
    if (slash) *slash = 0;
    else snprintf(folder, sizeof folder, ".");
    char real[PATH_MAX], one[4096], r1[PATH_MAX];
    bool in = false;
    int k = 0;
    for (const char *p = c->lessons; realpath(folder, real) && (p = gpu_path_next(p, one, sizeof one)); k++) {
        size_t l = realpath(one, r1) ? strlen(r1) : 0;
        in = in || (k > 0 && l && !strncmp(real, r1, l) && (real[l] == '/' || !real[l]));
    }
    if (!in) { /* the exam's folder (or the one above exams/) */
        size_t l = strlen(folder);
        if (l > 6 && !strcmp(folder + l - 6, "/exams")) folder[l - 6] = 0;
    }
    snprintf(folders, sizeof folders, "%s%s%s", c->lessons, in ? "" : ":", in ? "" : folder);
    int bad = 0;
    lt_exam_resolve(c->rt, folders, &e, exam_report, &bad);
    if (bad) cc->bad++;
    else printf(!cc->zh ? "ok    exam %s (%d questions, %g minutes)\n" : "通过  考试 %s（%d 道题，%g 分钟）\n",
                path, e.n, e.minutes);
    lt_exam_free(&e);
}

/* The exam files of a folder (NAME.exam.lua, up to two folders down). */
static void check_folder_exams(struct tui_ctx *c, const char *dir, int depth, struct check_ctx *cc)
{
    DIR *d = depth <= 2 ? opendir(dir) : NULL;
    struct dirent *de;
    char path[4200];
    char **names = NULL;
    int n = 0;
    while (d && (de = readdir(d))) {
        size_t l = strlen(de->d_name);
        if (de->d_name[0] == '.') continue;
        snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
        struct stat st;
        if (stat(path, &st) != 0) continue;
        bool exam = S_ISREG(st.st_mode) && l > 9 && !strcmp(de->d_name + l - 9, ".exam.lua");
        if (!exam && !S_ISDIR(st.st_mode)) continue;
        char **nn = realloc(names, (size_t)(n + 1) * sizeof *nn);
        if (!nn) break;
        names = nn;
        if ((names[n] = strdup(path))) n++;
    }
    if (d) closedir(d);
    if (n > 1) qsort(names, (size_t)n, sizeof *names, cmp_str);
    for (int i = 0; i < n; i++) {
        size_t l = strlen(names[i]);
        if (l > 9 && !strcmp(names[i] + l - 9, ".exam.lua")) check_exam(c, names[i], cc);
        else check_folder_exams(c, names[i], depth + 1, cc);
        free(names[i]);
    }
    free(names);
}

/* The course.lua of a folder, when it has one. */
static void check_folder_course(struct tui_ctx *c, const char *dir, struct check_ctx *cc)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/course.lua", dir);
    if (access(path, F_OK) == 0) check_course(c, path, cc);
    check_folder_exams(c, dir, 0, cc);
}

/* Every lesson of a folder (or colon-separated folders). False when there is none. */
static bool check_dir(struct tui_ctx *c, const char *dir, struct check_ctx *cc)
{
    struct lt_catalog_entry *e;
    int k = lt_catalog_scan_all(c->rt, dir, &e); /* every lesson, whatever it takes */
    for (int i = 0; i < k; i++) {
        if (e[i].error) fprintf(stderr, "%s\n", e[i].error), cc->bad++, cc->total++;
        else check_lesson(c->rt, e[i].path, cc);
    }
    lt_catalog_free(e, k);
    if (k == 0) fprintf(stderr, "vramlab: no lessons found in %s\n", dir);
    return k > 0;
}

int tui_cmd_check(struct tui_ctx *c)
{
    struct check_ctx cc = {.datadir = c->assets, .answers = c->opt[TUI_O_ANSWERS] != NULL,
                           .strict = c->opt[TUI_O_STRICT] != NULL, .run = c->opt[TUI_O_RUN] != NULL,
                           .zh = !strcmp(c->lang, "zh")};
    if (!c->rt) {
        fprintf(stderr, "vramlab: no device backend: %s\n", c->why);
        return 3;
    }
    char root[PATH_MAX + 16];
    snprintf(root, sizeof root, "%s/lessons", c->datadir);
    if (!realpath(root, cc.builtin)) cc.builtin[0] = 0;
    /* grading measures: small host sizes, as tests use, so that checking stays quick */
    if ((cc.answers || cc.run) && c->dev && !c->dev->host_max) c->dev->host_max = 4u << 20;
    if (c->argc == 0) {
        if (!check_dir(c, c->lessons, &cc)) return 3;
        char one[4096];
        int k = 0;
        for (const char *q = c->lessons; (q = gpu_path_next(q, one, sizeof one)); k++)
            if (k > 0 && one[0]) check_folder_course(c, one, &cc); /* a teacher's course.lua */
        gpu_profile_list(c->datadir, check_profile, &cc);
        /* a teacher's folder adds names: one a built-in profile or snapshot has is an error */
        gpu_path_clashes(c->assets, "assets/gpus", ".txt", check_clash, &cc);
        gpu_path_clashes(c->assets, "assets/snapshots", ".pickle", check_clash, &cc);
    } else { /* a file, a folder or an id is checked against the whole course's ids */
        cc.ncourse = lt_catalog_scan_all(c->rt, c->lessons, &cc.course);
    }
    for (int i = 0; i < c->argc; i++) {
        /* DIR/assets/gpus/ID.txt is a profile; a folder, its lessons; an id, that lesson;
         * X.answers.lua, the lesson X.lua; anything else a lesson file */
        const char *f = c->argv[i], *g = strstr(f, "assets/gpus/");
        size_t l = strlen(f);
        struct stat st;
        if (g && l > 4 && !strcmp(f + l - 4, ".txt")) {
            char dd[1024], id[64];
            snprintf(dd, sizeof dd, "%.*s", g > f ? (int)(g - f - 1) : 1, g > f ? f : ".");
            snprintf(id, sizeof id, "%.*s", (int)(l - 4 - (size_t)(g + 12 - f)), g + 12);
            struct check_ctx one = {.datadir = dd, .zh = cc.zh};
            check_profile(id, &one);
            cc.bad += one.bad, cc.total += one.total;
        } else if (stat(f, &st) == 0 && S_ISDIR(st.st_mode)) {
            if (!check_dir(c, f, &cc)) cc.bad++;
            check_folder_course(c, f, &cc);
        } else if (l >= 10 && !strcmp(f + l - 10, "course.lua") && (l == 10 || f[l - 11] == '/')) {
            check_course(c, f, &cc);
        } else if (l > 9 && !strcmp(f + l - 9, ".exam.lua")) {
            check_exam(c, f, &cc);
        } else if (l > 12 && !strcmp(f + l - 12, ".answers.lua")) {
            char lf[2048];
            snprintf(lf, sizeof lf, "%.*s.lua", (int)(l - 12), f);
            check_lesson(c->rt, lf, &cc);
        } else {
            char *path = tui_cli_lesson_path(c, f);
            if (path) check_lesson(c->rt, path, &cc);
            else cc.bad++, cc.total++;
            free(path);
        }
    }
    if (cc.ncourse) lt_catalog_free(cc.course, cc.ncourse);
    printf(!cc.zh ? "%d file(s) checked (lessons and GPU profiles), %d with errors\n"
                  : "检查了 %d 个文件（课程和 GPU 配置），%d 个有错误\n", cc.total, cc.bad);
    if (cc.warnings)
        printf(!cc.zh ? "%d warning(s): errors with --strict\n" : "%d 个警告：加 --strict 时为错误\n",
               cc.warnings);
    if (cc.run)
        printf(!cc.zh ? "%d experiment(s) and predict measure(s) run on the simulator, %d failed\n"
                      : "在模拟器上运行了 %d 个实验和预测题测量，%d 个失败\n", cc.runs, cc.run_bad);
    if (cc.answers) {
        printf(!cc.zh ? "%d answer(s) of the tolerance audit graded (every number exercise)\n"
                      : "容差审查批改了 %d 个答案（每道数值题）\n", cc.audited);
        printf(!cc.zh ? "%d reference answer(s) graded, %d not as expected\n"
                      : "批改了 %d 个参考答案，%d 个与预期不符\n", cc.graded, cc.wrong);
    }
    return cc.bad ? 1 : 0;
}
