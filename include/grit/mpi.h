/* grit: one scene spread over the ranks of an MPI job (docs/parallel.md).
 *
 * Every rank builds the same scene by the same calls, then calls
 * grit_mpi_distribute: from then on each rank keeps the particles in its
 * part of space (slabs along the scene's longest axis, re-balanced by
 * particle count at every broad-phase rebuild) with copies ("ghosts") of the
 * particles near it, and grit_step on every rank advances the whole scene.
 * The contacts of a particle and their state travel with it. Results are the
 * same, bit for bit, as one process running the scene with id_order set
 * (which distribution sets), whatever the number of ranks.
 *
 * What is spread so far: spheres, with walls, facets and other particles
 * whose six degrees of freedom are blocked (every rank holds those), and the
 * energy book (track_energy): every rank books its share of a step and the
 * shares are summed at the step's end, so that grit_energy and the other
 * getters give the whole scene's book on every rank; the automatic Verlet
 * distance, chosen by the ranks together from the whole scene's figures.
 * Not yet: aspherical moving particles, clumps, periodic cells, inlets and
 * outlets, the adaptive step; a scene with them is refused with a message
 * that names them.
 *
 * The functions are collective: every rank calls them, in the same order.
 * They need the library libgrit_mpi (CMake target grit_mpi), built when MPI
 * is found; the program calls MPI_Init before and MPI_Finalize after. */
#ifndef GRIT_MPI_H
#define GRIT_MPI_H

#include "grit/scene.h"

GRIT_BEGIN_DECLS

/* Spread a scene every rank holds whole (built by the same calls) over the
 * ranks of MPI_COMM_WORLD. GRIT_OK, or an error (the same on every rank,
 * message in grit_last_error) and the scene unchanged. */
GRIT_API int grit_mpi_distribute(grit_scene *s);

/* Bring every particle and contact onto rank 0, which then holds the whole
 * scene (to save or write it with the one-process functions); the other
 * ranks keep only the shared particles. grit_mpi_distribute spreads it
 * again; grit_step refuses a gathered scene until then. */
GRIT_API int grit_mpi_gather(grit_scene *s);

/* This process's rank and the number of ranks (0 and 1 without MPI_Init). */
GRIT_API int grit_mpi_rank(void);
GRIT_API int grit_mpi_size(void);

/* What the ranks exchanged and how they split the work (all 0 on a scene
 * never distributed). */
typedef struct grit_mpi_stats {
    long owned, ghosts;         /* this rank's particles and copies after the last re-partition (not a gather) */
    long redistributions;       /* re-partitions (one per broad-phase rebuild) */
    long migrated;              /* particles this rank handed to another, in all */
    long contacts_migrated;     /* contacts (with their state) it sent to another */
    double bytes_sent;          /* in all: re-partitions and the ghosts' updates */
    double bytes_sent_per_step; /* the ghosts' update of the last step */
} grit_mpi_stats;
GRIT_API int grit_mpi_get_stats(const grit_scene *s, grit_mpi_stats *out);

GRIT_END_DECLS

#endif
