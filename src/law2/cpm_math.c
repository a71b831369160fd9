/* grit: the Concrete Particle Model's per-contact constitutive update and
 * its building blocks (law2/cpm_math.h; the model in docs/concrete.md). */
#include "law2/cpm_math.h"

#include <stdio.h>

#define BETA_TOL 1e-12 /* absolute, on ln(e^b + c e^(N b)): Woo's and Yade's value */
#define BETA_MAXEVAL 20

grit_cpm_opts grit_cpm_opts_default(void)
{
    return (grit_cpm_opts){.yield_surface = GRIT_CPM_YIELD_LOG_LIN,
                           .yield_log_speed = 0.1,
                           .eps_soft = -3e-3,
                           .rel_kn_soft = 0.3,
                           .omega_threshold = 1.0,
                           .shear_strain_return = true,
                           .iso_pre_adjust = true};
}

void grit_cpm_state_init(grit_cpm_state *st, bool cohesive)
{
    *st = (grit_cpm_state){0};
    st->omega = cohesive ? 0.0 : 1.0;
    st->rres = cohesive ? 1.0 : 0.0;
}

/* ---- the scalar solver ---------------------------------------------------
 *
 * F(b) = ln(e^b + c e^(N b)) is a log-sum-exp of two lines, hence convex and
 * increasing with min(1,N) <= F' <= max(1,N) (for c > 0, N > 0), and
 * F(0) = ln(1 + c) > 0. Every tangent lies below the graph, so each Newton
 * iterate stays right of the single root and the sequence decreases
 * monotonically onto it, quadratically near it.
 *
 * That 20 evaluations suffice is not a theorem, so ENOCONV cannot be ruled
 * out for all valid parameters: while the iterate is far right of the bend
 * of the log-sum-exp (where the two lines cross), each step only halves the
 * distance to it, and the quadratic phase starts late when the slopes 1 and
 * N differ by orders of magnitude. Measured: for 0.01 <= N <= 5 and any c in
 * [1e-300, 1e300] at most 7 updates; the worst c is about 1, where the count
 * grows by about two updates per decade of N (or 1/N): N = 1e-8 needs 19,
 * and N below about 5e-9 with |c - 1| < 1e-8, or N above about 2e8, exhausts
 * the budget; so does an overflowed c = inf. The update returns
 * GRIT_CPM_ENOCONV then (tests/test_cpm_math.c reaches it), as Woo throws.
 *
 * e^b - 1 and ln(1 + x) are evaluated by expm1/log1p: the roots of slowly
 * loaded contacts are tiny (b ~ -c), where ln(e^b + ...) would lose the
 * digits that the overstress -kN R expm1(b) is made of. */
int grit_cpm_solve_beta(double c, double N, double *beta, int *iters, double *trace)
{
    if (trace) trace[0] = 0.0;
    if (iters) *iters = 0;
    *beta = 0.0;
    if (!(c >= 0) || !(N > 0) || !isfinite(c) || !isfinite(N)) return -1;
    double b = 0.0;
    for (int k = 0; k < BETA_MAXEVAL; k++) {
        const double em = expm1(b), eN = c * exp(N * b);
        const double F = log1p(em + eN);
        if (fabs(F) < BETA_TOL) {
            *beta = b;
            if (iters) *iters = k;
            return 0;
        }
        const double e1 = 1.0 + em;
        b -= F * (e1 + eN) / (e1 + N * eN);
        if (trace) trace[k + 1] = b;
    }
    *beta = b;
    if (iters) *iters = BETA_MAXEVAL;
    return -1;
}

/* ---- damage ---------------------------------------------------------------- */

double grit_cpm_damage(int dam_law, double kappa, double eps0, double epsf)
{
    if (kappa < eps0) return 0.0;
    const double d = kappa - eps0;
    if (dam_law == GRIT_CPM_DAMLAW_LINEAR) return d * epsf / (kappa * (epsf - eps0));
    /* 1 - (eps0/kappa) e^(-d/epsf) written so that omega just past eps0 keeps its digits */
    return -expm1(-(log1p(d / eps0) + d / epsf));
}

