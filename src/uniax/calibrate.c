/* grit: calibration of a ConcreteMat to a concrete's E, nu, f_t, f_c, G_f
 * (include/grit/calibrate.h; docs/concrete.md, "Calibration").
 *
 * Why the updates below work:
 *  - nu depends on kt_div_kn only (eta below). The microplane estimate
 *    nu = (1 - eta) / (4 + eta) has the right shape but not the right level
 *    on a real packing, so it is scaled through the last measurement; once
 *    two runs exist, the secant through them takes over.
 *  - E is proportional to young at fixed eta; the microplane factor
 *    (2 + 3 eta) / (4 + eta) carries a change of eta.
 *  - Scaling eps_crack_onset and sigma_t together by s scales every
 *    contact's stress-strain curve by s in both directions: f_t and f_c by s,
 *    G_f by s^2, and the shape figures g = young G_f / f_t^2 and
 *    r = f_c / f_t not at all. Scaling young by s at fixed strains scales the
 *    stresses: f_t by s, g not at all. So the shape (g, r) is a function of
 *    rel_ductility and tan_phi alone (with eta), solved by Broyden's method
 *    in logarithms; its third row, psi = f_t / (young eps_crack_onset),
 *    gives the eps_crack_onset that lands f_t.
 *  - f_c / f_t responds weakly to tan_phi alone (as tan_phi^0.22) and about
 *    as much to the cohesion sigma_t (sigma_t^0.30): tan_phi alone would
 *    need friction angles near 90 degrees for f_c / f_t = 10. So sigma_t
 *    follows tan_phi: sigma_t / (young eps_crack_onset tan_phi) stays the
 *    starting material's, and r goes as tan_phi^0.52.
 * The functions are deterministic (one packing), but not smooth: a bond
 * that breaks one sample earlier moves the peak. Hence the tolerance of a
 * few per cent and the cap on every step. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "grit/calibrate.h"
#include "uniax/uniax_impl.h"

grit_calibrate_def grit_default_calibrate_def(void)
{
    return (grit_calibrate_def){GRIT_CALIBRATE_PARAMS(GRIT_PARAM_DEFAULT)};
}

#define CALIBRATE_INFO(...) GRIT_PARAM_INFO(grit_calibrate_def, __VA_ARGS__)
static const grit_param_info calibrate_params[] = {GRIT_CALIBRATE_PARAMS(CALIBRATE_INFO)};
const grit_param_table grit_calibrate_param_table = {"calibrate", calibrate_params,
                                                     (int)(sizeof calibrate_params / sizeof calibrate_params[0])};

grit_calibrate_opts grit_default_calibrate_opts(void)
{
    return (grit_calibrate_opts){.periodic = false, .monitor = NULL, .monitor_data = NULL, .uniax = NULL};
}

static const char *const figure_names[GRIT_CAL_FIGURES] = {"young", "poisson", "ft", "fc", "gf"};
static const char *const param_names[GRIT_CAL_PARAMS] = {"young",   "kt_div_kn",     "eps_crack_onset",
                                                         "sigma_t", "rel_ductility", "tan_phi"};

const char *grit_calibrate_figure_name(int k) { return k >= 0 && k < GRIT_CAL_FIGURES ? figure_names[k] : NULL; }
const char *grit_calibrate_param_name(int k) { return k >= 0 && k < GRIT_CAL_PARAMS ? param_names[k] : NULL; }

enum { MAX_ELASTIC = 12 };
/* every parameter changes by at most this factor from one run to the next */
static const double MAX_FACTOR = 3.0;
/* kt_div_kn beyond this gives nu below -0.2 (microplane): a target below is a typo, not a concrete */
static const double MAX_ETA = 50.0;
static const double MAX_TAN_PHI = 20.0, MIN_TAN_PHI = 1e-3;

