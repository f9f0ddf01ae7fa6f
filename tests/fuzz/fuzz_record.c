/* fuzz_record.c - libFuzzer target for recordings: the input, as a recording file (a header line
 * is put first when it has none, so the fuzzer spends its time on the body), goes through the
 * reader (tui_replay_load) and every path that uses what it read: the player into a panel set
 * rendered at several widths, the plain and JSON sinks, `results` as text, CSV and JSON, and
 * `compare`. Properties: the load fails with "path:line: what" or "path: what", or every event
 * of every run reads back with a known type and style, at most LT_EVENT_MAX_ITEMS cells or map blocks, each text in both languages, and strings
 * that exist, every label one line within LT_EV_LABEL_MAX and every text within LT_EV_TEXT_MAX (as
 * a live run's: lt_event_cut); the run tui_replay_find gives is the one marked chosen, for its own lesson and
 * experiment; results and compare succeed on what loaded; nothing leaks or overflows. */
#include <locale.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gpu_esc.h"
#include "tui_panel.h"
#include "tui_plain.h"
#include "tui_record.h"
#include "tui_results.h"

#define CHECK(c)                                                                                  \
    do {                                                                                          \
        if (!(c)) {                                                                               \
            fprintf(stderr, "fuzz_record: %s:%d: check failed: %s\n", __FILE__, __LINE__, #c);    \
            abort();                                                                              \
        }                                                                                         \
    } while (0)

static char dir[64], path[96];
static FILE *devnull; /* a memory stream: the sinks flush after every event */
static char *sink_buf;
static size_t sink_len;

/* A label as a live run's would be (lt_event_cut): within LT_EV_LABEL_MAX, one line, no control. */
static bool label_ok(const char *s) { return strlen(s) <= LT_EV_LABEL_MAX && gpu_esc_clean(s, false); }

static void cleanup(void)
{
    unlink(path);
    rmdir(dir);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    if (!setlocale(LC_CTYPE, "C.UTF-8")) setlocale(LC_CTYPE, "en_US.UTF-8");
    snprintf(dir, sizeof dir, "/tmp/vramlab-fuzz-XXXXXX");
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        exit(1);
    }
    snprintf(path, sizeof path, "%s/rec.jsonl", dir);
    devnull = open_memstream(&sink_buf, &sink_len);
    if (!devnull) exit(1);
    atexit(cleanup);
    return 0;
}

static const char header[] = "{\"type\":\"header\",\"format\":\"vramlab-record\",\"version\":2,"
                             "\"gpu\":\"G\",\"simulated\":true}\n";

static void panel_sink(void *ud, const struct lt_event *ev) { tui_panelset_apply(ud, ev); }

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    FILE *f = fopen(path, "wb");
    CHECK(f);
    if (size < 17 || memcmp(data, "{\"type\":\"header\"", 17)) fputs(header, f);
    fwrite(data, 1, size, f);
    fclose(f);
    char err[1024];
    struct tui_replay *rp = tui_replay_load(path, err, sizeof err);
    if (!rp) {
        CHECK(!strncmp(err, path, strlen(path)) || !strncmp(err, "cannot replay ", 14));
        return 0;
    }
    CHECK(rp->nruns >= 0 && rp->bad_lines >= 0 && rp->gpu && rp->date && rp->backend_line);
    char label[512];
    tui_replay_label(rp, label, sizeof label);
    struct tui_panelset *ps = tui_panelset_new(false);
    CHECK(ps);
    struct tui_plain plain = {devnull, false, true, "en", true}, json = {devnull, true, true, "zh", true};
    for (int i = 0; i < rp->nruns; i++) {
        const struct tui_replay_run *r = &rp->runs[i];
        CHECK(r->lesson && r->experiment && r->title && r->state && r->error && r->nev >= 0);
        const struct tui_replay_run *found = tui_replay_find(rp, r->lesson, r->experiment);
        CHECK(found && found->chosen && !strcmp(found->lesson, r->lesson) &&
              !strcmp(found->experiment, r->experiment));
        CHECK(r->chosen == (found == r));
        for (int k = 0; k < r->nev; k++) {
            struct lt_event ev;
            double t = tui_replay_get(r, k, &ev);
            CHECK(t >= 0);
            CHECK((unsigned)ev.type < LT_EV_COUNT && (unsigned)ev.style < LT_STYLE_COUNT);
            CHECK(ev.ncells >= 0 && ev.ncells <= LT_EVENT_MAX_ITEMS && (!ev.ncells || ev.cells));
            CHECK(ev.nblocks >= 0 && ev.nblocks <= LT_EVENT_MAX_ITEMS && (!ev.nblocks || ev.blocks));
            CHECK(ev.panel && label_ok(ev.panel));
            for (int z = 0; z < 2; z++) {
                CHECK(ev.series.s[z] && ev.text.s[z] && ev.unit.s[z]);
                CHECK(label_ok(ev.series.s[z]) && label_ok(ev.unit.s[z]) && strlen(ev.text.s[z]) <= LT_EV_TEXT_MAX);
                for (int c = 0; c < ev.ncells; c++) CHECK(ev.cells[c].s[z] && label_ok(ev.cells[c].s[z]));
                for (int c = 0; c < ev.nblocks; c++)
                    CHECK(ev.blocks[c].owner.s[z] && label_ok(ev.blocks[c].owner.s[z]) &&
                          (unsigned)ev.blocks[c].state < LT_MAP_COUNT);
            }
            tui_plain_sink(&plain, &ev);
            tui_plain_sink(&json, &ev);
        }
        if (i < 4) { /* the player as the tutor runs it, into panels */
            struct tui_player pl;
            tui_player_start(&pl, r, 0, 0);
            CHECK(tui_player_step(&pl, 0, panel_sink, ps));
            for (int w = 1; w <= 121; w += 60) {
                struct tui_lines L = {0};
                tui_panelset_render(ps, &L, w, false, "en");
                for (int l = 0; l < L.n; l++) CHECK(L.v[l].width <= w || (w < 2 && L.v[l].width <= 2));
                tui_lines_free(&L);
            }
            tui_panelset_clear(ps);
        }
    }
    tui_panelset_free(ps);
    tui_replay_free(rp);
    /* results in one of its formats and compare, by turns (each reads the file again) */
    if (size % 4 < 3) CHECK(tui_results_cmd(path, (enum tui_results_format)(size % 4), size % 2, devnull) == 0);
    else {
        char *two[] = {path, path};
        CHECK(tui_compare_cmd(two, 2, false, size % 2, devnull) == 0);
    }
    rewind(devnull);
    return 0;
}
