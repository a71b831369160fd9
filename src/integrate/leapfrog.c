/* grit: the leapfrog integrator (Woo's Leapfrog, spec 8.2-8.4).
 *
 * Velocities live at mid-steps, positions at steps. The forces used in step
 * n were computed by the contact loop of step n-1; the accumulators are reset
 * to m g after the update (so step 0 moves with zero force, as in Woo, unless
 * gravity_first_step). Imposed motion along local axes (law tester) is
 * applied by local6.c, called only for particles flagged PF_LOCAL6. */
#include "integrate/integrate.h"
#include "collide/broadphase.h"
#include "core/cell_impl.h"
#include "integrate/leapfrog_simd.h"
#include "integrate/local6.h"
#include "shape/clump.h"
#include "shape/shape.h"
#include "core/threads.h"

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

/* Angular momentum of particle i: the stored one, or derived from w
 * (spec 8.3 step 0) when w was assigned. */
static inline grit_vec3 aspherical_L(const grit_bodies *b, int i)
{
    grit_vec3 L = b->angmom[i];
    if (isnan(L.x)) {
        const grit_quat q = b->ori[i];
        const grit_vec3 I = b->mi[i].inertia, wb = q_unrotate(q, b->vw[i].w);
        L = q_rotate(q, v3(I.x * wb.x, I.y * wb.y, I.z * wb.z));
    }
    return L;
}

/* Quaternion leapfrog for anisotropic inertia (spec 8.3, correct rotation
 * sense). Updates ori, angmom and w.
 *
 * Deviation from the spec (docs/shapes.md, "aspherical motion"): the body
 * angular velocity of the mid-step, omega_b,1/2 = I^-1 A L_(n+1/2), takes A
 * from the mid-step orientation q_1/2, not from q_n. With q_n the update of
 * q is only first order: the rotational energy of a free body wanders by
 * about |w| dt of itself (1.3e-3 at 0.2 x the p-wave step for a tumbling
 * ellipsoid at 27 rad/s); with q_1/2 it is an explicit midpoint step,
 * second order (7e-6 there). */
static void aspherical_rotate(grit_scene *s, int i, grit_vec3 M, double dt)
{
    grit_bodies *b = &s->b;
    grit_quat q = b->ori[i];
    grit_vec3 I = b->mi[i].inertia;
    grit_vec3 L = aspherical_L(b, i);
    grit_vec3 Ln = v3_madd(L, 0.5 * dt, M);
    grit_vec3 lb = q_unrotate(q, Ln);
    grit_vec3 wbn = v3(lb.x / I.x, lb.y / I.y, lb.z / I.z);
    grit_quat qh = qadd(q, 0.5 * dt, qdot(wbn, q));
    L = v3_madd(L, dt, M);
    lb = q_unrotate(q_normalized(qh), L);
    grit_vec3 wbh = v3(lb.x / I.x, lb.y / I.y, lb.z / I.z);
    q = q_normalized(qadd(q, dt, qdot(wbh, qh)));
    b->ori[i] = q;
    b->angmom[i] = L;
    b->vw[i].w = q_rotate(q, wbh);
}

/* The torque the aspherical integrator applies: blocked components zeroed,
 * damped to first order with the stored w (spec 8.2, 8.4). */
static inline grit_vec3 aspherical_torque(grit_vec3 M, unsigned blocked, bool dmp, grit_vec3 w, double d)
{
    if (blocked & GRIT_BLOCK_RX) M.x = 0;
    if (blocked & GRIT_BLOCK_RY) M.y = 0;
    if (blocked & GRIT_BLOCK_RZ) M.z = 0;
    if (dmp) {
        M.x = damp(M.x, M.x, w.x, d);
        M.y = damp(M.y, M.y, w.y, d);
        M.z = damp(M.z, M.z, w.z, d);
    }
    return M;
}

/* ---- periodic cell (spec 9.3, gradV2): the particles move with the
 * homogeneous field v = L x plus a fluctuation; damping and energy see the
 * fluctuation only. */

/* fluctuation of the mid-step velocity v at the end-of-step position x:
 * v - L (x - dt/2 v), L the gradient of that mid-step (the leapfrog's L-) */
