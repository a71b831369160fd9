/* grit internal: the Perram-Wertheim contact function of two ellipsoids
 * (spec 2.4 (5)), shared by Ellipsoid-Ellipsoid and Sphere-Ellipsoid.
 *
 * With P^-1 = M_A M_A^T and Q^-1 = M_B M_B^T (M = R diag(semi-axes)),
 *   F(l) = l (1-l) D^T G(l)^-1 D,  G(l) = (1-l) P^-1 + l Q^-1,  l in [0,1],
 * is concave with F(0) = F(1) = 0; its maximum F* is the square of the
 * factor by which both ellipsoids must be scaled about their centres to
 * touch (F* < 1: overlap). Woo maximises F with Brent's method to 32 bits;
 * grit finds the root of F'(l) = (1-2l) D.m - l(1-l) m.(Q^-1 - P^-1) m,
 * m = G^-1 D, by bracketed false position (Illinois variant): F'(0) > 0 >
 * F'(1) brackets the single root, and l* comes out to rounding, so that the
 * contact point and normal are smooth functions of the configuration. */
#ifndef GRIT_CG2_PERRAM_WERTHEIM_H
#define GRIT_CG2_PERRAM_WERTHEIM_H

#include "cg2/geom.h"

typedef struct pw_sym {
    double xx, yy, zz, xy, xz, yz;
} pw_sym;

/* sum_k a_k^2 u_k u_k^T with u_k the columns of R(q): the inverse of the
 * quadratic form of the ellipsoid. */
static inline pw_sym pw_inverse_form(grit_quat q, grit_vec3 a)
{
    grit_mat3 R = q_to_mat3(q);
    double s[3] = {a.x * a.x, a.y * a.y, a.z * a.z};
    pw_sym m = {0, 0, 0, 0, 0, 0};
    for (int k = 0; k < 3; k++) {
        grit_vec3 u = R.c[k];
        m.xx += s[k] * u.x * u.x;
        m.yy += s[k] * u.y * u.y;
        m.zz += s[k] * u.z * u.z;
        m.xy += s[k] * u.x * u.y;
        m.xz += s[k] * u.x * u.z;
        m.yz += s[k] * u.y * u.z;
    }
    return m;
}

static inline grit_vec3 pw_mul(const pw_sym *m, grit_vec3 v)
{
    return v3(m->xx * v.x + m->xy * v.y + m->xz * v.z, m->xy * v.x + m->yy * v.y + m->yz * v.z,
              m->xz * v.x + m->yz * v.y + m->zz * v.z);
}

/* G^-1 D for symmetric positive definite G (adjugate / determinant). */
static inline grit_vec3 pw_solve(const pw_sym *g, grit_vec3 d)
{
    double c00 = g->yy * g->zz - g->yz * g->yz, c01 = g->xz * g->yz - g->xy * g->zz, c02 = g->xy * g->yz - g->xz * g->yy;
    double c11 = g->xx * g->zz - g->xz * g->xz, c12 = g->xy * g->xz - g->xx * g->yz, c22 = g->xx * g->yy - g->xy * g->xy;
    double det = g->xx * c00 + g->xy * c01 + g->xz * c02;
    double id = 1.0 / det;
    return v3((c00 * d.x + c01 * d.y + c02 * d.z) * id, (c01 * d.x + c11 * d.y + c12 * d.z) * id,
              (c02 * d.x + c12 * d.y + c22 * d.z) * id);
}

static inline pw_sym pw_blend(const pw_sym *P, const pw_sym *Q, double l)
{
    double k = 1.0 - l;
    return (pw_sym){k * P->xx + l * Q->xx, k * P->yy + l * Q->yy, k * P->zz + l * Q->zz,
                    k * P->xy + l * Q->xy, k * P->xz + l * Q->xz, k * P->yz + l * Q->yz};
}

/* F'(l); also returns m = G(l)^-1 D. */
static inline double pw_dF(const pw_sym *P, const pw_sym *Q, grit_vec3 D, double l, grit_vec3 *m)
{
    pw_sym G = pw_blend(P, Q, l);
    *m = pw_solve(&G, D);
    grit_vec3 dm = v3_sub(pw_mul(Q, *m), pw_mul(P, *m));
    return (1.0 - 2.0 * l) * v3_dot(D, *m) - l * (1.0 - l) * v3_dot(*m, dm);
}

/* l* = argmax F on [0,1]; m* = G(l*)^-1 D. */
static inline double pw_maximise(const pw_sym *P, const pw_sym *Q, grit_vec3 D, grit_vec3 *m)
{
    double lo = 0.0, hi = 1.0, glo = v3_dot(D, pw_mul(P, D)), ghi = -v3_dot(D, pw_mul(Q, D));
    int side = 0;
    double l = 0.5;
    for (int it = 0; it < 100 && hi - lo > 1e-15; it++) {
        l = (lo * ghi - hi * glo) / (ghi - glo);
        if (!(l > lo && l < hi)) l = 0.5 * (lo + hi);
        double g = pw_dF(P, Q, D, l, m);
        if (g == 0) return l;
        if (g > 0) {
            lo = l;
            glo = g;
            if (side == 1) ghi *= 0.5; /* Illinois: the stale end loses weight */
            side = 1;
        } else {
            hi = l;
            ghi = g;
            if (side == -1) glo *= 0.5;
            side = -1;
        }
    }
    l = 0.5 * (lo + hi);
    pw_dF(P, Q, D, l, m);
    return l;
}

/* The contact of two ellipsoids (sphere: a = (r,r,r)) centred at xa, xb;
 * `reach` bounds the centre distance at which they can touch. */
static inline bool pw_contact(const grit_scene *s, int a, int b, grit_vec3 xa, grit_vec3 xb, const pw_sym *Pi,
                              const pw_sym *Qi, double reach, bool real, const grit_l6geom *prev, grit_cg2_out *o)
{
    grit_vec3 D = v3_sub(xb, xa);
    double dd = v3_norm2(D);
    if (!real && dd > reach * reach) return false;
    if (!(dd > 0)) { /* coincident centres: the contact function is 0 everywhere */
        if (!real) return false;
        o->n = prev->ex;
        o->c = xa;
        o->uN = -reach;
    } else {
        grit_vec3 m;
        double l = pw_maximise(Pi, Qi, D, &m);
        double F = l * (1.0 - l) * v3_dot(D, m);
        if (!real && F > 1.0) return false;
        o->n = v3_normalized(m);
        o->c = v3_madd(xa, 1.0 - l, pw_mul(Pi, m));
        o->uN = (1.0 - 1.0 / sqrt(F)) * v3_dot(D, o->n);
    }
    cg2_nodes(s, a, b, xb, o);
    o->r1 = v3_norm(v3_sub(o->c, xa));
    o->r2 = v3_norm(v3_sub(o->c, xb));
    return true;
}

#endif
