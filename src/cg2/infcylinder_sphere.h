/* grit internal: Cg2_InfCylinder_Sphere_L6Geom (spec 2.4 (4)). A = infinite
 * cylinder, B = sphere. */
#ifndef GRIT_CG2_INFCYLINDER_SPHERE_H
#define GRIT_CG2_INFCYLINDER_SPHERE_H

#include "cg2/geom.h"

static inline bool cg2_infcylinder_sphere(const grit_scene *s, int a, int b, grit_vec3 shift, bool real,
                                          const grit_l6geom *prev, grit_cg2_out *o)
{
    const grit_posr pa = s->b.pr[a], pb = s->b.pr[b];
    const int ax = s->infcyls[s->b.sidx[a]].axis;
    grit_vec3 xb = v3_add(pb.pos, shift);
    grit_vec3 d = v3_sub(xb, pa.pos);
    v3_set(&d, ax, 0.0);
    double rr = pa.r + pb.r, d2 = v3_norm2(d);
    if (!real && d2 > rr * rr) return false;
    double dist = sqrt(d2);
    /* sphere centre on the axis (Woo: an error): keep the previous normal */
    o->n = dist > 0 ? v3_scale(d, 1.0 / dist) : (real ? prev->ex : perp_unit(ax));
    o->uN = dist - rr;
    grit_vec3 xa = pa.pos;
    v3_set(&xa, ax, v3_get(xb, ax));
    o->c = v3_madd(xa, pa.r + 0.5 * o->uN, o->n);
    cg2_nodes(s, a, b, xb, o);
    o->r1 = pa.r;
    o->r2 = pb.r;
    return true;
}

#endif
