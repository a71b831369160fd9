/* grit: the sphere-sphere / IdealElPl contact loop, four contacts at a time.
 *
 * This pair carries nearly all the contacts of a granular bed, and its
 * scalar loop costs about 700 instructions per contact (the L6Geom frame
 * update is long). Here real contacts are gathered in groups of four and the
 * geometry (spec 2.4 (1)), the frame update (1.6), the law (5.2, with the
 * dashpot of law2/idealelpl.h) and the forces are computed in 4-wide vectors;
 * the arithmetic is the scalar code's, lane by lane (results agree to
 * rounding; tests compare the two paths). Contacts that are not real yet, or
 * need a special case (coincident centres, flipped normal), go through the
 * scalar run_block, so creation, physics and every rare branch have one
 * implementation. Force scattering stays serial and in contact order. */
#include "contact/ss_idealelpl_simd.h"

#include "cg2/sphere_sphere.h"
#include "contact/contact_block.h"
#include "contact/simd.h"
#include "contact/ss_geom_simd.h"
#include "law2/idealelpl.h"

/* how many contacts ahead the particle records are prefetched */
#define PREFETCH 12

typedef struct lane_energy {
    v4d elast, plast, visc, broken;
} lane_energy;

/* The record layouts the row gathers and stores below rely on. */
#include <stddef.h>
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

/* Row j (4 doubles from byte offset off) of the records at p[0..3],
 * transposed: out[f] holds field f of the four records. */
static inline void gather_rows(const void *const p[4], size_t off, v4d out[4])
{
    for (int l = 0; l < 4; l++) out[l] = v4_load((const char *)p[l] + off);
    v4_transpose(out);
}

/* Scalar fallback for one contact. */
static inline int scalar_one(grit_scene *s, int k, bool track, grit_law_energy *E)
{
    return track ? run_block(s, k, k + 1, cg2_sphere_sphere, law_idealelpl, create_idealelpl, true, false, E)
                 : run_block(s, k, k + 1, cg2_sphere_sphere, law_idealelpl, create_idealelpl, false, false, E);
}
static int scalar_one_cell(grit_scene *s, int k, bool track, grit_law_energy *E)
{
    return track ? run_block_cell(s, k, k + 1, cg2_sphere_sphere, law_idealelpl, create_idealelpl, true, false, true, E)
                 : run_block_cell(s, k, k + 1, cg2_sphere_sphere, law_idealelpl, create_idealelpl, false, false, true, E);
}
static inline __attribute__((always_inline)) int scalar_any(grit_scene *s, int k, bool track, const bool periodic,
                                                             grit_law_energy *E)
{
    return periodic ? scalar_one_cell(s, k, track, E) : scalar_one(s, k, track, E);
}

/* Periodic cell: B's image and its velocity shift, lane by lane. */
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

/* Four real sphere-sphere contacts k[0..3]. Returns the number kept, or -1
 * if a lane needs the scalar path (nothing has been written then). */
