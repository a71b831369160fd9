/* grit: the leapfrog for four free spheres at a time (see leapfrog.c for the
 * scheme). In a granular bed almost every particle is a free sphere; the
 * scalar loop spends most of its time moving records in and out, so here
 * whole records are loaded, transposed into one vector per field (4x4, as in
 * the contact kernel), updated, and transposed back. */
#include "integrate/leapfrog_simd.h"

#include <stddef.h>

#include "contact/simd.h"

_Static_assert(sizeof(grit_posr) == 32 && sizeof(grit_velw) == 64 && sizeof(grit_ft) == 64 &&
                   sizeof(grit_massi) == 32 && sizeof(grit_quat) == 32,
               "records of four and eight doubles");

static inline void load4(const void *base, size_t stride, size_t off, v4d r[4])
{
    for (int l = 0; l < 4; l++) r[l] = v4_load((const char *)base + stride * (size_t)l + off);
    v4_transpose(r);
}

static inline void store4(void *base, size_t stride, size_t off, v4d r[4])
{
    v4_transpose(r);
    for (int l = 0; l < 4; l++) v4_store((char *)base + stride * (size_t)l + off, r[l]);
}

/* damp(): a (1 - d sgn(f v)), branch-free as in leapfrog.c */
static inline v4d vdamp(v4d a, v4d f, v4d v, v4d d)
{
    const v4d x = f * v, one = v4_set1(1.0), zero = v4_set1(0.0);
    const v4d sgn = v4_sel(x > zero, one, zero) - v4_sel(x < zero, one, zero);
    return a * (one - d * sgn);
}

