/* grit internal: Cg2_Rod_Sphere_L6Geom (spec 2.4 (9)). A = rod, B = sphere.
 * The distance uses the shifted sphere centre (Woo omits the periodic shift
 * there: [Woo quirk], corrected). */
#ifndef GRIT_CG2_ROD_SPHERE_H
#define GRIT_CG2_ROD_SPHERE_H

#include "cg2/geom.h"

static inline bool cg2_rod_sphere(const grit_scene *s, int a, int b, grit_vec3 shift, bool real,
                                  const grit_l6geom *prev, grit_cg2_out *o)
{
    const grit_rod_data *rod = &s->rods[s->b.sidx[a]];
    const double R = s->b.pr[a].r, r = s->b.pr[b].r, rr = R + r;
    grit_vec3 xb = v3_add(s->b.pr[b].pos, shift);
    grit_vec3 q = seg_closest(rod->p[0], rod->p[1], xb);
    grit_vec3 d = v3_sub(xb, q);
    double d2 = v3_norm2(d);
    if (!real && d2 > rr * rr) return false;
    double dist = sqrt(d2);
    o->n = dist > 0 ? v3_scale(d, 1.0 / dist) : (real ? prev->ex : v3(1, 0, 0));
    o->uN = dist - rr;
    o->c = v3_madd(xb, -(r + 0.5 * o->uN), o->n);
    cg2_nodes(s, a, b, xb, o);
    o->r1 = R;
    o->r2 = r;
    return true;
}

#endif
