/* tui_cmd.c - see tui_cmd.h: the table, the option parser built from it, and every text made
 * from it (usage, per-command help, the man page's headers). */
#include "tui_cmd.h"

#include <ctype.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "gpu_esc.h"
#include "gpu_suggest.h"

/* ---- the table ---------------------------------------------------------------------------- */

enum { DATA = TUI_CMD_DATA, LESSONS = TUI_CMD_LESSONS, DEVICE = TUI_CMD_DEVICE,
       RECORD = TUI_CMD_RECORD, HIDDEN = TUI_CMD_HIDDEN };

/* Global options: before the command they apply to whatever runs; after it, a command takes
 * those whose need it has. An option without help is not listed (kept for scripts). */
bool tui_cli_zh;

const struct tui_opt tui_globals[] = {
    {TUI_O_BACKEND, "backend", 'b', "cuda|sim|auto", "device backend (env VRAMLAB_BACKEND; default auto)", DEVICE},
    {TUI_O_PROFILE, "profile", 'p', "PROFILE", "simulator profile (env VRAMLAB_PROFILE; default rtx3090)", DEVICE},
    {TUI_O_SEED, "seed", 's', "N", "simulator noise seed (env VRAMLAB_SEED)", DEVICE},
    {TUI_O_DETERMINISTIC, "deterministic", 'd', NULL, "simulator without noise (for tests and demos)", DEVICE},
    {TUI_O_DEVICE, "device", 0, "N", "the GPU, 0.. in CUDA's order (env VRAMLAB_DEVICE; default 0)", DEVICE},
    {TUI_O_CAP, "cap", 'c', "SHARE|SIZE", "device memory a lesson may hold in all: a share of free memory, 0.01..1, or a size such as 8GiB (VRAMLAB_CAP)", DEVICE},
    {TUI_O_LANG, "lang", 'l', "en|zh", "language (env VRAMLAB_LANG; default from the locale)", DATA},
    {TUI_O_THEME, "theme", 0, "dark|light|mono", "colours for the background, or none (VRAMLAB_THEME; default COLORFGBG)", DATA},
    {TUI_O_DATADIR, "datadir", 'D', "DIR", "where lessons/ and assets/ are (env VRAMLAB_DATADIR)", DATA},
    {TUI_O_LESSONS, "lessons", 'L', "DIR", "add a folder of lessons to the course; repeatable (env VRAMLAB_LESSONS, DIR:DIR)", DATA},
    {TUI_O_RECORD, "record", 0, "FILE", "save every experiment result, with the machine, as JSON lines", RECORD},
    {TUI_O_REPLAY, "replay", 0, "FILE", "play a recording back instead of measuring (labelled REPLAY)", RECORD},
    {TUI_O_HELP, "help", 'h', NULL, "this text; after a command, that command's", 0},
    {TUI_O_VERSION, "version", 'V', NULL, "version and compiled-in backends", 0},
    {TUI_O_HELP_MAN, "help-man", 0, NULL, NULL, 0},
    {TUI_O_JSON, "json", 'j', NULL, NULL, 0}, /* before the command too; checked against it */
    {.name = NULL}};

#define OPT_END {.name = NULL}
static const struct tui_opt o_json_lines[] = {
    {TUI_O_JSON, "json", 'j', NULL, "one JSON object per line", 0}, OPT_END};
static const struct tui_opt o_json_one[] = {
    {TUI_O_JSON, "json", 'j', NULL, "one JSON object", 0}, OPT_END};
static const struct tui_opt o_eval[] = {
    {TUI_O_JSON, "json", 'j', NULL, "one JSON object per line", 0},
    {TUI_O_SNAPSHOT, "snapshot", 0, "FILE", "the PyTorch memory snapshot alloc.snapshot() reads (your own file; - is not allowed)", 0},
    OPT_END};
static const struct tui_opt o_tutor[] = {
    {TUI_O_JSON, "json", 'j', NULL, "when not a terminal: the list or the lesson as JSON lines", 0},
    OPT_END};
static const struct tui_opt o_reset[] = {
    {TUI_O_YES, "yes", 'y', NULL, "do not ask first", 0}, OPT_END};
static const struct tui_opt o_exercises[] = {
    {TUI_O_LIST, "list", 0, NULL, "list every exercise by lesson (id, kind, prompt); copy nothing", 0},
    OPT_END};
