/* tui_file.c - see tui_file.h. */
#include "tui_file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gpu_file.h"

bool tui_file_mkdirs(const char *dir, unsigned mode)
{
    char tmp[4096];
    snprintf(tmp, sizeof tmp, "%s", dir);
    for (char *s = tmp + 1; *s; s++)
        if (*s == '/') {
            *s = 0;
            if (mkdir(tmp, (mode_t)mode) && errno != EEXIST) return false;
            *s = '/';
        }
    return !mkdir(tmp, (mode_t)mode) || errno == EEXIST;
}

bool tui_file_id_ok(const char *id)
{
    size_t n = id ? strlen(id) : 0;
    if (n == 0 || n > LT_ID_MAX || id[0] == '.' || strstr(id, "..")) return false;
    return strspn(id, "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ._-") == n;
}

char *tui_file_field(char **p)
{
    char *s = *p;
    if (!*s) return NULL;
    char *sp = strchr(s, ' ');
    if (sp) *sp = 0, *p = sp + 1;
    else *p = s + strlen(s);
    return s;
}

bool tui_file_id_name(char *out, size_t n, const char *lesson_id, const char *ex_id,
                      const char *suffix)
{
    if (n) out[0] = 0;
    if (!tui_file_id_ok(lesson_id) || !tui_file_id_ok(ex_id) || strchr(suffix, '/')) return false;
    int k = snprintf(out, n, "%s-%s%s", lesson_id, ex_id, suffix);
    if (k < 0 || (size_t)k >= n) {
        if (n) out[0] = 0;
        return false;
    }
    return true;
}
