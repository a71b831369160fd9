/* grit internal: small geometric building blocks of the Cg2 functors --
 * closest points on segments and between segments, the node triples of the
 * relative velocity, the sense of a two-sided wall.
 *
 * Relative velocity (spec 1.6) needs, for each side, a point with the
 * velocity and angular velocity of the body there. Every grit particle is a
 * rigid single-node body (facets and rods included), so the functors pass
 * the node itself: x, v, w of particle A and of particle B (+ shift); the
 * frame update then evaluates v + w x (c - x), the exact rigid-body velocity
 * at the contact point. The contact loop also takes B's lever arm from x2,
 * which must therefore be B's node. */
#ifndef GRIT_CG2_GEOM_H
#define GRIT_CG2_GEOM_H

#include "cg2/cg2.h"

static inline void cg2_nodes(const grit_scene *s, int a, int b, grit_vec3 xb, grit_cg2_out *o)
{
    const grit_velw va = s->b.vw[a], vb = s->b.vw[b];
    o->x1 = s->b.pr[a].pos;
    o->v1 = va.v;
    o->w1 = va.w;
    o->x2 = xb;
    o->v2 = vb.v;
    o->w2 = vb.w;
}

/* Closest point of segment PQ to y (P for a zero-length segment). */
static inline grit_vec3 seg_closest(grit_vec3 P, grit_vec3 Q, grit_vec3 y)
{
    grit_vec3 d = v3_sub(Q, P);
    double dd = v3_norm2(d);
    if (!(dd > 0)) return P;
    return v3_madd(P, clamp(v3_dot(v3_sub(y, P), d) / dd, 0.0, 1.0), d);
}

/* Closest point to y of the segment c + s u, |s| <= e (u unit or zero).
 * Returns s. */
static inline double seg_closest_param(grit_vec3 c, grit_vec3 u, double e, grit_vec3 y)
{
    return clamp(v3_dot(v3_sub(y, c), u), -e, e);
}

/* Closest points of two segments in centre / unit direction / half-length
 * form: P = c0 + s u0 (|s| <= e0), Q = c1 + t u1 (|t| <= e1); a zero-length
 * segment has e = 0. For parallel segments the pair is not unique: s is the
 * middle of the part of segment 0 facing segment 1 (or its end nearest to
 * segment 1), so that the choice moves continuously as they slide. */
static inline void seg_seg_closest(grit_vec3 c0, grit_vec3 u0, double e0, grit_vec3 c1, grit_vec3 u1, double e1,
                                   double *ps, double *pt)
{
    grit_vec3 r = v3_sub(c0, c1);
    double b = v3_dot(u0, u1), d = v3_dot(u0, r), f = v3_dot(u1, r);
    double s, t;
    if (e0 == 0 && e1 == 0) {
        s = t = 0;
    } else if (e0 == 0) {
        s = 0;
        t = clamp(f, -e1, e1);
    } else if (e1 == 0) {
        t = 0;
        s = clamp(-d, -e0, e0);
    } else {
        double den = 1.0 - b * b;
        if (den > 1e-12) {
            s = clamp((b * f - d) / den, -e0, e0);
        } else {
            /* parallel: segment 1's ends map to s = b t - d on segment 0 */
            double s1 = -b * e1 - d, s2 = b * e1 - d;
            double lo = fmax(fmin(s1, s2), -e0), hi = fmin(fmax(s1, s2), e0);
            if (lo <= hi) s = 0.5 * (lo + hi);
            else s = fmax(s1, s2) < -e0 ? -e0 : e0;
        }
        t = b * s + f;
        if (t < -e1 || t > e1) {
            t = clamp(t, -e1, e1);
            s = clamp(b * t - d, -e0, e0);
        }
    }
    *ps = s;
    *pt = t;
}

/* Sense of a wall contact: the wall's own sense if one-sided; for a
 * two-sided wall the side of the approaching body when the contact is new,
 * and the previous normal's sense afterwards (it never flips). */
static inline double wall_sense(int sense, int axis, bool real, const grit_l6geom *prev, double delta)
{
    if (sense != 0) return sense;
    if (real) return v3_get(prev->ex, axis) > 0 ? 1.0 : -1.0;
    return delta > 0 ? 1.0 : -1.0;
}

/* Smooth minimum of two gaps u0, u1 over the width `delta` (> 0):
 *   f = min(u0, u1) - delta h^3 / 6,  h = max(0, 1 - |u0 - u1| / delta),
 * twice continuously differentiable, equal to the minimum once the gaps
 * differ by delta or more, delta / 6 below it when they are equal. Its
 * partial derivatives are returned in w[2]; they are >= 0 and sum to 1, so
 * that shifting both gaps by t shifts f by t. That makes a single contact
 * with gap f, normal force k f along a common normal n, applied at
 * w0 P0 + w1 P1 (P_i: the points where the gaps u_i are measured), exactly
 * the gradient of the stored energy k f^2 / 2 (docs/shapes.md, "two ends"). */
static inline double smin2(double u0, double u1, double delta, double w[2])
{
    const double lo = fmin(u0, u1), h = fmax(0.0, 1.0 - fabs(u0 - u1) / delta);
    const double wo = 0.5 * h * h; /* weight of the larger gap */
    w[0] = u0 <= u1 ? 1.0 - wo : wo;
    w[1] = 1.0 - w[0];
    return lo - delta * h * h * h / 6.0;
}

/* Smoothing widths (relative to the radius) of the end gaps of capsules
 * (smin2; docs/shapes.md, "a capsule's two ends"). Against a wall or a
 * facet: a capsule lying flat rests r / 48 higher than its geometry says,
 * and rocking it by an end height difference of r / 8 moves the contact
 * point from the middle to the lower end. Capsule-capsule (min of the two
 * radii): narrower, because its four end gaps have directions that differ
 * when the capsules are not parallel, and a blend of differing directions
 * is conservative only to first order (measured: r / 8 let an L-shaped
 * contact gain 0.4 % of the energy, r / 16 keeps it below 1e-4). */
#ifndef GRIT_CAPSULE_SMOOTH
#define GRIT_CAPSULE_SMOOTH 0.125
#endif
#ifndef GRIT_CC_SMOOTH
#define GRIT_CC_SMOOTH 0.0625
#endif

/* A unit vector perpendicular to global axis `ax` (fallback normals). */
static inline grit_vec3 perp_unit(int ax) { return v3_unit((ax + 1) % 3); }

/* A unit vector perpendicular to both a and b (to a alone if parallel). */
static inline grit_vec3 any_perp2(grit_vec3 a, grit_vec3 b)
{
    grit_vec3 c = v3_cross(a, b);
    if (v3_norm2(c) > 1e-24) return v3_normalized(c);
    c = v3_cross(a, fabs(a.x) < 0.9 ? v3(1, 0, 0) : v3(0, 1, 0));
    return v3_normalized(c);
}

#endif