static const struct tui_opt o_results[] = {
    {TUI_O_CSV, "csv", 0, NULL, "CSV with a header row", 0},
    {TUI_O_JSON, "json", 'j', NULL, "one JSON object per row", 0}, OPT_END};
static const struct tui_opt o_snapshot[] = {
    {TUI_O_JSON, "json", 'j', NULL, "one JSON object, sizes in bytes (docs/snapshot.md)", 0},
    {TUI_O_TOP, "top", 0, "N", "groups listed at the peak (default 10)", 0},
    {TUI_O_WHATIF, "replay", 0, "CONF", "what if: replay the trace with these allocator options", 0},
    {TUI_O_CAPACITY, "capacity", 0, "SIZE", "what the allocator may hold, e.g. 24GiB or 80GB (judges OOMs)", 0},
    {TUI_O_SNAP_DEVICE, "device", 0, "N", "the device to replay (default: the first with a trace)", 0},
    {TUI_O_SEGMENTS, "segments", 0, NULL, "every segment: its pages, allocated and free bytes (as _memory_viz.segsum)", 0},
    {TUI_O_COLLAPSED, "collapsed", 0, NULL, "collapsed stacks for flamegraph.pl or speedscope instead: \"frame;...;frame bytes\"", 0},
    {TUI_O_AT, "at", 0, "peak|end", "--collapsed: the allocations live at the trace's peak, or the final state's (default end)", 0},
    {TUI_O_TUI, "tui", 0, NULL, "the snapshot screen instead (as `vramlab FILE.pickle`): timeline, cursor, map, stack, what-if", 0},
    OPT_END};
static const struct tui_opt o_check[] = {
    {TUI_O_ANSWERS, "answers", 0, NULL, "grade every exercise's reference answers (N.M-slug.answers.lua)", 0},
    {TUI_O_RUN, "run", 0, NULL, "run every experiment on the simulator too (fixed seed, small host sizes)", 0},
    {TUI_O_STRICT, "strict", 0, NULL, "a draft (not yet translated) is an error, not a warning", 0},
    OPT_END};
static const struct tui_opt o_grade[] = {
    {TUI_O_TRY, "try", 0, "N", "grade as try N (default 1): its hint, from 3 on the explanation", 0},
    OPT_END};
static const struct tui_opt o_new[] = {
    {TUI_O_DRAFT, "lang", 0, "en|zh", "a draft in one language (default: both)", 0},
    {TUI_O_DIR, "dir", 0, "DIR", "the lessons folder to write into (default .)", 0},
    OPT_END};
static const struct tui_opt o_none[] = {OPT_END};

