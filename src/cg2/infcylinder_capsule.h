/* grit internal: Cg2_InfCylinder_Capsule_L6Geom (spec 2.4 (12)). A = infinite
 * cylinder, B = capsule. Distance of the cylinder axis to the capsule
 * segment, computed in the plane normal to the cylinder axis. */
#ifndef GRIT_CG2_INFCYLINDER_CAPSULE_H
#define GRIT_CG2_INFCYLINDER_CAPSULE_H

#include "cg2/geom.h"
#include "shape/shape.h"

static inline bool cg2_infcylinder_capsule(const grit_scene *s, int a, int b, grit_vec3 shift, bool real,
                                           const grit_l6geom *prev, grit_cg2_out *o)
{
    const int ax = s->infcyls[s->b.sidx[a]].axis;
    const double R = s->b.pr[a].r, r = s->b.pr[b].r, rr = R + r;
    grit_vec3 xa = s->b.pr[a].pos, xb = v3_add(s->b.pr[b].pos, shift);
    grit_vec3 h = v3_scale(grit_capsule_axis(s, b), grit_capsule_half(s, b));
    /* 3-D vectors with the axis component zeroed = the 2-D projections */
    grit_vec3 h2 = h, CP = v3_sub(xa, xb);
    v3_set(&h2, ax, 0.0);
    v3_set(&CP, ax, 0.0);
    double hh = v3_norm2(h2);
    /* capsule parallel to the axis: any t; Woo divides by zero */
    double t = hh > 0 ? clamp(v3_dot(h2, CP) / hh, -1.0, 1.0) : 0.0;
    grit_vec3 d2 = v3_sub(v3_scale(h2, t), CP); /* P + t h2 - C */
    double dd = v3_norm2(d2);
    if (!real && dd > rr * rr) return false;
    double dist = sqrt(dd);
    o->n = dist > 0 ? v3_scale(d2, 1.0 / dist) : (real ? prev->ex : perp_unit(ax));
    o->uN = dist - rr;
    grit_vec3 c = xa;
    v3_set(&c, ax, v3_get(v3_madd(xb, t, h), ax));
    o->c = v3_madd(c, R + 0.5 * o->uN, o->n);
    cg2_nodes(s, a, b, xb, o);
    o->r1 = R;
    o->r2 = r;
    return true;
}

#endif
