/* grit run deposit: spheres fall into a box and settle.
 *
 * The spheres start on a jittered lattice above the floor (no overlaps,
 * deterministic for a seed), inside a container of walls (infinite planes)
 * or of facets (triangles, open top), or an inlet pours them in from the
 * top (fill=inlet). Cundall damping and friction take the
 * energy out; the defaults settle a 2000-sphere bed in well under a minute
 * on one core. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>

#include "cli.h"

/* clang-format off */
#define DEPOSIT_PARAMS(X) \
    X(int, n, 2000, "-", 1, 1e7, 0, NULL, "number of spheres") \
    X(double, radius, 0.002, "m", 0.0, INFINITY, GRIT_P_MIN_EXCL, NULL, "mean sphere radius") \
    X(double, spread, 0.1, "-", 0.0, 0.5, 0, NULL, \
      "radii uniform in radius*(1-spread) .. radius*(1+spread)") \
    X(choice, container, 0, "-", 0, 1, 0, "walls|facets", \
      "box of 5 walls (infinite planes) or of 10 facets (triangles), open at the top") \
    X(double, box_x, 0.05, "m", 0.0, INFINITY, GRIT_P_MIN_EXCL, NULL, "inner size of the box along x") \
    X(double, box_y, 0.05, "m", 0.0, INFINITY, GRIT_P_MIN_EXCL, NULL, "inner size of the box along y") \
    X(int, seed, 1, "-", 0, 2147483647, 0, NULL, "random seed of the radii and the lattice jitter") \
    X(choice, fill, 0, "-", 0, 1, 0, "lattice|inlet", \
      "lattice: every sphere placed at the start; inlet: poured in by an inlet at the top of the box (docs/inlets.md) " \
      "until the mass of n spheres of the mean size is in") \
    X(double, rate, 0.5, "kg/s", 0.0, INFINITY, GRIT_P_MIN_EXCL, NULL, "fill=inlet: the inlet's mass rate")
/* clang-format on */

typedef struct deposit_def {
    DEPOSIT_PARAMS(GRIT_PARAM_FIELD)
} deposit_def;

#define DEPOSIT_INFO(...) GRIT_PARAM_INFO(deposit_def, __VA_ARGS__)
static const grit_param_info deposit_params[] = {DEPOSIT_PARAMS(DEPOSIT_INFO)};
static const grit_param_table deposit_table = {"deposit", deposit_params,
                                               (int)(sizeof deposit_params / sizeof deposit_params[0])};

static deposit_def dep;
static grit_frictmat_def mat;

static void init(job *j)
{
    dep = (deposit_def){DEPOSIT_PARAMS(GRIT_PARAM_DEFAULT)};
    mat = grit_default_frictmat_def();
    mat.density = 2600;
    mat.young = 5e6;
    mat.tan_phi = 0.5;
    j->scene.gravity = v3(0, 0, -9.81);
    j->scene.damping = 0.2;
    j->scene.track_energy = true;
    j->run.time = 0.6;
    job_add_group(j, "deposit", &deposit_table, &dep);
    job_add_group(j, "material", &grit_frictmat_param_table, &mat);
}

/* Floor and four sides of height H, two triangles each. */
static int add_facets(grit_scene *s, int m, double H, char *err, size_t len)
{
    const double X = dep.box_x, Y = dep.box_y;
    const grit_vec3 c[8] = {v3(0, 0, 0), v3(X, 0, 0), v3(X, Y, 0), v3(0, Y, 0),
                            v3(0, 0, H), v3(X, 0, H), v3(X, Y, H), v3(0, Y, H)};
    static const int quads[5][4] = {{0, 1, 2, 3}, {0, 1, 5, 4}, {1, 2, 6, 5}, {2, 3, 7, 6}, {3, 0, 4, 7}};
    for (int q = 0; q < 5; q++)
        for (int t = 0; t < 2; t++) {
            grit_facet_def d = grit_default_facet_def();
            d.v[0] = c[quads[q][0]];
            d.v[1] = c[quads[q][1 + t]];
            d.v[2] = c[quads[q][2 + t]];
            d.material = m;
            if (grit_add_facet(s, &d) < 0) return snprintf(err, len, "%s", grit_last_error(s)), -1;
        }
    return 0;
}

