/* tui_cmd_lesson.c - the commands about lessons: the tutor (`vramlab [LESSON]`), list, run,
 * eval, check, grade; and the lesson look-up every command shares (an unknown id is answered
 * with the ids that exist). */
#include "tui_snapshot.h"
#include "tui_snapview.h"
#include "tui_cmd.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gpu_esc.h"
#include "gpu_file.h"
#include "gpu_snapshot.h"
#include "gpu_sim.h"
#include "tui.h"
#include "tui_json.h"
#include "tui_plain.h"
#include "tui_record.h"

/* The catalog needs a runtime; a command that needs the lessons says why there is none. */
static int no_runtime(struct tui_ctx *c)
{
    fprintf(stderr, "vramlab: no device backend: %s\n", c->why);
    return 3;
}

void tui_cli_lesson_ids(struct tui_ctx *c, char *buf, size_t n)
{
    struct lt_catalog_entry *e;
    int k = c->rt ? lt_catalog_scan(c->rt, c->lessons, &e) : 0;
    size_t l = 0;
    buf[0] = 0;
    for (int i = 0; i < k && l < n; i++)
        if (!e[i].error) l += (size_t)snprintf(buf + l, n - l, "%s%s", l ? " " : "", e[i].id);
    if (k) lt_catalog_free(e, k);
    if (!buf[0]) snprintf(buf, n, "none in %s", c->lessons);
}

static bool is_file(const char *what)
{
    size_t l = strlen(what);
    return strchr(what, '/') || (l > 4 && !strcmp(what + l - 4, ".lua"));
}

/* The catalog's path of a lesson id (malloc'ed), or NULL. The file named for the id is loaded
 * alone first; only when that is not one lesson with this id (no such file, two of them, a file
 * that does not load or names another id) is the whole catalog read, as `list` does. */
static char *catalog_path(struct tui_ctx *c, const char *id)
{
    struct lt_catalog_entry *e;
    int n = c->rt ? lt_catalog_find(c->rt, c->lessons, id, &e) : 0;
    char *path = NULL;
    if (n == 1 && !e[0].error && !strcmp(e[0].id, id)) path = strdup(e[0].path);
    if (n) lt_catalog_free(e, n);
    if (path) return path;
    n = c->rt ? lt_catalog_scan(c->rt, c->lessons, &e) : 0;
    for (int i = 0; i < n && !path; i++)
        if (!e[i].error && !strcmp(e[i].id, id)) path = strdup(e[i].path);
    if (n) lt_catalog_free(e, n);
    return path;
}

bool tui_cli_has_lesson(struct tui_ctx *c, const char *id)
{
    char *p = catalog_path(c, id);
    bool known = p != NULL;
    free(p);
    return known;
}

/* The load error of a file named for lesson `id` (ID-*.lua; "file:line: what"), malloc'ed, or
 * NULL: a lesson that is there but does not load is reported as such, not as unknown. */
static char *load_error(struct tui_ctx *c, const char *id)
{
    struct lt_catalog_entry *e;
    int n = c->rt ? lt_catalog_find(c->rt, c->lessons, id, &e) : 0;
    char *err = NULL;
    for (int i = 0; i < n && !err; i++)
        if (e[i].error) err = strdup(e[i].error);
    if (n) lt_catalog_free(e, n);
    return err;
}

char *tui_cli_lesson_path(struct tui_ctx *c, const char *what)
{
    if (is_file(what)) return strdup(what);
    char *path = catalog_path(c, what);
    char *err = path ? NULL : load_error(c, what);
    if (err) {
        fprintf(stderr, TUI_CLI_T("vramlab: lesson %s does not load: %s\n", "vramlab：课程 %s 无法载入：%s\n"),
                what, err);
        free(err);
    } else if (!path) {
        char ids[2048];
        tui_cli_lesson_ids(c, ids, sizeof ids);
        if (!c->cmd->name) /* `vramlab WORD`: a mistyped command is as likely as a lesson */
            fprintf(stderr, "vramlab: '%s' is neither a command nor a lesson; lessons: %s "
                            "(vramlab --help)\n", what, ids);
        else fprintf(stderr, "vramlab: %s: no lesson '%s'; known: %s (vramlab list)\n",
                     c->cmd->name, what, ids);
    }
    return path;
}