static void targets_of(const grit_calibrate_def *d, double t[GRIT_CAL_FIGURES])
{
    t[GRIT_CAL_E] = d->target_young;
    t[GRIT_CAL_NU] = d->target_poisson;
    t[GRIT_CAL_FT] = d->target_ft;
    t[GRIT_CAL_FC] = isnan(d->target_fc) ? d->target_fc_ft * d->target_ft : d->target_fc;
    t[GRIT_CAL_GF] = d->target_gf;
}

int grit_calibrate_check(const grit_uniax_specimen *spec, const grit_uniax_def *test, const grit_calibrate_def *def,
                         char *err, size_t errlen)
{
    if (!def) return uniax_fail(err, errlen, GRIT_EINVAL, "calibrate: no definition given");
    if (grit_param_validate(&grit_calibrate_param_table, def, err, errlen)) return GRIT_EINVAL;
    if (isnan(def->target_fc) && isnan(def->target_fc_ft))
        return uniax_fail(err, errlen, GRIT_EINVAL,
                          "calibrate: 'target_fc' and 'target_fc_ft' are both nan: give the compressive strength or "
                          "its ratio to f_t");
    if (!isnan(def->target_fc) && def->target_fc <= def->target_ft)
        return uniax_fail(err, errlen, GRIT_EINVAL,
                          "calibrate: 'target_fc' = %g Pa is not above 'target_ft' = %g Pa: concrete is stronger in "
                          "compression",
                          def->target_fc, def->target_ft);
    int rc = grit_uniax_check(spec, test, err, errlen);
    if (rc) return rc;
    if (test->tests != GRIT_UNIAX_BOTH)
        return uniax_fail(err, errlen, GRIT_EINVAL,
                          "calibrate: parameter 'tests' = %s: the calibration needs both runs (tests=both)",
                          test->tests == GRIT_UNIAX_TENSION ? "tension" : "compression");
    if (test->stop_tension >= test->gf_fraction || test->stop_tension == 0)
        return uniax_fail(err, errlen, GRIT_EINVAL,
                          "calibrate: parameter 'stop_tension' = %g must be above 0 and below 'gf_fraction' = %g: "
                          "G_f needs the tension curve below gf_fraction f_t",
                          test->stop_tension, test->gf_fraction);
    const grit_concretemat_def *m = spec->mat;
    if (m->iso_prestress != 0)
        return uniax_fail(err, errlen, GRIT_EINVAL,
                          "calibrate: parameter 'iso_prestress' = %g Pa: the calibration is made on unconfined "
                          "specimens (iso_prestress=0)",
                          m->iso_prestress);
    if (m->never_damage)
        return uniax_fail(err, errlen, GRIT_EINVAL,
                          "calibrate: parameter 'never_damage' is set: the strengths need bonds that break");
    if (m->sigma_t <= 0 || m->tan_phi <= 0)
        return uniax_fail(err, errlen, GRIT_EINVAL,
                          "calibrate: the starting material needs sigma_t > 0 and tan_phi > 0 (has %g Pa, %g): the "
                          "calibration scales them",
                          m->sigma_t, m->tan_phi);
    return GRIT_OK;
}

/* ---- one run ------------------------------------------------------------- */
typedef struct calib {
    const grit_uniax_specimen *spec; /* n_spec of them */
    int n_spec;
    const grit_uniax_def *test;
    const grit_calibrate_def *def;
    const grit_calibrate_opts *opts;
    grit_calibrate_result *out;
    double target[GRIT_CAL_FIGURES];
    double cohesion; /* sigma_t / (young eps_crack_onset tan_phi): kept, so that sigma_t follows tan_phi */
} calib;

