/* grit internal: the virial sum of the contact forces (stress.c). */
#ifndef GRIT_STRESS_IMPL_H
#define GRIT_STRESS_IMPL_H

#include "core/scene_impl.h"

/* W = sum over real contacts of sym(F (x) l), F the force on A, l the
 * branch vector (periodic image included); with lo, hi: only the contacts
 * whose contact point lies in that box. V sigma = W. */
void grit_contact_virial(const grit_scene *s, const grit_vec3 *lo, const grit_vec3 *hi, grit_mat3 *W);

#endif