const struct tui_cmd tui_cmds[] = {
    {NULL, "[LESSON]", "the tutor: lesson menu, lessons with live experiments; : opens a Lua sandbox",
     "Without a terminal it prints the lesson list, or runs LESSON as `vramlab run` does.",
     o_tutor, DATA | LESSONS | DEVICE | RECORD, 0, 1, tui_cmd_tutor},
    {"list", "", "chapters and sections", NULL, o_json_lines, DATA | LESSONS, 0, 0, tui_cmd_list},
    {"info", "", "the device (or its simulated profile) and the host", NULL, o_json_one,
     DATA | DEVICE, 0, 0, tui_cmd_info},
    {"run", "LESSON...", "run lessons headless: their text, then results as they arrive",
     "LESSON is an id (vramlab list) or a lesson file. Several run one after another in this one\n"
     "process (one device start; one --record file holds them all); the exit status is the\n"
     "worst of theirs.", o_json_lines,
     DATA | LESSONS | DEVICE | RECORD, 1, -1, tui_cmd_run},
    {"eval", "FILE.lua|-", "run a Lua file in the lesson sandbox (-: standard input)",
     "Errors say file:line (stdin:line for -); the sandbox limits stop runaway code.\n"
     "--snapshot FILE: alloc.snapshot() reads that file (the CLI's limits: up to 2 GiB).",
     o_eval, DATA | DEVICE, 1, 1, tui_cmd_eval},
    {"check", "[LESSON|DIR|FILE...]", "validate lessons (all without operands): file:line: what",
     "LESSON is an id, DIR a folder of lessons, FILE a lesson file or assets/gpus/ID.txt.\n"
     "--answers grades each exercise's reference answers in this one process, --run runs each\n"
     "experiment (undeclared panels, unknown styles, Lua errors), both on the simulator with\n"
     "small host sizes; one line per failure.", o_check, DATA | LESSONS, 0, -1, tui_cmd_check},
    {"grade", "LESSON EXERCISE ANSWER", "check one answer (@FILE reads it from a file, @- from stdin)",
     "Exit 0 right, 1 wrong, 2 an answer it cannot read (not counted as a try).\n"
     "The exercise ids: vramlab exercises --list. A negative ANSWER goes after --.\n"
     "Nothing is saved: --try N shows what try N would (its hint, or the explanation).", o_grade, DATA | LESSONS | DEVICE, 3, 3,
     tui_cmd_grade},
    {"new-lesson", "N.M TITLE", "write a new lesson and its reference answers into a lessons folder",
     "Writes DIR/chNN/N.M-title.lua and N.M-title.answers.lua (never over a file): a text, an\n"
     "experiment with a panel and one exercise of each kind, valid as written. Add the folder with\n"
     "--lessons DIR; the tutorial is docs/writing-lessons.md.", o_new, DATA | LESSONS, 2, 2,
     tui_cmd_new_lesson},
    {"profiles", "", "the simulator's GPU profiles", NULL, o_json_lines, DATA, 0, 0,
     tui_cmd_profiles},
    {"ledger", "", "where the device memory goes (per process, with NVML)",
     "Sizes in MiB and GiB (binary); the JSON gives bytes, and its parts add up to the total.",
     o_json_one, DATA | DEVICE, 0, 0, tui_cmd_ledger},
    {"trace", "replay FILE [CAPACITY]", "replay an allocator trace through the caching-allocator model",
     "Options come from PYTORCH_CUDA_ALLOC_CONF, else the trace's \"# conf:\" line. CAPACITY is\n"
     "the model device's size, 2MiB..4TiB (e.g. 80GiB; default the device's total). FILE - reads\n"
     "standard input; the format is in docs/allocator.md. Ctrl-C stops a long replay.",
     o_json_one, DATA | DEVICE, 2, 3, tui_cmd_trace},
    {"snapshot", "FILE|diff A B", "a PyTorch memory snapshot: fragmentation, the peak, OOMs",
     "FILE is a pickle from torch.cuda.memory._dump_snapshot() (- reads standard input); nothing\n"
     "in it is run. --replay, --capacity or --device replay its trace through the caching-allocator\n"
     "model (SIMULATED) beside what PyTorch did; --replay's options apply on top of the recorded\n"
     "ones. `snapshot diff A B` compares two snapshots: segments only in one, the deltas, and the\n"
     "live allocations only in B (what grew) and only in A, by stack.", o_snapshot, 0, 1, 3, tui_cmd_snapshot},
    {"progress", "", "what you have visited and solved, by section, with totals", NULL, o_none,
     DATA | LESSONS, 0, 0, tui_cmd_progress},
    {"reset", "[SECTION]", "forget saved progress, of one section or all (asks first)", NULL,
     o_reset, DATA | LESSONS, 0, 1, tui_cmd_reset},
    {"exercises", "[DIR]", "copy the code exercises into a workspace (./vramlab-exercises)",
     "Files that exist are never overwritten, so running it again only adds new exercises.",
     o_exercises, DATA | LESSONS, 0, 1, tui_cmd_exercises},
    {"watch", "[DIR]", "re-check the current exercise on every save",
     "Keys: h hint, n next, p previous, l list, r check again, q quit. It needs a terminal;\n"
     "vramlab grade LESSON EXERCISE @FILE checks one file anywhere.", o_none, DATA | LESSONS | DEVICE, 0, 1, tui_cmd_watch},
    {"present", "[LESSON]", "presenter mode: one step at a time, key figures in big digits", NULL,
     o_none, DATA | LESSONS | DEVICE | RECORD, 0, 1, tui_cmd_present},
    {"results", "FILE", "a recording's results, one row per bar, curve point and gauge", NULL,
     o_results, 0, 1, 1, tui_cmd_results},
    {"compare", "FILE...", "recordings of several machines side by side", NULL, o_none, 0, 1, -1,
     tui_cmd_compare},
    {"__complete", "WORD...", "bash completion: candidates for the last word", NULL, o_none,
     DATA | LESSONS | HIDDEN, 0, -1, tui_cmd_complete},
    {.run = NULL}};

