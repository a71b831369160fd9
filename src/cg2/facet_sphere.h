/* grit internal: Cg2_Facet_Sphere_L6Geom (spec 2.4 (2)). A = facet, B = sphere.
 * The facet is two-sided: the normal points from the facet to the sphere. */
#ifndef GRIT_CG2_FACET_SPHERE_H
#define GRIT_CG2_FACET_SPHERE_H

#include "cg2/cg2.h"
#include "shape/shape.h"

static inline bool cg2_facet_sphere(const grit_scene *s, int a, int b, grit_vec3 shift, bool real,
                                    const grit_l6geom *prev, grit_cg2_out *o)
{
    const grit_facet_data *f = &s->facets[s->b.sidx[a]];
    const grit_posr pb = s->b.pr[b];
    grit_vec3 p = v3_add(pb.pos, shift);
    double h = f->half_thick, reach = pb.r + h;
    if (!real && fabs(v3_dot(v3_sub(p, f->v[0]), f->normal)) > reach) return false;
    grit_vec3 q = grit_facet_nearest_point(f, p);
    grit_vec3 d = v3_sub(p, q);
    double d2 = v3_norm2(d);
    if (!real && d2 > reach * reach) return false;
    double dist = sqrt(d2);
    o->n = dist > 0 ? v3_scale(d, 1.0 / dist) : (real ? prev->ex : v3(1, 0, 0));
    o->c = v3_madd(q, h, o->n);
    o->uN = dist - reach;
    /* rigid facet: velocity of its material point at c */
    const grit_velw va = s->b.vw[a], vb = s->b.vw[b];
    o->x1 = o->c;
    o->v1 = v3_add(va.v, v3_cross(va.w, v3_sub(o->c, s->b.pr[a].pos)));
    o->w1 = va.w;
    o->x2 = p;
    o->v2 = vb.v;
    o->w2 = vb.w;
    o->r1 = fmax(h, pb.r);
    o->r2 = pb.r;
    return true;
}

#endif
