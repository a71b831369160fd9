/* grit run silo: a square flat-bottomed silo filled by an inlet, then
 * discharged through a round orifice in its floor (docs/silo.md).
 *
 * The silo (side `width`, facets: four sides and a floor with a round hole
 * of diameter `orifice` at its centre) is filled by an inlet at the top
 * while a plug (two facets) closes the hole; once the poured mass is in and
 * the bed has settled for `settle` seconds, the plug drops away and the
 * spheres flow out. An outlet under the floor deletes them; `grit run`
 * writes the discharged mass against time (discharge.csv) and its steady
 * rate, which the summary sets beside Beverloo's correlation
 *   W = C rho_b sqrt(g) (D - k d)^(5/2)
 * with the bulk density rho_b of the settled bed measured when the plug
 * drops. No Cundall damping (it would slow the free fall through the
 * orifice): the contacts dissipate, by the linear law's normal dashpot set
 * for the restitution `restitution`, or by the Hertz law's.
 *
 * A flow rebuilds its pair list often: the Verlet distance defaults to 0.3
 * of the smallest radius (the scenes' -0.05 rebuilt every 4.6 steps here
 * and took 2.4x the time of the contacts). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "cli.h"

/* clang-format off */
#define SILO_PARAMS(X) \
    X(double, width, 0.05, "m", 0.0, INFINITY, GRIT_P_MIN_EXCL, NULL, "inner side of the square silo") \
    X(double, orifice, 0.02, "m", 0.0, INFINITY, GRIT_P_MIN_EXCL, NULL, \
      "diameter of the round orifice at the centre of the floor") \
    X(double, fill_height, 0.05, "m", 0.0, INFINITY, GRIT_P_MIN_EXCL, NULL, \
      "the inlet pours the mass of this height of bed (0.6 solid fraction) over the silo's floor") \
    X(double, radius, 0.002, "m", 0.0, INFINITY, GRIT_P_MIN_EXCL, NULL, "mean sphere radius") \
    X(double, spread, 0.1, "-", 0.0, 0.5, 0, NULL, "radii uniform in radius*(1-spread) .. radius*(1+spread)") \
    X(double, rate, 2.0, "kg/s", 0.0, INFINITY, GRIT_P_MIN_EXCL, NULL, "the inlet's mass rate") \
    X(double, settle, 0.1, "s", 0.0, INFINITY, 0, NULL, "time between the end of the filling and the opening") \
    X(choice, law, 1, "-", 0, 1, 0, "linear|hertz", \
      "hertz: HertzMat (Hertz-Mindlin, the restitution's dashpot); linear: FrictMat (IdealElPl) with a normal " \
      "dashpot for the restitution") \
    X(double, young, 5e6, "Pa", 0.0, INFINITY, GRIT_P_MIN_EXCL, NULL, "Young's modulus of the spheres and the silo") \
    X(double, density, 2600, "kg/m^3", 0.0, INFINITY, GRIT_P_MIN_EXCL, NULL, "density of the spheres") \
    X(double, tan_phi, 0.5, "-", 0.0, INFINITY, 0, NULL, "friction coefficient (spheres and walls)") \
    X(double, restitution, 0.5, "-", 0.0, 1.0, GRIT_P_MIN_EXCL, NULL, "coefficient of normal restitution") \
    X(int, seed, 1, "-", 0, 2147483647, 0, NULL, "the inlet's random seed") \
    X(double, beverloo_c, 0.58, "-", 0.0, INFINITY, GRIT_P_MIN_EXCL, NULL, \
      "Beverloo's C for the comparison in the summary") \
    X(double, beverloo_k, 1.5, "-", 0.0, INFINITY, 0, NULL, "Beverloo's k for the comparison in the summary")
/* clang-format on */

typedef struct silo_def {
    SILO_PARAMS(GRIT_PARAM_FIELD)
} silo_def;

