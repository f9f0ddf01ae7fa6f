/* tui_cmd_learner.c - the commands about a learner's own work: progress (sorted by section, in
 * the lessons' order, with totals), reset, exercises (the workspace, or --list of every
 * exercise id for a teacher), watch. The saved records come from tui_progress.c; the lessons
 * from the catalog, which main opens on the simulator (no device needed to read them). */
#include "tui_cmd.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tui_plain.h"
#include "tui_progress.h"
#include "tui_state.h"
#include "tui_workspace.h"
#include "tui_wrap.h"

/* The bytes of s that fit in `cols` display columns, whole characters only; "…" marks a cut. */
static void fit(const char *s, int cols, char *out, size_t n)
{
    size_t o = 0;
    int w = 0;
    for (const char *c = s; *c;) {
        unsigned cp;
        size_t k = (size_t)gpu_utf8_decode(c, strlen(c), &cp);
        int cw = tui_cp_width(cp);
        if (w + cw > cols - 1 && c[k]) { /* room for the mark only */
            snprintf(out + o, n - o, "\xe2\x80\xa6");
            return;
        }
        if (o + k + 4 > n) break;
        memcpy(out + o, c, k);
        o += k, w += cw, c += k;
    }
    out[o] = 0;
}

/* ---- progress ------------------------------------------------------------------------------ */

/* One lesson of the catalog: its exercise ids in lesson order, loaded when a record needs them. */
struct section {
    const struct lt_catalog_entry *e;
    char **ex;
    int nex;
    bool loaded, touched;
};

struct prow {
    struct tui_progress_rec r;
    int sec;   /* the catalog's index; past the catalog: a lesson not in it */
    int order; /* 0 the visit, then the exercise's place in the lesson; past them: unknown */
};

#define NOT_THERE (1 << 20)

static void load_section(struct tui_ctx *c, struct section *s)
{
    char err[1024];
    s->loaded = true;
    struct lt_lesson *ls = lt_lesson_load(c->rt, s->e->path, err, sizeof err);
    if (!ls) return;
    s->ex = calloc((size_t)lt_lesson_nblocks(ls) + 1, sizeof *s->ex);
    for (int b = 0; s->ex && b < lt_lesson_nblocks(ls); b++) {
        struct lt_exercise_info x;
        if (lt_lesson_exercise(ls, b, &x) && (s->ex[s->nex] = strdup(x.id))) s->nex++;
    }
    lt_lesson_free(ls);
}

/* "1.10" after "1.9": ids compared part by part as numbers. */
static int cmp_id(const char *a, const char *b)
{
    while (*a && *b) {
        char *ea, *eb;
        long x = strtol(a, &ea, 10), y = strtol(b, &eb, 10);
        if (ea != a && eb != b && x != y) return x < y ? -1 : 1;
        if (ea == a || eb == b) return strcmp(a, b);
        a = ea + (*ea == '.'), b = eb + (*eb == '.');
    }
    return strcmp(a, b);
}

static int cmp_row(const void *pa, const void *pb)
{
    const struct prow *a = pa, *b = pb;
    if (a->sec != b->sec) return a->sec < b->sec ? -1 : 1;
    int d = a->sec >= NOT_THERE ? cmp_id(a->r.lesson, b->r.lesson) : 0;
    if (d) return d;
    if (a->order != b->order) return a->order < b->order ? -1 : 1;
    return strcmp(a->r.is_ex ? a->r.exercise : "", b->r.is_ex ? b->r.exercise : "");
}

#define T TUI_CLI_T

/* s, then spaces to w display columns (Chinese words are two columns each). */
static void padw(const char *s, int w)
{
    fputs(s, stdout);
    for (int k = tui_width(s, strlen(s)); k < w; k++) putchar(' ');
}

static void print_row(const struct prow *w, int exw)
{
    char when[32] = "?", answer[256];
    time_t t = (time_t)w->r.when;
    struct tm tm;
    if (!localtime_r(&t, &tm) || !strftime(when, sizeof when, "%Y-%m-%d %H:%M", &tm))
        snprintf(when, sizeof when, "?");
    if (!w->r.is_ex) {
        printf("  %-7s %-*s  ", w->r.lesson, exw, "-");
        padw(T("visited", "看过"), 7);
        printf(" %5s  %s\n", "", when);
        return;
    }
    fit(w->r.answer, 48, answer, sizeof answer);
    printf("  %-7s %-*s  ", w->r.lesson, exw, w->r.exercise);
    padw(w->r.solved ? T("solved", "已解出") : T("open", "未解出"), 7);
    printf(" %5d  %-16s  %s\n", w->r.tries, when, answer);
}

