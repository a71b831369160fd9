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

#include "cg2/cg2.h"

#define GRIT_CP2_LIST(X)                     \
    X(FRICTMAT, FRICTMAT, FRICTPHYS)         \
    X(FRICTMAT, CONCRETEMAT, FRICTPHYS)      \
    X(CONCRETEMAT, CONCRETEMAT, CONCRETEPHYS) \
    X(HERTZMAT, HERTZMAT, HERTZPHYS)         \
    X(FRICTMAT, HERTZMAT, FRICTPHYS)         \
    X(CONCRETEMAT, HERTZMAT, FRICTPHYS)

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
/* The scene's friction_rule applied to two friction coefficients. */
double grit_cp2_combine_friction(int rule, double a, double b);

/* Cp2_ConcreteMat_ConcretePhys (docs/concrete.md): the constants of every
 * pair of ConcreteMats, combined once when the materials change (one
 * material: its own values; two: the means of each, the product of the mean
 * moduli and ratios), into s->cpm_phys[mat_a * n + mat_b]. Refuses two
 * ConcreteMats with different dam_law (GRIT_EINVAL, message naming both). */
int grit_cp2_prepare(grit_scene *s);
/* The contact's constants, the reference length, the cohesive flag and the
 * initial state of the CPM law (law2/cpm.h: the layout of ext). */
void grit_cp2_concretephys(const grit_scene *s, int mat_a, int mat_b, const grit_cg2_out *o,
                           grit_contact_cold *cold, grit_frictphys *p, double *ext);

/* Cp2_HertzMat_HertzPhys (docs/hertz.md): the constants of a Hertz-Mindlin
 * contact between particles a and b (internal indices) from their
 * HertzMats, masses and the curvature radii the geometry gives (law2/hertz.h:
 * the layout of ext); tan_phi and restitution replaced by a pair override
 * where one is set. Zeroes the force and torque. */
void grit_cp2_hertzphys(const grit_scene *s, int a, int b, const grit_cg2_out *o, grit_frictphys *p, double *ext);
/* The rolling resistance model (GRIT_ROLLING_*) of the contacts between two
 * HertzMats: the override's, else the materials' (one with none takes the
 * other's, two different ones the first in the choice's order). */
int grit_hertz_rolling_of(const grit_scene *s, int mat_a, int mat_b);

#endif