#define SILO_INFO(...) GRIT_PARAM_INFO(silo_def, __VA_ARGS__)
static const grit_param_info silo_params[] = {SILO_PARAMS(SILO_INFO)};
static const grit_param_table silo_table = {"silo", silo_params, (int)(sizeof silo_params / sizeof silo_params[0])};

static silo_def silo;
static int plug[2] = {-1, -1};      /* the plug's facets */
static double t_open, h_wall;       /* when the plug drops; height of the sides */
static double bulk_density = NAN;   /* of the settled bed, measured at the opening */
static double bed_height = NAN;

static int control(job *j, grit_scene *s, long *next, char *err, size_t len);

static void init(job *j)
{
    silo = (silo_def){SILO_PARAMS(GRIT_PARAM_DEFAULT)};
    j->scene.gravity = v3(0, 0, -9.81);
    j->scene.damping = 0;
    j->scene.track_energy = true;
    j->run.time = 0.6;
    j->scene.verlet_dist = -0.3;
    j->control = control;
    job_add_group(j, "silo", &silo_table, &silo);
}

static int fail_scene(grit_scene *s, char *err, size_t len) { return snprintf(err, len, "%s", grit_last_error(s)), -1; }

static int facet(grit_scene *s, int m, grit_vec3 a, grit_vec3 b, grit_vec3 c)
{
    grit_facet_def d = grit_default_facet_def();
    d.v[0] = a;
    d.v[1] = b;
    d.v[2] = c;
    d.material = m;
    return grit_add_facet(s, &d);
}

/* The point where the ray from the centre at angle phi leaves the square. */
static grit_vec3 on_square(double W, double phi)
{
    const double c = cos(phi), s = sin(phi), t = 0.5 * W / fmax(fabs(c), fabs(s));
    return v3(0.5 * W + t * c, 0.5 * W + t * s, 0);
}

/* Four sides and the floor with its round hole (segments every 360/HOLE_N
 * degrees, the square's corners among the rays), all facing inwards. */
enum { HOLE_N = 48 };
static int add_silo(grit_scene *s, int m, double W, double H, double D)
{
    const grit_vec3 c[8] = {v3(0, 0, 0), v3(W, 0, 0), v3(W, W, 0), v3(0, W, 0),
                            v3(0, 0, H), v3(W, 0, H), v3(W, W, H), v3(0, W, H)};
    static const int sides[4][4] = {{0, 1, 5, 4}, {1, 2, 6, 5}, {2, 3, 7, 6}, {3, 0, 4, 7}};
    for (int q = 0; q < 4; q++)
        if (facet(s, m, c[sides[q][0]], c[sides[q][1]], c[sides[q][2]]) < 0 ||
            facet(s, m, c[sides[q][0]], c[sides[q][2]], c[sides[q][3]]) < 0)
            return -1;
    for (int k = 0; k < HOLE_N; k++) {
        const double p0 = 2 * M_PI * k / HOLE_N, p1 = 2 * M_PI * (k + 1) / HOLE_N;
        const grit_vec3 h0 = v3(0.5 * W + 0.5 * D * cos(p0), 0.5 * W + 0.5 * D * sin(p0), 0);
        const grit_vec3 h1 = v3(0.5 * W + 0.5 * D * cos(p1), 0.5 * W + 0.5 * D * sin(p1), 0);
        if (facet(s, m, h0, on_square(W, p0), on_square(W, p1)) < 0 || facet(s, m, h0, on_square(W, p1), h1) < 0)
            return -1;
    }
    return 0;
}

