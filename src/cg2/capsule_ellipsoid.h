/* grit internal: Cg2_Capsule_Ellipsoid_L6Geom -- a grit extension (not
 * among Woo's sixteen: capsules and ellipsoids pass through each other
 * there). A = capsule, B = ellipsoid. Exact (ellipsoid_distance.h): the
 * point of the capsule's axis nearest to the ellipsoid, the gap is its
 * signed distance minus the capsule radius, the normal the ellipsoid's
 * normal there, the contact point the middle of the overlap. Effective
 * lengths (r, rho): the capsule's radius and the ellipsoid's centre-contact
 * point distance (spec 2.5, rule 1). */
#ifndef GRIT_CG2_CAPSULE_ELLIPSOID_H
#define GRIT_CG2_CAPSULE_ELLIPSOID_H

#include "cg2/ellipsoid_distance.h"
#include "shape/shape.h"

static inline bool cg2_capsule_ellipsoid(const grit_scene *s, int a, int b, grit_vec3 shift, bool real,
                                         const grit_l6geom *prev, grit_cg2_out *o)
{
    (void)prev;
    const double r = s->b.pr[a].r, half = grit_capsule_half(s, a);
    ell e = ell_of(s, b, shift);
    grit_vec3 xa = s->b.pr[a].pos;
    if (!real && v3_norm2(v3_sub(e.c, xa)) > sq(r + half + ell_max(&e))) return false;
    grit_vec3 u = grit_capsule_axis(s, a);
    if (!real && v3_norm2(v3_sub(e.c, v3_madd(xa, seg_closest_param(xa, u, half, e.c), u))) > sq(r + ell_max(&e)))
        return false;
    grit_vec3 q, x, nout;
    double d = ell_segment(&e, xa, u, half, &q, &x, &nout);
    o->uN = d - r;
    if (!real && o->uN > 0) return false;
    o->n = v3_neg(nout);
    o->c = v3_madd(x, -0.5 * o->uN, o->n);
    cg2_nodes(s, a, b, e.c, o);
    o->r1 = r;
    o->r2 = v3_norm(v3_sub(o->c, e.c));
    return true;
}

#endif
