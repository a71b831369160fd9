/* grit internal: exact distances to an ellipsoid, for grit's extension
 * functors Facet-Ellipsoid and Capsule-Ellipsoid (not among Woo's sixteen).
 *
 * Signed distance of a point y to the ellipsoid (semi-axes a in the body
 * frame): the nearest surface point is x_i = a_i^2 y_i / (a_i^2 + t) (body
 * axes), with t the root in (-a_min^2, inf) of
 *   f(t) = sum a_i^2 y_i^2 / (a_i^2 + t)^2 - 1,
 * which is convex and decreasing there; t > 0 outside, t < 0 inside.
 * Newton's method started where f <= 0 descends monotonically onto it.
 * The signed distance of a convex body is a convex function, so along a
 * segment its minimum is where the derivative u.n(s) changes sign (n: the
 * outward normal at the nearest point). The contacts
 * built on these are exact: gap, common normal and contact point on it. */
#ifndef GRIT_CG2_ELLIPSOID_DISTANCE_H
#define GRIT_CG2_ELLIPSOID_DISTANCE_H

#include "cg2/geom.h"

typedef struct ell {
    grit_quat q;
    grit_vec3 a, c;
} ell;

static inline ell ell_of(const grit_scene *s, int i, grit_vec3 shift)
{
    return (ell){s->b.ori[i], s->ellipsoids[s->b.sidx[i]].semi, v3_add(s->b.pr[i].pos, shift)};
}
static inline double ell_max(const ell *e) { return fmax(e->a.x, fmax(e->a.y, e->a.z)); }
static inline double ell_min(const ell *e) { return fmin(e->a.x, fmin(e->a.y, e->a.z)); }

/* Signed distance of y; *x: nearest surface point, *nout: outward unit
 * normal there (global). */
static inline double ell_point(const ell *e, grit_vec3 y, grit_vec3 *x, grit_vec3 *nout)
{
    grit_vec3 yl = q_unrotate(e->q, v3_sub(y, e->c));
    const double a[3] = {e->a.x, e->a.y, e->a.z}, p[3] = {yl.x, yl.y, yl.z};
    double a2[3], amin2 = INFINITY, ymax = 0;
    for (int i = 0; i < 3; i++) {
        a2[i] = a[i] * a[i];
        amin2 = fmin(amin2, a2[i]);
        ymax = fmax(ymax, fabs(p[i]));
    }
    if (ymax == 0) { /* the centre: nearest point at the end of the shortest axis */
        int k = a2[0] == amin2 ? 0 : (a2[1] == amin2 ? 1 : 2);
        grit_vec3 u = v3_unit(k);
        *nout = q_rotate(e->q, u);
        *x = v3_madd(e->c, a[k], *nout);
        return -a[k];
    }
    double t = sqrt(3.0) * ymax * sqrt(fmax(a2[0], fmax(a2[1], a2[2]))); /* f(t) <= 0 here */
    for (int it = 0; it < 100; it++) {
        double f = -1, df = 0;
        for (int i = 0; i < 3; i++) {
            double r = a[i] * p[i] / (a2[i] + t);
            f += r * r;
            df -= 2 * r * r / (a2[i] + t);
        }
        if (!(df < 0)) break;
        double tn = t - f / df;
        if (tn <= -amin2) tn = 0.5 * (t - amin2); /* stay in the domain (degenerate y) */
        if (fabs(tn - t) <= 1e-15 * (fabs(t) + amin2)) {
            t = tn;
            break;
        }
        t = tn;
    }
    double xl[3], g[3];
    for (int i = 0; i < 3; i++) {
        xl[i] = a2[i] * p[i] / (a2[i] + t);
        g[i] = xl[i] / a2[i];
    }
    *x = v3_add(e->c, q_rotate(e->q, v3(xl[0], xl[1], xl[2])));
    *nout = q_rotate(e->q, v3_normalized(v3(g[0], g[1], g[2])));
    double d = sqrt(sq(p[0] - xl[0]) + sq(p[1] - xl[1]) + sq(p[2] - xl[2]));
    return t >= 0 ? d : -d;
}

/* Point of segment c + s u (|s| <= h, u unit) nearest to the ellipsoid:
 * returns the signed distance, the point *q, nearest surface point *x and
 * outward normal *nout. The derivative u.n(s) increases with s; its root is
 * bracketed and found by false position (Illinois). */
static inline double ell_segment(const ell *e, grit_vec3 c, grit_vec3 u, double h, grit_vec3 *q, grit_vec3 *x,
                                 grit_vec3 *nout)
{
    double s = 0;
    if (h > 0) {
        grit_vec3 xx, nn;
        double lo = -h, hi = h;
        ell_point(e, v3_madd(c, lo, u), &xx, &nn);
        double glo = v3_dot(u, nn);
        ell_point(e, v3_madd(c, hi, u), &xx, &nn);
        double ghi = v3_dot(u, nn);
        if (glo >= 0) s = lo; /* the distance grows along the whole segment */
        else if (ghi <= 0) s = hi;
        else {
            int side = 0;
            double sprev = INFINITY;
            for (int it = 0; it < 100 && hi - lo > 1e-15 * h; it++) {
                s = (lo * ghi - hi * glo) / (ghi - glo);
                if (!(s > lo && s < hi)) s = 0.5 * (lo + hi);
                if (fabs(s - sprev) <= 1e-15 * h) break;
                sprev = s;
                ell_point(e, v3_madd(c, s, u), &xx, &nn);
                double g = v3_dot(u, nn);
                if (g == 0) break;
                if (g < 0) {
                    lo = s;
                    glo = g;
                    if (side == -1) ghi *= 0.5;
                    side = -1;
                } else {
                    hi = s;
                    ghi = g;
                    if (side == 1) glo *= 0.5;
                    side = 1;
                }
            }
        }
    }
    *q = v3_madd(c, s, u);
    return ell_point(e, *q, x, nout);
}

#endif
