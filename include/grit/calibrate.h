/* grit: calibration of the concrete model: the contact parameters of a
 * ConcreteMat that give a concrete's measured E, nu, f_t, f_c and G_f in the
 * uniaxial test (grit/uniax.h; docs/concrete.md, "Calibration").
 *
 * The procedure runs the test as often as it needs on one specimen:
 *
 *  1. elastic runs (tension to a small strain, bonds that never damage):
 *     kt_div_kn from nu, young from E, until both are within tolerance;
 *  2. full runs (tension, then compression): young from E, kt_div_kn from
 *     nu, eps_crack_onset for f_t, rel_ductility for the dimensionless
 *     fracture energy young G_f / f_t^2, tan_phi for f_c / f_t, until every
 *     figure is within tolerance. sigma_t follows young * eps_crack_onset *
 *     tan_phi: scaling eps_crack_onset stretches the whole stress-strain
 *     curve without changing its shape, and the cohesion raises f_c / f_t
 *     together with the friction;
 *  3. optionally the final parameters on a fresh specimen (another packing
 *     of the same size): the scatter between packings, which no
 *     calibration removes.
 *
 * Every run is reported to a monitor with its parameters, its figures and
 * their errors. Functions that can fail return GRIT_OK or a negative
 * grit_status and write one line into err; a target the model cannot reach
 * is such an error (naming the target, the limit and the run that showed it).
 */
#ifndef GRIT_CALIBRATE_H
#define GRIT_CALIBRATE_H

#include <stdbool.h>
#include <stddef.h>

#include "grit/uniax.h"
#include "grit/export.h"

GRIT_BEGIN_DECLS

/* clang-format off */
#define GRIT_CALIBRATE_PARAMS(X) \
    X(double, target_young, 30e9, "Pa", 0.0, INFINITY, GRIT_P_MIN_EXCL, NULL, "Young's modulus E to reach") \
    X(double, target_poisson, 0.2, "-", -1.0, 0.5, GRIT_P_MIN_EXCL | GRIT_P_MAX_EXCL, NULL, \
      "Poisson's ratio nu to reach (the model gives about 0.25 at most: kt_div_kn = 0)") \
    X(double, target_ft, 3e6, "Pa", 0.0, INFINITY, GRIT_P_MIN_EXCL, NULL, "tensile strength f_t to reach") \
    X(double, target_fc, NAN, "Pa", 0.0, INFINITY, GRIT_P_MIN_EXCL | GRIT_P_NAN_OK, NULL, \
      "compressive strength f_c to reach; nan: target_fc_ft * target_ft") \
    X(double, target_fc_ft, 10.0, "-", 1.0, INFINITY, GRIT_P_MIN_EXCL | GRIT_P_NAN_OK, NULL, \
      "f_c / f_t to reach when target_fc is nan") \
    X(double, target_gf, 1000.0, "J/m^3", 0.0, INFINITY, GRIT_P_MIN_EXCL, NULL, \
      "fracture energy per unit volume to reach, as the test measures it (the tension curve integrated to " \
      "gf_fraction f_t): a G_f in J/m^2 divided by the length over which the crack opens") \
    X(double, tolerance, 0.02, "-", 0.0, 1.0, GRIT_P_MIN_EXCL, NULL, \
      "every figure within this relative error of its target on the calibration specimen") \
    X(int, max_runs, 16, "-", 2, 64, 0, NULL, \
      "full runs (tension and compression) at most; the elastic runs are extra (at most 12)") \
    X(double, fresh_tolerance, 0.05, "-", 0.0, 1.0, GRIT_P_MIN_EXCL, NULL, \
      "the fresh specimen passes when every figure is within this relative error of its target")
/* clang-format on */

typedef struct grit_calibrate_def {
    GRIT_CALIBRATE_PARAMS(GRIT_PARAM_FIELD)
} grit_calibrate_def;

grit_calibrate_def grit_default_calibrate_def(void);
extern const grit_param_table grit_calibrate_param_table;

