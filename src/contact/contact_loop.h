/* grit internal: the contact loop -- geometry, physics and law for every
 * candidate pair, then the forces onto both particles (spec section 7). */
#ifndef GRIT_CONTACT_LOOP_H
#define GRIT_CONTACT_LOOP_H

#include "core/scene_impl.h"

int grit_contact_loop(grit_scene *s);
/* Doubles of per-contact state (ext) that a law needs. */
int grit_law_ext_n(int law);
/* Size the contacts' ext for the selected law; called before every step so
 * that the broad phase always copies the right amount. */
int grit_contact_prepare(grit_scene *s);

#endif