static int build(job *j, grit_scene *s, char *err, size_t len)
{
    (void)j;
    const int m = grit_add_frictmat(s, &mat);
    if (m < 0) return snprintf(err, len, "%s", grit_last_error(s)), -1;
    /* lattice cells a little larger than the largest sphere */
    const double rmax = dep.radius * (1 + dep.spread), h = 2.2 * rmax;
    /* cells per axis as doubles: a large box has more than INT_MAX of them
     * (the product overflowed and made the facet walls 0.13 mm tall); cells
     * beyond n along one axis are never filled, so the counts are clamped to n */
    const double cx = floor(dep.box_x / h), cy = floor(dep.box_y / h);
    if (!(cx >= 1 && cy >= 1)) {
        snprintf(err, len, "parameters 'box_x' = %g m, 'box_y' = %g m: the box must be wider than a lattice cell "
                 "(2.2 x the largest diameter / 2 = %g m)", dep.box_x, dep.box_y, h);
        return -1;
    }
    const long long nx = (long long)fmin(cx, dep.n), ny = (long long)fmin(cy, dep.n);
    const long long layers = (dep.n + nx * ny - 1) / (nx * ny);
    const double top = ((double)layers + 0.5) * h;
    if (dep.container == 0 ? add_open_box(s, m, dep.box_x, dep.box_y, err, len)
                           : add_facets(s, m, 1.1 * top, err, len))
        return -1;
    if (dep.fill == 1) { /* an inlet over the box, as tall as four lattice layers, below the top */
        const double a = dep.radius * (1 - dep.spread), b = rmax;
        const double r3 = b > a ? (b * b * b * b - a * a * a * a) / (4 * (b - a)) : a * a * a; /* mean r^3 */
        grit_inlet_def in = grit_default_inlet_def();
        in.region = GRIT_REGION_BOX;
        in.lo = v3(0, 0, fmax(h, top - 4 * h));
        in.hi = v3(dep.box_x, dep.box_y, top + h);
        in.mass_rate = dep.rate;
        in.max_mass = dep.n * 4.0 / 3.0 * M_PI * r3 * mat.density;
        in.r_min = a;
        in.r_max = b;
        in.material = m;
        in.seed = (uint64_t)dep.seed;
        if (grit_add_inlet(s, &in) < 0) return snprintf(err, len, "%s", grit_last_error(s)), -1;
        /* no particle yet to choose the time step from: the p-wave estimate
         * of the smallest sphere the inlet makes (unless dt is given) */
        grit_scene_def sd = *grit_scene_get_def(s);
        if (isnan(sd.dt)) {
            sd.dt = sd.dt_safety * a * sqrt(mat.density / mat.young);
            if (grit_scene_set_def(s, &sd)) return snprintf(err, len, "%s", grit_last_error(s)), -1;
        }
        return 0;
    }
    uint64_t rng = (uint64_t)dep.seed;
    const double dx = dep.box_x / cx, dy = dep.box_y / cy;
    grit_sphere_def d = grit_default_sphere_def();
    d.material = m;
    for (int i = 0; i < dep.n; i++) {
        const long long ix = i % nx, iy = (i / nx) % ny, iz = i / (nx * ny);
        d.radius = dep.radius * (1 + dep.spread * (2 * cli_uniform(&rng) - 1));
        /* jitter within the cell, never touching a neighbour or a wall */
        const double fx = dx / 2 - rmax, fy = dy / 2 - rmax, fz = h / 2 - rmax;
        /* one draw per statement, z first (the order GCC evaluated them in as
         * a call's arguments, whose order is unspecified: Clang drew x first
         * and made another bed) */
        const double jz = fz * (2 * cli_uniform(&rng) - 1), jy = fy * (2 * cli_uniform(&rng) - 1),
                     jx = fx * (2 * cli_uniform(&rng) - 1);
        d.pos = v3(((double)ix + 0.5) * dx + jx, ((double)iy + 0.5) * dy + jy, ((double)iz + 1.0) * h + jz);
        if (grit_add_sphere(s, &d) < 0) return snprintf(err, len, "%s", grit_last_error(s)), -1;
    }
    return 0;
}

const preproc preproc_deposit = {
    "deposit",
    "spheres fall into a box of walls or facets and settle under gravity",
    init,
    build,
    NULL,
    NULL,
    NULL,
    NULL,
};
