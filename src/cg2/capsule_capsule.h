/* grit internal: Cg2_Capsule_Capsule_L6Geom (spec 2.4 (11)). A, B = capsules.
 *
 * With woo_geom (the spec): normal and gap from the closest points of the
 * two segments; the contact point moves from the crossing configuration
 * (middle of the overlap at the closest points) to side-by-side ones
 * (weighted mean of the points between each overlapping end and the other
 * axis), so that parallel capsules are pushed apart without a spurious
 * torque -- but off the line of the closest points, so that the force is not
 * the gradient of the stored energy.
 *
 * By default (docs/shapes.md, "a capsule's two ends"): the gap is the smooth
 * minimum (smin2 of pairs, width min(r1, r2) / 16) of the four end gaps --
 * each end against the other segment -- or the gap of the two interior
 * closest points of crossing segments where that is smaller; normal and
 * contact point are the matching weighted means. The force is then the
 * gradient of the stored energy whenever the end directions agree
 * (parallel capsules), and the contact point still moves smoothly from one
 * end to the other as side-by-side capsules rock. */
#ifndef GRIT_CG2_CAPSULE_CAPSULE_H
#define GRIT_CG2_CAPSULE_CAPSULE_H

#include "cg2/geom.h"
#include "shape/shape.h"

/* The conservative version (see above); x, u, e: centres, axes, half
 * shafts of A and B. */
static inline bool capsule_capsule_smooth(const grit_scene *s, int a, int b, const grit_vec3 x[2], const grit_vec3 u[2],
                                          const double e[2], bool real, const grit_l6geom *prev, grit_cg2_out *o)
{
    const double r1 = s->b.pr[a].r, r2 = s->b.pr[b].r, rr = r1 + r2;
    const double delta = GRIT_CC_SMOOTH * fmin(r1, r2);
    /* ends k = 0, 1 of A against B's segment, k = 2, 3 of B against A's:
     * the points pa on A and pb on B, their distance */
    grit_vec3 pa[4], pb[4];
    double gap[4];
    for (int k = 0; k < 4; k++) {
        const int own = k / 2, other = 1 - own;
        grit_vec3 E = v3_madd(x[own], k % 2 ? e[own] : -e[own], u[own]);
        grit_vec3 Q = v3_madd(x[other], seg_closest_param(x[other], u[other], e[other], E), u[other]);
        pa[k] = own == 0 ? E : Q;
        pb[k] = own == 0 ? Q : E;
        gap[k] = v3_norm(v3_sub(pb[k], pa[k])) - rr;
    }
    /* a capsule without shaft has one end, not two equal ones */
    double wa[2] = {1, 0}, wb[2] = {1, 0}, wf[2];
    const double fa = e[0] > 0 ? smin2(gap[0], gap[1], delta, wa) : gap[0];
    const double fb = e[1] > 0 ? smin2(gap[2], gap[3], delta, wb) : gap[2];
    const double f = smin2(fa, fb, delta, wf);
    /* crossing segments: the interior closest points, where their gap is
     * below the ends' (at the edge of the interior it equals an end gap,
     * which the smooth minimum undercuts, so the choice is continuous) */
    double ps, pt;
    seg_seg_closest(x[0], u[0], e[0], x[1], u[1], e[1], &ps, &pt);
    if (fabs(ps) < e[0] && fabs(pt) < e[1]) {
        grit_vec3 p1 = v3_madd(x[0], ps, u[0]), p2 = v3_madd(x[1], pt, u[1]);
        grit_vec3 d = v3_sub(p2, p1);
        const double D = v3_norm(d);
        if (D - rr < f) {
            if (!real && D - rr > 0) return false;
            o->n = D > 0 ? v3_scale(d, 1.0 / D) : (real ? prev->ex : any_perp2(u[0], u[1]));
            o->uN = D - rr;
            o->c = v3_madd(p1, r1 + 0.5 * o->uN, o->n);
            return true;
        }
    }
    if (!real && f > 0) return false;
    const double w[4] = {wf[0] * wa[0], wf[0] * wa[1], wf[1] * wb[0], wf[1] * wb[1]};
    grit_vec3 dir = v3_zero(), foot = v3_zero();
    for (int k = 0; k < 4; k++) {
        if (w[k] == 0) continue;
        grit_vec3 d = v3_sub(pb[k], pa[k]);
        const double dn = v3_norm(d);
        /* axes touching: keep the previous normal, else the common normal */
        grit_vec3 nk = dn > 0 ? v3_scale(d, 1.0 / dn) : (real ? prev->ex : any_perp2(u[0], u[1]));
        dir = v3_madd(dir, w[k], nk);
        foot = v3_madd(foot, w[k], pa[k]);
    }
    const double dl = v3_norm(dir);
    o->n = dl > 0 ? v3_scale(dir, 1.0 / dl) : (real ? prev->ex : any_perp2(u[0], u[1]));
    o->uN = f;
    o->c = v3_madd(foot, r1 + 0.5 * f, o->n);
    return true;
}

