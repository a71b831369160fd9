/* grit internal: the broad phase of a periodic cell (periodic.c).
 *
 * The aperiodic grid of broadphase.c, done in reduced coordinates r = H^-1 x
 * wrapped into [0,1)^3: every box is mapped to a (conservatively enlarged)
 * box in reduced coordinates, binned in a grid that wraps around, and each
 * pair is reported once, with the image k of B, from the cell of the lower
 * corner of the two boxes' intersection. See docs/periodic.md. */
#ifndef GRIT_COLLIDE_PERIODIC_H
#define GRIT_COLLIDE_PERIODIC_H

#include "core/cell_impl.h"
#include "shape/shape.h"

struct grit_pbp;
void grit_pbp_destroy(struct grit_pbp *p);

/* Save and restart (src/io/restart*.c): the enlarged boxes of the last
 * rebuild, where the particles were (grit_periodic_box_escaped compares
 * with them). The rest of the broad phase's arrays are recomputed at every
 * rebuild. get: n = 0 before the first rebuild. set: copies; -1 when out
 * of memory. */
void grit_pbp_get_boxes(const grit_cell *c, const grit_aabb **box, int *n);
int grit_pbp_set_boxes(grit_cell *c, const grit_aabb *box, int n);

/* Rebuild the candidate pairs (called by grit_broadphase_rebuild). */
int grit_rebuild_periodic(grit_scene *s);
/* The squared move that grit_collide compares with the skin: the largest
 * move of a wrapped image plus half the largest move of a neighbouring
 * image through the deformation of the cell since the last rebuild. */
double grit_periodic_disp2(const grit_scene *s);
/* grit_broadphase_box_escaped for a periodic scene. */
bool grit_periodic_box_escaped(const grit_scene *s, int i);

/* The largest skin with which every particle's box spans less than 0.45 of
 * the cell along each base vector (the check below asks for 0.5; the margin
 * leaves room for the cell's deformation until the next rebuild); INFINITY
 * without particles. The automatic Verlet distance keeps below it. */
double grit_periodic_max_skin(const grit_scene *s);

/* Check that every particle's box, enlarged by `skin`, spans less than half
 * of the cell H along each base vector (and is bounded). GRIT_OK or an
 * error naming the particle; `who` prefixes the message. */
int grit_periodic_check_boxes(grit_scene *s, const grit_mat3 *H, double skin, const char *who);

/* The extent in reduced coordinates of a union of balls (a clump's
 * members): lowest and highest reduced coordinate per base vector. A clump
 * must span less than half the cell, like a single box, so that none of its
 * members can meet a member of its own image (the broad phase never pairs
 * two members of one clump, whatever the image). */
typedef struct grit_rspan {
    double lo[3], hi[3];
} grit_rspan;
static inline grit_rspan grit_rspan_empty(void)
{
    return (grit_rspan){{INFINITY, INFINITY, INFINITY}, {-INFINITY, -INFINITY, -INFINITY}};
}
/* add the ball (x, r) */
void grit_rspan_add(grit_rspan *sp, const grit_mat3 *Hinv, grit_vec3 x, double r);
/* The axis along which the span exceeds `limit` (its width in *width), or -1. */
int grit_rspan_over(const grit_rspan *sp, double limit, double *width);

#endif
