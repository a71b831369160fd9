/* grit: the sphere-sphere contact loop under the concrete law (cpm), the
 * geometry four contacts at a time.
 *
 * A concrete specimen is nearly all sphere-sphere bonds (about 12 per
 * sphere), and in the scalar loop most of a contact's time goes to the
 * geometry and the L6Geom frame update, not to the law. Here real contacts
 * are gathered in groups of four; the geometry (Cg2_Sphere_Sphere) and the
 * frame update run 4-wide (contact/ss_geom_simd.h, the scalar code's
 * operations in its order); the law (grit_cpm_update, with its branches)
 * runs lane by lane on the same inputs as law_cpm, and the forces are made
 * 4-wide again. Results are written, forces scattered and energy booked
 * lane by lane in contact order, the scalar lanes in between, so that every
 * sum sees the scalar loop's order: the two paths agree bit for bit
 * (tests/test_simd_cpm.c; no FMA contraction in ISO C mode). Lanes with
 * coincident centres or a reversed normal, and pairs that are not real,
 * go through run_block. */
#include "contact/ss_cpm_simd.h"

#include <stddef.h>
#include <string.h>

#include "cg2/sphere_sphere.h"
#include "contact/contact_block.h"
#include "contact/simd.h"
#include "contact/ss_geom_simd.h"
#include "law2/cpm.h"

/* how many contacts ahead the particle records are prefetched */
#define PREFETCH 12

_Static_assert(offsetof(grit_posr, r) == 24 && sizeof(grit_posr) == 32, "posr: x y z r");
_Static_assert(offsetof(grit_velw, w) == 24 && sizeof(grit_velw) == 64, "velw: v w pad");
_Static_assert(offsetof(grit_ft, t) == 24 && sizeof(grit_ft) == 64, "ft: f t pad");
_Static_assert(offsetof(grit_l6geom, ey) == 24 && offsetof(grit_l6geom, c) == 48 && offsetof(grit_l6geom, uN) == 72 &&
                   offsetof(grit_l6geom, vel) == 80 && offsetof(grit_l6geom, angvel) == 104 &&
                   sizeof(grit_l6geom) == 128,
               "l6geom: ex ey c uN vel angvel");
_Static_assert(offsetof(grit_frictphys, t) == 24, "frictphys: f t ...");

static inline void gather_rows(const void *const p[4], size_t off, v4d out[4])
{
    for (int l = 0; l < 4; l++) out[l] = v4_load((const char *)p[l] + off);
    v4_transpose(out);
}

