/* grit run periodic: a periodic box of spheres compressed isotropically to a
 * pressure, then sheared by a prescribed velocity gradient (docs/periodic.md).
 *
 * The spheres start on a jittered cubic lattice filling a cubic periodic cell
 * at the solid fraction phi0 (a loose gas, no overlaps, deterministic for a
 * seed). The cell's stress/strain controller (grit_cell_ctrl_set) steers it
 * in two phases, the run checking it every CONTROL_EVERY steps:
 *   compress  every diagonal stress to -pressure (at most compress_rate);
 *             done when the controller has converged: SETTLE updates in a
 *             row within stress_tol;
 *   shear     L_xy = shear_rate (simple shear, v_x = shear_rate y) and, with
 *             hold_pressure, sigma_yy held at -pressure (L_xx = L_zz = 0);
 *             at constant volume otherwise.
 * The controller is part of the scene: `grit run restart` of a saved run
 * goes on steering it. The run writes stress.csv (stress tensor,
 * deformation gradient, gradient). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "cli.h"

/* clang-format off */
#define PERIODIC_PARAMS(X) \
    X(int, n, 500, "-", 8, 1e7, 0, NULL, "number of spheres") \
    X(double, radius, 0.001, "m", 0.0, INFINITY, GRIT_P_MIN_EXCL, NULL, "mean sphere radius") \
    X(double, spread, 0.1, "-", 0.0, 0.5, 0, NULL, \
      "radii uniform in radius*(1-spread) .. radius*(1+spread)") \
    X(double, phi0, 0.35, "-", 0.0, 0.5, GRIT_P_MIN_EXCL, NULL, \
      "initial solid fraction: the spheres on a jittered cubic lattice in a cubic cell") \
    X(double, pressure, 5e4, "Pa", 0.0, INFINITY, GRIT_P_MIN_EXCL, NULL, \
      "mean pressure of the isotropic compression, held as normal stress sigma_yy while shearing") \
    X(double, compress_rate, 1.0, "1/s", 0.0, INFINITY, GRIT_P_MIN_EXCL, NULL, \
      "largest strain rate of the compression and of the pressure servo") \
    X(double, shear_rate, 1.0, "1/s", -INFINITY, INFINITY, 0, NULL, \
      "velocity gradient L_xy of the simple shear after the compression (v_x = shear_rate y)") \
    X(flag, hold_pressure, true, "-", 0, 1, 0, NULL, \
      "while shearing, servo L_yy to keep -sigma_yy = pressure; false: shear at constant volume") \
    X(double, servo_gain, 0.5, "-", 0.0, 1.0, GRIT_P_MIN_EXCL | GRIT_P_MAX_EXCL, NULL, \
      "fraction of the stress error the cell's servo removes per update if the assembly were affine") \
    X(double, stress_tol, 0.02, "-", 0.0, 1.0, 0, NULL, \
      "the compression is done when every diagonal stress is within this fraction of the pressure") \
    X(int, seed, 1, "-", 0, 2147483647, 0, NULL, "random seed of the radii and the lattice jitter")
/* clang-format on */

typedef struct periodic_def {
    PERIODIC_PARAMS(GRIT_PARAM_FIELD)
} periodic_def;

#define PERIODIC_INFO(...) GRIT_PARAM_INFO(periodic_def, __VA_ARGS__)
static const grit_param_info periodic_params[] = {PERIODIC_PARAMS(PERIODIC_INFO)};
static const grit_param_table periodic_table = {"periodic", periodic_params,
                                                (int)(sizeof periodic_params / sizeof periodic_params[0])};

enum { CONTROL_EVERY = 10, SETTLE = 50 };

static periodic_def per;
static grit_frictmat_def mat;
static struct {
    int phase;
    double volume0; /* the spheres' volume, for the solid fraction */
} ctl;

/* splitmix64 (as deposit): small, fast, the same on every machine */
static double uniform(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    z ^= z >> 31;
    return (double)(z >> 11) * 0x1.0p-53;
}

static int set_ctrl(grit_scene *s, int phase, char *err, size_t len)
{
    grit_cell_ctrl_def d = grit_default_cell_ctrl_def();
    for (int a = 0; a < 3; a++) {
        const bool held = phase == 0 || (a == 1 && per.hold_pressure);
        d.mode[a] = held ? GRIT_CTRL_STRESS : GRIT_CTRL_RATE;
        d.goal[a] = held ? -per.pressure : 0;
    }
    if (phase == 1) d.grad_v[0][1] = per.shear_rate;
    d.gain = per.servo_gain;
    d.max_rate = per.compress_rate;
    d.stress_tol = per.stress_tol;
    d.settle = SETTLE;
    if (grit_cell_ctrl_set(s, &d)) return snprintf(err, len, "%s", grit_last_error(s)), -1;
    return 0;
}

