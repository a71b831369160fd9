/* Micro-benchmark of Kuhn's refined law against the conventional law, per
 * contact (built, not a test: timings belong to benchmarks).
 *
 *   bench_kuhn [SCENE = box-2000] [repetitions = 200] [flow] [engine]
 *
 * 1. The benchmark scene box-N of /work/shared/bench/SCENES.md (settled bed
 *    from scenes/box-N-settled.csv, kn = 1e4, kt = 2/7 kn, cn = 0.1,
 *    mu = 0.5, five walls, gravity, dt = 2.5e-6 s), run with the refined
 *    law for its dense phase (2000 steps). With "flow" gravity is then tilted
 *    and the bed slides for 2000 more steps: many contacts slide (a worst
 *    case). The statuses and the distribution of A = kt s / (mu N*) of the
 *    sliding contacts are printed.
 * 2. Records the exact inputs of every contact for one step (stored state
 *    before the step + geometry after it; checked: re-running the update on
 *    them reproduces the engine's stored forces to round-off).
 * 3. Times, per contact, with the thread's CPU clock (the machine is
 *    shared), best of 5:
 *    (A) the pure update grit_kuhn_update, refined vs all switches off;
 *    (B) the whole law as the contact loop calls it (inputs from geometry,
 *        update, state, local force), Kuhn refined / Kuhn conventional /
 *        IdealElPl, over the recorded contacts;
 *    (C) the engine's contact loop (geometry + law + force scatter), 200
 *        steps of the scene with each law, scalar and vectorised (simd =
 *        true: the sphere-sphere kernels ss_kuhn_simd.c, ss_idealelpl_simd.c),
 *        the loop alone timed (the step's sequence is called piece by
 *        piece); the configurations alternate, five rounds, best and median.
 *    With "engine" only (C) is timed. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "grit/grit.h"
#include "law2/idealelpl.h"
#include "law2/kuhn.h"
#include "collide/broadphase.h"
#include "contact/contact_loop.h"
#include "integrate/integrate.h"

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

#define SCENES "/work/shared/bench/scenes"

static grit_scene *build(const char *scene)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s.json", SCENES, scene);
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "bench_kuhn: cannot read %s\n", path);
        exit(1);
    }
    double L = NAN;
    char line[512];
    while (fgets(line, sizeof line, f))
        if (sscanf(line, " \"box_Lx_m\": %lf", &L) == 1) break;
    fclose(f);
    grit_scene_def d = grit_default_scene_def();
    d.gravity = v3(0, 0, -9.81);
    d.dt = 2.5e-6;
    grit_scene *s = grit_scene_create(&d);
    grit_frictmat_def fm = grit_default_frictmat_def();
    fm.law = GRIT_LAW_KUHN;
    fm.density = 2600;
    int m = grit_add_frictmat(s, &fm);
    grit_pair_def pd = grit_default_pair_def();
    pd.kn = 1e4;
    pd.kt = 1e4 * 2.0 / 7.0;
    pd.tan_phi = 0.5;
    pd.cn = 0.1;
    grit_set_pair(s, m, m, &pd);
    const double coord[5] = {0, 0, L, 0, L};
    const int axis[5] = {2, 0, 0, 1, 1}, sense[5] = {1, 1, -1, 1, -1};
    for (int i = 0; i < 5; i++) {
        grit_wall_def w = grit_default_wall_def();
        w.axis = axis[i];
        w.coord = coord[i];
        w.sense = sense[i];
        w.material = m;
        grit_add_wall(s, &w);
    }
    snprintf(path, sizeof path, "%s/%s-settled.csv", SCENES, scene);
    f = fopen(path, "r");
    if (!f || isnan(L)) {
        fprintf(stderr, "bench_kuhn: cannot read %s (or the box side)\n", path);
        exit(1);
    }
    if (!fgets(line, sizeof line, f)) exit(1); /* header */
    grit_sphere_def sp = grit_default_sphere_def();
    sp.material = m;
    while (fscanf(f, "%lf,%lf,%lf,%lf", &sp.pos.x, &sp.pos.y, &sp.pos.z, &sp.radius) == 4) grit_add_sphere(s, &sp);
    fclose(f);
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
            const double tol = 1e-12 * (out.N * R->in[j].mu + v3_norm(out.ft)) + 1e-300;
            mismatch += fabs(out.ft.x - xe[0]) > tol || fabs(out.ft.y - xe[1]) > tol || fabs(out.ft.z - xe[2]) > tol;
        }
        free(snap);
        return mismatch;
    }
    free(snap);
    return -1;
}

