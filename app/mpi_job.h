/* grit command line: a run on the ranks of an MPI job (mpirun -np K grit
 * run NAME ...; docs/parallel.md). Rank 0 runs the job as one process
 * would, with its files, progress and summary; the other ranks follow its
 * steps and gathers (mpi_job.c). Without MPI (or launched without mpirun)
 * every function is a no-op and grit_step runs alone. */
#ifndef GRIT_APP_MPI_JOB_H
#define GRIT_APP_MPI_JOB_H

#include <stdbool.h>

#include "grit/scene.h"

/* MPI_Init if the program was started by an MPI launcher; the ranks other
 * than 0 write nothing to the terminal from then on. */
void job_mpi_begin(int *argc, char ***argv);
void job_mpi_end(void);
/* Started on more than one rank? This rank's number. */
bool job_mpi_on(void);
int job_mpi_rank(void);
/* Spread the scene over the ranks (every rank calls it); 0, or an error
 * printed by rank 0 (the same on every rank). */
int job_mpi_spread(grit_scene *s, const char *name);
/* Rank 0: n steps on every rank. */
int job_step(grit_scene *s, long n);
/* Rank 0: the whole scene on rank 0, to read or write it (until the next step). */
void job_whole(grit_scene *s);
/* Rank 0: summed over the ranks, what moved between them (0s when not spread). */
typedef struct job_mpi_sums {
    int ranks;
    long redistributions, migrated, contacts_migrated;
    long ghosts;       /* copies held by all ranks at the last re-partition */
    double bytes_sent; /* in all */
    double bytes_step; /* by all ranks in the ghosts' update of the last step */
} job_mpi_sums;
void job_mpi_sums_get(grit_scene *s, job_mpi_sums *out);
/* Rank 0: the run is over; the other ranks return from job_follow. */
void job_done(void);
/* Ranks > 0: do what rank 0 says until job_done; the exit status. */
int job_follow(grit_scene *s);

#endif