static void material_of(const calib *c, const double p[GRIT_CAL_PARAMS], grit_concretemat_def *m)
{
    *m = *(const grit_concretemat_def *)c->spec->mat;
    m->young = p[GRIT_CAL_YOUNG];
    m->kt_div_kn = p[GRIT_CAL_KT_DIV_KN];
    m->eps_crack_onset = p[GRIT_CAL_EPS0];
    m->sigma_t = p[GRIT_CAL_SIGMA_T];
    m->rel_ductility = p[GRIT_CAL_DUCTILITY];
    m->tan_phi = p[GRIT_CAL_TAN_PHI];
}

static double worst_of(const grit_calibrate_run *r, int stage)
{
    double w = 0;
    const int n = stage == GRIT_CAL_ELASTIC ? 2 : GRIT_CAL_FIGURES;
    for (int k = 0; k < n; k++) w = isnan(r->error[k]) ? INFINITY : fmax(w, fabs(r->error[k]));
    return w;
}

/* One specimen's figures with material m. */
static int one_test(const calib *c, const grit_uniax_specimen *which, const grit_concretemat_def *m,
                    const grit_uniax_def *d, bool full, double fig[GRIT_CAL_FIGURES], double *cpu, char *err,
                    size_t errlen)
{
    grit_uniax_specimen sp = *which;
    sp.mat = m;
    grit_uniax_result r;
    const int rc = c->opts->periodic ? grit_uniax_periodic_run(&sp, d, c->opts->uniax, &r, err, errlen)
                                     : grit_uniax_run(&sp, d, c->opts->uniax, &r, err, errlen);
    if (rc) return rc;
    fig[GRIT_CAL_E] = r.young;
    fig[GRIT_CAL_NU] = r.poisson;
    fig[GRIT_CAL_FT] = full ? r.ft : NAN;
    fig[GRIT_CAL_FC] = full ? r.fc : NAN;
    fig[GRIT_CAL_GF] = full ? r.gf : NAN;
    *cpu += r.cpu_tension + r.cpu_compression;
    grit_uniax_result_free(&r);
    return GRIT_OK;
}

/* Run the test with parameters p on the n specimens; their mean figures
 * into *run. */
static int run_test(const calib *c, const grit_uniax_specimen *which, int n, const double p[GRIT_CAL_PARAMS],
                    int stage, int index, grit_calibrate_run *run, char *err, size_t errlen)
{
    grit_concretemat_def m;
    material_of(c, p, &m);
    grit_uniax_def d = *c->test;
    const bool full = stage != GRIT_CAL_ELASTIC;
    if (!full) {
        /* elastic: bonds that never break, a small strain, E fitted on the whole curve */
        m.never_damage = true;
        d.tests = GRIT_UNIAX_TENSION;
        d.max_strain = 1.5 * d.poisson_strain;
        d.young_fraction = 1.0;
    } else if (d.stop_tension < 0.9 * d.gf_fraction) {
        /* G_f needs the curve down to gf_fraction f_t, nothing after it */
        d.stop_tension = 0.9 * d.gf_fraction;
    }
    memset(run, 0, sizeof *run);
    run->stage = stage;
    run->index = index;
    memcpy(run->param, p, sizeof run->param);
    for (int i = 0; i < n; i++) {
        double f[GRIT_CAL_FIGURES];
        const int rc = one_test(c, &which[i], &m, &d, full, f, &run->cpu, err, errlen);
        if (rc) return rc;
        for (int k = 0; k < GRIT_CAL_FIGURES; k++) run->figure[k] += f[k] / n;
    }
    for (int k = 0; k < GRIT_CAL_FIGURES; k++) run->error[k] = run->figure[k] / c->target[k] - 1;
    run->worst = worst_of(run, stage);
    return GRIT_OK;
}

/* Record a run, tell the monitor. */
static int record(calib *c, const grit_calibrate_run *run, char *err, size_t errlen)
{
    grit_calibrate_result *o = c->out;
    if (run->stage == GRIT_CAL_FRESH) o->fresh = *run;
    else if (o->n_runs < GRIT_CAL_MAX_RUNS) o->runs[o->n_runs++] = *run;
    if (c->opts->monitor && c->opts->monitor(run, c->opts->monitor_data))
        return uniax_fail(err, errlen, GRIT_ESTATE, "calibrate: stopped by the monitor after run %d", o->n_runs);
    return GRIT_OK;
}

