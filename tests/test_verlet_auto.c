/* The automatic Verlet distance (verlet_dist = nan, collide/verlet_auto.c):
 * the model's choices, the skin within its bounds in a flowing scene, no
 * contact missed against a run that rebuilds at every step, the same bytes
 * with 1 to 4 threads, and a user's skin kept exactly. Restart files
 * continue bitwise: test_restart.c (bitwise_restart_auto). */
#include <stdint.h>
#include <unistd.h>

#include "collide/verlet_auto.h"
#include "core/scene_impl.h"
#include "core/threads.h"
#include "grit/grit.h"
#include "grit/restart.h"
#include "fixture.h"
#include "test.h"

/* A deposit of n spheres thrown down at up to `speed` m/s into a box. */
static grit_scene *flow(int n, int per_row, double pitch, double box, double speed, double skin)
{
    const fx_pile_def p = {GRIT_LAW_IDEALELPL, n, per_row, pitch, box, speed, false, false};
    grit_scene *s = fx_pile(&p);
    grit_scene_def d = *grit_scene_get_def(s);
    d.verlet_dist = skin;
    CHECK(grit_scene_set_def(s, &d) == GRIT_OK);
    return s;
}

static double min_radius(const grit_scene *s) { return grit_min_radius(s); }

/* The model alone: no motion, the thinnest skin (a rebuild is free); fast
 * motion, the widest; in between a skin where neither term dominates. */
static void model_choices(void)
{
    const double r = 1e-3;
    const int n = 20000;
    const double pairs = 108000, s0 = 0.05 * r; /* box-20000 dense at the default skin */
    /* no motion: the cost grows with the skin */
    CHECK(grit_verlet_auto_cost(0.02 * r, n, pairs, s0, r, 0) < grit_verlet_auto_cost(0.05 * r, n, pairs, s0, r, 0));
    CHECK(grit_verlet_auto_cost(0.05 * r, n, pairs, s0, r, 0) < grit_verlet_auto_cost(1.0 * r, n, pairs, s0, r, 0));
    /* a hundredth of a radius per step (the silo's flow rebuilt every 4.6 steps at 0.05 r): wider pays */
    const double d = 0.0109 * r;
    const double t05 = grit_verlet_auto_cost(0.05 * r, n, pairs, s0, r, d);
    const double t30 = grit_verlet_auto_cost(0.3 * r, n, pairs, s0, r, d);
    printf("  flow of 0.011 r per step: cost per step at 0.05 r %.4g, at 0.3 r %.4g (ratio %.2f)\n", t05, t30,
           t05 / t30);
    CHECK(t30 < 0.5 * t05);
    /* the count at the current skin is reproduced there: a sparse scene's K */
    const double sparse = 50; /* pairs among 20000 particles */
    CHECK(grit_verlet_auto_cost(s0, n, sparse, s0, r, 0) < 7.0 * sparse * 1.0000001);
}

/* A flow: the skin at every step within 0.02 .. 1 r_min, and it changes. */
static void bounds_in_flow(void)
{
    grit_scene *s = flow(400, 10, 0.026, 0.27, 2.0, NAN);
    const double rmin = min_radius(s);
    double lo = INFINITY, hi = 0;
    int changes = 0;
    double last = NAN;
    for (int k = 0; k < 2000; k++) {
        CHECK(grit_step(s, 1) == GRIT_OK);
        grit_stats st;
        grit_get_stats(s, &st);
        lo = fmin(lo, st.verlet_dist);
        hi = fmax(hi, st.verlet_dist);
        if (!isnan(last) && st.verlet_dist != last) changes++;
        last = st.verlet_dist;
    }
    grit_stats st;
    grit_get_stats(s, &st);
    printf("  400 spheres thrown at 2 m/s, 2000 steps: skin %.3g .. %.3g r_min, %d changes, %ld rebuilds\n",
           lo / rmin, hi / rmin, changes, st.rebuilds);
    CHECK(lo >= GRIT_VERLET_AUTO_MIN * rmin * (1 - 1e-12));
    CHECK(hi <= GRIT_VERLET_AUTO_MAX * rmin * (1 + 1e-12));
    CHECK(changes >= 1 && hi > lo);
    /* hysteresis: not a new skin at every rebuild */
    CHECK(changes < st.rebuilds / 2);
    grit_scene_destroy(s);
}

/* Every real contact of the run that rebuilds at every step (skin 0) is a
 * real contact of the automatic run, step by step, with the same force
 * within rounding (the two sum contacts in other orders). */
