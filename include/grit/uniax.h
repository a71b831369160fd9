/* grit: the uniaxial tension/compression test of concrete specimens
 * (docs/concrete.md, "Uniaxial test and calibration").
 *
 * A specimen is a packing of spheres (grit/pack.h: a dense packing cut to a
 * hyperboloid, a cuboid, ...) of a ConcreteMat. The test builds its scene,
 * bonds every pair closer than bond_radius times the sum of the radii in a
 * first step taken at rest, then pulls (or crushes) it between two supports:
 * the spheres near either end of the load axis, whose axial velocity is
 * imposed (lateral translations and rotations stay free: frictionless
 * supports). Both ends move, in opposite senses, at half the speed
 * rate * l0; every other sphere starts with the axial velocity interpolated
 * linearly between the ends, so that no shock wave runs through the
 * specimen. The strain is the change of the axial distance between two
 * reference spheres (one of each support) over its initial value l0; the
 * stress the mean of the two supports' axial reactions over the
 * cross-section, plus the material's confinement (iso_prestress), which
 * the contact forces leave out.
 *
 * From the two curves (tension on the specimen as built, compression on
 * the same specimen built again) the analysis gives Young's modulus,
 * Poisson's ratio, the strengths, the fracture energy (docs/concrete.md).
 *
 * Three levels: grit_uniax_run does the whole test; grit_uniax_create /
 * _start / _step / _load drive one specimen (a calibration loop, a custom
 * stop rule); the analysis functions work on any curve. The periodic
 * variant (grit_uniax_periodic_run) strains a bonded periodic cell
 * instead: no supports, no boundary effect.
 *
 * Functions that can fail return GRIT_OK or a negative grit_status, write
 * one line into err naming the parameter, file or value, and leave their
 * outputs untouched.
 */
#ifndef GRIT_UNIAX_H
#define GRIT_UNIAX_H

#include <stdbool.h>
#include <stddef.h>

#include "grit/law.h"
#include "grit/material.h"
#include "grit/pack.h"
#include "grit/params.h"
#include "grit/scene.h"
#include "grit/export.h"

GRIT_BEGIN_DECLS

/* clang-format off */
#define GRIT_UNIAX_PARAMS(X) \
    X(choice, tests, 0, "-", 0, 2, 0, "both|tension|compression", \
      "which runs: tension, then compression of the same specimen built again; or one of them") \
    X(double, rate_tension, 0.05, "1/s", 0.0, INFINITY, GRIT_P_MIN_EXCL, NULL, \
      "strain rate of the tension run (the supports move apart at rate * l0)") \
    X(double, rate_compression, -0.5, "1/s", -INFINITY, 0.0, GRIT_P_MAX_EXCL, NULL, \
      "strain rate of the compression run (negative)") \
    X(choice, load_axis, 0, "-", 0, 3, 0, "auto|x|y|z", \
      "load axis; auto: the longest side of the specimen's bounding box") \
    X(double, support_factor, 2.2, "-", 0.0, INFINITY, GRIT_P_MIN_EXCL, NULL, \
      "a sphere belongs to the lower support when its centre minus this many radii is below the specimen's " \
      "lowest extent along the axis (likewise at the top)") \
    X(double, bond_radius, 1.5, "-", 1.0, INFINITY, 0, NULL, \
      "interaction radius of the first step: pairs closer than this times the sum of the radii are bonded; " \
      "later contacts need touching spheres") \
    X(double, dt_safety, 0.7, "-", 0.0, 1.0, GRIT_P_MIN_EXCL, NULL, \
      "time step as a fraction of the p-wave step r sqrt(density / young); the bonds of the first step make " \
      "0.8 marginal and 0.9 unstable with ref_length=radii (docs/concrete.md)") \
    X(double, damping, 0.4, "-", 0.0, 1.0, GRIT_P_MAX_EXCL, NULL, "Cundall non-viscous damping") \
    X(flag, initial_velocity, true, "-", 0, 1, 0, NULL, \
      "start every sphere with the axial velocity interpolated between the supports' (false: at rest, the " \
      "supports' motion then sends a shock wave through the specimen)") \
    X(int, sample_every, 10, "steps", 1, 1e9, 0, NULL, "a point of the stress-strain curve every that many steps") \
    X(double, stop_tension, 0.1, "-", 0.0, 1.0, GRIT_P_MAX_EXCL, NULL, \
      "tension stops when the stress has fallen below this fraction of its peak after the peak (0: never); " \
      "the fracture energy needs it below gf_fraction") \
    X(double, stop_compression, 0.5, "-", 0.0, 1.0, GRIT_P_MAX_EXCL, NULL, \
      "compression stops when the stress has fallen below this fraction of its peak after the peak (0: never)") \
    X(double, max_strain, NAN, "-", 0.0, INFINITY, GRIT_P_MIN_EXCL | GRIT_P_NAN_OK, NULL, \
      "a run also stops when |strain| exceeds this; nan: 5e-3, or 5e-2 with a confinement (iso_prestress)") \
    X(int, max_steps, 1000000, "steps", 1, 2e9, 0, NULL, "a run also stops after this many steps") \
    X(double, young_fraction, 0.3, "-", 0.0, 1.0, GRIT_P_MIN_EXCL, NULL, \
      "Young's modulus: least-squares line through the pre-peak points whose |stress| is below this fraction " \
      "of the strength") \
    X(double, poisson_strain, 4e-5, "-", 0.0, INFINITY, GRIT_P_MIN_EXCL, NULL, \
      "Poisson's ratio: measured when |strain| first reaches this in the first run (before the peak)") \
    X(double, poisson_box, 0.7, "-", 0.0, 1.0, GRIT_P_MIN_EXCL, NULL, \
      "Poisson's ratio: regression of the displacements over the spheres in the bounding box shrunk about its " \
      "centre to this fraction") \
    X(double, gf_fraction, 0.2, "-", 0.0, 1.0, GRIT_P_MIN_EXCL | GRIT_P_MAX_EXCL, NULL, \
      "fracture energy: the post-peak tension curve is integrated until the stress first falls to this " \
      "fraction of f_t") \
    X(choice, section, 0, "-", 0, 3, 0, "auto|box|hull|yade", \
      "cross-section for the stress: box (the bounding box's, for prismatic specimens), hull (the smallest " \
      "convex-hull area of the discs in which interior planes cut the spheres), yade (Yade's figure for the " \
      "same: six points around every sphere the plane crosses, up to 1.8 radii from its centre: larger, for " \
      "comparisons), auto: box for a " \
      "packing cut to a cuboid, else hull") \
    X(int, section_planes, 8, "-", 1, 1000, 0, NULL, \
      "section=hull or yade: number of interior planes, evenly spaced between the ends")
