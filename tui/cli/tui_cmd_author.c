/* tui_cmd_author.c - `vramlab new-lesson`: a teacher's new lesson and its reference answers,
 * written from the template (lt_scaffold) into a lessons folder, valid as written. */
#include "tui_cmd.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tui_file.h"

/* A new file with src; never over one that exists. */
static bool write_new(const char *path, const char *src)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (fd < 0) {
        fprintf(stderr, "vramlab: new-lesson: %s: %s%s\n", path, strerror(errno),
                errno == EEXIST ? " (not overwritten)" : "");
        return false;
    }
    size_t len = strlen(src);
    bool ok = write(fd, src, len) == (ssize_t)len;
    ok = !close(fd) && ok;
    if (!ok) fprintf(stderr, "vramlab: new-lesson: %s: %s\n", path, strerror(errno)), unlink(path);
    return ok;
}

int tui_cmd_new_lesson(struct tui_ctx *c)
{
    const char *id = c->argv[0], *title = c->argv[1], *lang = c->opt[TUI_O_DRAFT];
    const char *dir = c->opt[TUI_O_DIR] ? c->opt[TUI_O_DIR] : ".";
    size_t a = strspn(id, "0123456789");
    if (!a || id[a] != '.' || !id[a + 1] || strspn(id + a + 1, "0123456789") != strlen(id + a + 1) ||
        strlen(id) > 31 || atol(id) < 1 || atol(id) > 9999)
        return tui_cmd_usage_error(c->cmd, "the section is chapter.section, e.g. 9.1, not '%s'", id);
    if (!*title || strchr(title, '\n'))
        return tui_cmd_usage_error(c->cmd, "the title is one line of text");
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
    else if (write_new(lf, lesson)) {
        if (write_new(af, answers)) rc = 0;
        else unlink(lf);
    }
    free(lesson), free(answers);
    if (rc) return rc;
    printf("wrote %s\nwrote %s\n", lf, af);
    printf("next: vramlab --lessons %s check --run --answers %s%s\n", dir, id,
           lang ? " (a draft: check --strict refuses it until it is translated)" : "");
    return 0;
}
