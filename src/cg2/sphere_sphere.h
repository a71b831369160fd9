/* grit internal: Cg2_Sphere_Sphere_L6Geom (docs/shapes.md). */
#ifndef GRIT_CG2_SPHERE_SPHERE_H
#define GRIT_CG2_SPHERE_SPHERE_H

#include "cg2/cg2.h"

static inline bool cg2_sphere_sphere(const grit_scene *s, int a, int b, grit_vec3 shift, bool real,
                                     const grit_l6geom *prev, grit_cg2_out *o)
{
    const grit_posr pa = s->b.pr[a], pb = s->b.pr[b];
    grit_vec3 xb = v3_add(pb.pos, shift);
    grit_vec3 d = v3_sub(xb, pa.pos);
    double rr = pa.r + pb.r, d2 = v3_norm2(d);
    /* a new contact up to interaction_radius (rA + rB) (Woo's distFactor),
     * a real one whatever the distance: only its law breaks it */
    if (!real) {
        const double reach = rr * s->def.interaction_radius;
        if (d2 > reach * reach) return false;
    }
    double dist = sqrt(d2);
    /* coincident centres: keep the previous normal, else an arbitrary one */
    o->n = dist > 0 ? v3_scale(d, 1.0 / dist) : (real ? prev->ex : v3(1, 0, 0));
    o->uN = dist - rr;
    o->c = v3_madd(pa.pos, pa.r + 0.5 * o->uN, o->n);
    const grit_velw va = s->b.vw[a], vb = s->b.vw[b];
    o->x1 = pa.pos;
    o->v1 = va.v;
    o->w1 = va.w;
    o->x2 = xb;
    o->v2 = vb.v;
    o->w2 = vb.w;
    o->r1 = pa.r;
    o->r2 = pb.r;
    return true;
}

#endif
