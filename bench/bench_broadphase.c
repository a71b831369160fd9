/* grit benchmark: cost of a broad-phase rebuild versus N and particle size
 * spread. Random loose packings (solid fraction ~0.3) of spheres with radii
 * uniform in [r, spread*r]; prints seconds per rebuild, ns per particle and
 * candidate pairs per particle. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "grit/grit.h"

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static double urand(unsigned long long *s)
{
    *s = *s * 6364136223846793005ull + 1442695040888963407ull;
    return (double)(*s >> 11) * (1.0 / 9007199254740992.0);
}

int main(int argc, char **argv)
{
    int nmax = argc > 1 ? atoi(argv[1]) : 1000000;
    printf("N,spread,rebuild_s,ns_per_particle,pairs_per_particle\n");
    for (int n = 10000; n <= nmax; n *= 10) {
        for (double spread = 1.0; spread <= 8.0; spread *= 2) {
            grit_scene_def d = grit_default_scene_def();
            d.dt = 1e-7;
            grit_scene *s = grit_scene_create(&d);
            grit_frictmat_def m = grit_default_frictmat_def();
            int mat = grit_add_frictmat(s, &m);
            double r0 = 1e-3, rmean = 0.5 * (1 + spread) * r0;
            double vol = 0;
            /* mean volume for the box size: E[r^3] of the uniform distribution */
            double er3 = (spread * spread * spread * spread - 1) / (4 * (spread - 1 > 0 ? spread - 1 : 1)) * r0 * r0 * r0;
            if (spread == 1.0) er3 = r0 * r0 * r0;
            vol = n * 4.0 / 3.0 * M_PI * er3 / 0.3;
            double L = cbrt(vol);
            unsigned long long seed = 42;
            for (int i = 0; i < n; i++) {
                grit_sphere_def sd = grit_default_sphere_def();
                sd.radius = r0 * (1 + (spread - 1) * urand(&seed));
                /* z first: the order GCC evaluated them in as v3()'s arguments,
                 * which is unspecified (Clang drew x first) */
                const double z = L * urand(&seed), y = L * urand(&seed), x = L * urand(&seed);
                sd.pos = v3(x, y, z);
                sd.material = mat;
                grit_add_sphere(s, &sd);
            }
            (void)rmean;
            grit_step(s, 1); /* first rebuild, includes the sort */
            grit_stats st0;
            grit_get_stats(s, &st0);
            /* force rebuilds by moving one particle far */
            double t0 = now();
            int reps = n >= 1000000 ? 2 : 5;
            for (int k = 0; k < reps; k++) {
                grit_vec3 p;
                grit_get_pos(s, 0, &p);
                grit_set_pos(s, 0, p); /* marks the broad phase for a rebuild */
                grit_step(s, 1);
            }
            double t = (now() - t0) / reps;
            grit_stats st;
            grit_get_stats(s, &st);
            printf("%d,%g,%.4f,%.1f,%.2f\n", n, spread, t, 1e9 * t / n, (double)st.potential_pairs / n);
            fflush(stdout);
            grit_scene_destroy(s);
        }
    }
    return 0;
}
