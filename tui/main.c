/* main.c - the vramlab command line: global options, the backend with its fallback, and the
 * subcommands (the tutor, list, info, run, eval, check, profiles, ledger, trace replay,
 * snapshot, progress, reset). Exit codes: 0 ok, 1 a run, lesson or script failed, 2 usage error,
 * 3 set-up error (no lessons/assets, no backend), 4 memory still allocated at exit, 5 the output
 * could not be written, 6 the watchdog ended a run that did not stop at its limit. */
#include <getopt.h>
#include <limits.h>
#include <stdarg.h>
#include <langinfo.h>
#include <locale.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gpu.h"
#include "gpu_caching.h"
#include "gpu_file.h"
#include "gpu_ledger.h"
#include "gpu_parse.h"
#include "gpu_sim.h"
#include "lt.h"
#include "tui.h"
#include "tui_plain.h"
#include "tui_progress.h"
#include "tui_record.h"
#include "tui_results.h"
#include "tui_snapshot.h"
#include "tui_snapview.h"
#include "tui_watchdog.h"
#include "tui_workspace.h"

#define VRAMLAB_VERSION "0.1.0"

struct opts {
    const char *backend, *profile, *lang, *datadir;
    const char *record, *replay; /* --record FILE, --replay FILE */
    uint64_t seed;
    bool deterministic, json;
    double cap;
    int device;
};

static void usage(FILE *f)
{
    fputs("usage: vramlab [options] [LESSON]          the tutor (plain lesson list when not a tty);\n"
          "                                           in it, : opens a Lua sandbox (REPL)\n"
          "       vramlab [options] list              chapters and sections\n"
          "       vramlab [options] info [--json]     device and host summary\n"
          "       vramlab [options] run LESSON [--json]  run a lesson headless\n"
          "       vramlab [options] eval FILE.lua     run a Lua file in the lesson sandbox (-: stdin)\n"
          "       vramlab [options] check [FILE...]   validate lesson files\n"
          "       vramlab [options] profiles          simulator GPU profiles\n"
          "       vramlab [options] ledger [--json]   where the device memory goes (with NVML:\n"
          "                                           per process, as nvidia-smi shows it)\n"
          "       vramlab [options] trace replay FILE [CAPACITY] [--json]\n"
          "                                           replay an allocator trace through the\n"
          "                                           caching-allocator model (options from\n"
          "                                           PYTORCH_CUDA_ALLOC_CONF or the trace's\n"
          "                                           # conf: line; CAPACITY 2MiB..4TiB, e.g.\n"
          "                                           80GiB, default the device's total;\n"
          "                                           FILE - reads stdin)\n"
          "       vramlab [options] grade LESSON EXERCISE ANSWER   check one answer (@FILE: from a\n"
          "                                           file, @-: from stdin)\n"
          "       vramlab snapshot FILE [--json] [--replay CONF] [--capacity SIZE]\n"
          "                                           a PyTorch memory snapshot: states,\n"
          "                                           fragmentation, the peak and what was\n"
          "                                           live at it, OOMs; --replay: what if\n"
          "                                           (vramlab snapshot --help); --tui, or a\n"
          "                                           bare FILE.pickle: the snapshot screen\n"
          "       vramlab progress                    what you have visited and solved\n"
          "       vramlab reset [SECTION] [--yes]     forget progress (asks first)\n"
          "       vramlab [options] exercises [DIR]   copy the code exercises into a workspace\n"
          "                                           (default ./vramlab-exercises; never\n"
          "                                           overwrites your files)\n"
          "       vramlab [options] watch [DIR]       re-check the current exercise on every\n"
          "                                           save (h hint, n next, l list, q quit)\n"
          "       vramlab [options] present [LESSON]  presenter mode: one step at a time, key\n"
          "                                           figures in big digits (space/arrows)\n"
          "       vramlab results FILE [--csv|--json] a recording's results, one row each\n"
          "       vramlab compare FILE FILE...        recordings of several machines side by side\n"
          "options:\n"
          "  -b, --backend cuda|sim|auto  device backend (env VRAMLAB_BACKEND; default auto)\n"
          "  -p, --profile NAME           simulator profile (env VRAMLAB_PROFILE; default rtx3090)\n"
          "  -s, --seed N                 simulator noise seed (env VRAMLAB_SEED)\n"
          "  -d, --deterministic          simulator without noise (for tests and demos)\n"
          "  -l, --lang en|zh             language (env VRAMLAB_LANG; default from the locale)\n"
          "      --device N               the GPU to use, 0.. in CUDA's order after\n"
          "                               CUDA_VISIBLE_DEVICES (env VRAMLAB_DEVICE; default 0)\n"
          "  -c, --cap FRACTION           experiments take at most this share of free device\n"
          "                               memory, 0.01..1 (env VRAMLAB_CAP; default 0.9)\n"
          "  -D, --datadir DIR            where lessons/ and assets/ are (env VRAMLAB_DATADIR)\n"
          "  -j, --json                   machine-readable output (info, run, results)\n"
          "      --record FILE            save every experiment result of this session, with\n"
          "                               the machine it ran on, as JSON lines\n"
          "      --replay FILE            play a recording back instead of measuring (the\n"
          "                               tutor, present and run); labelled REPLAY\n"
          "  -h, --help                   this text\n"
          "  -V, --version                version and compiled-in backends\n"
          "environment: VRAMLAB_LIMITS=\"seconds=S,instructions=N,memory=SIZE,wall=S\" (any of\n"
          "  them) changes the sandbox limits (default 10 s of Lua, 200 million instructions,\n"
          "  64MiB, 300 s of wall time per run, measurements included)\n"
          "exit codes: 0 ok, 1 a lesson/script/run failed, 2 usage, 3 set-up (data, backend),\n"
          "            4 internal error (memory still allocated at exit), 5 the output could\n"
          "            not be written (disk full, stdout closed), 6 the watchdog ended a run\n"
          "            that did not stop at its limit (terminal restored); grade: 0 right,\n"
          "            1 wrong, 2 an answer it cannot read (not counted as a try)\n",
          f);
}

/* Experiments take at least this share of free memory: less leaves them nothing to measure. */
#define CAP_MIN 0.01

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

