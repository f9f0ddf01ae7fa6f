/* main.c - the vramlab program: the global options (over their VRAMLAB_* variables), the command
 * from the table (tui/cli/tui_cmd.c) with its own options, what it needs opened (the data
 * folder, the device backend with its fallback, a Lua runtime, a recording), its handler, and the
 * checks at exit. Exit codes: 0 ok, 1 a run, lesson, script or input file failed, 2 usage error,
 * 3 set-up error (no lessons/assets, no backend), 4 memory still allocated at exit, 5 the output
 * could not be written, 6 the watchdog ended a run that did not stop at its limit. */
#include <getopt.h>
#include <limits.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gpu.h"
#include "gpu_esc.h"
#include "gpu_file.h"
#include "gpu_parse.h"
#include "gpu_suggest.h"
#include "lt.h"
#include "lt_course.h"
#include "tui_cmd.h"
#include "tui_env.h"
#include "tui_out.h"
#include "tui_record.h"
#include "tui_term.h"
#include "tui_theme.h"
#include "tui_watchdog.h"

#ifndef VRAMLAB_VERSION
#define VRAMLAB_VERSION "0.1.0"
#endif

/* Experiments take at least this share of free memory: less leaves them nothing to measure. */
#define CAP_MIN 0.01

struct settings {
    const char *backend, *profile, *datadir;
    uint64_t seed;
    double cap;         /* --cap 0.9: a share of the device memory free to a lesson, in all */
    uint64_t cap_bytes; /* --cap 8GiB: bytes a lesson may hold in all (0: none) */
    int device;
    bool deterministic;
};

/* --cap and VRAMLAB_CAP: a share (0.9) or a size (8GiB), whichever the text is. */
static bool parse_cap(const char *v, struct settings *s, char *perr, size_t n)
{
    if (strpbrk(v, "BbKkMmGgTtPpIi")) { /* a unit: a size */
        return gpu_parse_size(v, 1u << 20, UINT64_C(1) << 50, &s->cap_bytes, perr, n);
    } /* a size bounds it beside the share (0.9 unless given too): the stricter holds */
    return gpu_parse_double(v, CAP_MIN, 1, &s->cap, perr, n);
}

/* A number from the command line or the environment that is not one: usage error. */
static int bad_number(const char *what, const char *why)
{
    fprintf(stderr, "vramlab: %s: %s\n", what, why);
    return 2;
}