/* the options through memory, as in the contact loop (no constant folding) */
static volatile int vol_refined = 1;

/* Blocks of contacts small enough for the L1/L2 caches, each repeated: the
 * arithmetic of the law is timed, not the streaming of recorded inputs
 * (in the engine the geometry output is computed, not read). */
#define BLOCK 128

static __attribute__((noinline)) double time_pure(const rec *R, const grit_kuhn_opt *opt, int reps,
                                                  grit_kuhn_out *out)
{
    double best = INFINITY;
    for (int run = 0; run < 5; run++) {
        double t0 = now();
        for (int lo = 0; lo < R->n; lo += BLOCK) {
            const int hi = lo + BLOCK < R->n ? lo + BLOCK : R->n;
            for (int r = 0; r < reps; r++)
                for (int i = lo; i < hi; i++) grit_kuhn_update(&R->in[i], opt, &out[i]);
        }
        best = fmin(best, now() - t0);
    }
    return best / ((double)reps * R->n) * 1e9;
}

/* the whole law on working copies of a block; restoring them is timed alone
 * and taken off */
static __attribute__((noinline)) double time_law(const rec *R, const grit_law_ctx *L, int which, int reps)
{
    grit_l6geom g[BLOCK];
    grit_frictphys p[BLOCK];
    double x[BLOCK * GRIT_KUHN_EXT_N];
    grit_law_energy E = {0, 0, 0, 0, 0, 0, 0};
    double best = INFINITY, best_copy = INFINITY;
    for (int run = 0; run < 5; run++) {
        double tc = 0, tl = 0;
        for (int lo = 0; lo < R->n; lo += BLOCK) {
            const int m = lo + BLOCK < R->n ? BLOCK : R->n - lo;
            double t0 = now();
            for (int r = 0; r < reps; r++) {
                memcpy(g, R->g + lo, sizeof *g * (size_t)m);
                memcpy(p, R->p + lo, sizeof *p * (size_t)m);
                memcpy(x, R->x0 + (size_t)lo * GRIT_KUHN_EXT_N, sizeof(double) * (size_t)m * GRIT_KUHN_EXT_N);
                __asm__ volatile("" ::: "memory");
            }
            double t1 = now();
            for (int r = 0; r < reps; r++) {
                memcpy(g, R->g + lo, sizeof *g * (size_t)m);
                memcpy(p, R->p + lo, sizeof *p * (size_t)m);
                memcpy(x, R->x0 + (size_t)lo * GRIT_KUHN_EXT_N, sizeof(double) * (size_t)m * GRIT_KUHN_EXT_N);
                grit_contact_cold cold;
                if (which == 0)
                    for (int i = 0; i < m; i++)
                        law_kuhn(L, &g[i], &p[i], &cold, R->fresh[lo + i], false, &E, &R->o[lo + i],
                                 x + (size_t)i * GRIT_KUHN_EXT_N);
                else
                    for (int i = 0; i < m; i++)
                        law_idealelpl(L, &g[i], &p[i], &R->cold[lo + i], R->fresh[lo + i], false, &E, &R->o[lo + i],
                                      NULL);
            }
            double t2 = now();
            tc += t1 - t0;
            tl += t2 - t1;
        }
        best = fmin(best, tl);
        best_copy = fmin(best_copy, tc);
    }
    return (best - best_copy) / ((double)reps * R->n) * 1e9;
}

/* The engine's step taken apart (the sequence of grit_step, on a scene
 * without energy tracking and with dt fixed) so that the contact loop alone
 * is timed with the thread's CPU clock (grit_stats uses the wall clock). */
typedef struct engine_cfg {
    const char *name;
    int law;
    bool refined, simd;
} engine_cfg;