/* The figures of the calibration, in this order in the arrays below. */
enum {
    GRIT_CAL_E = 0,  /* Young's modulus, Pa */
    GRIT_CAL_NU = 1, /* Poisson's ratio */
    GRIT_CAL_FT = 2, /* tensile strength, Pa */
    GRIT_CAL_FC = 3, /* compressive strength, Pa */
    GRIT_CAL_GF = 4, /* fracture energy per unit volume, J/m^3 */
    GRIT_CAL_FIGURES = 5
};
/* The parameters it changes, in this order in the arrays below. */
enum {
    GRIT_CAL_YOUNG = 0,      /* young */
    GRIT_CAL_KT_DIV_KN = 1,  /* kt_div_kn */
    GRIT_CAL_EPS0 = 2,       /* eps_crack_onset */
    GRIT_CAL_SIGMA_T = 3,    /* sigma_t (follows young * eps_crack_onset * tan_phi) */
    GRIT_CAL_DUCTILITY = 4,  /* rel_ductility */
    GRIT_CAL_TAN_PHI = 5,    /* tan_phi */
    GRIT_CAL_PARAMS = 6
};
/* Stages of the procedure. */
enum { GRIT_CAL_ELASTIC = 1, GRIT_CAL_FULL = 2, GRIT_CAL_FRESH = 3 };

/* One run of the test. */
typedef struct grit_calibrate_run {
    int stage;                       /* GRIT_CAL_ELASTIC, _FULL or _FRESH */
    int index;                       /* 1, 2, ... within its stage */
    double param[GRIT_CAL_PARAMS];   /* the material's values in this run */
    double figure[GRIT_CAL_FIGURES]; /* measured (mean over the specimens); NaN where the run does not give it */
    double error[GRIT_CAL_FIGURES];  /* figure / target - 1; NaN where not measured */
    double worst;                    /* max |error| over the figures the stage calibrates */
    double cpu;                      /* CPU seconds of the run (all its specimens) */
} grit_calibrate_run;

enum { GRIT_CAL_MAX_RUNS = 80 };

typedef struct grit_calibrate_result {
    grit_concretemat_def material; /* the calibrated material (the best full run's) */
    double target[GRIT_CAL_FIGURES];
    bool converged;                /* a full run met the tolerance */
    int best;                      /* index into runs of the full run the material comes from */
    bool have_fresh;
    bool fresh_passed;             /* the fresh specimen met fresh_tolerance */
    grit_calibrate_run fresh;
    int n_runs;
    grit_calibrate_run runs[GRIT_CAL_MAX_RUNS];
    double cpu;                    /* CPU seconds of everything */
} grit_calibrate_result;

/* Called after every run (and the fresh specimen's); a non-zero return
 * stops the calibration (GRIT_ESTATE "stopped by the monitor"). */
typedef int (*grit_calibrate_monitor_fn)(const grit_calibrate_run *run, void *data);

typedef struct grit_calibrate_opts {
    bool periodic;                     /* the specimens are periodic cells: grit_uniax_periodic_run */
    grit_calibrate_monitor_fn monitor; /* NULL: none */
    void *monitor_data;
    const grit_uniax_opts *uniax;      /* passed to every run of the test (NULL: none) */
} grit_calibrate_opts;
grit_calibrate_opts grit_default_calibrate_opts(void);

/* Check the calibration's definition, the test's and the specimen's as
 * grit_calibrate does before it starts (spec->packing NULL: all but it). */
int grit_calibrate_check(const grit_uniax_specimen *spec, const grit_uniax_def *test, const grit_calibrate_def *def,
                         char *err, size_t errlen);

/* Calibrate the material of spec[0] (its values are the starting point;
 * the law and every parameter the procedure does not change are kept) on
 * the n_spec specimens spec[] (the same material and law, other packings:
 * every run's figures are their mean, which halves the scatter between
 * packings for n_spec = 4); fresh (may be NULL) is another packing of the
 * same size on which the final material is tried. Returns GRIT_OK when the
 * runs were made (out->converged tells whether the tolerance was met;
 * out->material is the best run's), or an error: a target out of the
 * model's reach, a failed run, the monitor. */
int grit_calibrate(const grit_uniax_specimen *spec, int n_spec, const grit_uniax_specimen *fresh,
                   const grit_uniax_def *test, const grit_calibrate_def *def, const grit_calibrate_opts *opts,
                   grit_calibrate_result *out, char *err, size_t errlen);

/* The names of the figures ("young", "poisson", "ft", "fc", "gf") and of
 * the parameters ("young", "kt_div_kn", "eps_crack_onset", "sigma_t",
 * "rel_ductility", "tan_phi"). */
const char *grit_calibrate_figure_name(int k);
const char *grit_calibrate_param_name(int k);

GRIT_END_DECLS

#endif
