/* grit internal: the Concrete Particle Model (CPM), the pure per-contact
 * constitutive mathematics, independent of the scene.
 *
 * One call of grit_cpm_update advances one contact by one step from plain
 * inputs (the geometric normal strain, the shear-strain increment, the time
 * step) to the new stresses and state; the contact-loop adapter turns the
 * geometry into these strains and the stresses into forces (F = A_c sigma),
 * and multiplies the energy densities by the contact volume A_c L.
 * docs/concrete.md describes the model, its parameters, the energy book and
 * where grit follows the thesis rather than Woo.
 *
 * Units: SI; stresses and moduli in Pa, strains dimensionless, energies
 * per unit contact volume (J/m^3). Tension is positive. Shear 2-vectors are
 * in the contact's local tangential components.
 *
 * Preconditions: the parameters pass grit_cpm_check (the update does not
 * re-validate them, for speed); a state is created by grit_cpm_state_init and
 * only changed by the update (or by tests and pre-damaging tools that keep it
 * consistent: omega = g(kappa), sigmaT as the update leaves it); the first
 * update of a contact is its creation step, at eps_geo = 0 (uN0 = uN): with a
 * confinement it is that step which moves the virgin state onto the
 * confinement state, and the energy book counts from it. */
#ifndef GRIT_LAW2_CPM_MATH_H
#define GRIT_LAW2_CPM_MATH_H

#include <math.h>
#include <stdbool.h>
#include <stddef.h>

/* Per-contact constants, already combined from the two materials. */
typedef struct grit_cpm_phys {
    double kN, kT;            /* normal and shear moduli [Pa] */
    double tan_phi, cT0;      /* friction of the yield surface, undamaged cohesion [Pa] */
    double eps0, epsf;        /* crack-onset strain, softening strain eps0*relDuctility */
    double dmg_tau, dmg_rate_exp, pl_tau, pl_rate_exp; /* visco-damage / visco-plasticity (tau <= 0: off) */
    double sigma0;            /* isotropic confinement isoPrestress [Pa] (<= 0; 0 = off) */
    double xi1;               /* weight of |epsT| in the equivalent strain (Yade's equivStrainShearContrib; 0 default) */
    int dam_law;              /* 1 exponential (default), 0 linear */
    bool never_damage;
    bool plain; /* no visco term, no confinement, xi1 = 0: what the vectorised elastic step handles
                   (set by the caller that combines the materials; false is always safe) */
} grit_cpm_phys;

/* Law parameters (one set for all contacts) and compatibility switches. */
typedef struct grit_cpm_opts {
    int yield_surface;        /* 0 linear, 1 parabolic, 2 log, 3 log+lin (default) */
    double yield_log_speed;   /* Y0, 0.1 */
    double eps_soft;          /* eps_s, -3e-3 (>= 0 switches compressive plasticity off) */
    double rel_kn_soft;       /* K~s, 0.3 */
    double omega_threshold;   /* 1.0 */
    bool shear_strain_return; /* true = thesis (rescale epsT after return), false = Woo */
    bool iso_pre_adjust;      /* true = thesis/Yade (pre-adjust epsN by delta0), false = Woo */
} grit_cpm_opts;

enum { GRIT_CPM_YIELD_LINEAR = 0, GRIT_CPM_YIELD_PARABOLIC = 1, GRIT_CPM_YIELD_LOG = 2, GRIT_CPM_YIELD_LOG_LIN = 3 };
enum { GRIT_CPM_DAMLAW_LINEAR = 0, GRIT_CPM_DAMLAW_EXP = 1 };

/* The defaults listed above (Woo's law defaults with the thesis switches). */
grit_cpm_opts grit_cpm_opts_default(void);

typedef struct grit_cpm_state {      /* per-contact state */
    double epsN;                     /* normal strain after the confinement pre-adjustment */
    double epsT[2];                  /* elastic shear strain, local tangential components (Woo mode: the
                                        unreturned shear strain) */
    double kappa, omega, epsNPl, epsd;
    double sigmaN, sigmaT[2];        /* stresses applied to the particles (after overstress and confinement) */
    double sigmaNv, rres;            /* diagnostics: viscous overstress of the last step, residual strength */
    double u;                        /* stored elastic energy density [J/m^3], = grit_cpm_stored_energy(st) */
    double eps_geo;                  /* geometric strain of the last step (the trapezoidal work needs it) */
} grit_cpm_state;

/* A fresh contact: everything 0, except omega = 1 and rres = 0 for a
 * non-cohesive contact (rres = 1 for a cohesive one). */
