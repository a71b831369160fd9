/* grit command line: creating, replacing and discarding output folders. */
#define _XOPEN_SOURCE 700 /* nftw */
#include "outdir.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
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

/* The absolute, symlink-free form of path, which need not exist: its
 * deepest existing ancestor resolved, the rest appended. */
static void resolve(const char *path, char *out, size_t len)
{
    char buf[4096], rest[4096] = "";
    snprintf(buf, sizeof buf, "%s", path);
    for (;;) {
        char r[PATH_MAX];
        if (realpath(buf[0] ? buf : ".", r)) {
            snprintf(out, len, "%s%s", r, rest);
            return;
        }
        char *slash = strrchr(buf, '/');
        char tmp[8200];
        snprintf(tmp, sizeof tmp, "/%s%s", slash ? slash + 1 : buf, rest);
        snprintf(rest, sizeof rest, "%.4000s", tmp);
        if (!slash) buf[0] = '\0';
        else if (slash == buf) {
            snprintf(out, len, "%s", rest);
            return;
        } else *slash = '\0';
    }
}

/* path is dir or inside it (both resolved). */
static bool inside(const char *path, const char *dir)
{
    char p[4200], d[4200];
    resolve(path, p, sizeof p);
    resolve(dir, d, sizeof d);
    const size_t n = strlen(d);
    return strncmp(p, d, n) == 0 && (p[n] == '/' || p[n] == '\0');
}

int outdir_name(const char *given, char *out, size_t out_len, char *err, size_t len)
{
    size_t n = strlen(given);
    /* out=dir/ named dir/.partial as the partial folder and failed at the end */
    while (n > 1 && given[n - 1] == '/') n--;
    if (n == 0 || (n == 1 && given[0] == '/') || !strcmp(given, ".") || !strcmp(given, "..") ||
        (n >= 2 && !strncmp(given + n - 2, "/.", 2)) || (n >= 3 && !strncmp(given + n - 3, "/..", 3))) {
        snprintf(err, len, "output folder '%.200s' cannot be replaced by a run: name a folder of its own with out=",
                 given);
        return -1;
    }
    if (n >= out_len || n > 3000) {
        snprintf(err, len, "output folder name '%.40s...' is too long", given);
        return -1;
    }
    memcpy(out, given, n);
    out[n] = '\0';
    return 0;
}

int outdir_check_file(const char *key, const char *file, const char *out, char *err, size_t len)
{
    char partial[4200];
    snprintf(partial, sizeof partial, "%s.partial", out);
    if (inside(file, out) || inside(file, partial)) {
        snprintf(err, len, "%s= '%s' is inside the output folder '%s', which the run replaces; %s/restart.grit holds "
                 "the final state, or choose a file outside it", key, file, out, out);
        return -1;
    }
    char dir[4096];
    snprintf(dir, sizeof dir, "%s", file);
    char *slash = strrchr(dir, '/');
    if (!slash) snprintf(dir, sizeof dir, ".");
    else if (slash == dir) dir[1] = '\0';
    else *slash = '\0';
    if (!slash ? false : slash[1] == '\0') { /* "x/" */
        snprintf(err, len, "%s= '%s' names a folder, not a file", key, file);
        return -1;
    }
    if (!is_dir(dir)) {
        snprintf(err, len, "%s= '%s': the folder '%s' does not exist", key, file, dir);
        return -1;
    }
    if (is_dir(file)) {
        snprintf(err, len, "%s= '%s' is a folder, not a file", key, file);
        return -1;
    }
    /* the file is written under a temporary name in its folder and renamed */
    char probe[4200];
    snprintf(probe, sizeof probe, "%s/.grit-probe-%ld", dir, (long)getpid());
    FILE *f = fopen(probe, "w");
    if (!f || fclose(f) != 0) {
        snprintf(err, len, "%s= '%s': cannot write into the folder '%s': %s", key, file, dir, strerror(errno));
        return -1;
    }
    unlink(probe);
    return 0;
}

/* Say before anything is replaced that an earlier run's folder will be,
 * naming that run by the command its record keeps (its second line). */
static void note_replaced(const char *out)
{
    if (!is_dir(out)) return;
    char m[4200], line[2][1024] = {"", ""};
    snprintf(m, sizeof m, "%s/%s", out, OUTDIR_MARKER);
    FILE *f = fopen(m, "r");
    for (int k = 0; f && k < 2 && fgets(line[k], sizeof line[k], f); k++) {}
    if (f) fclose(f);
    line[1][strcspn(line[1], "\r\n")] = '\0';
    const char *cmd = !strncmp(line[1], "# grit ", 7) ? line[1] + 2 : NULL;
    printf("note: '%s' holds the output of an earlier run%s%s%s; this run replaces it when it completes "
           "(out=DIR keeps it)\n",
           out, cmd ? " (" : "", cmd ? cmd : "", cmd ? ")" : "");
    fflush(stdout);
}

int outdir_begin(const char *out, const char *const *inputs, int n_inputs, char *partial, size_t partial_len,
                 char *aside, size_t aside_len, char *err, size_t len)
{
    aside[0] = '\0';
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
        if (!is_dir(partial) || !is_grit_output(partial)) {
            snprintf(err, len, "'%s' is in the way (not a folder of an earlier grit run); remove it or choose another "
                     "out=", partial);
            return -1;
        }
        char ck[4300];
        snprintf(ck, sizeof ck, "%s/restart.grit", partial);
        bool input_there = false;
        for (int i = 0; i < n_inputs; i++) input_there |= inputs[i] && inside(inputs[i], partial);
        if (input_there) {
            /* this run continues from it: set aside until the run's own first
             * checkpoint is on disk (outdir_drop_aside) */
            snprintf(aside, aside_len, "%s.old-%ld", partial, (long)getpid());
            if (rename(partial, aside) != 0) {
                snprintf(err, len, "cannot set '%s' aside: %s", partial, strerror(errno));
                aside[0] = '\0';
                return -1;
            }
        } else if (exists(ck)) {
            snprintf(err, len, "'%s' holds the checkpoint of an unfinished run; continue it with grit run restart "
                     "file=%s, or remove the folder, or choose another out=", partial, ck);
            return -1;
        } else if (rm_tree(partial) != 0) {
            snprintf(err, len, "'%s' is in the way and cannot be removed; remove it or choose another out=", partial);
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
        if (aside[0] && rename(aside, partial) == 0) aside[0] = '\0';
        return -1;
    }
    note_replaced(out);
    return 0;
}

int outdir_resume(const char *out, char *partial, size_t partial_len, char *err, size_t len)
{
    if (exists(out) && !(is_dir(out) && is_grit_output(out))) {
        snprintf(err, len, "output folder '%s' exists and is not a grit output (no %s); remove it or choose another out=",
                 out, OUTDIR_MARKER);
        return -1;
    }
    snprintf(partial, partial_len, "%s.partial", out);
    if (!is_dir(partial) || !is_grit_output(partial)) {
        snprintf(err, len, "cannot continue the output in '%s': not the folder of an unfinished grit run", partial);
        return -1;
    }
    char probe[4200];
    snprintf(probe, sizeof probe, "%s/.probe", partial);
    FILE *f = fopen(probe, "w");
    if (!f || fclose(f) != 0 || unlink(probe) != 0) {
        snprintf(err, len, "cannot write into output folder '%s': %s", partial, strerror(errno));
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

void outdir_drop_aside(char *aside)
{
    if (aside[0] && rm_tree(aside) != 0)
        fprintf(stderr, "grit: warning: could not remove the earlier partial output '%s'\n", aside);
    aside[0] = '\0';
}
