/* grit command line: the output series of a run, and going on with it.
 *
 * A run's record (OUT/grit-run.txt) holds a line "# series: ..." saying
 * which steps its series span and at which cadence they were written. A run
 * interrupted or killed leaves OUT.partial/ with that record beside its
 * checkpoint; `grit run restart file=OUT.partial/restart.grit` reads it to
 * go on to the end the run was started for, appending to the same VTK
 * series and CSV files, so that OUT ends as the uninterrupted run's. */
#ifndef GRIT_SERIES_H
#define GRIT_SERIES_H

#include <stddef.h>
#include <stdio.h>

#include "grit/io.h"

typedef struct series_info {
    long first, end;            /* the step the series began at and the one it ends at */
    long vtk_every, save_every; /* the cadences (steps), -1 for none */
    grit_vtk_format vtk_format;
} series_info;

/* The record's line for si (ends with a newline). */
void series_print(FILE *f, const series_info *si);
/* When restart_file lies in a folder X.partial whose record has a series
 * line: X into out and 1; otherwise 0 (nothing to go on with). */
int series_find(const char *restart_file, char *out, size_t out_len, series_info *si);
/* The record of partial/ (OUT.partial) with its series line replaced by si's
 * and a line saying the run was continued at step `at` by the command line
 * argv. Returns 0, or -1 with one line in err. */
int series_record_continue(const char *partial, const series_info *si, long at, int argc, char **argv, char *err,
                           size_t len);

#endif
