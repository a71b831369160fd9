/* grit: the leapfrog integrator (Woo's Leapfrog, spec 8.2-8.4).
 *
 * Velocities live at mid-steps, positions at steps. The forces used in step
 * n were computed by the contact loop of step n-1; the accumulators are reset
 * to m g after the update (so step 0 moves with zero force, as in Woo, unless
 * gravity_first_step). Imposed motion along local axes (law tester) is
 * applied by local6.c, called only for particles flagged PF_LOCAL6. */
#include "integrate/integrate.h"
#include "collide/broadphase.h"
#include "integrate/local6.h"
#include "shape/shape.h"

/* Cundall non-viscous damping of one component: scale by 1 - d sgn(F v). */
static inline double damp(double a, double f, double v, double d)
{
    const double x = f * v;
    const double sgn = (double)((x > 0) - (x < 0)); /* branch-free: signs are random */
    return a * (1.0 - d * sgn);
}

/* q' = 1/2 q (0, wb), wb in body axes */
static inline grit_quat qdot(grit_vec3 wb, grit_quat q)
{
    grit_quat r = q_mul(q, (grit_quat){0.0, wb.x, wb.y, wb.z});
    return (grit_quat){0.5 * r.w, 0.5 * r.x, 0.5 * r.y, 0.5 * r.z};
}
static inline grit_quat qadd(grit_quat a, double s, grit_quat b)
{
    return (grit_quat){a.w + s * b.w, a.x + s * b.x, a.y + s * b.y, a.z + s * b.z};
}

/* Quaternion leapfrog for anisotropic inertia (spec 8.3, correct rotation
 * sense). Updates ori, angmom and w. */
static void aspherical_rotate(grit_scene *s, int i, grit_vec3 M, double dt)
{
    grit_bodies *b = &s->b;
    grit_quat q = b->ori[i];
    grit_vec3 I = b->mi[i].inertia;
    grit_vec3 L = b->angmom[i];
    if (isnan(L.x)) { /* derived from w whenever w was assigned */
        grit_vec3 wb = q_unrotate(q, b->vw[i].w);
        L = q_rotate(q, v3(I.x * wb.x, I.y * wb.y, I.z * wb.z));
    }
    grit_vec3 Ln = v3_madd(L, 0.5 * dt, M);
    grit_vec3 lb = q_unrotate(q, Ln);
    grit_vec3 wbn = v3(lb.x / I.x, lb.y / I.y, lb.z / I.z);
    grit_quat qh = qadd(q, 0.5 * dt, qdot(wbn, q));
    L = v3_madd(L, dt, M);
    lb = q_unrotate(q, L);
    grit_vec3 wbh = v3(lb.x / I.x, lb.y / I.y, lb.z / I.z);
    q = q_normalized(qadd(q, dt, qdot(wbh, qh)));
    b->ori[i] = q;
    b->angmom[i] = L;
    b->vw[i].w = q_rotate(q, wbh);
}

typedef struct lf_sums {
    double ekin, egrav, edamp, maxd2, check;
} lf_sums;

/* One particle. `general` false: the caller guarantees no blocked DoF, no
 * anisotropic inertia and no shape following the node, so the compiler
 * drops those branches (the common case of a free sphere). */
