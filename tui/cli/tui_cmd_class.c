/* tui_cmd_class.c - the commands for a classroom: present (the presenter on a projector),
 * results and compare (recordings of several machines; tui_results.c does the work). */
#include "tui_cmd.h"

#include <langinfo.h>
#include <string.h>
#include <unistd.h>

#include "tui.h"
#include "tui_exam_results.h"
#include "tui_results.h"

int tui_cmd_present(struct tui_ctx *c)
{
    const char *want = c->argc ? c->argv[0] : NULL;
    if (want && !strstr(want, ".lua") && !tui_cli_has_lesson(c, want)) { /* before the terminal */
        tui_cli_no_lesson(c, want);
        return 2;
    }
    if (!isatty(STDOUT_FILENO) || !isatty(STDIN_FILENO)) {
        fprintf(stderr, "vramlab: present needs a terminal (try `vramlab run LESSON`)\n");
        return 3;
    }
    struct tui_opts to = {c->lessons, c->argc ? c->argv[0] : NULL, c->why, c->rec, c->rp, c->warning};
    return tui_present(c->rt, &to);
}

int tui_cmd_results(struct tui_ctx *c)
{
    if (c->opt[TUI_O_CSV] && c->opt[TUI_O_JSON])
        return tui_cmd_usage_error(c->cmd, "--csv or --json, not both");
    enum tui_results_format fmt = c->opt[TUI_O_CSV] ? TUI_RES_CSV : c->opt[TUI_O_JSON] ? TUI_RES_JSON : TUI_RES_TEXT;
    if (tui_exam_results_are(c->argv, c->argc)) /* a class's exam results */
        return tui_exam_results_cmd(c->argv, c->argc, c->opt[TUI_O_ROSTER], fmt,
                                    c->lang && !strcmp(c->lang, "zh"), stdout);
    if (c->opt[TUI_O_ROSTER]) return tui_cmd_usage_error(c->cmd, "--roster goes with a class's exam results");
    if (c->argc > 1) return tui_cmd_usage_error(c->cmd, "one recording at a time (several: vramlab compare)");
    return tui_results_cmd(c->argv[0], c->opt[TUI_O_CSV]    ? TUI_RES_CSV
                                       : c->opt[TUI_O_JSON] ? TUI_RES_JSON
                                                            : TUI_RES_TEXT,
                           c->lang && !strcmp(c->lang, "zh"), stdout);
}

/* Block bars need UTF-8; elsewhere compare draws them in ASCII. */
static bool utf8_locale(void)
{
    const char *cs = nl_langinfo(CODESET);
    return cs && (!strcmp(cs, "UTF-8") || !strcmp(cs, "utf8"));
}

int tui_cmd_compare(struct tui_ctx *c)
{
    if (tui_exam_results_are(c->argv, c->argc)) /* students side by side */
        return tui_exam_compare_cmd(c->argv, c->argc, !utf8_locale(), c->lang && !strcmp(c->lang, "zh"), stdout);
    return tui_compare_cmd(c->argv, c->argc, !utf8_locale(), c->lang && !strcmp(c->lang, "zh"), stdout);
}
