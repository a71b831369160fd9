/* grit run box: spheres from a CSV file in a box of five walls -- the
 * benchmark scene box-N of ../shared/bench/SCENES.md.
 *
 * Walls at x = 0, x = box_x, y = 0, y = box_y and the floor z = 0, open at
 * the top. Linear spring-dashpot contacts with the same constants for
 * sphere-sphere and sphere-wall, set through a pair override of the one
 * material (kn, kt, friction, normal dashpot), no Cundall damping, a fixed
 * time step: the parameters of the benchmark by default. */
#include <stdio.h>

#include "cli.h"
#include "grit/io.h"

/* clang-format off */
#define BOX_PARAMS(X) \
    X(double, density, 2600.0, "kg/m^3", 0.0, INFINITY, GRIT_P_MIN_EXCL, NULL, "density of the spheres") \
    X(double, kt_div_kn, 2.0 / 7.0, "-", 0.0, INFINITY, 0, NULL, "kt = kt_div_kn kn when kt is nan") \
    X(double, box_x, NAN, "m", 0.0, INFINITY, GRIT_P_MIN_EXCL | GRIT_P_NAN_OK, NULL, \
      "position of the wall x = box_x; nan: max(x + r) of the spheres") \
    X(double, box_y, NAN, "m", 0.0, INFINITY, GRIT_P_MIN_EXCL | GRIT_P_NAN_OK, NULL, \
      "position of the wall y = box_y; nan: max(y + r) of the spheres")
/* clang-format on */

typedef struct box_def {
    BOX_PARAMS(GRIT_PARAM_FIELD)
} box_def;

#define BOX_INFO(...) GRIT_PARAM_INFO(box_def, __VA_ARGS__)
static const grit_param_info box_params[] = {BOX_PARAMS(BOX_INFO)};
static const grit_param_table box_table = {"box", box_params, (int)(sizeof box_params / sizeof box_params[0])};

static box_def box;
static grit_pair_def pair;
static text_param csv = {"csv", NULL, "CSV file of the spheres, header x,y,z,r (m); required", NULL};

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

static int build(job *j, grit_scene *s, char *err, size_t len)
{
    (void)j;
    if (!csv.value) return snprintf(err, len, "parameter 'csv' is required: the spheres' file (x,y,z,r)"), -1;
    grit_frictmat_def m = grit_default_frictmat_def();
    m.density = box.density;
    m.kt_div_kn = box.kt_div_kn;
    const int mat = grit_add_frictmat(s, &m);
    int first, n;
    if (mat < 0 || grit_set_pair(s, mat, mat, &pair) < 0 ||
        grit_io_load_spheres_csv(s, csv.value, mat, &first, &n) < 0)
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
    const double X = isnan(box.box_x) ? xmax : box.box_x, Y = isnan(box.box_y) ? ymax : box.box_y;
    return add_open_box(s, mat, X, Y, err, len);
}

const preproc preproc_box = {
    "box",
    "spheres from a CSV file settle in a box of 5 walls (the benchmark scene box-N, see ../shared/bench/SCENES.md)",
    init,
    build,
    NULL,
    NULL,
    NULL,
};
