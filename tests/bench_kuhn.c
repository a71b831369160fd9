/* Micro-benchmark of Kuhn's refined law against the conventional law, per
 * contact (built, not a test: timings belong to benchmarks).
 *
 *   bench_kuhn [N spheres = 3000] [repetitions = 200]
 *
 * 1. Builds a walled box of N spheres and settles it under gravity (the
 *    dense box-N bed), then, with the refined law, pushes one side wall in
 *    slowly so that the bed deforms quasi-statically and some contacts slide
 *    (realistic inputs: the statuses are counted and printed). With a third
 *    argument "flow", gravity is tilted instead and the bed flows (many
 *    contacts slide: a worst case).
 * 2. Records the exact inputs of every contact for one step (stored state
 *    before the step + geometry after it; checked: re-running the update on
 *    them reproduces the engine's stored forces bit for bit).
 * 3. Times, per contact:
 *    (A) the pure update grit_kuhn_update, refined vs all switches off;
 *    (B) the whole law as the contact loop calls it (inputs from geometry,
 *        update, state, local force), Kuhn refined / Kuhn conventional /
 *        IdealElPl, over the recorded contacts;
 *    (C) the engine's contact loop (geometry + law + force scatter), a few
 *        hundred steps of the flowing bed with each law.
 *    Best of 5 runs each (the machine is shared). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "grit/grit.h"
#include "law2/idealelpl.h"
#include "law2/kuhn.h"

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static grit_scene *build(int n, int *push_wall)
{
    grit_scene_def d = grit_default_scene_def();
    d.law = GRIT_LAW_IDEALELPL; /* settles faster; the Kuhn law adopts its forces */
    d.gravity = v3(0, 0, -9.81);
    d.damping = 0.3;
    grit_scene *s = grit_scene_create(&d);
    grit_frictmat_def fm = grit_default_frictmat_def();
    fm.young = 5e7;
    fm.density = 2600;
    fm.kt_div_kn = 0.5;
    fm.tan_phi = 0.4;
    int m = grit_add_frictmat(s, &fm);
    const double r = 0.005, h = 2.1 * r;
    int side = 1;
    while (side * side * side < n) side++;
    const double L = side * h;
    for (int ax = 0; ax < 3; ax++)
        for (int hi = 0; hi < 2; hi++) {
            grit_wall_def w = grit_default_wall_def();
            w.axis = ax;
            w.coord = hi ? (ax == 2 ? 4 * L : L) : 0.0;
            w.sense = hi ? -1 : 1;
            w.material = m;
            int id = grit_add_wall(s, &w);
            if (ax == 0 && hi) *push_wall = id;
        }
    uint32_t seed = 1;
    for (int i = 0; i < n; i++) {
        double j[3];
        for (int q = 0; q < 3; q++) {
            seed = seed * 1664525u + 1013904223u;
            j[q] = (seed >> 8) * (1.0 / 16777216.0) - 0.5;
        }
        int ix = i % side, iy = (i / side) % side, iz = i / (side * side);
        grit_sphere_def sp = grit_default_sphere_def();
        sp.radius = r * (1 + 0.1 * j[2]);
        sp.pos = v3((ix + 0.5) * h + 0.08 * r * j[0], (iy + 0.5) * h + 0.08 * r * j[1], (iz + 0.5) * h);
        sp.vel = v3(0.3 * j[0], 0.3 * j[1], 0.3 * j[2]);
        sp.material = m;
        grit_add_sphere(s, &sp);
    }
    return s;
}

typedef struct rec {
    grit_kuhn_in *in;
    grit_l6geom *g;
    grit_frictphys *p;
    grit_contact_cold *cold;
    grit_cg2_out *o;
    double *x0; /* ext before the step */
    bool *fresh;
    int n;
} rec;

