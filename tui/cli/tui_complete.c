/* tui_complete.c - `vramlab __complete WORD...`: what bash completion offers for the last WORD
 * (the words after "vramlab", the last one being completed), from the command table itself:
 * commands, each command's options and the global ones it uses, option values (choices such
 * as en|zh, profiles), lesson ids (of the course with the words' --datadir and --lessons), a
 * lesson's exercise ids. One candidate a line, those that
 * start with the word; "@file" or "@dir" alone asks the shell to complete a path instead.
 * tui/cli/vramlab.bash calls it. */
#include "tui_cmd.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "gpu_sim.h"

struct comp {
    struct tui_ctx *c;
    const char *prefix;
    char datadir[PATH_MAX], lessons[sizeof ((struct tui_ctx *)0)->lessons];
};

static void offer(const struct comp *k, const char *s, size_t n)
{
    size_t pl = strlen(k->prefix);
    if (n >= pl && !strncmp(s, k->prefix, pl)) printf("%.*s\n", (int)n, s);
}

static void offer_str(const struct comp *k, const char *s) { offer(k, s, strlen(s)); }

static void offer_profile(const char *id, void *ud) { offer_str(ud, id); }

static void offer_lessons(const struct comp *k)
{
    struct lt_catalog_entry *e;
    int n = k->c->rt ? lt_catalog_scan(k->c->rt, k->lessons, &e) : 0;
    for (int i = 0; i < n; i++)
        if (!e[i].error) offer_str(k, e[i].id);
    if (n) lt_catalog_free(e, n);
}

/* A lesson's exercises, from the catalog's header: no lesson is run to complete a word. */
static void offer_exercises(const struct comp *k, const char *lesson)
{
    struct lt_catalog_entry *e;
    int n = k->c->rt ? lt_catalog_scan(k->c->rt, k->lessons, &e) : 0;
    for (int i = 0; i < n; i++) {
        if (e[i].error || strcmp(e[i].id, lesson)) continue;
        for (int x = 0; x < e[i].nexercises; x++) offer_str(k, e[i].exercises[x]);
    }
    if (n) lt_catalog_free(e, n);
}

static bool upper_word(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!isupper((unsigned char)s[i]) && s[i] != '.' && s[i] != '_') return false;
    return n > 0;
}

/* Candidates for a placeholder: "a|b" choices, PROFILE, LESSON, SECTION, EXERCISE (of `prev`, the
 * operand before), FILE..., DIR, a lower-case literal; nothing for a number or free text. */
static void offer_value(struct comp *k, const char *ph, size_t n, const char *prev)
{
    char word[64];
    snprintf(word, sizeof word, "%.*s", (int)(n < sizeof word ? n : sizeof word - 1), ph);
    if (!strncmp(word, "FILE", 4)) puts("@file");
    else if (!strcmp(word, "DIR")) puts("@dir");
    else if (!strcmp(word, "PROFILE")) gpu_profile_list(k->datadir, offer_profile, k);
    else if (!strcmp(word, "LESSON") || !strcmp(word, "SECTION")) {
        if (strchr(k->prefix, '/')) puts("@file");
        else offer_lessons(k);
    } else if (!strcmp(word, "EXERCISE") && prev) offer_exercises(k, prev);
    else if (!upper_word(word, strlen(word)))
        for (const char *p = word; *p;) { /* choices, or one literal */
            size_t m = strcspn(p, "|");
            offer(k, p, m);
            p += m + (p[m] == '|');
        }
}

/* The placeholder of operand i in "replay FILE [CAPACITY]", "[FILE...]" (the last repeats). */
static bool operand(const struct tui_cmd *cmd, int i, const char **ph, size_t *n)
{
    const char *p = cmd->operands;
    for (int at = 0; *p; at++) {
        p += strspn(p, " [");
        size_t m = strcspn(p, " ]");
        bool more = m >= 3 && !strncmp(p + m - 3, "...", 3);
        *ph = p, *n = more ? m - 3 : m;
        if (at == i || more) return *n > 0;
        p += m;
        p += strspn(p, "]");
    }
    return false;
}

