/* grit: the sphere-sphere contact loop under Kuhn's law, four contacts at a
 * time.
 *
 * Real contacts are gathered in groups of four; the geometry (Cg2_Sphere_
 * Sphere), the L6Geom frame update, the law's inputs (law2/kuhn.h), its
 * elastic step (law2/kuhn_math.h: S3, S4, S7 with the V7 clamp, S8,
 * projection, twirl), the local force and the global force and torques are
 * computed in 4-wide vectors with the scalar code's operations in the
 * scalar code's order, lane by lane. The build compiles C11 without GNU
 * extensions, so GCC does not contract a * b + c into a fused multiply-add
 * (-ffp-contract=off is the ISO C default), in the scalar code nor here:
 * every lane's result is bitwise the scalar path's (tests/test_simd_kuhn.c).
 *
 * A lane that is not an elastic step of a contact with history -- slip,
 * separation, a stored overlap <= 0 or NaN (fresh, or state of another law),
 * kt or mu N = 0, a twirl angle >= 0.05 rad (sin/cos from libm), coincident
 * centres, and two signed-zero corner cases where the scalar code's "+ 0"
 * would differ -- is discarded and that contact goes through the scalar
 * run_block instead, so the rare branches have one implementation. Results
 * are written, forces scattered and energy booked lane by lane in contact
 * order, interleaved with the scalar lanes: floating-point sums into the
 * particles' accumulators and the energy books see the same order as in the
 * scalar loop. */
#include "contact/ss_kuhn_simd.h"

#include <stddef.h>

#include "cg2/sphere_sphere.h"
#include "contact/contact_block.h"
#include "contact/simd.h"
#include "contact/ss_geom_simd.h"
#include "law2/kuhn.h"

/* how many contacts ahead the particle records are prefetched */
#define PREFETCH 12

/* The record layouts the row gathers and stores below rely on. */
_Static_assert(offsetof(grit_posr, r) == 24 && sizeof(grit_posr) == 32, "posr: x y z r");
_Static_assert(offsetof(grit_velw, w) == 24 && sizeof(grit_velw) == 64, "velw: v w pad");
_Static_assert(offsetof(grit_ft, t) == 24 && sizeof(grit_ft) == 64, "ft: f t pad");
_Static_assert(offsetof(grit_l6geom, ey) == 24 && offsetof(grit_l6geom, c) == 48 && offsetof(grit_l6geom, uN) == 72 &&
                   offsetof(grit_l6geom, vel) == 80 && offsetof(grit_l6geom, angvel) == 104 &&
                   sizeof(grit_l6geom) == 128,
               "l6geom: ex ey c uN vel angvel");
_Static_assert(offsetof(grit_frictphys, t) == 24 && offsetof(grit_frictphys, kn) == 48 &&
                   offsetof(grit_frictphys, kt) == 56,
               "frictphys: f t kn kt ...");
_Static_assert(GRIT_KUHN_X_FT == 0 && GRIT_KUHN_X_ZETA == 3 && GRIT_KUHN_X_C == 4 && GRIT_KUHN_X_STATUS == 7 &&
                   GRIT_KUHN_EXT_N == 8,
               "kuhn ext: ft zeta | c status");

/* The switches that change the elastic step (onset and turn only through
 * the entry clamp V7; fresh and the work option not at all). */
typedef struct kopt {
    bool clamp, projection;
    int twirl;
} kopt;

/* Row (4 doubles from byte offset off) of the records at p[0..3],
 * transposed: out[f] holds field f of the four records. */
static inline void gather_rows(const void *const p[4], size_t off, v4d out[4])
{
    for (int l = 0; l < 4; l++) out[l] = v4_load((const char *)p[l] + off);
    v4_transpose(out);
}

/* The transposed rows back to the records at p[0..3], offset off, for the
 * lanes in ok (all: every lane). */
static inline void store_rows(const void *const p[4], size_t off, v4d rows[4], v4l ok, bool all)
{
    v4_transpose(rows);
    for (int l = 0; l < 4; l++)
        if (all || ok[l]) v4_store((char *)p[l] + off, rows[l]);
}