const struct tui_cmd *tui_cmd_find(const char *name)
{
    for (const struct tui_cmd *c = tui_cmds + 1; name && c->run; c++)
        if (!strcmp(c->name, name)) return c;
    return NULL;
}

const char *tui_cmd_suggest(const char *word)
{
    struct gpu_suggest s;
    gpu_suggest_init(&s, word);
    for (const struct tui_cmd *c = tui_cmds + 1; c->run; c++)
        if (!(c->needs & HIDDEN)) gpu_suggest_add(&s, c->name);
    return s.best;
}

const char *tui_cmd_label(const struct tui_cmd *cmd) { return cmd->name ? cmd->name : "vramlab"; }

void tui_cmd_add_lessons(struct tui_ctx *c, const char *dir)
{
    size_t l = strlen(c->more_lessons);
    snprintf(c->more_lessons + l, sizeof c->more_lessons - l, "%s%s", l ? ":" : "", dir);
}

void tui_cmd_course(const struct tui_ctx *c, const char *datadir, char *out, size_t n)
{
    const char *env = getenv("VRAMLAB_LESSONS"), *more = c->more_lessons;
    snprintf(out, n, "%s/lessons%s%s%s%s", datadir, env && *env ? ":" : "", env && *env ? env : "",
             more[0] ? ":" : "", more);
}

/* ---- parsing ------------------------------------------------------------------------------ */

/* Does a global option apply after this command? A command's own option of the same name
 * (snapshot's --replay, --device) takes its place. */
static bool global_applies(const struct tui_cmd *cmd, const struct tui_opt *g)
{
    if (g->id == TUI_O_HELP) return true;
    if (!g->needs || !(g->needs & cmd->needs)) return false;
    for (const struct tui_opt *o = cmd->opts; o->name; o++)
        if (!strcmp(o->name, g->name)) return false;
    return true;
}

int tui_cmd_options(const struct tui_cmd *cmd, const struct tui_opt **out, int max)
{
    int n = 0;
    for (const struct tui_opt *o = cmd->opts; o->name && n < max; o++) out[n++] = o;
    for (const struct tui_opt *g = tui_globals; g->name && n < max; g++)
        if (global_applies(cmd, g)) out[n++] = g;
    return n;
}

int tui_cmd_usage_error(const struct tui_cmd *cmd, const char *fmt, ...)
{
    va_list ap;
    char msg[1024], shown[1200];
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    /* one line whatever the words typed hold (gpu_esc.h) */
    fprintf(stderr, "vramlab%s%s: %s (vramlab%s%s --help)\n", cmd->name ? ": " : "",
            cmd->name ? cmd->name : "", gpu_esc_field(shown, sizeof shown, msg), cmd->name ? " " : "",
            cmd->name ? cmd->name : "");
    return 2;
}

/* An operand placeholder that is a literal word the user types ("replay"). */
static bool literal(const char *tok, size_t n)
{
    if (!n) return false;
    for (size_t i = 0; i < n; i++)
        if (!islower((unsigned char)tok[i])) return false;
    return true;
}

/* Literal operands must be typed as they are: `trace replay FILE`. */
static int check_literals(const struct tui_cmd *cmd, int argc, char **argv)
{
    const char *p = cmd->operands;
    for (int i = 0; *p && i < argc; i++) {
        p += strspn(p, " [");
        size_t n = strcspn(p, " ]");
        if (literal(p, n) && (strlen(argv[i]) != n || strncmp(argv[i], p, n)))
            return tui_cmd_usage_error(cmd, "expected '%.*s', not '%s'", (int)n, p, argv[i]);
        p += n;
        p += strspn(p, "]");
    }
    return -1;
}

/* The word getopt stopped at, without its "=value": a short option by its letter (optopt), a
 * long one (optopt 0, or its value 256+ when its value is missing) by the word itself. */
static void bad_word(char **argv, int at, int optopt_, char *buf, size_t n)
{
    if (optopt_ > 0 && optopt_ < 256) snprintf(buf, n, "-%c", optopt_);
    else snprintf(buf, n, "%.*s", (int)strcspn(argv[at], "="), argv[at]);
}

