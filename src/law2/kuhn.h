/* grit internal: Law2_L6Geom_FrictPhys_Kuhn -- the contact-loop adapter of
 * Kuhn's refined linear-frictional law (the mathematics is in kuhn_math.h).
 *
 * The law keeps its tangential force in GLOBAL coordinates and turns it
 * itself (projection + twirl), instead of letting the L6Geom frame carry it:
 * that is what makes the refinements, and their absence, visible. The
 * L6Geom frame only serves to hand the force to the contact loop.
 *
 * Inputs derived from the geometry functor's output `o` (end-of-step
 * positions, mid-step velocities of the leapfrog) and the stored state:
 * - zeta1 = -uN at the end of the step; zeta0 = the stored zeta1 of the
 *   previous step (V1: Delta u^n = zeta1 - zeta0), or for a new contact
 *   zeta1 + du . n1 (the kinematic previous overlap, exact for translation);
 * - n1 = the end-of-step normal (L6Geom ex);
 * - du = dt (v2 + w2 x b2 - v1 - w1 x b1) with MID-STEP branch vectors
 *   b = c_mid - x_mid, x_mid = x - dt/2 v and c_mid the mean of the stored
 *   and the new contact point (spec 1.1, 5.3: for a rigid motion with
 *   Cayley rotation vectors du vanishes exactly); the same kinematics as
 *   L6Geom's relative velocity;
 * - dtheta = dt w of each particle (the leapfrog's rotation increment).
 * The Coulomb limit uses the spring force kn zeta; a normal dashpot (cn)
 * acts on the transmitted force only (spec S16), clipped to no attraction
 * and booked as `visc`. A tangential dashpot (ct = kuhn_ct_div_cn cn) adds
 * ct v_t, v_t = du/dt less its normal part, to the transmitted tangential
 * force, as much of it as the Coulomb limit mu N leaves room for
 * (grit_dashpot_share); the law's state keeps the spring's force, so it needs
 * no state of its own; its work is booked as `visc`. The IdealElPl flags
 * (no_slip, no_break, ini_eqlb) do not apply; no_frict sets mu = 0. */
#ifndef GRIT_LAW2_KUHN_H
#define GRIT_LAW2_KUHN_H

#include "cg2/l6geom.h"
#include "law2/law2.h"

/* ext layout: stored tangential force (global, 3), overlap at the end of the
 * last step, contact point at the end of the last step (3), last status */
enum { GRIT_KUHN_X_FT = 0, GRIT_KUHN_X_ZETA = 3, GRIT_KUHN_X_C = 4, GRIT_KUHN_X_STATUS = 7, GRIT_KUHN_EXT_N = 8 };
enum { GRIT_LAW_KUHN_EXT_N = GRIT_KUHN_EXT_N };
#define GRIT_LAW_KUHN_TORQUE false

static inline void create_kuhn(const grit_scene *s, int a, int b, const grit_cg2_out *o, grit_contact_cold *cold,
                               grit_frictphys *p, double *ext)
{
    grit_create_frictphys(s, a, b, o, cold, p, ext);
}

/* The inputs of one contact update from the geometry (after its update),
 * the Cg2 output and the stored state x. */
