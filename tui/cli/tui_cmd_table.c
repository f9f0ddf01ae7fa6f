/* tui_cmd_table.c - the command line's table (tui_cmd.h): every command with its operands,
 * options, needs and handler, and the global options. The top of tui/cli/: it names the
 * handlers (tui_cmd_*.c), which call down into tui_cmd.c; none of them names this file. */
#include "tui_cmd.h"

/* ---- the table ---------------------------------------------------------------------------- */

enum { DATA = TUI_CMD_DATA, LESSONS = TUI_CMD_LESSONS, DEVICE = TUI_CMD_DEVICE,
       RECORD = TUI_CMD_RECORD, HIDDEN = TUI_CMD_HIDDEN };

/* Global options: before the command they apply to whatever runs; after it, a command takes
 * those whose need it has. An option without help is not listed (kept for scripts). */
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
    {TUI_O_JSON, "json", 'j', NULL, "one JSON object per row", 0},
    {TUI_O_ROSTER, "roster", 0, "FILE", "the class list, a student name a line: who has no exam results, whose are not on it", 0},
    OPT_END};
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
static const struct tui_opt o_exam[] = {
    {TUI_O_STUDENT, "student", 0, "NAME", "whose answers and results (VRAMLAB_STUDENT; default the login name)", 0},
    {TUI_O_RESULTS, "results", 0, "DIR", "the class's results folder (default course.lua's results, else the state folder)", 0},
    {TUI_O_ANSWER_FILE, "answers", 0, "FILE", "answers from FILE (- standard input), \"QUESTION ANSWER\" a line, then submitted", 0},
    {TUI_O_NO_SUBMIT, "no-submit", 0, NULL, "with --answers: save them and leave the exam open", 0},
    {TUI_O_MINUTES, "minutes", 0, "N", "the time limit, 1..600 minutes (default the exam's, 30 for a list)", 0},
    {TUI_O_LIST, "list", 0, NULL, "list the questions in this student's order; start nothing", 0},
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
    {"exam", "EXAM", "a timed exam: no hints, answers saved as typed, graded when submitted",
     "EXAM is an exam file (NAME.exam.lua), the NAME of one in a folder added with --lessons, a\n"
     "list of questions (9.1:weights-gib,9.2: a section asks each of its exercises), or course.\n"
     "On a terminal: the exam screen. --answers FILE takes the answers from a file and submits.\n"
     "A resumed exam keeps its clock; at the time limit it is submitted as it is. Each student's\n"
     "results (JSON lines and CSV) go to the class's folder: `vramlab results DIR` sums them up.",
     o_exam, DATA | LESSONS | DEVICE, 1, 1, tui_cmd_exam},
    {"results", "FILE|DIR...", "a recording's results; or a class's exam results, question by question", NULL,
     o_results, 0, 1, -1, tui_cmd_results},
    {"compare", "FILE...", "recordings of several machines side by side", NULL, o_none, 0, 1, -1,
     tui_cmd_compare},
    {"__complete", "WORD...", "bash completion: candidates for the last word", NULL, o_none,
     DATA | LESSONS | HIDDEN, 0, -1, tui_cmd_complete},
    {.run = NULL}};
