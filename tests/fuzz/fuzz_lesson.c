/* fuzz_lesson.c - libFuzzer target for the lesson loader/validator (lt_lesson_load). Each input
 * is written to a temporary .lua file and loaded in a fresh runtime on the simulator (tight
 * sandbox limits). Properties: it never crashes; a refusal reads "path:N: what" with N a line
 * number; an accepted lesson can be read through the whole lesson API (blocks, texts, titles,
 * panels, exercises, grading) in both languages; the catalog's reading of its header without
 * running it (lt_header.c), when the file is in the plain form, is what the loaded lesson holds;
 * nothing stays allocated on the device. */
#include <ctype.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gpu.h"
#include "lt.h"
#include "lt_header.h"
#include "lt_data.h"
#include "lt_lex.h"
#include "lt_markup.h"

#define CHECK(c)                                                                                  \
    do {                                                                                          \
        if (!(c)) {                                                                               \
            fprintf(stderr, "fuzz_lesson: %s:%d: check failed: %s\n", __FILE__, __LINE__, #c);    \
            abort();                                                                              \
        }                                                                                         \
    } while (0)

static struct gpu_dev *dev;
static char dir[64], path[96];

static void sink(void *ud, const struct lt_event *ev) { (void)ud, (void)ev; }

static void cleanup(void)
{
    unlink(path);
    rmdir(dir);
    gpu_close(dev);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    const char *datadir = getenv("VRAMLAB_DATADIR");
    /* host experiments of 1 MiB at most: an input checks what the code does, not the RAM */
    struct gpu_config c = {.datadir = datadir ? datadir : ".", .deterministic = true,
                           .cap_fraction = 0.9, .host_max = 1u << 20};
    char why[512];
    if (gpu_open("sim", &c, &dev, why, sizeof why) != GPU_OK) {
        fprintf(stderr, "fuzz_lesson: cannot open the simulator (run from the source tree or set "
                        "VRAMLAB_DATADIR): %s\n", why);
        exit(1);
    }
    snprintf(dir, sizeof dir, "/tmp/vramlab-fuzz-XXXXXX");
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        exit(1);
    }
    snprintf(path, sizeof path, "%s/lesson.lua", dir);
    atexit(cleanup);
    return 0;
}

/* "path:N: ..." */
static void check_message(const char *err)
{
    size_t pl = strlen(path);
    if (strncmp(err, path, pl) || err[pl] != ':' || !isdigit((unsigned char)err[pl + 1])) {
        fprintf(stderr, "fuzz_lesson: message does not start with '%s:LINE:': %s\n", path, err);
        abort();
    }
    const char *p = err + pl + 1;
    while (isdigit((unsigned char)*p)) p++;
    CHECK(*p == ':');
}

static void read_all(struct lt_lesson *ls, struct lt_runtime *rt)
{
    char fb[1024];
    CHECK(lt_lesson_id(ls) && lt_lesson_title(ls) && lt_lesson_chapter(ls) >= 1);
    int nb = lt_lesson_nblocks(ls);
    CHECK(nb >= 1);
    for (int i = 0; i < nb; i++) {
        enum lt_block_kind k = lt_lesson_block_kind(ls, i);
        const char *t = lt_lesson_block_text(ls, i);
        if (k == LT_BLOCK_TEXT) CHECK(t != NULL);
        if (t) {
            struct lt_mk_doc d;
            char err[256];
            CHECK(lt_markup_parse(t, strlen(t), &d, err, sizeof err) == 0); /* validated */
            lt_markup_free(&d);
        }
        (void)lt_lesson_block_title(ls, i);
        struct lt_panel p[8];
        int np = lt_lesson_panels(ls, i, p, 8);
        CHECK(np >= 0 && np <= 8);
        if (k == LT_BLOCK_EXPERIMENT) CHECK(np >= 1);
        struct lt_exercise_info x;
        if (lt_lesson_exercise(ls, i, &x)) {
            CHECK(k == LT_BLOCK_EXERCISE && x.id && x.kind);
            /* grading runs lesson code (check functions): within the sandbox limits */
            if (strcmp(x.kind, "predict")) {
                (void)lt_lesson_answer(ls, i, "1", fb, sizeof fb);
                (void)lt_lesson_answer(ls, i, "function f() return 1 end", fb, sizeof fb);
            }
        }
    }
    (void)rt;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct lt_header h; /* the catalog's reader takes any bytes */
    char why[256];
    if (lt_header_scan((const char *)data, size, &h, why, sizeof why)) {
        CHECK(h.id[0] && h.chapter >= 1 && h.title[0] && h.title[1] && h.chapter_title[0]);
        lt_header_free(&h);
    }
    /* the field-line finder error messages use takes any bytes too: a line within the text */
    static const char *const paths[] = {"id", "hints.2.zh", "panels.1.unit", "why.3", "x.1.y.2"};
    for (int line = 1; line <= 3; line++) {
        int nl = 1;
        for (size_t k = 0; k < size; k++) nl += data[k] == '\n';
        for (size_t p = 0; p < sizeof paths / sizeof *paths; p++) {
            int at = lt_lex_field_line((const char *)data, size, line, p % 2 ? "exercise" : NULL, paths[p]);
            CHECK(at == 0 || (at >= line && at <= nl));
        }
    }
    struct lt_data dat; /* a teacher's course files are read as data the same way */
    if (lt_data_read((const char *)data, size, &dat, why, sizeof why)) {
        CHECK(dat.kind == LT_DATA_TABLE);
        lt_data_free(&dat);
    }
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    CHECK(fd >= 0);
    CHECK(write(fd, data, size) == (ssize_t)size);
    close(fd);

    struct lt_runtime *rt = lt_runtime_new(dev, getenv("VRAMLAB_DATADIR") ? getenv("VRAMLAB_DATADIR") : ".", lt_modules);
    CHECK(rt);
    struct lt_limits lim = {.mem_bytes = 16u << 20, .instructions = 2000000, .seconds = 2.0,
        .wall_seconds = 4.0};
    lt_runtime_set_limits(rt, &lim);
    lt_runtime_set_sink(rt, sink, NULL);
    char err[1024];
    err[0] = 0;
    struct lt_lesson *ls = lt_lesson_load(rt, path, err, sizeof err);
    if (!ls) {
        check_message(err);
    } else {
        /* 1 the same, 0 not plain; -1 would be a header the catalog misreads */
        CHECK(lt_lesson_check_header(ls, err, sizeof err) >= 0);
        read_all(ls, rt);
        lt_runtime_set_lang(rt, "zh");
        read_all(ls, rt);
        lt_lesson_free(ls);
    }
    lt_runtime_free(rt);
    CHECK(dev->live_allocs == 0 && dev->live_host == 0);
    return 0;
}
