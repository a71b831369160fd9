/* grit internal: motion integration and the time step. */
#ifndef GRIT_INTEGRATE_H
#define GRIT_INTEGRATE_H

#include "core/scene_impl.h"

/* Leapfrog over all particles (spec 8.2): integrate with the accumulated
 * forces, then reset the accumulators to m g. Also records the largest
 * displacement since the last broad-phase rebuild. Returns GRIT_ENUMERIC if
 * a position became NaN or infinite. */
int grit_leapfrog(grit_scene *s);

/* The critical step of the current contacts (dyndt.c; INFINITY without
 * contacts), and the adaptive step's update after `steps` steps. */
double grit_contacts_critical_dt(grit_scene *s);
void grit_dyndt_update(grit_scene *s, long steps);

/* The particles' energy entries at the end of a step (after the contact
 * loop): kinetic energy (set), gravity and damping work (added), all at the
 * instant of the contacts' elastic energy (leapfrog.c explains how);
 * dt_step: the step just made (gravity's work), s->dt the next one. */
int grit_leapfrog_energy(grit_scene *s, double dt_step);
/* Particle i's share of the kinetic entry as grit_leapfrog_energy booked it
 * at the end of the last step, from its current velocity and force (0 for
 * particles outside the book). */
double grit_leapfrog_kinetic(const grit_scene *s, int i);

#endif