static void no_contact_missed(void)
{
    grit_scene *a = flow(400, 10, 0.026, 0.27, 2.0, NAN), *b = flow(400, 10, 0.026, 0.27, 2.0, 0.0);
    int checked = 0;
    double worst = 0;
    long rebuilds_a = 0;
    for (int k = 0; k < 400; k++) {
        CHECK(grit_step(a, 1) == GRIT_OK && grit_step(b, 1) == GRIT_OK);
        CHECK(grit_contact_count(a) == grit_contact_count(b));
        grit_contact_info ib, ia;
        int cur = 0;
        double fmax_ = 0;
        while (grit_contact_next(b, &cur, &ib)) fmax_ = fmax(fmax_, v3_norm(ib.force_global));
        cur = 0;
        while (grit_contact_next(b, &cur, &ib)) {
            const int q = grit_contact_find(a, ib.id_a, ib.id_b);
            CHECK(q >= 0);
            if (q < 0) {
                fprintf(stderr, "step %d: contact %d-%d missed\n", k + 1, ib.id_a, ib.id_b);
                break;
            }
            CHECK(grit_contact_get(a, q, &ia) == GRIT_OK);
            const grit_vec3 fa = ia.id_a == ib.id_a ? ia.force_global : v3_scale(ia.force_global, -1.0);
            worst = fmax(worst, v3_norm(v3_sub(fa, ib.force_global)) / fmax(fmax_, 1e-300));
            checked++;
        }
    }
    grit_stats sa, sb;
    grit_get_stats(a, &sa);
    grit_get_stats(b, &sb);
    rebuilds_a = sa.rebuilds;
    printf("  400 steps: %d contact-steps compared, largest force difference %.2g of the largest force; "
           "rebuilds %ld (auto, skin now %.3g m) against %ld\n",
           checked, worst, rebuilds_a, sa.verlet_dist, sb.rebuilds);
    CHECK(checked > 10000);
    /* rounding (1e-16) grown by the collisions over 400 steps: 7e-9 measured */
    CHECK(worst < 1e-7);
    CHECK(sb.rebuilds == 400 && rebuilds_a < 100);
    grit_scene_destroy(a);
    grit_scene_destroy(b);
}

/* The same bytes with 1, 2, 3 and 4 threads: the choice reads counts and
 * displacements, not the clock. */
static grit_scene *big_flow(void) { return flow(2400, 20, 0.0185, 0.5, 2.0, NAN); }

static void same_bytes_any_threads(void)
{
    grit_scene *ref = big_flow();
    CHECK(grit_set_threads(ref, 1) == GRIT_OK);
    ref->par_min = 1;
    CHECK(grit_step(ref, 200) == GRIT_OK);
    grit_stats st;
    grit_get_stats(ref, &st);
    for (int t = 2; t <= 4; t++) {
        grit_scene *s = big_flow();
        CHECK(grit_set_threads(s, t) == GRIT_OK);
        s->par_min = 1;
        CHECK(grit_step(s, 200) == GRIT_OK);
        grit_stats ss;
        grit_get_stats(s, &ss);
        CHECK(ss.rebuilds == st.rebuilds && ss.verlet_dist == st.verlet_dist);
        const int bad = fx_state_diff(ref, s, "auto skin");
        if (bad) fprintf(stderr, "%d threads differ from 1 thread (%d fields)\n", t, bad);
        CHECK(bad == 0);
        grit_scene_destroy(s);
    }
    printf("  2400 spheres, 200 steps: %ld rebuilds, skin %.3g m, same bytes with 1-4 threads\n", st.rebuilds,
           st.verlet_dist);
    grit_scene_destroy(ref);
}

/* A capsule spinning in place among spheres (test_broadphase_shapes.c):
 * only its rotation triggers rebuilds, and the automatic skin must see that
 * motion (the surface's move, not the centre's, which is zero) and widen. */
static void spinning_capsule(void)
{
    long rebuilds[2];
    double skin[2];
    for (int q = 0; q < 2; q++) {
        grit_scene_def sd = grit_default_scene_def();
        sd.dt = 1e-4;
        sd.verlet_dist = q ? NAN : -0.05;
        grit_scene *s = fx_scene(&sd);
        const int m = fx_mat(s, 1e6, 0.2, 0.5);
        grit_capsule_def c = grit_default_capsule_def();
        c.radius = 0.03;
        c.shaft = 1.0;
        c.angvel = v3(0, 0, 5);
        c.blocked = GRIT_BLOCK_X | GRIT_BLOCK_Y | GRIT_BLOCK_Z;
        c.material = m;
        CHECK(grit_add_capsule(s, &c) >= 0);
        for (int k = 0; k < 12; k++) {
            const double a = 2 * M_PI * (k + 0.5) / 12;
            grit_sphere_def d = grit_default_sphere_def();
            d.radius = 0.03;
            d.pos = v3(0.54 * cos(a), 0.54 * sin(a), 0);
            d.blocked = GRIT_BLOCK_ALL;
            d.material = m;
            CHECK(grit_add_sphere(s, &d) >= 0);
        }
        CHECK(grit_step(s, 3000) == GRIT_OK);
        grit_stats st;
        grit_get_stats(s, &st);
        rebuilds[q] = st.rebuilds;
        skin[q] = st.verlet_dist;
        grit_scene_destroy(s);
    }
    printf("  spinning capsule, 3000 steps: %ld rebuilds at 0.05 r (%.3g m), %ld automatic (skin %.3g m)\n",
           rebuilds[0], skin[0], rebuilds[1], skin[1]);
    CHECK(skin[1] > skin[0]);
    CHECK(rebuilds[1] < rebuilds[0] / 2);
}

/* A user's skin, absolute or relative, is used as given at every rebuild. */
static void user_skin_kept(void)
{
    const double skins[2] = {2e-4, -0.3};
    for (int q = 0; q < 2; q++) {
        grit_scene *s = flow(400, 10, 0.026, 0.27, 2.0, skins[q]);
        const double want = skins[q] > 0 ? skins[q] : -skins[q] * min_radius(s);
        for (int k = 0; k < 10; k++) {
            CHECK(grit_step(s, 50) == GRIT_OK);
            grit_stats st;
            grit_get_stats(s, &st);
            CHECK(st.verlet_dist == want);
        }
        grit_scene_destroy(s);
    }
}

int main(void)
{
    RUN(model_choices);
    RUN(bounds_in_flow);
    RUN(no_contact_missed);
    RUN(same_bytes_any_threads);
    RUN(spinning_capsule);
    RUN(user_skin_kept);
    TEST_MAIN_END();
}
