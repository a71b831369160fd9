/* grit internal: the leapfrog for four free spheres at a time. */
#ifndef GRIT_LEAPFROG_SIMD_H
#define GRIT_LEAPFROG_SIMD_H

#include "core/scene_impl.h"

/* Particles i..i+3 must all have flags == 0 (free, isotropic, default
 * gravity and damping, no moving shape data) and an aperiodic scene (the
 * energy book is a pass of its own). Same arithmetic as the scalar leapfrog, lane by lane.
 * Returns false (nothing written) when a lane needs the scalar path (a
 * rotation step too large for the series). */
bool grit_leapfrog4(grit_scene *s, int i, bool has_d, bool has_g, double *maxd2, double *check);

#endif