/* clang-format on */

typedef struct grit_uniax_def {
    GRIT_UNIAX_PARAMS(GRIT_PARAM_FIELD)
} grit_uniax_def;

enum { GRIT_UNIAX_BOTH = 0, GRIT_UNIAX_TENSION = 1, GRIT_UNIAX_COMPRESSION = 2 };
enum { GRIT_UNIAX_AXIS_AUTO = 0 };
enum { GRIT_UNIAX_SECTION_AUTO = 0, GRIT_UNIAX_SECTION_BOX = 1, GRIT_UNIAX_SECTION_HULL = 2, GRIT_UNIAX_SECTION_YADE = 3 };

grit_uniax_def grit_default_uniax_def(void);
extern const grit_param_table grit_uniax_param_table;

/* What the specimen is made of. */
typedef struct grit_uniax_specimen {
    const grit_packing *packing; /* the spheres (not periodic) */
    int mat_type;                /* must be GRIT_MAT_CONCRETEMAT */
    const void *mat;             /* its grit_concretemat_def */
    const grit_cpm_def *law;     /* NULL: the law's defaults */
    const grit_region *region;   /* optional: the shape the packing was cut to; "interior" spheres are those
                                    whose bond neighbourhood lies inside it (else: inside the bounding box) */
} grit_uniax_specimen;

/* A stress-strain curve: n points, arrays owned by the curve. */
typedef struct grit_uniax_curve {
    int n, cap;
    double *strain; /* axial strain, tension positive */
    double *stress; /* axial stress (Pa), tension positive, confinement included */
    double *time;   /* s since the start of the run */
    double *omega;  /* mean damage of the cohesive contacts (NaN where not sampled: see monitor_every) */
    double *lateral; /* periodic variant: mean lateral strain; specimens: NaN */
} grit_uniax_curve;

/* Why a run stopped. */
typedef enum grit_uniax_stop {
    GRIT_UNIAX_RUNNING = 0,
    GRIT_UNIAX_STOP_FALL = 1,    /* the stress fell below stop_tension / stop_compression of its peak */
    GRIT_UNIAX_STOP_STRAIN = 2,  /* |strain| reached max_strain */
    GRIT_UNIAX_STOP_STEPS = 3,   /* max_steps */
    GRIT_UNIAX_STOP_MONITOR = 4  /* the monitor asked */
} grit_uniax_stop;

