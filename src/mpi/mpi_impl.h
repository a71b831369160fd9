/* grit internal: the MPI layer's state of one rank (docs/parallel.md).
 *
 * Ownership: a moving particle belongs to the rank whose slab holds its
 * centre at the last re-partition; every rank also holds copies (ghosts,
 * PF_GHOST) of the other ranks' particles within `halo` of its slab, and
 * the shared particles (PF_SHARED: blocked walls, facets...). A rank makes
 * the contacts that have one of its own particles, so a contact between two
 * ranks' particles is computed on both, from the same bytes, to the same
 * bytes. Nothing but ghosts' states crosses between ranks at a step; at a
 * broad-phase rebuild the ranks re-partition and every particle and contact
 * goes where it now belongs (redistribute.c). */
#ifndef GRIT_MPI_IMPL_H
#define GRIT_MPI_IMPL_H

#include <mpi.h>

#include "core/scene_impl.h"
#include "grit/mpi.h"

typedef struct grit_mpi_lists {
    int32_t *ids; /* per rank, concatenated: the particles' ids */
    int *cnt, *off; /* per rank */
    int n, cap;
} grit_mpi_lists;

struct grit_mpi {
    MPI_Comm comm;
    int rank, size;
    double rmax; /* the largest moving sphere's radius (the halo's reach) */
    /* the slabs: rank r holds [bounds[r], bounds[r + 1]) along `axis` */
    int axis;
    double *bounds;
    bool gather; /* the next re-partition sends everything to rank 0, no ghosts */
    /* the ghosts' update: the own particles each rank holds copies of, the
     * copies this rank holds of each rank's particles, in the same order */
    grit_mpi_lists send, recv;
    double *sbuf, *rbuf;
    size_t sbuf_cap, rbuf_cap;
    int *scnt, *sdispl, *rcnt, *rdispl; /* scratch of the all-to-all calls, per rank */
    /* an error was agreed inside the exchange: the step's closing agreement
     * is then not made again (halo.c) */
    bool skip_agree;
    /* the automatic Verlet distance: the largest squared displacement of
     * this rank's particles since the last re-partition (halo.c) */
    double disp2;
    bool keep_skin; /* gathered: the next re-partition keeps the skin */
    grit_mpi_stats st;
};

/* the slabs (decomp.c) */
int grit_mpi_partition(grit_scene *s);
int grit_mpi_owner(const struct grit_mpi *m, grit_vec3 x);
double grit_mpi_halo(const grit_scene *s);
/* re-partition and move particles and contacts (redistribute.c); the
 * particles every rank holds flagged PF_SHARED (every shape but spheres) */
void grit_mpi_mark_shared(grit_scene *s);
int grit_mpi_redistribute(grit_scene *s);
/* every rank's status made the same: the lowest rank's worst (halo.c) */
int grit_mpi_agree_now(grit_scene *s, int rc);
/* a buffer of at least `bytes` */
int grit_mpi_reserve(void **p, size_t *cap, size_t bytes);

static inline bool grit_mpi_mine(const grit_scene *s, int i)
{
    return !(s->b.flags[i] & (PF_GHOST | PF_SHARED));
}

#endif
