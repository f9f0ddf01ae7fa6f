/* tui_cmd_author.c - `vramlab new-lesson`: a teacher's new lesson and its reference answers,
 * written from the template (lt_scaffold) into a lessons folder, valid as written. */
#include "tui_cmd.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gpu_esc.h"
#include "tui_file.h"
#include "tui_state.h"

/* A new file dir/name with src; never over one that exists (tui_state_create). */
static bool write_new(const char *dir, const char *name, const char *src)
{
    char err[4600];
    int r = tui_state_create(dir, name, src, strlen(src), err, sizeof err);
    if (r == 0) fprintf(stderr, "vramlab: new-lesson: %s/%s: it exists (not overwritten)\n", dir, name);
    if (r < 0) fprintf(stderr, "vramlab: new-lesson: %s\n", err);
    return r == 1;
}

int tui_cmd_new_lesson(struct tui_ctx *c)
{
    const char *id = c->argv[0], *title = c->argv[1], *lang = c->opt[TUI_O_DRAFT];
    const char *dir = c->opt[TUI_O_DIR] ? c->opt[TUI_O_DIR] : ".";
    size_t a = strspn(id, "0123456789");
    if (!a || id[a] != '.' || !id[a + 1] || strspn(id + a + 1, "0123456789") != strlen(id + a + 1) ||
        strlen(id) > LT_ID_MAX || atol(id) < 1 || atol(id) > 9999) {
        char shown[200];
        return tui_cmd_usage_error(c->cmd, "the section is chapter.section, e.g. 9.1, not '%s'",
                                   gpu_esc_field(shown, sizeof shown, id));
    }
    /* the title goes into the lesson's source (as %q strings): text only, no control character
     * (a CR or a newline would end a line of source), valid UTF-8 */
    if (!*title || !gpu_esc_clean(title, true))
        return tui_cmd_usage_error(c->cmd, "the title is one line of text, without control characters");
    if (lang && strcmp(lang, "en") && strcmp(lang, "zh"))
        return tui_cmd_usage_error(c->cmd, "--lang is en or zh (a draft in that language), not '%s'", lang);
    if (!c->rt) {
        fprintf(stderr, "vramlab: no device backend: %s\n", c->why);
        return 3;
    }
    /* the id must be new to the course and to the folder it goes in */
    char all[sizeof c->lessons + 4200];
    snprintf(all, sizeof all, "%s:%s", c->lessons, dir);
    struct lt_catalog_entry *e;
    int k = lt_catalog_scan(c->rt, all, &e), clash = -1;
    for (int i = 0; i < k && clash < 0; i++)
        if (!e[i].error && !strcmp(e[i].id, id)) clash = i;
    if (clash >= 0) fprintf(stderr, "vramlab: new-lesson: section %s exists already: %s\n", id, e[clash].path);
    if (k) lt_catalog_free(e, k);
    if (clash >= 0) return 1;

    char *lesson, *answers, slug[64], err[1024], sub[4200], lf[4400], af[4400];
    if (!lt_scaffold(c->rt, id, title, lang, &lesson, &answers, slug, sizeof slug, err, sizeof err)) {
        fprintf(stderr, "vramlab: new-lesson: %s\n", err);
        return 1;
    }
    snprintf(sub, sizeof sub, "%s/ch%02ld", dir, atol(id));
    snprintf(lf, sizeof lf, "%s/%s-%s.lua", sub, id, slug);
    snprintf(af, sizeof af, "%s/%s-%s.answers.lua", sub, id, slug);
    int rc = 1;
    if (!tui_file_mkdirs(sub, 0755)) fprintf(stderr, "vramlab: new-lesson: %s: %s\n", sub, strerror(errno));
    else if (write_new(sub, lf + strlen(sub) + 1, lesson)) {
        if (write_new(sub, af + strlen(sub) + 1, answers)) rc = 0;
        else unlink(lf);
    }
    free(lesson), free(answers);
    if (rc) return rc;
    printf("wrote %s\nwrote %s\n", lf, af);
    printf("next: vramlab --lessons %s check --run --answers %s%s\n", dir, id,
           lang ? " (a draft: check --strict refuses it until it is translated)" : "");
    return 0;
}
