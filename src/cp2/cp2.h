/* grit internal: physics functors (Cp2) -- material pair -> contact physics.
 * They run once, when a contact becomes real.
 *
 * GRIT_CP2_LIST is the registration list: X(type A, type B, physics) says
 * that a contact between materials of types A and B (either order) gets
 * that physics. A pair of types without an entry cannot touch: a scene
 * whose particles use both is refused before its first step with a message
 * naming the two types. The law of a contact accepts its physics
 * (grit/law.h), and its create_<law> calls the physics functor. */
#ifndef GRIT_CP2_H
#define GRIT_CP2_H

#include "core/scene_impl.h"

#define GRIT_CP2_LIST(X)                     \
    X(FRICTMAT, FRICTMAT, FRICTPHYS)

/* Physics of each pair of material types, generated from the list: 0 for
 * no functor, else the grit_phys_type + 1. */
extern const uint8_t grit_cp2_table[GRIT_MAT_COUNT][GRIT_MAT_COUNT];

/* The physics of material types (ta, tb) in `table` (the list's, or another
 * in tests); GRIT_PHYS_NONE with a message naming both types in err when
 * the pair has no functor. */
int grit_cp2_find(const uint8_t table[GRIT_MAT_COUNT][GRIT_MAT_COUNT], int ta, int tb, char *err, size_t len);

/* Cp2_FrictMat_FrictPhys (spec section 3): kn from the two Young's moduli
 * through the series-connector formula over the effective lengths and
 * contact area stored in `cold`; kt from the mean kt/kn ratio; friction by
 * the scene's friction_rule (default: the smaller of the two); each replaced
 * by a per-pair override where one is set.
 * Zeroes the force and torque. */
void grit_cp2_frictphys(const grit_scene *s, int mat_a, int mat_b, const grit_contact_cold *cold,
                        grit_frictphys *p);

#endif
