/* grit internal: the exact signed gap of two ellipsoids (a sphere is the
 * ellipsoid (r, r, r)) from their support functions -- grit's conservative
 * Ellipsoid-Ellipsoid and Sphere-Ellipsoid geometry (docs/shapes.md).
 *
 * With M = R diag(semi-axes) (body -> global), the support function of an
 * ellipsoid centred at 0 is h(n) = |M^T n|, reached at s(n) = M M^T n / h(n).
 * For centres xa, xb (D = xb - xa) the signed gap is
 *   g* = max over unit n of  g(n) = n.D - h_A(n) - h_B(-n):
 * the distance between the surfaces when apart, minus the penetration depth
 * (the shortest translation that separates them) when overlapping. At the
 * maximiser the support points pa = xa + s_A(n) and pb = xb - s_B(n) lie on
 * one line along n, pb - pa = g* n. By the envelope theorem the derivative
 * of g* is n for a translation of B and (pb - xb) x n, -(pa - xa) x n for
 * rotations of B and A, i.e. the force k_n g* n at a point of that line is
 * exactly the gradient of the stored energy k_n g*^2 / 2. The Perram-Wertheim
 * gap of the spec is right only to first order in the overlap, and its
 * contact force is not conservative.
 *
 * The maximiser is found by Newton's method on the unit sphere (a 2x2
 * system in the tangent plane, with backtracking), started from the previous
 * normal for an existing contact and from the Perram-Wertheim normal for a
 * new one, so that an overlapping pair follows one continuous branch. */
#ifndef GRIT_CG2_ELLIPSOID_SUPPORT_H
#define GRIT_CG2_ELLIPSOID_SUPPORT_H

#include "cg2/perram_wertheim.h"

typedef struct es_eval {
    double g;        /* g(n) */
    grit_vec3 grad;  /* gradient of g in R^3: pb - pa */
    grit_vec3 sa, sb; /* support offsets: pa = xa + sa, pb = xb - sb */
    double ha, hb;   /* support values */
} es_eval;

static inline grit_vec3 es_support(const grit_mat3 *M, grit_vec3 n, double *h)
{
    grit_vec3 t = m3_tmul(M, n);
    *h = v3_norm(t);
    return v3_scale(m3_mul(M, t), 1.0 / *h);
}

static inline es_eval es_evaluate(const grit_mat3 *MA, const grit_mat3 *MB, grit_vec3 D, grit_vec3 n)
{
    es_eval e;
    e.sa = es_support(MA, n, &e.ha);
    e.sb = es_support(MB, n, &e.hb);
    e.g = v3_dot(n, D) - e.ha - e.hb;
    e.grad = v3_sub(v3_sub(D, e.sa), e.sb);
    return e;
}

/* t^T K u for the Hessian of h at n: K = (M M^T - s s^T) / h. */
static inline double es_hess(const grit_mat3 *M, grit_vec3 s, double h, grit_vec3 t, grit_vec3 u)
{
    return (v3_dot(m3_tmul(M, t), m3_tmul(M, u)) - v3_dot(s, t) * v3_dot(s, u)) / h;
}

/* Maximise g over the unit sphere from n0; returns the final evaluation
 * and the maximiser in *n. */