/* Operand i of cmd is text, not a name: its placeholder is ANSWER, TITLE or WORD (the last one
 * of "FILE..." stands for every operand after it). */
static bool text_operand(const struct tui_cmd *cmd, int i)
{
    const char *p = cmd->operands, *tok = "";
    size_t len = 0;
    for (int k = 0; *p && k <= i; k++) {
        p += strspn(p, " ");
        if (!*p) break; /* past the last: it repeats */
        tok = p, len = strcspn(p, " ");
        p += len;
    }
    for (const char *const *t = (const char *const[]){"ANSWER", "TITLE", "WORD", NULL}; *t; t++)
        if (len >= strlen(*t) && memmem(tok, len, *t, strlen(*t))) return true;
    return false;
}

int tui_cmd_parse(struct tui_ctx *c, int argc, char **argv)
{
    const struct tui_cmd *cmd = c->cmd;
    const struct tui_opt *opts[64];
    struct option lo[65];
    char shorts[3 * 64 + 2] = ":";
    int n = tui_cmd_options(cmd, opts, 64);
    size_t k = 1;
    for (int i = 0; i < n; i++) {
        lo[i] = (struct option){opts[i]->name, opts[i]->arg ? required_argument : no_argument,
                                NULL, 256 + i};
        if (opts[i]->letter) {
            shorts[k++] = opts[i]->letter;
            if (opts[i]->arg) shorts[k++] = ':';
        }
    }
    shorts[k] = 0;
    lo[n] = (struct option){0, 0, 0, 0};
    optind = 0; /* glibc: start afresh (the global options were parsed before) */
    opterr = 0;
    int ch;
    char word[64];
    while ((ch = getopt_long(argc, argv, shorts, lo, NULL)) != -1) {
        const struct tui_opt *o = NULL;
        if (ch >= 256) o = opts[ch - 256];
        for (int i = 0; !o && i < n; i++)
            if (opts[i]->letter && opts[i]->letter == ch) o = opts[i];
        if (o && o->id == TUI_O_HELP) {
            if (cmd->name) tui_cmd_help(cmd, stdout);
            else tui_cmd_usage(stdout);
            return 0;
        }
        if (o) {
            c->opt[o->id] = o->arg ? optarg : "";
            if (o->id == TUI_O_LESSONS) tui_cmd_add_lessons(c, optarg);
            continue;
        }
        bad_word(argv, optind - 1, optopt, word, sizeof word);
        if (ch == ':') return tui_cmd_usage_error(cmd, "%s needs a value", word);
        int nmatch = 0;
        for (int i = 0; word[0] == '-' && word[1] == '-' && i < n; i++)
            nmatch += !strncmp(opts[i]->name, word + 2, strlen(word + 2));
        if (nmatch > 1) return tui_cmd_usage_error(cmd, "ambiguous option '%s'", word);
        for (int i = 1; isdigit(optopt) || optopt == '.' ? i < argc : 0; i++) {
            char *end; /* `grade 1.1 x -3`: a negative number is an operand, not an option */
            if (!strcmp(argv[i], "--")) break;
            if (argv[i][0] == '-' && strtod(argv[i], &end) < 0 && !*end)
                return tui_cmd_usage_error(cmd, "unknown option '%s'; a negative number goes "
                                           "after --, as in %s -- %s", argv[i], cmd->name ? cmd->name : "vramlab", argv[i]);
        }
        struct gpu_suggest sg; /* --thme: did you mean --theme? */
        char alt[72] = "";
        gpu_suggest_init(&sg, word[0] == '-' && word[1] == '-' ? word + 2 : "");
        for (int i = 0; i < n; i++) gpu_suggest_add(&sg, opts[i]->name);
        if (sg.best) snprintf(alt, sizeof alt, TUI_CLI_T("; did you mean --%s?", "；是不是 --%s？"), sg.best);
        return tui_cmd_usage_error(cmd, "unknown option '%s'%s", word, alt);
    }
    c->argc = argc - optind;
    c->argv = argv + optind;
    char syn[512];
    if (c->argc < cmd->min_args) {
        tui_cmd_synopsis(cmd, syn, sizeof syn);
        return tui_cmd_usage_error(cmd, "missing %s (usage: vramlab %s)",
                                   c->argc ? "operands" : "operand", syn);
    }
    if (!cmd->name && c->argc > cmd->max_args) { /* `vramlab lsit x`: not a command */
        const char *alt = tui_cmd_suggest(c->argv[0]);
        if (alt) return tui_cmd_usage_error(cmd, TUI_CLI_T("unknown command '%s'; did you mean '%s'?",
                                                           "没有命令“%s”；是不是“%s”？"), c->argv[0], alt);
        return tui_cmd_usage_error(cmd, "unknown command '%s'", c->argv[0]);
    }
    if (cmd->max_args >= 0 && c->argc > cmd->max_args)
        return tui_cmd_usage_error(cmd, "unexpected operand '%s'", c->argv[cmd->max_args]);
    /* what names a thing (an id, a path, a size, a folder) holds no control character: repeated
     * in a message it would write lines of its own; a text operand (an answer, a title) is its
     * command's to check */
    for (int i = 0; i < TUI_O_N; i++)
        if (c->opt[i] && !gpu_esc_clean(c->opt[i], false))
            return tui_cmd_usage_error(cmd, "an option's value holds a control character: '%s'", c->opt[i]);
    for (int i = 0; i < c->argc; i++)
        if (!text_operand(cmd, i) && !gpu_esc_clean(c->argv[i], false))
            return tui_cmd_usage_error(cmd, "operand %d holds a control character: '%s'", i + 1, c->argv[i]);
    return check_literals(cmd, c->argc, c->argv);
}