static inline grit_vec3 cell_fluct(const grit_mat3 *L, grit_vec3 v, grit_vec3 x, double dt)
{
    return v3_sub(v, m3_mul(L, v3_madd(x, -0.5 * dt, v)));
}

/* new velocity; blocked components keep theirs */
static inline grit_vec3 cell_velocity(const grit_cell *c, grit_vec3 v, grit_vec3 x, grit_vec3 a, unsigned blocked)
{
    grit_vec3 r = grit_cell_velocity(c, v, x, a);
    if (blocked & GRIT_BLOCK_X) r.x = v.x;
    if (blocked & GRIT_BLOCK_Y) r.y = v.y;
    if (blocked & GRIT_BLOCK_Z) r.z = v.z;
    return r;
}

/* change of the field's spin, on the free rotations */
static inline grit_vec3 cell_dspin(const grit_cell *c, unsigned blocked)
{
    grit_vec3 d = c->dspin;
    if (blocked & GRIT_BLOCK_RX) d.x = 0;
    if (blocked & GRIT_BLOCK_RY) d.y = 0;
    if (blocked & GRIT_BLOCK_RZ) d.z = 0;
    return d;
}

typedef struct lf_sums {
    double maxd2, check, edamp, evisc;
} lf_sums;

/* The accelerations the leapfrog applies to one particle: force over mass
 * on the free DoFs, then Cundall's damping judged on the on-step velocity
 * estimate vf + dt/2 a, then the viscous mass damping -c v with v the
 * on-step velocity (v- + v+)/2, solved for v+: a <- (a - c vf) / (1 + c dt/2),
 * so that a step scales a free velocity by (1 - c dt/2) / (1 + c dt/2),
 * exp(-c dt) to third order and stable for any c dt. Shared by the step and
 * by the energy book, so that the book sees exactly the accelerations the
 * step applies. `au`, `alu`: before damping; `ac`, `alc`: after Cundall's.
 * An aspherical particle's rotation is not here (its angular-momentum step
 * damps the torque itself). */
typedef struct lf_acc {
    grit_vec3 a, al, au, alu, ac, alc;
} lf_acc;

/* the viscous step of one component, free DoFs only */
static inline double visc(double a, double v, double c, double inv, bool blocked)
{
    return blocked ? a : (a - c * v) * inv;
}

static inline __attribute__((always_inline)) lf_acc lf_accel(const grit_ft *ft, const grit_massi *mi,
                                                             unsigned blocked, const bool general, bool asph,
                                                             bool dmp, bool vsc, grit_vec3 vf, grit_vec3 wf,
                                                             double dt, double d, double c)
{
    lf_acc r = {v3_zero(), v3_zero(), v3_zero(), v3_zero(), v3_zero(), v3_zero()};
    if (blocked == GRIT_BLOCK_ALL) return r;
    const double im = 1.0 / mi->m;
    const double inv = vsc ? 1.0 / (1.0 + 0.5 * c * dt) : 1.0;
    grit_vec3 a = v3((blocked & GRIT_BLOCK_X) ? 0 : ft->f.x * im, (blocked & GRIT_BLOCK_Y) ? 0 : ft->f.y * im,
                     (blocked & GRIT_BLOCK_Z) ? 0 : ft->f.z * im);
    r.au = a;
    if (dmp) {
        a.x = damp(a.x, ft->f.x, vf.x + 0.5 * dt * a.x, d);
        a.y = damp(a.y, ft->f.y, vf.y + 0.5 * dt * a.y, d);
        a.z = damp(a.z, ft->f.z, vf.z + 0.5 * dt * a.z, d);
    }
    r.ac = a;
    if (vsc) {
        a.x = visc(a.x, vf.x, c, inv, blocked & GRIT_BLOCK_X);
        a.y = visc(a.y, vf.y, c, inv, blocked & GRIT_BLOCK_Y);
        a.z = visc(a.z, vf.z, c, inv, blocked & GRIT_BLOCK_Z);
    }
    r.a = a;
    if (!asph) {
        const grit_vec3 I = mi->inertia;
        grit_vec3 al;
        if (general)
            al = v3((blocked & GRIT_BLOCK_RX) ? 0 : ft->t.x / I.x, (blocked & GRIT_BLOCK_RY) ? 0 : ft->t.y / I.y,
                    (blocked & GRIT_BLOCK_RZ) ? 0 : ft->t.z / I.z);
        else /* isotropic */
            al = v3_scale(ft->t, 1.0 / I.x);
        r.alu = al;
        if (dmp) {
            al.x = damp(al.x, ft->t.x, wf.x + 0.5 * dt * al.x, d);
            al.y = damp(al.y, ft->t.y, wf.y + 0.5 * dt * al.y, d);
            al.z = damp(al.z, ft->t.z, wf.z + 0.5 * dt * al.z, d);
        }
        r.alc = al;
        if (vsc) {
            al.x = visc(al.x, wf.x, c, inv, blocked & GRIT_BLOCK_RX);
            al.y = visc(al.y, wf.y, c, inv, blocked & GRIT_BLOCK_RY);
            al.z = visc(al.z, wf.z, c, inv, blocked & GRIT_BLOCK_RZ);
        }
        r.al = al;
    }
    return r;
}

