/* grit: files written under a temporary name and renamed when complete. */
#include "io/atomic_file.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { BUF_SIZE = 1 << 20 };

static void release(grit_afile *a)
{
    free(a->path);
    free(a->tmp);
    free(a->buf);
    memset(a, 0, sizeof *a);
}

int grit_afile_open(grit_afile *a, const char *path, const char *suffix, char *err, size_t errlen)
{
    char pid_suffix[40];
    if (!suffix) {
        snprintf(pid_suffix, sizeof pid_suffix, ".%ld.tmp", (long)getpid());
        suffix = pid_suffix;
    }
    memset(a, 0, sizeof *a);
    size_t n = strlen(path) + strlen(suffix) + 1;
    a->path = strdup(path);
    a->tmp = malloc(n);
    a->buf = malloc(BUF_SIZE);
    if (!a->path || !a->tmp || !a->buf) {
        snprintf(err, errlen, "out of memory opening '%s'", path);
        release(a);
        return -1;
    }
    snprintf(a->tmp, n, "%s%s", path, suffix);
    a->f = fopen(a->tmp, "w");
    if (!a->f) {
        snprintf(err, errlen, "cannot write '%s': %s", a->tmp, strerror(errno));
        release(a);
        return -1;
    }
    setvbuf(a->f, a->buf, _IOFBF, BUF_SIZE);
    return 0;
}

int grit_afile_commit(grit_afile *a, char *err, size_t errlen)
{
    int bad = ferror(a->f);
    int e = errno;
    if (fclose(a->f) != 0 && !bad) {
        bad = 1;
        e = errno;
    }
    a->f = NULL;
    if (!bad && rename(a->tmp, a->path) != 0) {
        bad = 1;
        e = errno;
    }
    if (bad) {
        snprintf(err, errlen, "cannot write '%s': %s", a->path, strerror(e ? e : EIO));
        unlink(a->tmp);
    }
    release(a);
    return bad ? -1 : 0;
}

void grit_afile_abort(grit_afile *a)
{
    if (a->f) fclose(a->f);
    if (a->tmp) unlink(a->tmp);
    release(a);
}

/* The rows worth keeping of a CSV time series written by an earlier run:
 * complete lines (a run killed mid-write leaves half a line), steps rising,
 * none after last_step (the rows of a crashed run beyond its checkpoint are
 * written again by the run that continues it). */
static size_t kept_rows(const char *text, size_t n, long last_step)
{
    size_t keep = 0;
    long prev = -1;
    for (size_t i = 0; i < n;) {
        const char *nl = memchr(text + i, '\n', n - i);
        if (!nl) break;
        char *end;
        errno = 0;
        const long step = strtol(text + i, &end, 10);
        if (end == text + i || *end != ',' || errno || step <= prev || step > last_step) break;
        prev = step;
        i = (size_t)(nl - text) + 1;
        keep = i;
    }
    return keep;
}

int grit_afile_continue(grit_afile *a, const char *path, const char *suffix, const char *header, long last_step,
                        char *err, size_t errlen)
{
    /* an interrupted run committed its series; a killed one left it under
     * the temporary name */
    char alt[4200];
    snprintf(alt, sizeof alt, "%s%s", path, suffix);
    FILE *in = fopen(path, "rb");
    const char *from = path;
    if (!in) in = fopen(from = alt, "rb");
    if (!in) {
        snprintf(err, errlen, "cannot continue '%s': neither it nor '%s' can be read", path, alt);
        return -1;
    }
    size_t cap = 1 << 16, n = 0;
    char *text = malloc(cap);
    for (size_t got; text && (got = fread(text + n, 1, cap - n, in)) > 0;) {
        n += got;
        if (n == cap) {
            char *t = realloc(text, cap *= 2);
            if (!t) free(text);
            text = t;
        }
    }
    const bool bad = ferror(in);
    fclose(in);
    const size_t nh = strlen(header);
    if (!text || bad) {
        free(text);
        snprintf(err, errlen, text ? "cannot read '%s'" : "out of memory reading '%s'", from);
        return -1;
    }
    /* a run killed before its first row reached the disk left less */
    const bool cut = n < nh && memcmp(text, header, n) == 0;
    if (!cut && (n < nh || memcmp(text, header, nh) != 0)) {
        free(text);
        snprintf(err, errlen, "cannot continue '%s': its header is not the one this version writes ('%.*s')", from,
                 (int)strcspn(header, "\n"), header);
        return -1;
    }
    const size_t keep = cut ? 0 : nh + kept_rows(text + nh, n - nh, last_step);
    if (grit_afile_open(a, path, suffix, err, errlen)) {
        free(text);
        return -1;
    }
    fwrite(text, 1, keep, a->f);
    if (cut) fputs(header, a->f);
    free(text);
    return 0;
}