/* The rows in the lessons' order: each record placed by its section and exercise. */
static struct prow *progress_rows(struct tui_ctx *c, const struct tui_progress *p,
                                  struct section *sec, int nsec)
{
    int n = tui_progress_count(p);
    struct prow *rows = calloc((size_t)n + 1, sizeof *rows);
    for (int i = 0; rows && i < n; i++) {
        struct prow *w = &rows[i];
        tui_progress_get(p, i, &w->r);
        w->sec = NOT_THERE;
        for (int k = 0; k < nsec && w->sec == NOT_THERE; k++)
            if (!strcmp(sec[k].e->id, w->r.lesson)) w->sec = k;
        w->order = w->r.is_ex ? NOT_THERE : 0;
        if (w->sec == NOT_THERE || !w->r.is_ex) continue;
        struct section *s = &sec[w->sec];
        if (!s->loaded) load_section(c, s);
        for (int k = 0; k < s->nex && w->order == NOT_THERE; k++)
            if (!strcmp(s->ex[k], w->r.exercise)) w->order = 1 + k;
    }
    if (rows) qsort(rows, (size_t)n, sizeof *rows, cmp_row);
    return rows;
}

/* The catalog's lessons that load, as sections; none without a runtime. */
static int sections(struct tui_ctx *c, struct lt_catalog_entry **cat, int *ncat,
                    struct section **out)
{
    *ncat = c->rt ? lt_catalog_scan(c->rt, c->lessons, cat) : 0;
    int n = 0;
    *out = calloc((size_t)*ncat + 1, sizeof **out);
    for (int i = 0; *out && i < *ncat; i++)
        if (!(*cat)[i].error) (*out)[n++].e = &(*cat)[i];
    return n;
}

static void free_sections(struct lt_catalog_entry *cat, int ncat, struct section *sec, int nsec)
{
    for (int i = 0; sec && i < nsec; i++) {
        for (int k = 0; k < sec[i].nex; k++) free(sec[i].ex[k]);
        free(sec[i].ex);
    }
    free(sec);
    if (ncat) lt_catalog_free(cat, ncat);
}

/* NULL with the exit code in *rc: no private state folder (1), out of memory (3) */
static struct tui_progress *load_progress(int *rc)
{
    char dir[1024], note[1400];
    if (!tui_state_dir(dir, sizeof dir, note, sizeof note)) { /* refused, in one line */
        fprintf(stderr, "vramlab: %s\n", note);
        *rc = 1;
        return NULL;
    }
    struct tui_progress *p = tui_progress_load(dir, note, sizeof note);
    *rc = 3;
    if (!p) fprintf(stderr, "vramlab: out of memory\n");
    else if (!tui_progress_read(p)) { /* refused: nothing to show, nothing to change */
        fprintf(stderr, "vramlab: %s\n", note);
        tui_progress_free(p);
        *rc = 1;
        return NULL;
    }
    else if (note[0]) fprintf(stderr, "vramlab: %s\n", note);
    return p;
}

int tui_cmd_progress(struct tui_ctx *c)
{
    int rc;
    struct tui_progress *p = load_progress(&rc);
    if (!p) return rc;
    struct lt_catalog_entry *cat = NULL;
    struct section *sec;
    int ncat, nsec = sections(c, &cat, &ncat, &sec), n = tui_progress_count(p);
    struct prow *rows = sec ? progress_rows(c, p, sec, nsec) : NULL;
    if (!rows) {
        fprintf(stderr, "vramlab: out of memory\n");
        free_sections(cat, ncat, sec, nsec);
        tui_progress_free(p);
        return 3;
    }
    int exw = 8, solved = 0, total = 0, visited = 0;
    for (int i = 0; i < n; i++)
        if (rows[i].r.is_ex && (int)strlen(rows[i].r.exercise) > exw) exw = (int)strlen(rows[i].r.exercise);
    tui_cli_course_title(c);
    printf(T("Progress (%s)\n", "进度（%s）\n"), tui_progress_path(p));
    if (!n) printf(T("  nothing yet: open a lesson with `vramlab`\n", "  还没有记录：用 `vramlab` 打开一节课\n"));
    else {
        fputs("  ", stdout);
        padw(T("section", "节"), 7), putchar(' '), padw(T("exercise", "练习"), exw), fputs("  ", stdout);
        padw(T("state", "状态"), 7);
        printf(" %5s  ", T("tries", "次数"));
        padw(T("last", "最近一次"), 16);
        printf("  %s\n", T("last answer", "最近的答案"));
    }
    for (int i = 0; i < n; i++) {
        const struct prow *w = &rows[i];
        if (w->sec == NOT_THERE && (!i || rows[i - 1].sec != NOT_THERE))
            printf(T("  not in the lessons of %s:\n", "  不在 %s 的课程里：\n"), c->lessons);
        print_row(w, exw);
        if (w->sec == NOT_THERE) continue;
        solved += w->r.is_ex && w->r.solved && w->order != NOT_THERE;
        sec[w->sec].touched = true;
    }
    for (int k = 0; k < nsec; k++) total += sec[k].e->nexercises, visited += sec[k].touched;
    if (nsec)
        printf(T("%d/%d exercises solved, %d/%d sections visited\n", "已解出 %d/%d 道练习，看过 %d/%d 节\n"),
               solved, total, visited, nsec);
    else printf(T("(no totals: no lessons in %s)\n", "（没有合计：%s 里没有课程）\n"), c->lessons);
    free(rows);
    free_sections(cat, ncat, sec, nsec);
    tui_progress_free(p);
    return 0;
}

