/* grit internal: motion integration and the time step. */
#ifndef GRIT_INTEGRATE_H
#define GRIT_INTEGRATE_H

#include "core/scene_impl.h"

/* Leapfrog over all particles (spec 8.2): integrate with the accumulated
 * forces, then reset the accumulators to m g. Also books kinetic, gravity
 * and damping energy when tracking, and records the largest displacement
 * since the last broad-phase rebuild. Returns GRIT_ENUMERIC if a position
 * became NaN or infinite. */
int grit_leapfrog(grit_scene *s);

#endif