double grit_cpm_kappa_of_omega(int dam_law, double omega, double eps0, double epsf)
{
    if (!(omega > 0)) return 0.0;
    if (dam_law == GRIT_CPM_DAMLAW_LINEAR) {
        const double den = 1.0 - omega * (1.0 - eps0 / epsf);
        return den > 0 ? eps0 / den : INFINITY;
    }
    if (omega >= 1) return INFINITY;
    /* With d = kappa - eps0: phi(d) = ln(1 + d/eps0) + d/epsf + ln(1 - omega) = 0.
     * phi is concave and increasing and phi(0) < 0, so Newton from d = 0 climbs
     * monotonically onto the root without overshooting; it stops when round-off
     * ends the climb. */
    const double L = -log1p(-omega);
    double d = 0.0;
    for (int k = 0; k < 200; k++) {
        const double phi = log1p(d / eps0) + d / epsf - L;
        const double dn = d - phi / (1.0 / (eps0 + d) + 1.0 / epsf);
        if (!(dn > d)) break;
        d = dn;
    }
    return eps0 + d;
}

/* ---- yield surface --------------------------------------------------------- */

static inline double r_linear(const grit_cpm_phys *P, double sN, double om)
{
    return P->cT0 * (1.0 - om) - sN * P->tan_phi;
}

static inline double r_log(const grit_cpm_opts *O, const grit_cpm_phys *P, double sN, double om)
{
    const double cY = P->cT0 * O->yield_log_speed;
    if (sN >= cY) return 0.0;
    if (!(P->cT0 > 0)) return 0.0; /* the limit cT0 -> 0 of the whole expression */
    return P->cT0 * ((1.0 - om) + O->yield_log_speed * P->tan_phi * log1p(-sN / cY));
}

double grit_cpm_yield_radius(const grit_cpm_opts *O, const grit_cpm_phys *P, double sigmaN, double omega)
{
    double R;
    switch (O->yield_surface) {
    case GRIT_CPM_YIELD_LINEAR: R = r_linear(P, sigmaN, omega); break;
    case GRIT_CPM_YIELD_PARABOLIC: {
        const double c = P->cT0, q = c * c - 2.0 * c * P->tan_phi * sigmaN;
        R = sqrt(q > 0 ? q : 0.0) - c * omega;
        break;
    }
    case GRIT_CPM_YIELD_LOG: R = r_log(O, P, sigmaN, omega); break;
    default: R = sigmaN > 0 ? r_linear(P, sigmaN, omega) : r_log(O, P, sigmaN, omega); break;
    }
    return R > 0 ? R : 0.0;
}

/* Does the trial shear stress (squared magnitude t2 > 0) lie outside the
 * surface? Most contacts are compressed and inside: there the logarithm is
 * replaced by the lower bound ln(1+x) >= 2x/(2+x), lowered by 1e-12 so that
 * round-off cannot lift it over the exact radius; only when that bound does
 * not decide is the exact radius computed. *r is set when it returns true. */
static inline bool shear_yields(const grit_cpm_opts *O, const grit_cpm_phys *P, double sN, double om, double t2,
                                double *r)
{
    const int ys = O->yield_surface;
    if (ys == GRIT_CPM_YIELD_LINEAR || (ys == GRIT_CPM_YIELD_LOG_LIN && sN > 0)) {
        const double R = r_linear(P, sN, om);
        *r = R > 0 ? R : 0.0;
        return t2 > *r * *r;
    }
    if (ys != GRIT_CPM_YIELD_PARABOLIC && sN < 0 && P->cT0 > 0) {
        const double cY = P->cT0 * O->yield_log_speed;
        const double lb = (P->cT0 * (1.0 - om) + 2.0 * P->tan_phi * (-sN) * cY / (2.0 * cY - sN)) * (1.0 - 1e-12);
        if (lb > 0 && t2 <= lb * lb) return false;
    }
    *r = grit_cpm_yield_radius(O, P, sN, om);
    return t2 > *r * *r;
}

