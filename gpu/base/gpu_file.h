/* gpu_file.h - the one safe reader: every file a user or a third party hands to vramlab (lessons,
 * scripts, answers, traces, recordings, snapshots, progress, history, profiles) is read through
 * it, in every layer: gpu/ is the bottom one. Only regular files are read (a FIFO, a device or a
 * directory is refused at once, never waited on: the open does not block and the check is on the
 * opened file), never more than the caller's stated limit, and every refusal names the file:
 *   "trace.txt: too large (300 MiB; the limit is 256 MiB)"
 *   "x.lua: not a regular file (a FIFO)"
 * "-" is standard input where the caller allows it (GPU_FILE_STDIN), under the same limit. A path
 * holding a control character (gpu_esc.h) is refused: it would forge lines in every message
 * that names it; messages show paths escaped.
 * After a refusal errno says which: ENOENT (no such file: the only one a caller may read as
 * "nothing there yet"), EFBIG (over the limit), ELOOP (a link, with GPU_FILE_NOFOLLOW), EINVAL
 * (not a regular file), else the system's reason. */
#ifndef GPU_FILE_H
#define GPU_FILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

enum {
    GPU_FILE_STDIN = 1,    /* "-" reads standard input */
    GPU_FILE_NOFOLLOW = 2, /* a symbolic link is refused ("not a regular file (a symbolic link)") */
};

/* Open for reading after those checks (a regular file larger than `max` is refused by its size;
 * a caller that streams counts what it reads against `max` too). NULL with err on refusal. */
FILE *gpu_file_open(const char *path, size_t max, unsigned flags, char *err, size_t n);
/* The same checks on a descriptor the caller opened itself (with O_NONBLOCK where it may be a
 * FIFO); `path` names it in messages. The descriptor is the FILE's, or closed on refusal. */
FILE *gpu_file_fdopen(int fd, const char *path, size_t max, char *err, size_t n);
/* The whole file, NUL-terminated (it may hold other NULs: *len is its length), at most `max`
 * bytes. NULL with err when it cannot be read, is not a regular file or is over the limit. */
char *gpu_file_read(const char *path, size_t max, unsigned flags, size_t *len, char *err, size_t n);
/* gpu_file_read of a descriptor (taken, as gpu_file_fdopen). */
char *gpu_file_read_fd(int fd, const char *path, size_t max, size_t *len, char *err, size_t n);
/* Whether gpu_file_open would accept path now (a regular file within max; links followed unless
 * GPU_FILE_NOFOLLOW): pickers and listings offer only these. */
bool gpu_file_ok(const char *path, size_t max, unsigned flags);
/* The whole file as one read-only byte range, for large inputs read once (snapshots): its bytes
 * read into private pages (never a mapping of the file itself: a file cut short while mapped,
 * as a snapshot written again over the one being read, made each later read of a lost page a
 * SIGBUS), which gpu_file_map_drop frees as the caller goes; standard input ("-" with
 * GPU_FILE_STDIN) is read into memory. Same checks, messages and errno as gpu_file_open; a file
 * whose size changes while it is read is refused ("changed while it was read", EAGAIN). data
 * is never NULL on success (an empty file gives len 0). */
struct gpu_file_map {
    const unsigned char *data;
    size_t len;
    bool mapped;  /* pages of its own (munmap); false: a heap copy (free) */
};
bool gpu_file_map(const char *path, size_t max, unsigned flags, struct gpu_file_map *m, char *err,
                  size_t n);
/* gpu_file_map of a descriptor (taken, as gpu_file_fdopen). */
bool gpu_file_map_fd(int fd, const char *path, size_t max, struct gpu_file_map *m, char *err,
                     size_t n);
/* The bytes below `upto` will not be read again: their pages go (read again, they are zeros). */
void gpu_file_map_drop(struct gpu_file_map *m, size_t upto);
void gpu_file_unmap(struct gpu_file_map *m);
/* The limit message, for streaming readers: "PATH: too large (more than M MiB; ...)" when
 * size is 0 (unknown: a pipe, or a file that grew). */
void gpu_file_too_large(const char *path, size_t size, size_t max, char *err, size_t n);
/* The next folder of a colon-separated list ("A:B:C": a teacher's folders before the
 * installation's) into out (an empty part is ""); returns where the rest starts ("" after the
 * last), or NULL when none is left:
 *   for (const char *p = list; (p = gpu_path_next(p, dir, sizeof dir));) ... (!*p: the last) */
const char *gpu_path_next(const char *list, char *out, size_t n);
/* Names a later folder of `folders` has under sub/ (files ending in ext) that an earlier one has
 * too: the earlier one is the one used, so the later one never is (a teacher's folder adds
 * names, it never replaces a built-in one). fn(the later file, the file used, ud) for each;
 * returns how many. */
int gpu_path_clashes(const char *folders, const char *sub, const char *ext,
                     void (*fn)(const char *unused, const char *used, void *ud), void *ud);

#endif