static const struct tui_opt *find_opt(const struct tui_opt **opts, int n, const char *w)
{
    size_t l = strcspn(w, "=");
    for (int i = 0; i < n; i++) {
        if (w[1] != '-' && opts[i]->letter && w[1] == opts[i]->letter) return opts[i];
        if (w[1] == '-' && strlen(opts[i]->name) == l - 2 && !strncmp(opts[i]->name, w + 2, l - 2))
            return opts[i];
    }
    return NULL;
}

/* The options known where the word stands: before a command the globals, after it the
 * command's own and the globals it uses. */
static int options_at(const struct tui_cmd *cmd, const struct tui_opt **out, int max)
{
    if (cmd) return tui_cmd_options(cmd, out, max);
    int n = 0;
    for (const struct tui_opt *g = tui_globals; g->name && n < max; g++)
        if (g->help) out[n++] = g;
    return n;
}

/* the course the words name, as a command's (tui_cmd_course) */
static void set_lessons(struct comp *k) { tui_cmd_course(k->c, k->datadir, k->lessons, sizeof k->lessons); }

static void set_datadir(struct comp *k, const char *dir)
{
    if (!realpath(dir, k->datadir)) snprintf(k->datadir, sizeof k->datadir, "%s", dir);
    set_lessons(k);
}

static void add_lessons(struct comp *k, const char *dir)
{
    tui_cmd_add_lessons(k->c, dir);
    set_lessons(k);
}

int tui_cmd_complete(struct tui_ctx *c)
{
    struct comp k = {.c = c, .prefix = c->argc ? c->argv[c->argc - 1] : ""};
    const struct tui_cmd *cmd = NULL;
    const struct tui_opt *opts[64], *pending = NULL;
    const char *ops[64];
    int nops = 0, nopt = options_at(NULL, opts, 64);
    bool dashdash = false;
    set_datadir(&k, c->datadir);
    for (int i = 0; i + 1 < c->argc; i++) {
        const char *w = c->argv[i];
        if (pending) {
            if (pending->id == TUI_O_DATADIR) set_datadir(&k, w);
            if (pending->id == TUI_O_LESSONS) add_lessons(&k, w);
            pending = NULL;
        } else if (!dashdash && !strcmp(w, "--")) {
            dashdash = true;
        } else if (!dashdash && w[0] == '-' && w[1]) {
            const struct tui_opt *o = find_opt(opts, nopt, w);
            bool attached = w[1] == '-' ? strchr(w, '=') != NULL : w[2] != 0;
            if (o && o->arg && !attached) pending = o;
            const char *val = !attached ? NULL : w[1] == '-' ? strchr(w, '=') + 1 : w + 2;
            if (o && o->id == TUI_O_DATADIR && val) set_datadir(&k, val);
            if (o && o->id == TUI_O_LESSONS && val) add_lessons(&k, val);
        } else if (!cmd && (cmd = tui_cmd_find(w))) {
            nopt = options_at(cmd, opts, 64);
        } else {
            if (!cmd) cmd = &tui_cmds[0], nopt = options_at(cmd, opts, 64);
            if (nops < 64) ops[nops++] = w;
        }
    }
    const char *cur = k.prefix, *prev = nops ? ops[nops - 1] : NULL;
    if (pending) {
        offer_value(&k, pending->arg, strlen(pending->arg), prev);
    } else if (!dashdash && cur[0] == '-' && strchr(cur, '=')) { /* --lang=z: the value only */
        const struct tui_opt *o = find_opt(opts, nopt, cur);
        k.prefix = strchr(cur, '=') + 1;
        if (o && o->arg) offer_value(&k, o->arg, strlen(o->arg), prev);
    } else if (!dashdash && cur[0] == '-') {
        char name[80];
        for (int i = 0; i < nopt; i++) {
            snprintf(name, sizeof name, "--%s", opts[i]->name);
            offer_str(&k, name);
        }
    } else if (!cmd) { /* a command, or a lesson for the tutor */
        for (const struct tui_cmd *t = tui_cmds + 1; t->run; t++)
            if (!(t->needs & TUI_CMD_HIDDEN)) offer_str(&k, t->name);
        if (!isalpha((unsigned char)cur[0])) offer_lessons(&k);
    } else {
        const char *ph;
        size_t n;
        if (operand(cmd, nops, &ph, &n)) offer_value(&k, ph, n, prev);
    }
    return 0;
}