/* ---- confinement and stored energy ----------------------------------------- */

double grit_cpm_confinement_strain(const grit_cpm_phys *P, const grit_cpm_opts *O)
{
    const double s0 = P->sigma0, kN = P->kN, es = O->eps_soft;
    if (s0 == 0 || !O->iso_pre_adjust) return 0.0;
    if (es >= 0 || s0 >= kN * es) return s0 / kN;
    return es + (s0 - kN * es) / (O->rel_kn_soft * kN);
}

/* The normal part of u: the internal elastic energy (secant stiffness in
 * tension, full in compression) minus the work of the constant confinement
 * stress along the geometric strain, minus the internal energy of the
 * creation state. With the pre-adjustment the creation state carries sigma0
 * on the elastic line or on the hardening line, and in both cases its
 * elastic strain is sigma0/kN (grit_cpm_check keeps rel_kn_soft in (0, 1]
 * for the latter), hence sigma0^2/(2 kN); without it the creation state is
 * strain-free. */
static inline double stored_normal(const grit_cpm_phys *P, const grit_cpm_opts *O, double epsN, double epsNPl,
                                   double omega, double eps_geo)
{
    const double el = epsN - epsNPl;
    const double K = el > 0 ? 1.0 - (omega < 1 ? omega : 1.0) : 1.0;
    double u = 0.5 * K * P->kN * el * el;
    const double s0 = P->sigma0;
    if (s0 != 0) u -= s0 * eps_geo + (O->iso_pre_adjust ? 0.5 * s0 * s0 / P->kN : 0.0);
    return u;
}

static inline double stored_shear(const grit_cpm_phys *P, const double sT[2])
{
    return P->kT > 0 ? 0.5 * (sT[0] * sT[0] + sT[1] * sT[1]) / P->kT : 0.0;
}

double grit_cpm_stored_energy(const grit_cpm_phys *P, const grit_cpm_opts *O, const grit_cpm_state *st)
{
    return stored_normal(P, O, st->epsN, st->epsNPl, st->omega, st->eps_geo) + stored_shear(P, st->sigmaT);
}

/* ---- the update ------------------------------------------------------------ */

static int fail(grit_cpm_energy *E, int code)
{
    if (E) *E = (grit_cpm_energy){0};
    return code;
}

