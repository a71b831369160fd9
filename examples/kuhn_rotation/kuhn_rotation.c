/* Demonstration (a) of docs/kuhn-law.md: a loaded assembly rotated rigidly by 90
 * degrees; is its stress rotated with it?
 *
 *   kuhn_rotation [OUT.csv] [N spheres = 300]
 *
 * 1. N spheres (radius 0.9-1.1 mm) in a box of six walls, compressed
 *    isotropically to 10 kPa, then along z by 6 % strain with the lateral
 *    stresses held (friction mobilised), and relaxed; Kuhn's refined law
 *    throughout. The walls are then taken away and every sphere
 *    blocked: sigma0 = the Love-Weber stress of the sphere-sphere contacts.
 * 2. The assembly is rotated rigidly by 90 degrees about a = (1, 2, 3)/|.|
 *    (not a principal axis) in M increments: every sphere gets the velocity
 *    that carries its centre exactly to R x, and the angular velocity
 *    2 tan(dphi/2)/dt a (Cayley rotation vector: the relative movement at
 *    every contact is then zero to round-off, docs/kuhn-law.md section 1).
 * 3. Every M/50 increments the stress is rotated back, R^T sigma R, and
 *    compared with sigma0: relative error |R^T sigma R - sigma0| / |sigma0|
 *    (Frobenius), and the same for its symmetric and skew parts (sigma0
 *    itself has a skew part: the particles that touched the walls lost
 *    those contacts).
 * Variants: projection + exact twirl, projection + first-order twirl,
 * projection only, neither (the Kuhn law's switches), and IdealElPl (the
 * L6Geom frame carries the force), for M = 1000; the first and the third
 * also for M = 10000. The
 * preparation is deterministic, so every variant starts from the same state.
 * Output: CSV variant,M,angle_deg,err,err_sym,err_skew (plot:
 * examples/kuhn_rotation/plot.py). Runs a few minutes. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grit/grit.h"

#define R_MEAN 1e-3

typedef struct assembly {
    grit_scene *s;
    int walls[6]; /* x-, x+, y-, y+, z-, z+ */
    int n, first;
    double L;
} assembly;

static void die(grit_scene *s, const char *what)
{
    fprintf(stderr, "kuhn_rotation: %s: %s\n", what, s ? grit_last_error(s) : grit_create_error());
    exit(1);
}

/* volume of the box between the walls */
static double box_volume(assembly *A)
{
    double v = 1;
    for (int ax = 0; ax < 3; ax++) {
        grit_vec3 p0, p1;
        grit_get_pos(A->s, A->walls[2 * ax], &p0);
        grit_get_pos(A->s, A->walls[2 * ax + 1], &p1);
        v *= v3_get(p1, ax) - v3_get(p0, ax);
    }
    return v;
}

/* compressive principal stresses along x, y, z of the whole box (all
 * contacts, walls included: smoother than the wall forces alone) */
static grit_vec3 box_stress(assembly *A)
{
    grit_mat3 sg;
    if (grit_stress_love_weber(A->s, box_volume(A), NULL, NULL, &sg, NULL)) die(A->s, "stress");
    return v3(-sg.c[0].x, -sg.c[1].y, -sg.c[2].z);
}

static void move_walls(assembly *A, const double v[3])
{
    for (int ax = 0; ax < 3; ax++) {
        grit_set_vel(A->s, A->walls[2 * ax], v3_scale(v3_unit(ax), v[ax]));
        grit_set_vel(A->s, A->walls[2 * ax + 1], v3_scale(v3_unit(ax), -v[ax]));
    }
}