/* The data folder: next to the binary (build/ in a source tree, or PREFIX/share/vramlab). */
static void find_datadir(char *out, size_t n, const char *given)
{
    char exe[1024], probe[1200];
    if (given && *given) {
        snprintf(out, n, "%s", given);
        return;
    }
    ssize_t k = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (k > 0) {
        exe[k] = 0;
        char *slash = strrchr(exe, '/');
        if (slash) *slash = 0;
        snprintf(probe, sizeof probe, "%s/../share/vramlab/lessons", exe);
        if (is_dir(probe)) {
            snprintf(out, n, "%s/../share/vramlab", exe);
            return;
        }
        snprintf(probe, sizeof probe, "%s/../lessons", exe);
        if (is_dir(probe)) {
            snprintf(out, n, "%s/..", exe);
            return;
        }
    }
    snprintf(out, n, ".");
}

static bool utf8_locale(void)
{
    const char *cs = nl_langinfo(CODESET);
    return cs && (!strcmp(cs, "UTF-8") || !strcmp(cs, "utf8"));
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

static int cmd_list(struct lt_runtime *rt, const char *dir, bool json)
{
    struct lt_catalog_entry *e;
    int n = lt_catalog_scan(rt, dir, &e), lang = strcmp(lt_runtime_lang(rt), "zh") ? 0 : 1;
    int last_ch = -1, bad = 0;
    if (n == 0) {
        fprintf(stderr, "vramlab: no lessons found in %s\n", dir);
        return 3;
    }
    for (int i = 0; i < n; i++) {
        if (json) {
            printf("{\"id\":");
            tui_json_str(stdout, e[i].id);
            printf(",\"chapter\":%d,\"title\":", e[i].error ? 0 : e[i].chapter);
            tui_json_str(stdout, e[i].title[lang]);
            printf(",\"path\":");
            tui_json_str(stdout, e[i].path);
            if (e[i].error) printf(",\"error\":"), tui_json_str(stdout, e[i].error);
            printf("}\n");
        } else if (e[i].error) {
            printf("  !!   %s\n       %s\n", e[i].title[lang], e[i].error);
        } else {
            if (e[i].chapter != last_ch) {
                printf("%sChapter %d: %s\n", last_ch < 0 ? "" : "\n", e[i].chapter,
                       e[i].chapter_title[lang]);
                last_ch = e[i].chapter;
            }
            printf("  %-5s %s\n", e[i].id, e[i].title[lang]);
        }
        bad += e[i].error != NULL;
    }
    lt_catalog_free(e, n);
    return bad ? 1 : 0;
}

static void kv(const char *k, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void kv(const char *k, const char *fmt, ...)
{
    va_list ap;
    printf("  %-20s ", k);
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    putchar('\n');
}

static void json_num(const char *k, double v, bool known)
{
    printf(",\"%s\":", k);
    if (known) printf("%.17g", v);
    else printf("null");
}

static int cmd_info(struct gpu_dev *dev, const char *fallback, bool json)
{
    const struct gpu_info *i = &dev->info;
    struct gpu_host_info h;
    uint64_t fr = 0, tot = 0;
    gpu_host_info(&h);
    bool have_mem = gpu_mem_info(dev, &fr, &tot) == GPU_OK;
    double pcie = gpu_pcie_bytes_per_s(i->pcie_gen, i->pcie_width);
    if (json) {
        printf("{\"backend\":");
        tui_json_str(stdout, i->backend);
        printf(",\"simulated\":%s,\"name\":", i->simulated ? "true" : "false");
        tui_json_str(stdout, i->name);
        printf(",\"profile\":"), tui_json_str(stdout, i->profile);
        printf(",\"memory_type\":"), tui_json_str(stdout, i->memory_type);
        printf(",\"driver\":"), tui_json_str(stdout, i->driver);
        printf(",\"source\":"), tui_json_str(stdout, i->source);
        printf(",\"fallback_reason\":"), tui_json_str(stdout, fallback);
        json_num("total_bytes", (double)i->total_bytes, i->total_bytes > 0);
        json_num("free_bytes", (double)fr, have_mem);
        json_num("bus_width_bits", i->bus_width_bits, i->bus_width_bits > 0);
        json_num("mem_clock_khz", i->mem_clock_khz, i->mem_clock_khz > 0);
        json_num("peak_bytes_per_s", i->peak_bytes_per_s, i->peak_bytes_per_s > 0);
        json_num("published_bytes_per_s", i->published_bytes_per_s, i->published_bytes_per_s > 0);
        json_num("l2_bytes", (double)i->l2_bytes, i->l2_bytes > 0);
        json_num("sm_count", i->sm_count, i->sm_count > 0);
        json_num("pcie_gen", i->pcie_gen, i->pcie_gen > 0);
        json_num("pcie_width", i->pcie_width, i->pcie_width > 0);
        json_num("pcie_bytes_per_s", pcie, pcie > 0);
        printf(",\"device\":%d,\"mig\":%s", i->device, i->mig ? "true" : "false");
        json_num("mig_instance", i->mig_instance, i->mig_instance >= 0);
        json_num("numa_node", i->numa_node, i->numa_node >= 0);
        json_num("l1_bytes", (double)i->l1_bytes, i->l1_bytes > 0);
        printf(",\"published_profile\":"), tui_json_str(stdout, i->published_profile);
        printf(",\"compute_capability\":");
        if (i->cc_major) printf("\"%d.%d\"", i->cc_major, i->cc_minor);
        else printf("null");
        printf(",\"host\":{\"cpu\":");
        tui_json_str(stdout, h.cpu);
        printf(",\"threads\":%d,\"ram_bytes\":%llu", h.threads, (unsigned long long)h.ram_bytes);
        json_num("llc_bytes", (double)h.llc_bytes, h.llc_bytes > 0);
        printf("}}\n");
        return 0;
    }
    if (i->simulated)
        printf("Device: SIMULATED · %s profile (%s) - figures from the profile, not a "
               "measurement\n", i->name, i->profile);
    else printf("Device: CUDA device %d · %s\n", i->device, i->name);
    if (fallback && *fallback) printf("  (no GPU found: %s)\n", fallback);
    kv("Backend", "%s%s", i->backend, i->simulated ? " (SIMULATED)" : "");
    kv("Driver", "%s", i->driver[0] ? i->driver : "n/a");
    if (have_mem)
        kv("Memory", "%.2f GiB total, %.2f GiB free (GiB = 2^30 B)", tot / 1073741824.0,
           fr / 1073741824.0);
    kv("Memory type", "%s", i->memory_type[0] ? i->memory_type : "n/a");
    if (i->bus_width_bits) kv("Bus width", "%d bit", i->bus_width_bits);
    else kv("Bus width", "n/a");
    if (i->mem_clock_khz)
        kv("Memory clock", "%d MHz as reported (x2 = %.2f Gbps per pin)", i->mem_clock_khz / 1000,
           2.0 * i->mem_clock_khz / 1e6);
    else kv("Memory clock", "n/a");
    if (i->peak_bytes_per_s > 0)
        kv("Theoretical peak", "%.1f GB/s = 2 x %d MHz x %d bit / 8 (GB/s = 1e9 B/s; %s)",
           i->peak_bytes_per_s / 1e9, i->mem_clock_khz / 1000, i->bus_width_bits,
           i->simulated ? "from the profile" : "from the driver's attributes");
    else kv("Theoretical peak", "n/a");
    if (i->published_bytes_per_s > 0)
        kv("Published", "%.0f GB/s (vendor spec sheet, profile %s)",
           i->published_bytes_per_s / 1e9, i->published_profile[0] ? i->published_profile : "?");
    else kv("Published", "n/a (no profile named '%s' in assets/gpus)", i->name);
    if (i->peak_bytes_per_s > 0 && i->published_bytes_per_s > 0) {
        double d = (i->peak_bytes_per_s / i->published_bytes_per_s - 1) * 100;
        kv("Peak vs published", "%+.1f %%%s", d,
           d > 3 || d < -3 ? ": the attributes disagree with the spec sheet; % of peak below "
                             "says which it uses" : "");
    }
    if (i->mig)
        kv("MIG", "a MIG slice%s: memory is the slice's; bus, clock, peak and published figure "
           "are the whole GPU's", i->mig_instance >= 0 ? "" : " (instance not identified in NVML)");
    if (i->l1_bytes) kv("L1 + shared", "%.0f KiB per SM", i->l1_bytes / 1024.0);
    if (i->l2_bytes) kv("L2 cache", "%.1f MiB", i->l2_bytes / 1048576.0);
    else kv("L2 cache", "n/a");
    if (i->sm_count) kv("SMs", "%d", i->sm_count);
    if (i->cc_major) kv("Compute capability", "%d.%d", i->cc_major, i->cc_minor);
    if (i->pcie_gen)
        kv("PCIe", "gen %d x%d: %.1f GB/s per direction after encoding", i->pcie_gen,
           i->pcie_width, pcie / 1e9);
    else kv("PCIe", "n/a");
    if (i->numa_node >= 0) kv("NUMA node", "%d (host buffers for copies are placed there)", i->numa_node);
    if (i->source[0]) kv("Source", "%s", i->source);
    kv("Experiment cap", "%.0f%% of free device memory", dev->cap_fraction * 100);
    printf("Host (measured live by every backend)\n");
    kv("CPU", "%s", h.cpu);
    kv("Threads", "%d", h.threads);
    kv("RAM", "%.1f GiB", h.ram_bytes / 1073741824.0);
    if (h.llc_bytes) kv("Last-level cache", "%.1f MiB (sysfs)", h.llc_bytes / 1048576.0);
    else kv("Last-level cache", "n/a");
    return 0;
}

/* A lesson by id ("1.3") from the catalog, or a path to a .lua file. */
static char *resolve_lesson(struct lt_runtime *rt, const char *dir, const char *what)
{
    size_t l = strlen(what);
    if (l > 4 && !strcmp(what + l - 4, ".lua")) return strdup(what);
    struct lt_catalog_entry *e;
    int n = lt_catalog_scan(rt, dir, &e);
    char *path = NULL;
    for (int i = 0; i < n && !path; i++)
        if (!strcmp(e[i].id, what)) path = strdup(e[i].path);
    lt_catalog_free(e, n);
    return path;
}

/* `run` with --record: every event goes to the recording too. */
struct run_sink {
    struct tui_plain *p;
    struct tui_rec *rec;
};

static void run_sink_fn(void *ud, const struct lt_event *ev)
{
    struct run_sink *s = ud;
    tui_rec_event(s->rec, ev);
    tui_plain_sink(s->p, ev);
}

static int cmd_run(struct lt_runtime *rt, const char *dir, const char *what, bool json,
                   struct tui_rec *rec, const struct tui_replay *rp)
{
    char err[1024];
    char *path = resolve_lesson(rt, dir, what);
    if (!path) {
        fprintf(stderr, "vramlab: no lesson '%s' (see `vramlab list`)\n", what);
        return 2;
    }
    struct lt_lesson *ls = lt_lesson_load(rt, path, err, sizeof err);
    free(path);
    if (!ls) {
        fprintf(stderr, "%s\n", err);
        return 1;
    }
    struct gpu_dev *dev = lt_runtime_dev(rt);
    struct tui_plain p = {stdout, json, dev->info.simulated, lt_runtime_lang(rt), false};
    char line[256];
    p.replay = rp != NULL;
    struct run_sink rs = {&p, rec};
    lt_runtime_set_sink(rt, run_sink_fn, &rs);
    lt_runtime_backend_line(rt, line, sizeof line);
    if (rp) tui_replay_label(rp, line, sizeof line); /* never shown as this machine's numbers */
    if (json) {
        printf("{\"type\":\"lesson\",\"id\":");
        tui_json_str(stdout, lt_lesson_id(ls));
        printf(",\"title\":");
        tui_json_str(stdout, lt_lesson_title(ls));
        printf(",\"backend\":");
        tui_json_str(stdout, line);
        printf(",\"simulated\":%s%s}\n", (rp ? rp->simulated : dev->info.simulated) ? "true" : "false",
               rp ? ",\"replay\":true" : "");
    } else {
        printf("%s %s\n[%s]\n", lt_lesson_id(ls), lt_lesson_title(ls), line);
    }
    int rc = 0;
    for (int b = 0; b < lt_lesson_nblocks(ls); b++) {
        switch (lt_lesson_block_kind(ls, b)) {
        case LT_BLOCK_TEXT: tui_plain_markup(&p, lt_lesson_block_text(ls, b)); break;
        case LT_BLOCK_EXPERIMENT: {
            if (json) {
                printf("{\"type\":\"experiment\",\"title\":");
                tui_json_str(stdout, lt_lesson_block_title(ls, b));
                printf("}\n");
            } else {
                printf("\n>> Experiment: %s\n", lt_lesson_block_title(ls, b));
            }
            tui_plain_markup(&p, lt_lesson_block_text(ls, b));
            fflush(stdout);
            const char *eid = lt_lesson_block_id(ls, b);
            if (rp) { /* the recorded events, all at once; nothing is measured */
                const struct tui_replay_run *run = tui_replay_find(rp, lt_lesson_id(ls), eid);
                struct tui_player pl;
                tui_player_start(&pl, run, 0, 0);
                if (run) tui_player_step(&pl, 0, tui_plain_sink, &p);
                else {
                    struct lt_event ev = {.type = LT_EV_STATUS, .panel = "", .series = "",
                                          .unit = "", .text = "REPLAY: the recording has no run "
                                                              "of this experiment (nothing measured)"};
                    tui_plain_sink(&p, &ev);
                }
                break;
            }
            tui_rec_begin(rec, lt_lesson_id(ls), eid, lt_lesson_block_title(ls, b));
            enum lt_run_state st = lt_lesson_run_start(ls, b, err, sizeof err);
            while (st == LT_RUN_BUSY) st = lt_lesson_run_step(ls, err, sizeof err);
            tui_rec_end(rec, st, st == LT_RUN_FAILED ? err : "");
            if (st == LT_RUN_FAILED) {
                fprintf(stderr, "%s\n", err);
                rc = 1;
            }
            break;
        }
        case LT_BLOCK_EXERCISE: {
            struct lt_exercise_info x;
            lt_lesson_exercise(ls, b, &x);
            if (json) {
                printf("{\"type\":\"exercise\",\"id\":");
                tui_json_str(stdout, x.id);
                printf(",\"kind\":");
                tui_json_str(stdout, x.kind);
                printf(",\"prompt\":");
                tui_json_str(stdout, x.prompt);
                printf("}\n");
                break;
            }
            printf("\n?? Exercise (%s)\n", x.kind);
            tui_plain_markup(&p, x.prompt);
            for (int c = 0; c < x.nchoices; c++) printf("  %d) %s\n", c + 1, x.choices[c]);
            if (x.nchoices) putchar('\n');
            break;
        }
        }
    }
    lt_lesson_free(ls);
    return rc;
}

static int cmd_eval(struct lt_runtime *rt, const char *file, bool json)
{
    char err[1024];
    struct tui_plain p = {stdout, json, lt_runtime_dev(rt)->info.simulated, lt_runtime_lang(rt),
                         false};
    lt_runtime_set_sink(rt, tui_plain_sink, &p);
    struct lt_vm *vm = lt_vm_new(rt, err, sizeof err);
    if (!vm) {
        fprintf(stderr, "vramlab: %s\n", err);
        return 3;
    }
    bool ok = lt_vm_dofile(vm, file, err, sizeof err);
    lt_vm_free(vm);
    fflush(stdout);
    if (!ok) fprintf(stderr, "%s\n", err);
    return ok ? 0 : 1;
}

/* Grade one answer: for tests, scripts and teachers checking an exercise from the shell. An
 * answer of @FILE reads the answer (a code exercise's Lua source) from FILE. */
static int cmd_grade(struct lt_runtime *rt, const char *dir, char **args, int nargs)
{
    char err[1024], feedback[2048];
    if (nargs != 3) {
        fprintf(stderr, "vramlab: grade needs LESSON EXERCISE ANSWER (ANSWER may be @file)\n");
        return 2;
    }
    char *path = resolve_lesson(rt, dir, args[0]);
    struct lt_lesson *ls = path ? lt_lesson_load(rt, path, err, sizeof err) : NULL;
    free(path);
    if (!ls) {
        fprintf(stderr, "%s\n", path ? err : "vramlab: no such lesson (see `vramlab list`)");
        return 2;
    }
    char *answer = NULL;
    if (args[2][0] == '@') {
        size_t len;
        answer = lt_read_file(args[2] + 1, &len, err, sizeof err);
        if (!answer) {
            fprintf(stderr, "%s\n", err);
            lt_lesson_free(ls);
            return 2;
        }
    }
    int rc = 2;
    for (int b = 0; b < lt_lesson_nblocks(ls) && rc == 2; b++) {
        struct lt_exercise_info x;
        if (!lt_lesson_exercise(ls, b, &x) || strcmp(x.id, args[1])) continue;
        bool ok = lt_lesson_answer(ls, b, answer ? answer : args[2], feedback, sizeof feedback);
        struct lt_exercise_info after;
        lt_lesson_exercise(ls, b, &after);
        if (after.tries == x.tries) { /* the grader could not read it: not a try */
            fprintf(stderr, "%s\n", feedback);
            rc = 3;
            break;
        }
        printf("%s\n", feedback);
        rc = ok ? 0 : 1;
    }
    if (rc == 3) rc = 2;
    else if (rc == 2) fprintf(stderr, "vramlab: lesson %s has no exercise '%s'\n", args[0], args[1]);
    free(answer);
    lt_lesson_free(ls);
    return rc;
}

static int cmd_check(struct lt_runtime *rt, const char *dir, char **files, int n)
{
    char err[1024];
    int bad = 0, total = 0;
    if (n == 0) {
        struct lt_catalog_entry *e;
        int k = lt_catalog_scan(rt, dir, &e);
        for (int i = 0; i < k; i++) {
            if (e[i].error) fprintf(stderr, "%s\n", e[i].error), bad++;
            else printf("ok    %s  %s\n", e[i].id, e[i].path);
        }
        total = k;
        lt_catalog_free(e, k);
        if (k == 0) {
            fprintf(stderr, "vramlab: no lessons found in %s\n", dir);
            return 3;
        }
    }
    for (int i = 0; i < n; i++, total++) {
        struct lt_lesson *ls = lt_lesson_load(rt, files[i], err, sizeof err);
        if (!ls) {
            fprintf(stderr, "%s\n", err);
            bad++;
            continue;
        }
        printf("ok    %s  %s\n", lt_lesson_id(ls), files[i]);
        lt_lesson_free(ls);
    }
    printf("%d lesson file(s) checked, %d with errors\n", total, bad);
    return bad ? 1 : 0;
}

static int cmd_progress(char **args, int nargs, bool reset, bool yes)
{
    char dir[1024], note[1400], err[1400];
    tui_progress_dir(dir, sizeof dir);
    struct tui_progress *p = tui_progress_load(dir, note, sizeof note);
    if (!p) return 3;
    if (note[0]) fprintf(stderr, "vramlab: %s\n", note);
    int rc = 0;
    if (!reset) {
        tui_progress_print(p, stdout);
    } else if (nargs > 1) {
        fprintf(stderr, "vramlab: reset takes at most one section, e.g. vramlab reset 1.3\n");
        rc = 2;
    } else {
        const char *what = nargs ? args[0] : NULL;
        char answer[16] = "";
        if (!yes) {
            printf("Forget %s in %s? [y/N] ", what ? what : "all progress", tui_progress_path(p));
            fflush(stdout);
            if (!fgets(answer, sizeof answer, stdin)) answer[0] = 0;
        }
        if (yes || answer[0] == 'y' || answer[0] == 'Y') {
            int gone = tui_progress_reset(p, what);
            if (!tui_progress_save(p, err, sizeof err)) {
                fprintf(stderr, "vramlab: %s\n", err);
                rc = 1;
            } else printf("forgot %d record(s)\n", gone);
        } else printf("nothing changed\n");
    }
    tui_progress_free(p);
    return rc;
}

static int cmd_ledger(struct lt_runtime *rt, bool json)
{
    struct gpu_ledger l;
    struct gpu_dev *dev = lt_runtime_dev(rt);
    gpu_status st = gpu_ledger_fill(dev, NULL, &l);
    if (st != GPU_OK) {
        fprintf(stderr, "vramlab: ledger: %s\n", dev->why[0] ? dev->why : gpu_status_str(st));
        return 1;
    }
    bool zh = !strcmp(lt_runtime_lang(rt), "zh");
    size_t n = (json ? gpu_ledger_json(&l, NULL, 0) : gpu_ledger_text(&l, zh, NULL, 0)) + 1;
    char *buf = malloc(n);
    if (!buf) return 1;
    if (json) gpu_ledger_json(&l, buf, n);
    else gpu_ledger_text(&l, zh, buf, n);
    fputs(buf, stdout);
    if (!json && zh)
        printf("缓存分配器的保留/已分配/请求拆分：在课程或 `vramlab eval` 中调用 "
               "alloc.ledger(分配器)（见第 2.4 节）。\n");
    else if (!json)
        printf("For a caching allocator's reserved/allocated/requested split, call "
               "alloc.ledger(allocator)\nin a lesson or `vramlab eval` (lesson 2.4).\n");
    free(buf);
    return 0;
}

/* Ctrl-C or SIGTERM during a replay: the replay stops at its next poll and says where. */
static gpu_cancel_flag g_trace_stop;
static void on_trace_stop(int sig) { g_trace_stop = sig; }

static int cmd_trace(struct gpu_dev *dev, char **args, int nargs, bool json)
{
    char err[1024], conf[512], size[32];
    if (nargs < 2 || nargs > 3 || strcmp(args[0], "replay")) {
        fprintf(stderr, "vramlab: usage: vramlab trace replay FILE [CAPACITY]\n");
        return 2;
    }
    uint64_t cap = 0, fr;
    /* the model device's range, as alloc.model's */
    if (nargs == 3 && !gpu_parse_size(args[2], 2ull << 20, 4ull << 40, &cap, err, sizeof err)) {
        fprintf(stderr, "vramlab: trace replay: capacity: %s\n", err);
        return 2;
    }
    if (!cap && gpu_mem_info(dev, &fr, &cap) != GPU_OK) cap = 80ull << 30;
    /* the options: PYTORCH_CUDA_ALLOC_CONF, else the trace's own "# conf:" line */
    const char *env = getenv("PYTORCH_CUDA_ALLOC_CONF");
    struct gpu_caching_opts o;
    gpu_caching_opts_default(&o);
    if (env && *env) snprintf(conf, sizeof conf, "%s", env);
    if (env && *env && gpu_caching_parse_conf(conf, &o, err, sizeof err) != GPU_OK) {
        fprintf(stderr, "vramlab: trace replay: PYTORCH_CUDA_ALLOC_CONF '%s': %s\n", conf, err);
        return 2;
    }
    struct gpu_trace t;
    char hdr[512];
    double t0 = gpu_now();
    if (gpu_trace_load(args[1], &t, hdr, sizeof hdr, err, sizeof err) != GPU_OK) {
        fprintf(stderr, "vramlab: %s\n", err);
        return 1;
    }
    double t1 = gpu_now();
    if (!(env && *env)) {
        snprintf(conf, sizeof conf, "%s", hdr);
        if (gpu_caching_parse_conf(conf, &o, err, sizeof err) != GPU_OK) {
            fprintf(stderr, "vramlab: trace replay: %s: conf '%s': %s\n", args[1], conf, err);
            gpu_trace_free(&t);
            return 2;
        }
    }
    struct gpu_caching *c;
    struct gpu_replay_result *r = calloc(1, sizeof *r);
    if (!r || gpu_caching_new_model(&o, cap, &c, err, sizeof err) != GPU_OK) {
        fprintf(stderr, "vramlab: trace replay: %s\n", r ? err : "out of memory");
        gpu_trace_free(&t);
        free(r);
        return 1;
    }
    double t2 = gpu_now();
    struct sigaction sa = {.sa_handler = on_trace_stop}, old_int, old_term;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, &old_int);
    sigaction(SIGTERM, &sa, &old_term);
    gpu_status st = gpu_trace_replay(&t, c, r, &g_trace_stop, err, sizeof err);
    sigaction(SIGINT, &old_int, NULL);
    sigaction(SIGTERM, &old_term, NULL);
    double t3 = gpu_now();
    int rc = 0;
    const struct gpu_caching_stats *s = &r->stats;
    if (st == GPU_ERR_CANCELLED) {
        fprintf(stderr, "vramlab: trace replay of %s stopped at %s (%zu of %zu events replayed)\n",
                args[1], err, r->allocs + r->ooms + r->frees + r->skipped_frees + r->empties, t.n);
        rc = 128 + g_trace_stop;
    } else if (st != GPU_OK) {
        fprintf(stderr, "%s: %s\n", args[1], err);
        rc = 1;
    } else if (json) {
        printf("{\"file\":");
        tui_json_str(stdout, args[1]);
        printf(",\"conf\":");
        tui_json_str(stdout, conf);
        printf(",\"capacity\":%llu,\"events\":%zu,\"allocs\":%zu,\"frees\":%zu,"
               "\"empty_cache\":%zu,\"ooms\":%zu,\"skipped_frees\":%zu,\"parse_seconds\":%.6f,"
               "\"replay_seconds\":%.6f,\"reserved\":%llu,\"allocated\":%llu,"
               "\"peak_reserved\":%llu,\"peak_allocated\":%llu,\"oom_lines\":[",
               (unsigned long long)cap, t.n, r->allocs, r->frees, r->empties, r->ooms,
               r->skipped_frees, t1 - t0, t3 - t2,
               (unsigned long long)s->reserved_bytes[0].current,
               (unsigned long long)s->allocated_bytes[0].current,
               (unsigned long long)s->reserved_bytes[0].peak,
               (unsigned long long)s->allocated_bytes[0].peak);
        for (size_t i = 0; i < r->noom_list; i++) printf("%s%u", i ? "," : "", r->oom_list[i].line);
        printf("],\"first_oom\":");
        if (r->ooms) tui_json_str(stdout, r->first_oom);
        else printf("null");
        printf("}\n");
    } else {
        gpu_cache_format_size(cap, size, sizeof size);
        printf("%s: %zu events replayed into a model device of %s (SIMULATED: the caching-"
               "allocator model, no GPU involved)\n", args[1], t.n, size);
        printf("  options   %s\n", conf[0] ? conf : "(PyTorch defaults)");
        printf("  time      parse %.1f ms, replay %.1f ms\n", (t1 - t0) * 1e3, (t3 - t2) * 1e3);
        printf("  events    %zu malloc, %zu free, %zu empty_cache, %zu skipped frees\n",
               r->allocs, r->frees, r->empties, r->skipped_frees);
        printf("  peak      reserved %.2f MiB, allocated %.2f MiB (MiB = 2^20 B)\n",
               s->reserved_bytes[0].peak / 1048576.0, s->allocated_bytes[0].peak / 1048576.0);
        printf("  OOMs      %zu", r->ooms);
        for (size_t i = 0; i < r->noom_list && i < 10; i++)
            printf("%s line %u", i ? "," : " at", r->oom_list[i].line);
        printf("%s\n", r->noom_list > 10 ? ", ..." : "");
        if (r->ooms) printf("  first OOM (line %u): %s\n", r->first_oom_line, r->first_oom);
        size_t n = gpu_caching_summary(c, NULL, 0) + 1;
        char *buf = malloc(n);
        if (buf) {
            gpu_caching_summary(c, buf, n);
            fputs(buf, stdout);
            free(buf);
        }
    }
    gpu_caching_destroy(c);
    gpu_trace_free(&t);
    free(r);
    return rc;
}

static void print_profile(const char *id, void *ud)
{
    struct gpu_profile p;
    char err[512];
    if (gpu_profile_load(ud, id, &p, err, sizeof err) != GPU_OK) {
        printf("  %-12s %s\n", id, err);
        return;
    }
    printf("  %-12s %-26s %-7s %6.0f GB/s peak  %6.1f GiB\n", id, p.info.name, p.info.memory_type,
           p.info.peak_bytes_per_s / 1e9, p.info.total_bytes / 1073741824.0);
}

static int run(int argc, char **argv);

/* Every byte of plain output goes through one filter (tui_plain_guard), and output that could
 * not be written (a full disk, a closed stdout) is an error, not silent data loss. */
int main(int argc, char **argv)
{
    if (!tui_plain_guard()) {
        fprintf(stderr, "vramlab: out of memory\n");
        return 3;
    }
    int rc = run(argc, argv);
    int err = tui_plain_close();
    if (err) {
        fprintf(stderr, "vramlab: cannot write the output: %s\n", strerror(err));
        if (!rc) rc = 5;
    }
    return rc;
}

static int run(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"backend", required_argument, 0, 'b'}, {"profile", required_argument, 0, 'p'},
        {"seed", required_argument, 0, 's'},    {"deterministic", no_argument, 0, 'd'},
        {"lang", required_argument, 0, 'l'},    {"cap", required_argument, 0, 'c'},
        {"datadir", required_argument, 0, 'D'}, {"json", no_argument, 0, 'j'},
        {"help", no_argument, 0, 'h'},          {"version", no_argument, 0, 'V'},
        {"record", required_argument, 0, 1001}, {"replay", required_argument, 0, 1002},
        {"device", required_argument, 0, 1003}, {0, 0, 0, 0}};
    struct opts o = {.backend = getenv("VRAMLAB_BACKEND"), .profile = getenv("VRAMLAB_PROFILE"),
                     .lang = getenv("VRAMLAB_LANG"), .datadir = getenv("VRAMLAB_DATADIR"),
                     .cap = 0.9};
    const char *env_seed = getenv("VRAMLAB_SEED"), *env_cap = getenv("VRAMLAB_CAP");
    char perr[256];
    setlocale(LC_ALL, "");
    setlocale(LC_NUMERIC, "C"); /* Lua formats and reads numbers with '.', whatever the locale */
    if (env_seed && !gpu_parse_u64(env_seed, 0, UINT64_MAX, &o.seed, perr, sizeof perr))
        return bad_number("VRAMLAB_SEED", perr);
    if (env_cap && !gpu_parse_double(env_cap, CAP_MIN, 1, &o.cap, perr, sizeof perr))
        return bad_number("VRAMLAB_CAP (a share of free device memory, e.g. 0.9)", perr);
    const char *env_dev = getenv("VRAMLAB_DEVICE");
    if (env_dev && *env_dev && !parse_device(env_dev, &o.device)) {
        fprintf(stderr, "vramlab: VRAMLAB_DEVICE must be a device number 0..1023, not '%s'\n",
                env_dev);
        return 2;
    }
    int c;
    while ((c = getopt_long(argc, argv, "+b:p:s:dl:c:D:jhV", longopts, NULL)) != -1) {
        switch (c) {
        case 'b': o.backend = optarg; break;
        case 'p': o.profile = optarg; break;
        case 's':
            if (!gpu_parse_u64(optarg, 0, UINT64_MAX, &o.seed, perr, sizeof perr))
                return bad_number("--seed", perr);
            break;
        case 'd': o.deterministic = true; break;
        case 'l': o.lang = optarg; break;
        case 'c':
            if (!gpu_parse_double(optarg, CAP_MIN, 1, &o.cap, perr, sizeof perr))
                return bad_number("--cap (a share of free device memory, e.g. 0.9)", perr);
            break;
        case 'D': o.datadir = optarg; break;
        case 'j': o.json = true; break;
        case 1001: o.record = optarg; break;
        case 1002: o.replay = optarg; break;
        case 1003:
            if (!parse_device(optarg, &o.device)) {
                fprintf(stderr, "vramlab: --device needs a device number 0..1023, not '%s'\n",
                        optarg);
                return 2;
            }
            break;
        case 'h': usage(stdout); return 0;
        case 'V':
            printf("vramlab %s\nbackends:", VRAMLAB_VERSION);
            for (int i = 0; gpu_backends[i]; i++) printf(" %s", gpu_backends[i]->name);
            printf("\n");
            return 0;
        default: usage(stderr); return 2;
        }
    }
    if (o.lang && strcmp(o.lang, "en") && strcmp(o.lang, "zh")) {
        fprintf(stderr, "vramlab: --lang must be en or zh, not '%s'\n", o.lang);
        return 2;
    }
    const char *cmd = optind < argc ? argv[optind] : NULL;
    if (cmd && !strcmp(cmd, "snapshot")) { /* its own options, its own handler */
        if (o.record || o.replay) {
            fprintf(stderr, "vramlab: --record and --replay before the command are recordings; "
                            "a snapshot's what-if goes after the file: vramlab snapshot FILE "
                            "--replay CONF\n");
            return 2;
        }
        /* --tui: the snapshot screen (tui_snapview.c) instead of the text */
        for (int i = optind + 1; i < argc; i++)
            if (!strcmp(argv[i], "--tui")) {
                if (argc - optind != 3) {
                    fprintf(stderr, "vramlab: snapshot --tui takes the file alone: vramlab snapshot FILE --tui\n");
                    return 2;
                }
                return tui_snapview(argv[optind + 1 + (i == optind + 1)], o.lang && !strcmp(o.lang, "zh"));
            }
        return tui_snapshot_cmd(argc - optind - 1, argv + optind + 1, o.json, stdout, stderr);
    }
    if (cmd && argc - optind == 1 && strlen(cmd) > 7 && !strcmp(cmd + strlen(cmd) - 7, ".pickle"))
        return isatty(STDOUT_FILENO) && isatty(STDIN_FILENO) /* vramlab FILE.pickle */
                   ? tui_snapview(cmd, o.lang && !strcmp(o.lang, "zh"))
                   : tui_snapshot_cmd(1, argv + optind, o.json, stdout, stderr);
    static const char *const cmds[] = {"list",     "info",     "run",   "eval", "check",
                                       "profiles", "progress", "reset", "ledger",
                                       "trace",    "exercises", "watch", "present",
                                       "results",  "compare", "grade", NULL};
    bool known = false;
    for (int i = 0; cmd && cmds[i]; i++) known |= !strcmp(cmd, cmds[i]);
    /* trailing --json after the subcommand, as in `vramlab info --json` */
    int first_arg = optind + (cmd ? 1 : 0), nargs = 0;
    bool yes = false, csv = false;
    char *args[256];
    for (int i = first_arg; i < argc; i++) {
        if (!strcmp(argv[i], "--json") || !strcmp(argv[i], "-j")) o.json = true;
        else if (!strcmp(argv[i], "--yes") || !strcmp(argv[i], "-y")) yes = true;
        else if (!strcmp(argv[i], "--csv")) csv = true;
        else if (!strncmp(argv[i], "--lang=", 7)) o.lang = argv[i] + 7;
        else if (argv[i][0] == '-' && argv[i][1]) {
            fprintf(stderr, "vramlab: options go before the command: %s\n", argv[i]);
            usage(stderr);
            return 2;
        } else if (nargs < 256) args[nargs++] = argv[i];
    }

    char datadir[1024], lessons[1100];
    find_datadir(datadir, sizeof datadir, o.datadir);
    snprintf(lessons, sizeof lessons, "%s/lessons", datadir);

    if (cmd && (!strcmp(cmd, "progress") || !strcmp(cmd, "reset")))
        return cmd_progress(args, nargs, !strcmp(cmd, "reset"), yes);
    if (cmd && !strcmp(cmd, "results")) {
        if (nargs != 1) {
            fprintf(stderr, "vramlab: results needs one recording (made with --record FILE)\n");
            return 2;
        }
        return tui_results_cmd(args[0], csv ? TUI_RES_CSV : o.json ? TUI_RES_JSON : TUI_RES_TEXT,
                               stdout);
    }
    if (cmd && !strcmp(cmd, "compare")) {
        if (nargs < 1) {
            fprintf(stderr, "vramlab: compare needs recordings: vramlab compare A.jsonl B.jsonl\n");
            return 2;
        }
        return tui_compare_cmd(args, nargs, !utf8_locale(), stdout);
    }
    if (o.record && o.replay) {
        fprintf(stderr, "vramlab: --record and --replay together would record a replay as if it "
                        "were measured; use one\n");
        return 2;
    }
    if (cmd && !strcmp(cmd, "profiles")) {
        printf("Simulator profiles (%s/assets/gpus; peak = 2 x clock x bus/8, GB/s = 1e9 B/s):\n",
               datadir);
        return gpu_profile_list(datadir, print_profile, datadir) ? 0 : 3;
    }

    const char *fault = getenv("VRAMLAB_FAULT_ALLOC"); /* testing: fail the Nth allocation */
    uint64_t fail_at = 0;
    if (fault && !gpu_parse_u64(fault, 0, INT_MAX, &fail_at, perr, sizeof perr))
        return bad_number("VRAMLAB_FAULT_ALLOC", perr);
    struct gpu_config cfg = {.profile = o.profile, .datadir = datadir, .seed = o.seed,
                             .deterministic = o.deterministic, .cap_fraction = o.cap,
                             .device = o.device, .fail_alloc = (int)fail_at};
    struct gpu_dev *dev = NULL;
    char why[1024];
    gpu_status st = gpu_open(o.backend, &cfg, &dev, why, sizeof why);
    if (st != GPU_OK) {
        fprintf(stderr, "vramlab: no device backend: %s\n", why);
        return st == GPU_ERR_ARG ? 2 : 3;
    }
    struct lt_runtime *rt = lt_runtime_new(dev, datadir);
    lt_runtime_set_lang(rt, o.lang ? o.lang : locale_lang());
    const char *env_limits = getenv("VRAMLAB_LIMITS");
    if (env_limits) { /* smaller limits for tests and classrooms; larger for long lessons */
        struct lt_limits lim;
        char lerr[200];
        lt_runtime_limits(rt, &lim);
        if (!lt_limits_parse(env_limits, &lim, lerr, sizeof lerr)) {
            fprintf(stderr, "vramlab: VRAMLAB_LIMITS: %s\n", lerr);
            lt_runtime_free(rt);
            gpu_close(dev);
            return 2;
        }
        lt_runtime_set_limits(rt, &lim);
    }
    lt_runtime_set_fatal(rt, tui_watchdog_fatal);
    tui_watchdog_start(rt); /* the last resort: a run that does not stop at its limit */

    int rc = 0;
    struct tui_rec *rec = NULL;
    struct tui_replay *rp = NULL;
    char rerr[1400];
    if (o.record && !(rec = tui_rec_open(o.record, rt, VRAMLAB_VERSION, rerr, sizeof rerr))) {
        fprintf(stderr, "vramlab: %s\n", rerr);
        rc = 3;
    }
    if (o.replay && !(rp = tui_replay_load(o.replay, rerr, sizeof rerr))) {
        fprintf(stderr, "vramlab: %s\n", rerr);
        rc = 1;
    }
    struct tui_opts to = {.lessons_dir = lessons, .open_lesson = cmd, .fallback_why = why,
                          .rec = rec, .replay = rp};
    if (rc) {
        /* the recording could not be opened or read: nothing runs */
    } else if (cmd && !strcmp(cmd, "present")) {
        to.open_lesson = nargs ? args[0] : NULL;
        if (nargs > 1) {
            fprintf(stderr, "vramlab: present takes at most one lesson, e.g. vramlab present 3.1\n");
            rc = 2;
        } else if (!isatty(STDOUT_FILENO) || !isatty(STDIN_FILENO)) {
            fprintf(stderr, "vramlab: present needs a terminal (try `vramlab run LESSON`)\n");
            rc = 3;
        } else rc = tui_present(rt, &to);
    } else if (cmd && (!strcmp(cmd, "exercises") || !strcmp(cmd, "watch"))) {
        const char *ws = nargs ? args[0] : "vramlab-exercises";
        if (nargs > 1) {
            fprintf(stderr, "vramlab: %s takes at most one folder\n", cmd);
            rc = 2;
        } else if (!strcmp(cmd, "exercises")) rc = tui_ws_create(rt, lessons, ws, stdout);
        else rc = tui_watch(rt, lessons, ws);
    } else if (!cmd || !known) {
        if (cmd && nargs > 1) {
            fprintf(stderr, "vramlab: unknown command '%s'\n", cmd);
            usage(stderr);
            rc = 2;
        } else if (isatty(STDOUT_FILENO) && isatty(STDIN_FILENO)) {
            rc = tui_run(rt, &to);
        } else if (cmd) {
            rc = cmd_run(rt, lessons, cmd, o.json, rec, rp);
        } else {
            rc = cmd_list(rt, lessons, o.json);
        }
    } else if (!strcmp(cmd, "list")) {
        rc = cmd_list(rt, lessons, o.json);
    } else if (!strcmp(cmd, "info")) {
        rc = cmd_info(dev, why, o.json);
    } else if (!strcmp(cmd, "run")) {
        if (nargs != 1) {
            fprintf(stderr, "vramlab: run needs one lesson id or file (e.g. vramlab run 1.3)\n");
            rc = 2;
        } else rc = cmd_run(rt, lessons, args[0], o.json, rec, rp);
    } else if (!strcmp(cmd, "grade")) {
        rc = cmd_grade(rt, lessons, args, nargs);
    } else if (!strcmp(cmd, "eval")) {
        if (nargs != 1) {
            fprintf(stderr, "vramlab: eval needs one Lua file\n");
            rc = 2;
        } else rc = cmd_eval(rt, args[0], o.json);
    } else if (!strcmp(cmd, "ledger")) {
        rc = cmd_ledger(rt, o.json);
    } else if (!strcmp(cmd, "trace")) {
        rc = cmd_trace(dev, args, nargs, o.json);
    } else {
        rc = cmd_check(rt, lessons, args, nargs);
    }
    if (tui_rec_error(rec)) {
        fprintf(stderr, "vramlab: %s\n", tui_rec_error(rec));
        if (!rc) rc = 1;
    }
    tui_rec_close(rec);
    tui_replay_free(rp);
    tui_watchdog_stop();
    lt_runtime_free(rt);
    /* Everything a lesson or script allocated must be gone by now: say so loudly if not. */
    if (dev->live_allocs || dev->live_host) {
        fprintf(stderr, "vramlab: internal error: %d device and %d host buffer(s) still allocated "
                "at exit (%llu bytes)\n", dev->live_allocs, dev->live_host,
                (unsigned long long)dev->live_bytes);
        rc = 4;
    }
    gpu_close(dev);
    return rc;
}