/* What a run is doing, for a monitor. */
typedef struct grit_uniax_state {
    int run;            /* GRIT_UNIAX_TENSION or GRIT_UNIAX_COMPRESSION */
    long step;          /* steps of this run so far */
    double strain, stress, peak; /* peak: the extremum of the stress so far (signed) */
    double mean_omega;  /* mean damage of the cohesive contacts */
    int cracked;        /* cohesive contacts with omega >= 0.99 */
    int contacts;       /* real contacts */
    int stop;           /* grit_uniax_stop: non-zero in the last call of a run */
    grit_scene *scene;  /* the specimen's scene: read it, write output from it; do not step or change it */
} grit_uniax_state;

/* Called every monitor_every samples and once more when a run stops; a
 * non-zero return stops the run (GRIT_UNIAX_STOP_MONITOR; the test then
 * fails with GRIT_ESTATE "stopped by the monitor"). */
typedef int (*grit_uniax_monitor_fn)(const grit_uniax_state *st, void *data);

typedef struct grit_uniax_opts {
    grit_uniax_monitor_fn monitor; /* NULL: none */
    void *monitor_data;
    int monitor_every;             /* samples between calls (<= 0: 100) */
} grit_uniax_opts;
grit_uniax_opts grit_default_uniax_opts(void);

/* The outcome of the test. NaN for what a run that was not made (or a curve
 * that does not reach it) cannot give. */
typedef struct grit_uniax_result {
    int axis;                     /* 0, 1, 2 */
    int spheres, support_neg, support_pos;
    int bonds;                    /* contacts after the bonding step */
    double bonds_per_sphere;      /* 2 bonds / spheres */
    double bonds_per_sphere_interior; /* the same over interior spheres (NaN if none) */
    int interior;                 /* interior spheres */
    double length;                /* l0: axial distance of the reference spheres, m */
    double area;                  /* cross-section used for the stress, m^2 */
    double dt;                    /* time step, s */
    double young;                 /* E from the first run's curve, Pa */
    double young_tension, young_compression;
    double young_regression;      /* stress / the regression's axial strain at poisson_strain */
    double poisson;               /* nu by displacement regression at poisson_strain */
    double ft, eps_ft;            /* tensile strength (Pa) and its strain */
    double fc, eps_fc;            /* compressive strength |min stress| (Pa) and its strain (negative) */
    double fc_ft;                 /* fc / ft */
    double gf;                    /* fracture energy per unit volume, J/m^3 */
    double gf_norm;               /* k_N gf / ft^2 */
    double confinement;           /* the material's iso_prestress, Pa */
    long steps_tension, steps_compression;
    int stop_tension, stop_compression; /* grit_uniax_stop */
    double cpu_tension, cpu_compression; /* CPU seconds of the two runs (build included) */
    grit_uniax_curve tension, compression;
} grit_uniax_result;

void grit_uniax_result_free(grit_uniax_result *r);
void grit_uniax_curve_free(grit_uniax_curve *c);

/* Check the definition and the specimen as grit_uniax_run does before it
 * starts (parameters, the material's type and values, the law, a packing
 * with a sphere in each support; spec->packing NULL: all but the packing). */
int grit_uniax_check(const grit_uniax_specimen *spec, const grit_uniax_def *def, char *err, size_t errlen);

/* The whole test: tension, then compression of the specimen built again
 * (or one of them, def->tests); the analysis fills the result (free it with
 * grit_uniax_result_free). opts may be NULL. */
int grit_uniax_run(const grit_uniax_specimen *spec, const grit_uniax_def *def, const grit_uniax_opts *opts,
                   grit_uniax_result *out, char *err, size_t errlen);

/* ---- one specimen, step by step ------------------------------------------ */
typedef struct grit_uniax grit_uniax;

/* Build the specimen's scene, take the bonding step at rest and find the
 * supports and the cross-section. */
int grit_uniax_create(const grit_uniax_specimen *spec, const grit_uniax_def *def, grit_uniax **out, char *err,
                      size_t errlen);
void grit_uniax_destroy(grit_uniax *u);
grit_scene *grit_uniax_scene(grit_uniax *u);
/* Support spheres: side -1 (lower) or +1 (upper); returns their number and
 * points *ids at their particle ids (valid while u lives). */