static int record(grit_scene *s, rec *R)
{
    grit_contacts *C = &s->c;
    double *snap = malloc(sizeof(double) * (size_t)C->n * GRIT_KUHN_EXT_N);
    for (int tries = 0; tries < 50; tries++) {
        long rb = s->stats.rebuilds;
        int nc = C->n;
        memcpy(snap, C->ext, sizeof(double) * (size_t)nc * GRIT_KUHN_EXT_N);
        grit_step(s, 1);
        if (s->stats.rebuilds != rb || C->n != nc) { /* the list changed: indices do not match */
            snap = realloc(snap, sizeof(double) * (size_t)C->n * GRIT_KUHN_EXT_N);
            continue;
        }
        const grit_law_ctx L = grit_law_ctx_from(s);
        R->n = 0;
        R->in = malloc(sizeof *R->in * (size_t)nc);
        R->g = malloc(sizeof *R->g * (size_t)nc);
        R->p = malloc(sizeof *R->p * (size_t)nc);
        R->cold = malloc(sizeof *R->cold * (size_t)nc);
        R->o = malloc(sizeof *R->o * (size_t)nc);
        R->x0 = malloc(sizeof(double) * (size_t)nc * GRIT_KUHN_EXT_N);
        R->fresh = malloc(sizeof(bool) * (size_t)nc);
        int mismatch = 0;
        for (int k = 0; k < nc; k++) {
            const grit_pair *pp = &C->pair[k];
            if (!(pp->flags & CF_REAL)) continue;
            int j = R->n++;
            bool fresh = C->cold[k].step_created == s->step - 1;
            grit_cg2_eval(s, pp->kind, pp->a, pp->b, v3_zero(), true, &C->geom[k], &R->o[j]);
            R->g[j] = C->geom[k];
            R->p[j] = C->phys[k];
            R->cold[j] = C->cold[k];
            R->fresh[j] = fresh;
            memcpy(R->x0 + (size_t)j * GRIT_KUHN_EXT_N, snap + (size_t)k * GRIT_KUHN_EXT_N,
                   sizeof(double) * GRIT_KUHN_EXT_N);
            grit_kuhn_inputs(&L, &R->g[j], &R->p[j], &R->o[j], R->x0 + (size_t)j * GRIT_KUHN_EXT_N, fresh,
                             &R->in[j]);
            grit_kuhn_out out;
            grit_kuhn_update(&R->in[j], &L.kuhn, &out);
            const double *xe = C->ext + (size_t)k * GRIT_KUHN_EXT_N;
            mismatch += out.ft.x != xe[0] || out.ft.y != xe[1] || out.ft.z != xe[2];
        }
        free(snap);
        return mismatch;
    }
    free(snap);
    return -1;
}

/* the options through memory, as in the contact loop (no constant folding) */
static volatile int vol_refined = 1;

static __attribute__((noinline)) double time_pure(const rec *R, const grit_kuhn_opt *opt, int reps,
                                                  grit_kuhn_out *out)
{
    double best = INFINITY;
    for (int run = 0; run < 5; run++) {
        double t0 = now();
        for (int r = 0; r < reps; r++)
            for (int i = 0; i < R->n; i++) grit_kuhn_update(&R->in[i], opt, &out[i]);
        best = fmin(best, now() - t0);
    }
    return best / ((double)reps * R->n) * 1e9;
}

/* the whole law on working copies; restoring them is timed alone and taken off */
static __attribute__((noinline)) double time_law(const rec *R, const grit_law_ctx *L, int which, int reps)
{
    const int n = R->n;
    grit_l6geom *g = malloc(sizeof *g * (size_t)n);
    grit_frictphys *p = malloc(sizeof *p * (size_t)n);
    double *x = malloc(sizeof(double) * (size_t)n * GRIT_KUHN_EXT_N);
    grit_law_energy E = {0, 0, 0, 0};
    double best = INFINITY, best_copy = INFINITY;
    for (int run = 0; run < 5; run++) {
        double t0 = now();
        for (int r = 0; r < reps; r++) {
            memcpy(g, R->g, sizeof *g * (size_t)n);
            memcpy(p, R->p, sizeof *p * (size_t)n);
            memcpy(x, R->x0, sizeof(double) * (size_t)n * GRIT_KUHN_EXT_N);
            __asm__ volatile("" ::: "memory");
        }
        best_copy = fmin(best_copy, now() - t0);
        t0 = now();
        for (int r = 0; r < reps; r++) {
            memcpy(g, R->g, sizeof *g * (size_t)n);
            memcpy(p, R->p, sizeof *p * (size_t)n);
            memcpy(x, R->x0, sizeof(double) * (size_t)n * GRIT_KUHN_EXT_N);
            grit_contact_cold cold;
            if (which == 0)
                for (int i = 0; i < n; i++)
                    law_kuhn(L, &g[i], &p[i], &cold, R->fresh[i], false, &E, &R->o[i], x + (size_t)i * GRIT_KUHN_EXT_N);
            else
                for (int i = 0; i < n; i++)
                    law_idealelpl(L, &g[i], &p[i], &R->cold[i], R->fresh[i], false, &E, &R->o[i], NULL);
        }
        best = fmin(best, now() - t0);
    }
    free(g);
    free(p);
    free(x);
    return (best - best_copy) / ((double)reps * n) * 1e9;
}

