/* grit command line: a run on several MPI ranks (mpi_job.h).
 *
 * The ranks other than 0 do not run the job: after building and spreading
 * the same scene they wait for rank 0's orders (broadcast: step n, gather,
 * sum the statistics, done), so that every collective call of the library
 * is made by every rank in the same order, and only rank 0 decides what
 * depends on the clock (the chunk of steps, progress, checkpoints, Ctrl-C). */
#include "mpi_job.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grit/grit.h"

#ifdef GRIT_HAVE_MPI
#include <mpi.h>

#include "grit/mpi.h"

static bool on, spread, whole;
static int rank;
enum { OP_STEP = 1, OP_WHOLE, OP_SUMS, OP_DONE };

/* Started by an MPI launcher (OpenMPI, MPICH, PMIx)? */
static bool launched(void)
{
    static const char *const vars[] = {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_RANK", "MPI_LOCALNRANKS"};
    for (size_t i = 0; i < sizeof vars / sizeof vars[0]; i++)
        if (getenv(vars[i])) return true;
    return false;
}

void job_mpi_begin(int *argc, char ***argv)
{
    if (!launched()) return;
    int size = 1;
    MPI_Init(argc, argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    on = size > 1;
    if (on && rank != 0) { /* one voice: rank 0's */
        if (!freopen("/dev/null", "w", stdout) || !freopen("/dev/null", "w", stderr)) {}
    }
    if (!on) {
        MPI_Finalize();
        rank = 0;
    }
}

void job_mpi_end(void)
{
    if (on) MPI_Finalize();
    on = false;
}

bool job_mpi_on(void) { return on; }
int job_mpi_rank(void) { return rank; }

int job_mpi_spread(grit_scene *s, const char *name)
{
    if (!on) return 0;
    if (grit_mpi_distribute(s)) {
        if (rank == 0) fprintf(stderr, "grit: error: grit run %s on MPI ranks: %s\n", name, grit_last_error(s));
        return -1;
    }
    spread = true;
    whole = false;
    return 0;
}

static void order(int op, long n)
{
    long cmd[2] = {op, n};
    MPI_Bcast(cmd, 2, MPI_LONG, 0, MPI_COMM_WORLD);
}

int job_step(grit_scene *s, long n)
{
    if (!spread) return grit_step(s, n);
    order(OP_STEP, n);
    whole = false;
    return grit_step(s, n);
}

void job_whole(grit_scene *s)
{
    if (!spread || whole) return;
    order(OP_WHOLE, 0);
    grit_mpi_gather(s); /* (fails only out of memory, the same on every rank: the writers then report) */
    whole = true;
}

static void sums(grit_scene *s, job_mpi_sums *out)
{
    grit_mpi_stats st;
    grit_mpi_get_stats(s, &st);
    long in[4] = {st.redistributions, st.migrated, st.contacts_migrated, st.ghosts}, sum[4] = {0, 0, 0, 0};
    double b[2] = {st.bytes_sent, st.bytes_sent_per_step}, bsum[2] = {0, 0};
    MPI_Reduce(in, sum, 4, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
    MPI_Reduce(b, bsum, 2, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
    if (out) {
        int size = 1;
        MPI_Comm_size(MPI_COMM_WORLD, &size);
        /* every rank counts each re-partition: one count */
        *out = (job_mpi_sums){size, st.redistributions, sum[1], sum[2], sum[3], bsum[0], bsum[1]};
    }
}

void job_mpi_sums_get(grit_scene *s, job_mpi_sums *out)
{
    memset(out, 0, sizeof *out);
    if (!spread) return;
    order(OP_SUMS, 0);
    sums(s, out);
}

void job_done(void)
{
    if (spread) order(OP_DONE, 0);
    spread = false;
}

int job_follow(grit_scene *s)
{
    signal(SIGINT, SIG_IGN); /* rank 0 takes Ctrl-C and ends the run in order */
    signal(SIGTERM, SIG_IGN);
    for (;;) {
        long cmd[2];
        MPI_Bcast(cmd, 2, MPI_LONG, 0, MPI_COMM_WORLD);
        if (cmd[0] == OP_STEP)
            grit_step(s, cmd[1]); /* (an error is every rank's: rank 0 reports it) */
        else if (cmd[0] == OP_WHOLE)
            grit_mpi_gather(s);
        else if (cmd[0] == OP_SUMS)
            sums(s, NULL);
        else
            break;
    }
    spread = false;
    grit_scene_destroy(s);
    return 0;
}

#else /* built without MPI: one process */

void job_mpi_begin(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
}
void job_mpi_end(void) {}
bool job_mpi_on(void) { return false; }
int job_mpi_rank(void) { return 0; }
int job_mpi_spread(grit_scene *s, const char *name)
{
    (void)s;
    (void)name;
    return 0;
}
int job_step(grit_scene *s, long n) { return grit_step(s, n); }
void job_whole(grit_scene *s) { (void)s; }
void job_mpi_sums_get(grit_scene *s, job_mpi_sums *out)
{
    (void)s;
    memset(out, 0, sizeof *out);
}
void job_done(void) {}
int job_follow(grit_scene *s)
{
    grit_scene_destroy(s);
    return 0;
}
#endif
