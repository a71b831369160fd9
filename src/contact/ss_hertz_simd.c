/* grit: the sphere-sphere contact loop under the Hertz-Mindlin law (hertz),
 * four contacts at a time.
 *
 * A granular bed under Hertz-Mindlin is nearly all sphere-sphere contacts.
 * Real contacts are gathered in groups of four; the geometry
 * (Cg2_Sphere_Sphere) and the frame update run 4-wide
 * (contact/ss_geom_simd.h), then the whole law (law2/hertz.h: every branch
 * as a lane select) and the forces. The operations are the scalar code's,
 * in its order, lane by lane; results are written, forces scattered and
 * energy booked lane by lane in contact order, so that every sum sees the
 * scalar loop's order: the two paths agree bit for bit
 * (tests/test_simd_hertz.c; no FMA contraction in ISO C mode). A contact
 * with rolling resistance takes the scalar law and force assembly in its
 * lane, on the 4-wide geometry. Lanes with coincident centres or a reversed
 * normal, and pairs that are not real, go through run_block. */
#include "contact/ss_hertz_simd.h"

#include <stddef.h>

#include "cg2/sphere_sphere.h"
#include "contact/contact_block.h"
#include "contact/simd.h"
#include "contact/ss_geom_simd.h"
#include "law2/hertz.h"

/* how many contacts ahead the particle records are prefetched */
#define PREFETCH 12

_Static_assert(offsetof(grit_posr, r) == 24 && sizeof(grit_posr) == 32, "posr: x y z r");
_Static_assert(offsetof(grit_velw, w) == 24 && sizeof(grit_velw) == 64, "velw: v w pad");
_Static_assert(offsetof(grit_ft, t) == 24 && sizeof(grit_ft) == 64, "ft: f t pad");
_Static_assert(offsetof(grit_l6geom, ey) == 24 && offsetof(grit_l6geom, c) == 48 && offsetof(grit_l6geom, uN) == 72 &&
                   offsetof(grit_l6geom, vel) == 80 && offsetof(grit_l6geom, angvel) == 104 &&
                   sizeof(grit_l6geom) == 128,
               "l6geom: ex ey c uN vel angvel");
_Static_assert(offsetof(grit_frictphys, t) == 24 && offsetof(grit_frictphys, kn) == 48 &&
                   offsetof(grit_frictphys, kt) == 56 && offsetof(grit_frictphys, tan_phi) == 64,
               "frictphys: f t kn kt tan_phi ...");
_Static_assert(GRIT_HERTZ_X_KN == 0 && GRIT_HERTZ_X_KT == 1 && GRIT_HERTZ_X_CN == 2 && GRIT_HERTZ_X_CT == 3 &&
                   GRIT_HERTZ_X_FS == 4 && GRIT_HERTZ_X_MU == 6 && GRIT_HERTZ_X_FDN == 7,
               "hertz ext: KN KT CN CT | FSy FSz MU FDN");

static inline void gather_rows(const void *const p[4], size_t off, v4d out[4])
{
    for (int l = 0; l < 4; l++) out[l] = v4_load((const char *)p[l] + off);
    v4_transpose(out);
}

static inline int scalar_one(grit_scene *s, int k, bool track, grit_law_energy *E)
{
    return track ? run_block(s, k, k + 1, cg2_sphere_sphere, law_hertz, create_hertz, true, GRIT_LAW_HERTZ_TORQUE, E)
                 : run_block(s, k, k + 1, cg2_sphere_sphere, law_hertz, create_hertz, false, GRIT_LAW_HERTZ_TORQUE, E);
}
static int scalar_one_cell(grit_scene *s, int k, bool track, grit_law_energy *E)
{
    return track ? run_block_cell(s, k, k + 1, cg2_sphere_sphere, law_hertz, create_hertz, true,
                                  GRIT_LAW_HERTZ_TORQUE, true, E)
                 : run_block_cell(s, k, k + 1, cg2_sphere_sphere, law_hertz, create_hertz, false,
                                  GRIT_LAW_HERTZ_TORQUE, true, E);
}
static __attribute__((noinline)) int scalar_any(grit_scene *s, int k, bool track, bool periodic, grit_law_energy *E)
{
    return periodic ? scalar_one_cell(s, k, track, E) : scalar_one(s, k, track, E);
}