/* The viscous damping of an aspherical particle's rotation, on its torque:
 * -c L with the on-step angular momentum L + dt/2 M, solved for it. */
static inline grit_vec3 aspherical_visc(grit_vec3 M, grit_vec3 L, unsigned blocked, double c, double dt)
{
    const double inv = 1.0 / (1.0 + 0.5 * c * dt);
    return v3(visc(M.x, L.x, c, inv, blocked & GRIT_BLOCK_RX), visc(M.y, L.y, c, inv, blocked & GRIT_BLOCK_RY),
              visc(M.z, L.z, c, inv, blocked & GRIT_BLOCK_RZ));
}

/* The work of the damping forces of one step over half a move at velocity v
 * (v, w fluctuations): Cundall's into *ed, the viscous one into *ev. */
static inline void damp_work(const lf_acc *A, const grit_massi *mi, grit_vec3 I, bool rot, grit_vec3 v, grit_vec3 w,
                             double dt, double *ed, double *ev)
{
    const double h = 0.5 * dt;
    *ed -= h * mi->m * ((A->ac.x - A->au.x) * v.x + (A->ac.y - A->au.y) * v.y + (A->ac.z - A->au.z) * v.z);
    *ev -= h * mi->m * ((A->a.x - A->ac.x) * v.x + (A->a.y - A->ac.y) * v.y + (A->a.z - A->ac.z) * v.z);
    if (rot) {
        *ed -= h * (I.x * (A->alc.x - A->alu.x) * w.x + I.y * (A->alc.y - A->alu.y) * w.y +
                    I.z * (A->alc.z - A->alu.z) * w.z);
        *ev -= h * (I.x * (A->al.x - A->alc.x) * w.x + I.y * (A->al.y - A->alc.y) * w.y +
                    I.z * (A->al.z - A->alc.z) * w.z);
    }
}

/* The step of the velocity update: dt, or with the adaptive step the mean
 * of the last and this step's dt (the variable-step leapfrog: the velocity
 * lives between the positions, its step between theirs), which keeps the
 * integration and the energy balance second order while dt changes. */
static inline double grit_velocity_dt(const grit_scene *s)
{
    return s->def.dyn_dt && isfinite(s->dt_prev) ? 0.5 * (s->dt_prev + s->dt) : s->dt;
}

/* One particle. `general` false: the caller guarantees no blocked DoF, no
 * anisotropic inertia and no shape following the node, so the compiler
 * drops those branches (the common case of a free sphere). `has_v`: viscous
 * mass damping on. `book`: add the second half of the damping's work (see
 * grit_leapfrog_energy below); the rest of the book is done at the end of
 * the step. */
