/* tui_cmd.c - see tui_cmd.h: the option parser built from the table (tui_cmd_table.c), and
 * every text made from it (usage, per-command help, the man page's headers). The handlers call
 * down into this file; only the table names them. */
#include "tui_cmd.h"

#include <ctype.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "gpu_esc.h"
#include "gpu_suggest.h"

bool tui_cli_zh;

/* ---- the table's lookups ------------------------------------------------------------------ */

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
        if (!(c->needs & TUI_CMD_HIDDEN)) gpu_suggest_add(&s, c->name);
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
        if (c->needs & TUI_CMD_HIDDEN) continue;
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
        if (c->needs & TUI_CMD_HIDDEN) continue;
        fputs(c == tui_cmds ? "" : ".br\n", f);
        fputs(".B vramlab\n[\\fIoptions\\fR] ", f);
        roff_cmd(f, c);
    }
    fputs(".SH COMMANDS\n", f);
    for (const struct tui_cmd *c = tui_cmds + 1; c->run; c++)
        if (!(c->needs & TUI_CMD_HIDDEN)) fputs(".TP\n", f), roff_cmd(f, c);
    fputs(".SH OPTIONS\n", f);
    for (const struct tui_opt *o = tui_globals; o->name; o++) {
        if (!o->help) continue;
        fputs(".TP\n", f);
        if (o->letter) fprintf(f, "\\fB\\-%c\\fR, ", o->letter);
        roff_opt(f, o, false);
        fputc('\n', f);
    }
}
