/* grit run box: spheres in a box of five walls -- the benchmark scene box-N
 * (docs/performance.md).
 *
 * Walls at x = 0, x = box_x, y = 0, y = box_y and the floor z = 0, open at
 * the top. Linear spring-dashpot contacts with the same constants for
 * sphere-sphere and sphere-wall, set through a pair override of the one
 * material (kn, kt, friction, normal dashpot), no Cundall damping, a fixed
 * time step: the parameters of the benchmark by default.
 *
 * The spheres come from a CSV file (csv=, e.g. the final.csv of an earlier
 * run), or are made here: n spheres of radii uniform in radius (1 +- spread)
 * as a loose random cloud (random sequential addition, no overlaps, solid
 * fraction 0.3) in a square box whose side makes a settled bed (solid
 * fraction 0.6) about 20 mean diameters deep: the benchmark's loose initial
 * state, reproducible from the seed. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "grit/io.h"

/* clang-format off */
#define BOX_PARAMS(X) \
    X(double, density, 2600.0, "kg/m^3", 0.0, INFINITY, GRIT_P_MIN_EXCL, NULL, "density of the spheres") \
    X(double, kt_div_kn, 2.0 / 7.0, "-", 0.0, INFINITY, 0, NULL, "kt = kt_div_kn kn when kt is nan") \
    X(double, box_x, NAN, "m", 0.0, INFINITY, GRIT_P_MIN_EXCL | GRIT_P_NAN_OK, NULL, \
      "position of the wall x = box_x; nan: max(x + r) of the spheres") \
    X(double, box_y, NAN, "m", 0.0, INFINITY, GRIT_P_MIN_EXCL | GRIT_P_NAN_OK, NULL, \
      "position of the wall y = box_y; nan: max(y + r) of the spheres") \
    X(int, n, 2000, "-", 1, 1e7, 0, NULL, "without csv: the number of spheres of the generated cloud") \
    X(double, radius, 1e-3, "m", 0.0, INFINITY, GRIT_P_MIN_EXCL, NULL, "without csv: the mean sphere radius") \
    X(double, spread, 0.1, "-", 0.0, 0.5, 0, NULL, "without csv: radii uniform in radius*(1-spread) .. radius*(1+spread)") \
    X(int, seed, 1, "-", 0, 2147483647, 0, NULL, "without csv: random seed of the radii and of the cloud")
/* clang-format on */

typedef struct box_def {
    BOX_PARAMS(GRIT_PARAM_FIELD)
} box_def;

#define BOX_INFO(...) GRIT_PARAM_INFO(box_def, __VA_ARGS__)
static const grit_param_info box_params[] = {BOX_PARAMS(BOX_INFO)};
static const grit_param_table box_table = {"box", box_params, (int)(sizeof box_params / sizeof box_params[0])};

static box_def box;
static grit_pair_def pair;
static text_param csv = {"csv", NULL,
                         "CSV file of the spheres, header x,y,z,r (m); without it a loose cloud of n spheres is made",
                         NULL};

static void init(job *j)
{
    box = (box_def){BOX_PARAMS(GRIT_PARAM_DEFAULT)};
    pair = grit_default_pair_def();
    pair.kn = 1e4;
    pair.tan_phi = 0.5;
    pair.cn = 0.1;
    j->scene.gravity = v3(0, 0, -9.81);
    j->scene.dt = 2.5e-6;
    j->scene.track_energy = true;
    j->run.time = 2000 * 2.5e-6; /* the benchmark's dense phase */
    j->run.vtk_frames = 5;       /* beds of 1e5 spheres: keep the output small */
    job_add_group(j, "box", &box_table, &box);
    job_add_text(j, "box", &csv);
    job_add_group(j, "pair", &grit_pair_param_table, &pair);
}

int add_open_box(grit_scene *s, int mat, double x, double y, char *err, size_t len)
{
    const struct {
        int axis;
        double coord;
    } w[5] = {{2, 0.0}, {0, 0.0}, {0, x}, {1, 0.0}, {1, y}};
    for (int k = 0; k < 5; k++) {
        grit_wall_def d = grit_default_wall_def();
        d.axis = w[k].axis;
        d.coord = w[k].coord;
        d.material = mat;
        if (grit_add_wall(s, &d) < 0) return snprintf(err, len, "%s", grit_last_error(s)), -1;
    }
    return 0;
}

