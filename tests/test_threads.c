/* Threads: a run is the same to the bit with 1, 2, 3 and 4 threads
 * (positions, velocities, forces, contacts, energy), and a restart file
 * written with 3 threads continues with 1 exactly as the run that never
 * stopped. The scenes are larger than one chunk of the parallel loops
 * (core/threads.h), so that every loop is split; on a machine with fewer
 * cores the threads simply share them. */
#include <stdint.h>
#include <unistd.h>

#include "core/scene_impl.h"
#include "core/threads.h"
#include "grit/cell.h"
#include "grit/grit.h"
#include "grit/restart.h"
#include "fixture.h"
#include "test.h"

/* a deposit in a box of 0.5 m (more than two chunks of particles) */
static grit_scene *pile_of(int law, int n, bool hertz, bool shapes)
{
    const fx_pile_def p = {law, n, 20, 0.0185, 0.5, 0.4, hertz, shapes};
    return fx_pile(&p);
}

typedef grit_scene *(*maker)(void);
typedef void (*stepper)(grit_scene *s, long to);

static void plain_run(grit_scene *s, long to) { CHECK(grit_step(s, to - grit_step_count(s)) == GRIT_OK); }

/* The scene run `steps` steps with 1 thread, then with 2, 3 and 4: the same
 * bytes. Returns the 1-thread scene. */
static grit_scene *same_with_threads(maker make, stepper run, long steps, const char *what)
{
    grit_scene *ref = make();
    CHECK(grit_set_threads(ref, 1) == GRIT_OK && grit_threads(ref) == 1);
    ref->par_min = 1; /* every loop on the threads, however small (core/threads.h) */
    run(ref, steps);
    CHECK(ref->b.n > GRIT_PCHUNK || ref->c.n > GRIT_CCHUNK); /* the loops are split */
    for (int t = 2; t <= 4; t++) {
        grit_scene *s = make();
        CHECK(grit_set_threads(s, t) == GRIT_OK && grit_threads(s) == t);
        s->par_min = 1;
        run(s, steps);
        int bad = fx_state_diff(ref, s, what);
        if (bad) fprintf(stderr, "%s: %d threads differ from 1 thread (%d fields)\n", what, t, bad);
        CHECK(bad == 0);
        grit_scene_destroy(s);
    }
    return ref;
}

/* Saved at step `at` with 3 threads, loaded and continued with 1: the
 * 1-thread run's bytes at `to`. */
static void restart_across(maker make, stepper run, long at, long to, const grit_scene *ref, const char *what)
{
    const char *path = "test_threads.grit";
    grit_scene *a = make();
    CHECK(grit_set_threads(a, 3) == GRIT_OK);
    a->par_min = 1;
    run(a, at);
    CHECK(grit_save(a, path) == GRIT_OK);
    grit_scene_destroy(a);
    grit_scene *b = grit_scene_load(path);
    CHECK(b != NULL);
    if (!b) return;
    CHECK(grit_set_threads(b, 1) == GRIT_OK);
    run(b, to);
    int bad = fx_state_diff(ref, b, what);
    if (bad) fprintf(stderr, "%s: restart (3 threads -> 1) differs (%d fields)\n", what, bad);
    CHECK(bad == 0);
    grit_scene_destroy(b);
    unlink(path);
}

static grit_scene *pile_idealelpl(void) { return pile_of(GRIT_LAW_IDEALELPL, 2400, false, false); }

static void deposit(void)
{
    grit_scene *ref = same_with_threads(pile_idealelpl, plain_run, 60, "deposit");
    fprintf(stderr, "deposit: %d particles, %d contacts (%d real)\n", ref->b.n, ref->c.n, ref->c.n_real);
    CHECK(ref->c.n_real > 1000); /* the spheres touch */
    restart_across(pile_idealelpl, plain_run, 30, 60, ref, "deposit");
    grit_scene_destroy(ref);
}

static grit_scene *pile_kuhn(void) { return pile_of(GRIT_LAW_KUHN, 2400, false, false); }
static grit_scene *pile_hertz(void) { return pile_of(GRIT_LAW_HERTZ, 2400, true, false); }
static grit_scene *pile_shapes(void) { return pile_of(GRIT_LAW_IDEALELPL, 1600, false, true); }

static void kuhn_bed(void)
{
    grit_scene *ref = same_with_threads(pile_kuhn, plain_run, 40, "kuhn");
    CHECK(ref->c.n_real > 1000);
    grit_scene_destroy(ref);
}

static void hertz_bed(void)
{
    grit_scene *ref = same_with_threads(pile_hertz, plain_run, 40, "hertz");
    CHECK(ref->c.n_real > 1000);
    grit_scene_destroy(ref);
}

/* capsules, ellipsoids and spheres on a facet and walls: every generic
 * (functor, law) loop */
static void mixed_shapes(void)
{
    grit_scene *ref = same_with_threads(pile_shapes, plain_run, 40, "shapes");
    int kinds[GRIT_BLOCK_MAX] = {0}, n_kinds = 0;
    for (int k = 0; k < ref->c.n; k++)
        if ((ref->c.pair[k].flags & CF_REAL) && !kinds[ref->c.pair[k].kind]++) n_kinds++;
    CHECK(n_kinds >= 5); /* sphere, capsule and ellipsoid pairs, walls, the facet */
    grit_scene_destroy(ref);
}

/* ---- a periodic cell sheared after a compression ------------------------- */
static grit_scene *periodic_gas(void) { return fx_periodic_gas(GRIT_LAW_IDEALELPL, 12, 0.5); }

/* compressed until step 60, then sheared; a loaded scene keeps the pending
 * gradient it was saved with */