static inline int scalar_one(grit_scene *s, int k, bool track, grit_law_energy *E)
{
    return track ? run_block(s, k, k + 1, cg2_sphere_sphere, law_cpm, create_cpm, true, false, E)
                 : run_block(s, k, k + 1, cg2_sphere_sphere, law_cpm, create_cpm, false, false, E);
}
static int scalar_one_cell(grit_scene *s, int k, bool track, grit_law_energy *E)
{
    return track ? run_block_cell(s, k, k + 1, cg2_sphere_sphere, law_cpm, create_cpm, true, false, true, E)
                 : run_block_cell(s, k, k + 1, cg2_sphere_sphere, law_cpm, create_cpm, false, false, true, E);
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
    const v4vec c = G.c, ex = G.ex, ey = G.ey;

    /* the law's inputs, 4-wide (law_cpm) */
    double *x[4];
    grit_contact_cold *cold[4];
    const grit_cpm_phys *P[4];
    for (int l = 0; l < 4; l++) {
        x[l] = C->ext + (size_t)k[l] * (size_t)C->ext_n;
        cold[l] = &C->cold[k[l]];
        P[l] = &L->cpm_phys[(int)x[l][GRIT_CPM_X_PAIR]];
    }
#define ST(field, l) x[l][GRIT_CPM_X_STATE + offsetof(grit_cpm_state, field) / sizeof(double)]
#define GATHER_ST(field) (v4d){ST(field, 0), ST(field, 1), ST(field, 2), ST(field, 3)}
#define GATHER_P(field) (v4d){P[0]->field, P[1]->field, P[2]->field, P[3]->field}
    const v4d Lref = {x[0][GRIT_CPM_X_L], x[1][GRIT_CPM_X_L], x[2][GRIT_CPM_X_L], x[3][GRIT_CPM_X_L]};
    const v4d coh = {x[0][GRIT_CPM_X_COHESIVE], x[1][GRIT_CPM_X_COHESIVE], x[2][GRIT_CPM_X_COHESIVE],
                     x[3][GRIT_CPM_X_COHESIVE]};
    const v4d uN0 = {cold[0]->uN0, cold[1]->uN0, cold[2]->uN0, cold[3]->uN0};
    const v4d area = {cold[0]->area, cold[1]->area, cold[2]->area, cold[3]->area};
    const v4d vdt = v4_set1(L->dt), one = v4_set1(1.0), half = v4_set1(0.5);
    const v4d eps = (G.uN - uN0) / Lref;
    const v4d deps0 = vdt * G.vel.y / Lref, deps1 = vdt * G.vel.z / Lref;

    /* the elastic step of grit_cpm_update, 4-wide, for the lanes where it is
     * all that happens: no damage growth, no compressive flow, no shear
     * return, no visco term or confinement, kept; with energy tracking also
     * no dissipation to book (the same stiffness at both ends, the stored
     * shear stress exactly kT epsT). Other lanes take the scalar update. The
     * operations are the scalar code's, in its order. */
    const grit_cpm_opts *O = &L->cpm;
    v4l fast = geo & (v4l){-(int64_t)P[0]->plain, -(int64_t)P[1]->plain, -(int64_t)P[2]->plain,
                            -(int64_t)P[3]->plain};
    const v4d kN = GATHER_P(kN), kT = GATHER_P(kT);
    const v4d epsN0 = GATHER_ST(epsN), epsT0 = GATHER_ST(epsT[0]), epsT1 = GATHER_ST(epsT[1]);
    const v4d kappa = GATHER_ST(kappa), omega = GATHER_ST(omega), epl = GATHER_ST(epsNPl);
    const v4d eT0 = epsT0 + deps0, eT1 = epsT1 + deps1;
    const v4d eN = eps + zero; /* + the confinement strain, 0 here */
    const v4d el = eN - epl;
    fast &= ~(el > kappa); /* damage would grow */
    const v4d om = v4_sel(omega < one, omega, one);
    const v4l ten = el > zero;
    const v4d sN = v4_sel(ten, one - om, one) * kN * el;
    if (O->eps_soft < 0) fast &= ~(el < v4_set1(O->eps_soft)); /* compressive plasticity may start */
    const v4d tr0 = kT * eT0, tr1 = kT * eT1;
    const v4d t2 = tr0 * tr0 + tr1 * tr1;
    {
        const v4d cT0 = GATHER_P(cT0), tph = GATHER_P(tan_phi);
        const int ys = O->yield_surface;
        v4l inside = t2 == zero; /* no shear: no yield test */
        if (ys == GRIT_CPM_YIELD_LINEAR || ys == GRIT_CPM_YIELD_LOG_LIN) { /* shear_yields' linear branch */
            const v4l lin = ys == GRIT_CPM_YIELD_LINEAR ? (v4l){-1, -1, -1, -1} : (sN > zero);
            const v4d Rl = cT0 * (one - om) - sN * tph;
            const v4d r = v4_sel(Rl > zero, Rl, zero);
            inside |= lin & ~(t2 > r * r);
        }
        if (ys == GRIT_CPM_YIELD_LOG || ys == GRIT_CPM_YIELD_LOG_LIN) { /* the log branch's lower bound */
            const v4d cY = cT0 * v4_set1(O->yield_log_speed);
            const v4d lb = (cT0 * (one - om) + v4_set1(2.0) * tph * (-sN) * cY / (v4_set1(2.0) * cY - sN)) *
                           v4_set1(1.0 - 1e-12);
            inside |= (sN < zero) & (cT0 > zero) & (lb > zero) & (t2 <= lb * lb);
        }
        fast &= inside;
    }
    fast &= ~((eN > zero) & ((coh == zero) | (omega > v4_set1(O->omega_threshold)))); /* removed */
    if (track) { /* grit_cpm_update's test that the step dissipates nothing */
        const v4d elp = epsN0 - epl;
        const v4d Kp = v4_sel(elp > zero, one - om, one), Kn = v4_sel(ten, one - om, one);
        const v4d sNv0 = GATHER_ST(sigmaNv), sT0 = GATHER_ST(sigmaT[0]), sT1 = GATHER_ST(sigmaT[1]);
        fast &= (Kp == Kn) & (sNv0 == zero) & (sT0 == kT * epsT0) & (sT1 == kT * epsT1);
    }
    /* stored energy (stored_normal, stored_shear) and the forces */
    const v4d Kst = v4_sel(ten, one - om, one);
    const v4d uNs = half * Kst * kN * el * el;
    const v4d uTs = v4_sel(kT > zero, half * (tr0 * tr0 + tr1 * tr1) / v4_sel(kT > zero, kT, one), zero);
    const v4d u = uNs + uTs;
    const v4d vol = area * Lref;
    v4d fx = area * sN, fy = area * tr0, fz = area * tr1;

    const int nfast = (int)-(fast[0] + fast[1] + fast[2] + fast[3]), ngeo = (int)-(geo[0] + geo[1] + geo[2] + geo[3]);
    /* counters shared by the threads: integer sums, the same in any order */
#pragma omp atomic
    s->cpm_lanes[0] += nfast;
#pragma omp atomic
    s->cpm_lanes[1] += ngeo - nfast;

    /* the other lanes: the scalar update */
    int keep[4] = {0, 0, 0, 0};
    grit_law_energy Ed[4];
    memset(Ed, 0, sizeof Ed);
    for (int l = 0; l < 4; l++) {
        if (!geo[l]) continue;
        if (fast[l]) { /* the state as grit_cpm_update leaves it */
            ST(epsN, l) = eN[l];
            ST(epsT[0], l) = eT0[l];
            ST(epsT[1], l) = eT1[l];
            ST(sigmaN, l) = sN[l];
            ST(sigmaT[0], l) = tr0[l];
            ST(sigmaT[1], l) = tr1[l];
            ST(sigmaNv, l) = 0.0;
            ST(u, l) = u[l];
            ST(eps_geo, l) = eps[l];
            keep[l] = 1;
            if (track) {
                Ed[l].elast = u[l] * vol[l];
                Ed[l].damage = 0.0 * vol[l];
                Ed[l].plast = 0.0 * vol[l];
            }
            continue;
        }
        const grit_cpm_phys *Pl = P[l];
        const double Ll = Lref[l];
        grit_cpm_state st;
        memcpy(&st, x[l] + GRIT_CPM_X_STATE, sizeof st);
        const double deps[2] = {deps0[l], deps1[l]};
        grit_cpm_energy e;
        const int rc = grit_cpm_update(Pl, O, x[l][GRIT_CPM_X_COHESIVE] != 0, &st, eps[l], deps, L->dt,
                                       track ? &e : NULL);
        const double vl = cold[l]->area * Ll;
        const grit_frictphys *p = &C->phys[k[l]];
        if (rc < 0) { /* keep the last force and state; the step fails */
            Ed[l].failed = 1;
            keep[l] = 1;
            fx[l] = p->f.x;
            fy[l] = p->f.y;
            fz[l] = p->f.z;
            continue;
        }
        if (rc == GRIT_CPM_DELETE) {
            if (track) Ed[l].broken = e.broken * vl;
            Ed[l].cohesive_broken = x[l][GRIT_CPM_X_COHESIVE] != 0;
            continue;
        }
        memcpy(x[l] + GRIT_CPM_X_STATE, &st, sizeof st);
        const double A = cold[l]->area;
        fx[l] = A * st.sigmaN;
        fy[l] = A * st.sigmaT[0];
        fz[l] = A * st.sigmaT[1];
        keep[l] = 1;
        if (track) {
            Ed[l].elast = st.u * vl;
            Ed[l].damage = e.damage * vl;
            Ed[l].plast = e.plast * vl;
        }
    }
#undef ST
#undef GATHER_ST
#undef GATHER_P

    /* forces on A (global), the opposite on B (run_block) */
    const v4vec ez = vv_cross(ex, ey);
    const v4vec F = vv_add(vv_add(vv_scale(ex, fx), vv_scale(ey, fy)), vv_scale(ez, fz));
    const v4vec Fb = {-F.x, -F.y, -F.z};
    const v4vec Ma = vv_cross(vv_sub(c, xa), F);
    const v4vec Mb = vv_cross(vv_sub(c, xb), Fb);
    v4d G0[4] = {ex.x, ex.y, ex.z, ey.x}, G1[4] = {ey.y, ey.z, c.x, c.y}, G2[4] = {c.z, G.uN, G.vel.x, G.vel.y},
        G3[4] = {G.vel.z, G.angvel.x, G.angvel.y, G.angvel.z};
    v4_transpose(G0);
    v4_transpose(G1);
    v4_transpose(G2);
    v4_transpose(G3);
    v4d A0[4] = {F.x, F.y, F.z, Ma.x}, A1[4] = {Ma.y, Ma.z, zero, zero};
    v4d B0[4] = {Fb.x, Fb.y, Fb.z, Mb.x}, B1[4] = {Mb.y, Mb.z, zero, zero};
    v4_transpose(A0);
    v4_transpose(A1);
    v4_transpose(B0);
    v4_transpose(B1);
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
        E->failed += Ed[l].failed;
        E->cohesive_broken += Ed[l].cohesive_broken;
        if (!keep[l]) { /* removed by the law: no force this step */
            if (track) E->broken += Ed[l].broken;
            C->pair[k[l]].flags &= (uint8_t)~CF_REAL;
            continue;
        }
        kept++;
        grit_frictphys *p = &C->phys[k[l]];
        p->f = v3(fx[l], fy[l], fz[l]);
        cforce_set4(C, k[l], A0[l], A1[l], B0[l], B1[l]); /* A0 A1: f.xyz ta.xyz, B0 B1: -f.xyz tb.xyz */
        if (track) {
            E->elast += Ed[l].elast;
            E->damage += Ed[l].damage;
            E->plast += Ed[l].plast;
        }
    }
    return kept;
}

