/* id_order: a run's particles and contacts do not depend on where they sit
 * in memory. The same deposit is run with other Verlet distances (other
 * rebuild steps and candidate lists), other re-sort periods (other particle
 * orders) and other thread counts: the same bits, particle by particle and
 * contact by contact. Without id_order the same changes move the last bits
 * (which is what makes the check meaningful). */
#include "by_id.h"
#include "fixture.h"
#include "grit/grit.h"
#include "grit/restart.h"
#include "test.h"

typedef struct variant {
    bool id_order;
    double verlet; /* verlet_dist */
    int sort_period, threads;
} variant;

static grit_scene *run(int law, int n, long steps, variant v)
{
    const fx_pile_def p = {law, n, 12, 0.0245, 0.3, 0.1, law == GRIT_LAW_HERTZ, false};
    grit_scene *s = fx_pile(&p);
    s->def.id_order = v.id_order;
    s->def.verlet_dist = v.verlet;
    s->def.sort_period = v.sort_period;
    CHECK(grit_set_threads(s, v.threads) == GRIT_OK);
    s->par_min = 1; /* every loop split, however small */
    CHECK(grit_step(s, steps) == GRIT_OK);
    return s;
}

static void same_bits(int law, const char *what)
{
    const long steps = law == GRIT_LAW_HERTZ ? 3000 : 1500; /* (Hertz's step is shorter) */
    const int n = 432; /* two layers on the floor once settled */
    grit_scene *ref = run(law, n, steps, (variant){true, -0.05, 25, 1});
    const variant other[] = {
        {true, -0.3, 25, 1}, /* other rebuild steps */
        {true, -0.05, 3, 1}, /* sorted almost every rebuild */
        {true, 0.0, 0, 3},   /* rebuilt every step, never sorted, 3 threads */
    };
    for (size_t k = 0; k < sizeof other / sizeof other[0]; k++) {
        grit_scene *s = run(law, n, steps, other[k]);
        int bad = byid_diff(ref, s, what);
        if (bad) fprintf(stderr, "%s: variant %zu differs in %d items\n", what, k, bad);
        CHECK(bad == 0);
        CHECK(s->stats.rebuilds != ref->stats.rebuilds || s->stats.sorts != ref->stats.sorts || k == 2);
        grit_scene_destroy(s);
    }
    int real = 0;
    for (int k = 0; k < ref->c.n; k++) real += (ref->c.pair[k].flags & CF_REAL) != 0;
    fprintf(stderr, "%s: t = %g s (dt %g), %d particles, %d real contacts, %ld rebuilds, %ld sorts\n", what, ref->time, ref->dt, ref->b.n, real,
            ref->stats.rebuilds, ref->stats.sorts);
    CHECK(real > n / 2); /* a bed on the floor, not a gas */
    grit_scene_destroy(ref);
}

static void idealelpl(void) { same_bits(GRIT_LAW_IDEALELPL, "idealelpl"); }
static void kuhn(void) { same_bits(GRIT_LAW_KUHN, "kuhn"); }
static void hertz(void) { same_bits(GRIT_LAW_HERTZ, "hertz"); }

/* A restart file of an id_order run keeps it: saved half way, loaded and
 * continued, the same bits as the run that never stopped. */
static void restart(void)
{
    const variant v = {true, -0.05, 25, 1};
    grit_scene *ref = run(GRIT_LAW_KUHN, 432, 1500, v);
    grit_scene *a = run(GRIT_LAW_KUHN, 432, 700, v);
    const char *path = "test_id_order.grit";
    CHECK(grit_save(a, path) == GRIT_OK);
    grit_scene_destroy(a);
    grit_scene *b = grit_scene_load(path);
    CHECK(b != NULL);
    if (b) {
        CHECK(b->def.id_order);
        CHECK(grit_step(b, 800) == GRIT_OK);
        CHECK(byid_diff(ref, b, "restart") == 0);
        grit_scene_destroy(b);
    }
    remove(path);
    grit_scene_destroy(ref);
}

/* Without id_order another Verlet distance changes the last bits: the
 * variants above test something. */
static void contact_order_differs(void)
{
    grit_scene *a = run(GRIT_LAW_IDEALELPL, 432, 1500, (variant){false, -0.05, 25, 1});
    grit_scene *b = run(GRIT_LAW_IDEALELPL, 432, 1500, (variant){false, -0.3, 3, 1});
    CHECK(byid_diff(a, b, "contact order (differences expected)") > 0);
    grit_scene_destroy(a);
    grit_scene_destroy(b);
}

int main(void)
{
    RUN(idealelpl);
    RUN(kuhn);
    RUN(hertz);
    RUN(restart);
    RUN(contact_order_differs);
    return test_failures ? 1 : 0;
}
