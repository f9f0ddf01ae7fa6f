/* bench_lessons.c - `make bench`: how long a learner waits, measured on the real program.
 *   bench_lessons time N CMD [ARG...]
 *       runs CMD N times (output discarded) and prints the best and the median wall time in ms:
 *       `vramlab list` against /bin/true and `ls lessons`, its floors, in the same run
 *   bench_lessons lesson VRAMLAB ID [grade EXERCISE]
 *       runs `VRAMLAB --backend sim run ID --json` (or `grade ID EXERCISE 1`, a predict
 *       exercise's measurement) and prints, in ms: the longest wait from an experiment's start to
 *       its first result (a bar, point, gauge or map, or a table row after the header), the
 *       whole run's wall time, and the peak resident memory (MiB) of the process
 * Timestamps are taken as each line arrives on the pipe (the plain sink flushes every event). */
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

/* Start argv with stdout on a pipe (or /dev/null when fd is NULL); the child's pid. */
static pid_t spawn(char **argv, int *fd)
{
    int p[2] = {-1, -1};
    if (fd && pipe(p)) return -1;
    pid_t pid = fork();
    if (pid == 0) {
        int out = fd ? p[1] : open("/dev/null", 1);
        dup2(out, 1);
        int null = open("/dev/null", 1);
        dup2(null, 2);
        if (fd) close(p[0]);
        execvp(argv[0], argv);
        _exit(127);
    }
    if (fd) {
        close(p[1]);
        *fd = p[0];
    }
    return pid;
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static int time_cmd(int n, char **argv)
{
    double t[256];
    if (n < 1 || n > 256) n = 256;
    for (int i = 0; i < n; i++) {
        double t0 = now();
        pid_t pid = spawn(argv, NULL);
        int st;
        if (pid < 0 || waitpid(pid, &st, 0) < 0 || !WIFEXITED(st) || WEXITSTATUS(st) > 1) {
            fprintf(stderr, "bench_lessons: %s failed\n", argv[0]);
            return 1;
        }
        t[i] = now() - t0;
    }
    qsort(t, (size_t)n, sizeof *t, cmp);
    printf("%.2f %.2f\n", t[0] * 1e3, t[n / 2] * 1e3);
    return 0;
}

/* "type":"X" and "panel":"Y" of a JSON line (the plain sink's own output: no escaped quotes
 * in those two values) */
static void field(const char *line, const char *key, char *out, size_t n)
{
    char k[32];
    snprintf(k, sizeof k, "\"%s\":\"", key);
    const char *p = strstr(line, k);
    out[0] = 0;
    if (!p) return;
    p += strlen(k);
    size_t l = strcspn(p, "\"");
    snprintf(out, n, "%.*s", (int)(l < n ? l : n - 1), p);
}

static int lesson(char *bin, char *id, char *exercise)
{
    char backend[] = "--backend", sim[] = "sim", lang[] = "--lang", en[] = "en", run_[] = "run",
         json[] = "--json", grade_[] = "grade", one[] = "1";
    char *run[] = {bin, backend, sim, lang, en, run_, id, json, NULL};
    char *grade[] = {bin, backend, sim, lang, en, grade_, id, exercise, one, NULL};
    int fd;
    double t0 = now(), exp_start = t0, worst = 0;
    bool waiting = exercise != NULL; /* an experiment started, no result yet */
    pid_t pid = spawn(exercise ? grade : run, &fd);
    if (pid < 0) return 1;
    FILE *f = fdopen(fd, "r");
    char line[65536], type[32], panel[64], seen[64][64];
    int nseen = 0;
    while (f && fgets(line, sizeof line, f)) {
        double t = now();
        field(line, "type", type, sizeof type);
        field(line, "panel", panel, sizeof panel);
        if (!strcmp(type, "experiment")) {
            exp_start = t, waiting = true, nseen = 0;
            continue;
        }
        bool result = !strcmp(type, "bar") || !strcmp(type, "point") || !strcmp(type, "gauge") ||
                      !strcmp(type, "map");
        if (!strcmp(type, "row")) { /* a panel's first row is its header */
            int k = 0;
            while (k < nseen && strcmp(seen[k], panel)) k++;
            result = k < nseen;
            if (k == nseen && nseen < 64) snprintf(seen[nseen++], sizeof seen[0], "%s", panel);
        }
        if (result && waiting) {
            if (t - exp_start > worst) worst = t - exp_start;
            waiting = false;
        }
    }
    if (f) fclose(f);
    int st;
    struct rusage ru;
    if (wait4(pid, &st, 0, &ru) < 0) return 1;
    double total = now() - t0;
    if (exercise) worst = total; /* a grading's one result is its feedback, at the end */
    printf("%.0f %.0f %.1f %d\n", worst * 1e3, total * 1e3, ru.ru_maxrss / 1024.0,
           WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st));
    return 0;
}

int main(int argc, char **argv)
{
    signal(SIGPIPE, SIG_IGN);
    if (argc >= 4 && !strcmp(argv[1], "time")) return time_cmd(atoi(argv[2]), argv + 3);
    if (argc == 4 && !strcmp(argv[1], "lesson")) return lesson(argv[2], argv[3], NULL);
    if (argc == 6 && !strcmp(argv[1], "lesson") && !strcmp(argv[4], "grade"))
        return lesson(argv[2], argv[3], argv[5]);
    fprintf(stderr, "usage: bench_lessons time N CMD [ARG...] | lesson VRAMLAB ID [grade EXERCISE]\n");
    return 2;
}
