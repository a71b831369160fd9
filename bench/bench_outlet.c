/* grit_bench_outlet: the cost of an idle outlet (grit/outlet.h).
 *
 *   grit_bench_outlet [--n SIDE] [--steps N] [--reps K]
 *
 * SIDE^3 spheres (r = 1 mm, FrictMat E 10 MPa) in a box of walls, dropped
 * on a cubic lattice of spacing 2.1 r under gravity, settling as a bed
 * (contacts made and lost, the pair list rebuilt now and then). The same
 * scene runs N steps without an outlet and with one whose region holds
 * nothing (a box below the floor): the outlet then looks at every particle
 * once per broad-phase rebuild and deletes none. Wall-clock seconds per
 * run, best of K (interleaved). Since a whole-run difference is within the
 * noise of a shared machine, the outlet's look itself is timed too (the
 * internal grit_outlets_run, made to look 200 times at the settled bed):
 * its cost per rebuild over the steps per rebuild of the run is the idle
 * outlet's share of a step, the last line. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/scene_impl.h"
#include "core/storage.h"
#include "grit/grit.h"

static void must(grit_scene *s, int rc)
{
    if (rc < 0) {
        fprintf(stderr, "grit_bench_outlet: %s\n", grit_last_error(s));
        exit(1);
    }
}

static double wall_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static double run(bool outlet, int n, long steps, long *rebuilds, double *look)
{
    const double r = 1e-3, side = 2.1 * r * n;
    grit_scene_def d = grit_default_scene_def();
    d.dt = 2e-6;
    d.gravity = (grit_vec3){0, 0, -9.81};
    d.damping = 0.2;
    grit_scene *s = grit_scene_create(&d);
    grit_frictmat_def m = grit_default_frictmat_def();
    m.young = 1e7;
    const int mat = grit_add_frictmat(s, &m);
    must(s, mat);
    for (int axis = 0; axis < 3; axis++)
        for (int k = 0; k < (axis == 2 ? 1 : 2); k++) {
            grit_wall_def w = grit_default_wall_def();
            w.axis = axis;
            w.coord = k ? side : 0.0;
            w.sense = k ? -1 : 1;
            w.material = mat;
            must(s, grit_add_wall(s, &w));
        }
    for (int z = 0; z < n; z++)
        for (int y = 0; y < n; y++)
            for (int x = 0; x < n; x++) {
                grit_sphere_def sd = grit_default_sphere_def();
                sd.pos = (grit_vec3){(2.1 * x + 1.05) * r, (2.1 * y + 1.05) * r, (2.1 * z + 1.05) * r};
                sd.radius = r * (1 - 0.01 * ((x * 7 + y * 13 + z * 5) % 5));
                sd.material = mat;
                must(s, grit_add_sphere(s, &sd));
            }
    if (outlet) {
        grit_outlet_def o = grit_default_outlet_def();
        o.lo = (grit_vec3){0, 0, -1};
        o.hi = (grit_vec3){side, side, -0.5};
        must(s, grit_add_outlet(s, &o));
    }
    must(s, grit_step(s, 20));
    const double t0 = wall_now();
    must(s, grit_step(s, steps));
    const double t = wall_now() - t0;
    grit_stats st;
    grit_get_stats(s, &st);
    *rebuilds = st.rebuilds;
    if (outlet) { /* the look alone: what a rebuild adds */
        const double t1 = wall_now();
        for (int k = 0; k < 200; k++) {
            s->outlet_rebuilds = -1;
            must(s, grit_outlets_run(s));
        }
        *look = (wall_now() - t1) / 200;
        if (grit_particle_count(s) != n * n * n + 5) {
            fprintf(stderr, "grit_bench_outlet: the idle outlet deleted particles\n");
            exit(1);
        }
    }
    grit_scene_destroy(s);
    return t;
}

int main(int argc, char **argv)
{
    int n = 16, reps = 3;
    long steps = 3000;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "--n")) n = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--steps")) steps = atol(argv[i + 1]);
        else if (!strcmp(argv[i], "--reps")) reps = atoi(argv[i + 1]);
        else {
            fprintf(stderr, "usage: grit_bench_outlet [--n SIDE] [--steps N] [--reps K]\n");
            return 2;
        }
    }
    double best[2] = {1e300, 1e300};
    long rebuilds[2] = {0, 0};
    double look = 1e300;
    for (int k = 0; k < reps; k++)
        for (int o = 0; o < 2; o++) {
            double l = 1e300;
            const double t = run(o, n, steps, &rebuilds[o], &l);
            if (t < best[o]) best[o] = t;
            if (l < look) look = l;
        }
    for (int o = 0; o < 2; o++)
        printf("GRIT_OUTLET outlet=%s spheres=%d steps=%ld rebuilds=%ld seconds=%.4f us_per_step=%.3f\n",
               o ? "idle" : "none", n * n * n, steps, rebuilds[o], best[o], 1e6 * best[o] / (double)steps);
    const double step = best[0] / (double)steps, per_rebuild = (double)steps / (double)(rebuilds[0] > 0 ? rebuilds[0] : 1);
    printf("whole runs: %+.2f %% with the idle outlet (rebuilds %ld and %ld: the same run; noise included)\n",
           100.0 * (best[1] - best[0]) / best[0], rebuilds[0], rebuilds[1]);
    printf("idle outlet: one look %.2f us, a step %.1f us, %.0f steps per rebuild: %.4f %% of a step\n", 1e6 * look,
           1e6 * step, per_rebuild, 100.0 * look / (step * per_rebuild));
    return rebuilds[0] == rebuilds[1] ? 0 : 1;
}