/* ---- updates -------------------------------------------------------------- */
static double clampd(double x, double lo, double hi) { return x < lo ? lo : x > hi ? hi : x; }
static double step_limited(double from, double to) { return clampd(to, from / MAX_FACTOR, from * MAX_FACTOR); }

static double nu_microplane(double eta) { return (1 - eta) / (4 + eta); }
static double young_factor(double eta) { return (2 + 3 * eta) / (4 + eta); }

/* kt_div_kn for the target nu from the runs so far (eta[i], nu[i], the last
 * one newest). */
static double next_eta(const double *eta, const double *nu, int n, double target)
{
    const double e1 = eta[n - 1], n1 = nu[n - 1];
    /* the microplane estimate through the last run: nu = a nu_mp(eta), of slope
     * a dnu_mp/deta = -5 a / (4 + eta)^2 */
    const double a = n1 / nu_microplane(e1), model = -5 * a / ((4 + e1) * (4 + e1));
    double next = NAN;
    if (n >= 2 && fabs(eta[n - 2] - e1) > 1e-9) {
        /* the secant, unless noise made it disagree with the model by more than a factor 3 */
        const double slope = (n1 - nu[n - 2]) / (e1 - eta[n - 2]);
        if (slope < model / 3 && slope > model * 3) next = e1 + (target - n1) / slope;
    }
    if (isnan(next)) {
        const double m = target / a;
        next = (1 - 4 * m) / (1 + m);
    }
    /* a step of at most 0.1 + the factor, never below 0 */
    return clampd(next, fmax(0, fmin(e1 / MAX_FACTOR, e1 - 0.1)), fmax(e1 * MAX_FACTOR, e1 + 0.1));
}

/* ---- the stages ----------------------------------------------------------- */
static int unreachable_nu(const calib *c, const grit_calibrate_run *r, char *err, size_t errlen)
{
    return uniax_fail(err, errlen, GRIT_EINVAL,
                      "calibrate: target_poisson = %g is above what the model gives on this packing: nu = %.4f with "
                      "kt_div_kn = 0 (the largest), run %d",
                      c->target[GRIT_CAL_NU], r->figure[GRIT_CAL_NU], c->out->n_runs);
}

static int elastic_stage(calib *c, double p[GRIT_CAL_PARAMS], char *err, size_t errlen)
{
    double eta[MAX_ELASTIC], nu[MAX_ELASTIC];
    const double tol = 0.5 * c->def->tolerance;
    for (int k = 0; k < MAX_ELASTIC; k++) {
        grit_calibrate_run r;
        int rc = run_test(c, c->spec, c->n_spec, p, GRIT_CAL_ELASTIC, k + 1, &r, err, errlen);
        if (!rc) rc = record(c, &r, err, errlen);
        if (rc) return rc;
        if (!isfinite(r.figure[GRIT_CAL_E]) || !isfinite(r.figure[GRIT_CAL_NU]) || r.figure[GRIT_CAL_E] <= 0)
            return uniax_fail(err, errlen, GRIT_ESTATE,
                              "calibrate: elastic run %d measured no Young's modulus or Poisson's ratio (E = %g Pa, "
                              "nu = %g): the specimen is too small or poisson_strain too large",
                              k + 1, r.figure[GRIT_CAL_E], r.figure[GRIT_CAL_NU]);
        eta[k] = p[GRIT_CAL_KT_DIV_KN];
        nu[k] = r.figure[GRIT_CAL_NU];
        if (eta[k] == 0 && nu[k] < c->target[GRIT_CAL_NU] * (1 - tol)) return unreachable_nu(c, &r, err, errlen);
        if (fabs(r.error[GRIT_CAL_E]) < tol && fabs(r.error[GRIT_CAL_NU]) < tol) return GRIT_OK;
        const double e = next_eta(eta, nu, k + 1, c->target[GRIT_CAL_NU]);
        if (e > MAX_ETA)
            return uniax_fail(err, errlen, GRIT_EINVAL,
                              "calibrate: target_poisson = %g is below what kt_div_kn up to %g gives (nu = %.4f at "
                              "kt_div_kn = %.4g)",
                              c->target[GRIT_CAL_NU], MAX_ETA, nu[k], eta[k]);
        const double young = p[GRIT_CAL_YOUNG] * (c->target[GRIT_CAL_E] / r.figure[GRIT_CAL_E]) *
                             young_factor(eta[k]) / young_factor(e);
        const double y = step_limited(p[GRIT_CAL_YOUNG], young);
        /* keep the stress scale young * eps_crack_onset (and so f_t) where it was */
        p[GRIT_CAL_EPS0] *= p[GRIT_CAL_YOUNG] / y;
        p[GRIT_CAL_YOUNG] = y;
        p[GRIT_CAL_KT_DIV_KN] = e;
    }
    return GRIT_OK; /* not within tolerance yet: the full runs go on adjusting both */
}

