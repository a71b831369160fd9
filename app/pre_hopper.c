/* grit run hopper: capsules, ellipsoids and spheres poured into a hopper
 * read from an STL file, flowing out of its outlet onto a wall.
 *
 * The hopper (hopper.stl of grit's data folder, examples/data/ in the source
 * tree, share/grit/data/ installed; written by tools/make_hopper_stl.py:
 * a round funnel with a vertical collar, in mm) is loaded as two-sided
 * facets and placed with its outlet `outlet_z` above the floor z = 0. The
 * particles start on a jittered lattice inside the collar (no overlaps,
 * random orientations, deterministic for a seed), the kinds mixed in random
 * order. With damping=0 and tan_phi=0 the energy balance closes (see
 * docs/shapes.md for the time step this needs). */
#include <stdint.h>
#include <stdio.h>

#include <limits.h>

#include "cli.h"
#include "grit/shapes.h"
#include "grit/stl.h"
#include "paths.h"

/* clang-format off */
#define HOPPER_PARAMS(X) \
    X(int, capsules, 100, "-", 0, 1e7, 0, NULL, "number of capsules") \
    X(int, ellipsoids, 100, "-", 0, 1e7, 0, NULL, "number of ellipsoids") \
    X(int, spheres, 50, "-", 0, 1e7, 0, NULL, "number of spheres") \
    X(double, radius, 0.003, "m", 0.0, INFINITY, GRIT_P_MIN_EXCL, NULL, \
      "mean sphere and capsule radius, smallest semi-axis of the ellipsoids") \
    X(double, aspect, 2.0, "-", 1.0, 10.0, 0, NULL, \
      "length / width of capsules (shaft = 2 radius (aspect - 1)) and ellipsoids " \
      "(semi-axes aspect, (1 + aspect) / 2, 1 x radius)") \
    X(double, spread, 0.1, "-", 0.0, 0.5, 0, NULL, \
      "sizes uniform in size*(1-spread) .. size*(1+spread)") \
    X(double, stl_scale, 1e-3, "m", 0.0, INFINITY, GRIT_P_MIN_EXCL, NULL, \
      "length of one STL file unit (1e-3: the file is in mm)") \
    X(double, half_thick, 0.001, "m", 0.0, INFINITY, 0, NULL, "half-thickness of the hopper's facets") \
    X(double, outlet_z, 0.08, "m", 0.0, INFINITY, GRIT_P_MIN_EXCL, NULL, \
      "height of the hopper's lowest point above the floor z = 0") \
    X(int, seed, 1, "-", 0, 2147483647, 0, NULL, "random seed of sizes, kinds, orientations and the lattice jitter")
/* clang-format on */

typedef struct hopper_def {
    HOPPER_PARAMS(GRIT_PARAM_FIELD)
} hopper_def;

#define HOPPER_INFO(...) GRIT_PARAM_INFO(hopper_def, __VA_ARGS__)
static const grit_param_info hopper_params[] = {HOPPER_PARAMS(HOPPER_INFO)};
static const grit_param_table hopper_table = {"hopper", hopper_params,
                                              (int)(sizeof hopper_params / sizeof hopper_params[0])};

static hopper_def hop;
static grit_frictmat_def mat;
static text_param stl = {"stl", NULL,
                         "STL file of the hopper (ASCII or binary), axis along z, open at the top; default: "
                         "hopper.stl of grit's data folder (share/grit/data installed, examples/data in the source tree)",
                         NULL};
static char stl_default[PATH_MAX], stl_looked[2 * PATH_MAX];

static void init(job *j)
{
    hop = (hopper_def){HOPPER_PARAMS(GRIT_PARAM_DEFAULT)};
    /* the default file, resolved now: help shows it, grit-run.txt records it */
    stl.value = paths_data_file("hopper.stl", stl_default, sizeof stl_default, stl_looked, sizeof stl_looked)
                    ? stl_default
                    : NULL;
    mat = grit_default_frictmat_def();
    mat.density = 2600;
    mat.young = 5e6;
    mat.tan_phi = 0.5;
    j->scene.gravity = v3(0, 0, -9.81);
    j->scene.damping = 0.2;
    j->scene.track_energy = true;
    j->run.time = 0.8;
    job_add_group(j, "hopper", &hopper_table, &hop);
    job_add_text(j, "hopper", &stl);
    job_add_group(j, "material", &grit_frictmat_param_table, &mat);
}

