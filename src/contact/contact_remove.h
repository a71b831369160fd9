/* grit internal: what removing a real contact outside the contact loop takes
 * (particles deleted by an outlet): the elastic energy it holds, as the
 * contact loop booked it at the last step, and taking its force and torque
 * back from the particles it acted on. */
#ifndef GRIT_CONTACT_REMOVE_H
#define GRIT_CONTACT_REMOVE_H

#include "core/scene_impl.h"

/* The stored (elastic) energy of real contact k from its saved state: the
 * term its law added to the entry `elast` at the last contact loop. */
double grit_contact_stored_energy(const grit_scene *s, int k);
/* Subtract real contact k's force and torque (as the contact loop added
 * them) from its two particles' accumulated ones. Aperiodic scenes. */
void grit_contact_unapply(grit_scene *s, int k);

#endif