/* Broyden's method on (ln rel_ductility, ln tan_phi) -> (ln g, ln r, ln psi). */
typedef struct shape_solver {
    double J[3][2];
    double u[2], y[3]; /* the last run's */
    bool have;
} shape_solver;

static void shape_figures(const grit_calibrate_run *r, double y[3])
{
    const double *f = r->figure, *p = r->param;
    y[0] = log(p[GRIT_CAL_YOUNG] * f[GRIT_CAL_GF] / (f[GRIT_CAL_FT] * f[GRIT_CAL_FT]));
    y[1] = log(f[GRIT_CAL_FC] / f[GRIT_CAL_FT]);
    y[2] = log(f[GRIT_CAL_FT] / (p[GRIT_CAL_YOUNG] * p[GRIT_CAL_EPS0]));
}

static void shape_update(shape_solver *s, const grit_calibrate_run *r)
{
    double u[2] = {log(r->param[GRIT_CAL_DUCTILITY]), log(r->param[GRIT_CAL_TAN_PHI])}, y[3];
    shape_figures(r, y);
    if (s->have) {
        const double du[2] = {u[0] - s->u[0], u[1] - s->u[1]}, dd = du[0] * du[0] + du[1] * du[1];
        if (dd > 1e-8)
            for (int i = 0; i < 3; i++) {
                const double miss = (y[i] - s->y[i]) - (s->J[i][0] * du[0] + s->J[i][1] * du[1]);
                s->J[i][0] += miss * du[0] / dd;
                s->J[i][1] += miss * du[1] / dd;
            }
    }
    memcpy(s->u, u, sizeof u);
    memcpy(s->y, y, sizeof y);
    s->have = true;
}

static int unreachable_shape(const calib *c, const grit_calibrate_run *r, int which, char *err, size_t errlen)
{
    const double *f = r->figure;
    if (which == 0)
        return uniax_fail(err, errlen, GRIT_EINVAL,
                          "calibrate: target_gf = %g J/m^3 is below what the model gives for f_t = %g Pa and E = %g "
                          "Pa: with rel_ductility = %g (the most brittle) G_f young / f_t^2 = %.3g, the target asks "
                          "%.3g (run %d)",
                          c->target[GRIT_CAL_GF], c->target[GRIT_CAL_FT], c->target[GRIT_CAL_E],
                          r->param[GRIT_CAL_DUCTILITY], r->param[GRIT_CAL_YOUNG] * f[GRIT_CAL_GF] / (f[GRIT_CAL_FT] * f[GRIT_CAL_FT]),
                          r->param[GRIT_CAL_YOUNG] * c->target[GRIT_CAL_GF] /
                              (c->target[GRIT_CAL_FT] * c->target[GRIT_CAL_FT]),
                          c->out->n_runs);
    return uniax_fail(err, errlen, GRIT_EINVAL,
                      "calibrate: f_c / f_t = %g is %s what the model gives on this packing: %.3g with tan_phi = %g "
                      "(run %d)",
                      c->target[GRIT_CAL_FC] / c->target[GRIT_CAL_FT],
                      r->param[GRIT_CAL_TAN_PHI] >= MAX_TAN_PHI ? "above" : "below", f[GRIT_CAL_FC] / f[GRIT_CAL_FT],
                      r->param[GRIT_CAL_TAN_PHI], c->out->n_runs);
}