static int build(job *j, grit_scene *s, char *err, size_t len)
{
    const double W = silo.width, D = silo.orifice, a = silo.radius * (1 - silo.spread),
                 b = silo.radius * (1 + silo.spread);
    if (!(D + 4 * b < W))
        return snprintf(err, len, "parameters 'orifice' = %g m, 'width' = %g m: the orifice must be narrower than the "
                        "silo by two sphere diameters", D, W), -1;
    if (!(D > 2 * b))
        return snprintf(err, len, "parameter 'orifice' = %g m: the orifice must be wider than the largest sphere "
                        "(diameter %g m)", D, 2 * b), -1;
    int m;
    if (silo.law == 0) {
        grit_frictmat_def f = grit_default_frictmat_def();
        f.density = silo.density;
        f.young = silo.young;
        f.tan_phi = silo.tan_phi;
        f.kt_div_kn = 0.5;
        m = grit_add_frictmat(s, &f);
        if (m < 0) return fail_scene(s, err, len);
        /* the dashpot that gives the restitution to two spheres of the mean
         * size: kn = E pi r / 2 (FrictPhys), reduced mass m / 2 */
        const double r = silo.radius, kn = silo.young * M_PI * r / 2;
        const double mr = 0.5 * silo.density * 4.0 / 3.0 * M_PI * r * r * r, le = log(silo.restitution);
        grit_pair_def p = grit_default_pair_def();
        p.cn = 2 * -le / sqrt(M_PI * M_PI + le * le) * sqrt(kn * mr);
        if (grit_set_pair(s, m, m, &p) < 0) return fail_scene(s, err, len);
    } else {
        grit_hertzmat_def h = grit_default_hertzmat_def();
        h.density = silo.density;
        h.young = silo.young;
        h.tan_phi = silo.tan_phi;
        h.restitution = silo.restitution;
        m = grit_add_hertzmat(s, &h);
        if (m < 0) return fail_scene(s, err, len);
    }
    /* the inlet's box: four layers of the largest spheres above the fill */
    const double mass = 0.6 * silo.density * W * W * silo.fill_height, top = silo.fill_height + 8.8 * b;
    h_wall = top + 2 * b;
    if (add_silo(s, m, W, h_wall, D)) return fail_scene(s, err, len);
    const double P = fmin(D + 4 * b, W) / 2; /* the plug: a square over the hole, on the floor */
    const grit_vec3 o = v3(0.5 * W, 0.5 * W, 0);
    plug[0] = facet(s, m, v3(o.x - P, o.y - P, 0), v3(o.x + P, o.y - P, 0), v3(o.x + P, o.y + P, 0));
    plug[1] = facet(s, m, v3(o.x - P, o.y - P, 0), v3(o.x + P, o.y + P, 0), v3(o.x - P, o.y + P, 0));
    if (plug[0] < 0 || plug[1] < 0) return fail_scene(s, err, len);
    grit_inlet_def in = grit_default_inlet_def();
    in.region = GRIT_REGION_BOX;
    in.lo = v3(0, 0, silo.fill_height);
    in.hi = v3(W, W, top);
    in.mass_rate = silo.rate;
    in.max_mass = mass;
    in.r_min = a;
    in.r_max = b;
    in.material = m;
    in.vel = v3(0, 0, -0.5);
    in.seed = (uint64_t)silo.seed;
    if (grit_add_inlet(s, &in) < 0) return fail_scene(s, err, len);
    /* under the floor: what falls through the orifice leaves */
    grit_outlet_def out = grit_default_outlet_def();
    out.lo = v3(-W, -W, -1.0);
    out.hi = v3(2 * W, 2 * W, -2 * b);
    if (grit_add_outlet(s, &out) < 0) return fail_scene(s, err, len);
    t_open = mass / silo.rate + silo.settle;
    if (!(j->run.steps > 0) && !(j->run.time > t_open))
        return snprintf(err, len, "parameter 'time' = %g s: the run ends before the orifice opens at %g s (filling "
                        "%g kg at %g kg/s, then 'settle' = %g s)", j->run.time, t_open, mass, silo.rate, silo.settle),
               -1;
    /* No particle yet to choose the time step from. Hertz: the p-wave
     * estimate of the smallest sphere (under the Rayleigh estimate; its
     * contacts are softer at the overlaps of a silo). Linear: a fifteenth of
     * the collision time of two of the smallest spheres, pi sqrt(m/(2 kn)):
     * the p-wave step resolves a dashpot collision in 4.5 steps, and the
     * energy balance missed 2.2 % of the energy (0.29 % at a fifteenth, the
     * Hertz law's 0.24 %). */
    grit_scene_def sd = *grit_scene_get_def(s);
    if (isnan(sd.dt)) {
        if (silo.law == 0) {
            const double ma = silo.density * 4.0 / 3.0 * M_PI * a * a * a, kn = silo.young * M_PI * a / 2;
            sd.dt = M_PI * sqrt(0.5 * ma / kn) / 15;
        } else {
            sd.dt = sd.dt_safety * a * sqrt(silo.density / silo.young);
        }
        if (grit_scene_set_def(s, &sd)) return fail_scene(s, err, len);
    }
    return 0;
}

