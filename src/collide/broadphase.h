/* grit internal: the broad phase -- which pairs of particles may touch.
 *
 * Binned cells with a skin (LAMMPS-style), not Woo's sweep-and-prune: every
 * bounding box is enlarged by the Verlet distance dv, and the candidate pair
 * list is rebuilt only when some particle has moved more than dv since the
 * last rebuild (so any pair whose true boxes overlap now had overlapping
 * enlarged boxes then). A rebuild bins the boxes into a uniform grid; a box
 * is entered into every cell it overlaps and a pair is reported only from
 * the cell holding the lower corner of the two boxes' intersection, so each
 * pair is found once whatever the size ratio. Unbounded shapes (walls) and
 * boxes spanning very many cells (large facets) are tested against every
 * particle instead. See docs/broad-phase.md for the measurements. */
#ifndef GRIT_BROADPHASE_H
#define GRIT_BROADPHASE_H

#include "core/scene_impl.h"
#include "shape/shape.h"

struct grit_broadphase;
struct grit_broadphase *grit_broadphase_create(void);
void grit_broadphase_destroy(struct grit_broadphase *bp);

/* Rebuild the candidate list if needed (first call, particles added, skin
 * exceeded). Real contacts are always kept, with their state. */
int grit_collide(grit_scene *s);
/* Will grit_collide rebuild now (particles added, moved past the skin, many
 * contacts outside the blocks, a rotated aspherical particle)? */
bool grit_collide_due(grit_scene *s);
/* Unconditional rebuild. */
int grit_broadphase_rebuild(grit_scene *s);
/* The resolved Verlet distance (resolves it on first use). */
double grit_verlet_dist(grit_scene *s);

/* Has the current box of particle i (internal index) left its enlarged box
 * of the last rebuild? The skin test by node displacement misses shapes
 * whose data moves without their node moving (a facet spinning about its
 * centroid); the integrator asks this for those. */
bool grit_broadphase_box_escaped(const grit_scene *s, int i);

/* What the broad phase keeps between rebuilds and a restarted run needs to
 * decide its next rebuild exactly as an uninterrupted one: the enlarged
 * boxes of the last rebuild and the orientations of rotation-sensitive
 * particles then. */
typedef struct grit_broadphase_state {
    const grit_aabb *box;
    int n_boxes;
    const int32_t *rot;
    const double *rot_r;
    const grit_quat *rot_q0;
    int n_rot;
} grit_broadphase_state;
void grit_broadphase_get_state(const grit_scene *s, grit_broadphase_state *out);
/* Copies the arrays; returns -1 when out of memory. */
int grit_broadphase_set_state(grit_scene *s, const grit_broadphase_state *in);

/* The end of a rebuild, for the periodic broad phase: begin an empty list,
 * push each candidate pair with the old contact whose state it keeps (src,
 * or -1 for a potential pair), then finish (install the list, reset the
 * skin bookkeeping). */
void grit_broadphase_begin(grit_scene *s);
int grit_broadphase_push(grit_scene *s, const grit_pair *p, int src);
int grit_broadphase_finish(grit_scene *s);

/* Particles were deleted: old index i is now newidx[i] (-1: deleted), the
 * order of the others kept; n_old the count before. The record of the last
 * rebuild follows, so that no rebuild is needed. */
void grit_broadphase_compact(grit_scene *s, const int32_t *newidx, int n_old);

/* Does the new pair of particles i, j (the functor's order: swap from its
 * Cg2 entry) go in as (j, i)? The functor's order, or with id_order, for two
 * particles of one shape, the lower id first: then a contact's arithmetic
 * does not depend on the particles' places in memory. */
static inline bool grit_pair_swapped(const grit_scene *s, bool swap, int i, int j)
{
    if (s->def.id_order && s->b.shape[i] == s->b.shape[j]) return s->b.id[j] < s->b.id[i];
    return swap;
}

/* May particles i and j (internal indices) ever collide (masks, kinds)? */
bool grit_may_collide(const grit_scene *s, int i, int j);

#endif
