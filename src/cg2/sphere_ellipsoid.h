/* grit internal: Cg2_Sphere_Ellipsoid_L6Geom (spec 2.4 (6)): the ellipsoid
 * pair with A = a sphere of semi-axes (r, r, r): by default the exact signed
 * gap (ellipsoid_support.h), with woo_geom the spec's Perram-Wertheim one.
 * Its effective length is the centre-contact point distance, not the radius
 * (spec 2.5). */
#ifndef GRIT_CG2_SPHERE_ELLIPSOID_H
#define GRIT_CG2_SPHERE_ELLIPSOID_H

#include "cg2/ellipsoid_support.h"
#include "shape/shape.h"

static inline bool cg2_sphere_ellipsoid(const grit_scene *s, int a, int b, grit_vec3 shift, bool real,
                                        const grit_l6geom *prev, grit_cg2_out *o)
{
    const double r = s->b.pr[a].r;
    grit_vec3 sb = s->ellipsoids[s->b.sidx[b]].semi;
    grit_vec3 xa = s->b.pr[a].pos, xb = v3_add(s->b.pr[b].pos, shift);
    double reach = r + fmax(sb.x, fmax(sb.y, sb.z));
    if (!real && v3_norm2(v3_sub(xb, xa)) > reach * reach) return false;
    pw_sym P = {r * r, r * r, r * r, 0, 0, 0}, Q = pw_inverse_form(s->b.ori[b], sb);
    if (s->def.woo_geom) return pw_contact(s, a, b, xa, xb, &P, &Q, reach, real, prev, o);
    grit_mat3 MA = {{v3(r, 0, 0), v3(0, r, 0), v3(0, 0, r)}}, MB = grit_ellipsoid_matrix(s, b);
    return es_contact(s, a, b, xa, xb, &MA, &MB, &P, &Q, reach, real, prev, o);
}

#endif
