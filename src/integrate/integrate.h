/* grit internal: motion integration and the time step. */
#ifndef GRIT_INTEGRATE_H
#define GRIT_INTEGRATE_H

#include "core/scene_impl.h"

/* Leapfrog over all particles (spec 8.2): integrate with the accumulated
 * forces, then reset the accumulators to m g. Also records the largest
 * displacement since the last broad-phase rebuild. Returns GRIT_ENUMERIC if
 * a position became NaN or infinite. */
int grit_leapfrog(grit_scene *s);

/* The particles' energy entries at the end of a step (after the contact
 * loop): kinetic energy (set), gravity and damping work (added), all at the
 * instant of the contacts' elastic energy (leapfrog.c explains how). */
void grit_leapfrog_energy(grit_scene *s);

#endif