int tui_cmd_list(struct tui_ctx *c)
{
    if (!c->rt) return no_runtime(c);
    struct lt_catalog_entry *e;
    int n = lt_catalog_scan(c->rt, c->lessons, &e), lang = strcmp(c->lang, "zh") ? 0 : 1;
    int last_ch = -1, bad = 0;
    struct tui_json j;
    tui_json_init(&j, stdout);
    if (n == 0) {
        fprintf(stderr, "vramlab: no lessons found in %s\n", c->lessons);
        return 3;
    }
    for (int i = 0; i < n; i++) {
        if (c->opt[TUI_O_JSON]) {
            tui_json_obj(&j);
            tui_json_kstr(&j, "id", e[i].id);
            tui_json_kint(&j, "chapter", e[i].error ? 0 : e[i].chapter);
            tui_json_kstr(&j, "title", e[i].title[lang]);
            tui_json_kstr(&j, "path", e[i].path);
            if (e[i].error) tui_json_kstr(&j, "error", e[i].error);
            tui_json_end(&j);
        } else if (e[i].error) {
            printf("  !!   %s\n       %s\n", e[i].title[lang], e[i].error);
        } else {
            if (e[i].chapter != last_ch) {
                printf(lang ? "%s第 %d 章：%s\n" : "%sChapter %d: %s\n", last_ch < 0 ? "" : "\n",
                       e[i].chapter, e[i].chapter_title[lang]);
                last_ch = e[i].chapter;
            }
            printf("  %-5s %s\n", e[i].id, e[i].title[lang]);
        }
        bad += e[i].error != NULL;
    }
    lt_catalog_free(e, n);
    return bad ? 1 : 0;
}

/* `run` with --record: every event goes to the recording too. */
struct run_sink {
    struct tui_plain *p;
    struct tui_rec *rec;
};

static void run_sink_fn(void *ud, const struct lt_event *ev)
{
    struct run_sink *s = ud;
    tui_rec_event(s->rec, ev);
    tui_plain_sink(s->p, ev);
}

const char *tui_kind_label(const char *kind, bool zh)
{
    static const char *const kinds[][2] = {
        {"choice", "选择题"}, {"number", "数值题"}, {"predict", "预测题"}, {"code", "编程题"}};
    for (size_t i = 0; zh && i < sizeof kinds / sizeof kinds[0]; i++)
        if (!strcmp(kind, kinds[i][0])) return kinds[i][1];
    return kind;
}

static bool zh(const struct tui_plain *p) { return p->lang && !strcmp(p->lang, "zh"); }

/* An experiment block: run it (or play its recorded run back). False when it failed. */
static bool run_experiment(struct tui_ctx *c, struct lt_lesson *ls, int b, struct tui_plain *p)
{
    char err[1024];
    const char *eid = lt_lesson_block_id(ls, b);
    if (c->rp) { /* the recorded events, all at once; nothing is measured */
        const struct tui_replay_run *run = tui_replay_find(c->rp, lt_lesson_id(ls), eid);
        struct tui_player pl;
        tui_player_start(&pl, run, 0, 0);
        if (run) tui_player_step(&pl, 0, tui_plain_sink, p);
        else {
            struct lt_event ev = {.type = LT_EV_STATUS, .panel = "", .series = "", .unit = "",
                                  .text = zh(p) ? "REPLAY：录制里没有这个实验的运行（没有测量）"
                                                : "REPLAY: the recording has no run of this experiment "
                                                  "(nothing measured)"};
            tui_plain_sink(p, &ev);
        }
        return true;
    }
    tui_rec_begin(c->rec, lt_lesson_id(ls), eid, lt_lesson_block_title(ls, b));
    enum lt_run_state st = lt_lesson_run_start(ls, b, err, sizeof err);
    while (st == LT_RUN_BUSY) st = lt_lesson_run_step(ls, err, sizeof err);
    tui_rec_end(c->rec, st, st == LT_RUN_FAILED ? err : "");
    if (st == LT_RUN_FAILED) fprintf(stderr, "%s\n", err);
    return st != LT_RUN_FAILED;
}

static void run_exercise(struct lt_lesson *ls, int b, struct tui_plain *p, struct tui_json *j)
{
    struct lt_exercise_info x;
    lt_lesson_exercise(ls, b, &x);
    if (p->json) {
        tui_json_obj(j);
        tui_json_kstr(j, "type", "exercise");
        tui_json_kstr(j, "id", x.id);
        tui_json_kstr(j, "kind", x.kind);
        tui_json_kstr(j, "prompt", x.prompt);
        tui_json_end(j);
        return;
    }
    printf(zh(p) ? "\n?? 练习（%s）\n" : "\n?? Exercise (%s)\n", tui_kind_label(x.kind, zh(p)));
    tui_plain_markup(p, x.prompt);
    for (int k = 0; k < x.nchoices; k++) printf("  %d) %s\n", k + 1, x.choices[k]);
    if (x.nchoices) putchar('\n');
}

