/* grit internal: Cg2_Sphere_Capsule_L6Geom (spec 2.4 (14)). A = sphere,
 * B = capsule: the normal points from the sphere to the capsule. */
#ifndef GRIT_CG2_SPHERE_CAPSULE_H
#define GRIT_CG2_SPHERE_CAPSULE_H

#include "cg2/geom.h"
#include "shape/shape.h"

static inline bool cg2_sphere_capsule(const grit_scene *s, int a, int b, grit_vec3 shift, bool real,
                                      const grit_l6geom *prev, grit_cg2_out *o)
{
    const grit_posr pa = s->b.pr[a], pb = s->b.pr[b];
    const double rr = pa.r + pb.r, h = grit_capsule_half(s, b);
    grit_vec3 xb = v3_add(pb.pos, shift);
    /* cheap reject on the centre distance (Woo's minDist00Sq) */
    if (!real && v3_norm2(v3_sub(xb, pa.pos)) > sq(rr + h)) return false;
    grit_vec3 u = grit_capsule_axis(s, b);
    grit_vec3 q = v3_madd(xb, seg_closest_param(xb, u, h, pa.pos), u);
    grit_vec3 d = v3_sub(q, pa.pos);
    double d2 = v3_norm2(d);
    if (!real && d2 > rr * rr) return false;
    double dist = sqrt(d2);
    o->n = dist > 0 ? v3_scale(d, 1.0 / dist) : (real ? prev->ex : v3(1, 0, 0));
    o->uN = dist - rr;
    o->c = v3_madd(pa.pos, pa.r + 0.5 * o->uN, o->n);
    cg2_nodes(s, a, b, xb, o);
    o->r1 = pa.r;
    o->r2 = pb.r;
    return true;
}

#endif