static bool is_dir(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

/* The data folder: given, else next to the binary (build/ in a source tree, or
 * PREFIX/share/vramlab); normalised, so messages say /src/vramlab/lessons, not build/../lessons. */
static void find_datadir(char *out, size_t n, const char *given)
{
    char exe[PATH_MAX], probe[PATH_MAX + 32], dir[PATH_MAX + 32] = ".";
    ssize_t k;
    if (given && *given) snprintf(dir, sizeof dir, "%s", given);
    else if ((k = readlink("/proc/self/exe", exe, sizeof exe - 1)) > 0) {
        exe[k] = 0;
        char *slash = strrchr(exe, '/');
        if (slash) *slash = 0;
        snprintf(probe, sizeof probe, "%s/../share/vramlab/lessons", exe);
        if (is_dir(probe)) snprintf(dir, sizeof dir, "%s/../share/vramlab", exe);
        snprintf(probe, sizeof probe, "%s/../lessons", exe);
        if (!strcmp(dir, ".") && is_dir(probe)) snprintf(dir, sizeof dir, "%s/..", exe);
    }
    if (!realpath(dir, out)) snprintf(out, n, "%s", dir); /* missing: named as given */
}

static const char *locale_lang(void)
{
    static const char *const vars[] = {"LC_ALL", "LC_MESSAGES", "LANG"};
    for (int i = 0; i < 3; i++) {
        const char *v = getenv(vars[i]);
        if (v && *v) return strncmp(v, "zh", 2) ? "en" : "zh";
    }
    return "en";
}

/* A device ordinal: 0..1023. */
static bool parse_device(const char *s, int *d)
{
    uint64_t v;
    char perr[256];
    if (!s || !gpu_parse_u64(s, 0, 1023, &v, perr, sizeof perr)) return false;
    *d = (int)v;
    return true;
}

static void print_version(void)
{
    printf("vramlab %s\nbackends:", VRAMLAB_VERSION);
    for (int i = 0; gpu_backends[i]; i++) printf(" %s", gpu_backends[i]->name);
    printf("\n");
}

/* The options before the command (getopt_long stops at the first operand): globals only.
 * Returns -1 to go on, else an exit code. */
static int global_options(struct tui_ctx *c, int argc, char **argv)
{
    struct option lo[32];
    char shorts[64] = "+:";
    size_t k = 2;
    int n = 0;
    for (const struct tui_opt *o = tui_globals; o->name && n < 31; o++, n++) {
        lo[n] = (struct option){o->name, o->arg ? required_argument : no_argument, NULL, 256 + n};
        if (o->letter) shorts[k++] = o->letter, shorts[k] = 0;
        if (o->letter && o->arg) shorts[k++] = ':', shorts[k] = 0;
    }
    lo[n] = (struct option){0, 0, 0, 0};
    opterr = 0;
    int ch;
    while ((ch = getopt_long(argc, argv, shorts, lo, NULL)) != -1) {
        const struct tui_opt *o = ch >= 256 ? &tui_globals[ch - 256] : NULL;
        for (int i = 0; !o && i < n; i++)
            if (tui_globals[i].letter == ch) o = &tui_globals[i];
        if (!o) {
            const char *w = argv[optind - 1];
            if (optopt > 0 && optopt < 256) fprintf(stderr, /* a short option; else a long one */ "vramlab: %s -%c (vramlab --help)\n",
                                ch == ':' ? "a value is missing after" : "unknown option", optopt);
            else { /* --thme: did you mean --theme? */
                char word[64];
                snprintf(word, sizeof word, "%.*s", (int)strcspn(w, "="), w);
                struct gpu_suggest sg;
                gpu_suggest_init(&sg, ch != ':' && !strncmp(word, "--", 2) ? word + 2 : "");
                for (int i = 0; i < n; i++) gpu_suggest_add(&sg, tui_globals[i].name);
                char alt[80] = "";
                if (sg.best) snprintf(alt, sizeof alt, TUI_CLI_T("; did you mean --%s?", "；是不是 --%s？"), sg.best);
                fprintf(stderr, "vramlab: %s '%s'%s (vramlab --help)\n",
                        ch == ':' ? "a value is missing after" : "unknown option", word, alt);
            }
            return 2;
        }
        if (o->id == TUI_O_HELP) return tui_cmd_usage(stdout), 0;
        if (o->id == TUI_O_VERSION) return print_version(), 0;
        if (o->id == TUI_O_HELP_MAN) return tui_cmd_man(stdout), 0;
        c->opt[o->id] = o->arg ? optarg : "";
        if (o->id == TUI_O_LESSONS) tui_cmd_add_lessons(c, optarg);
    }
    return -1;
}

/* The global settings, options over the environment; then what the command cannot use. */
static int settings(struct tui_ctx *c, struct settings *s)
{
    char perr[256];
    const char *v, **opt = c->opt;
    s->backend = opt[TUI_O_BACKEND] ? opt[TUI_O_BACKEND] : getenv("VRAMLAB_BACKEND");
    s->profile = opt[TUI_O_PROFILE] ? opt[TUI_O_PROFILE] : getenv("VRAMLAB_PROFILE");
    s->datadir = opt[TUI_O_DATADIR] ? opt[TUI_O_DATADIR] : getenv("VRAMLAB_DATADIR");
    s->deterministic = opt[TUI_O_DETERMINISTIC] != NULL;
    s->cap = 0.9;
    if ((v = getenv("VRAMLAB_SEED")) && !gpu_parse_u64(v, 0, UINT64_MAX, &s->seed, perr, sizeof perr))
        return bad_number("VRAMLAB_SEED", perr);
    if ((v = opt[TUI_O_SEED]) && !gpu_parse_u64(v, 0, UINT64_MAX, &s->seed, perr, sizeof perr))
        return bad_number("--seed", perr);
    if ((v = getenv("VRAMLAB_CAP")) && !parse_cap(v, s, perr, sizeof perr))
        return bad_number("VRAMLAB_CAP (what a lesson may hold in all: a share of free device "
                          "memory, 0.01..1, e.g. 0.9, or a size, e.g. 8GiB)", perr);
    if ((v = opt[TUI_O_CAP]) && !parse_cap(v, s, perr, sizeof perr))
        return bad_number("--cap (what a lesson may hold in all: a share of free device memory, "
                          "0.01..1, e.g. 0.9, or a size, e.g. 8GiB)", perr);
    if ((v = getenv("VRAMLAB_DEVICE")) && *v && !parse_device(v, &s->device)) {
        fprintf(stderr, "vramlab: VRAMLAB_DEVICE must be a device number 0..1023, not '%s'\n", v);
        return 2;
    }
    if ((v = opt[TUI_O_DEVICE]) && !parse_device(v, &s->device)) {
        fprintf(stderr, "vramlab: --device needs a device number 0..1023, not '%s'\n", v);
        return 2;
    }
    c->lang = opt[TUI_O_LANG] ? opt[TUI_O_LANG] : getenv("VRAMLAB_LANG");
    if (c->lang && strcmp(c->lang, "en") && strcmp(c->lang, "zh")) {
        fprintf(stderr, "vramlab: --lang must be en or zh, not '%s'\n", c->lang);
        return 2;
    }
    if (!c->lang) c->lang = locale_lang();
    tui_cli_zh = !strcmp(c->lang, "zh");
    v = opt[TUI_O_THEME] ? opt[TUI_O_THEME] : getenv("VRAMLAB_THEME");
    if (v && *v && tui_theme_parse(v) < 0) {
        fprintf(stderr, "vramlab: %s must be dark, light or mono, not '%s'\n",
                opt[TUI_O_THEME] ? "--theme" : "VRAMLAB_THEME", v);
        return 2;
    }
    if (v && *v) tui_term_set_theme(tui_theme_parse(v), opt[TUI_O_THEME] ? "--theme" : "VRAMLAB_THEME");
    const struct tui_cmd *cmd = c->cmd;
    bool json = false;
    for (const struct tui_opt *o = cmd->opts; o->name; o++) json |= o->id == TUI_O_JSON;
    if (opt[TUI_O_JSON] && !json) return tui_cmd_usage_error(cmd, "--json does not apply");
    for (int id = TUI_O_RECORD; id <= TUI_O_REPLAY; id++) {
        const char *name = id == TUI_O_RECORD ? "record" : "replay";
        if (!opt[id] || (cmd->needs & TUI_CMD_RECORD)) continue;
        return tui_cmd_usage_error(cmd, "--%s before the command is a recording of experiments, "
                                   "which %s does not run%s", name, tui_cmd_label(cmd),
                                   id == TUI_O_REPLAY && !strcmp(tui_cmd_label(cmd), "snapshot")
                                       ? "; its own --replay goes after the command" : "");
    }
    if (opt[TUI_O_RECORD] && opt[TUI_O_REPLAY]) {
        fprintf(stderr, "vramlab: --record and --replay together would record a replay as if it "
                        "were measured; use one\n");
        return 2;
    }
    return -1;
}

/* A runtime on dev, with the sandbox limits of VRAMLAB_LIMITS and the watchdog. */
static int open_runtime(struct tui_ctx *c)
{
    if (!(c->rt = lt_runtime_new(c->dev, c->datadir, lt_modules))) {
        fprintf(stderr, "vramlab: out of memory\n");
        return 3;
    }
    lt_runtime_set_lang(c->rt, c->lang);
    lt_runtime_set_assets(c->rt, c->assets); /* a teacher's snapshots, as its profiles */
    const char *env = getenv("VRAMLAB_LIMITS");
    if (env) { /* smaller limits for tests and classrooms; larger for long lessons */
        struct lt_limits lim;
        char err[200];
        lt_runtime_limits(c->rt, &lim);
        if (!lt_limits_parse(env, &lim, err, sizeof err)) {
            fprintf(stderr, "vramlab: VRAMLAB_LIMITS: %s\n", err);
            return 2;
        }
        lt_runtime_set_limits(c->rt, &lim);
    }
    lt_runtime_set_fatal(c->rt, tui_watchdog_fatal);
    tui_watchdog_start(c->rt); /* the last resort: a run that does not stop at its limit */
    return -1;
}

static void clash(const char *unused, const char *used, void *ud)
{
    struct tui_ctx *c = ud;
    char a[600], b[600];
    gpu_esc_field(a, sizeof a, unused);
    gpu_esc_field(b, sizeof b, used);
    fprintf(stderr, "vramlab: warning: %s is not used: the built-in %s has its name\n", a, b);
    if (!c->warning[0])
        snprintf(c->warning, sizeof c->warning, "%s is not used: the built-in %s has its name", a, b);
}

/* A teacher's profile or snapshot named as a built-in one: said at start (the built-in wins). */
static void say_clashes(struct tui_ctx *c)
{
    gpu_path_clashes(c->assets, "assets/gpus", ".txt", clash, c);
    gpu_path_clashes(c->assets, "assets/snapshots", ".pickle", clash, c);
}

/* What the command needs: the device (its backend, or the simulator for the lesson catalog
 * alone), a runtime, the recordings. Returns -1 when open, else an exit code. */
static int open_needs(struct tui_ctx *c, const struct settings *s)
{
    unsigned needs = c->cmd->needs;
    char perr[256];
    /* the course: the installation's lessons, then a teacher's folders (added, not replacing) */
    const char *env = getenv("VRAMLAB_LESSONS");
    tui_cmd_course(c, c->datadir, c->lessons, sizeof c->lessons);
    /* the installation's assets first, then a teacher's folder's own: it adds profiles and
     * snapshots under new names, it never replaces a built-in one (a clash is said below, and is
     * an error of `check`) */
    size_t al = (size_t)snprintf(c->assets, sizeof c->assets, "%s", c->datadir);
    for (const char *p = c->lessons + strlen(c->datadir) + 8; *p;) {
        size_t l = strcspn(p, ":");
        char probe[4200];
        snprintf(probe, sizeof probe, "%.*s", (int)l, p);
        if (l && !is_dir(probe) && (needs & (TUI_CMD_DATA | TUI_CMD_LESSONS))) { /* a typo would add nothing */
            fprintf(stderr, "vramlab: %s: no such folder of lessons (%s)\n", probe,
                    env && *env && p < c->lessons + strlen(c->datadir) + 9 + strlen(env)
                        ? "VRAMLAB_LESSONS" : "--lessons");
            return 2;
        }
        snprintf(probe, sizeof probe, "%.*s/assets", (int)l, p);
        if (l && is_dir(probe) && al < sizeof c->assets)
            al += (size_t)snprintf(c->assets + al, sizeof c->assets - al, ":%.*s", (int)l, p);
        p += l + (p[l] == ':');
    }
    if (needs & (TUI_CMD_DATA | TUI_CMD_LESSONS)) say_clashes(c);
    if (!(needs & (TUI_CMD_DEVICE | TUI_CMD_LESSONS))) return -1;
    /* a teacher's course.lua may bound what a lesson holds: the stricter of it and --cap wins */
    struct lt_course course;
    char cerr[4600];
    double cap = s->cap;
    uint64_t cap_bytes = s->cap_bytes;
    if (lt_course_read(c->lessons, &course, cerr, sizeof cerr) > 0) {
        if (course.cap_fraction > 0 && course.cap_fraction < cap) cap = course.cap_fraction;
        if (course.cap_bytes && (!cap_bytes || course.cap_bytes < cap_bytes)) cap_bytes = course.cap_bytes;
    }
    lt_course_free(&course);
    struct gpu_config cfg = {.datadir = c->assets, .deterministic = true, .cap_fraction = cap,
                             .cap_bytes = cap_bytes};
    const char *backend = "sim";
    if (needs & TUI_CMD_DEVICE) {
        cfg = (struct gpu_config){.profile = s->profile, .datadir = c->assets, .seed = s->seed,
                                  .deterministic = s->deterministic, .cap_fraction = cap,
                                  .cap_bytes = cap_bytes, .device = s->device};
        if (!tui_env_config(&cfg, perr, sizeof perr)) { /* test hooks and the host cap */
            fprintf(stderr, "vramlab: %s\n", perr);
            return 2;
        }
        backend = s->backend;
    }
    gpu_status st = gpu_open(backend, &cfg, &c->dev, c->why, sizeof c->why);
    if (st != GPU_OK && (needs & TUI_CMD_DEVICE)) {
        fprintf(stderr, "vramlab: no device backend: %s\n", c->why);
        return st == GPU_ERR_ARG ? 2 : 3;
    }
    if (st != GPU_OK) return -1; /* the lessons alone: the handler does without them */
    int rc = open_runtime(c);
    if (rc >= 0 || !(needs & TUI_CMD_RECORD)) return rc;
    char err[1400];
    const char *rec = c->opt[TUI_O_RECORD], *rp = c->opt[TUI_O_REPLAY];
    if (rec && !(c->rec = tui_rec_open(rec, c->rt, VRAMLAB_VERSION, err, sizeof err))) {
        fprintf(stderr, "vramlab: %s\n", err);
        return 3;
    }
    if (rp && !(c->rp = tui_replay_load(rp, err, sizeof err))) {
        fprintf(stderr, "vramlab: %s\n", err);
        return 1;
    }
    return -1;
}

/* Close what was opened; everything a lesson or script allocated must be gone by now. */
static int close_needs(struct tui_ctx *c, int rc)
{
    char err[1400];
    if (tui_rec_error(c->rec)) {
        fprintf(stderr, "vramlab: %s; %s left as it was\n", tui_rec_error(c->rec), c->opt[TUI_O_RECORD]);
        if (!rc) rc = 1;
    }
    if (tui_rec_full(c->rec)) fprintf(stderr, "vramlab: %s: %s\n", c->opt[TUI_O_RECORD], tui_rec_full(c->rec));
    if (!tui_rec_close(c->rec, rc == 0, err, sizeof err)) {
        fprintf(stderr, "vramlab: %s\n", err);
        if (!rc) rc = 1;
    }
    tui_replay_free(c->rp);
    if (c->rt) tui_watchdog_stop();
    lt_runtime_free(c->rt);
    if (!c->dev) return rc;
    if (c->dev->live_allocs || c->dev->live_host) {
        fprintf(stderr, "vramlab: internal error: %d device and %d host buffer(s) still allocated "
                "at exit (%llu bytes)\n", c->dev->live_allocs, c->dev->live_host,
                (unsigned long long)c->dev->live_bytes);
        rc = 4;
    }
    tui_env_report(c->dev, stderr);
    gpu_close(c->dev);
    return rc;
}

/* The VRAMLAB_* settings name things (folders, profiles, limits), as options do: one holding a
 * control character is refused (tui_cmd_parse says the same of options and operands). */
static int clean_environment(void)
{
    extern char **environ;
    for (char **e = environ; *e; e++)
        if (!strncmp(*e, "VRAMLAB_", 8) && !gpu_esc_clean(*e, false)) {
            char shown[300];
            fprintf(stderr, "vramlab: %s: the setting holds a control character (vramlab --help)\n",
                    gpu_esc_field(shown, sizeof shown, *e));
            return 2;
        }
    return -1;
}

static int run(int argc, char **argv)
{
    struct tui_ctx c = {.version = VRAMLAB_VERSION};
    struct settings s = {0};
    setlocale(LC_ALL, "");
    setlocale(LC_NUMERIC, "C"); /* Lua formats and reads numbers with '.', whatever the locale */
    int rc = clean_environment();
    if (rc >= 0) return rc;
    rc = global_options(&c, argc, argv);
    if (rc >= 0) return rc;
    c.cmd = optind < argc ? tui_cmd_find(argv[optind]) : NULL;
    /* the command's argv starts at its name; the tutor's at the word before its lesson */
    int at = c.cmd ? optind : optind - 1;
    if (!c.cmd) c.cmd = &tui_cmds[0];
    if ((rc = tui_cmd_parse(&c, argc - at, argv + at)) >= 0) return rc;
    if ((rc = settings(&c, &s)) >= 0) return rc;
    if (c.cmd->needs & (TUI_CMD_DATA | TUI_CMD_LESSONS | TUI_CMD_DEVICE))
        find_datadir(c.datadir, sizeof c.datadir, s.datadir);
    rc = open_needs(&c, &s);
    if (rc < 0) rc = c.cmd->run(&c);
    return close_needs(&c, rc);
}

/* Every byte of plain output goes through one filter (tui_out_guard), and output that could
 * not be written (a full disk, a closed stdout) is an error, not silent data loss. */
int main(int argc, char **argv)
{
    if (!tui_out_guard()) {
        fprintf(stderr, "vramlab: out of memory\n");
        return 3;
    }
    int rc = run(argc, argv);
    int err = tui_out_close();
    if (err) {
        fprintf(stderr, "vramlab: cannot write the output: %s\n", strerror(err));
        if (!rc) rc = 5;
    }
    return rc;
}