static inline __attribute__((always_inline)) int block(grit_scene *s, int lo, int hi, const bool track,
                                                        const bool periodic, const grit_law_ctx *L, grit_law_energy *E)
{
    int n_real = 0, q[4], nq = 0;
    const grit_pair *pair = s->c.pair;
    const grit_posr *pr = s->b.pr;
    const grit_velw *vw = s->b.vw;
    const grit_ft *ft = s->b.ft;
    const size_t xn = (size_t)s->c.ext_n;
    for (int k = lo; k < hi; k++) {
        if (k + PREFETCH < hi) {
            /* the contact's own state (about three lines of ext) and creation data */
            const char *xk = (const char *)(s->c.ext + (size_t)(k + PREFETCH) * xn);
            __builtin_prefetch(xk, 1);
            __builtin_prefetch(xk + 64, 1);
            __builtin_prefetch(xk + 128, 1);
            __builtin_prefetch(&s->c.cold[k + PREFETCH]);
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

int grit_ss_cpm_simd(grit_scene *s, int lo, int hi, bool track, grit_law_energy *E)
{
    const grit_law_ctx L = grit_law_ctx_from(s);
    if (s->cell) return block(s, lo, hi, track, true, &L, E); /* periodic: one instance */
    return track ? block(s, lo, hi, true, false, &L, E) : block(s, lo, hi, false, false, &L, E);
}