void grit_cpm_state_init(grit_cpm_state *st, bool cohesive);

typedef struct grit_cpm_energy {     /* increments of one update, per unit contact volume (J/m^3); the
                                        adapter multiplies by A_c*L */
    double damage;                   /* dissipated by damage (incl. visco-damage) */
    double plast;                    /* dissipated by shear slip and compressive plasticity */
    double broken;                   /* lost when the contact is deleted */
    double work;                     /* trapezoidal work done on the contact in the step (diagnostic):
                                        work = du + damage + plast + broken to round-off */
} grit_cpm_energy;

enum {
    GRIT_CPM_KEEP = 0,
    GRIT_CPM_DELETE = 1,
    GRIT_CPM_ENOCONV = -1, /* the scalar solver did not converge in 20 evaluations; st unchanged */
    GRIT_CPM_EINVAL = -2   /* a visco term is on but dt is not > 0; st unchanged */
};

/* One constitutive step. eps_geo = (uN - uN0)/L, the geometric normal strain;
 * deps_t = dt*vT/L, the shear-strain increment; dt the time step (used by the
 * visco terms only). Returns
 *   KEEP     st holds the new state, the stresses to apply;
 *   DELETE   the contact must be removed and no force applied in this step.
 *            st holds the state the contact would have had (kappa, omega,
 *            strains, stresses, u), for diagnostics only: after the deletion
 *            the contact stores no energy, E->broken books what it held;
 *   ENOCONV  the scalar Newton solver failed (only for extreme visco
 *            parameters, see grit_cpm_solve_beta); st unchanged, E zeroed;
 *   EINVAL   dt <= 0 with a visco term on; st unchanged, E zeroed.
 * E (may be NULL) receives the energy increments of the step. */
int grit_cpm_update(const grit_cpm_phys *P, const grit_cpm_opts *O, bool cohesive, grit_cpm_state *st,
                    double eps_geo, const double deps_t[2], double dt, grit_cpm_energy *E);

/* ---- building blocks, exported for tests and for the calibration tools */

/* damage evolution g(kappa): 0 for kappa < eps0; not clamped to 1 (the linear law exceeds 1 beyond epsf) */
double grit_cpm_damage(int dam_law, double kappa, double eps0, double epsf);
/* its inverse: the kappa with g(kappa) = omega; 0 for omega <= 0 (a virgin contact), INFINITY where
 * g never reaches omega (omega >= 1 for the exponential law, omega >= 1/(1 - eps0/epsf) for the linear) */
double grit_cpm_kappa_of_omega(int dam_law, double omega, double eps0, double epsf);
/* yield radius max(0, R(sigmaN, omega)) of the surface O->yield_surface; sigmaN is the internal normal
 * stress (before the viscous overstress and the confinement post-adjustment) */
double grit_cpm_yield_radius(const grit_cpm_opts *O, const grit_cpm_phys *P, double sigmaN, double omega);
/* Solve ln(e^b + c e^(N b)) = 0 by Newton from b = 0, stopping at |F| < 1e-12, at most 20 evaluations
 * (Woo's iteration and stopping rule, evaluated with expm1/log1p). Returns 0 and *beta, or -1 if it did not converge or c < 0, N <= 0 or an argument is
 * not finite. iters (may be NULL) receives the number of Newton updates; trace (may be NULL, room for
 * 21) the iterates, trace[0] = 0. c = 0 gives beta = 0 without an update. */
int grit_cpm_solve_beta(double c, double N, double *beta, int *iters, double *trace);
/* the strain delta0 added to the geometric strain by the confinement pre-adjustment (0 when off) */
double grit_cpm_confinement_strain(const grit_cpm_phys *P, const grit_cpm_opts *O);
/* elastic stored energy density of a state (what st->u holds), for tests and diagnostics */
double grit_cpm_stored_energy(const grit_cpm_phys *P, const grit_cpm_opts *O, const grit_cpm_state *st);

/* Parameter validation: 0 if fine, -1 with a one-line message naming the parameter, its value and its
 * valid range in err (err may be NULL). grit_cpm_check checks both and their combination (the
 * confinement pre-adjustment on the plastic branch needs 0 < rel_kn_soft <= 1). */
int grit_cpm_phys_check(const grit_cpm_phys *P, char *err, size_t len);
int grit_cpm_opts_check(const grit_cpm_opts *O, char *err, size_t len);
int grit_cpm_check(const grit_cpm_phys *P, const grit_cpm_opts *O, char *err, size_t len);

#endif