/* The parameters of the next full run from the last one (r) and the solver. */
static int next_full(calib *c, shape_solver *s, const grit_calibrate_run *r, const double *eta, const double *nu,
                     int n_nu, double p[GRIT_CAL_PARAMS], char *err, size_t errlen)
{
    const double *t = c->target, *f = r->figure;
    memcpy(p, r->param, sizeof r->param);
    if (isnan(f[GRIT_CAL_GF])) {
        /* the tension curve never fell to gf_fraction f_t within max_strain: far too ductile */
        p[GRIT_CAL_DUCTILITY] = fmax(1.0, p[GRIT_CAL_DUCTILITY] / MAX_FACTOR);
        return GRIT_OK;
    }
    /* elastic figures: left alone within half the tolerance, where the
     * measurement's noise (the fit, the servo of a periodic cell) would
     * only make them wander */
    const double band = 0.5 * c->def->tolerance;
    const double e = fabs(r->error[GRIT_CAL_NU]) < band ? p[GRIT_CAL_KT_DIV_KN] : next_eta(eta, nu, n_nu, t[GRIT_CAL_NU]);
    const double ratio = fabs(r->error[GRIT_CAL_E]) < band ? 1 : t[GRIT_CAL_E] / f[GRIT_CAL_E];
    const double y = step_limited(p[GRIT_CAL_YOUNG], p[GRIT_CAL_YOUNG] * ratio * young_factor(p[GRIT_CAL_KT_DIV_KN]) /
                                                         young_factor(e));
    /* the shape: a Newton step on the two rows g and r */
    shape_update(s, r);
    const double want[2] = {log(y * t[GRIT_CAL_GF] / (t[GRIT_CAL_FT] * t[GRIT_CAL_FT])),
                            log(t[GRIT_CAL_FC] / t[GRIT_CAL_FT])};
    const double b[2] = {want[0] - s->y[0], want[1] - s->y[1]};
    const double det = s->J[0][0] * s->J[1][1] - s->J[0][1] * s->J[1][0];
    double du[2];
    if (fabs(det) > 1e-6) {
        du[0] = (s->J[1][1] * b[0] - s->J[0][1] * b[1]) / det;
        du[1] = (s->J[0][0] * b[1] - s->J[1][0] * b[0]) / det;
    } else { /* a degenerate Jacobian: each figure by its own parameter */
        du[0] = fabs(s->J[0][0]) > 1e-3 ? b[0] / s->J[0][0] : 0;
        du[1] = fabs(s->J[1][1]) > 1e-3 ? b[1] / s->J[1][1] : 0;
    }
    const double lim = log(MAX_FACTOR);
    for (int k = 0; k < 2; k++) du[k] = clampd(du[k], -lim, lim);
    const double rho = fmax(1.0, exp(s->u[0] + du[0]));
    const double tp = clampd(exp(s->u[1] + du[1]), MIN_TAN_PHI, MAX_TAN_PHI);
    /* a parameter at its bound that the figure still wants beyond it: out of reach */
    if (p[GRIT_CAL_DUCTILITY] == 1.0 && rho == 1.0 && b[0] < log(1 - c->def->tolerance))
        return unreachable_shape(c, r, 0, err, errlen);
    if ((p[GRIT_CAL_TAN_PHI] >= MAX_TAN_PHI && tp >= MAX_TAN_PHI && b[1] > 0) ||
        (p[GRIT_CAL_TAN_PHI] <= MIN_TAN_PHI && tp <= MIN_TAN_PHI && b[1] < 0))
        return unreachable_shape(c, r, 1, err, errlen);
    /* eps_crack_onset for f_t at the new young and shape: psi predicted by the third row */
    const double dlr = log(rho) - s->u[0], dlt = log(tp) - s->u[1];
    const double psi = exp(s->y[2] + s->J[2][0] * dlr + s->J[2][1] * dlt);
    const double eps0 = step_limited(p[GRIT_CAL_EPS0], t[GRIT_CAL_FT] / (y * psi));
    p[GRIT_CAL_YOUNG] = y;
    p[GRIT_CAL_KT_DIV_KN] = e;
    p[GRIT_CAL_EPS0] = eps0;
    p[GRIT_CAL_SIGMA_T] = c->cohesion * y * eps0 * tp;
    p[GRIT_CAL_DUCTILITY] = rho;
    p[GRIT_CAL_TAN_PHI] = tp;
    return GRIT_OK;
}