/* A rotation uniformly distributed over SO(3) (Shoemake's subgroup
 * algorithm): every orientation equally likely. */
static grit_quat random_rotation(uint64_t *rng)
{
    const double u1 = cli_uniform(rng), u2 = 2 * M_PI * cli_uniform(rng), u3 = 2 * M_PI * cli_uniform(rng);
    const double a = sqrt(1 - u1), b = sqrt(u1);
    return (grit_quat){a * sin(u2), a * cos(u2), b * sin(u3), b * cos(u3)};
}

/* Inner radius of the hopper's vertical collar and the height of its
 * bottom: where the facets' bounding box is widest. */
static void collar(grit_scene *s, const grit_stl_info *info, double *R, double *z_lo, double *z_hi)
{
    double rmax = 0, zlo = INFINITY, zhi = -INFINITY;
    for (int id = info->first_id; id < info->first_id + info->n_facets; id++) {
        grit_vec3 v[3];
        double h;
        grit_get_facet(s, id, v, &h);
        for (int k = 0; k < 3; k++) {
            rmax = fmax(rmax, hypot(v[k].x, v[k].y));
            zhi = fmax(zhi, v[k].z);
        }
    }
    /* the collar starts where the widest vertices are lowest */
    for (int id = info->first_id; id < info->first_id + info->n_facets; id++) {
        grit_vec3 v[3];
        double h;
        grit_get_facet(s, id, v, &h);
        for (int k = 0; k < 3; k++)
            if (hypot(v[k].x, v[k].y) > 0.999 * rmax) zlo = fmin(zlo, v[k].z);
    }
    *R = rmax;
    *z_lo = zlo;
    *z_hi = zhi;
}