int grit_cpm_update(const grit_cpm_phys *P, const grit_cpm_opts *O, bool cohesive, grit_cpm_state *st,
                    double eps_geo, const double deps_t[2], double dt, grit_cpm_energy *E)
{
    const double kN = P->kN, kT = P->kT;
    const bool visco_dmg = cohesive && P->dmg_tau > 0, visco_pl = P->pl_tau > 0;
    if ((visco_dmg || visco_pl) && !(dt > 0)) return fail(E, GRIT_CPM_EINVAL);

    /* S1: the stored shear strain is elastic (returned in S7), so it is advanced incrementally */
    double eT[2] = {st->epsT[0] + deps_t[0], st->epsT[1] + deps_t[1]};

    /* S2 */
    const double eN = eps_geo + grit_cpm_confinement_strain(P, O);

    /* S3: omega is a function of kappa alone, so it is re-evaluated only when kappa grows */
    double epl = st->epsNPl;
    const double el = eN - epl;
    double kappa = st->kappa, omega = st->omega, rres = st->rres;
    bool grown = false;
    if (P->xi1 == 0) {
        if (el > kappa) {
            kappa = el;
            grown = true;
        }
    } else {
        const double ep = el > 0 ? el : 0.0;
        const double q = ep * ep + P->xi1 * P->xi1 * (eT[0] * eT[0] + eT[1] * eT[1]);
        if (q > kappa * kappa) {
            kappa = sqrt(q);
            grown = true;
        }
    }
    if (grown) {
        if (!cohesive) {
            omega = 1.0;
        } else if (P->never_damage || kappa < P->eps0) {
            omega = 0.0;
        } else {
            omega = grit_cpm_damage(P->dam_law, kappa, P->eps0, P->epsf);
        }
    }
    /* The linear law lets omega exceed 1 beyond epsf; the break test sees that
     * value, but a contact kept because it is compressed must not get a
     * negative tensile stiffness, cohesion or viscosity from it. */
    const double om = omega < 1 ? omega : 1.0;

    /* S4 */
    double sN = (el > 0 ? 1.0 - om : 1.0) * kN * el;

    /* S5: the envelope is a fixed line in total strain, so the result does not depend on the steps */
    const double es = O->eps_soft;
    if (es < 0 && el < es) {
        const double ss = kN * (es + O->rel_kn_soft * (eN - es));
        if (ss > sN) {
            epl += (sN - ss) / kN;
            sN = ss;
        }
    }

    /* S6 (diagnostic), a function of kappa and omega only */
    if (grown) rres = !cohesive ? 0.0 : kappa < P->eps0 ? 1.0 : (1.0 - om) * kappa / P->eps0;

    /* S7 */
    const double tr[2] = {kT * eT[0], kT * eT[1]};
    const double t2 = tr[0] * tr[0] + tr[1] * tr[1];
    double sT[2] = {tr[0], tr[1]};
    double r = 0.0;
    bool returned = false;
    /* sqrt(t2) may round onto r although t2 > r^2: that is on the surface, and
     * the visco-plastic coefficient needs |trial| - r > 0 */
    double tn;
    if (t2 > 0 && shear_yields(O, P, sN, om, t2, &r) && (tn = sqrt(t2)) > r) {
        returned = true;
        double s;
        if (visco_pl) {
            const double M = P->pl_rate_exp;
            const double c = P->cT0 * pow(P->pl_tau / (kT * dt), M) * pow(tn - r, M - 1.0);
            double beta = 0.0;
            if (c > 0 && grit_cpm_solve_beta(c, M, &beta, NULL, NULL)) return fail(E, GRIT_CPM_ENOCONV);
            const double eb = exp(beta);
            s = 1.0 - eb + eb * r / tn;
        } else {
            s = r / tn;
        }
        if (O->shear_strain_return) {
            eT[0] *= s;
            eT[1] *= s;
            /* exactly kT*epsT, which the next step's elastic test relies on */
            sT[0] = kT * eT[0];
            sT[1] = kT * eT[1];
        } else {
            sT[0] = s * tr[0];
            sT[1] = s * tr[1];
        }
    }

    /* S8 */
    double ed = st->epsd, sNv = 0.0;
    if (visco_dmg) {
        const double R = om * eN - ed;
        if (R <= 0) {
            ed = om * eN;
        } else {
            double beta = 0.0;
            if (om < 1) { /* a fully damaged contact has c = 0: no overstress, no solver */
                const double M = P->dmg_rate_exp;
                const double c = P->eps0 * (1.0 - om) * pow(P->dmg_tau / dt, M) * pow(R, M - 1.0);
                if (c > 0 && grit_cpm_solve_beta(c, M, &beta, NULL, NULL)) return fail(E, GRIT_CPM_ENOCONV);
            }
            ed += R * exp(beta);
            sNv = -kN * R * expm1(beta);
            sN += sNv;
        }
    }

    /* S9 */
    sN -= P->sigma0;

    /* S10 */
    const int status = (eN > 0 && (!cohesive || omega > O->omega_threshold)) ? GRIT_CPM_DELETE : GRIT_CPM_KEEP;

    const double uN = stored_normal(P, O, eN, epl, omega, eps_geo), uT = stored_shear(P, sT);

    if (E) {
        const double dg = eps_geo - st->eps_geo;
        if (status == GRIT_CPM_DELETE) {
            /* no force in this step: the trapezoid has the previous stress at one end only */
            E->work = 0.5 * (st->sigmaN * dg + st->sigmaT[0] * deps_t[0] + st->sigmaT[1] * deps_t[1]);
            E->broken = st->u + E->work;
            E->damage = E->plast = 0.0;
        } else {
            const double wN = 0.5 * (st->sigmaN + sN) * dg;
            const double wT = 0.5 * ((st->sigmaT[0] + sT[0]) * deps_t[0] + (st->sigmaT[1] + sT[1]) * deps_t[1]);
            E->work = wN + wT;
            E->broken = 0.0;
            E->damage = E->plast = 0.0;
            /* Along a linear-elastic step the trapezoid is exact, so the
             * difference would be round-off only: it is not booked. The normal
             * step is linear iff both ends have the same stiffness and neither
             * plastic flow nor overstress is involved; the shear step iff
             * nothing is returned now and sigmaT was exactly kT*epsT before
             * (true after an elastic step and after a thesis-mode return, not
             * for a Woo-mode capped stress). */
            const double elp = st->epsN - st->epsNPl;
            const double Kp = elp > 0 ? 1.0 - (st->omega < 1 ? st->omega : 1.0) : 1.0;
            const double Kn = eN - epl > 0 ? 1.0 - om : 1.0;
            const bool elastic_n = Kp == Kn && epl == st->epsNPl && st->sigmaNv == 0 && sNv == 0;
            const bool elastic_t =
                !returned && st->sigmaT[0] == kT * st->epsT[0] && st->sigmaT[1] == kT * st->epsT[1];
            if (!elastic_n || !elastic_t) {
                /* the previous parts from the booked u, not from the previous
                 * fields: a virgin state books u = 0 although its fields are
                 * not yet on the confinement state that the creation step sets up */
                const double uTp = stored_shear(P, st->sigmaT), uNp = st->u - uTp;
                if (!elastic_n) {
                    const double DN = wN - (uN - uNp);
                    if (epl != st->epsNPl)
                        E->plast += DN;
                    else
                        E->damage += DN;
                }
                if (!elastic_t) E->plast += wT - (uT - uTp);
            }
        }
    }

    st->epsN = eN;
    st->epsT[0] = eT[0];
    st->epsT[1] = eT[1];
    st->kappa = kappa;
    st->omega = omega;
    st->epsNPl = epl;
    st->epsd = ed;
    st->sigmaN = sN;
    st->sigmaT[0] = sT[0];
    st->sigmaT[1] = sT[1];
    st->sigmaNv = sNv;
    st->rres = rres;
    st->u = uN + uT;
    st->eps_geo = eps_geo;
    return status;
}

