/* tui_workspace.c - `vramlab exercises`: the workspace files (see tui_workspace.h). A file is
 * named from its ids by tui_file_id_name alone and created by tui_state_create, so a learner's
 * file is never overwritten, even by two runs at once, and nothing is written outside DIR. */
#include "tui_workspace.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gpu_esc.h"
#include "tui_file.h"
#include "tui_text.h"
#include "tui_state.h"
#include "tui_wrap.h"

void tui_ws_free(struct tui_ws_item *items, int n)
{
    for (int i = 0; i < n; i++) {
        free(items[i].lesson), free(items[i].exercise), free(items[i].lesson_path);
        free(items[i].file), free(items[i].title);
    }
    free(items);
}

int tui_ws_scan(struct lt_runtime *rt, const char *lessons_dir, const char *ws_dir,
                struct tui_ws_item **out)
{
    struct lt_catalog_entry *cat;
    int ncat = lt_catalog_scan(rt, lessons_dir, &cat), n = 0, cap = 0;
    struct tui_ws_item *v = NULL;
    bool oom = false;
    char err[1024], file[2048], name[2 * LT_ID_MAX + 8];
    for (int c = 0; c < ncat && !oom; c++) {
        if (cat[c].error || cat[c].nexercises == 0) continue;
        struct lt_lesson *ls = lt_lesson_load(rt, cat[c].path, err, sizeof err);
        if (!ls) continue; /* it loaded a moment ago: a file being edited right now */
        for (int b = 0; b < lt_lesson_nblocks(ls) && !oom; b++) {
            struct lt_exercise_info x;
            if (!lt_lesson_exercise(ls, b, &x) || !x.kind || strcmp(x.kind, "code")) continue;
            if (!tui_file_id_name(name, sizeof name, lt_lesson_id(ls), x.id, ".lua")) continue;
            if (n == cap) {
                cap = cap ? 2 * cap : 16;
                struct tui_ws_item *nv = realloc(v, (size_t)cap * sizeof *nv);
                if (!nv) {
                    oom = true;
                    break;
                }
                v = nv;
            }
            struct tui_ws_item *it = &v[n++];
            snprintf(file, sizeof file, "%s/%s", ws_dir, name);
            it->lesson = strdup(lt_lesson_id(ls)), it->exercise = strdup(x.id);
            it->lesson_path = strdup(cat[c].path), it->file = strdup(file);
            it->title = strdup(lt_lesson_title(ls));
            it->block = b;
            oom = !it->lesson || !it->exercise || !it->lesson_path || !it->file || !it->title;
        }
        lt_lesson_free(ls);
    }
    lt_catalog_free(cat, ncat);
    if (oom) {
        tui_ws_free(v, n);
        return -1;
    }
    *out = v;
    return n;
}

void tui_ws_comment(FILE *f, const char *text, int width, const char *first, const char *rest)
{
    char *esc = NULL;
    size_t cap = 0;
    for (const char *p = text; *p;) {
        const char *nl = strchr(p, '\n');
        size_t len = nl ? (size_t)(nl - p) : strlen(p);
        struct tui_wline *wl = NULL;
        int k = len ? tui_wrap(p, len, width, &wl) : 0;
        if (k <= 0) fputs("--\n", f);
        for (int i = 0; i < k; i++, first = rest) {
            /* escaped: a CR would end the comment and what follows it would run as code */
            size_t l = (size_t)(wl[i].end - wl[i].start), need = 4 * l + 8;
            char *piece = strndup(p + wl[i].start, l), *ne = need > cap ? realloc(esc, need) : esc;
            if (ne) esc = ne, cap = need > cap ? need : cap;
            if (piece && ne) fprintf(f, "%s%s\n", first, gpu_esc_field(esc, cap, piece));
            free(piece);
        }
        free(wl);
        p += len + (nl ? 1 : 0);
    }
    free(esc);
}

