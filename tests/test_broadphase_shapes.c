/* The broad phase never misses a contact with the new shapes: after every
 * step, every pair whose shapes overlap (brute force over all pairs) is a
 * real contact. Includes bodies that only rotate (spec 9.1, maxRot). */
#include "shapes_util.h"

static unsigned long long rng_state = 12345;
static double urand(void) /* [0, 1) */
{
    rng_state = rng_state * 6364136223846793005ULL + 1442695040888963407ULL;
    return (double)(rng_state >> 11) * (1.0 / 9007199254740992.0);
}
static double urange(double a, double b) { return a + (b - a) * urand(); }
/* three draws, z first: GCC's order of v3()'s arguments, which C leaves open
 * (Clang's builds drew x first and made another scene; fixture.h, fx_rand) */
static grit_vec3 urand3(double a)
{
    const double z = urange(-a, a), y = urange(-a, a);
    return v3(urange(-a, a), y, z);
}
static grit_vec3 urange3(grit_vec3 lo, grit_vec3 hi)
{
    const double z = urange(lo.z, hi.z), y = urange(lo.y, hi.y);
    return v3(urange(lo.x, hi.x), y, z);
}

/* All overlapping pairs are real contacts; returns how many there were. */
static int check_no_miss(grit_scene *s, long step)
{
    enum { CAP = 4096 };
    static int pairs[2 * CAP];
    int n = grit_brute_force_overlaps(s, pairs, CAP);
    CHECK(n <= CAP);
    for (int k = 0; k < n && k < CAP; k++)
        if (grit_contact_find(s, pairs[2 * k], pairs[2 * k + 1]) < 0) {
            fprintf(stderr, "%s: step %ld: overlapping pair (%d %s, %d %s) missed\n", test_current, step,
                    pairs[2 * k], grit_shape_name(grit_get_shape(s, pairs[2 * k])), pairs[2 * k + 1],
                    grit_shape_name(grit_get_shape(s, pairs[2 * k + 1])));
            test_failures++;
            return n;
        }
    return n;
}

/* A long thin capsule spinning in place among fixed spheres: its centre
 * never moves, so only the rotation criterion can trigger the rebuilds
 * that bring the spheres into its candidate list. */
static void spinning_capsule(void)
{
    grit_scene *s = su_scene(NAN, v3(0, 0, 0), 0);
    int m = su_mat(s, 1e7, 1000);
    grit_capsule_def c = grit_default_capsule_def();
    c.radius = 0.03;
    c.shaft = 1.0;
    c.angvel = v3(0, 0, 5);
    c.blocked = GRIT_BLOCK_X | GRIT_BLOCK_Y | GRIT_BLOCK_Z;
    c.material = m;
    int cid = grit_add_capsule(s, &c);
    for (int k = 0; k < 12; k++) {
        double a = 2 * M_PI * (k + 0.5) / 12;
        grit_sphere_def d = grit_default_sphere_def();
        d.radius = 0.03;
        d.pos = v3(0.54 * cos(a), 0.54 * sin(a), 0);
        d.blocked = GRIT_BLOCK_ALL;
        d.material = m;
        grit_add_sphere(s, &d);
    }
    int hits = 0;
    for (long k = 0; k < 3000; k++) {
        CHECK(grit_step(s, 1) == GRIT_OK);
        hits += check_no_miss(s, k) > 0;
    }
    grit_stats st;
    grit_get_stats(s, &st);
    grit_vec3 x;
    grit_get_pos(s, cid, &x);
    CHECK_VEC(x, 0, 0, 0, 0);
    CHECK(hits > 10);        /* the tips did hit spheres */
    CHECK(st.rebuilds > 10);   /* rotation alone triggered rebuilds... */
    CHECK(st.rebuilds < 1500); /* ...but not at every step */
    printf("  %d steps with contacts, %ld rebuilds\n", hits, st.rebuilds);
    grit_scene_destroy(s);
}

/* Every shape, moving and rotating, in a box of walls with an infinite
 * cylinder, a rod, thin and thick facets (one of them turning). */