static void prepare(assembly *A, int n)
{
    grit_scene_def d = grit_default_scene_def();
    d.damping = 0.6; /* quasi-static preparation */
    grit_scene *s = grit_scene_create(&d);
    if (!s) die(NULL, "create");
    A->s = s;
    grit_frictmat_def fm = grit_default_frictmat_def();
    fm.law = GRIT_LAW_KUHN;
    fm.density = 2600;
    int m = grit_add_frictmat(s, &fm);
    grit_pair_def pd = grit_default_pair_def();
    pd.kn = 1e4;
    pd.kt = 0.5e4;
    pd.tan_phi = 0.5;
    if (grit_set_pair(s, m, m, &pd)) die(s, "pair");
    /* loose cloud: random sequential addition at solid fraction 0.2 */
    double vol = 0;
    uint64_t rng = 0x9E3779B97F4A7C15ull;
#define URAND() ((rng = rng * 6364136223846793005ull + 1442695040888963407ull), (double)(rng >> 11) * 0x1p-53)
    double *r = malloc(sizeof *r * (size_t)n), (*x)[3] = malloc(sizeof *x * (size_t)n);
    for (int i = 0; i < n; i++) {
        r[i] = R_MEAN * (0.9 + 0.2 * URAND());
        vol += 4.0 / 3.0 * M_PI * r[i] * r[i] * r[i];
    }
    A->L = cbrt(vol / 0.2);
    for (int i = 0; i < n; i++) {
        for (int tries = 0;; tries++) {
            for (int k = 0; k < 3; k++) x[i][k] = r[i] + (A->L - 2 * r[i]) * URAND();
            bool ok = true;
            for (int j = 0; j < i && ok; j++) {
                double dx = x[i][0] - x[j][0], dy = x[i][1] - x[j][1], dz = x[i][2] - x[j][2];
                ok = dx * dx + dy * dy + dz * dz > (r[i] + r[j]) * (r[i] + r[j]);
            }
            if (ok) break;
            if (tries > 100000) die(s, "cannot place the loose cloud");
        }
        grit_sphere_def sp = grit_default_sphere_def();
        sp.pos = v3(x[i][0], x[i][1], x[i][2]);
        sp.radius = r[i];
        sp.material = m;
        int id = grit_add_sphere(s, &sp);
        if (id < 0) die(s, "sphere");
        if (i == 0) A->first = id;
    }
#undef URAND
    free(r);
    free(x);
    A->n = n;
    for (int ax = 0; ax < 3; ax++)
        for (int hi = 0; hi < 2; hi++) {
            grit_wall_def w = grit_default_wall_def();
            w.axis = ax;
            w.coord = hi ? A->L : 0.0;
            w.sense = hi ? -1 : 1;
            w.material = m;
            A->walls[2 * ax + hi] = grit_add_wall(s, &w);
        }
    /* walls servo-controlled every 10 steps: isotropic p0, then a triaxial
     * compression (z walls driven in by 6 % strain, lateral walls held at p0) */
    const double p0 = 10000, vmax = 0.001;
    /* first the gas phase, fast, up to a solid fraction of 0.5 */
    move_walls(A, (double[3]){0.02, 0.02, 0.02});
    while (vol / box_volume(A) < 0.5)
        if (grit_step(s, 10)) die(s, "compress");
    for (int stage = 0; stage < 2; stage++)
        for (int k = 0; k < 1500; k++) { /* 15000 steps */
            if (grit_step(s, 10)) die(s, "servo");
            const grit_vec3 sv = box_stress(A);
            double vel[3];
            for (int ax = 0; ax < 3; ax++)
                vel[ax] = vmax * fmax(-1.0, fmin(1.0, (p0 - v3_get(sv, ax)) / p0));
            if (stage == 1) vel[2] = 0.06 * A->L / (15000 * grit_dt(s)) / 2;
            move_walls(A, vel);
        }
    move_walls(A, (double[3]){0, 0, 0});
    if (grit_step(s, 2000)) die(s, "relax");
    const grit_vec3 sv = box_stress(A);
    fprintf(stderr, "prepared: %d spheres, sigma (compression) %.0f %.0f %.0f Pa, %d contacts, step %ld\n", n, sv.x,
            sv.y, sv.z, grit_contact_count(s), grit_step_count(s));
    /* kinematic from here on: walls away, spheres blocked and at rest */
    for (int i = 0; i < 6; i++) {
        grit_set_vel(s, A->walls[i], v3_zero());
        int ax = i / 2;
        grit_vec3 far = v3_zero();
        v3_set(&far, ax, (i % 2) ? 1e3 : -1e3);
        grit_set_pos(s, A->walls[i], far);
    }
    for (int i = 0; i < n; i++) {
        grit_set_blocked(s, A->first + i, GRIT_BLOCK_ALL);
        grit_set_vel(s, A->first + i, v3_zero());
        grit_set_angvel(s, A->first + i, v3_zero());
    }
    d = *grit_scene_get_def(s);
    d.damping = 0;
    grit_scene_set_def(s, &d);
    if (grit_step(s, 1)) die(s, "release walls");
}

static grit_mat3 rotation(grit_vec3 a, double phi)
{
    return q_to_mat3(q_axis_angle(a, phi));
}