static void shear_run(grit_scene *s, long to)
{
    static const double L1[3][3] = {{-2, 0, 0}, {0, -2, 0}, {0, 0, -2}};
    static const double L2[3][3] = {{0, 3, 0}, {0, 0, 0}, {0, 0, 0}};
    for (long k = grit_step_count(s); k < to; k++) {
        if (k == 0) CHECK(grit_cell_set_grad_v(s, L1) == GRIT_OK);
        if (k == 60) CHECK(grit_cell_set_grad_v(s, L2) == GRIT_OK);
        CHECK(grit_step(s, 1) == GRIT_OK);
    }
}

static void periodic_shear(void)
{
    grit_scene *ref = same_with_threads(periodic_gas, shear_run, 120, "periodic");
    CHECK(ref->c.n_real > 500);
    restart_across(periodic_gas, shear_run, 90, 120, ref, "periodic");
    grit_scene_destroy(ref);
}

/* ---- a concrete block pulled apart: cohesive contacts break ---------------- */
static grit_scene *concrete_block(void)
{
    grit_scene_def d = grit_default_scene_def();
    d.dt_safety = 0.05;
    d.track_energy = true;
    d.interaction_radius = 1.5;
    grit_scene *s = grit_scene_create(&d);
    const grit_concretemat_def m = fx_concrete();
    const int mat = grit_add_concretemat(s, &m);
    unsigned long long rng = 77;
    const int n = 11;
    const double R = 1e-3, h = 2 * R, xc = 0.5 * (n - 1) * h;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            for (int k = 0; k < n; k++) {
                grit_sphere_def sd = grit_default_sphere_def();
                /* draws in GCC's order, last argument first (fixture.h, fx_rand) */
                const double jz = fx_rand(&rng) - 0.5, jy = fx_rand(&rng) - 0.5, jx = fx_rand(&rng) - 0.5;
                sd.pos = v3(i * h + 0.04 * R * jx, j * h + 0.04 * R * jy, k * h + 0.04 * R * jz);
                sd.vel = v3(3000.0 * (sd.pos.x - xc), 0, 0);
                sd.radius = R;
                sd.material = mat;
                CHECK(grit_add_sphere(s, &sd) >= 0);
            }
    return s;
}

static void concrete_run(grit_scene *s, long to)
{
    for (long k = grit_step_count(s); k < to; k++) {
        CHECK(grit_step(s, 1) == GRIT_OK);
        if (k == 0) { /* the bonds are made at the first step */
            grit_scene_def d = *grit_scene_get_def(s);
            d.interaction_radius = 1.0;
            CHECK(grit_scene_set_def(s, &d) == GRIT_OK);
        }
    }
}

static void concrete(void)
{
    grit_scene *ref = same_with_threads(concrete_block, concrete_run, 300, "concrete");
    fprintf(stderr, "concrete: %d contacts (%d real)\n", ref->c.n, ref->c.n_real);
    CHECK(ref->c.n_real > 5000); /* cohesive bonds stretched (none breaks in these steps) */
    grit_scene_destroy(ref);
}

static void thread_count_api(void)
{
    grit_scene *s = grit_scene_create(NULL);
    CHECK(grit_threads(s) >= 1);
    CHECK(grit_set_threads(s, 3) == GRIT_OK && grit_threads(s) == 3);
    CHECK(grit_set_threads(s, -1) == GRIT_EINVAL && grit_threads(s) == 3);
    CHECK(strstr(grit_last_error(s), "threads = -1") != NULL);
    CHECK(grit_set_threads(s, 0) == GRIT_OK && grit_threads(s) >= 1);
    grit_scene_destroy(s);
}

/* The automatic count (core/threads_tune.c) changes the count between
 * steps; with windows of two steps and no minimum duration it does so every
 * few steps here, among 1, 2 and 4. The run is still the 1-thread run's bytes. */
static void automatic_count(void)
{
    grit_scene *ref = pile_idealelpl();
    CHECK(grit_set_threads(ref, 1) == GRIT_OK);
    ref->par_min = 1;
    plain_run(ref, 60);
    grit_scene *s = pile_idealelpl();
    CHECK(grit_set_threads(s, 0) == GRIT_OK);
    s->par_min = 1;
    s->tune_on = 1; /* automatic whatever OMP_NUM_THREADS and the cores say */
    grit_tune_init(&s->tune, 4);
    s->tune.window = 2;
    s->tune.min_seconds = 0;
    int seen[5] = {0};
    for (long k = 0; k < 60; k++) {
        seen[grit_threads(s)]++;
        CHECK(grit_step(s, 1) == GRIT_OK);
    }
    fprintf(stderr, "automatic: steps at 1/2/4 threads %d/%d/%d\n", seen[1], seen[2], seen[4]);
    CHECK(seen[2] > 0 && seen[4] > 0); /* the count did change */
    grit_stats st;
    grit_get_stats(s, &st);
    CHECK(st.threads_steps == 60 && st.threads_mean > 1 && st.threads_mean <= 4);
    const int bad = fx_state_diff(ref, s, "automatic");
    CHECK(bad == 0);
    /* a count set by hand ends the automatic one */
    CHECK(grit_set_threads(s, 2) == GRIT_OK && grit_threads(s) == 2);
    CHECK(grit_step(s, 4) == GRIT_OK && grit_threads(s) == 2);
    grit_scene_destroy(s);
    grit_scene_destroy(ref);
}

int main(void)
{
    RUN(thread_count_api);
    RUN(automatic_count);
    RUN(deposit);
    RUN(kuhn_bed);
    RUN(hertz_bed);
    RUN(mixed_shapes);
    RUN(periodic_shear);
    RUN(concrete);
    return test_failures ? 1 : 0;
}