static int cmp_double(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The plug drops at t_open: first the bulk density of the bed, the mass of
 * the spheres whose centres lie in the middle 20-80 % of its height over
 * the whole section. The bed's top is the 98th percentile of the centres'
 * heights: a few spheres of the last poured ones may still be falling. */
static int control(job *j, grit_scene *s, long *next, char *err, size_t len)
{
    (void)j;
    const double dt = grit_dt(s);
    const long open = (long)ceil(t_open / dt - 1e-9);
    if (grit_step_count(s) < open) {
        *next = open;
        return 0;
    }
    const int n = grit_particle_id_end(s);
    double *z = malloc(sizeof *z * (size_t)(n > 0 ? n : 1)), m = 0, top = 0;
    if (!z) return snprintf(err, len, "out of memory measuring the bed"), -1;
    int k = 0;
    for (int id = 0; id < n; id++)
        if (grit_get_shape(s, id) == GRIT_SHAPE_SPHERE) {
            grit_vec3 x;
            grit_get_pos(s, id, &x);
            z[k++] = x.z;
        }
    if (k > 0) {
        qsort(z, (size_t)k, sizeof *z, cmp_double);
        top = z[(int)(0.98 * (k - 1))] + silo.radius;
    }
    free(z);
    for (int id = 0; id < n; id++)
        if (grit_get_shape(s, id) == GRIT_SHAPE_SPHERE) {
            grit_vec3 x;
            double mass;
            grit_get_pos(s, id, &x);
            grit_get_mass(s, id, &mass, NULL);
            if (x.z >= 0.2 * top && x.z < 0.8 * top) m += mass;
        }
    bed_height = top;
    bulk_density = m / (0.6 * top * silo.width * silo.width);
    for (int q = 0; q < 2; q++) {
        grit_vec3 x;
        grit_get_pos(s, plug[q], &x);
        if (grit_set_pos(s, plug[q], v3(x.x, x.y, x.z - 2.0))) return snprintf(err, len, "%s", grit_last_error(s)), -1;
    }
    printf("grit run silo: the orifice opens at t = %.4g s (step %ld): bed height %.4g m, bulk density %.4g kg/m^3\n",
           grit_time(s), grit_step_count(s), bed_height, bulk_density);
    *next = -1;
    return 0;
}

/* Beverloo's rate beside the measured one. */
static void report(const job *j, const grit_scene *s, double rate)
{
    (void)j;
    (void)s;
    const double d = 2 * silo.radius, D = silo.orifice;
    const double w = silo.beverloo_c * bulk_density * sqrt(9.81) * pow(fmax(D - silo.beverloo_k * d, 0.0), 2.5);
    printf("  silo          orifice D = %.4g m = %.3g d, bulk density %.4g kg/m^3 (bed %.4g m high)\n", D, D / d,
           bulk_density, bed_height);
    printf("  Beverloo      C = %g, k = %g: %.4g kg/s; measured %.4g kg/s, ratio %.3f\n", silo.beverloo_c,
           silo.beverloo_k, w, rate, rate / w);
}

const preproc preproc_silo = {
    "silo",
    "a square flat-bottomed silo filled by an inlet, discharged through an orifice; rate against Beverloo",
    init,
    build,
    NULL,
    NULL,
    NULL,
    report,
};