/* ---- parameter validation ---------------------------------------------------- */

#define BAD(...)                                    \
    do {                                            \
        if (err && len) snprintf(err, len, __VA_ARGS__); \
        return -1;                                  \
    } while (0)

int grit_cpm_phys_check(const grit_cpm_phys *P, char *err, size_t len)
{
    if (!(P->kN > 0) || !isfinite(P->kN))
        BAD("concrete: kN = %g must be > 0 and finite (Pa; the normal modulus, ConcreteMat young)", P->kN);
    if (!(P->kT >= 0) || !isfinite(P->kT))
        BAD("concrete: kT = %g must be >= 0 and finite (Pa; the shear modulus, young*kt_div_kn)", P->kT);
    if (!(P->tan_phi >= 0) || !isfinite(P->tan_phi))
        BAD("concrete: tan_phi = %g must be >= 0 and finite (the friction of the yield surface)", P->tan_phi);
    if (!(P->cT0 >= 0) || !isfinite(P->cT0))
        BAD("concrete: cT0 = %g must be >= 0 and finite (Pa; the undamaged cohesion, ConcreteMat sigma_t)", P->cT0);
    if (!(P->eps0 > 0) || !isfinite(P->eps0))
        BAD("concrete: eps0 = %g must be > 0 and finite (the crack-onset strain, ConcreteMat eps_crack_onset)", P->eps0);
    if (P->dam_law != GRIT_CPM_DAMLAW_LINEAR && P->dam_law != GRIT_CPM_DAMLAW_EXP)
        BAD("concrete: dam_law = %d must be 1 (exponential softening) or 0 (linear softening)", P->dam_law);
    if (!isfinite(P->epsf))
        BAD("concrete: epsf = %g must be finite (eps_crack_onset*rel_ductility)", P->epsf);
    if (P->dam_law == GRIT_CPM_DAMLAW_LINEAR && !(P->epsf > P->eps0))
        BAD("concrete: epsf = %g must be > eps0 = %g for the linear damage law (rel_ductility > 1)", P->epsf, P->eps0);
    if (!(P->epsf > 0))
        BAD("concrete: epsf = %g must be > 0 for the exponential damage law (eps_crack_onset*rel_ductility, rel_ductility > 0)",
            P->epsf);
    if (!isfinite(P->dmg_tau))
        BAD("concrete: dmg_tau = %g must be finite (s; <= 0 switches visco-damage off)", P->dmg_tau);
    if (P->dmg_tau > 0 && (!(P->dmg_rate_exp > 0) || !isfinite(P->dmg_rate_exp)))
        BAD("concrete: dmg_rate_exp = %g must be > 0 and finite when dmg_tau = %g > 0 (visco-damage on)",
            P->dmg_rate_exp, P->dmg_tau);
    if (!isfinite(P->pl_tau))
        BAD("concrete: pl_tau = %g must be finite (s; <= 0 switches visco-plasticity off)", P->pl_tau);
    if (P->pl_tau > 0 && (!(P->pl_rate_exp > 0) || !isfinite(P->pl_rate_exp)))
        BAD("concrete: pl_rate_exp = %g must be > 0 and finite when pl_tau = %g > 0 (visco-plasticity on)",
            P->pl_rate_exp, P->pl_tau);
    if (!(P->sigma0 <= 0) || !isfinite(P->sigma0))
        BAD("concrete: sigma0 = %g must be <= 0 and finite (Pa; the isotropic confinement, ConcreteMat iso_prestress, "
            "compression negative, 0 = off)",
            P->sigma0);
    if (!(P->xi1 >= 0) || !isfinite(P->xi1))
        BAD("concrete: xi1 = %g must be >= 0 and finite (the shear weight of the equivalent strain, ConcreteMat equiv_strain_shear)", P->xi1);
    return 0;
}

