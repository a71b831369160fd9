/* The broad phase: acceptance test T27 of the linear-model spec, and the
 * property that it never misses a contact (every pair of shapes that
 * overlap after a step is a real contact), checked against the brute-force
 * overlap list on random scenes with sorting on. */
#include "fixture.h"

static void t27_skin_pairs(void)
{
    const double dist[2] = {0.205, 0.215};
    for (int k = 0; k < 2; k++) {
        grit_scene *s = fx_scene_dt(1e-4);
        int m = fx_mat(s, 1e7, 0.2, 0.5);
        fx_sphere(s, m, v3(0, 0, 0), 0.1, v3_zero());
        fx_sphere(s, m, v3(dist[k], 0, 0), 0.1, v3_zero());
        CHECK(grit_step(s, 1) == GRIT_OK);
        grit_stats st;
        grit_get_stats(s, &st);
        CHECK_REL(st.verlet_dist, 0.005, 1e-15); /* 0.05 of the smallest radius */
        int pairs[4];
        CHECK(grit_potential_pairs(s, pairs, 2) == (k == 0 ? 1 : 0));
        CHECK(grit_contact_count(s) == 0); /* 0.205: u_N = +0.005, not real */
        CHECK(grit_brute_force_overlaps(s, pairs, 2) == 0);
        grit_scene_destroy(s);
    }
}

/* A lone sphere at 1 m/s with dt = 1e-4 moves the skin 0.005 in 50 steps. */
static void t27_rebuild_period(void)
{
    grit_scene *s = fx_scene_dt(1e-4);
    int m = fx_mat(s, 1e7, 0.2, 0.5);
    fx_sphere(s, m, v3(0, 0, 0), 0.1, v3(1, 0, 0));
    long last = -1, intervals = 0;
    grit_stats st;
    for (long k = 0; k < 1000; k++) {
        grit_get_stats(s, &st);
        long before = st.rebuilds;
        CHECK(grit_step(s, 1) == GRIT_OK);
        grit_get_stats(s, &st);
        if (st.rebuilds == before) continue;
        CHECK(st.rebuilds == before + 1);
        if (last >= 0) {
            CHECK(k - last == 50 || k - last == 51);
            intervals++;
        }
        last = k;
    }
    CHECK(intervals >= 18);
    grit_scene_destroy(s);
}

static void t27_facets_never_collide(void)
{
    grit_scene *s = fx_scene_dt(1e-4);
    int m = fx_mat(s, 1e7, 0.2, 0.5);
    fx_facet(s, m, v3(0, 0, 0), v3(1, 0, 0), v3(0, 1, 0), 0.05);
    fx_facet(s, m, v3(0.1, 0.1, -0.5), v3(0.1, 0.1, 0.5), v3(0.6, 0.1, 0), 0.05);
    fx_wall(s, m, 2, 0.0, 0);
    fx_sphere(s, m, v3(5, 5, 5), 0.1, v3_zero()); /* something with a p-wave step */
    CHECK(grit_step(s, 2) == GRIT_OK);
    int pairs[8];
    CHECK(grit_potential_pairs(s, pairs, 4) == 0);
    CHECK(grit_contact_count(s) == 0);
    grit_scene_destroy(s);
}

/* Every overlapping pair is a real contact; returns the number of misses. */
static int count_misses(grit_scene *s, int *buf, int cap)
{
    int n = grit_brute_force_overlaps(s, buf, cap);
    CHECK(n <= cap);
    int miss = 0;
    for (int k = 0; k < n && k < cap; k++)
        if (grit_contact_find(s, buf[2 * k], buf[2 * k + 1]) < 0) {
            if (miss == 0)
                fprintf(stderr, "  step %ld: overlap %d-%d is not a contact\n", grit_step_count(s), buf[2 * k],
                        buf[2 * k + 1]);
            miss++;
        }
    return miss;
}

/* Random scene in the unit box: walls on all six sides (acting inwards),
 * thin and thick facets (some moving, one spinning), spheres of radii
 * 0.01-0.04 with random velocities, gravity. */
static grit_scene *random_scene(unsigned long long seed, int sort_period, int n_spheres)
{
    grit_scene_def d = grit_default_scene_def();
    d.gravity = v3(0, 0, -50); /* strong, and damped, to pile up within a short run */
    d.damping = 0.3;
    d.sort_period = sort_period;
    d.dt_safety = 0.5;
    grit_scene *s = fx_scene(&d);
    int m = fx_mat(s, 1e6, 0.2, 0.4);
    for (int ax = 0; ax < 3; ax++) {
        fx_wall(s, m, ax, 0.0, +1);
        fx_wall(s, m, ax, 1.0, -1);
    }
    unsigned long long st = seed;
    for (int f = 0; f < 6; f++) {
        /* draws in GCC's order, last argument first (fixture.h, fx_rand) */
        const double cz = fx_rand(&st), cy = fx_rand(&st), cx = fx_rand(&st);
        grit_vec3 c = v3(0.2 + 0.6 * cx, 0.2 + 0.6 * cy, 0.1 + 0.6 * cz);
        grit_vec3 v[3];
        for (int k = 0; k < 3; k++) {
            const double dz = fx_rand(&st), dy = fx_rand(&st), dx = fx_rand(&st);
            v[k] = v3_add(c, v3(0.3 * (dx - 0.5), 0.3 * (dy - 0.5), 0.3 * (dz - 0.5)));
        }
        int id = fx_facet(s, m, v[0], v[1], v[2], f % 2 ? 0.02 * fx_rand(&st) : 0.0);
        if (f == 1) CHECK(grit_set_vel(s, id, v3(0.05, -0.05, 0.02)) == GRIT_OK);
        if (f == 2) CHECK(grit_set_angvel(s, id, v3(0.0, 0.0, 3.0)) == GRIT_OK);
    }
    /* spheres without initial overlap among themselves */
    grit_vec3 pos[1024];
    double rad[1024];
    int n = 0;
    while (n < n_spheres && n < 1024) {
        double r = 0.01 + 0.03 * fx_rand(&st);
        /* draws in GCC's order, last argument first (fixture.h, fx_rand) */
        const double pz = fx_rand(&st), py = fx_rand(&st), px = fx_rand(&st);
        grit_vec3 p = v3(r + (1 - 2 * r) * px, r + (1 - 2 * r) * py, r + (1 - 2 * r) * pz);
        bool ok = true;
        for (int j = 0; j < n && ok; j++) ok = v3_norm(v3_sub(p, pos[j])) > r + rad[j];
        if (!ok) continue;
        pos[n] = p;
        rad[n] = r;
        const double vz = fx_rand(&st), vy = fx_rand(&st), vx = fx_rand(&st);
        grit_vec3 v = v3(2 * vx - 1, 2 * vy - 1, 2 * vz - 1);
        fx_sphere(s, m, p, r, v);
        n++;
    }
    return s;
}