/* lanes whose bits are not those of -0.0 */
static inline v4l not_negzero(v4d a) { return (v4l)a != (v4l){INT64_MIN, INT64_MIN, INT64_MIN, INT64_MIN}; }
static inline v4l bits_eq(v4d a, v4d b) { return (v4l)a == (v4l)b; }

static inline int scalar_one(grit_scene *s, int k, bool track, grit_law_energy *E)
{
    return track ? run_block(s, k, k + 1, cg2_sphere_sphere, law_kuhn, create_kuhn, true, false, E)
                 : run_block(s, k, k + 1, cg2_sphere_sphere, law_kuhn, create_kuhn, false, false, E);
}
static int scalar_one_cell(grit_scene *s, int k, bool track, grit_law_energy *E)
{
    return track ? run_block_cell(s, k, k + 1, cg2_sphere_sphere, law_kuhn, create_kuhn, true, false, true, E)
                 : run_block_cell(s, k, k + 1, cg2_sphere_sphere, law_kuhn, create_kuhn, false, false, true, E);
}
static __attribute__((noinline)) int scalar_any(grit_scene *s, int k, bool track, bool periodic,
                                                grit_law_energy *E)
{
    return periodic ? scalar_one_cell(s, k, track, E) : scalar_one(s, k, track, E);
}