static void mixed_shapes_moving(void)
{
    grit_scene *s = su_scene(NAN, v3(0, 0, -9.81), 0);
    grit_scene_def sd = *grit_scene_get_def(s);
    sd.verlet_dist = 0.01; /* a skin that lasts several steps at these speeds */
    sd.dt_safety = 0.2;    /* the p-wave step is too coarse for capsule tips (docs/shapes.md) */
    grit_scene_set_def(s, &sd);
    int m = su_mat(s, 1e6, 1000);
    for (int ax = 0; ax < 3; ax++) {
        su_wall(s, m, ax, -1.0, 1);
        if (ax < 2) su_wall(s, m, ax, 1.0, -1);
    }
    su_infcyl(s, m, v3(0, 0.3, 0.9), 0, 0.06);
    su_rod(s, m, v3(-0.8, -0.5, 0.4), v3(0.8, -0.3, 0.5), 0.03);
    su_facet(s, m, v3(-1, -1, -0.7), v3(1, -1, -0.2), v3(-1, 1, -0.7), 0.0);
    su_facet(s, m, v3(1, 1, -0.6), v3(-1, 1, -0.9), v3(1, -1, -0.5), 0.02);
    grit_facet_def fd = grit_default_facet_def();
    fd.v[0] = v3(-0.3, -0.3, 0.1);
    fd.v[1] = v3(0.3, -0.3, 0.1);
    fd.v[2] = v3(0, 0.4, 0.1);
    fd.half_thick = 0.01;
    fd.material = m;
    int turning = grit_add_facet(s, &fd);
    CHECK(grit_set_angvel(s, turning, v3(0, 0, 1)) == GRIT_OK);
    /* free bodies at random non-overlapping places (bounding spheres) */
    grit_vec3 pos[80];
    double rad[80];
    int n = 0;
    while (n < 60) {
        int kind = n % 3;
        double r = kind == 0 ? urange(0.04, 0.08) : urange(0.03, 0.06);
        double L = urange(0.05, 0.2);
        grit_vec3 a = urange3(v3(0.04, 0.03, 0.03), v3(0.12, 0.06, 0.06));
        double R = kind == 0 ? r : (kind == 1 ? r + L / 2 : fmax(a.x, fmax(a.y, a.z)));
        grit_vec3 p = urange3(v3(-0.85, -0.85, 0.0), v3(0.85, 0.85, 0.9));
        bool ok = true;
        for (int k = 0; k < n && ok; k++) ok = v3_norm(v3_sub(p, pos[k])) > R + rad[k];
        ok = ok && fabs(p.x) < 0.99 - R && fabs(p.y) < 0.99 - R; /* walls */
        ok = ok && hypot(p.y - 0.3, p.z - 0.9) > R + 0.07 && fabs(p.z - 0.1) > R + 0.02; /* cylinder, facet */
        grit_vec3 q0 = v3(-0.8, -0.5, 0.4), q1 = v3(0.8, -0.3, 0.5), dq = v3_sub(q1, q0); /* rod */
        double t = clamp(v3_dot(v3_sub(p, q0), dq) / v3_norm2(dq), 0, 1);
        ok = ok && v3_norm(v3_sub(p, v3_madd(q0, t, dq))) > R + 0.04;
        if (!ok) continue;
        const double angle = urange(0, M_PI); /* before the axis, as GCC's builds drew them */
        grit_quat q = su_rot(urand3(1), angle);
        grit_vec3 v = urand3(0.5), w = urand3(5.0);
        int id = kind == 0 ? su_sphere(s, m, p, r, v)
                           : (kind == 1 ? su_capsule(s, m, p, q, r, L, v) : su_ellipsoid(s, m, p, q, a, v));
        grit_set_angvel(s, id, w);
        pos[n] = p;
        rad[n++] = R;
    }
    int total = 0, steps_with = 0;
    for (long k = 0; k < 5000; k++) {
        int rc = grit_step(s, 1);
        CHECK(rc == GRIT_OK);
        if (rc) {
            fprintf(stderr, "%s\n", grit_last_error(s));
            break;
        }
        int c = check_no_miss(s, k);
        total += c;
        steps_with += c > 0;
    }
    grit_stats st;
    grit_get_stats(s, &st);
    printf("  %d overlaps seen in %d steps, %ld rebuilds, %d candidate pairs at the end\n", total, steps_with,
           st.rebuilds, st.potential_pairs);
    CHECK(steps_with > 2500);
    CHECK(st.rebuilds > 20 && st.rebuilds < 2500);
    grit_scene_destroy(s);
}

int main(void)
{
    RUN(spinning_capsule);
    RUN(mixed_shapes_moving);
    TEST_MAIN_END();
}
