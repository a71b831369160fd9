/* grit internal: the virial sum of the contact forces (stress.c). */
#ifndef GRIT_STRESS_IMPL_H
#define GRIT_STRESS_IMPL_H

#include "core/scene_impl.h"

/* W = sum over real contacts of sym(F (x) l), F the force on A, l the
 * branch vector (periodic image included); with lo, hi: only the contacts
 * whose contact point lies in that box. V sigma = W. */
void grit_contact_virial(const grit_scene *s, const grit_vec3 *lo, const grit_vec3 *hi, grit_mat3 *W);

/* Periodic scene: sigma (grit_stress) and the affine stiffness of the
 * diagonal stresses, d sigma_aa = sum_q K[a][q] d_q for a symmetric strain
 * increment d (q: xx, yy, zz, xy, xz, yz; d_xy stands for both d_xy and
 * d_yx), every real contact deforming with the cell, its normal and
 * tangential stiffness kn, kt (the cell controller's servo, cellctrl.c). */
void grit_contact_stress_stiffness(const grit_scene *s, double sigma[3][3], double K[3][6]);

#endif