/* The scalar update for one lane (slip and the other rare steps). */
static __attribute__((noinline)) void lane_update(const grit_kuhn_in *in, const grit_kuhn_opt *opt,
                                                  grit_kuhn_out *out)
{
    grit_kuhn_update(in, opt, out);
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
                                                         const bool periodic, const kopt opt,
                                                         const grit_kuhn_opt *kuhn, grit_law_energy *E)
{
    grit_contacts *C = &s->c;
    const grit_posr *pr = s->b.pr;
    const grit_velw *vw = s->b.vw;
    const double dt = s->dt;
    const v4d vdt = v4_set1(dt), half = v4_set1(0.5), zero = v4_set1(0.0), one = v4_set1(1.0);
    int a[4], b[4];
    for (int l = 0; l < 4; l++) {
        a[l] = C->pair[k[l]].a;
        b[l] = C->pair[k[l]].b;
    }
    /* gather the particles: whole records, transposed into fields */
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
    gather_rows(wa4, 0, R);  /* v.x v.y v.z w.x */
    gather_rows(wa4, 32, R2); /* w.y w.z pad pad */
    const v4vec va = {R[0], R[1], R[2]}, wa = {R[3], R2[0], R2[1]};
    gather_rows(wb4, 0, R);
    gather_rows(wb4, 32, R2);
    v4vec vb = {R[0], R[1], R[2]};
    const v4vec wb = {R[3], R2[0], R2[1]};
    if (periodic) image4(s, k, &xb, &vb);
    else xb = vv_add(xb, (v4vec){zero, zero, zero}); /* the functor's x_B + shift, shift = 0 */
    grit_l6geom *g[4] = {&C->geom[k[0]], &C->geom[k[1]], &C->geom[k[2]], &C->geom[k[3]]};
    grit_frictphys *p[4] = {&C->phys[k[0]], &C->phys[k[1]], &C->phys[k[2]], &C->phys[k[3]]};
    double *x[4];
    for (int l = 0; l < 4; l++) x[l] = C->ext + (size_t)k[l] * (size_t)C->ext_n; /* ext_n >= 8: other laws in the scene */
    const void *gp[4] = {g[0], g[1], g[2], g[3]}, *xp[4] = {x[0], x[1], x[2], x[3]};
    gather_rows(gp, 0, R);  /* ex.x ex.y ex.z ey.x */
    gather_rows(gp, 32, R2); /* ey.y ey.z c.x c.y */
    const v4vec nprev = {R[0], R[1], R[2]}, yprev = {R[3], R2[0], R2[1]};
    const v4vec cprev = {R2[2], R2[3], {g[0]->c.z, g[1]->c.z, g[2]->c.z, g[3]->c.z}};
    v4d X0[4], X1[4];
    gather_rows(xp, 0, X0);  /* stored ft.x ft.y ft.z, zeta */
    gather_rows(xp, 32, X1); /* stored c.x c.y c.z, status */
    /* the law's mean contact point is built from its own stored point, the
     * frame's from L6Geom's: one computation when they are the same bits,
     * as they are for every contact this law has carried */
    v4l geo = bits_eq(X1[0], cprev.x) & bits_eq(X1[1], cprev.y) & bits_eq(X1[2], cprev.z);
    /* the frame update uses v_B + 0, the law v_B: equal unless -0 */
    geo &= not_negzero(vb.x) & not_negzero(vb.y) & not_negzero(vb.z);

    /* geometry and frame update: Cg2_Sphere_Sphere, l6geom_update */
    const ss4_geom G = ss4_geom_update(s, xa, ra, va, wa, xb, rb, vb, wb, nprev, yprev, cprev);
    geo &= (G.dist > zero) & (G.nb != zero);
    const v4d uN = G.uN;
    const v4vec c = G.c, ex = G.ex, ey = G.ey;
    const v4vec vrel = G.vrel, vel = G.vel, angvel = G.angvel;

    /* the law's inputs (grit_kuhn_inputs, a contact with history) */
    const void *pp4[4] = {p[0], p[1], p[2], p[3]};
    v4d P0[4], P1[4];
    gather_rows(pp4, 0, P0);  /* f.x f.y f.z t.x */
    gather_rows(pp4, 32, P1); /* t.y t.z kn kt */
    const v4d kn = P1[2], kt = P1[3];
    const v4d cn = {p[0]->cn, p[1]->cn, p[2]->cn, p[3]->cn};
    const v4d mu = s->laws.idealelpl.no_frict ? zero : (v4d){p[0]->tan_phi, p[1]->tan_phi, p[2]->tan_phi, p[3]->tan_phi};
    const v4vec n1 = ex;
    const v4vec du = vv_scale(vrel, vdt);
    const v4vec dth_p = vv_scale(wa, vdt), dth_q = vv_scale(wb, vdt);
    const v4d z1 = -uN, z0 = X0[3];
    const v4vec f0 = {X0[0], X0[1], X0[2]};

    /* still touching (else the contact breaks), with this law's history */
    geo &= (z1 > zero) & (z0 == z0);

    /* the update (grit_kuhn_update): S3, S4, S7, S8 */
    v4l ok = geo & (z0 > zero) & (kt > zero); /* not fresh, a tangential spring */
    const v4d f0sq = vv_dot(f0, f0);
    const v4d ikt2 = half / kt;
    const v4d N1 = kn * z1, muN1 = mu * N1;
    ok &= muN1 > zero;
    const v4vec dut = vv_madd(du, -vv_dot(du, n1), n1);
    const v4d N0 = kn * z0, muN0 = mu * N0;
    v4vec F0 = f0;
    if (opt.clamp) { /* V7: a stored force beyond the entry limit is brought onto it */
        const v4l over = f0sq > muN0 * muN0;
        if (v4_any(over)) {
            const v4d sc = muN0 / v4_sqrt(f0sq);
            F0 = (v4vec){v4_sel(over, f0.x * sc, f0.x), v4_sel(over, f0.y * sc, f0.y), v4_sel(over, f0.z * sc, f0.z)};
        }
    }
    const v4vec D = vv_scale(dut, kt);
    const v4vec tr = vv_add(F0, D);
    const v4d t2 = vv_dot(tr, tr), F0sq = vv_dot(F0, F0);
    ok &= t2 <= muN1 * muN1; /* elastic over the whole step; else slip, scalar */
    v4vec f1 = tr;
    const v4d W = (t2 - F0sq) * ikt2;
    if (opt.projection) f1 = vv_madd(f1, -vv_dot(f1, n1), n1); /* S14 */
    if (opt.twirl != GRIT_KUHN_TWIRL_OFF) {                     /* S15 */
        const v4d om = half * vv_dot(vv_add(dth_p, dth_q), n1);
        const v4vec nf = vv_cross(n1, f1);
        if (opt.twirl == GRIT_KUHN_TWIRL_EXACT) { /* grit_kuhn_sincos's two series */
            const v4d aw = v4_abs(om), w2 = om * om;
            ok &= aw < v4_set1(0.05);
            v4d si = om * (1.0 + w2 * ((-1.0 / 6) + w2 * (1.0 / 120)));
            v4d co = 1.0 + w2 * (-0.5 + w2 * (1.0 / 24));
            const v4l big = aw >= v4_set1(1e-3);
            if (v4_any(big & ok)) {
                const v4d si2 = om * (1.0 + w2 * ((-1.0 / 6) + w2 * ((1.0 / 120) + w2 * (-1.0 / 5040))));
                const v4d co2 = 1.0 + w2 * (-0.5 + w2 * ((1.0 / 24) + w2 * ((-1.0 / 720) + w2 * (1.0 / 40320))));
                si = v4_sel(big, si2, si);
                co = v4_sel(big, co2, co);
            }
            const v4vec rr = vv_add(vv_scale(f1, co), vv_scale(nf, si));
            f1 = opt.projection ? rr : vv_madd(rr, (one - co) * vv_dot(n1, f1), n1);
        } else {
            f1 = vv_madd(f1, om, nf);
        }
    }
    v4vec fts = f1; /* S17: the new stored force */
    const v4d Un = half * N1 * z1;
    const v4d dU = (vv_dot(f1, f1) - f0sq) * ikt2;
    v4d dD = W - dU;
    v4d status = v4_set1(GRIT_KUHN_ELASTIC);
    /* the other steps (slip, fresh, no tangential spring, a large twirl):
     * the scalar update, lane by lane, on the same inputs */
    const v4l lw = geo & ~ok;
    if (v4_any(lw))
        for (int l = 0; l < 4; l++) {
            if (!lw[l]) continue;
            const grit_kuhn_in in = {.zeta0 = z0[l],
                                     .zeta1 = z1[l],
                                     .n1 = {n1.x[l], n1.y[l], n1.z[l]},
                                     .du = {du.x[l], du.y[l], du.z[l]},
                                     .dth_p = {dth_p.x[l], dth_p.y[l], dth_p.z[l]},
                                     .dth_q = {dth_q.x[l], dth_q.y[l], dth_q.z[l]},
                                     .f0 = {f0.x[l], f0.y[l], f0.z[l]},
                                     .kn = kn[l],
                                     .kt = kt[l],
                                     .mu = mu[l],
                                     .fresh = false};
            grit_kuhn_out out;
            lane_update(&in, kuhn, &out);
            fts.x[l] = out.ft.x;
            fts.y[l] = out.ft.y;
            fts.z[l] = out.ft.z;
            dD[l] = out.dD;
            status[l] = out.status;
        }

    /* law_kuhn: dashpot, local force for the loop */
    v4d fn = -N1;
    const v4l damped = cn != zero;
    v4d fnd = fn + cn * vel.x;
    fnd = v4_sel(fnd > zero, zero, fnd); /* a dashpot never pulls */
    const v4d visc = (fnd + N1) * vel.x * vdt;
    fn = v4_sel(damped, fnd, fn);
    const v4vec ez = vv_cross(n1, ey);
    const v4d dd = vv_dot(ey, n1);
    const v4vec ep = vv_madd(ey, -dd, n1);
    const v4d iq = 1.0 / vv_dot(ep, ep);
    const v4d fy = vv_dot(fts, ep) * iq, fz = vv_dot(fts, ez) * iq;
    const v4d fx = fn + vv_dot(fts, n1) - dd * fy;

    /* forces on A (global), the opposite on B (run_block) */
    const v4vec F = vv_add(vv_add(vv_scale(ex, fx), vv_scale(ey, fy)), vv_scale(ez, fz));
    const v4vec Fb = {-F.x, -F.y, -F.z};
    const v4vec Ma = vv_cross(vv_sub(c, xa), F);
    const v4vec Mb = vv_cross(vv_sub(c, xb), Fb);

    /* the contacts' records back, rows of four doubles transposed, for the
     * lanes done here (they are the contacts' own: any order will do) */
    const bool all = v4_all(geo);
    v4d G0[4] = {ex.x, ex.y, ex.z, ey.x}, G1[4] = {ey.y, ey.z, c.x, c.y}, G2[4] = {c.z, uN, vel.x, vel.y},
        G3[4] = {vel.z, angvel.x, angvel.y, angvel.z};
    v4d F0r[4] = {fx, fy, fz, P0[3]}; /* phys: f, first torque component kept */
    v4d Y0[4] = {fts.x, fts.y, fts.z, z1}, Y1[4] = {c.x, c.y, c.z, status};
    store_rows(gp, 0, G0, geo, all);
    store_rows(gp, 32, G1, geo, all);
    store_rows(gp, 64, G2, geo, all);
    store_rows(gp, 96, G3, geo, all);
    store_rows(pp4, 0, F0r, geo, all);
    store_rows(xp, 0, Y0, geo, all);
    store_rows(xp, 32, Y1, geo, all);
    /* forces into the particles' accumulators and energy into the books in
     * contact order, the scalar lanes in between */
    v4d A0[4] = {F.x, F.y, F.z, Ma.x}, A1[4] = {Ma.y, Ma.z, zero, zero};
    v4d B0[4] = {Fb.x, Fb.y, Fb.z, Mb.x}, B1[4] = {Mb.y, Mb.z, zero, zero};
    v4_transpose(A0);
    v4_transpose(A1);
    v4_transpose(B0);
    v4_transpose(B1);
    const int ngeo = (int)-(geo[0] + geo[1] + geo[2] + geo[3]), nlw = (int)-(lw[0] + lw[1] + lw[2] + lw[3]);
    /* counters shared by the threads: integer sums, the same in any order */
#pragma omp atomic
    s->kuhn_lanes[0] += ngeo - nlw;
#pragma omp atomic
    s->kuhn_lanes[1] += 4 - ngeo;
#pragma omp atomic
    s->kuhn_lanes[2] += nlw;
    int kept = ngeo;
    for (int l = 0; l < 4; l++) {
        if (!all && !geo[l]) {
            kept += scalar_any(s, k[l], track, periodic, E);
            continue;
        }
        cforce_set4(C, k[l], A0[l], A1[l], B0[l], B1[l]); /* A0 A1: f.xyz ta.xyz, B0 B1: -f.xyz tb.xyz */
        if (track) {
            if (damped[l]) E->visc += visc[l];
            E->elast += Un[l] + (kt[l] > 0 ? 0.5 * (fts.x[l] * fts.x[l] + fts.y[l] * fts.y[l] + fts.z[l] * fts.z[l]) / kt[l]
                                           : 0.0);
            E->plast += dD[l];
        }
    }
    return kept;
}