static int larger_first(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x < y) - (x > y);
}

/* The loose cloud: n spheres, largest first, each at uniformly random
 * places in [r, L - r]^2 x [r, H - r] until it overlaps nothing placed
 * before (a grid of cells one largest diameter wide finds the neighbours).
 * L gives a bed of solid fraction 0.6 twenty mean diameters deep; H a cloud
 * of solid fraction 0.3. */
static int make_cloud(grit_scene *s, int mat, double *side, char *err, size_t len)
{
    const int n = box.n;
    double *r = malloc(sizeof *r * (size_t)n), (*x)[3] = malloc(sizeof *x * (size_t)n);
    int *head = NULL, *next = malloc(sizeof *next * (size_t)n);
    int rc = -1;
    if (!r || !x || !next) {
        snprintf(err, len, "out of memory for a cloud of n = %d spheres", n);
        goto done;
    }
    uint64_t rng = (uint64_t)box.seed;
    double vol = 0, rmax = 0;
    for (int i = 0; i < n; i++) {
        r[i] = box.radius * (1 + box.spread * (2 * cli_uniform(&rng) - 1));
        vol += 4.0 / 3.0 * M_PI * r[i] * r[i] * r[i];
        rmax = fmax(rmax, r[i]);
    }
    const double depth = 40 * box.radius;
    const double L = ceil(sqrt(vol / (0.6 * depth)) / 1e-4) * 1e-4; /* to 0.1 mm, as the benchmark */
    const double H = vol / (0.3 * L * L);
    const double h = 2 * rmax;
    const long nx = (long)(L / h) + 1, nz = (long)(H / h) + 1;
    if (!(L > 2 * rmax) || nx * nx * nz > 100000000L) {
        snprintf(err, len, "parameters n = %d, radius = %g m: the cloud's box (side %g m, height %g m) is not one "
                 "that can be made", n, box.radius, L, H);
        goto done;
    }
    head = malloc(sizeof *head * (size_t)(nx * nx * nz));
    if (!head) {
        snprintf(err, len, "out of memory for the cloud's grid");
        goto done;
    }
    for (long c = 0; c < nx * nx * nz; c++) head[c] = -1;
    qsort(r, (size_t)n, sizeof *r, larger_first); /* the big ones placed while there is room */
    for (int i = 0; i < n; i++) {
        int tries = 0;
        for (;;) {
            if (++tries > 100000) {
                snprintf(err, len, "the cloud has no room for sphere %d of %d (radius %g m): lower n or spread", i,
                         n, r[i]);
                goto done;
            }
            double p[3] = {r[i] + (L - 2 * r[i]) * cli_uniform(&rng), r[i] + (L - 2 * r[i]) * cli_uniform(&rng),
                           r[i] + (H - 2 * r[i]) * cli_uniform(&rng)};
            long ci[3];
            for (int a = 0; a < 3; a++) ci[a] = (long)(p[a] / h);
            bool free_place = true;
            for (long dz = -1; dz <= 1 && free_place; dz++)
                for (long dy = -1; dy <= 1 && free_place; dy++)
                    for (long dx = -1; dx <= 1 && free_place; dx++) {
                        const long cx = ci[0] + dx, cy = ci[1] + dy, cz = ci[2] + dz;
                        if (cx < 0 || cy < 0 || cz < 0 || cx >= nx || cy >= nx || cz >= nz) continue;
                        for (int j = head[(cz * nx + cy) * nx + cx]; j >= 0 && free_place; j = next[j]) {
                            const double d[3] = {p[0] - x[j][0], p[1] - x[j][1], p[2] - x[j][2]};
                            free_place = d[0] * d[0] + d[1] * d[1] + d[2] * d[2] > (r[i] + r[j]) * (r[i] + r[j]);
                        }
                    }
            if (!free_place) continue;
            memcpy(x[i], p, sizeof p);
            const long c = (ci[2] * nx + ci[1]) * nx + ci[0];
            next[i] = head[c];
            head[c] = i;
            break;
        }
        grit_sphere_def d = grit_default_sphere_def();
        d.material = mat;
        d.radius = r[i];
        d.pos = v3(x[i][0], x[i][1], x[i][2]);
        if (grit_add_sphere(s, &d) < 0) {
            snprintf(err, len, "%s", grit_last_error(s));
            goto done;
        }
    }
    *side = L;
    rc = 0;
done:
    free(r);
    free(x);
    free(head);
    free(next);
    return rc;
}