/* Periodic cell: B's image and its velocity shift, lane by lane, added as
 * run_block_cell adds them. */
static inline void image4(const grit_scene *s, const int *k, v4vec *xb, v4vec *vb)
{
    for (int l = 0; l < 4; l++) {
        grit_vec3 sh, dv;
        grit_cell_image(s->cell, s->c.pair[k[l]].cell, &sh, &dv);
        xb->x[l] += sh.x;
        xb->y[l] += sh.y;
        xb->z[l] += sh.z;
        vb->x[l] += dv.x;
        vb->y[l] += dv.y;
        vb->z[l] += dv.z;
    }
}

/* A contact with rolling resistance, its geometry updated by the 4-wide
 * code: the law (law_hertz) and the forces and torques as run_block makes
 * them. Returns whether it stays real. */
static __attribute__((noinline)) int roll_lane(grit_scene *s, int k, int a, int b, grit_vec3 xa, grit_vec3 xb,
                                                bool track, const grit_law_ctx *L, grit_law_energy *E)
{
    grit_contacts *C = &s->c;
    grit_frictphys *p = &C->phys[k];
    const grit_l6geom *g = &C->geom[k];
    if (!law_hertz(L, &C->geom[k], p, &C->cold[k], false, track, E, NULL, C->ext + (size_t)k * (size_t)C->ext_n)) {
        C->pair[k].flags &= (uint8_t)~CF_REAL;
        return 0;
    }
    const grit_vec3 ez = v3_cross(g->ex, g->ey);
    const grit_vec3 F = v3_add(v3_add(v3_scale(g->ex, p->f.x), v3_scale(g->ey, p->f.y)), v3_scale(ez, p->f.z));
    const grit_vec3 T = v3_add(v3_add(v3_scale(g->ex, p->t.x), v3_scale(g->ey, p->t.y)), v3_scale(ez, p->t.z));
    const grit_vec3 Ma = v3_add(v3_cross(v3_sub(g->c, xa), F), T);
    const grit_vec3 Mb = v3_sub(v3_cross(v3_sub(g->c, xb), v3_neg(F)), T);
    (void)a, (void)b;
    cforce_set(C, k, F, Ma, Mb);
    return 1;
}