static int build(job *j, grit_scene *s, char *err, size_t len)
{
    (void)j;
    const int m = grit_add_frictmat(s, &mat);
    if (m < 0) return snprintf(err, len, "%s", grit_last_error(s)), -1;
    if (hop.capsules + hop.ellipsoids + hop.spheres < 1)
        return snprintf(err, len, "parameters 'capsules', 'ellipsoids', 'spheres' are all 0: nothing to pour"), -1;

    /* the hopper: its lowest vertex goes to outlet_z, its axis stays z */
    grit_stl_def sd = grit_default_stl_def();
    sd.material = m;
    sd.scale = hop.stl_scale;
    sd.half_thick = hop.half_thick;
    grit_stl_info info;
    if (!stl.value)
        return snprintf(err, len, "grit's data file hopper.stl (the default stl=) was not found (looked in %s); "
                        "give stl=FILE or set GRIT_DATA_DIR",
                        stl_looked),
               -1;
    if (grit_load_stl(s, stl.value, &sd, &info) < 0) return snprintf(err, len, "%s", grit_last_error(s)), -1;
    if (info.n_facets == 0) return snprintf(err, len, "parameter 'stl' = '%s': the file holds no triangle", stl.value), -1;
    double zmin = INFINITY;
    for (int id = info.first_id; id < info.first_id + info.n_facets; id++) {
        grit_vec3 v[3];
        double h;
        grit_get_facet(s, id, v, &h);
        for (int k = 0; k < 3; k++) zmin = fmin(zmin, v[k].z);
    }
    for (int id = info.first_id; id < info.first_id + info.n_facets; id++) {
        grit_vec3 x;
        grit_get_pos(s, id, &x);
        if (grit_set_pos(s, id, v3(x.x, x.y, x.z + hop.outlet_z - zmin)) < 0)
            return snprintf(err, len, "%s", grit_last_error(s)), -1;
    }
    double R, z_lo, z_hi;
    collar(s, &info, &R, &z_lo, &z_hi);

    grit_wall_def w = grit_default_wall_def();
    w.axis = 2;
    w.coord = 0;
    w.sense = 1;
    w.material = m;
    if (grit_add_wall(s, &w) < 0) return snprintf(err, len, "%s", grit_last_error(s)), -1;

    /* lattice cells a little larger than the largest particle's reach */
    const double r = hop.radius, sp = hop.spread, A = hop.aspect;
    const double reach = r * (1 + sp) * A, h = 2.2 * reach;
    const double inner = R - hop.half_thick - 1.1 * reach; /* centres within this radius */
    const int nx = (int)floor(2 * inner / h);
    int cells[4096][2], per_layer = 0;
    for (int ix = 0; ix < nx; ix++)
        for (int iy = 0; iy < nx && per_layer < 4096; iy++) {
            const double x = (ix + 0.5) * h - 0.5 * nx * h, y = (iy + 0.5) * h - 0.5 * nx * h;
            if (hypot(x, y) + 0.5 * h * M_SQRT2 - 0.5 * h <= inner) cells[per_layer][0] = ix, cells[per_layer++][1] = iy;
        }
    if (per_layer < 1) {
        snprintf(err, len, "parameters 'radius' = %g m, 'aspect' = %g: the particles (reach %g m) do not fit in the "
                 "hopper's collar of radius %g m", r, A, reach, R);
        return -1;
    }
    uint64_t rng = (uint64_t)hop.seed;
    int left[3] = {hop.capsules, hop.ellipsoids, hop.spheres};
    const int n = left[0] + left[1] + left[2];
    for (int i = 0; i < n; i++) {
        const int layer = i / per_layer, c = i % per_layer;
        const double f = 0.5 * h - reach; /* jitter that keeps neighbours apart */
        /* one draw per statement, z first (the order GCC evaluated them in as
         * a call's arguments, whose order is unspecified: Clang drew x first
         * and made another pour) */
        const double jz = f * (2 * cli_uniform(&rng) - 1), jy = f * (2 * cli_uniform(&rng) - 1),
                     jx = f * (2 * cli_uniform(&rng) - 1);
        grit_vec3 p = v3((cells[c][0] + 0.5) * h - 0.5 * nx * h + jx, (cells[c][1] + 0.5) * h - 0.5 * nx * h + jy,
                         z_lo + hop.outlet_z - zmin + (layer + 0.5) * h + jz);
        /* the kind: drawn in proportion to what is left, so that the kinds mix */
        double pick = cli_uniform(&rng) * (left[0] + left[1] + left[2]);
        int kind = pick < left[0] ? 0 : (pick < left[0] + left[1] ? 1 : 2);
        left[kind]--;
        const double size = r * (1 + sp * (2 * cli_uniform(&rng) - 1));
        const grit_quat q = random_rotation(&rng);
        int rc;
        if (kind == 0) {
            grit_capsule_def d = grit_default_capsule_def();
            d.pos = p;
            d.ori = q;
            d.radius = size;
            d.shaft = 2 * size * (A - 1);
            d.material = m;
            rc = grit_add_capsule(s, &d);
        } else if (kind == 1) {
            grit_ellipsoid_def d = grit_default_ellipsoid_def();
            d.pos = p;
            d.ori = q;
            d.semi_axes = v3(A * size, 0.5 * (1 + A) * size, size);
            d.material = m;
            rc = grit_add_ellipsoid(s, &d);
        } else {
            grit_sphere_def d = grit_default_sphere_def();
            d.pos = p;
            d.radius = size;
            d.material = m;
            rc = grit_add_sphere(s, &d);
        }
        if (rc < 0) return snprintf(err, len, "%s", grit_last_error(s)), -1;
    }
    (void)z_hi;
    return 0;
}

const preproc preproc_hopper = {
    "hopper",
    "capsules, ellipsoids and spheres poured into an STL hopper onto a wall",
    init,
    build,
    NULL,
    NULL,
    NULL,
    NULL,
};
