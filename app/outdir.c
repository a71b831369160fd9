/* grit command line: creating, replacing and discarding output folders. */
#define _XOPEN_SOURCE 700 /* nftw */
#include "outdir.h"

#include <errno.h>
#include <ftw.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static bool is_dir(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

static bool exists(const char *p)
{
    struct stat st;
    return lstat(p, &st) == 0;
}

/* A folder that grit wrote: it holds the run record. */
static bool is_grit_output(const char *dir)
{
    char m[4200];
    snprintf(m, sizeof m, "%s/%s", dir, OUTDIR_MARKER);
    return exists(m);
}

static int rm_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st, (void)flag, (void)ftw;
    return remove(path);
}

static int rm_tree(const char *dir) { return nftw(dir, rm_entry, 16, FTW_DEPTH | FTW_PHYS); }

/* mkdir -p */
static int make_dirs(const char *path, char *err, size_t len)
{
    char p[4096];
    snprintf(p, sizeof p, "%s", path);
    for (char *c = p + 1;; c++) {
        if (*c != '/' && *c != '\0') continue;
        const char save = *c;
        *c = '\0';
        if (mkdir(p, 0777) != 0 && errno != EEXIST) {
            snprintf(err, len, "cannot create output folder '%s': %s", p, strerror(errno));
            return -1;
        }
        if (!is_dir(p)) {
            snprintf(err, len, "cannot create output folder '%s': '%s' exists and is not a folder", path, p);
            return -1;
        }
        *c = save;
        if (!save) return 0;
    }
}

int outdir_begin(const char *out, char *partial, size_t partial_len, char *err, size_t len)
{
    if (strlen(out) > 3000) {
        snprintf(err, len, "output folder name '%.40s...' is too long", out);
        return -1;
    }
    if (exists(out) && !(is_dir(out) && is_grit_output(out))) {
        snprintf(err, len, "output folder '%s' exists and is not a grit output (no %s); remove it or choose another out=",
                 out, OUTDIR_MARKER);
        return -1;
    }
    snprintf(partial, partial_len, "%s.partial", out);
    if (exists(partial)) {
        if (!is_dir(partial) || !is_grit_output(partial) || rm_tree(partial) != 0) {
            snprintf(err, len, "'%s' is in the way (not a folder of an earlier grit run, or cannot be removed); "
                     "remove it or choose another out=", partial);
            return -1;
        }
    }
    if (make_dirs(partial, err, len)) return -1;
    /* a folder we may create but not write into (read-only mount, ...) */
    char probe[4200];
    snprintf(probe, sizeof probe, "%s/.probe", partial);
    FILE *f = fopen(probe, "w");
    if (!f || fclose(f) != 0 || unlink(probe) != 0) {
        snprintf(err, len, "cannot write into output folder '%s': %s", partial, strerror(errno));
        rmdir(partial);
        return -1;
    }
    return 0;
}

int outdir_commit(const char *out, const char *partial, char *err, size_t len)
{
    char old[4200] = "";
    if (exists(out)) {
        /* set the earlier run aside first: rename() will not replace a
         * non-empty folder */
        snprintf(old, sizeof old, "%s.old-%ld", out, (long)getpid());
        if (rename(out, old) != 0) {
            snprintf(err, len, "cannot replace '%s': %s (the new output is in '%s')", out, strerror(errno), partial);
            return -1;
        }
    }
    if (rename(partial, out) != 0) {
        snprintf(err, len, "cannot rename '%s' to '%s': %s", partial, out, strerror(errno));
        if (*old) rename(old, out);
        return -1;
    }
    if (*old && rm_tree(old) != 0) fprintf(stderr, "grit: warning: could not remove the earlier output '%s'\n", old);
    return 0;
}

void outdir_discard(const char *partial) { rm_tree(partial); }
