/* grit internal: Cg2_Wall_Capsule_L6Geom (spec 2.4 (10)). A = wall,
 * B = capsule.
 *
 * By default (docs/shapes.md, "a capsule's two ends") the gap is the smooth
 * minimum of the two end gaps (smin2, width r / 8) and the contact point the
 * matching weighted mean of the ends, so that the contact force is the
 * gradient of the energy the law stores, k_n u_N^2 / 2, also when both ends
 * overlap. With woo_geom, the spec's rule: one overlapping end takes all,
 * two overlapping ends give the weighted mean (u0^2 + u1^2) / (u0 + u1) of
 * their gaps, which varies continuously as the capsule tilts but is not a
 * potential: a capsule bouncing flat on a wall gains or loses a few % of its
 * energy per bounce at any time step. */
#ifndef GRIT_CG2_WALL_CAPSULE_H
#define GRIT_CG2_WALL_CAPSULE_H

#include "cg2/geom.h"
#include "shape/shape.h"

/* The spec's combination of the end gaps u[2] at the ends P[2]. */
static inline void wall_capsule_woo(const double u[2], const grit_vec3 P[2], grit_cg2_out *o)
{
    const double u0 = u[0], u1 = u[1];
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
        o->c = v3_scale(v3_add(P[0], P[1]), 0.5);
        o->uN = 0;
    }
}

static inline bool cg2_wall_capsule(const grit_scene *s, int a, int b, grit_vec3 shift, bool real,
                                    const grit_l6geom *prev, grit_cg2_out *o)
{
    const grit_wall_data *w = &s->walls[s->b.sidx[a]];
    const int ax = w->axis;
    const double r = s->b.pr[b].r, delta = s->def.woo_geom ? 0.0 : GRIT_CAPSULE_SMOOTH * r;
    grit_vec3 xa = s->b.pr[a].pos, xb = v3_add(s->b.pr[b].pos, shift);
    grit_vec3 hv = v3_scale(grit_capsule_axis(s, b), grit_capsule_half(s, b));
    grit_vec3 P[2] = {v3_sub(xb, hv), v3_add(xb, hv)};
    const double wa = v3_get(xa, ax);
    double d0 = v3_get(P[0], ax) - wa, d1 = v3_get(P[1], ax) - wa;
    /* the smooth minimum is at most delta / 6 below the smaller gap */
    if (!real && fabs(d0) > r + delta && fabs(d1) > r + delta) return false;
    double nu = wall_sense(w->sense, ax, real, prev, v3_get(xb, ax) - wa);
    const double u[2] = {nu * d0 - r, nu * d1 - r};
    if (s->def.woo_geom) {
        wall_capsule_woo(u, P, o);
    } else {
        double wt[2];
        o->uN = smin2(u[0], u[1], delta, wt);
        if (!real && o->uN > 0) return false;
        o->c = v3_add(v3_scale(P[0], wt[0]), v3_scale(P[1], wt[1]));
    }
    v3_set(&o->c, ax, wa);
    o->n = v3_scale(v3_unit(ax), nu);
    cg2_nodes(s, a, b, xb, o);
    o->r1 = -r;
    o->r2 = r;
    return true;
}

#endif