/* the scene's one material (0) takes the law through its pair override */
static void engine_set(grit_scene *s, const engine_cfg *c)
{
    grit_scene_def d = *grit_scene_get_def(s);
    d.simd = c->simd;
    grit_scene_set_def(s, &d);
    grit_kuhn_def k = grit_default_kuhn_def();
    k.kuhn_fresh = k.kuhn_onset = k.kuhn_turn = c->refined;
    k.kuhn_twirl = c->refined ? GRIT_KUHN_TWIRL_EXACT : GRIT_KUHN_TWIRL_OFF;
    grit_set_law_def(s, GRIT_LAW_KUHN, &k, sizeof k);
    grit_pair_def p = grit_default_pair_def();
    p.law = 1 + c->law;
    grit_set_pair(s, 0, 0, &p);
}

/* One run of `steps` steps; ns per real contact of the loop alone. */
static double engine_run(grit_scene *s, int steps)
{
    double t = 0;
    long nc = 0;
    for (int k = 0; k < steps; k++) {
        if (grit_contact_prepare(s) || grit_leapfrog(s) || grit_collide(s)) exit(1);
        double t0 = now();
        if (grit_contact_loop(s)) exit(1);
        t += now() - t0;
        nc += s->c.n_real;
        s->step++;
        s->time += s->dt;
    }
    return t / (double)nc * 1e9;
}