/* Four real sphere-sphere contacts k[0..3]. Returns how many stay real. */
static inline __attribute__((always_inline)) int group4(grit_scene *s, const int *k, const bool track,
                                                         const bool periodic, const grit_law_ctx *L,
                                                         grit_law_energy *E)
{
    grit_contacts *C = &s->c;
    const grit_posr *pr = s->b.pr;
    const grit_velw *vw = s->b.vw;
    const v4d zero = v4_set1(0.0);
    int a[4], b[4];
    for (int l = 0; l < 4; l++) {
        a[l] = C->pair[k[l]].a;
        b[l] = C->pair[k[l]].b;
    }
    const void *pa[4] = {&pr[a[0]], &pr[a[1]], &pr[a[2]], &pr[a[3]]};
    const void *pb[4] = {&pr[b[0]], &pr[b[1]], &pr[b[2]], &pr[b[3]]};
    const void *wa4[4] = {&vw[a[0]], &vw[a[1]], &vw[a[2]], &vw[a[3]]};
    const void *wb4[4] = {&vw[b[0]], &vw[b[1]], &vw[b[2]], &vw[b[3]]};
    v4d R[4], R2[4];
    gather_rows(pa, 0, R); /* x y z r */
    const v4vec xa = {R[0], R[1], R[2]};
    const v4d ra = R[3];
    gather_rows(pb, 0, R);
    v4vec xb = {R[0], R[1], R[2]};
    const v4d rb = R[3];
    gather_rows(wa4, 0, R);   /* v.x v.y v.z w.x */
    gather_rows(wa4, 32, R2); /* w.y w.z pad pad */
    const v4vec va = {R[0], R[1], R[2]}, wa = {R[3], R2[0], R2[1]};
    gather_rows(wb4, 0, R);
    gather_rows(wb4, 32, R2);
    v4vec vb = {R[0], R[1], R[2]};
    const v4vec wb = {R[3], R2[0], R2[1]};
    if (periodic) image4(s, k, &xb, &vb);
    else xb = vv_add(xb, (v4vec){zero, zero, zero}); /* the functor's x_B + shift, shift = 0 */
    /* the frame update's v_B + 0 (l6geom_update) */
    vb = vv_add(vb, (v4vec){zero, zero, zero});
    grit_l6geom *g[4] = {&C->geom[k[0]], &C->geom[k[1]], &C->geom[k[2]], &C->geom[k[3]]};
    const void *gp[4] = {g[0], g[1], g[2], g[3]};
    gather_rows(gp, 0, R);   /* ex.x ex.y ex.z ey.x */
    gather_rows(gp, 32, R2); /* ey.y ey.z c.x c.y */
    const v4vec nprev = {R[0], R[1], R[2]}, yprev = {R[3], R2[0], R2[1]};
    const v4vec cprev = {R2[2], R2[3], {g[0]->c.z, g[1]->c.z, g[2]->c.z, g[3]->c.z}};

    /* geometry and frame update: Cg2_Sphere_Sphere, l6geom_update */
    const ss4_geom G = ss4_geom_update(s, xa, ra, va, wa, xb, rb, vb, wb, nprev, yprev, cprev);
    const v4l geo = (G.dist > zero) & (G.nb != zero);
    const v4vec vel = G.vel;

    /* the law (law_hertz), every lane, its branches as selects */
    grit_frictphys *p[4] = {&C->phys[k[0]], &C->phys[k[1]], &C->phys[k[2]], &C->phys[k[3]]};
    double *x[4];
    for (int l = 0; l < 4; l++) x[l] = C->ext + (size_t)k[l] * (size_t)C->ext_n;
    const void *xp[4] = {x[0], x[1], x[2], x[3]};
    const void *pp[4] = {p[0], p[1], p[2], p[3]};
    v4d X0[4], X1[4], P0[4], P1[4];
    gather_rows(xp, 0, X0);  /* KN KT CN CT */
    gather_rows(xp, 32, X1); /* FSy FSz MU FDN */
    gather_rows(pp, 0, P0);  /* f.x f.y f.z t.x */
    gather_rows(pp, 32, P1); /* t.y t.z kn kt (tan_phi is in ext) */
    const v4d KN = X0[0], KT = X0[1], CN = X0[2], CT = X0[3];
    const v4d fy0 = X1[0], fz0 = X1[1], dn0 = X1[3], kt0 = P1[3];
    const v4d dy0 = P0[1] - fy0, dz0 = P0[2] - fz0;
    const v4d tan_phi = X1[2];
    const v4d vdt = v4_set1(L->dt), half = v4_set1(0.5), one = v4_set1(1.0);
    const v4l apart = G.uN > zero;
    const v4d dlt = -G.uN, sd = v4_sqrt(dlt), qd = v4_sqrt(sd);
    const v4d fel = -KN * dlt * sd;
    v4d fx = fel + CN * qd * vel.x;
    if (L->hertz_limit_force) fx = v4_sel(fx > zero, zero, fx);
    const v4d kt = KT * sd;
    const v4l shrink = kt < kt0;
    v4d sy = fy0, sz = fz0;
    if (v4_any(shrink)) {
        const v4d rs = kt / v4_sel(shrink, kt0, one);
        sy = v4_sel(shrink, fy0 * rs, fy0);
        sz = v4_sel(shrink, fz0 * rs, fz0);
    }
    v4d fy = sy + vdt * kt * vel.y, fz = sz + vdt * kt * vel.z;
    const v4d fmax = -fel * tan_phi;
    const v4d ft2 = fy * fy + fz * fz;
    const v4l slip = ft2 > fmax * fmax;
    if (v4_any(slip)) { /* rare in a dense bed: the square root and the division only then */
        const v4d ratio = fmax / v4_sqrt(v4_sel(slip, ft2, one));
        fy = v4_sel(slip, fy * ratio, fy);
        fz = v4_sel(slip, fz * ratio, fz);
    }
    const v4d ct = CT * qd;
    const v4d ty = v4_sel(slip, fy, fy + ct * vel.y), tz = v4_sel(slip, fz, fz + ct * vel.z);
    const v4d dn = fx - fel;
    v4d e_visc = zero, e_plast = zero, e_elast = zero, e_brk = zero, e_vbrk = zero;
    if (track) {
        e_visc = half * vdt * ((dn0 + dn) * vel.x + (dy0 + (ty - fy)) * vel.y + (dz0 + (tz - fz)) * vel.z);
        const v4l had = kt0 > zero, has = kt > zero;
        const v4d U0 = v4_sel(had, half * (fy0 * fy0 + fz0 * fz0) / v4_sel(had, kt0, one), zero);
        const v4d U = v4_sel(has, half * (fy * fy + fz * fz) / v4_sel(has, kt, one), zero);
        const v4d W = half * vdt * ((sy + fy) * vel.y + (sz + fz) * vel.z);
        e_plast = W - (U - U0);
        e_elast = v4_set1(0.4) * -fel * dlt + U;
        if (v4_any(apart)) { /* the parting contacts' book */
            e_brk = half * (fy0 * fy0 + fz0 * fz0) / v4_sel(had, kt0, one) + half * vdt * (fy0 * vel.y + fz0 * vel.z);
            e_vbrk = half * vdt * (dn0 * vel.x + dy0 * vel.y + dz0 * vel.z);
        }
    }
    const v4d kn = v4_set1(1.5) * KN * sd;

    /* forces on A (global), the opposite on B, and the law's torque (zero
     * without rolling resistance, but added as run_block adds it: the sums
     * of signed zeros are the scalar loop's) */
    const v4vec ex = G.ex, ey = G.ey, c = G.c;
    const v4vec ez = vv_cross(ex, ey);
    const v4vec F = vv_add(vv_add(vv_scale(ex, fx), vv_scale(ey, ty)), vv_scale(ez, tz));
    const v4vec Fb = {-F.x, -F.y, -F.z};
    const v4vec T = vv_add(vv_add(vv_scale(ex, P0[3]), vv_scale(ey, P1[0])), vv_scale(ez, P1[1]));
    const v4vec Ma = vv_add(vv_cross(vv_sub(c, xa), F), T);
    const v4vec Mb = vv_sub(vv_cross(vv_sub(c, xb), Fb), T);
    v4d G0[4] = {ex.x, ex.y, ex.z, ey.x}, G1[4] = {ey.y, ey.z, c.x, c.y}, G2[4] = {c.z, G.uN, vel.x, vel.y},
        G3[4] = {vel.z, G.angvel.x, G.angvel.y, G.angvel.z};
    v4_transpose(G0);
    v4_transpose(G1);
    v4_transpose(G2);
    v4_transpose(G3);
    v4d F0[4] = {fx, ty, tz, P0[3]}, F1[4] = {P1[0], P1[1], kn, kt}, S1[4] = {fy, fz, X1[2], dn};
    v4_transpose(F0);
    v4_transpose(F1);
    v4_transpose(S1);
    v4d A0[4] = {F.x, F.y, F.z, Ma.x}, A1[4] = {Ma.y, Ma.z, zero, zero};
    v4d B0[4] = {Fb.x, Fb.y, Fb.z, Mb.x}, B1[4] = {Mb.y, Mb.z, zero, zero};
    v4_transpose(A0);
    v4_transpose(A1);
    v4_transpose(B0);
    v4_transpose(B1);
    /* contacts with rolling resistance: the law lane by lane (law_hertz),
     * the forces as run_block makes them */
    bool rolls[4] = {false, false, false, false};
    if (L->hertz_roll)
        for (int l = 0; l < 4; l++) {
            const double m = x[l][GRIT_HERTZ_X_ROLL];
            rolls[l] = m == GRIT_ROLLING_EPSD || m == GRIT_ROLLING_CDT;
        }
    int kept = 0;
    for (int l = 0; l < 4; l++) {
        if (!geo[l]) {
            kept += scalar_any(s, k[l], track, periodic, E);
            continue;
        }
        char *gl = (char *)g[l];
        v4_store(gl, G0[l]);
        v4_store(gl + 32, G1[l]);
        v4_store(gl + 64, G2[l]);
        v4_store(gl + 96, G3[l]);
        if (rolls[l]) {
            kept += roll_lane(s, k[l], a[l], b[l], v3(xa.x[l], xa.y[l], xa.z[l]), v3(xb.x[l], xb.y[l], xb.z[l]), track,
                              L, E);
            continue;
        }
        if (apart[l]) { /* the law ends the contact: no force this step */
            if (track) {
                if (kt0[l] > 0) E->broken += e_brk[l];
                E->visc += e_vbrk[l];
            }
            C->pair[k[l]].flags &= (uint8_t)~CF_REAL;
            continue;
        }
        kept++;
        if (track) {
            E->visc += e_visc[l];
            E->plast += e_plast[l];
            E->elast += e_elast[l];
        }
        v4_store(x[l] + GRIT_HERTZ_X_FS, S1[l]); /* FSy FSz MU FDN */
        v4_store(p[l], F0[l]);
        v4_store((char *)p[l] + 32, F1[l]);
        cforce_set4(C, k[l], A0[l], A1[l], B0[l], B1[l]); /* A0 A1: f.xyz ta.xyz, B0 B1: -f.xyz tb.xyz */
    }
    return kept;
}