static void broadphase_never_misses(void)
{
    static int buf[2 * 20000];
    const struct {
        unsigned long long seed;
        int sort_period;
    } runs[] = {{12345, 1}, {987654321, 7}, {42, 100}};
    for (size_t r = 0; r < sizeof runs / sizeof runs[0]; r++) {
        grit_scene *s = random_scene(runs[r].seed, runs[r].sort_period, 160);
        int misses = 0, max_overlaps = 0;
        for (int k = 0; k < 1200 && misses == 0; k++) {
            CHECK(grit_step(s, 1) == GRIT_OK);
            misses += count_misses(s, buf, 20000);
            max_overlaps = (int)fmax(max_overlaps, grit_contact_count(s));
        }
        CHECK(misses == 0);
        grit_stats st;
        grit_get_stats(s, &st);
        CHECK(st.sorts > 1);            /* sorting did reorder during the run */
        CHECK(st.rebuilds < 1200);      /* the skin saved rebuilds */
        CHECK(max_overlaps > 20);       /* the scene had contacts to miss */
        grit_scene_destroy(s);
    }
}

/* A facet spinning about its centroid moves its vertices without moving its
 * node: the skin criterion must see that motion too. Nothing else moves, so
 * no other particle triggers a rebuild. */
static void spinning_facet_sweeps_into_spheres(void)
{
    static int buf[2 * 1000];
    grit_scene_def d = grit_default_scene_def();
    d.dt = 1e-4;
    grit_scene *s = fx_scene(&d);
    int m = fx_mat(s, 1e6, 0.2, 0.4);
    int f = fx_facet(s, m, v3(-0.5, -0.1, 0), v3(0.5, -0.1, 0), v3(0, 0.2, 0), 0.01);
    CHECK(grit_set_angvel(s, f, v3(0, 0, 10)) == GRIT_OK);
    for (int k = 0; k < 12; k++) {
        double a = 2 * M_PI * k / 12;
        int id = fx_sphere(s, m, v3(0.3 * cos(a), 0.3 * sin(a), 0.035), 0.03, v3_zero());
        CHECK(grit_set_blocked(s, id, GRIT_BLOCK_ALL) == GRIT_OK);
    }
    int misses = 0, touched = 0;
    for (int k = 0; k < 700 && misses == 0; k++) { /* 0.7 rad */
        CHECK(grit_step(s, 1) == GRIT_OK);
        misses += count_misses(s, buf, 1000);
        touched += grit_contact_count(s) > 0;
    }
    CHECK(misses == 0);
    CHECK(touched > 0);
    grit_scene_destroy(s);
}

/* Two runs of the same scene give bitwise identical states. */
static void runs_are_bitwise_identical(void)
{
    grit_vec3 pos[2][400], vel[2][400];
    int n[2];
    double en[2][GRIT_E_COUNT];
    for (int r = 0; r < 2; r++) {
        grit_scene *s = random_scene(777, 5, 120);
        grit_scene_def d = *grit_scene_get_def(s);
        d.track_energy = true;
        d.damping = 0.1;
        CHECK(grit_scene_set_def(s, &d) == GRIT_OK);
        CHECK(grit_step(s, 800) == GRIT_OK);
        n[r] = grit_particle_count(s);
        for (int id = 0; id < n[r] && id < 400; id++) {
            grit_get_pos(s, id, &pos[r][id]);
            grit_get_vel(s, id, &vel[r][id]);
        }
        for (int k = 0; k < GRIT_E_COUNT; k++) en[r][k] = grit_energy(s, k);
        grit_scene_destroy(s);
    }
    CHECK(n[0] == n[1] && n[0] > 100);
    CHECK(memcmp(pos[0], pos[1], sizeof(grit_vec3) * (size_t)n[0]) == 0);
    CHECK(memcmp(vel[0], vel[1], sizeof(grit_vec3) * (size_t)n[0]) == 0);
    CHECK(memcmp(en[0], en[1], sizeof en[0]) == 0);
}

int main(void)
{
    RUN(t27_skin_pairs);
    RUN(t27_rebuild_period);
    RUN(t27_facets_never_collide);
    RUN(broadphase_never_misses);
    RUN(spinning_facet_sweeps_into_spheres);
    RUN(runs_are_bitwise_identical);
    TEST_MAIN_END();
}
