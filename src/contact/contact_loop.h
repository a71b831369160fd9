/* grit internal: the contact loop -- geometry, physics and law for every
 * candidate pair, then the forces onto both particles (spec section 7). */
#ifndef GRIT_CONTACT_LOOP_H
#define GRIT_CONTACT_LOOP_H

#include "core/scene_impl.h"

int grit_contact_loop(grit_scene *s);

#endif