static inline __attribute__((always_inline)) int block(grit_scene *s, int lo, int hi, const bool track,
                                                        const bool periodic, const kopt opt,
                                                        const grit_kuhn_opt *kuhn, grit_law_energy *E)
{
    int n_real = 0, q[4], nq = 0;
    const grit_pair *pair = s->c.pair;
    const grit_posr *pr = s->b.pr;
    const grit_velw *vw = s->b.vw;
    const grit_ft *ft = s->b.ft;
    for (int k = lo; k < hi; k++) {
        /* the particles of a contact further on: their records are scattered
         * in memory (mostly L2 misses) and the loop is bound by that latency */
        if (k + PREFETCH < hi) {
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
        n_real += group4(s, q, track, periodic, opt, kuhn, E);
        nq = 0;
    }
    for (int l = 0; l < nq; l++) n_real += scalar_any(s, q[l], track, periodic, E);
    return n_real;
}

int grit_ss_kuhn_simd(grit_scene *s, int lo, int hi, bool track, grit_law_energy *E)
{
    const grit_kuhn_opt kuhn = grit_law_ctx_from(s).kuhn;
    const kopt opt = {.clamp = kuhn.onset || kuhn.turn, .projection = kuhn.projection, .twirl = kuhn.twirl};
    if (s->cell) return block(s, lo, hi, track, true, opt, &kuhn, E); /* periodic: one instance */
    return track ? block(s, lo, hi, true, false, opt, &kuhn, E) : block(s, lo, hi, false, false, opt, &kuhn, E);
}
