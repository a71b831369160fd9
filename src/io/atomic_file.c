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