static double time_engine(grit_scene *s, int law, bool refined, int steps)
{
    double best = INFINITY;
    grit_scene_def d = *grit_scene_get_def(s);
    d.law = law;
    d.kuhn_fresh = d.kuhn_onset = d.kuhn_turn = refined;
    d.kuhn_twirl = refined ? GRIT_KUHN_TWIRL_EXACT : GRIT_KUHN_TWIRL_OFF;
    grit_scene_set_def(s, &d);
    for (int run = 0; run < 5; run++) {
        grit_stats a, b;
        grit_get_stats(s, &a);
        grit_step(s, steps);
        grit_get_stats(s, &b);
        best = fmin(best, (b.time_contacts - a.time_contacts) / ((double)steps * b.real_contacts) * 1e9);
    }
    return best;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 2000, reps = argc > 2 ? atoi(argv[2]) : 200;
    bool flow = argc > 3 && !strcmp(argv[3], "flow");
    int wall = -1;
    grit_scene *s = build(n, &wall);
    double t0 = now();
    while (grit_time(s) < 0.5) grit_step(s, 100); /* settle */
    grit_scene_def d = *grit_scene_get_def(s);
    d.law = GRIT_LAW_KUHN;
    d.damping = 0.0;
    if (flow) d.gravity = v3(5.0, 2.0, -9.81); /* tilt: the bed flows */
    else grit_set_vel(s, wall, v3(-0.05, 0, 0)); /* quasi-static push: 1.5e-6 m a step */
    grit_scene_set_def(s, &d);
    grit_step(s, 300);
    rec R;
    int mism = record(s, &R);
    if (mism < 0) {
        fprintf(stderr, "could not record a step without a rebuild\n");
        return 1;
    }
    int cnt[GRIT_KUHN_STATUS_COUNT] = {0};
    grit_kuhn_opt ref = grit_kuhn_refined(), conv = grit_kuhn_conventional();
    if (!vol_refined) ref = conv;
    grit_kuhn_out *out = malloc(sizeof *out * (size_t)R.n);
    double Abig = 0;
    for (int i = 0; i < R.n; i++) {
        grit_kuhn_update(&R.in[i], &ref, &out[i]);
        cnt[out[i].status]++;
        Abig += out[i].A > 0.1;
    }
    printf("scene: %d spheres, %d contacts recorded (%.1f s to prepare); inputs reproduce the engine's forces: %s\n",
           grit_particle_count(s), R.n, now() - t0, mism == 0 ? "yes" : "NO");
    printf("statuses: elastic %d, slip %d, fresh %d, separated %d; sliding with A > 0.1: %.0f\n",
           cnt[GRIT_KUHN_ELASTIC], cnt[GRIT_KUHN_SLIP],
           cnt[GRIT_KUHN_FRESH_ELASTIC] + cnt[GRIT_KUHN_FRESH_SLIDING], cnt[GRIT_KUHN_SEPARATED], Abig);

    double ar = time_pure(&R, &ref, reps, out), ac = time_pure(&R, &conv, reps, out);
    printf("(A) pure update, ns/contact: refined %.2f, conventional %.2f, ratio %.2f\n", ar, ac, ar / ac);
    /* the same on the sliding contacts only (worst case) */
    rec S = R;
    S.in = malloc(sizeof *S.in * (size_t)R.n);
    S.n = 0;
    for (int i = 0; i < R.n; i++)
        if (out[i].status == GRIT_KUHN_SLIP) S.in[S.n++] = R.in[i];
    if (S.n > 0) {
        int rs = (int)((double)reps * R.n / S.n);
        double sr = time_pure(&S, &ref, rs, out), sc = time_pure(&S, &conv, rs, out);
        printf("    sliding contacts only: refined %.2f, conventional %.2f, ratio %.2f\n", sr, sc, sr / sc);
    }

    grit_law_ctx L = grit_law_ctx_from(s);
    L.kuhn = ref;
    double br = time_law(&R, &L, 0, reps);
    L.kuhn = conv;
    double bc = time_law(&R, &L, 0, reps);
    double bi = time_law(&R, &L, 1, reps);
    printf("(B) law as called by the contact loop, ns/contact: Kuhn refined %.2f, Kuhn conventional %.2f, "
           "IdealElPl %.2f; refined/conventional %.2f, refined/IdealElPl %.2f\n",
           br, bc, bi, br / bc, br / bi);

    int steps = 200;
    double er = time_engine(s, GRIT_LAW_KUHN, true, steps), ec = time_engine(s, GRIT_LAW_KUHN, false, steps);
    double ei = time_engine(s, GRIT_LAW_IDEALELPL, false, steps), er2 = time_engine(s, GRIT_LAW_KUHN, true, steps);
    printf("(C) engine contact loop, ns/contact: Kuhn refined %.2f (again %.2f), Kuhn conventional %.2f, "
           "IdealElPl %.2f; refined/conventional %.2f, refined/IdealElPl %.2f\n",
           er, er2, ec, ei, fmin(er, er2) / ec, fmin(er, er2) / ei);
    grit_scene_destroy(s);
    return 0;
}
