/* grit internal: Cg2_Wall_Capsule_L6Geom (spec 2.4 (10)). A = wall,
 * B = capsule. The gap is a weighted mean of the two end gaps (not the
 * deepest one) so that it varies continuously as the capsule tilts. */
#ifndef GRIT_CG2_WALL_CAPSULE_H
#define GRIT_CG2_WALL_CAPSULE_H

#include "cg2/geom.h"
#include "shape/shape.h"

static inline bool cg2_wall_capsule(const grit_scene *s, int a, int b, grit_vec3 shift, bool real,
                                    const grit_l6geom *prev, grit_cg2_out *o)
{
    const grit_wall_data *w = &s->walls[s->b.sidx[a]];
    const int ax = w->axis;
    const double r = s->b.pr[b].r;
    grit_vec3 xa = s->b.pr[a].pos, xb = v3_add(s->b.pr[b].pos, shift);
    grit_vec3 hv = v3_scale(grit_capsule_axis(s, b), grit_capsule_half(s, b));
    grit_vec3 P[2] = {v3_sub(xb, hv), v3_add(xb, hv)};
    const double wa = v3_get(xa, ax);
    double d0 = v3_get(P[0], ax) - wa, d1 = v3_get(P[1], ax) - wa;
    if (!real && fabs(d0) > r && fabs(d1) > r) return false;
    double nu = wall_sense(w->sense, ax, real, prev, v3_get(xb, ax) - wa);
    double u0 = nu * d0 - r, u1 = nu * d1 - r;
    if (u0 * u1 < 0) { /* one end overlaps: it takes all */
        o->c = u0 < 0 ? P[0] : P[1];
        o->uN = u0 < 0 ? u0 : u1;
    } else if (u0 + u1 != 0) {
        double w0 = u0 / (u0 + u1), w1 = u1 / (u0 + u1);
        if (u0 > 0) { /* neither overlaps: the nearer end weighs more */
            double t = w0;
            w0 = w1;
            w1 = t;
        }
        o->c = v3_add(v3_scale(P[0], w0), v3_scale(P[1], w1));
        o->uN = w0 * u0 + w1 * u1;
    } else {
        o->c = xb;
        o->uN = 0;
    }
    v3_set(&o->c, ax, wa);
    o->n = v3_scale(v3_unit(ax), nu);
    cg2_nodes(s, a, b, xb, o);
    o->r1 = -r;
    o->r2 = r;
    return true;
}

#endif
