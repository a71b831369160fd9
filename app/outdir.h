/* grit command line: the output folder of a run.
 *
 * A run writes into OUT.partial and renames it to OUT only when everything
 * was written, so a folder named OUT is always a complete run; a failed or
 * interrupted run leaves OUT.partial (never OUT) for inspection. An existing
 * OUT is replaced only if it holds a grit-run.txt (it is a grit output),
 * never otherwise. */
#ifndef GRIT_OUTDIR_H
#define GRIT_OUTDIR_H

#include <stddef.h>

/* Check that OUT can be replaced and create OUT.partial (and missing
 * parents), removing a stale OUT.partial of an earlier grit run. Returns 0,
 * or -1 with one line in err. */
int outdir_begin(const char *out, char *partial, size_t partial_len, char *err, size_t len);
/* Move OUT.partial to OUT, replacing an earlier grit output. */
int outdir_commit(const char *out, const char *partial, char *err, size_t len);
/* Remove OUT.partial (nothing useful was written yet). */
void outdir_discard(const char *partial);

#define OUTDIR_MARKER "grit-run.txt"

#endif