static double cpu_now(void) { return (double)clock() / CLOCKS_PER_SEC; }

int grit_calibrate(const grit_uniax_specimen *spec, int n_spec, const grit_uniax_specimen *fresh,
                   const grit_uniax_def *test, const grit_calibrate_def *def, const grit_calibrate_opts *opts,
                   grit_calibrate_result *out, char *err, size_t errlen)
{
    const grit_calibrate_opts none = grit_default_calibrate_opts();
    if (!opts) opts = &none;
    if (!spec || n_spec < 1)
        return uniax_fail(err, errlen, GRIT_EINVAL, "calibrate: no specimen given (%d)", n_spec);
    int rc = GRIT_OK;
    for (int i = 0; i < n_spec + (fresh != NULL); i++) {
        const grit_uniax_specimen *s = i < n_spec ? &spec[i] : fresh;
        if (!s->packing) return uniax_fail(err, errlen, GRIT_EINVAL, "calibrate: specimen %d has no packing", i + 1);
        if (s->mat_type != spec->mat_type || s->mat != spec->mat || s->law != spec->law)
            return uniax_fail(err, errlen, GRIT_EINVAL,
                              "calibrate: specimen %d has another material or law than the first: the calibration "
                              "starts from one material",
                              i + 1);
        /* a periodic cell is checked by the periodic runs themselves */
        grit_uniax_specimen bare = *s;
        if (opts->periodic) bare.packing = NULL;
        if ((rc = i ? grit_uniax_check(&bare, test, err, errlen) : grit_calibrate_check(&bare, test, def, err, errlen)))
            return rc;
    }
    if (!out) return uniax_fail(err, errlen, GRIT_EINVAL, "calibrate: no result given");
    grit_calibrate_result *o = calloc(1, sizeof *o);
    if (!o) return uniax_fail(err, errlen, GRIT_ENOMEM, "calibrate: out of memory");
    const double t0 = cpu_now();
    calib c = {spec, n_spec, test, def, opts, o, {0}, 0};
    targets_of(def, c.target);
    memcpy(o->target, c.target, sizeof c.target);
    const grit_concretemat_def *m0 = spec->mat;
    c.cohesion = m0->sigma_t / (m0->young * m0->eps_crack_onset * m0->tan_phi);
    double p[GRIT_CAL_PARAMS] = {m0->young,   m0->kt_div_kn,     m0->eps_crack_onset,
                                 m0->sigma_t, m0->rel_ductility, m0->tan_phi};
    if ((rc = elastic_stage(&c, p, err, errlen))) goto done;
    p[GRIT_CAL_SIGMA_T] = c.cohesion * p[GRIT_CAL_YOUNG] * p[GRIT_CAL_EPS0] * p[GRIT_CAL_TAN_PHI];

    /* the history of nu, elastic runs first: the secant needs two kt_div_kn */
    double eta[GRIT_CAL_MAX_RUNS], nu[GRIT_CAL_MAX_RUNS];
    int n_nu = 0;
    for (int i = 0; i < o->n_runs; i++) {
        eta[n_nu] = o->runs[i].param[GRIT_CAL_KT_DIV_KN];
        nu[n_nu++] = o->runs[i].figure[GRIT_CAL_NU];
    }
    /* Jacobian guesses, measured on a periodic cell of 2000 spheres
     * (docs/concrete.md, "Calibration"): g grows as rel_ductility^0.59 and
     * (tan_phi, sigma_t)^0.4, f_c / f_t as (tan_phi, sigma_t)^0.52; f_t
     * hardly changes with either */
    shape_solver s = {.J = {{0.59, 0.40}, {0.04, 0.52}, {0.06, 0.06}}, .have = false};
    double best = INFINITY;
    for (int k = 0; k < def->max_runs; k++) {
        grit_calibrate_run r;
        if ((rc = run_test(&c, spec, n_spec, p, GRIT_CAL_FULL, k + 1, &r, err, errlen))) goto done;
        if ((rc = record(&c, &r, err, errlen))) goto done;
        if (r.worst < best) {
            best = r.worst;
            o->best = o->n_runs - 1;
        }
        if (r.worst < def->tolerance) {
            o->converged = true;
            break;
        }
        if (isfinite(r.figure[GRIT_CAL_NU]) && n_nu < GRIT_CAL_MAX_RUNS) {
            eta[n_nu] = p[GRIT_CAL_KT_DIV_KN];
            nu[n_nu++] = r.figure[GRIT_CAL_NU];
            if (p[GRIT_CAL_KT_DIV_KN] == 0 && r.figure[GRIT_CAL_NU] < c.target[GRIT_CAL_NU] * (1 - def->tolerance)) {
                rc = unreachable_nu(&c, &r, err, errlen);
                goto done;
            }
        }
        if (!isfinite(r.figure[GRIT_CAL_E]) || !isfinite(r.figure[GRIT_CAL_FT]) || !isfinite(r.figure[GRIT_CAL_FC]) ||
            r.figure[GRIT_CAL_FT] <= 0 || r.figure[GRIT_CAL_FC] <= 0) {
            rc = uniax_fail(err, errlen, GRIT_ESTATE,
                            "calibrate: full run %d measured E = %g Pa, f_t = %g Pa, f_c = %g Pa: not a concrete's "
                            "curves (max_strain, max_steps?)",
                            k + 1, r.figure[GRIT_CAL_E], r.figure[GRIT_CAL_FT], r.figure[GRIT_CAL_FC]);
            goto done;
        }
        if (k + 1 < def->max_runs && (rc = next_full(&c, &s, &r, eta, nu, n_nu, p, err, errlen))) goto done;
    }
    if (!isfinite(best)) {
        rc = uniax_fail(err, errlen, GRIT_ESTATE, "calibrate: no full run measured every figure");
        goto done;
    }
    material_of(&c, o->runs[o->best].param, &o->material);
    if (fresh) {
        grit_calibrate_run r;
        if ((rc = run_test(&c, fresh, 1, o->runs[o->best].param, GRIT_CAL_FRESH, 1, &r, err, errlen))) goto done;
        r.worst = worst_of(&r, GRIT_CAL_FRESH);
        o->have_fresh = true;
        o->fresh_passed = r.worst < def->fresh_tolerance;
        if ((rc = record(&c, &r, err, errlen))) goto done;
    }
    o->cpu = cpu_now() - t0;
    *out = *o;
done:
    free(o);
    return rc;
}
