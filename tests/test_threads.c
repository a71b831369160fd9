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

static unsigned long long rng;
static double rnd(void) { return fx_rand(&rng); }

/* A box of walls, a plate (facet) above the floor, n spheres of two
 * materials with a pair override dropped into it: a deposit with rebuilds
 * and re-sorts. */
static grit_scene *pile(int law, int n)
{
    rng = 88172645463325252ull;
    grit_scene_def d = grit_default_scene_def();
    d.gravity = v3(0, 0, -9.81);
    d.track_energy = true;
    d.sort_period = 25;
    d.damping = 0.3;
    grit_scene *s = grit_scene_create(&d);
    grit_frictmat_def m = grit_default_frictmat_def();
    m.law = law;
    m.young = 1e7;
    m.density = 2600;
    m.tan_phi = 0.5;
    int m0 = grit_add_frictmat(s, &m);
    m.tan_phi = 0.3;
    int m1 = grit_add_frictmat(s, &m);
    grit_pair_def pd = grit_default_pair_def();
    pd.cn = 0.5;
    pd.tan_phi = 0.4;
    CHECK(grit_set_pair(s, m0, m1, &pd) == GRIT_OK);
    const double L = 0.5;
    for (int k = 0; k < 5; k++) {
        grit_wall_def w = grit_default_wall_def();
        w.axis = k < 4 ? k / 2 : 2;
        w.coord = k < 4 ? (k % 2) * L : 0.0;
        w.material = m0;
        CHECK(grit_add_wall(s, &w) >= 0);
    }
    grit_facet_def fd = grit_default_facet_def();
    fd.v[0] = v3(0, 0, 0.001);
    fd.v[1] = v3(L, 0, 0.001);
    fd.v[2] = v3(0, L, 0.001);
    fd.material = m1;
    CHECK(grit_add_facet(s, &fd) >= 0);
    for (int i = 0; i < n; i++) {
        grit_sphere_def sd = grit_default_sphere_def();
        sd.radius = 0.008 + 0.004 * rnd();
        sd.pos = v3(0.013 + 0.0185 * (i % 20), 0.013 + 0.0185 * ((i / 20) % 20), 0.013 + 0.0185 * (i / 400));
        sd.vel = v3(0.4 * (rnd() - 0.5), 0.4 * (rnd() - 0.5), -0.4 * rnd());
        sd.angvel = v3(10 * rnd(), 0, 0);
        sd.material = i % 3 ? m0 : m1;
        CHECK(grit_add_sphere(s, &sd) >= 0);
    }
    return s;
}

/* Everything a later step reads, bit for bit. */
static int same_state(const grit_scene *a, const grit_scene *b)
{
    int bad = 0;
    if (a->step != b->step || a->b.n != b->b.n || a->c.n != b->c.n) return 1;
    const size_t n = (size_t)a->b.n;
    bad += memcmp(a->b.pr, b->b.pr, n * sizeof *a->b.pr) != 0;
    bad += memcmp(a->b.vw, b->b.vw, n * sizeof *a->b.vw) != 0;
    bad += memcmp(a->b.ft, b->b.ft, n * sizeof *a->b.ft) != 0;
    bad += memcmp(a->b.ori, b->b.ori, n * sizeof *a->b.ori) != 0;
    bad += memcmp(a->b.id, b->b.id, n * sizeof *a->b.id) != 0;
    bad += memcmp(a->c.pair, b->c.pair, (size_t)a->c.n * sizeof *a->c.pair) != 0;
    for (int k = 0; k < a->c.n; k++)
        if (a->c.pair[k].flags & CF_REAL) {
            bad += memcmp(&a->c.phys[k], &b->c.phys[k], sizeof a->c.phys[k]) != 0;
            bad += memcmp(&a->c.geom[k], &b->c.geom[k], sizeof a->c.geom[k]) != 0;
        }
    bad += memcmp(a->energy, b->energy, sizeof a->energy) != 0;
    bad += a->time != b->time || a->dt != b->dt;
    return bad;
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
    run(ref, steps);
    CHECK(ref->b.n > GRIT_PCHUNK || ref->c.n > GRIT_CCHUNK); /* the loops are split */
    for (int t = 2; t <= 4; t++) {
        grit_scene *s = make();
        CHECK(grit_set_threads(s, t) == GRIT_OK && grit_threads(s) == t);
        run(s, steps);
        int bad = same_state(ref, s);
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
    run(a, at);
    CHECK(grit_save(a, path) == GRIT_OK);
    grit_scene_destroy(a);
    grit_scene *b = grit_scene_load(path);
    CHECK(b != NULL);
    if (!b) return;
    CHECK(grit_set_threads(b, 1) == GRIT_OK);
    run(b, to);
    int bad = same_state(ref, b);
    if (bad) fprintf(stderr, "%s: restart (3 threads -> 1) differs (%d fields)\n", what, bad);
    CHECK(bad == 0);
    grit_scene_destroy(b);
    unlink(path);
}

static grit_scene *pile_idealelpl(void) { return pile(GRIT_LAW_IDEALELPL, 2400); }

static void deposit(void)
{
    grit_scene *ref = same_with_threads(pile_idealelpl, plain_run, 60, "deposit");
    fprintf(stderr, "deposit: %d particles, %d contacts (%d real)\n", ref->b.n, ref->c.n, ref->c.n_real);
    CHECK(ref->c.n_real > 1000); /* the spheres touch */
    restart_across(pile_idealelpl, plain_run, 30, 60, ref, "deposit");
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

int main(void)
{
    RUN(thread_count_api);
    RUN(deposit);
    return test_failures ? 1 : 0;
}