static inline void grit_kuhn_inputs(const grit_law_ctx *L, const grit_l6geom *g, const grit_frictphys *p,
                                    const grit_cg2_out *o, const double *x, bool fresh, grit_kuhn_in *in)
{
    const double dt = L->dt;
    const grit_vec3 n1 = g->ex;
    /* NaN: state not written by this law (ext just allocated: law switched) */
    const bool hist = !fresh && !isnan(x[GRIT_KUHN_X_ZETA]);
    const grit_vec3 cm = hist ? v3_scale(v3_add(v3(x[4], x[5], x[6]), o->c), 0.5) : o->c;
    const grit_vec3 b1 = v3_sub(cm, v3_madd(o->x1, -0.5 * dt, o->v1));
    const grit_vec3 b2 = v3_sub(cm, v3_madd(o->x2, -0.5 * dt, o->v2));
    const grit_vec3 vrel = v3_sub(v3_add(o->v2, v3_cross(o->w2, b2)), v3_add(o->v1, v3_cross(o->w1, b1)));
    in->zeta1 = -g->uN;
    in->n1 = n1;
    in->du = v3_scale(vrel, dt);
    in->dth_p = v3_scale(o->w1, dt);
    in->dth_q = v3_scale(o->w2, dt);
    in->kn = p->kn;
    in->kt = p->kt;
    in->mu = L->no_frict ? 0.0 : p->tan_phi;
    if (hist) {
        in->zeta0 = x[GRIT_KUHN_X_ZETA];
        in->f0 = v3(x[0], x[1], x[2]);
        in->fresh = false;
    } else if (fresh) {
        in->zeta0 = in->zeta1 + v3_dot(in->du, n1);
        in->f0 = v3_zero();
        in->fresh = true;
    } else { /* taking over from another law: adopt its tangential force, assume no normal movement */
        in->zeta0 = in->zeta1;
        in->f0 = v3_add(v3_scale(g->ey, p->f.y), v3_scale(l6_ez(g), p->f.z));
        in->fresh = in->zeta0 <= 0;
    }
}

static inline bool law_kuhn(const grit_law_ctx *L, grit_l6geom *g, grit_frictphys *p, grit_contact_cold *cold,
                            bool fresh, bool track, grit_law_energy *E, const grit_cg2_out *o, double *x)
{
    (void)cold;
    const double dt = L->dt;
    const grit_vec3 n1 = g->ex;
    grit_kuhn_in in;
    grit_kuhn_inputs(L, g, p, o, x, fresh, &in);
    grit_kuhn_out out;
    grit_kuhn_update(&in, &L->kuhn, &out);
    if (out.status == GRIT_KUHN_SEPARATED) {
        if (track) E->plast += out.dD; /* the released tangential spring energy (V6) */
        return false;
    }
    const grit_vec3 ft = out.ft;
    grit_vec3 ftr = ft; /* transmitted */
    if (L->kuhn_ct_div_cn != 0 && p->cn != 0 && in.mu > 0) {
        const double ct = L->kuhn_ct_div_cn * p->cn;
        const grit_vec3 dut = v3_madd(in.du, -v3_dot(in.du, n1), n1);
        const grit_vec3 fd = v3_scale(dut, ct / dt);
        const double lam = grit_dashpot_share(ft, fd, in.mu * out.N);
        ftr = v3_madd(ft, lam, fd);
        if (track) E->visc += lam * v3_dot(fd, dut);
    }
    x[0] = ft.x;
    x[1] = ft.y;
    x[2] = ft.z;
    x[GRIT_KUHN_X_ZETA] = in.zeta1;
    x[4] = o->c.x;
    x[5] = o->c.y;
    x[6] = o->c.z;
    x[GRIT_KUHN_X_STATUS] = out.status;
    double fn = -out.N; /* on A = p: -(N n1 - ft) */
    if (p->cn != 0) {
        fn += p->cn * g->vel.x;
        if (fn > 0) fn = 0; /* a dashpot never pulls */
        if (track) E->visc += (fn + out.N) * g->vel.x * dt;
    }
    /* The contact loop rebuilds the global force as ex fx + ey fy + ez fz
     * with ez = ex x ey. L6Geom's first-order frame update lets ey drift off
     * unit length and off ex between renormalisations; the components below
     * make that sum exactly n1 fn + ft all the same: with ey = ep + d ex,
     * ep orthogonal to ex, (ex, ep, ez) is an orthogonal basis with
     * |ep| = |ez|. */
    const grit_vec3 ey = g->ey, ez = v3_cross(n1, ey);
    const double d = v3_dot(ey, n1);
    const grit_vec3 ep = v3_madd(ey, -d, n1);
    const double iq = 1.0 / v3_norm2(ep);
    const double fy = v3_dot(ftr, ep) * iq, fz = v3_dot(ftr, ez) * iq;
    p->f = v3(fn + v3_dot(ftr, n1) - d * fy, fy, fz);
    if (track) {
        E->elast += out.Un + (p->kt > 0 ? 0.5 * v3_norm2(ft) / p->kt : 0.0);
        E->plast += out.dD;
    }
    return true;
}

#endif