static inline __attribute__((always_inline)) void integrate_one(grit_scene *s, int i, const bool general,
                                                                 const bool track, const bool has_d,
                                                                 const bool has_g, lf_sums *S)
{
    grit_bodies *b = &s->b;
    const double dt = s->dt, d = s->def.damping;
    const grit_vec3 g = s->def.gravity;
    const unsigned fl = b->flags[i];
    const unsigned blocked = general ? (fl & GRIT_BLOCK_ALL) : 0u;
    grit_velw vw = b->vw[i];
    const grit_ft ft = b->ft[i];
    const grit_massi mi = b->mi[i];
    const bool dmp = has_d && !(fl & PF_NO_DAMPING);
    const bool energy = track && !(fl & PF_NO_ENERGY);
    if (energy) {
        if (dmp)
            S->edamp += d * dt *
                        (fabs(vw.v.x * ft.f.x) + fabs(vw.v.y * ft.f.y) + fabs(vw.v.z * ft.f.z) +
                         fabs(vw.w.x * ft.t.x) + fabs(vw.w.y * ft.t.y) + fabs(vw.w.z * ft.t.z));
        if (has_g && !(fl & PF_NO_GRAVITY)) {
            double p = 0;
            if (!(blocked & GRIT_BLOCK_X)) p += g.x * vw.v.x;
            if (!(blocked & GRIT_BLOCK_Y)) p += g.y * vw.v.y;
            if (!(blocked & GRIT_BLOCK_Z)) p += g.z * vw.v.z;
            S->egrav -= mi.m * dt * p;
        }
    }
    grit_vec3 a = v3_zero(), al = v3_zero();
    const bool asph = general && (fl & PF_ASPHERICAL) && (blocked & 0x38u) != 0x38u;
    if (blocked != GRIT_BLOCK_ALL) {
        const double im = 1.0 / mi.m;
        a = v3((blocked & GRIT_BLOCK_X) ? 0 : ft.f.x * im, (blocked & GRIT_BLOCK_Y) ? 0 : ft.f.y * im,
               (blocked & GRIT_BLOCK_Z) ? 0 : ft.f.z * im);
        if (dmp) {
            a.x = damp(a.x, ft.f.x, vw.v.x + 0.5 * dt * a.x, d);
            a.y = damp(a.y, ft.f.y, vw.v.y + 0.5 * dt * a.y, d);
            a.z = damp(a.z, ft.f.z, vw.v.z + 0.5 * dt * a.z, d);
        }
        if (!asph) {
            const grit_vec3 I = mi.inertia;
            if (general)
                al = v3((blocked & GRIT_BLOCK_RX) ? 0 : ft.t.x / I.x, (blocked & GRIT_BLOCK_RY) ? 0 : ft.t.y / I.y,
                        (blocked & GRIT_BLOCK_RZ) ? 0 : ft.t.z / I.z);
            else /* isotropic */
                al = v3_scale(ft.t, 1.0 / I.x);
            if (dmp) {
                al.x = damp(al.x, ft.t.x, vw.w.x + 0.5 * dt * al.x, d);
                al.y = damp(al.y, ft.t.y, vw.w.y + 0.5 * dt * al.y, d);
                al.z = damp(al.z, ft.t.z, vw.w.z + 0.5 * dt * al.z, d);
            }
        }
    }
    if (energy) {
        grit_vec3 vt = v3_madd(vw.v, 0.5 * dt, a);
        double ek = 0.5 * mi.m * v3_norm2(vt);
        const grit_vec3 I = mi.inertia;
        if (isfinite(I.x) && isfinite(I.y) && isfinite(I.z)) {
            if (asph) {
                grit_vec3 wb = q_unrotate(b->ori[i], vw.w);
                ek += 0.5 * (I.x * wb.x * wb.x + I.y * wb.y * wb.y + I.z * wb.z * wb.z);
            } else {
                grit_vec3 wt = v3_madd(vw.w, 0.5 * dt, al);
                ek += 0.5 * (I.x * wt.x * wt.x + I.y * wt.y * wt.y + I.z * wt.z * wt.z);
            }
        }
        if (isfinite(ek)) S->ekin += ek;
    }
    vw.v = v3_madd(vw.v, dt, a);
    if (!asph) vw.w = v3_madd(vw.w, dt, al);
    if (general && (fl & PF_LOCAL6)) grit_local6_velocity(s, i, &vw);
    grit_vec3 pos = v3_madd(b->pr[i].pos, dt, vw.v);
    b->pr[i].pos = pos;
    if (asph) {
        grit_vec3 M = ft.t;
        if (blocked & GRIT_BLOCK_RX) M.x = 0;
        if (blocked & GRIT_BLOCK_RY) M.y = 0;
        if (blocked & GRIT_BLOCK_RZ) M.z = 0;
        if (dmp) {
            M.x = damp(M.x, M.x, vw.w.x, d);
            M.y = damp(M.y, M.y, vw.w.y, d);
            M.z = damp(M.z, M.z, vw.w.z, d);
        }
        b->vw[i].v = vw.v;
        aspherical_rotate(s, i, M, dt);
    } else {
        if (vw.w.x != 0 || vw.w.y != 0 || vw.w.z != 0)
            b->ori[i] = q_renorm(q_mul(q_rotvec(v3_scale(vw.w, dt)), b->ori[i]));
        b->vw[i] = vw;
    }
    if (general && (fl & PF_MOVES_SHAPE)) {
        grit_shape_classes[b->shape[i]]->follow_node(s, i);
        if (grit_broadphase_box_escaped(s, i)) S->maxd2 = INFINITY; /* rotation moved the vertices */
    }
    /* reset the accumulators for the contact loop of this step */
    const bool grav = has_g && !(fl & PF_NO_GRAVITY);
    b->ft[i].f = grav ? v3_scale(g, mi.m) : v3_zero();
    b->ft[i].t = v3_zero();
    if (general && (fl & PF_LOCAL6)) grit_local6_force(s, i);
    const double d2 = v3_norm2(v3_sub(pos, b->refpos[i]));
    if (d2 > S->maxd2) S->maxd2 = d2;
    S->check += pos.x + pos.y + pos.z;
}

enum { SPECIAL_FLAGS = GRIT_BLOCK_ALL | PF_ASPHERICAL | PF_MOVES_SHAPE | PF_LOCAL6 };

static inline __attribute__((always_inline)) void integrate_all(grit_scene *s, const bool track, const bool has_d,
                                                                 const bool has_g, lf_sums *S)
{
    const uint16_t *flags = s->b.flags;
    for (int i = 0; i < s->b.n; i++) {
        if (flags[i] & SPECIAL_FLAGS) integrate_one(s, i, true, track, has_d, has_g, S);
        else integrate_one(s, i, false, track, has_d, has_g, S);
    }
}

int grit_leapfrog(grit_scene *s)
{
    grit_bodies *b = &s->b;
    const grit_vec3 g = s->def.gravity;
    const bool has_g = g.x != 0 || g.y != 0 || g.z != 0;
    const bool has_d = s->def.damping != 0;
    lf_sums S = {0, 0, 0, s->max_disp2, 0};
    if (s->def.track_energy) integrate_all(s, true, has_d, has_g, &S);
    else if (has_d) integrate_all(s, false, true, has_g, &S);
    else integrate_all(s, false, false, has_g, &S);
    s->max_disp2 = S.maxd2;
    if (s->def.track_energy) {
        s->energy[GRIT_E_KINETIC] += S.ekin;
        s->energy[GRIT_E_GRAV] += S.egrav;
        s->energy[GRIT_E_NONVISC] += S.edamp;
    }
    if (!isfinite(S.check)) {
        for (int i = 0; i < b->n; i++)
            if (!v3_isfinite(b->pr[i].pos))
                return grit_fail(s, GRIT_ENUMERIC,
                                 "particle %d: position became NaN or infinite at step %ld (time step %g s too "
                                 "large, or an invalid state)",
                                 b->id[i], s->step, s->dt);
    }
    return GRIT_OK;
}