static int run_lesson(struct tui_ctx *c, const char *what)
{
    char err[1024], line[256];
    char *path = tui_cli_lesson_path(c, what);
    if (!path) return 2;
    struct lt_lesson *ls = lt_lesson_load(c->rt, path, err, sizeof err);
    free(path);
    if (!ls) {
        fprintf(stderr, "%s\n", err);
        return 1;
    }
    bool json = c->opt[TUI_O_JSON] != NULL;
    struct tui_plain p = {stdout, json, c->dev->info.simulated, c->lang, c->rp != NULL};
    struct run_sink rs = {&p, c->rec};
    struct tui_json j;
    tui_json_init(&j, stdout);
    lt_runtime_set_sink(c->rt, run_sink_fn, &rs);
    lt_runtime_backend_line(c->rt, line, sizeof line);
    if (c->rp) tui_replay_label(c->rp, line, sizeof line); /* never shown as this machine's numbers */
    if (json) {
        tui_json_obj(&j);
        tui_json_kstr(&j, "type", "lesson");
        tui_json_kstr(&j, "id", lt_lesson_id(ls));
        tui_json_kstr(&j, "title", lt_lesson_title(ls));
        tui_json_kstr(&j, "backend", line);
        tui_json_kbool(&j, "simulated", c->rp ? c->rp->simulated : c->dev->info.simulated);
        if (c->rp) tui_json_kbool(&j, "replay", true);
        tui_json_end(&j);
    } else {
        printf("%s %s\n[%s]\n", lt_lesson_id(ls), lt_lesson_title(ls), line);
    }
    int rc = 0;
    for (int b = 0; b < lt_lesson_nblocks(ls); b++) {
        switch (lt_lesson_block_kind(ls, b)) {
        case LT_BLOCK_TEXT: tui_plain_markup(&p, lt_lesson_block_text(ls, b)); break;
        case LT_BLOCK_EXPERIMENT:
            if (json) {
                tui_json_obj(&j);
                tui_json_kstr(&j, "type", "experiment");
                tui_json_kstr(&j, "title", lt_lesson_block_title(ls, b));
                tui_json_end(&j);
            } else {
                printf(zh(&p) ? "\n>> 实验：%s\n" : "\n>> Experiment: %s\n", lt_lesson_block_title(ls, b));
            }
            tui_plain_markup(&p, lt_lesson_block_text(ls, b));
            fflush(stdout);
            if (!run_experiment(c, ls, b, &p)) rc = 1;
            break;
        case LT_BLOCK_EXERCISE: run_exercise(ls, b, &p, &j); break;
        }
    }
    lt_lesson_free(ls);
    return rc;
}

/* Lessons one after another in this process: the device opens once (a GPU's context and its
 * kernels load once, not per lesson). The worst status wins: 2 (usage) over 1 (a lesson that
 * did not load or an experiment that failed) over 0; a lesson that fails does not stop the next. */
int tui_cmd_run(struct tui_ctx *c)
{
    int rc = 0;
    for (int i = 0; i < c->argc; i++) {
        int r = run_lesson(c, c->argv[i]);
        if (r > rc) rc = r;
        fflush(stdout);
    }
    return rc;
}

/* `vramlab [LESSON]`: the tutor on a terminal; elsewhere the list, or the lesson run. */
int tui_cmd_tutor(struct tui_ctx *c)
{
    const char *want = c->argc ? c->argv[0] : NULL;
    bool tty = isatty(STDOUT_FILENO) && isatty(STDIN_FILENO);
    size_t wl = want ? strlen(want) : 0;
    if (wl > 7 && !strcmp(want + wl - 7, ".pickle")) { /* vramlab FILE.pickle: a memory snapshot */
        if (tty) return tui_snapview(want, c->lang && !strcmp(c->lang, "zh"));
        struct tui_snapshot_args a = {.file = want, .json = c->opt[TUI_O_JSON] != NULL,
                                      .zh = c->lang && !strcmp(c->lang, "zh")};
        return tui_snapshot_cmd(&a, stdout, stderr);
    }
    if (!want) return tty ? tui_run(c->rt, &(struct tui_opts){c->lessons, NULL, c->why, c->rec,
                                                               c->rp, c->warning})
                          : tui_cmd_list(c);
    if (!tty) return run_lesson(c, want);
    char *path = tui_cli_lesson_path(c, want);
    if (!path) return 2;
    free(path);
    struct tui_opts to = {c->lessons, want, c->why, c->rec, c->rp, c->warning};
    return tui_run(c->rt, &to);
}

