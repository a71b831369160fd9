/* grit: the stress tensor of an assembly from its contact forces
 * (Love-Weber; docs/periodic.md).
 *
 *   sigma_ij = 1/V sum_c F_i^c l_j^c
 *
 * over real contacts c, with F^c the force on the contact's particle A
 * (global) and l^c the branch vector from A to B: between the two nodes for
 * particles with a volume (sphere, capsule, ellipsoid, rod), from the
 * contact point for a boundary (wall, facet, infinite cylinder), which then
 * closes the volume (the particle's term of the Love formula). In a
 * periodic scene B is at its image, x_B + H k. Tension is positive. */
#ifndef GRIT_STRESS_H
#define GRIT_STRESS_H

#include "grit/scene.h"
#include "grit/export.h"

GRIT_BEGIN_DECLS

/* ---- the stress: symmetric, row-major double[3][3] ----------------------- */
/* Periodic scene: every real contact, V = det H. GRIT_ESTATE in an
 * aperiodic scene (use grit_stress_box). */
int grit_stress(const grit_scene *s, double sigma[3][3]);
/* Any scene: the real contacts whose contact point lies in the box
 * [lo, hi] (closed), V = the box volume (lo < hi on every axis). */
int grit_stress_box(const grit_scene *s, grit_vec3 lo, grit_vec3 hi, double sigma[3][3]);

/* ---- unsymmetrised, for the demonstrations --------------------------------- */
/* Over the real contacts whose contact point lies in the box [lo, hi]
 * (lo = hi = NULL: every contact), divided by the given volume. The tensor
 * is returned unsymmetrised (Woo's accumulation): its skew part measures how
 * far the contact forces are from the moment balance of the particles; the
 * stress of grit_stress is its symmetric part. Returns GRIT_OK, or GRIT_EINVAL
 * (volume not > 0 and finite, lo > hi); *n_contacts (may be NULL) gets the
 * number of contacts summed. sigma is stored by columns: sigma->c[j] holds
 * the components sigma_ij. */
int grit_stress_love_weber(const grit_scene *s, double volume, const grit_vec3 *lo, const grit_vec3 *hi,
                           grit_mat3 *sigma, int *n_contacts);

/* Helpers for the demonstrations: symmetric part, Frobenius norm,
 * R^T sigma R. */
grit_mat3 grit_mat3_sym(const grit_mat3 *a);
double grit_mat3_frob(const grit_mat3 *a);
grit_mat3 grit_mat3_rotate_back(const grit_mat3 *R, const grit_mat3 *sigma);

GRIT_END_DECLS

#endif
