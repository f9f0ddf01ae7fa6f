/* tui_cmd_lesson.c - the commands about lessons: the tutor (`vramlab [LESSON]`), list, run,
 * eval, grade (check: tui_cmd_check.c); and the lesson look-up every command shares (an unknown id is answered
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
#include "gpu_suggest.h"
#include "lt_course.h"
#include "tui.h"
#include "tui_json.h"
#include "tui_plain.h"
#include "tui_record.h"
#include "tui_run.h"

/* The catalog needs a runtime; a command that needs the lessons says why there is none. */
static int no_runtime(struct tui_ctx *c)
{
    fprintf(stderr, "vramlab: no device backend: %s\n", c->why);
    return 3;
}

/* The lesson id closest to a mistyped one (gpu_suggest.h) into out, or "". */
static void suggest_lesson(struct tui_ctx *c, const char *word, char *out, size_t n)
{
    struct lt_catalog_entry *e;
    int k = c->rt ? lt_catalog_scan(c->rt, c->lessons, &e) : 0;
    struct gpu_suggest s;
    gpu_suggest_init(&s, word);
    for (int i = 0; i < k; i++)
        if (!e[i].error) gpu_suggest_add(&s, e[i].id);
    snprintf(out, n, "%s", s.best ? s.best : "");
    if (k) lt_catalog_free(e, k);
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

void tui_cli_no_lesson(struct tui_ctx *c, const char *what)
{
    char ids[2048], alt[64], mean[160] = "";
    tui_cli_lesson_ids(c, ids, sizeof ids);
    suggest_lesson(c, what, alt, sizeof alt);
    const char *cmd = c->cmd->name ? NULL : tui_cmd_suggest(what);
    /* `vramlab WORD`: a mistyped command is as likely as a lesson; the closer one wins */
    if (cmd && (!*alt || gpu_edit_distance(what, cmd, 3) <= gpu_edit_distance(what, alt, 3)))
        snprintf(mean, sizeof mean, TUI_CLI_T("did you mean `vramlab %s`? ", "是不是 `vramlab %s`？"), cmd);
    else if (*alt)
        snprintf(mean, sizeof mean, TUI_CLI_T("did you mean %s? ", "是不是 %s？"), alt);
    if (!c->cmd->name)
        fprintf(stderr, TUI_CLI_T("vramlab: '%s' is neither a command nor a lesson; %slessons: %s "
                                  "(vramlab --help)\n",
                                  "vramlab：“%s”既不是命令也不是课程；%s课程：%s（vramlab --help）\n"),
                what, mean, ids);
    else fprintf(stderr, TUI_CLI_T("vramlab: %s: no lesson '%s'; %sknown: %s (vramlab list)\n",
                                   "vramlab：%s：没有课程“%s”；%s现有：%s（vramlab list）\n"),
                 c->cmd->name, what, mean, ids);
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
        tui_cli_no_lesson(c, what);
    }
    return path;
}

void tui_cli_course_title(struct tui_ctx *c)
{
    struct lt_course course;
    char err[4600];
    if (lt_course_read(c->lessons, &course, err, sizeof err) > 0)
        printf(TUI_CLI_T("Course: %s (%s)\n\n", "课程：%s（%s）\n\n"),
               course.title[strcmp(c->lang, "zh") ? 0 : 1], course.path);
    lt_course_free(&course);
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
    if (!c->opt[TUI_O_JSON]) tui_cli_course_title(c);
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
            struct lt_event ev = {.type = LT_EV_STATUS, .panel = "",
                                  .text = {{"REPLAY: the recording has no run of this experiment "
                                            "(nothing measured)",
                                            "REPLAY：录制里没有这个实验的运行（没有测量）"}}};
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
    /* `run` with --record: every event goes to the recording too, then to the printer */
    struct tui_run rs = {.rec = c->rec, .print = tui_plain_sink, .print_ud = &p};
    struct tui_json j;
    tui_json_init(&j, stdout);
    lt_runtime_set_sink(c->rt, tui_run_sink, &rs);
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
    if (!ok) lt_vm_suggest_file(vm, c->argv[0], err, sizeof err); /* vram.kv_cahce: vram.kv_cache? */
    lt_vm_free(vm);
    fflush(stdout);
    if (!ok) fprintf(stderr, "%s\n", err);
    return ok ? 0 : 1;
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
    struct gpu_suggest s; /* "did you mean": the ids are still in the lesson's blocks */
    gpu_suggest_init(&s, id);
    for (int b = 0; b < lt_lesson_nblocks(ls); b++)
        if (lt_lesson_exercise(ls, b, &x)) gpu_suggest_add(&s, x.id);
    char mean[160] = "";
    if (s.best) snprintf(mean, sizeof mean, TUI_CLI_T("did you mean '%s'? ", "是不是“%s”？"), s.best);
    fprintf(stderr, TUI_CLI_T("vramlab: %s: lesson %s has no exercise '%s'; %s%s%s\n",
                              "vramlab：%s：课程 %s 没有练习“%s”；%s%s%s\n"), tui_cmd_label(c->cmd),
            lt_lesson_id(ls), id, mean, l ? TUI_CLI_T("its exercises:", "它的练习：") : TUI_CLI_T("it has none", "它没有练习"), ids);
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