/* ---- texts made from the table ----------------------------------------------------------- */

/* "run LESSON [--json]": the name, the operands, each own option. */
void tui_cmd_synopsis(const struct tui_cmd *cmd, char *buf, size_t n)
{
    size_t l = (size_t)snprintf(buf, n, "%s%s%s", cmd->name ? cmd->name : "",
                                cmd->name && *cmd->operands ? " " : "", cmd->operands);
    for (const struct tui_opt *o = cmd->opts; o->name && l < n; o++)
        l += (size_t)snprintf(buf + l, n - l, "%s[--%s%s%s]", l ? " " : "", o->name,
                              o->arg ? " " : "", o->arg ? o->arg : "");
}

/* "  -b, --backend cuda|sim|auto" padded to `col`, then the help. */
static void opt_line(FILE *f, const struct tui_opt *o, int col)
{
    char head[128];
    snprintf(head, sizeof head, "  %c%c%s--%s%s%s", o->letter ? '-' : ' ',
             o->letter ? o->letter : ' ', o->letter ? ", " : "  ", o->name, o->arg ? " " : "",
             o->arg ? o->arg : "");
    fprintf(f, "%-*s %s\n", col, head, o->help);
}

void tui_cmd_usage(FILE *f)
{
    char syn[512];
    fputs("usage: vramlab [OPTIONS] [LESSON]       the tutor (the lesson list when not a terminal)\n"
          "       vramlab [OPTIONS] COMMAND [ARGS]\n"
          "commands:\n", f);
    for (const struct tui_cmd *c = tui_cmds + 1; c->run; c++) {
        if (c->needs & HIDDEN) continue;
        snprintf(syn, sizeof syn, "%s %s", c->name, c->operands);
        fprintf(f, "  %-30s %s\n", syn, c->summary);
    }
    fputs("options (before or after the command):\n", f);
    for (const struct tui_opt *o = tui_globals; o->name; o++)
        if (o->help) opt_line(f, o, 30);
    fputs("exit codes: 0 ok, 1 a lesson, script, run or input file failed, 2 usage, 3 set-up\n"
          "  (data, backend), 4 memory still allocated at exit, 5 output not written, 6 the\n"
          "  watchdog ended a run (details: man vramlab)\n"
          "environment: VRAMLAB_LIMITS=\"seconds=S,instructions=N,memory=SIZE,wall=S,course=S,\n"
          "  lessons=N\" (any of them) sets the sandbox limits (default 10 s of Lua, 200 million\n"
          "  instructions, 64MiB, 300 s of wall time per run, measurements included) and the\n"
          "  course's (5 s to read a course, 1000 lessons a folder)\n"
          "vramlab COMMAND --help for more about a command.\n", f);
}