static int cmp_double(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Every configuration in turn, five rounds (the scene keeps moving, so that
 * each configuration samples the same stretch of the run); best and median
 * of each. One step after each switch puts the law's state in place. */
#define ROUNDS 5
static void time_engines(grit_scene *s, const engine_cfg *cfg, int n, int steps, double *best, double *med,
                         double (*share)[3])
{
    double t[16][ROUNDS];
    long lanes[16][3] = {{0}};
    for (int r = 0; r < ROUNDS; r++)
        for (int j = 0; j < n; j++) {
            const int i = (j + r) % n; /* the order rotates too */
            engine_set(s, &cfg[i]);
            grit_step(s, 1);
            long l0[3];
            memcpy(l0, s->kuhn_lanes, sizeof l0);
            t[i][r] = engine_run(s, steps);
            for (int q = 0; q < 3; q++) lanes[i][q] += s->kuhn_lanes[q] - l0[q];
        }
    for (int i = 0; i < n; i++) {
        qsort(t[i], ROUNDS, sizeof(double), cmp_double);
        best[i] = t[i][0];
        med[i] = t[i][ROUNDS / 2];
        const long all = lanes[i][0] + lanes[i][1] + lanes[i][2];
        for (int q = 0; q < 3; q++) share[i][q] = all ? (double)lanes[i][q] / (double)all : 0.0;
    }
}

int main(int argc, char **argv)
{
    const char *scene = argc > 1 ? argv[1] : "box-2000";
    int reps = argc > 2 ? atoi(argv[2]) : 200;
    bool flow = false, engine_only = false;
    for (int i = 3; i < argc; i++) {
        if (!strcmp(argv[i], "flow")) flow = true;
        else if (!strcmp(argv[i], "engine")) engine_only = true;
        else {
            fprintf(stderr, "bench_kuhn: unknown option %s (flow, engine)\n", argv[i]);
            return 1;
        }
    }
    grit_scene *s = build(scene);
    double t0 = now();
    grit_step(s, 2000); /* the dense phase */
    if (flow) {
        grit_scene_def d = *grit_scene_get_def(s);
        d.gravity = v3(5.0, 2.0, -9.81); /* tilt: the bed slides */
        grit_scene_set_def(s, &d);
        grit_step(s, 2000);
    }
    if (engine_only) { /* statuses of the last step; no recording (a flowing bed may rebuild every step) */
        int cnt[GRIT_KUHN_STATUS_COUNT];
        grit_step(s, 1);
        grit_kuhn_status_counts(s, cnt);
        printf("scene %s%s: %d particles, %d contacts (%.1f s to prepare)\n", scene, flow ? " (flowing)" : "",
               grit_particle_count(s), grit_contact_count(s), now() - t0);
        printf("statuses: elastic %d, slip %d, fresh %d\n", cnt[GRIT_KUHN_ELASTIC], cnt[GRIT_KUHN_SLIP],
               cnt[GRIT_KUHN_FRESH_ELASTIC] + cnt[GRIT_KUHN_FRESH_SLIDING]);
    } else {
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
        printf("scene %s%s: %d particles, %d contacts recorded (%.1f s to prepare); inputs reproduce the engine's "
               "forces: %s\n",
               scene, flow ? " (flowing)" : "", grit_particle_count(s), R.n, now() - t0, mism == 0 ? "yes" : "NO");
        printf("statuses: elastic %d, slip %d, fresh %d, separated %d; sliding with A > 0.1: %.0f\n",
               cnt[GRIT_KUHN_ELASTIC], cnt[GRIT_KUHN_SLIP],
               cnt[GRIT_KUHN_FRESH_ELASTIC] + cnt[GRIT_KUHN_FRESH_SLIDING], cnt[GRIT_KUHN_SEPARATED], Abig);
        double As[5] = {0};
        for (int i = 0; i < R.n; i++)
            if (out[i].status == GRIT_KUHN_SLIP) {
                double a = out[i].A;
                As[a < 1e-3 ? 0 : a < 1e-2 ? 1 : a < 1e-1 ? 2 : a < 1 ? 3 : 4]++;
            }
        printf("A of the sliding contacts: < 1e-3: %.0f, 1e-3..1e-2: %.0f, 1e-2..0.1: %.0f, 0.1..1: %.0f, > 1: %.0f\n",
               As[0], As[1], As[2], As[3], As[4]);

        {
            rec S = R;
            double ar = time_pure(&R, &ref, reps, out), ac = time_pure(&R, &conv, reps, out);
            printf("(A) pure update, ns/contact: refined %.2f, conventional %.2f, ratio %.2f\n", ar, ac, ar / ac);
            /* the same on the sliding contacts only (worst case) */
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
            free(S.in);
        }
        free(R.in);
        free(R.g);
        free(R.p);
        free(R.cold);
        free(R.o);
        free(R.x0);
        free(R.fresh);
        free(out);
    }

    const engine_cfg cfg[6] = {{"Kuhn refined", GRIT_LAW_KUHN, true, false},
                               {"Kuhn conventional", GRIT_LAW_KUHN, false, false},
                               {"Kuhn refined SIMD", GRIT_LAW_KUHN, true, true},
                               {"Kuhn conventional SIMD", GRIT_LAW_KUHN, false, true},
                               {"IdealElPl", GRIT_LAW_IDEALELPL, false, false},
                               {"IdealElPl SIMD", GRIT_LAW_IDEALELPL, false, true}};
    double eb[6], em[6], share[6][3];
    time_engines(s, cfg, 6, 200, eb, em, share);
    printf("(C) engine contact loop, ns/contact, best (median) of %d alternating runs of 200 steps:\n", ROUNDS);
    for (int i = 0; i < 6; i++) {
        printf("    %-23s %6.2f (%6.2f)", cfg[i].name, eb[i], em[i]);
        if (cfg[i].law == GRIT_LAW_KUHN && cfg[i].simd)
            printf("   contacts: %.1f %% 4-wide, %.1f %% with the update lane by lane, %.2f %% scalar", 100 * share[i][0],
                   100 * share[i][2], 100 * share[i][1]);
        printf("\n");
    }
    printf("    refined/conventional: scalar %.2f, SIMD %.2f; refined SIMD / conventional scalar %.2f\n", eb[0] / eb[1],
           eb[2] / eb[3], eb[2] / eb[1]);
    printf("    SIMD speed-up: refined %.2f, conventional %.2f, IdealElPl %.2f\n", eb[0] / eb[2], eb[1] / eb[3],
           eb[4] / eb[5]);
    printf("    against IdealElPl SIMD: refined SIMD %.2f, conventional SIMD %.2f\n", eb[2] / eb[5], eb[3] / eb[5]);
    grit_scene_destroy(s);
    return 0;
}
