/* grit command line: the files that come with the program (paths.h). */
#include "paths.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef GRIT_REL_DATADIR /* from CMake: the data folder relative to the program's, installed */
#define GRIT_REL_DATADIR "../share/grit"
#endif
#ifndef GRIT_REL_PYTHONDIR
#define GRIT_REL_PYTHONDIR "../share/grit/python"
#endif

static bool exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
}

/* The folder of the running program (symbolic links resolved). */
static bool exe_dir(char *out, size_t len)
{
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0) return false;
    exe[n] = '\0';
    char *slash = strrchr(exe, '/');
    if (slash) *slash = '\0';
    return (size_t)snprintf(out, len, "%s", exe) < len;
}

/* The source tree of a program run from its build tree: the first line of
 * grit-source-tree beside it. */
static bool source_tree(const char *dir, char *out, size_t len)
{
    char marker[PATH_MAX + 32];
    snprintf(marker, sizeof marker, "%s/grit-source-tree", dir);
    FILE *f = fopen(marker, "r");
    if (!f) return false;
    bool ok = fgets(out, (int)len, f) != NULL;
    fclose(f);
    if (!ok) return false;
    out[strcspn(out, "\r\n")] = '\0';
    return out[0] != '\0';
}

/* Try dir/rel/name: true (path in out) if it exists; appends what was tried. */
static bool try_path(const char *dir, const char *rel, const char *name, char *out, size_t len, char *looked,
                     size_t looked_len)
{
    if ((size_t)snprintf(out, len, "%s%s%s/%s", dir, *rel ? "/" : "", rel, name) >= len) return false;
    if (exists(out)) return true;
    size_t used = strlen(looked);
    if (used < looked_len)
        snprintf(looked + used, looked_len - used, "%s%s%s%s", used ? ", " : "", dir, *rel ? "/" : "", rel);
    return false;
}

bool paths_data_file(const char *name, char *out, size_t len, char *looked, size_t looked_len)
{
    looked[0] = '\0';
    const char *env = getenv("GRIT_DATA_DIR");
    if (env && *env) return try_path(env, "", name, out, len, looked, looked_len);
    char dir[PATH_MAX], src[PATH_MAX];
    if (!exe_dir(dir, sizeof dir)) {
        snprintf(looked, looked_len, "(cannot find the program's folder: %s)", strerror(errno));
        return false;
    }
    bool found = try_path(dir, GRIT_REL_DATADIR "/data", name, out, len, looked, looked_len) ||
                 (source_tree(dir, src, sizeof src) && try_path(src, "examples/data", name, out, len, looked, looked_len));
    /* without the bin/../ (help shows it, grit-run.txt records it) */
    char real[PATH_MAX];
    if (found && realpath(out, real) && strlen(real) < len) strcpy(out, real);
    return found;
}

bool paths_python_dir(char *out, size_t len, char *looked, size_t looked_len)
{
    looked[0] = '\0';
    char dir[PATH_MAX], src[PATH_MAX], module[PATH_MAX + 64];
    if (!exe_dir(dir, sizeof dir)) {
        snprintf(looked, looked_len, "(cannot find the program's folder: %s)", strerror(errno));
        return false;
    }
    const char *rel[2] = {GRIT_REL_PYTHONDIR, "python"};
    const char *base[2] = {dir, source_tree(dir, src, sizeof src) ? src : NULL};
    for (int k = 0; k < 2; k++)
        if (base[k] && try_path(base[k], rel[k], "grit/plot.py", module, sizeof module, looked, looked_len)) {
            snprintf(out, len, "%s/%s", base[k], rel[k]);
            return true;
        }
    return false;
}
