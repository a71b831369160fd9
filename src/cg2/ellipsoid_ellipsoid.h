/* grit internal: Cg2_Ellipsoid_Ellipsoid_L6Geom (spec 2.4 (5)). A, B =
 * ellipsoids. By default the exact signed gap from the support functions
 * (ellipsoid_support.h: the force derives from the stored energy); with
 * woo_geom the spec's Perram-Wertheim gap, exact only to first order in the
 * overlap. Effective lengths: the centre-contact point distances at
 * creation (they include the overlap), rule 1 of spec 2.5. */
#ifndef GRIT_CG2_ELLIPSOID_ELLIPSOID_H
#define GRIT_CG2_ELLIPSOID_ELLIPSOID_H

#include "cg2/ellipsoid_support.h"
#include "shape/shape.h"

static inline bool cg2_ellipsoid_ellipsoid(const grit_scene *s, int a, int b, grit_vec3 shift, bool real,
                                           const grit_l6geom *prev, grit_cg2_out *o)
{
    grit_vec3 sa = s->ellipsoids[s->b.sidx[a]].semi, sb = s->ellipsoids[s->b.sidx[b]].semi;
    grit_vec3 xa = s->b.pr[a].pos, xb = v3_add(s->b.pr[b].pos, shift);
    double reach = fmax(sa.x, fmax(sa.y, sa.z)) + fmax(sb.x, fmax(sb.y, sb.z));
    if (!real && v3_norm2(v3_sub(xb, xa)) > reach * reach) return false;
    pw_sym P = pw_inverse_form(s->b.ori[a], sa), Q = pw_inverse_form(s->b.ori[b], sb);
    if (s->def.woo_geom) return pw_contact(s, a, b, xa, xb, &P, &Q, reach, real, prev, o);
    grit_mat3 MA = grit_ellipsoid_matrix(s, a), MB = grit_ellipsoid_matrix(s, b);
    return es_contact(s, a, b, xa, xb, &MA, &MB, &P, &Q, reach, real, prev, o);
}

#endif