static inline bool cg2_capsule_capsule(const grit_scene *s, int a, int b, grit_vec3 shift, bool real,
                                       const grit_l6geom *prev, grit_cg2_out *o)
{
    const double r1 = s->b.pr[a].r, r2 = s->b.pr[b].r, rr = r1 + r2;
    const double e[2] = {grit_capsule_half(s, a), grit_capsule_half(s, b)};
    grit_vec3 x[2] = {s->b.pr[a].pos, v3_add(s->b.pr[b].pos, shift)};
    /* the smooth gap (below) is at most min(r1, r2) / 32 below the true one */
    if (!real && v3_norm2(v3_sub(x[1], x[0])) > sq(rr + e[0] + e[1] + GRIT_CC_SMOOTH * fmin(r1, r2))) return false;
    grit_vec3 u[2] = {grit_capsule_axis(s, a), grit_capsule_axis(s, b)};
    if (!s->def.woo_geom) {
        if (!capsule_capsule_smooth(s, a, b, x, u, e, real, prev, o)) return false;
        cg2_nodes(s, a, b, x[1], o);
        o->r1 = r1;
        o->r2 = r2;
        return true;
    }
    double ps, pt;
    seg_seg_closest(x[0], u[0], e[0], x[1], u[1], e[1], &ps, &pt);
    grit_vec3 p1 = v3_madd(x[0], ps, u[0]), p2 = v3_madd(x[1], pt, u[1]);
    grit_vec3 d = v3_sub(p2, p1);
    double D2 = v3_norm2(d);
    if (!real && D2 > rr * rr) return false;
    double D = sqrt(D2);
    /* axes intersecting: keep the previous normal, else the common normal */
    o->n = D > 0 ? v3_scale(d, 1.0 / D) : (real ? prev->ex : any_perp2(u[0], u[1]));
    o->uN = D - rr;
    /* ends of each capsule against the other segment */
    grit_vec3 Y[4];
    double wgt[4];
    int mask = 0, no = 0;
    for (int k = 0; k < 2; k++) {
        const double phi = k == 0 ? r2 / rr : r1 / rr;
        const int other = 1 - k;
        for (int q = 0; q < 2; q++) {
            grit_vec3 E = v3_madd(x[k], q ? e[k] : -e[k], u[k]);
            grit_vec3 Q = v3_madd(x[other], seg_closest_param(x[other], u[other], e[other], E), u[other]);
            double delta = v3_norm(v3_sub(E, Q));
            int bit = 2 * k + q;
            Y[bit] = v3_madd(Q, phi, v3_sub(E, Q));
            wgt[bit] = rr - delta;
            if (delta < rr) {
                mask |= 1 << bit;
                no++;
            }
        }
    }
    if (no < 2) {
        o->c = v3_madd(p1, r1 + 0.5 * o->uN, o->n);
    } else if (no == 4) {
        grit_vec3 c = v3_zero();
        double sw = 0;
        for (int k = 0; k < 4; k++) {
            c = v3_madd(c, wgt[k], Y[k]);
            sw += wgt[k];
        }
        o->c = v3_scale(c, 1.0 / sw);
    } else {
        /* two or three ends overlap: the pair of ends that spans the
         * overlap (spec's table, indexed by the mask of overlapping ends) */
        static const int8_t pick[16][2] = {
            [3] = {0, 1}, [5] = {0, 2}, [6] = {1, 2}, [7] = {0, 1}, [9] = {0, 3},
            [10] = {1, 3}, [11] = {0, 1}, [12] = {2, 3}, [13] = {2, 3}, [14] = {2, 3},
        };
        int i = pick[mask][0], j = pick[mask][1];
        o->c = v3_scale(v3_add(v3_scale(Y[i], wgt[i]), v3_scale(Y[j], wgt[j])), 1.0 / (wgt[i] + wgt[j]));
    }
    cg2_nodes(s, a, b, x[1], o);
    o->r1 = r1;
    o->r2 = r2;
    return true;
}

#endif