static inline __attribute__((always_inline)) int group4(grit_scene *s, const int *k, const bool track,
                                                         const bool periodic, lane_energy *LE, grit_law_energy *E)
{
    grit_contacts *C = &s->c;
    const grit_posr *pr = s->b.pr;
    const grit_velw *vw = s->b.vw;
    const double dt = s->dt;
    const v4d vdt = v4_set1(dt), half = v4_set1(0.5), zero = v4_set1(0.0);
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
    v4d R[4];
    gather_rows(pa, 0, R); /* x y z r */
    const v4vec xa = {R[0], R[1], R[2]};
    const v4d ra = R[3];
    gather_rows(pb, 0, R);
    v4vec xb = {R[0], R[1], R[2]};
    const v4d rb = R[3];
    gather_rows(wa4, 0, R); /* v.x v.y v.z w.x */
    v4d R2[4];
    gather_rows(wa4, 32, R2); /* w.y w.z pad pad */
    const v4vec va = {R[0], R[1], R[2]}, wa = {R[3], R2[0], R2[1]};
    gather_rows(wb4, 0, R);
    gather_rows(wb4, 32, R2);
    v4vec vb = {R[0], R[1], R[2]};
    const v4vec wb = {R[3], R2[0], R2[1]};
    if (periodic) image4(s, k, &xb, &vb);
    grit_l6geom *g[4] = {&C->geom[k[0]], &C->geom[k[1]], &C->geom[k[2]], &C->geom[k[3]]};
    grit_frictphys *p[4] = {&C->phys[k[0]], &C->phys[k[1]], &C->phys[k[2]], &C->phys[k[3]]};
    const void *gp[4] = {g[0], g[1], g[2], g[3]};
    gather_rows(gp, 0, R); /* ex.x ex.y ex.z ey.x */
    gather_rows(gp, 32, R2); /* ey.y ey.z c.x c.y */
    const v4vec nprev = {R[0], R[1], R[2]}, yprev = {R[3], R2[0], R2[1]};
    const v4vec cprev = {R2[2], R2[3], {g[0]->c.z, g[1]->c.z, g[2]->c.z, g[3]->c.z}};

    /* geometry and frame update: Cg2_Sphere_Sphere, l6geom_update */
    const ss4_geom G = ss4_geom_update(s, xa, ra, va, wa, xb, rb, vb, wb, nprev, yprev, cprev);
    if (v4_any((G.dist == zero) | (G.nb == zero))) return -1;
    const v4d uN = G.uN;
    const v4vec c = G.c, ex = G.ex, ey = G.ey;
    const v4vec vel = G.vel, angvel = G.angvel;

    /* law: Law2_L6Geom_FrictPhys_IdealElPl with the optional dashpot */
    const void *pp4[4] = {p[0], p[1], p[2], p[3]};
    v4d P0[4], P1[4];
    gather_rows(pp4, 0, P0);  /* f.x f.y f.z t.x */
    gather_rows(pp4, 32, P1); /* t.y t.z kn kt */
    const v4d kn = P1[2], kt = P1[3];
    const v4d tanphi = {p[0]->tan_phi, p[1]->tan_phi, p[2]->tan_phi, p[3]->tan_phi};
    const v4d cn = {p[0]->cn, p[1]->cn, p[2]->cn, p[3]->cn};
    const v4d fy0 = P0[1], fz0 = P0[2];
    const grit_idealelpl_def *law = &s->laws.idealelpl;
    const bool no_break = law->no_break, no_slip = law->no_slip, plast_return = law->plast_book == GRIT_PLAST_BOOK_RETURN;
    const v4l broken = no_break ? (v4l){0, 0, 0, 0} : (uN > zero);
    const v4d fel = kn * uN;
    v4d fx = fel + cn * vel.x;
    if (!no_break) fx = v4_min(fx, zero); /* a dashpot never pulls */
    v4d fy = zero, fz = zero;
    const v4d ktnz = v4_sel(kt != zero, kt, v4_set1(1.0)); /* kt = 0: energy terms skipped */
    if (!law->no_frict) {
        const v4l frict = tanphi != zero;
        fy = fy0 + vdt * kt * vel.y;
        fz = fz0 + vdt * kt * vel.z;
        const v4d fmax = v4_abs(fx) * tanphi;
        const v4d ft2 = fy * fy + fz * fz;
        const v4l slip = no_slip ? (v4l){0, 0, 0, 0} : (ft2 > fmax * fmax);
        if (v4_any(slip)) {
            const v4d ftn = v4_sqrt(ft2);
            const v4d ratio = v4_sel(ftn > zero, fmax / v4_sel(ftn > zero, ftn, v4_set1(1.0)), zero);
            if (track && plast_return)
                LE->plast += v4_sel(slip & (kt != zero) & ~broken, fmax * (ftn - fmax) / ktnz, zero);
            fy = v4_sel(slip, fy * ratio, fy);
            fz = v4_sel(slip, fz * ratio, fz);
            if (track && !plast_return) { /* as law_idealelpl: trapezoidal work minus the change of stored energy */
                const v4d W = half * vdt * ((fy0 + fy) * vel.y + (fz0 + fz) * vel.z);
                const v4d dU = half * ((fy * fy + fz * fz) - (fy0 * fy0 + fz0 * fz0)) / ktnz;
                LE->plast += v4_sel(slip & frict & (kt != zero) & ~broken, W - dU, zero);
            }
        }
        fy = v4_sel(frict, fy, zero);
        fz = v4_sel(frict, fz, zero);
    }
    const v4l keep = ~broken;
    if (track) {
        const v4d kt_on = v4_sel(kt != zero, v4_set1(1.0), zero);
        /* trapezoidal, as law_idealelpl (these contacts are never fresh) */
        const v4d fd0 = P0[0] - kn * (uN - vel.x * vdt);
        LE->visc += v4_sel(keep & (cn != zero), half * ((fx - fel) + fd0) * vel.x * vdt, zero);
        LE->visc += v4_sel(broken & (cn != zero), half * vdt * fd0 * vel.x, zero);
        LE->elast += v4_sel(keep, half * kn * uN * uN + kt_on * half * (fy * fy + fz * fz) / ktnz, zero);
        LE->broken += v4_sel(broken & (kt != zero),
                             half * (fy0 * fy0 + fz0 * fz0) / ktnz + half * vdt * (fy0 * vel.y + fz0 * vel.z), zero);
    }
    (void)E;

    /* forces on A (global), the opposite on B; broken lanes apply nothing */
    const v4vec ez = vv_cross(ex, ey);
    const v4d fxk = v4_sel(keep, fx, zero), fyk = v4_sel(keep, fy, zero), fzk = v4_sel(keep, fz, zero);
    const v4vec F = vv_add(vv_add(vv_scale(ex, fxk), vv_scale(ey, fyk)), vv_scale(ez, fzk));
    const v4vec Ma = vv_cross(vv_sub(c, xa), F);
    const v4vec Mb = vv_cross(vv_sub(c, xb), (v4vec){-F.x, -F.y, -F.z});

    /* geometry records: four rows of four doubles, transposed back */
    v4d G0[4] = {ex.x, ex.y, ex.z, ey.x}, G1[4] = {ey.y, ey.z, c.x, c.y}, G2[4] = {c.z, uN, vel.x, vel.y},
        G3[4] = {vel.z, angvel.x, angvel.y, angvel.z};
    v4_transpose(G0);
    v4_transpose(G1);
    v4_transpose(G2);
    v4_transpose(G3);
    /* force rows (f, first torque component kept) and particle increments */
    v4d F0[4] = {fx, fy, fz, P0[3]};
    v4_transpose(F0);
    const v4vec Fb = {-F.x, -F.y, -F.z};
    v4d A0[4] = {F.x, F.y, F.z, Ma.x}, A1[4] = {Ma.y, Ma.z, zero, zero};
    v4d B0[4] = {Fb.x, Fb.y, Fb.z, Mb.x}, B1[4] = {Mb.y, Mb.z, zero, zero};
    v4_transpose(A0);
    v4_transpose(A1);
    v4_transpose(B0);
    v4_transpose(B1);
    int kept = 0;
    for (int l = 0; l < 4; l++) {
        char *gl = (char *)g[l];
        v4_store(gl, G0[l]);
        v4_store(gl + 32, G1[l]);
        v4_store(gl + 64, G2[l]);
        v4_store(gl + 96, G3[l]);
        if (broken[l]) {
            C->pair[k[l]].flags &= (uint8_t)~CF_REAL;
            continue;
        }
        v4_store(p[l], F0[l]);
        kept++;
        cforce_set4(C, k[l], A0[l], A1[l], B0[l], B1[l]); /* A0 A1: f.xyz ta.xyz, B0 B1: -f.xyz tb.xyz */
    }
    return kept;
}