int grit_cpm_opts_check(const grit_cpm_opts *O, char *err, size_t len)
{
    if (O->yield_surface < GRIT_CPM_YIELD_LINEAR || O->yield_surface > GRIT_CPM_YIELD_LOG_LIN)
        BAD("concrete: yield_surface = %d must be 0 (linear), 1 (parabolic), 2 (log) or 3 (log+lin)",
            O->yield_surface);
    if (!(O->yield_log_speed > 0) || !isfinite(O->yield_log_speed))
        BAD("concrete: yield_log_speed = %g must be > 0 and finite (Y0 of the log surface)", O->yield_log_speed);
    if (!isfinite(O->eps_soft))
        BAD("concrete: eps_soft = %g must be finite (< 0: onset of compressive plasticity, >= 0: off)", O->eps_soft);
    if (!isfinite(O->rel_kn_soft))
        BAD("concrete: rel_kn_soft = %g must be finite (the hardening modulus relative to kN)", O->rel_kn_soft);
    if (!(O->omega_threshold > 0))
        BAD("concrete: omega_threshold = %g must be > 0 (>= 1: cohesive contacts with the exponential law are "
            "never removed)",
            O->omega_threshold);
    return 0;
}

int grit_cpm_check(const grit_cpm_phys *P, const grit_cpm_opts *O, char *err, size_t len)
{
    if (grit_cpm_phys_check(P, err, len) || grit_cpm_opts_check(O, err, len)) return -1;
    if (O->iso_pre_adjust && P->sigma0 < 0 && O->eps_soft < 0 && P->sigma0 < P->kN * O->eps_soft &&
        !(O->rel_kn_soft > 0 && O->rel_kn_soft <= 1))
        BAD("concrete: rel_kn_soft = %g must be in (0, 1] when the confinement iso_prestress = %g Pa is beyond "
            "young*eps_soft = %g Pa (the pre-adjustment strain is taken from the hardening line)",
            O->rel_kn_soft, P->sigma0, P->kN * O->eps_soft);
    return 0;
}
