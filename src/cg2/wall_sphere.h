/* grit internal: Cg2_Wall_Sphere_L6Geom (spec 2.4 (3)). A = wall, B = sphere. */
#ifndef GRIT_CG2_WALL_SPHERE_H
#define GRIT_CG2_WALL_SPHERE_H

#include "cg2/cg2.h"

static inline bool cg2_wall_sphere(const grit_scene *s, int a, int b, grit_vec3 shift, bool real,
                                   const grit_l6geom *prev, grit_cg2_out *o)
{
    const grit_wall_data *w = &s->walls[s->b.sidx[a]];
    const int ax = w->axis;
    const grit_posr pb = s->b.pr[b];
    grit_vec3 xa = s->b.pr[a].pos, xb = v3_add(pb.pos, shift);
    double wa = v3_get(xa, ax);
    double delta = v3_get(xb, ax) - wa;
    if (!real && fabs(delta) > pb.r) return false;
    double nu;
    if (w->sense != 0) nu = w->sense;
    else if (real) nu = v3_get(prev->ex, ax) > 0 ? 1.0 : -1.0; /* never flips once created */
    else nu = delta > 0 ? 1.0 : -1.0;
    o->n = v3_scale(v3_unit(ax), nu);
    o->uN = nu * delta - pb.r;
    o->c = xb;
    v3_set(&o->c, ax, wa);
    const grit_velw va = s->b.vw[a], vb = s->b.vw[b];
    o->x1 = xa;
    o->v1 = va.v;
    o->w1 = va.w;
    o->x2 = xb;
    o->v2 = vb.v;
    o->w2 = vb.w;
    o->r1 = -pb.r;
    o->r2 = pb.r;
    return true;
}

#endif