static inline es_eval es_maximise(const grit_mat3 *MA, const grit_mat3 *MB, grit_vec3 D, grit_vec3 n0, grit_vec3 *n)
{
    grit_vec3 m = v3_normalized(n0);
    es_eval e = es_evaluate(MA, MB, D, m);
    /* length scale of the problem, for the stopping test */
    const double scale = e.ha + e.hb + v3_norm(D);
    for (int it = 0; it < 60; it++) {
        grit_vec3 t1 = any_perp2(m, m), t2 = v3_cross(m, t1);
        const double g1 = v3_dot(t1, e.grad), g2 = v3_dot(t2, e.grad);
        if (sqrt(g1 * g1 + g2 * g2) <= 1e-15 * scale) break;
        /* Riemannian Hessian: -(K_A + K_B) - g I on the tangent plane */
        const double h11 = -es_hess(MA, e.sa, e.ha, t1, t1) - es_hess(MB, e.sb, e.hb, t1, t1) - e.g;
        const double h22 = -es_hess(MA, e.sa, e.ha, t2, t2) - es_hess(MB, e.sb, e.hb, t2, t2) - e.g;
        const double h12 = -es_hess(MA, e.sa, e.ha, t1, t2) - es_hess(MB, e.sb, e.hb, t1, t2);
        const double det = h11 * h22 - h12 * h12;
        double x1, x2;
        if (h11 < 0 && det > 0) { /* concave here: the Newton step */
            x1 = -(h22 * g1 - h12 * g2) / det;
            x2 = -(h11 * g2 - h12 * g1) / det;
        } else { /* gradient ascent, scaled by the curvature's size */
            const double c = fabs(h11) + fabs(h22) + fabs(h12) + 1e-300;
            x1 = g1 / c;
            x2 = g2 / c;
        }
        /* at most a quarter turn, then backtrack until g does not decrease;
         * a small Newton step is taken as it is (near the maximum g is flat
         * to rounding, and the step still halves the tangential residual's
         * exponent) */
        const double len = sqrt(x1 * x1 + x2 * x2);
        if (len > 0.5) x1 *= 0.5 / len, x2 *= 0.5 / len;
        if (h11 < 0 && det > 0 && len < 1e-4) {
            grit_vec3 mn = v3_normalized(v3_madd(v3_madd(m, x1, t1), x2, t2));
            if (mn.x == m.x && mn.y == m.y && mn.z == m.z) break;
            m = mn;
            e = es_evaluate(MA, MB, D, m);
            continue;
        }
        bool moved = false;
        for (int k = 0; k < 40; k++) {
            grit_vec3 mn = v3_normalized(v3_madd(v3_madd(m, x1, t1), x2, t2));
            es_eval en = es_evaluate(MA, MB, D, mn);
            if (en.g >= e.g) {
                moved = !(mn.x == m.x && mn.y == m.y && mn.z == m.z);
                m = mn;
                e = en;
                break;
            }
            x1 *= 0.5;
            x2 *= 0.5;
        }
        if (!moved) break;
    }
    *n = m;
    return e;
}

/* The contact of two ellipsoids given by M_A, M_B (and their inverse forms
 * Pi, Qi for the Perram-Wertheim start) centred at xa, xb. */
static inline bool es_contact(const grit_scene *s, int a, int b, grit_vec3 xa, grit_vec3 xb, const grit_mat3 *MA,
                              const grit_mat3 *MB, const pw_sym *Pi, const pw_sym *Qi, double reach, bool real,
                              const grit_l6geom *prev, grit_cg2_out *o)
{
    grit_vec3 D = v3_sub(xb, xa), n0;
    if (real) {
        n0 = prev->ex;
    } else {
        const double dd = v3_norm2(D);
        if (dd > reach * reach || !(dd > 0)) return false;
        grit_vec3 m;
        double l = pw_maximise(Pi, Qi, D, &m);
        if (l * (1.0 - l) * v3_dot(D, m) > 1.0) return false; /* apart (exact test) */
        n0 = m;
    }
    grit_vec3 n;
    es_eval e = es_maximise(MA, MB, D, n0, &n);
    if (!real && e.g > 0) return false; /* touching to rounding */
    o->n = n;
    o->uN = e.g;
    /* the middle of the support points pa = xa + sa, pb = xb - sb */
    o->c = v3_scale(v3_add(v3_add(xa, e.sa), v3_sub(xb, e.sb)), 0.5);
    cg2_nodes(s, a, b, xb, o);
    o->r1 = v3_norm(v3_sub(o->c, xa));
    o->r2 = v3_norm(v3_sub(o->c, xb));
    return true;
}

#endif
