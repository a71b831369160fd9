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

/* The output folder named by out=: trailing slashes dropped ('dir/' made
 * 'dir/.partial'); '/', '.', '..' refused. */
int outdir_name(const char *given, char *out, size_t out_len, char *err, size_t len);
/* A file the run writes at its end (save=): its folder exists and takes a
 * file, and it is not inside OUT or OUT.partial, which the run replaces.
 * Checked before the first step. */
int outdir_check_file(const char *key, const char *file, const char *out, char *err, size_t len);
/* Check that OUT can be replaced and create OUT.partial (and missing
 * parents). A stale OUT.partial of an earlier grit run is removed, unless it
 * holds a checkpoint (restart.grit): that is refused, or, when one of the
 * run's input files is inside it (grit run restart file=OUT.partial/...),
 * the folder is renamed to `aside` and kept until the new run's first
 * checkpoint is on disk (outdir_drop_aside). Returns 0, or -1 with one line
 * in err. */
int outdir_begin(const char *out, const char *const *inputs, int n_inputs, char *partial, size_t partial_len,
                 char *aside, size_t aside_len, char *err, size_t len);
/* Go on writing into the OUT.partial an interrupted run left (app/series.h):
 * it must hold that run's record, and OUT must be replaceable. Returns 0, or
 * -1 with one line in err. */
int outdir_resume(const char *out, char *partial, size_t partial_len, char *err, size_t len);
/* Remove the folder set aside by outdir_begin (if any). */
void outdir_drop_aside(char *aside);
/* Move OUT.partial to OUT, replacing an earlier grit output. */
int outdir_commit(const char *out, const char *partial, char *err, size_t len);
/* Remove OUT.partial (nothing useful was written yet). */
void outdir_discard(const char *partial);

#define OUTDIR_MARKER "grit-run.txt"

#endif
