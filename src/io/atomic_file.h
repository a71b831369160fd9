/* grit internal: files that appear complete or not at all.
 *
 * A file is written as `<path><suffix>` in the same folder and renamed to
 * `<path>` only once everything was written and closed without error;
 * rename(2) within a folder is atomic, so a reader (or a crash) never sees a
 * truncated file under the final name. Not proof against power loss (no
 * fsync), which would cost more than the output is worth. */
#ifndef GRIT_ATOMIC_FILE_H
#define GRIT_ATOMIC_FILE_H

#include <stdbool.h>
#include <stdio.h>

typedef struct grit_afile {
    FILE *f;
    char *path, *tmp;
    char *buf; /* stdio buffer: output files are large and written sequentially */
} grit_afile;

/* Open `path + suffix` for writing (suffix NULL: ".<pid>.tmp"). Returns 0,
 * or -1 with a message naming the file in err. */
int grit_afile_open(grit_afile *a, const char *path, const char *suffix, char *err, size_t errlen);
/* Close and rename into place; on any write error remove the temporary file
 * and return -1 with a message. */
int grit_afile_commit(grit_afile *a, char *err, size_t errlen);
/* Close and remove the temporary file. */
void grit_afile_abort(grit_afile *a);
/* Open `path + suffix` (as grit_afile_open) to go on with a CSV time series
 * an earlier run wrote to `path` (or left in `path + suffix`): its first
 * line must be `header` (which ends with a newline); the rows kept are the
 * complete ones up to the first whose step (first column) is not rising or
 * is beyond last_step. */
int grit_afile_continue(grit_afile *a, const char *path, const char *suffix, const char *header, long last_step,
                        char *err, size_t errlen);

#endif