static grit_mat3 stress(assembly *A)
{
    grit_mat3 sg;
    if (grit_stress_love_weber(A->s, A->L * A->L * A->L, NULL, NULL, &sg, NULL)) die(A->s, "stress");
    return sg;
}

static const char *const names[] = {"projection + exact twirl", "projection + first-order twirl",
                                    "projection only", "neither", "IdealElPl (L6Geom frame)"};

static void run(FILE *out, int variant, int M, int n)
{
    assembly A;
    prepare(&A, n);
    grit_scene *s = A.s;
    if (variant == 4) { /* the material's pair: its override gets the law */
        grit_pair_def pd = grit_default_pair_def();
        pd.kn = 1e4;
        pd.kt = 0.5e4;
        pd.tan_phi = 0.5;
        pd.law = 1 + GRIT_LAW_IDEALELPL;
        if (grit_set_pair(s, 0, 0, &pd)) die(s, "pair");
    } else {
        grit_kuhn_def k = grit_default_kuhn_def();
        k.kuhn_projection = variant != 3;
        k.kuhn_twirl = variant == 0 ? 0 : (variant == 1 ? 1 : 2);
        if (grit_set_law_def(s, GRIT_LAW_KUHN, &k, sizeof k)) die(s, "law");
    }
    const grit_mat3 s0 = stress(&A);
    const double n0 = grit_mat3_frob(&s0);
    /* centre of the assembly */
    grit_vec3 c = v3_zero();
    for (int i = 0; i < n; i++) {
        grit_vec3 x;
        grit_get_pos(s, A.first + i, &x);
        c = v3_add(c, v3_scale(x, 1.0 / n));
    }
    const grit_vec3 a = v3_normalized(v3(1, 2, 3));
    const double dphi = 0.5 * M_PI / M, dt = grit_dt(s);
    const grit_mat3 Rd = rotation(a, dphi);
    const grit_vec3 w = v3_scale(a, 2 * tan(0.5 * dphi) / dt);
    const int every = M / 50;
    for (int k = 0; k <= M; k++) {
        if (k % every == 0) {
            grit_mat3 sg = stress(&A), R = rotation(a, k * dphi);
            grit_mat3 back = grit_mat3_rotate_back(&R, &sg), diff;
            for (int j = 0; j < 3; j++) diff.c[j] = v3_sub(back.c[j], s0.c[j]);
            grit_mat3 dsym = grit_mat3_sym(&diff);
            double eskew = sqrt(fmax(0.0, sq(grit_mat3_frob(&diff)) - sq(grit_mat3_frob(&dsym))));
            fprintf(out, "%d,%d,%.6f,%.6e,%.6e,%.6e\n", variant, M, k * dphi * 180 / M_PI, grit_mat3_frob(&diff) / n0,
                    grit_mat3_frob(&dsym) / n0, eskew / n0);
            if (k == M)
                fprintf(stderr, "%-32s M = %5d: error %.3e (symmetric part %.3e, skew part %.3e)\n", names[variant], M,
                        grit_mat3_frob(&diff) / n0, grit_mat3_frob(&dsym) / n0, eskew / n0);
        }
        if (k == M) break;
        for (int i = 0; i < n; i++) {
            grit_vec3 x;
            grit_get_pos(s, A.first + i, &x);
            grit_vec3 xr = v3_add(c, m3_mul(&Rd, v3_sub(x, c)));
            grit_set_vel(s, A.first + i, v3_scale(v3_sub(xr, x), 1.0 / dt));
            grit_set_angvel(s, A.first + i, w);
        }
        if (grit_step(s, 1)) die(s, "rotate");
    }
    grit_scene_destroy(s);
}

int main(int argc, char **argv)
{
    const char *path = argc > 1 ? argv[1] : "kuhn_rotation.csv";
    int n = argc > 2 ? atoi(argv[2]) : 300;
    FILE *out = fopen(path, "w");
    if (!out) {
        fprintf(stderr, "kuhn_rotation: cannot write %s\n", path);
        return 1;
    }
    fprintf(out, "variant,M,angle_deg,err,err_sym,err_skew\n");
    /* 1000 increments for every variant, 10000 for two: the error of the
     * reference shrinks with the increment, the other does not */
    for (int v = 0; v < 5; v++) run(out, v, 1000, n);
    run(out, 0, 10000, n);
    run(out, 2, 10000, n);
    fclose(out);
    return 0;
}