static inline __attribute__((always_inline)) int block(grit_scene *s, int lo, int hi, const bool track,
                                                        const bool periodic, grit_law_energy *E)
{
    lane_energy LE = {{0, 0, 0, 0}, {0, 0, 0, 0}, {0, 0, 0, 0}, {0, 0, 0, 0}};
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
            if (v3_norm2(v3_sub(xb, pa.pos)) <= rr * rr) n_real += scalar_any(s, k, track, periodic, E);
            continue;
        }
        q[nq++] = k;
        if (nq < 4) continue;
        int kept = group4(s, q, track, periodic, &LE, E);
        if (kept < 0)
            for (int l = 0; l < 4; l++) n_real += scalar_any(s, q[l], track, periodic, E);
        else n_real += kept;
        nq = 0;
    }
    for (int l = 0; l < nq; l++) n_real += scalar_any(s, q[l], track, periodic, E);
    if (track) {
        E->elast += v4_hsum(LE.elast);
        E->plast += v4_hsum(LE.plast);
        E->visc += v4_hsum(LE.visc);
        E->broken += v4_hsum(LE.broken);
    }
    return n_real;
}

int grit_ss_idealelpl_simd(grit_scene *s, int lo, int hi, bool track, grit_law_energy *E)
{
    if (s->cell) return block(s, lo, hi, track, true, E); /* periodic: one instance */
    return track ? block(s, lo, hi, true, false, E) : block(s, lo, hi, false, false, E);
}