static int control(job *j, grit_scene *s, long *next, char *err, size_t len)
{
    (void)j;
    if (ctl.phase == 0) {
        grit_cell_ctrl_state st;
        if (grit_cell_ctrl_get_state(s, &st)) return snprintf(err, len, "%s", grit_last_error(s)), -1;
        if (st.converged) {
            ctl.phase = 1;
            const double p = -(st.stress[0][0] + st.stress[1][1] + st.stress[2][2]) / 3;
            printf("grit run periodic: pressure %.4g Pa held from step %ld (t = %.6g s, solid fraction %.4f): "
                   "shearing at %g 1/s\n",
                   p, grit_step_count(s), grit_time(s), ctl.volume0 / grit_cell_volume(s), per.shear_rate);
            fflush(stdout);
            if (set_ctrl(s, 1, err, len)) return -1;
        }
    }
    *next = ctl.phase == 0 ? grit_step_count(s) + CONTROL_EVERY : -1;
    return 0;
}

static void init(job *j)
{
    per = (periodic_def){PERIODIC_PARAMS(GRIT_PARAM_DEFAULT)};
    mat = grit_default_frictmat_def();
    mat.density = 2600;
    mat.young = 5e7;
    mat.tan_phi = 0.5;
    j->scene.damping = 0.2;
    j->scene.track_energy = true;
    j->run.time = 0.7;
    j->run.vtk_frames = 20;
    j->control = control;
    job_add_group(j, "periodic", &periodic_table, &per);
    job_add_group(j, "material", &grit_frictmat_param_table, &mat);
}

static int build(job *j, grit_scene *s, char *err, size_t len)
{
    (void)j;
    ctl.phase = 0;
    const int m = grit_add_frictmat(s, &mat);
    if (m < 0) return snprintf(err, len, "%s", grit_last_error(s)), -1;
    uint64_t rng = (uint64_t)per.seed;
    double *r = malloc(sizeof *r * (size_t)per.n);
    if (!r) return snprintf(err, len, "out of memory for %d spheres", per.n), -1;
    double vol = 0;
    for (int i = 0; i < per.n; i++) {
        r[i] = per.radius * (1 + per.spread * (2 * uniform(&rng) - 1));
        vol += 4.0 / 3.0 * M_PI * r[i] * r[i] * r[i];
    }
    ctl.volume0 = vol;
    /* a cubic cell of solid fraction phi0, a lattice of k^3 >= n sites */
    int k = 1;
    while ((long)k * k * k < per.n) k++;
    const double edge = cbrt(vol / per.phi0), h = edge / k, rmax = per.radius * (1 + per.spread);
    if (h < 2.05 * rmax) {
        free(r);
        return snprintf(err, len,
                        "parameter 'phi0' = %g is too dense for %d spheres on a cubic lattice: the lattice step %g m "
                        "is below the largest diameter %g m (phi0 at most about %.3g)",
                        per.phi0, per.n, h, 2 * rmax, per.phi0 * pow(h / (2.05 * rmax), 3)),
               -1;
    }
    grit_sphere_def d = grit_default_sphere_def();
    d.material = m;
    const double f = h / 2 - 1.01 * rmax; /* jitter: never touching a neighbour */
    for (int i = 0; i < per.n; i++) {
        const int ix = i % k, iy = (i / k) % k, iz = i / (k * k);
        d.radius = r[i];
        /* one draw per statement, z first (the order GCC evaluated them in as
         * a call's arguments, whose order is unspecified: Clang drew x first
         * and made another gas) */
        const double jz = f * (2 * uniform(&rng) - 1), jy = f * (2 * uniform(&rng) - 1), jx = f * (2 * uniform(&rng) - 1);
        d.pos = v3((ix + 0.5) * h + jx, (iy + 0.5) * h + jy, (iz + 0.5) * h + jz);
        if (grit_add_sphere(s, &d) < 0) {
            free(r);
            return snprintf(err, len, "%s", grit_last_error(s)), -1;
        }
    }
    free(r);
    const double H[3][3] = {{edge, 0, 0}, {0, edge, 0}, {0, 0, edge}};
    if (grit_cell_set(s, H)) return snprintf(err, len, "%s", grit_last_error(s)), -1;
    return set_ctrl(s, 0, err, len);
}

const preproc preproc_periodic = {
    "periodic",
    "spheres in a periodic cell, compressed to a pressure, then sheared by a velocity gradient; stress.csv",
    init,
    build,
    NULL,
    NULL,
    NULL,
    NULL,
};