/* ---- reset --------------------------------------------------------------------------------- */

int tui_cmd_reset(struct tui_ctx *c)
{
    const char *what = c->argc ? c->argv[0] : NULL;
    int rc;
    struct tui_progress *p = load_progress(&rc);
    if (!p) return rc;
    bool known = !what;
    char err[1400], answer[16] = "";
    for (int i = 0; !known && i < tui_progress_count(p); i++) {
        struct tui_progress_rec r;
        known = tui_progress_get(p, i, &r) && !strcmp(r.lesson, what);
    }
    if (!known && !tui_cli_has_lesson(c, what)) { /* a section without records is fine */
        tui_cli_no_lesson(c, what);
        tui_progress_free(p);
        return 2;
    }
    rc = 0;
    if (!c->opt[TUI_O_YES]) {
        printf(T("Forget %s in %s? [y/N] ", "忘掉 %s（%s）？[y/N] "), what ? what : T("all progress", "全部进度"),
               tui_progress_path(p));
        fflush(stdout);
        if (!fgets(answer, sizeof answer, stdin)) answer[0] = 0, putchar('\n'); /* no answer: end the line */
    }
    if (c->opt[TUI_O_YES] || answer[0] == 'y' || answer[0] == 'Y') {
        int gone = tui_progress_reset(p, what);
        if (!tui_progress_save(p, err, sizeof err)) {
            fprintf(stderr, "vramlab: %s\n", err);
            rc = 1;
        } else printf(T("forgot %d record(s)\n", "忘掉了 %d 条记录\n"), gone);
    } else printf(T("nothing changed\n", "什么都没改\n"));
    tui_progress_free(p);
    return rc;
}

/* ---- exercises, watch ---------------------------------------------------------------------- */

/* The first line of a prompt as plain text. */
static void prompt_line(struct tui_ctx *c, const char *markup, char *out, size_t n)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    out[0] = 0;
    if (!f) return;
    struct tui_plain p = {f, false, false, c->lang, false};
    tui_plain_markup(&p, markup);
    fclose(f);
    const char *s = text ? text + strspn(text, " \n") : "";
    char line[512];
    snprintf(line, sizeof line, "%.*s", (int)strcspn(s, "\n"), s);
    fit(line, 60, out, n);
    free(text);
}

/* `exercises --list`: every exercise by lesson, for a teacher (and for `grade`). */
static int list_exercises(struct tui_ctx *c)
{
    struct lt_catalog_entry *e;
    int n = lt_catalog_scan(c->rt, c->lessons, &e), lang = strcmp(c->lang, "zh") ? 0 : 1, all = 0;
    char err[1024], prompt[256];
    for (int i = 0; i < n; i++) {
        if (e[i].error || !e[i].nexercises) continue;
        struct lt_lesson *ls = lt_lesson_load(c->rt, e[i].path, err, sizeof err);
        if (!ls) continue;
        printf("%-5s %s\n", e[i].id, e[i].title[lang]);
        for (int b = 0; b < lt_lesson_nblocks(ls); b++) {
            struct lt_exercise_info x;
            if (!lt_lesson_exercise(ls, b, &x)) continue;
            prompt_line(c, x.prompt, prompt, sizeof prompt);
            printf("      %-20s ", x.id);
            padw(tui_kind_label(x.kind, lang), 8);
            printf(" %s\n", prompt);
            all++;
        }
        lt_lesson_free(ls);
    }
    if (n) lt_catalog_free(e, n);
    printf(lang ? "共 %d 道练习；批改一道：vramlab grade 节 练习 答案\n"
                : "%d exercise(s); grade one with: vramlab grade LESSON EXERCISE ANSWER\n", all);
    return 0;
}

int tui_cmd_exercises(struct tui_ctx *c)
{
    if (!c->rt) {
        fprintf(stderr, "vramlab: no device backend: %s\n", c->why);
        return 3;
    }
    if (c->opt[TUI_O_LIST]) {
        if (c->argc) return tui_cmd_usage_error(c->cmd, "--list takes no DIR");
        return list_exercises(c);
    }
    return tui_ws_create(c->rt, c->lessons, c->argc ? c->argv[0] : "vramlab-exercises", stdout);
}

int tui_cmd_watch(struct tui_ctx *c)
{
    return tui_watch(c->rt, c->lessons, c->argc ? c->argv[0] : "vramlab-exercises");
}