static inline __attribute__((always_inline)) void integrate_one(grit_scene *s, int i, const bool general,
                                                                 const bool book, const bool has_d,
                                                                 const bool has_v, const bool has_g,
                                                                 const bool periodic, double dtv, lf_sums *S)
{
    grit_bodies *b = &s->b;
    const double dt = s->dt, d = s->def.damping, c = s->def.mass_damping;
    const grit_vec3 g = s->def.gravity;
    const unsigned fl = b->flags[i];
    const unsigned blocked = general ? (fl & GRIT_BLOCK_ALL) : 0u;
    grit_velw vw = b->vw[i];
    const grit_ft ft = b->ft[i];
    const grit_massi mi = b->mi[i];
    const bool dmp = has_d && !(fl & PF_NO_DAMPING);
    const bool vsc = has_v && !(fl & PF_NO_DAMPING);
    const grit_vec3 vf = periodic ? cell_fluct(&s->cell->L_prev, vw.v, b->pr[i].pos, dt) : vw.v;
    const grit_vec3 wf = periodic ? v3_sub(vw.w, s->cell->spin_prev) : vw.w;
    const bool asph = general && (fl & PF_ASPHERICAL) && (blocked & 0x38u) != 0x38u;
    const lf_acc A = lf_accel(&ft, &mi, blocked, general, asph, dmp, vsc, vf, wf, dtv, d, c);
    const grit_vec3 a = A.a, al = A.al;
    if (periodic) vw.v = cell_velocity(s->cell, vw.v, b->pr[i].pos, a, blocked);
    else vw.v = v3_madd(vw.v, dtv, a);
    if (!asph) vw.w = v3_madd(vw.w, dtv, al);
    if (periodic && !asph) vw.w = v3_add(vw.w, cell_dspin(s->cell, blocked));
    if (general && (fl & PF_LOCAL6)) grit_local6_velocity(s, i, &vw);
    grit_vec3 pos = v3_madd(b->pr[i].pos, dt, vw.v);
    b->pr[i].pos = pos;
    if (book && (dmp || vsc) && blocked != GRIT_BLOCK_ALL && !(fl & (PF_NO_ENERGY | s->energy_skip))) {
        /* the damping forces of this step over the second half of the move,
         * with the new mid-step velocity */
        const grit_vec3 vn = periodic ? cell_fluct(&s->cell->L, vw.v, pos, dt) : vw.v;
        const grit_vec3 wn = periodic ? v3_sub(vw.w, m3_spin(&s->cell->L)) : vw.w;
        const grit_vec3 I = general ? mi.inertia : v3(mi.inertia.x, mi.inertia.x, mi.inertia.x);
        const bool rot = !asph && isfinite(I.x) && isfinite(I.y) && isfinite(I.z);
        damp_work(&A, &mi, I, rot, vn, wn, dtv, &S->edamp, &S->evisc);
    }
    if (asph) {
        grit_vec3 M = aspherical_torque(ft.t, blocked, dmp, wf, d);
        if (vsc) M = aspherical_visc(M, aspherical_L(b, i), blocked, c, dt);
        if (periodic && s->cell->spin_changed) {
            b->vw[i].w = v3_add(vw.w, cell_dspin(s->cell, blocked));
            b->angmom[i] = v3(NAN, NAN, NAN); /* re-derived from w */
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
    grit_vec3 dpos = v3_sub(pos, b->refpos[i]);
    if (periodic) dpos = grit_cell_image_move(s->cell, i, dpos);
    const double d2 = v3_norm2(dpos);
    if (d2 > S->maxd2) S->maxd2 = d2;
    S->check += pos.x + pos.y + pos.z;
}

enum { SPECIAL_FLAGS = GRIT_BLOCK_ALL | PF_ASPHERICAL | PF_MOVES_SHAPE | PF_LOCAL6 | PF_MEMBER };

/* particles [lo, hi) */
static inline __attribute__((always_inline)) void integrate_range(grit_scene *s, int lo, int hi, const bool book,
                                                                   const bool has_d, const bool has_v,
                                                                   const bool has_g, const bool periodic, lf_sums *S)
{
    const uint16_t *flags = s->b.flags;
    const double dtv = grit_velocity_dt(s);
    const bool vec = !periodic && !book && !has_v && s->def.simd && dtv == s->dt;
    for (int i = lo; i < hi;) {
        /* four free spheres in a row: the vectorised path */
        if (vec && i + 4 <= hi && (flags[i] | flags[i + 1] | flags[i + 2] | flags[i + 3]) == 0 &&
            grit_leapfrog4(s, i, has_d, has_g, &S->maxd2, &S->check)) {
            i += 4;
            continue;
        }
        if (flags[i] & PF_MEMBER) { /* placed by its clump's body (grit_clumps_place) */
            i++;
            continue;
        }
        if (flags[i] & SPECIAL_FLAGS) integrate_one(s, i, true, book, has_d, has_v, has_g, periodic, dtv, S);
        else integrate_one(s, i, false, book, has_d, has_v, has_g, periodic, dtv, S);
        i++;
    }
}

/* Every particle, in chunks of GRIT_PCHUNK run by the threads; each chunk
 * sums into its own slot, and the slots are added in chunk order, so the
 * sums do not depend on the thread count (one chunk: the serial loop). */
static inline __attribute__((always_inline)) int integrate_all(grit_scene *s, const bool book, const bool has_d,
                                                                const bool has_v, const bool has_g,
                                                                const bool periodic, lf_sums *S)
{
    const int n = s->b.n, nch = grit_chunks(n, GRIT_PCHUNK);
    if (nch <= 1) {
        integrate_range(s, 0, n, book, has_d, has_v, has_g, periodic, S);
        return GRIT_OK;
    }
    lf_sums *part = grit_scratch(s, (size_t)nch * sizeof *part);
    if (!part) return grit_fail(s, GRIT_ENOMEM, "out of memory for the integrator's per-chunk sums");
#pragma omp parallel for schedule(static) num_threads(grit_nthreads(s)) if (grit_par(s, n))
    for (int c = 0; c < nch; c++) {
        part[c] = (lf_sums){0, 0, 0, 0};
        const int hi = (c + 1) * GRIT_PCHUNK < n ? (c + 1) * GRIT_PCHUNK : n;
        integrate_range(s, c * GRIT_PCHUNK, hi, book, has_d, has_v, has_g, periodic, &part[c]);
    }
    for (int c = 0; c < nch; c++) {
        if (part[c].maxd2 > S->maxd2) S->maxd2 = part[c].maxd2;
        S->check += part[c].check;
        S->edamp += part[c].edamp;
        S->evisc += part[c].evisc;
    }
    return GRIT_OK;
}

int grit_leapfrog(grit_scene *s)
{
    grit_bodies *b = &s->b;
    const grit_vec3 g = s->def.gravity;
    const bool has_g = g.x != 0 || g.y != 0 || g.z != 0;
    const bool has_d = s->def.damping != 0, has_v = s->def.mass_damping != 0;
    lf_sums S = {s->max_disp2, 0, 0, 0};
    const bool book = s->def.track_energy && (has_d || has_v); /* only damping is booked here */
    /* one instance for the periodic cell and one for damping that is booked
     * or viscous (runtime flags); the plain paths cost nothing for either */
    int rc;
    if (s->cell) rc = integrate_all(s, book, has_d, has_v, has_g, true, &S);
    else if (book || has_v) rc = integrate_all(s, book, has_d, has_v, has_g, false, &S);
    else if (has_d) rc = integrate_all(s, false, true, false, has_g, false, &S);
    else rc = integrate_all(s, false, false, false, has_g, false, &S);
    if (rc) return rc;
    if (s->n_clumps) { /* serial, after the threads: members are placed from their finished bodies */
        const double d2 = grit_clumps_place(s);
        if (d2 > S.maxd2) S.maxd2 = d2;
    }
    s->max_disp2 = S.maxd2;
    if (book) {
        s->energy[GRIT_E_NONVISC] += S.edamp;
        s->energy[GRIT_E_MASSDAMP] += S.evisc;
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

/* ---- the energy book of the particles, at the end of a step ----------------
 *
 * Every entry of the tracker describes the state at the end of the step, the
 * instant t_(n+1) of the positions the contact loop has just booked its
 * elastic energy at (docs/linear-model.md, "when the entries are booked").
 * The stored velocities are then mid-step ones, v- = v_(n+1/2); the next
 * step will make v+ = v- + dt a with a = a_(n+1), the (damped) acceleration
 * from the forces the contact loop has just accumulated. The kinetic energy
 * is the product 1/2 m v- . v+ = 1/2 m |v- + dt/2 a|^2 - m dt^2 |a|^2 / 8: the
 * on-step kinetic energy less a term of second order. With it the change
 * over a step is exactly the trapezoidal work 1/2 (F_n + F_(n+1)) . dx of the
 * forces, so a linear spring's energy and a constant force's are conserved
 * to round-off, and Cundall's damping is booked as the same trapezoid of its
 * force (half with v- here, half with v+ by the leapfrog), which closes its
 * book exactly. Gravity's work is that of the move
 * x_n -> x_(n+1) = dt v-. (The leapfrog used to book the kinetic energy of
 * t_n while the contact loop booked t_(n+1): the sum was off by the power
 * flowing into the contacts times dt, up to several percent during an
 * impact.) Aspherical rotations keep the on-step book (their update is not
 * a plain leapfrog). Costs one pass over the particles while tracking. */
typedef struct lf_energy {
    double ek, eg, ed, ev;
} lf_energy;

static void energy_one(const grit_scene *s, int i, const bool periodic, bool has_d, bool has_v, bool has_g,
                       double dt_step, lf_energy *E)
{
    const grit_bodies *b = &s->b;
    /* dt: the next step's velocity update (grit_velocity_dt) */
    const double dt = s->def.dyn_dt ? 0.5 * (dt_step + s->dt) : s->dt;
    const double d = s->def.damping, c = s->def.mass_damping;
    const grit_vec3 g = s->def.gravity;
    const unsigned fl = b->flags[i];
    const unsigned blocked = fl & GRIT_BLOCK_ALL;
    const grit_velw vw = b->vw[i];
    const grit_ft ft = b->ft[i];
    const grit_massi mi = b->mi[i];
    const bool dmp = has_d && !(fl & PF_NO_DAMPING), vsc = has_v && !(fl & PF_NO_DAMPING);
    /* the fluctuation as the next step's leapfrog will take it: the gradient
     * of this step is the next one's L- */
    const grit_vec3 vf = periodic ? cell_fluct(&s->cell->L, vw.v, b->pr[i].pos, dt_step) : vw.v;
    const grit_vec3 wf = periodic ? v3_sub(vw.w, m3_spin(&s->cell->L)) : vw.w;
    if (has_g && !(fl & PF_NO_GRAVITY)) {
        double p = 0;
        if (!(blocked & GRIT_BLOCK_X)) p += g.x * vf.x;
        if (!(blocked & GRIT_BLOCK_Y)) p += g.y * vf.y;
        if (!(blocked & GRIT_BLOCK_Z)) p += g.z * vf.z;
        E->eg -= mi.m * dt_step * p;
    }
    const bool asph = (fl & PF_ASPHERICAL) && (blocked & 0x38u) != 0x38u;
    const lf_acc A = lf_accel(&ft, &mi, blocked, true, asph, dmp, vsc, vf, wf, dt, d, c);
    const grit_vec3 a = A.a, al = A.al, I = mi.inertia;
    const bool finite_I = isfinite(I.x) && isfinite(I.y) && isfinite(I.z);
    grit_vec3 M = v3_zero();
    if (asph) {
        M = aspherical_torque(ft.t, blocked, dmp, wf, d);
        if (vsc) M = aspherical_visc(M, aspherical_L(b, i), blocked, c, dt);
    }
    if ((dmp || vsc) && blocked != GRIT_BLOCK_ALL) {
        /* the next step's damping forces over the first half of its move,
         * with v-: the trapezoidal work that the kinetic energy's change
         * holds (the leapfrog books the second half, with v+) */
        damp_work(&A, &mi, I, !asph && finite_I, vf, wf, dt, &E->ed, &E->ev);
        if (asph && dmp) /* damped in aspherical_torque; booked with the mid-step w */
            E->ed += d * dt * (fabs(wf.x * ft.t.x) + fabs(wf.y * ft.t.y) + fabs(wf.z * ft.t.z));
        if (asph && vsc) /* -c L, booked with the mid-step w */
            E->ev -= dt * v3_dot(wf, v3_sub(M, aspherical_torque(ft.t, blocked, dmp, wf, d)));
    }
    double ek = 0.5 * mi.m * (v3_norm2(v3_madd(vf, 0.5 * dt, a)) - 0.25 * dt * dt * v3_norm2(a));
    if (finite_I) {
        if (asph && !periodic) {
            /* on-step, like the translational part: L_n = L + dt/2 M (the
             * torque as the rotation takes it), in the body axes of q_n (the
             * mid-step w would lag the rotational energy by half a step) */
            const grit_vec3 lb = q_unrotate(b->ori[i], v3_madd(aspherical_L(b, i), 0.5 * dt, M));
            ek += 0.5 * (lb.x * lb.x / I.x + lb.y * lb.y / I.y + lb.z * lb.z / I.z);
        } else if (asph) {
            const grit_vec3 wb = q_unrotate(b->ori[i], wf);
            ek += 0.5 * (I.x * wb.x * wb.x + I.y * wb.y * wb.y + I.z * wb.z * wb.z);
        } else {
            const grit_vec3 wt = v3_madd(wf, 0.5 * dt, al);
            ek += 0.5 * (I.x * wt.x * wt.x + I.y * wt.y * wt.y + I.z * wt.z * wt.z) -
                  0.125 * dt * dt * (I.x * al.x * al.x + I.y * al.y * al.y + I.z * al.z * al.z);
        }
    }
    if (isfinite(ek)) E->ek += ek;
}

double grit_leapfrog_kinetic(const grit_scene *s, int i)
{
    if (s->b.flags[i] & PF_NO_ENERGY) return 0.0;
    const grit_vec3 g = s->def.gravity;
    lf_energy E = {0, 0, 0, 0};
    energy_one(s, i, s->cell != NULL, s->def.damping != 0, s->def.mass_damping != 0, g.x != 0 || g.y != 0 || g.z != 0,
               s->dt_prev, &E);
    return E.ek;
}

static void energy_range(const grit_scene *s, int lo, int hi, double dt_step, lf_energy *E)
{
    const grit_bodies *b = &s->b;
    const grit_vec3 g = s->def.gravity;
    const bool has_g = g.x != 0 || g.y != 0 || g.z != 0;
    const bool has_d = s->def.damping != 0, has_v = s->def.mass_damping != 0, periodic = s->cell != NULL;
    /* (MPI: another rank books its ghosts, and rank 0 the shared walls) */
    const unsigned skip = PF_NO_ENERGY | s->energy_skip;
    for (int i = lo; i < hi; i++)
        if (!(b->flags[i] & skip)) energy_one(s, i, periodic, has_d, has_v, has_g, dt_step, E);
}

int grit_leapfrog_energy(grit_scene *s, double dt_step)
{
    lf_energy E = {0, 0, 0, 0};
    /* chunks summed in chunk order, as the step's loop (integrate_all) */
    const int n = s->b.n, nch = grit_chunks(n, GRIT_PCHUNK);
    if (nch <= 1) energy_range(s, 0, n, dt_step, &E);
    else {
        lf_energy *part = grit_scratch(s, (size_t)nch * sizeof *part);
        if (!part) return grit_fail(s, GRIT_ENOMEM, "out of memory for the energy book's per-chunk sums");
#pragma omp parallel for schedule(static) num_threads(grit_nthreads(s)) if (grit_par(s, n))
        for (int c = 0; c < nch; c++) {
            part[c] = (lf_energy){0, 0, 0, 0};
            energy_range(s, c * GRIT_PCHUNK, (c + 1) * GRIT_PCHUNK < n ? (c + 1) * GRIT_PCHUNK : n, dt_step, &part[c]);
        }
        for (int c = 0; c < nch; c++) {
            E.ek += part[c].ek;
            E.eg += part[c].eg;
            E.ed += part[c].ed;
            E.ev += part[c].ev;
        }
    }
    s->energy[GRIT_E_KINETIC] = E.ek;
    s->energy[GRIT_E_GRAV] += E.eg;
    s->energy[GRIT_E_NONVISC] += E.ed;
    s->energy[GRIT_E_MASSDAMP] += E.ev;
    return GRIT_OK;
}