char *tui_ws_template(struct lt_lesson *ls, int block, const char *lang)
{
    struct lt_exercise_info x;
    if (!lt_lesson_exercise(ls, block, &x)) return NULL;
    bool zh = lang && !strcmp(lang, "zh");
    char *prompt = NULL, *buf = NULL;
    size_t plen = 0, blen = 0;
    FILE *pf = open_memstream(&prompt, &plen);
    if (!pf) return NULL;
    tui_text_markup(pf, x.prompt, lang);
    fclose(pf);
    FILE *f = open_memstream(&buf, &blen);
    if (!f) {
        free(prompt);
        return NULL;
    }
    /* the first line is read back by `vramlab watch`: keep its shape; the title escaped, as
     * every text from the lesson in this file (tui_ws_comment) */
    char title[4 * 256 + 8];
    fprintf(f, "-- vramlab exercise %s/%s · %s %s\n--\n", lt_lesson_id(ls), x.id,
            zh ? "课程" : "lesson", gpu_esc_field(title, sizeof title, lt_lesson_title(ls)));
    /* the plain text ends paragraphs with a blank line: drop the trailing ones */
    if (prompt) {
        size_t l = strlen(prompt);
        while (l && (prompt[l - 1] == '\n' || prompt[l - 1] == ' ')) prompt[--l] = 0;
        tui_ws_comment(f, prompt[strspn(prompt, "\n")] ? prompt + strspn(prompt, "\n") : "", 76, "-- ", "-- ");
    }
    if (zh)
        fprintf(f, "--\n-- 定义函数 `%s`。用 `vramlab watch` 检查：每次保存都会重新评分\n"
                   "-- （h 提示，n 下一题，l 列表，q 退出）。代码在课程的沙箱里运行。\n\n",
                x.entry ? x.entry : "?");
    else
        fprintf(f, "--\n-- Define the function `%s`. Check it with `vramlab watch`: it re-checks on\n"
                   "-- every save (h hint, n next, l list, q quit). Your code runs in the lesson\n"
                   "-- sandbox, with the same modules and limits.\n\n",
                x.entry ? x.entry : "?");
    fputs(x.starter && *x.starter ? x.starter : "", f);
    if (x.starter && *x.starter && x.starter[strlen(x.starter) - 1] != '\n') fputc('\n', f);
    fclose(f);
    free(prompt);
    return buf;
}

int tui_ws_create(struct lt_runtime *rt, const char *lessons_dir, const char *ws_dir, FILE *out)
{
    struct tui_ws_item *it;
    char err[2200];
    int n = tui_ws_scan(rt, lessons_dir, ws_dir, &it);
    if (n < 0) {
        fprintf(stderr, "vramlab: out of memory\n");
        return 1;
    }
    if (n == 0) {
        fprintf(stderr, "vramlab: no code exercises in %s\n", lessons_dir);
        tui_ws_free(it, n);
        return 3;
    }
    if (!tui_file_mkdirs(ws_dir, 0700)) {
        fprintf(stderr, "vramlab: cannot create %s: %s\n", ws_dir, strerror(errno));
        tui_ws_free(it, n);
        return 1;
    }
    int made = 0, kept = 0, rc = 0;
    bool zh = !strcmp(lt_runtime_lang(rt), "zh");
    for (int i = 0; i < n; i++) {
        struct lt_lesson *ls = lt_lesson_load(rt, it[i].lesson_path, err, sizeof err);
        char *text = ls ? tui_ws_template(ls, it[i].block, lt_runtime_lang(rt)) : NULL;
        char name[2 * LT_ID_MAX + 8];
        int r = -1;
        if (text && tui_file_id_name(name, sizeof name, it[i].lesson, it[i].exercise, ".lua"))
            r = tui_state_create(ws_dir, name, text, strlen(text), err, sizeof err);
        else if (text)
            snprintf(err, sizeof err, "%s: an id cannot name a file", it[i].lesson_path);
        if (r < 0) {
            fprintf(stderr, "vramlab: %s\n", ls && !text ? "out of memory" : err);
            rc = 1;
        } else {
            if (out) fprintf(out, "  %s  %s\n", r ? (zh ? "新建" : "created") : (zh ? "保留" : "kept   "), it[i].file);
            made += r, kept += !r;
        }
        free(text);
        lt_lesson_free(ls);
    }
    if (out) fprintf(out, zh ? "%d 个练习文件在 %s：新建 %d 个，已有 %d 个（原样保留）。\n下一步：vramlab watch %s\n"
                    : "%d exercise file(s) in %s: %d created, %d already there (left as they are).\n"
                      "Next: vramlab watch %s\n", n, ws_dir, made, kept, ws_dir);
    tui_ws_free(it, n);
    return rc;
}
