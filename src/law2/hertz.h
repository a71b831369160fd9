/* grit internal: Law2_L6Geom_HertzPhys -- the Hertz-Mindlin (no-slip)
 * contact law with the damping of a prescribed restitution (docs/hertz.md).
 *
 * With the overlap delta = -uN and a = sqrt(R* delta) the contact radius:
 *   normal      F_n = -KN delta^(3/2) + gamma_n vel_x, gamma_n = CN delta^(1/4)
 *               (Hertz; Tsuji's damping, which gives the prescribed
 *               restitution only if the dashpot may pull at the end of a
 *               contact: limit_force, off by default as in LIGGGHTS, cuts
 *               that pull);
 *   tangential  k_t = KT delta^(1/2) = 8 G* a (Mindlin, no slip); the spring
 *               force grows by k_t dt vel_yz, and shrinks in proportion to k_t
 *               when the contact area does (Mindlin-Deresiewicz unloading), so
 *               the spring never gives back energy it did not store; Coulomb
 *               limit tan_phi times the elastic normal force on the spring
 *               force; while it sticks a
 *               dashpot gamma_t = CT delta^(1/4) adds to it.
 * Energy: elastic 2/5 KN delta^(5/2) + |F_s|^2 / (2 k_t); plastic the
 * trapezoidal work of the spring force minus the change of its stored energy
 * (slip, and the loss of the unloading rule; never negative but for slip
 * steps' second-order error); viscous the dashpots' work.
 *
 * ext layout (GRIT_LAW_HERTZ_EXT_N doubles): the constants of Cp2_HertzMat_
 * HertzPhys, the spring force (local y, z), the friction coefficient, the
 * normal dashpot's last force: one cache line. FrictPhys
 * kn, kt hold the current tangent stiffnesses 2 E* a and 8 G* a (kt is the
 * previous step's when the law starts: the unloading rule needs it). */
#ifndef GRIT_LAW2_HERTZ_H
#define GRIT_LAW2_HERTZ_H

#include "law2/law2.h"

enum {
    GRIT_HERTZ_X_KN = 0, /* 4/3 E* sqrt(R*) */
    GRIT_HERTZ_X_KT = 1, /* 8 G* sqrt(R*) */
    GRIT_HERTZ_X_CN = 2, /* 2 sqrt(5/6) (-beta) sqrt(2 E* sqrt(R*) m*) */
    GRIT_HERTZ_X_CT = 3, /* 2 sqrt(5/6) (-beta) sqrt(8 G* sqrt(R*) m*) */
    GRIT_HERTZ_X_FS = 4, /* tangential spring force, local y and z (2) */
    GRIT_HERTZ_X_MU = 6, /* the friction coefficient (FrictPhys tan_phi, here beside the rest) */
    GRIT_HERTZ_X_FDN = 7, /* the normal dashpot's force of the previous step */
    GRIT_LAW_HERTZ_EXT_N = 8
};
#define GRIT_LAW_HERTZ_TORQUE false

static inline void create_hertz(const grit_scene *s, int a, int b, const grit_cg2_out *o, grit_contact_cold *cold,
                                grit_frictphys *p, double *ext)
{
    (void)cold;
    grit_cp2_hertzphys(s, a, b, o, p, ext);
}

static inline bool law_hertz(const grit_law_ctx *L, grit_l6geom *g, grit_frictphys *p, grit_contact_cold *cold,
                             bool fresh, bool track, grit_law_energy *E, const grit_cg2_out *o, double *x)
{
    (void)cold;
    (void)fresh; /* a new contact has no spring force and kt = 0 */
    (void)o;
    const double dt = L->dt;
    const double fy0 = x[GRIT_HERTZ_X_FS], fz0 = x[GRIT_HERTZ_X_FS + 1], kt0 = p->kt;
    /* the dashpots' forces of the previous step (the tangential one is the
     * total force less the spring's) */
    const double dn0 = x[GRIT_HERTZ_X_FDN], dy0 = p->f.y - fy0, dz0 = p->f.z - fz0;
    const grit_vec3 vel = g->vel;
    if (g->uN > 0) { /* apart: the spring's energy and the work to the parting instant */
        if (track) {
            if (kt0 > 0)
                E->broken += 0.5 * (fy0 * fy0 + fz0 * fz0) / kt0 + 0.5 * dt * (fy0 * vel.y + fz0 * vel.z);
            E->visc += 0.5 * dt * (dn0 * vel.x + dy0 * vel.y + dz0 * vel.z);
        }
        return false;
    }
    const double d = -g->uN, sd = sqrt(d), qd = sqrt(sd);
    const double fel = -x[GRIT_HERTZ_X_KN] * d * sd;
    double fx = fel + x[GRIT_HERTZ_X_CN] * qd * vel.x;
    if (L->hertz_limit_force && fx > 0) fx = 0;
    const double kt = x[GRIT_HERTZ_X_KT] * sd;
    double sy = fy0, sz = fz0;
    if (kt < kt0) {
        const double r = kt / kt0;
        sy *= r;
        sz *= r;
    }
    double fy = sy + dt * kt * vel.y, fz = sz + dt * kt * vel.z;
    /* the limit of the elastic normal force: the dashpot's force integrates to
     * zero over an impact (its coefficient depends on the overlap only), so a
     * sliding impact's tangential impulse is mu times the normal one, as in
     * the rigid-body theory; with the total force the dashpot's pull at the
     * end of an impact would add friction (20 % at e = 0.5) */
    const double fmax = -fel * x[GRIT_HERTZ_X_MU];
    const double ft2 = fy * fy + fz * fz;
    double ty, tz;
    if (ft2 > fmax * fmax) { /* slip (ft2 > 0 here) */
        const double ratio = fmax / sqrt(ft2);
        fy *= ratio;
        fz *= ratio;
        ty = fy;
        tz = fz;
    } else {
        const double ct = x[GRIT_HERTZ_X_CT] * qd;
        ty = fy + ct * vel.y;
        tz = fz + ct * vel.z;
    }
    const double dn = fx - fel;
    if (track) {
        /* work over the step by the trapezoid of the forces at its ends:
         * with the stored energy it closes the balance to second order */
        E->visc += 0.5 * dt * ((dn0 + dn) * vel.x + (dy0 + (ty - fy)) * vel.y + (dz0 + (tz - fz)) * vel.z);
        const double U0 = kt0 > 0 ? 0.5 * (fy0 * fy0 + fz0 * fz0) / kt0 : 0.0;
        const double U = kt > 0 ? 0.5 * (fy * fy + fz * fz) / kt : 0.0;
        const double W = 0.5 * dt * ((sy + fy) * vel.y + (sz + fz) * vel.z);
        E->plast += W - (U - U0);
        E->elast += 0.4 * -fel * d + U;
    }
    x[GRIT_HERTZ_X_FDN] = dn;
    x[GRIT_HERTZ_X_FS] = fy;
    x[GRIT_HERTZ_X_FS + 1] = fz;
    p->kn = 1.5 * x[GRIT_HERTZ_X_KN] * sd;
    p->kt = kt;
    p->f = v3(fx, ty, tz);
    return true;
}

#endif