/* Spheres of the CSV file that stick out of the box (0 <= x <= X,
 * 0 <= y <= Y, z >= 0) by more than 1 % of their radius, or lie outside
 * it: the walls push them out with a
 * deep overlap (which the blow-up check may stop) or leave them outside for
 * good, so say so, once, with the count and the first of them. A warning,
 * not an error: a packing cut around the origin (grit run pack) is a valid
 * input whose spheres outside simply rest there. */
static void warn_outside(grit_scene *s, int first, int n, double X, double Y)
{
    int bad = 0, first_bad = -1;
    grit_vec3 fp = v3_zero();
    double fr = 0;
    for (int k = 0; k < n; k++) {
        grit_vec3 p;
        double r;
        grit_get_pos(s, first + k, &p);
        grit_get_radius(s, first + k, &r);
        const double in = 0.99 * r; /* a settled bed presses into its walls by far less than 1 % of r */
        if (p.x >= in && p.x <= X - in && p.y >= in && p.y <= Y - in && p.z >= in) continue;
        if (bad++ == 0) first_bad = k, fp = p, fr = r;
    }
    if (bad)
        fprintf(stderr,
                "grit: warning: csv=%s: %d of %d spheres stick out of the box 0 <= x <= %.9g, 0 <= y <= %.9g, z >= 0 "
                "(the first: sphere %d of the file at (%.9g, %.9g, %.9g), r = %.9g); the walls will push them out "
                "or leave them outside: move the spheres (a packing cut around the origin needs a shift) or set "
                "box_x and box_y\n",
                csv.value, bad, n, X, Y, first_bad + 1, fp.x, fp.y, fp.z, fr);
}

static int build(job *j, grit_scene *s, char *err, size_t len)
{
    (void)j;
    grit_frictmat_def m = grit_default_frictmat_def();
    m.density = box.density;
    m.kt_div_kn = box.kt_div_kn;
    const int mat = grit_add_frictmat(s, &m);
    if (mat < 0 || grit_set_pair(s, mat, mat, &pair) < 0) return snprintf(err, len, "%s", grit_last_error(s)), -1;
    double X, Y;
    if (!csv.value) {
        double L;
        if (make_cloud(s, mat, &L, err, len)) return -1;
        X = isnan(box.box_x) ? L : box.box_x;
        Y = isnan(box.box_y) ? L : box.box_y;
    } else {
        int first, n;
        if (grit_io_load_spheres_csv(s, csv.value, mat, &first, &n) < 0)
            return snprintf(err, len, "%s", grit_last_error(s)), -1;
        /* the smallest box that holds the spheres, unless given */
        double xmax = -INFINITY, ymax = -INFINITY;
        for (int id = first; id < first + n; id++) {
            grit_vec3 p;
            double r;
            grit_get_pos(s, id, &p);
            grit_get_radius(s, id, &r);
            xmax = fmax(xmax, p.x + r);
            ymax = fmax(ymax, p.y + r);
        }
        X = isnan(box.box_x) ? xmax : box.box_x;
        Y = isnan(box.box_y) ? ymax : box.box_y;
        warn_outside(s, first, n, X, Y);
    }
    return add_open_box(s, mat, X, Y, err, len);
}

const preproc preproc_box = {
    "box",
    "spheres (a generated loose cloud, or a CSV file) settle in a box of 5 walls: the benchmark scene box-N "
    "(docs/performance.md)",
    init,
    build,
    NULL,
    NULL,
    NULL,
    NULL,
};
