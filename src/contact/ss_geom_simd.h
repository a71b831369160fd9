/* grit internal: Cg2_Sphere_Sphere and the L6Geom frame update
 * (l6geom_update) for four sphere-sphere contacts at once, shared by the
 * vectorised IdealElPl and Kuhn kernels. The operations and their order are
 * those of cg2/sphere_sphere.h and cg2/l6geom.h, so that the kernels stay
 * bitwise equal to the scalar path. Lanes with coincident centres (dist = 0)
 * or a reversed normal (nb = 0) give inf or NaN here; the caller sends them
 * the scalar way. */
#ifndef GRIT_SS_GEOM_SIMD_H
#define GRIT_SS_GEOM_SIMD_H

#include "contact/simd.h"
#include "core/scene_impl.h"

/* One lane's force record (contact_block.h, cforce_set) from the rows the
 * kernels build: a0 a1 = f.xyz ta.x | ta.y ta.z . ., b0 b1 = -f.xyz tb.x |
 * tb.y tb.z . . */
static inline void cforce_set4(grit_contacts *C, int k, v4d a0, v4d a1, v4d b0, v4d b1)
{
    C->cf[k] = (grit_cforce){{a0[0], a0[1], a0[2]}, {a0[3], a1[0], a1[1]}, {b0[3], b1[0], b1[1]}};
    C->fon[k] = 1;
}

typedef struct ss4_geom {
    v4d dist, uN, nb;
    v4vec n, c;            /* normal A -> B, contact point */
    v4vec ex, ey;          /* new frame */
    v4vec xm, ym, zm;      /* mid-step frame */
    v4vec vrel, vel, angvel; /* relative velocity (global), vel and angvel in the mid-step frame */
} ss4_geom;

/* A: xa, ra, va, wa; B: xb, rb, vb, wb (image shift and velocity already
 * added); the stored frame nprev, yprev and contact point cprev. */
static inline __attribute__((always_inline)) ss4_geom ss4_geom_update(const grit_scene *s, v4vec xa, v4d ra,
                                                                      v4vec va, v4vec wa, v4vec xb, v4d rb,
                                                                      v4vec vb, v4vec wb, v4vec nprev,
                                                                      v4vec yprev, v4vec cprev)
{
    const v4d vdt = v4_set1(s->dt), half = v4_set1(0.5);
    ss4_geom G;
    /* geometry: Cg2_Sphere_Sphere */
    const v4vec d = vv_sub(xb, xa);
    G.dist = v4_sqrt(vv_dot(d, d));
    G.n = vv_scale(d, 1.0 / G.dist);
    G.uN = G.dist - (ra + rb);
    G.c = vv_madd(xa, ra + half * G.uN, G.n);
    /* frame update (l6geom_update) */
    const v4vec r = vv_cross(nprev, G.n);
    v4vec nbar = vv_scale(vv_add(nprev, G.n), half);
    G.nb = v4_sqrt(vv_dot(nbar, nbar));
    nbar = vv_scale(nbar, 1.0 / G.nb);
    const v4vec tau = vv_scale(nbar, half * vdt * vv_dot(nbar, vv_add(wa, wb)));
    const v4vec rho = vv_add(r, tau);
    G.xm = nbar;
    G.ym = vv_madd(yprev, -half, vv_cross(yprev, rho));
    G.zm = vv_cross(G.xm, G.ym);
    G.ex = G.n;
    G.ey = vv_sub(yprev, vv_cross(G.ym, rho));
    if (s->def.trsf_renorm > 0 && s->step % s->def.trsf_renorm == 0) {
        G.ex = vv_scale(G.ex, 1.0 / v4_sqrt(vv_dot(G.ex, G.ex)));
        G.ey = vv_madd(G.ey, -vv_dot(G.ex, G.ey), G.ex);
        G.ey = vv_scale(G.ey, 1.0 / v4_sqrt(vv_dot(G.ey, G.ey)));
    }
    const v4vec cm = vv_scale(vv_add(cprev, G.c), half);
    const v4vec x1m = vv_madd(xa, -half * vdt, va);
    const v4vec x2m = vv_madd(xb, -half * vdt, vb);
    const v4vec b1 = vv_sub(cm, x1m), b2 = vv_sub(cm, x2m);
    G.vrel = vv_sub(vv_add(vb, vv_cross(wb, b2)), vv_add(va, vv_cross(wa, b1)));
    const v4vec dw = vv_sub(wb, wa);
    G.vel = (v4vec){vv_dot(G.xm, G.vrel), vv_dot(G.ym, G.vrel), vv_dot(G.zm, G.vrel)};
    G.angvel = (v4vec){vv_dot(G.xm, dw), vv_dot(G.ym, dw), vv_dot(G.zm, dw)};
    return G;
}

#endif
