/* grit_bench_cpm: cost of the concrete law (cpm) per contact against
 * IdealElPl's on the same packing.
 *
 *   grit_bench_cpm [--n SIDE] [--steps N] [--reps K] [--law NAME]
 *
 * SIDE^3 spheres (r = 1 mm) on a cubic lattice of spacing 1.98 r, jittered
 * by +-0.5 % of r, no gravity, small random velocities, no damping:
 *   cpm        ConcreteMat (k_N 30 GPa), bonded at interaction radius 1.5
 *              in the first step (about 18 bonds per sphere on this lattice,
 *              every bond through the scalar contact loop);
 *   cpm-touch  the same material bonded at interaction radius 1 (the 6
 *              touching neighbours only): the same contacts as IdealElPl;
 *   idealelpl  FrictMat with the same stiffness, interaction radius 1, no_break
 *              (its contacts stay, as bonds do): the 6 touching neighbours,
 *              the vectorised sphere-sphere kernel;
 *   idealelpl-scalar  the same with simd = false.
 * Each runs N steps after a 20-step warm-up; the contact loop's CPU time
 * (grit_get_stats) divided by real contacts x steps is the figure, best of
 * K repetitions. Lines `GRIT_CPM law=... ns_per_contact=...` are for scripts;
 * the last line gives the ratios. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grit/grit.h"

enum { CPM, CPM_TOUCH, IEP, IEP_SCALAR, NCASE };
static const char *names[NCASE] = {"cpm", "cpm-touch", "idealelpl", "idealelpl-scalar"};

static double urand(unsigned long long *rng) /* uniform in [-0.5, 0.5) */
{
    *rng = *rng * 6364136223846793005ull + 1442695040888963407ull;
    return (double)(*rng >> 11) * 0x1p-53 - 0.5;
}

static double run(int which, int n, long steps, int *contacts)
{
    grit_scene_def d = grit_default_scene_def();
    d.dt = 1e-7; /* 0.25 of the p-wave step */
    d.simd = which != IEP_SCALAR;
    d.interaction_radius = which == CPM ? 1.5 : 1.0;
    grit_scene *s = grit_scene_create(&d);
    int mat;
    if (which == CPM || which == CPM_TOUCH) {
        grit_concretemat_def m = grit_default_concretemat_def();
        m.young = 30e9;
        mat = grit_add_concretemat(s, &m);
    } else {
        grit_frictmat_def m = grit_default_frictmat_def();
        m.young = 30e9;
        m.density = 4800;
        m.tan_phi = 0.8;
        mat = grit_add_frictmat(s, &m);
        /* bonded like the concrete: the contacts stay, as the cohesive ones do */
        grit_idealelpl_def ie = grit_default_idealelpl_def();
        ie.no_break = true;
        grit_set_law_def(s, GRIT_LAW_IDEALELPL, &ie, sizeof ie);
    }
    const double r = 1e-3, h = 1.98 * r;
    unsigned long long rng = 12345;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            for (int k = 0; k < n; k++) {
                grit_sphere_def sd = grit_default_sphere_def();
                sd.radius = r;
                sd.material = mat;
                double u[6];
                for (int q = 0; q < 6; q++) u[q] = urand(&rng);
                sd.pos = v3(i * h + 0.01 * r * u[0], j * h + 0.01 * r * u[1], k * h + 0.01 * r * u[2]);
                sd.vel = v3(1e-3 * u[3], 1e-3 * u[4], 1e-3 * u[5]);
                grit_add_sphere(s, &sd);
            }
    if (grit_step(s, 1)) {
        fprintf(stderr, "grit_bench_cpm: %s\n", grit_last_error(s));
        exit(1);
    }
    d.interaction_radius = 1.0;
    grit_scene_set_def(s, &d);
    grit_step(s, 20);
    grit_stats st0, st1;
    grit_get_stats(s, &st0);
    if (grit_step(s, steps)) {
        fprintf(stderr, "grit_bench_cpm: %s\n", grit_last_error(s));
        exit(1);
    }
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
                fprintf(stderr, "grit_bench_cpm: --law is one of cpm, cpm-touch, idealelpl, idealelpl-scalar\n");
                return 2;
            }
        }
        else if (!strcmp(argv[i], "--steps")) steps = atol(argv[i + 1]);
        else if (!strcmp(argv[i], "--reps")) reps = atoi(argv[i + 1]);
        else {
            fprintf(stderr, "usage: grit_bench_cpm [--n SIDE] [--steps N] [--reps K] [--law NAME]\n");
            return 2;
        }
    }
    if (n < 2 || steps < 1 || reps < 1) {
        fprintf(stderr, "grit_bench_cpm: --n >= 2, --steps >= 1, --reps >= 1\n");
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
            printf("GRIT_CPM law=%s spheres=%d contacts=%d per_sphere=%.2f steps=%ld ns_per_contact=%.2f\n", names[c],
               n * n * n, contacts[c], 2.0 * contacts[c] / (n * n * n), steps, best[c]);
    if (only < 0)
        printf("cpm / idealelpl per contact: %.2f (bonded), %.2f (touching); against the scalar IdealElPl: %.2f\n",
           best[CPM] / best[IEP], best[CPM_TOUCH] / best[IEP], best[CPM] / best[IEP_SCALAR]);
    return 0;
}
