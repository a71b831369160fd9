/* grit: the stress tensor of an assembly from its contact forces
 * (Love-Weber; concrete-cpm spec section 7).
 *
 *   sigma = 1/V sum_c sym(F_c (x) l_c)
 *
 * F_c is the contact force on particle A, l_c = x_B - x_A the branch vector
 * (with the periodic image of B), x the node of a sphere, capsule or
 * ellipsoid. Tension is positive. For a contact with a boundary (wall,
 * facet, infinite cylinder, rod), which has no centre, the branch vector is
 * taken from the contact point to the particle's centre: the particle's
 * term alone, as in the particle form of the Love formula. Matrices are
 * row-major double[3][3], symmetric. */
#ifndef GRIT_STRESS_H
#define GRIT_STRESS_H

#include "grit/scene.h"

/* Periodic scene: all real contacts, V = det H. GRIT_ESTATE in an aperiodic
 * scene (use grit_stress_box). */
int grit_stress(const grit_scene *s, double sigma[3][3]);

/* Any scene: the real contacts whose contact point lies in the box
 * [lo, hi] (closed), V = the box volume. */
int grit_stress_box(const grit_scene *s, grit_vec3 lo, grit_vec3 hi, double sigma[3][3]);

#endif
