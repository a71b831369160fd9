/* grit internal: physics functors (Cp2) -- material pair -> contact physics.
 * They run once, when a contact becomes real. */
#ifndef GRIT_CP2_H
#define GRIT_CP2_H

#include "core/scene_impl.h"

/* Cp2_FrictMat_FrictPhys (spec section 3): kn from the two Young's moduli
 * through the series-connector formula over the effective lengths and
 * contact area stored in `cold`; kt from the mean kt/kn ratio; friction by
 * the scene's friction_rule (default: the smaller of the two); each replaced
 * by a per-pair override where one is set.
 * Zeroes the force and torque. */
void grit_cp2_frictmat_frictphys(const grit_scene *s, int mat_a, int mat_b, const grit_contact_cold *cold,
                                 grit_frictphys *p);

#endif