int tui_cmd_eval(struct tui_ctx *c)
{
    char err[1024];
    struct tui_plain p = {stdout, c->opt[TUI_O_JSON] != NULL, c->dev->info.simulated, c->lang,
                          false};
    lt_runtime_set_sink(c->rt, tui_plain_sink, &p);
    const char *snap = c->opt[TUI_O_SNAPSHOT];
    if (snap) { /* the learner's own snapshot: checked now, read when alloc.snapshot() asks */
        FILE *f = gpu_file_open(snap, GPU_SNAPSHOT_MAX_FILE, 0, err, sizeof err);
        if (!f) {
            fprintf(stderr, "vramlab: eval: --snapshot: %s\n", err);
            return 1;
        }
        fclose(f);
        lt_runtime_set_snapshot(c->rt, snap);
    }
    struct lt_vm *vm = lt_vm_new(c->rt, err, sizeof err);
    if (!vm) {
        fprintf(stderr, "vramlab: %s\n", err);
        return 3;
    }
    bool ok = lt_vm_dofile(vm, c->argv[0], err, sizeof err);
    lt_vm_free(vm);
    fflush(stdout);
    if (!ok) fprintf(stderr, "%s\n", err);
    return ok ? 0 : 1;
}

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
    int bad, total, graded, wrong, runs, run_bad, audited;
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

/* --run: every experiment runs to its end (on the simulator: check opens no GPU); what it
 * shows is not printed. The number that failed, each said as "file:line: what". */
static void discard(void *ud, const struct lt_event *ev) { (void)ud, (void)ev; }