bool grit_leapfrog4(grit_scene *s, int i, bool has_d, bool has_g, double *maxd2, double *check)
{
    grit_bodies *b = &s->b;
    const double dt = s->dt;
    const v4d vdt = v4_set1(dt), half = v4_set1(0.5), zero = v4_set1(0.0), one = v4_set1(1.0);
    v4d P[4], V0[4], V1[4], F0[4], F1[4], M[4], Q[4];
    load4(&b->pr[i], sizeof *b->pr, 0, P);   /* x y z r */
    load4(&b->vw[i], sizeof *b->vw, 0, V0);  /* v.x v.y v.z w.x */
    load4(&b->vw[i], sizeof *b->vw, 32, V1); /* w.y w.z pad pad */
    load4(&b->ft[i], sizeof *b->ft, 0, F0);  /* f.x f.y f.z t.x */
    load4(&b->ft[i], sizeof *b->ft, 32, F1); /* t.y t.z pad pad */
    load4(&b->mi[i], sizeof *b->mi, 0, M);   /* m I.x I.y I.z */
    load4(&b->ori[i], sizeof *b->ori, 0, Q); /* w x y z */
    const v4vec w0 = {V0[3], V1[0], V1[1]}, T = {F0[3], F1[0], F1[1]};
    /* the rotation step: series only (the scalar code switches to sin/cos
     * above (angle/2)^2 = 1e-4; such a group goes the scalar way) */
    const v4d im = one / M[0], iI = one / M[1];
    v4vec a = {F0[0] * im, F0[1] * im, F0[2] * im};
    v4vec al = {T.x * iI, T.y * iI, T.z * iI};
    if (has_d) {
        const v4d d = v4_set1(s->def.damping);
        a.x = vdamp(a.x, F0[0], V0[0] + half * vdt * a.x, d);
        a.y = vdamp(a.y, F0[1], V0[1] + half * vdt * a.y, d);
        a.z = vdamp(a.z, F0[2], V0[2] + half * vdt * a.z, d);
        al.x = vdamp(al.x, T.x, w0.x + half * vdt * al.x, d);
        al.y = vdamp(al.y, T.y, w0.y + half * vdt * al.y, d);
        al.z = vdamp(al.z, T.z, w0.z + half * vdt * al.z, d);
    }
    const v4vec v = {V0[0] + vdt * a.x, V0[1] + vdt * a.y, V0[2] + vdt * a.z};
    const v4vec w = {w0.x + vdt * al.x, w0.y + vdt * al.y, w0.z + vdt * al.z};
    const v4vec th = {w.x * vdt, w.y * vdt, w.z * vdt};
    const v4d h2 = v4_set1(0.25) * vv_dot(th, th);
    if (!(h2[0] < 1e-4 && h2[1] < 1e-4 && h2[2] < 1e-4 && h2[3] < 1e-4)) return false;
    const v4d pos[3] = {P[0] + vdt * v.x, P[1] + vdt * v.y, P[2] + vdt * v.z};
    /* orientation: q <- renorm(rotvec(w dt) q), unless w = 0 */
    const v4d c = one - h2 * (v4_set1(1.0 / 2) - h2 * (v4_set1(1.0 / 24) - h2 * (v4_set1(1.0 / 720) - h2 * v4_set1(1.0 / 40320))));
    const v4d sinc = one - h2 * (v4_set1(1.0 / 6) - h2 * (v4_set1(1.0 / 120) - h2 * (v4_set1(1.0 / 5040) - h2 * v4_set1(1.0 / 362880))));
    const v4d k = half * sinc;
    const v4d rw = c, rx = th.x * k, ry = th.y * k, rz = th.z * k;
    const v4d qw = rw * Q[0] - rx * Q[1] - ry * Q[2] - rz * Q[3];
    const v4d qx = rw * Q[1] + rx * Q[0] + ry * Q[3] - rz * Q[2];
    const v4d qy = rw * Q[2] - rx * Q[3] + ry * Q[0] + rz * Q[1];
    const v4d qz = rw * Q[3] + rx * Q[2] - ry * Q[1] + rz * Q[0];
    const v4d kn = half * (v4_set1(3.0) - (qw * qw + qx * qx + qy * qy + qz * qz));
    const v4l spin = (w.x != zero) | (w.y != zero) | (w.z != zero);
    Q[0] = v4_sel(spin, qw * kn, Q[0]);
    Q[1] = v4_sel(spin, qx * kn, Q[1]);
    Q[2] = v4_sel(spin, qy * kn, Q[2]);
    Q[3] = v4_sel(spin, qz * kn, Q[3]);
    /* write back */
    P[0] = pos[0];
    P[1] = pos[1];
    P[2] = pos[2];
    V0[0] = v.x;
    V0[1] = v.y;
    V0[2] = v.z;
    V0[3] = w.x;
    V1[0] = w.y;
    V1[1] = w.z;
    const grit_vec3 g = s->def.gravity;
    F0[0] = has_g ? v4_set1(g.x) * M[0] : zero;
    F0[1] = has_g ? v4_set1(g.y) * M[0] : zero;
    F0[2] = has_g ? v4_set1(g.z) * M[0] : zero;
    F0[3] = zero;
    F1[0] = F1[1] = F1[2] = F1[3] = zero;
    V1[2] = V1[3] = zero;
    store4(&b->pr[i], sizeof *b->pr, 0, P);
    store4(&b->vw[i], sizeof *b->vw, 0, V0);
    store4(&b->vw[i], sizeof *b->vw, 32, V1);
    store4(&b->ft[i], sizeof *b->ft, 0, F0);
    store4(&b->ft[i], sizeof *b->ft, 32, F1);
    store4(&b->ori[i], sizeof *b->ori, 0, Q);
    /* displacement since the last rebuild, and the NaN check */
    for (int l = 0; l < 4; l++) {
        const grit_vec3 r = b->refpos[i + l];
        const double dx = pos[0][l] - r.x, dy = pos[1][l] - r.y, dz = pos[2][l] - r.z;
        const double d2 = dx * dx + dy * dy + dz * dz;
        if (d2 > *maxd2) *maxd2 = d2;
        *check += pos[0][l] + pos[1][l] + pos[2][l];
    }
    return true;
}