void tui_cmd_help(const struct tui_cmd *cmd, FILE *f)
{
    char syn[512];
    tui_cmd_synopsis(cmd, syn, sizeof syn);
    fprintf(f, "usage: vramlab %s\n%c%s\n", syn, toupper((unsigned char)cmd->summary[0]),
            cmd->summary + 1);
    if (cmd->details) fprintf(f, "%s\n", cmd->details);
    if (cmd->opts->name) fputs("options:\n", f);
    for (const struct tui_opt *o = cmd->opts; o->name; o++) opt_line(f, o, 22);
    int n = 0, col = 0;
    for (const struct tui_opt *g = tui_globals; g->name; g++) {
        if (g->id == TUI_O_HELP || !g->help || !global_applies(cmd, g)) continue;
        if (!n++) col = fprintf(f, "global options it uses:");
        if (col + 3 + (int)strlen(g->name) > 90) col = fprintf(f, "\n ");
        col += fprintf(f, " --%s", g->name);
    }
    fputs(n ? " (vramlab --help)\n" : "", f);
}

/* ---- the man page's headers, in roff --------------------------------------------------- */

/* One synopsis word in roff: placeholders (upper case) in italics, literals and options in
 * bold, brackets, bars and ellipses as they are. */
static void roff_word(FILE *f, const char *w, size_t n)
{
    size_t i = 0;
    while (i < n) {
        size_t p = strspn(w + i, "[]|");
        if (p) {
            fprintf(f, "%.*s", (int)(p < n - i ? p : n - i), w + i);
            i += p;
            continue;
        }
        size_t m = strcspn(w + i, "[]|");
        if (m > n - i) m = n - i;
        size_t dots = m >= 3 && !strncmp(w + i + m - 3, "...", 3) ? 3 : 0;
        bool upper = isupper((unsigned char)w[i]);
        fputs(upper ? "\\fI" : "\\fB", f);
        for (size_t k = i; k < i + m - dots; k++) {
            if (w[k] == '-') fputs("\\-", f);
            else fputc(w[k], f);
        }
        fprintf(f, "\\fR%s", dots ? "..." : "");
        i += m;
    }
}

static void roff_words(FILE *f, const char *s)
{
    for (const char *p = s; *p;) {
        size_t n = strcspn(p, " ");
        roff_word(f, p, n);
        p += n;
        if (*p) fputc(*p++, f);
    }
}

static void roff_opt(FILE *f, const struct tui_opt *o, bool brackets)
{
    fputs(brackets ? "[\\fB\\-\\-" : "\\fB\\-\\-", f);
    fprintf(f, "%s\\fR", o->name);
    if (o->arg) fprintf(f, " \\fI%s\\fR", o->arg);
    fputs(brackets ? "]" : "", f);
}

/* "\fBrun\fR \fILESSON\fR [\fB\-\-json\fR]" */
static void roff_cmd(FILE *f, const struct tui_cmd *c)
{
    int sp = 0;
    if (c->name) fprintf(f, "\\fB%s\\fR", c->name), sp = 1;
    if (*c->operands) fputs(sp ? " " : "", f), roff_words(f, c->operands), sp = 1;
    for (const struct tui_opt *o = c->opts; o->name; o++) fputs(sp ? " " : "", f), roff_opt(f, o, true), sp = 1;
    fputc('\n', f);
}

void tui_cmd_man(FILE *f)
{
    fputs(".SH SYNOPSIS\n", f);
    for (const struct tui_cmd *c = tui_cmds; c->run; c++) {
        if (c->needs & HIDDEN) continue;
        fputs(c == tui_cmds ? "" : ".br\n", f);
        fputs(".B vramlab\n[\\fIoptions\\fR] ", f);
        roff_cmd(f, c);
    }
    fputs(".SH COMMANDS\n", f);
    for (const struct tui_cmd *c = tui_cmds + 1; c->run; c++)
        if (!(c->needs & HIDDEN)) fputs(".TP\n", f), roff_cmd(f, c);
    fputs(".SH OPTIONS\n", f);
    for (const struct tui_opt *o = tui_globals; o->name; o++) {
        if (!o->help) continue;
        fputs(".TP\n", f);
        if (o->letter) fprintf(f, "\\fB\\-%c\\fR, ", o->letter);
        roff_opt(f, o, false);
        fputc('\n', f);
    }
}
