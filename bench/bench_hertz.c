/* grit_bench_hertz: cost of the Hertz-Mindlin law (hertz) per contact
 * against the linear spring-dashpot law (IdealElPl with a normal dashpot) on
 * the same packing.
 *
 *   grit_bench_hertz [--n SIDE] [--steps N] [--reps K] [--law NAME]
 *
 * SIDE^3 spheres (r = 1 mm) on a cubic lattice of spacing 1.98 r, jittered
 * by +-0.5 % of r, no gravity: the 6 touching neighbours of each sphere
 * overlap by about 1 % of r. Every sphere moves at an imposed random
 * velocity (1 mm/s) and spin (1 rad/s), so that over the run the contacts
 * keep their overlap while their frames turn and their tangential springs
 * load (the particles cannot fly apart, and the contact set is the same
 * for every law):
 *   hertz         HertzMat (E 30 GPa, nu 0.25, restitution 0.5, friction 0.5),
 *                 the vectorised sphere-sphere kernel;
 *   idealelpl     FrictMat (E 30 GPa, kt/kn 0.8, friction 0.5) with a pair
 *                 override's normal dashpot: the linear spring-dashpot law,
 *                 its vectorised kernel;
 *   hertz-scalar, idealelpl-scalar  the same with simd = false.
 * Each runs N steps after a 20-step warm-up; the contact loop's CPU time
 * (grit_get_stats) divided by real contacts x steps is the figure, best of
 * K repetitions (interleaved). Lines `GRIT_HERTZ law=... ns_per_contact=...`
 * are for scripts; the last line gives the ratios. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grit/grit.h"

enum { HERTZ, IEP, HERTZ_SCALAR, IEP_SCALAR, NCASE };
static const char *names[NCASE] = {"hertz", "idealelpl", "hertz-scalar", "idealelpl-scalar"};

static double urand(unsigned long long *rng) /* uniform in [-0.5, 0.5) */
{
    *rng = *rng * 6364136223846793005ull + 1442695040888963407ull;
    return (double)(*rng >> 11) * 0x1p-53 - 0.5;
}

static void must(grit_scene *s, int rc)
{
    if (rc < 0) {
        fprintf(stderr, "grit_bench_hertz: %s\n", grit_last_error(s));
        exit(1);
    }
}

static double run(int which, int n, long steps, int *contacts)
{
    grit_scene_def d = grit_default_scene_def();
    d.dt = 1e-8;
    d.simd = which == HERTZ || which == IEP;
    grit_scene *s = grit_scene_create(&d);
    int mat;
    if (which == HERTZ || which == HERTZ_SCALAR) {
        grit_hertzmat_def m = grit_default_hertzmat_def();
        m.young = 30e9;
        m.poisson = 0.25;
        m.density = 2500;
        m.restitution = 0.5;
        m.tan_phi = 0.5;
        mat = grit_add_hertzmat(s, &m);
    } else {
        grit_frictmat_def m = grit_default_frictmat_def();
        m.young = 30e9;
        m.density = 2500;
        m.kt_div_kn = 0.8;
        m.tan_phi = 0.5;
        mat = grit_add_frictmat(s, &m);
        grit_pair_def p = grit_default_pair_def();
        p.cn = 10.0;
        must(s, grit_set_pair(s, mat, mat, &p));
    }
    must(s, mat);
    const double r = 1e-3, h = 1.98 * r;
    unsigned long long rng = 12345;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            for (int k = 0; k < n; k++) {
                grit_sphere_def sd = grit_default_sphere_def();
                sd.radius = r;
                sd.material = mat;
                double u[9];
                for (int q = 0; q < 9; q++) u[q] = urand(&rng);
                sd.pos = v3(i * h + 0.01 * r * u[0], j * h + 0.01 * r * u[1], k * h + 0.01 * r * u[2]);
                sd.blocked = GRIT_BLOCK_RX | GRIT_BLOCK_RY | GRIT_BLOCK_RZ;
                sd.angvel = v3(2 * u[6], 2 * u[7], 2 * u[8]);
                const int id = grit_add_sphere(s, &sd);
                must(s, id);
                must(s, grit_impose_vel(s, id, v3(2e-3 * u[3], 2e-3 * u[4], 2e-3 * u[5]), GRIT_BLOCK_X | GRIT_BLOCK_Y | GRIT_BLOCK_Z));
            }
    must(s, grit_step(s, 20));
    grit_stats st0, st1;
    grit_get_stats(s, &st0);
    must(s, grit_step(s, steps));
    grit_get_stats(s, &st1);
    *contacts = grit_contact_count(s);
    grit_scene_destroy(s);
    return (st1.time_contacts - st0.time_contacts) / ((double)*contacts * (double)steps) * 1e9;
}

int main(int argc, char **argv)
{
    int n = 20, reps = 3, only = -1;
    long steps = 200;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "--n")) n = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--law")) {
            for (int c = 0; c < NCASE; c++)
                if (!strcmp(argv[i + 1], names[c])) only = c;
            if (only < 0) {
                fprintf(stderr, "grit_bench_hertz: --law is one of hertz, idealelpl, hertz-scalar, idealelpl-scalar\n");
                return 2;
            }
        } else if (!strcmp(argv[i], "--steps")) steps = atol(argv[i + 1]);
        else if (!strcmp(argv[i], "--reps")) reps = atoi(argv[i + 1]);
        else {
            fprintf(stderr, "usage: grit_bench_hertz [--n SIDE] [--steps N] [--reps K] [--law NAME]\n");
            return 2;
        }
    }
    if (n < 2 || steps < 1 || reps < 1) {
        fprintf(stderr, "grit_bench_hertz: --n >= 2, --steps >= 1, --reps >= 1\n");
        return 2;
    }
    double best[NCASE];
    int contacts[NCASE];
    for (int c = 0; c < NCASE; c++) best[c] = INFINITY;
    for (int rep = 0; rep < reps; rep++) /* interleaved, so that a noisy moment hits every case */
        for (int c = 0; c < NCASE; c++) {
            if (only >= 0 && c != only) continue;
            const double t = run(c, n, steps, &contacts[c]);
            if (t < best[c]) best[c] = t;
        }
    for (int c = 0; c < NCASE; c++)
        if (only < 0 || c == only)
            printf("GRIT_HERTZ law=%s spheres=%d contacts=%d per_sphere=%.2f steps=%ld ns_per_contact=%.2f\n", names[c],
                   n * n * n, contacts[c], 2.0 * contacts[c] / (n * n * n), steps, best[c]);
    if (only < 0)
        printf("hertz / idealelpl per contact: %.2f (vectorised kernels), %.2f (scalar loops)\n",
               best[HERTZ] / best[IEP], best[HERTZ_SCALAR] / best[IEP_SCALAR]);
    return 0;
}