static int run_all(struct lt_runtime *rt, struct lt_lesson *ls, int *runs)
{
    char err[1024];
    int bad = 0;
    lt_runtime_set_sink(rt, discard, NULL);
    for (int b = 0; b < lt_lesson_nblocks(ls); b++) {
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

/* A lesson passes the loader and the course rules (sources); with --run its experiments run, and
 * with --answers its reference answers are graded as they should be. */
static void check_lesson(struct lt_runtime *rt, const char *path, struct check_ctx *c)
{
    char err[1024];
    int graded = 0, audited = 0, wrong = 0, failed = 0;
    c->total++;
    struct lt_lesson *ls = lt_lesson_load(rt, path, err, sizeof err);
    bool draft = ls && lt_lesson_draft(ls, err, sizeof err);
    if (draft) report(c->strict ? "error: " : "warning: ", err);
    /* the catalog lists it from its header: the same as what loads, or (a warning; an error
     * with --strict) not readable without running the file */
    int header = ls ? lt_lesson_check_header(ls, err, sizeof err) : 1;
    if (header == 0) report(c->strict ? "error: " : "warning: ", err);
    if (header < 0) report("", err), c->bad++;
    else if (!ls || !lt_lesson_lint(ls, err, sizeof err)) report("", err), c->bad++;
    else if ((draft || header == 0) && c->strict) c->bad++;
    else {
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
    struct check_ctx cc = {c->assets, c->opt[TUI_O_ANSWERS] != NULL, c->opt[TUI_O_STRICT] != NULL,
                           c->opt[TUI_O_RUN] != NULL, !strcmp(c->lang, "zh"), 0, 0, 0, 0, 0, 0, 0};
    if (!c->rt) return no_runtime(c);
    /* grading measures: small host sizes, as tests use, so that checking stays quick */
    if ((cc.answers || cc.run) && c->dev && !c->dev->host_max) c->dev->host_max = 4u << 20;
    if (c->argc == 0) {
        if (!check_dir(c, c->lessons, &cc)) return 3;
        gpu_profile_list(c->datadir, check_profile, &cc);
        /* a teacher's folder adds names: one a built-in profile or snapshot has is an error */
        gpu_path_clashes(c->assets, "assets/gpus", ".txt", check_clash, &cc);
        gpu_path_clashes(c->assets, "assets/snapshots", ".pickle", check_clash, &cc);
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
            struct check_ctx one = {dd, false, false, false, cc.zh, 0, 0, 0, 0, 0, 0, 0};
            check_profile(id, &one);
            cc.bad += one.bad, cc.total += one.total;
        } else if (stat(f, &st) == 0 && S_ISDIR(st.st_mode)) {
            if (!check_dir(c, f, &cc)) cc.bad++;
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
    printf(!cc.zh ? "%d file(s) checked (lessons and GPU profiles), %d with errors\n"
                  : "检查了 %d 个文件（课程和 GPU 配置），%d 个有错误\n", cc.total, cc.bad);
    if (cc.run)
        printf(!cc.zh ? "%d experiment(s) run on the simulator, %d failed\n"
                      : "在模拟器上运行了 %d 个实验，%d 个失败\n", cc.runs, cc.run_bad);
    if (cc.answers) {
        printf(!cc.zh ? "%d answer(s) of the tolerance audit graded (every number exercise)\n"
                      : "容差审查批改了 %d 个答案（每道数值题）\n", cc.audited);
        printf(!cc.zh ? "%d reference answer(s) graded, %d not as expected\n"
                      : "批改了 %d 个参考答案，%d 个与预期不符\n", cc.graded, cc.wrong);
    }
    return cc.bad ? 1 : 0;
}

/* The exercise block of a lesson by id, or -1 after listing the ids it has. */
static int find_exercise(struct tui_ctx *c, struct lt_lesson *ls, const char *id)
{
    char ids[2048];
    size_t l = 0;
    struct lt_exercise_info x;
    ids[0] = 0;
    for (int b = 0; b < lt_lesson_nblocks(ls); b++) {
        if (!lt_lesson_exercise(ls, b, &x)) continue;
        if (!strcmp(x.id, id)) return b;
        if (l < sizeof ids) l += (size_t)snprintf(ids + l, sizeof ids - l, " %s", x.id);
    }
    fprintf(stderr, "vramlab: %s: lesson %s has no exercise '%s'; %s%s\n", tui_cmd_label(c->cmd),
            lt_lesson_id(ls), id, l ? "its exercises:" : "it has none", ids);
    return -1;
}

/* Grade one answer: for tests, scripts and teachers checking an exercise from the shell. An
 * answer of @FILE reads the answer (a code exercise's Lua source) from FILE, within LT_MAX_FILE. */
int tui_cmd_grade(struct tui_ctx *c)
{
    char err[1024], feedback[2048];
    char *path = tui_cli_lesson_path(c, c->argv[0]);
    if (!path) return 2;
    struct lt_lesson *ls = lt_lesson_load(c->rt, path, err, sizeof err);
    free(path);
    if (!ls) {
        fprintf(stderr, "%s\n", err);
        return 2;
    }
    int b = find_exercise(c, ls, c->argv[1]), rc = 2, tries = 1;
    if (c->opt[TUI_O_TRY]) {
        char *end;
        long t = strtol(c->opt[TUI_O_TRY], &end, 10);
        if (*end || end == c->opt[TUI_O_TRY] || t < 1 || t > 99) {
            lt_lesson_free(ls);
            return tui_cmd_usage_error(c->cmd, "--try wants a try number from 1 to 99, not '%s'",
                                       c->opt[TUI_O_TRY]);
        }
        tries = (int)t;
    }
    const char *given = c->argv[2];
    char *answer = NULL;
    if (b >= 0 && given[0] == '@' &&
        !(answer = gpu_file_read(given + 1, LT_MAX_FILE, GPU_FILE_STDIN, NULL, err, sizeof err)))
        fprintf(stderr, "%s\n", err);
    if (b >= 0 && (answer || given[0] != '@')) {
        struct lt_exercise_info before, after;
        lt_lesson_set_tries(ls, b, tries - 1);
        lt_lesson_exercise(ls, b, &before);
        bool ok = lt_lesson_answer(ls, b, answer ? answer : given, feedback, sizeof feedback);
        lt_lesson_exercise(ls, b, &after);
        if (after.tries == before.tries) { /* the grader could not read it: not a try */
            fprintf(stderr, "%s\n", feedback);
        } else {
            printf("%s\n", feedback);
            rc = ok ? 0 : 1;
        }
    }
    free(answer);
    lt_lesson_free(ls);
    return rc;
}
