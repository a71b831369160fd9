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
 *   rolling     (a pair that asks for it, docs/hertz.md "Rolling resistance")
 *               a torque against the relative rotation of the two particles
 *               about the tangential axes, at most mu_roll R* times the elastic
 *               normal force: EPSD, a spring k_r = 2.25 mu_roll^2 R*^2 k_n
 *               (k_n = 2 E* a, with the tangential spring's unloading rule)
 *               with a dashpot while it holds, or CDT, the limit torque
 *               itself, turned against the relative rotation.
 * Energy: elastic 2/5 KN delta^(5/2) + |F_s|^2 / (2 k_t) (+ |M_s|^2 / 2 k_r);
 * plastic the trapezoidal work of the spring force minus the change of its
 * stored energy (slip, and the loss of the unloading rule; never negative
 * but for slip steps' second-order error), and the work of a rolling limit
 * torque; viscous the dashpots' work. Each entry is added once per contact
 * (the vectorised kernel adds a lane's sums in contact order: the same
 * rounding).
 *
 * ext layout (GRIT_LAW_HERTZ_EXT_N doubles): the constants of Cp2_HertzMat_
 * HertzPhys, the spring force (local y, z), the friction coefficient, the
 * normal dashpot's last force: one cache line, all a contact without
 * rolling resistance reads; then the rolling resistance's, present only
 * when some pair of the scene has it (ext_n >= GRIT_LAW_HERTZ_EXT_N; else
 * ext_n may be GRIT_HERTZ_HOT_N). FrictPhys kn, kt hold the current tangent
 * stiffnesses 2 E* a and 8 G* a (the previous step's when the law starts:
 * the unloading rule needs them), t the rolling torque on A. */
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
    GRIT_HERTZ_HOT_N = 8,
    GRIT_HERTZ_X_ROLL = 8,  /* GRIT_ROLLING_* (NaN in contacts made before a pair had it: none) */
    GRIT_HERTZ_X_MR = 9,    /* mu_roll R*: the limit torque per unit elastic normal force */
    GRIT_HERTZ_X_KR = 10,   /* 2.25 mu_roll^2 R*^2: the rolling stiffness per unit normal stiffness */
    GRIT_HERTZ_X_CR = 11,   /* 2 eta_roll sqrt(I_r): the rolling dashpot per sqrt(k_r) */
    GRIT_HERTZ_X_MS = 12,   /* the rolling spring's torque, local y and z (2) */
    GRIT_HERTZ_X_RSTAR = 14, /* the effective radius */
    GRIT_LAW_HERTZ_EXT_N = GRIT_HERTZ_ROLL_EXT_N
};
_Static_assert(GRIT_HERTZ_X_RSTAR + 2 == GRIT_LAW_HERTZ_EXT_N, "the rolling line fills the second cache line");
#define GRIT_LAW_HERTZ_TORQUE true

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
    const double fy0 = x[GRIT_HERTZ_X_FS], fz0 = x[GRIT_HERTZ_X_FS + 1], kt0 = p->kt, kn0 = p->kn;
    /* the dashpots' forces of the previous step (the tangential one is the
     * total force less the spring's) */
    const double dn0 = x[GRIT_HERTZ_X_FDN], dy0 = p->f.y - fy0, dz0 = p->f.z - fz0;
    const grit_vec3 vel = g->vel, w = g->angvel;
    const int roll = L->hertz_roll ? (x[GRIT_HERTZ_X_ROLL] == GRIT_ROLLING_EPSD    ? GRIT_ROLLING_EPSD
                                      : x[GRIT_HERTZ_X_ROLL] == GRIT_ROLLING_CDT ? GRIT_ROLLING_CDT
                                                                                 : GRIT_ROLLING_NONE)
                                   : GRIT_ROLLING_NONE;
    if (g->uN > 0) { /* apart: the springs' energy and the work to the parting instant */
        if (track) {
            double brk = 0, vis = 0.5 * dt * (dn0 * vel.x + dy0 * vel.y + dz0 * vel.z);
            if (kt0 > 0) brk = 0.5 * (fy0 * fy0 + fz0 * fz0) / kt0 + 0.5 * dt * (fy0 * vel.y + fz0 * vel.z);
            if (roll == GRIT_ROLLING_EPSD) {
                const double my0 = x[GRIT_HERTZ_X_MS], mz0 = x[GRIT_HERTZ_X_MS + 1];
                const double kr0 = x[GRIT_HERTZ_X_KR] * kn0;
                if (kr0 > 0) brk += 0.5 * (my0 * my0 + mz0 * mz0) / kr0 + 0.5 * dt * (my0 * w.y + mz0 * w.z);
                vis += 0.5 * dt * ((p->t.y - my0) * w.y + (p->t.z - mz0) * w.z);
            } else if (roll == GRIT_ROLLING_CDT) {
                brk += 0.5 * dt * (p->t.y * w.y + p->t.z * w.z);
            }
            if (kt0 > 0 || roll != GRIT_ROLLING_NONE) E->broken += brk;
            E->visc += vis;
        }
        return false;
    }
    const double d = -g->uN, sd = sqrt(d), qd = sqrt(sd);
    const double fel = -x[GRIT_HERTZ_X_KN] * d * sd;
    double fx = fel + x[GRIT_HERTZ_X_CN] * qd * vel.x;
    if (L->hertz_limit_force && fx > 0) fx = 0;
    const double kt = x[GRIT_HERTZ_X_KT] * sd;
    const bool shrink = kt < kt0;
    const double r = shrink ? kt / kt0 : 1.0;
    double sy = fy0, sz = fz0;
    if (shrink) {
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
    const double kn = 1.5 * x[GRIT_HERTZ_X_KN] * sd;
    double vis = 0, pl = 0, el = 0;
    if (track) {
        /* work over the step by the trapezoid of the forces at its ends:
         * with the stored energy it closes the balance to second order */
        vis = 0.5 * dt * ((dn0 + dn) * vel.x + (dy0 + (ty - fy)) * vel.y + (dz0 + (tz - fz)) * vel.z);
        const double U0 = kt0 > 0 ? 0.5 * (fy0 * fy0 + fz0 * fz0) / kt0 : 0.0;
        const double U = kt > 0 ? 0.5 * (fy * fy + fz * fz) / kt : 0.0;
        const double W = 0.5 * dt * ((sy + fy) * vel.y + (sz + fz) * vel.z);
        pl = W - (U - U0);
        el = 0.4 * -fel * d + U;
    }
    if (roll == GRIT_ROLLING_EPSD) {
        /* the rolling spring: the tangential spring's rules about the
         * tangential axes of the relative rotation */
        const double mmax = -fel * x[GRIT_HERTZ_X_MR];
        const double kr = x[GRIT_HERTZ_X_KR] * kn, kr0 = x[GRIT_HERTZ_X_KR] * kn0;
        const double my0 = x[GRIT_HERTZ_X_MS], mz0 = x[GRIT_HERTZ_X_MS + 1];
        double ay = my0, az = mz0;
        if (shrink) { /* k_r follows k_n, which follows k_t */
            ay *= r;
            az *= r;
        }
        double my = ay + dt * kr * w.y, mz = az + dt * kr * w.z;
        const double m2 = my * my + mz * mz;
        double qy, qz;
        if (m2 > mmax * mmax) { /* fully mobilised: the limit torque, no dashpot */
            const double ratio = mmax / sqrt(m2);
            my *= ratio;
            mz *= ratio;
            qy = my;
            qz = mz;
        } else {
            const double cr = x[GRIT_HERTZ_X_CR] * sqrt(kr);
            qy = my + cr * w.y;
            qz = mz + cr * w.z;
            /* nor does the dashpot take the torque past the limit: a contact
             * made at a high relative spin would otherwise brake it by the
             * dashpot alone for the few steps the spring takes to load */
            const double q2 = qy * qy + qz * qz;
            if (q2 > mmax * mmax) {
                const double cut = mmax / sqrt(q2);
                qy *= cut;
                qz *= cut;
            }
        }
        if (track) {
            vis += 0.5 * dt * (((p->t.y - my0) + (qy - my)) * w.y + ((p->t.z - mz0) + (qz - mz)) * w.z);
            const double U0 = kr0 > 0 ? 0.5 * (my0 * my0 + mz0 * mz0) / kr0 : 0.0;
            const double U = kr > 0 ? 0.5 * (my * my + mz * mz) / kr : 0.0;
            pl += 0.5 * dt * ((ay + my) * w.y + (az + mz) * w.z) - (U - U0);
            el += U;
        }
        x[GRIT_HERTZ_X_MS] = my;
        x[GRIT_HERTZ_X_MS + 1] = mz;
        p->t = v3(0.0, qy, qz);
    } else if (roll == GRIT_ROLLING_CDT) {
        /* the limit torque against the relative rotation (none without one) */
        const double mmax = -fel * x[GRIT_HERTZ_X_MR];
        const double wn = sqrt(w.y * w.y + w.z * w.z);
        const double qy = wn > 0 ? mmax * w.y / wn : 0.0, qz = wn > 0 ? mmax * w.z / wn : 0.0;
        if (track) pl += 0.5 * dt * ((p->t.y + qy) * w.y + (p->t.z + qz) * w.z);
        p->t = v3(0.0, qy, qz);
    }
    if (track) {
        E->visc += vis;
        E->plast += pl;
        E->elast += el;
    }
    x[GRIT_HERTZ_X_FDN] = dn;
    x[GRIT_HERTZ_X_FS] = fy;
    x[GRIT_HERTZ_X_FS + 1] = fz;
    p->kn = kn;
    p->kt = kt;
    p->f = v3(fx, ty, tz);
    return true;
}

#endif