int grit_uniax_supports(const grit_uniax *u, int side, const int **ids);
/* The reference spheres (particle ids) of the strain. */
void grit_uniax_reference(const grit_uniax *u, int *neg, int *pos);
int grit_uniax_axis(const grit_uniax *u);
double grit_uniax_length(const grit_uniax *u); /* l0, m */
double grit_uniax_area(const grit_uniax *u);   /* m^2 */
/* Impose the straining at `rate` (1/s, tension positive) on the supports
 * and, with initial_velocity, the linear velocity field on the rest. */
int grit_uniax_start(grit_uniax *u, double rate, char *err, size_t errlen);
/* The current strain and stress (confinement included). The stress reads
 * the forces of the last step: call it after stepping. */
double grit_uniax_strain(const grit_uniax *u);
double grit_uniax_stress(const grit_uniax *u);
/* Sample, monitor and stop as grit_uniax_run does, for one run started at
 * `rate` (grit_uniax_start is called here); the curve is appended to (it
 * may be zeroed). *stop receives why it stopped. */
int grit_uniax_load(grit_uniax *u, double rate, const grit_uniax_opts *opts, grit_uniax_curve *curve, int *stop,
                    char *err, size_t errlen);
/* Poisson's ratio now, by the displacement regression (spec: the spheres
 * whose current centre lies in the central box of fraction poisson_box);
 * eps[3] (may be NULL) receives the regression strains of the three axes. */
int grit_uniax_poisson_now(const grit_uniax *u, double *nu, double eps[3], char *err, size_t errlen);

/* ---- the analysis, on any curve ------------------------------------------- */
/* The extremum of sign `sense` (+1: max, -1: min) and its index. */
int grit_uniax_peak(const double *stress, int n, int sense);
/* Slope of the least-squares line (with intercept) through the points
 * before the peak whose |stress - stress[0]| is below fraction times
 * |peak - stress[0]| (measured from the first point: a confined run starts
 * at its confinement); GRIT_ESTATE with fewer than 2 such points. */
int grit_uniax_fit_young(const double *strain, const double *stress, int n, int sense, double fraction, double *E,
                         char *err, size_t errlen);
/* Fracture energy per unit volume of a tension curve: the secant from the
 * origin to the peak (f_t, eps_ft) plus the area under the curve after the
 * peak until the stress first falls to fraction * f_t (the crossing
 * interpolated linearly): gf = f_t eps_ft / 2 + int sigma d eps. GRIT_ESTATE
 * if the curve never falls that low. */
int grit_uniax_fracture_energy(const double *strain, const double *stress, int n, double fraction, double *gf,
                               char *err, size_t errlen);
/* Displacement regression: for each axis w, the least-squares fit
 * dw_i = eps_w w0_i + b over the points i whose current position lies in
 * the box [lo, hi]; nu = -(eps_b + eps_c) / (2 eps_a) for the load axis a.
 * GRIT_ESTATE with fewer than 3 such points or no axial strain. */
int grit_uniax_poisson(const grit_vec3 *x0, const grit_vec3 *x, int n, int axis, grit_vec3 lo, grit_vec3 hi,
                       double *nu, double eps[3], char *err, size_t errlen);
/* The smallest, over `planes` planes perpendicular to the axis evenly
 * spaced strictly between lo and hi (at lo + k (hi - lo) / (planes + 1)),
 * of the area of the convex hull of the discs in which the plane cuts the
 * spheres (yade: Yade's figure, six points around the centre of every sphere the
 * plane crosses, at (+-r, 0) and (+-r/2, +-sqrt(3) r) in the plane's axes); *at (may be NULL) the plane's coordinate.
 * GRIT_ESTATE if a plane cuts no sphere. */
int grit_uniax_hull_section(const grit_vec3 *center, const double *radius, int n, int axis, double lo, double hi,
                            int planes, bool yade, double *area, double *at, char *err, size_t errlen);

/* ---- the periodic variant ----------------------------------------------- */
/* The same test on a periodic cell (a periodic packing, grit_pack_dense):
 * bonded as the specimen, then strained along the axis (auto: x) by the
 * cell's velocity gradient at the rate, while a servo on the lateral
 * gradient components keeps the lateral stresses at zero; stress from the
 * cell (Love-Weber, grit_stress) plus the confinement, strain from the cell
 * (H_aa / H0_aa - 1). Poisson's ratio is the slope of the mean lateral
 * strain against the axial one over the points used for E. The supports,
 * the section and the interior do not apply (their fields are 0 or NaN). */
int grit_uniax_periodic_run(const grit_uniax_specimen *spec, const grit_uniax_def *def, const grit_uniax_opts *opts,
                            grit_uniax_result *out, char *err, size_t errlen);

GRIT_END_DECLS

#endif