static inline __attribute__((always_inline)) int block(grit_scene *s, int lo, int hi, const bool track,
                                                        const bool periodic, const grit_law_ctx *L,
                                                        grit_law_energy *E)
{
    int n_real = 0, q[4], nq = 0;
    const grit_pair *pair = s->c.pair;
    const grit_posr *pr = s->b.pr;
    const grit_velw *vw = s->b.vw;
    const grit_ft *ft = s->b.ft;
    const size_t xn = (size_t)s->c.ext_n;
    for (int k = lo; k < hi; k++) {
        if (k + PREFETCH < hi) {
            __builtin_prefetch(s->c.ext + (size_t)(k + PREFETCH) * xn, 1);
            const int pa = pair[k + PREFETCH].a, pb = pair[k + PREFETCH].b;
            __builtin_prefetch(&pr[pb]);
            __builtin_prefetch(&vw[pb]);
            __builtin_prefetch(&ft[pb], 1);
            __builtin_prefetch(&pr[pa]);
            __builtin_prefetch(&vw[pa]);
            __builtin_prefetch(&ft[pa], 1);
        }
        if (!(pair[k].flags & CF_REAL)) { /* potential: narrow phase and creation, scalar */
            const grit_posr pa = pr[pair[k].a], pb = pr[pair[k].b];
            const double rr = (pa.r + pb.r) * s->def.interaction_radius; /* cg2_sphere_sphere's reach */
            grit_vec3 xb = pb.pos;
            if (periodic) {
                grit_vec3 sh, dvs;
                grit_cell_image(s->cell, pair[k].cell, &sh, &dvs);
                xb = v3_add(xb, sh);
            }
            if (v3_norm2(v3_sub(xb, pa.pos)) <= rr * rr) {
                /* it touches: the queued contacts first, to keep the order of the force sums */
                for (int l = 0; l < nq; l++) n_real += scalar_any(s, q[l], track, periodic, E);
                nq = 0;
                n_real += scalar_any(s, k, track, periodic, E);
            }
            continue;
        }
        q[nq++] = k;
        if (nq < 4) continue;
        n_real += group4(s, q, track, periodic, L, E);
        nq = 0;
    }
    for (int l = 0; l < nq; l++) n_real += scalar_any(s, q[l], track, periodic, E);
    return n_real;
}

int grit_ss_hertz_simd(grit_scene *s, int lo, int hi, bool track, grit_law_energy *E)
{
    const grit_law_ctx L = grit_law_ctx_from(s);
    if (s->cell) return block(s, lo, hi, track, true, &L, E); /* periodic: one instance */
    return track ? block(s, lo, hi, true, false, &L, E) : block(s, lo, hi, false, false, &L, E);
}
