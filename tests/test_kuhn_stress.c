/* The Love-Weber stress (include/grit/stress.h) on contacts with known
 * forces: two spheres (normal and tangential force), a sphere on a wall
 * (branch vector from the contact point), the region filter, bad input. */
#include "grit/grit.h"
#include "grit/stress.h"
#include "test.h"

static grit_scene *scene(void)
{
    grit_scene_def d = grit_default_scene_def();
    d.dt = 1e-4;
    grit_scene *s = grit_scene_create(&d);
    grit_frictmat_def fm = grit_default_frictmat_def();
    fm.law = GRIT_LAW_KUHN;
    int m = grit_add_frictmat(s, &fm);
    grit_pair_def p = grit_default_pair_def();
    p.kn = 1e6;
    p.kt = 8e5;
    p.tan_phi = 0.5;
    grit_set_pair(s, m, m, &p);
    return s;
}

static int sphere(grit_scene *s, grit_vec3 x)
{
    grit_sphere_def d = grit_default_sphere_def();
    d.pos = x;
    d.radius = 0.1;
    d.blocked = GRIT_BLOCK_ALL;
    return grit_add_sphere(s, &d);
}

static double el(const grit_mat3 *m, int i, int j) { return v3_get(m->c[j], i); }

static void two_spheres(void)
{
    grit_scene *s = scene();
    sphere(s, v3(0, 0, 0));
    int b = sphere(s, v3(0.199, 0, 0)); /* overlap 1e-3: N = 1000 */
    /* B rolls about z: its contact point moves by 1e-5 along -y... per step */
    grit_set_angvel(s, b, v3(0, 0, 1e-5 / (0.0995 * 1e-4)));
    CHECK(grit_step(s, 10) == GRIT_OK);
    grit_contact_info c;
    CHECK(grit_contact_get(s, 0, &c) == GRIT_OK);
    grit_mat3 sig;
    int n = -1;
    const double V = 2.0;
    CHECK(grit_stress_love_weber(s, V, NULL, NULL, &sig, &n) == GRIT_OK);
    CHECK(n == 1);
    grit_vec3 F = c.force_global, l = v3(0.199, 0, 0);
    CHECK_ABS(F.x, -1000, 1e-9);
    CHECK(fabs(F.y) > 50); /* a tangential force */
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) CHECK_ABS(el(&sig, i, j), v3_get(F, i) * v3_get(l, j) / V, 1e-12);
    CHECK_ABS(el(&sig, 0, 0), -199.0 / V, 1e-9); /* compression negative */
    grit_mat3 sym = grit_mat3_sym(&sig);
    CHECK_ABS(el(&sym, 0, 1), 0.5 * F.y * 0.199 / V, 1e-12);
    CHECK_ABS(el(&sym, 1, 0), el(&sym, 0, 1), 0);
    /* region: the contact point (0.0995, 0, 0) in or out */
    grit_vec3 lo = v3(0.09, -1, -1), hi = v3(0.11, 1, 1);
    CHECK(grit_stress_love_weber(s, V, &lo, &hi, &sig, &n) == GRIT_OK && n == 1);
    lo.x = 0.1;
    CHECK(grit_stress_love_weber(s, V, &lo, &hi, &sig, &n) == GRIT_OK && n == 0);
    CHECK(grit_mat3_frob(&sig) == 0);
    /* bad input changes nothing and says why */
    grit_mat3 keep = sig;
    CHECK(grit_stress_love_weber(s, 0.0, NULL, NULL, &sig, &n) == GRIT_EINVAL);
    CHECK(strstr(grit_last_error(s), "volume"));
    CHECK(grit_stress_love_weber(s, V, &hi, &lo, &sig, &n) == GRIT_EINVAL);
    CHECK(grit_stress_love_weber(s, V, &lo, NULL, &sig, &n) == GRIT_EINVAL);
    CHECK(grit_mat3_frob(&sig) == grit_mat3_frob(&keep));
    grit_scene_destroy(s);
}

static void sphere_on_wall(void)
{
    grit_scene *s = scene();
    grit_wall_def w = grit_default_wall_def();
    w.axis = 2;
    grit_add_wall(s, &w);
    sphere(s, v3(0.3, 0.2, 0.0998)); /* overlap 2e-4: N = 200 */
    CHECK(grit_step(s, 1) == GRIT_OK);
    grit_mat3 sig;
    CHECK(grit_stress_love_weber(s, 0.5, NULL, NULL, &sig, NULL) == GRIT_OK);
    /* A = wall: force on the wall -200 z, branch vector contact point -> centre = 0.0999 z */
    CHECK_ABS(el(&sig, 2, 2), -200 * 0.0998 / 0.5, 1e-9);
    CHECK_ABS(grit_mat3_frob(&sig), fabs(el(&sig, 2, 2)), 1e-9);
    grit_scene_destroy(s);
}

static void rotate_back(void)
{
    /* R^T (R s R^T) R = s for a rotation about (1,2,2)/3 */
    grit_quat q = q_axis_angle(v3(1.0 / 3, 2.0 / 3, 2.0 / 3), 0.7);
    grit_mat3 R = q_to_mat3(q), S, RS;
    S.c[0] = v3(1, 2, 3);
    S.c[1] = v3(2, -1, 0.5);
    S.c[2] = v3(3, 0.5, 4);
    grit_mat3 Rt;
    for (int j = 0; j < 3; j++) Rt.c[j] = v3(v3_get(R.c[0], j), v3_get(R.c[1], j), v3_get(R.c[2], j));
    RS = grit_mat3_rotate_back(&Rt, &S); /* R S R^T */
    grit_mat3 back = grit_mat3_rotate_back(&R, &RS);
    for (int j = 0; j < 3; j++) CHECK_VEC(back.c[j], S.c[j].x, S.c[j].y, S.c[j].z, 1e-14);
    CHECK_ABS(grit_mat3_frob(&RS), grit_mat3_frob(&S), 1e-13);
}

int main(void)
{
    RUN(two_spheres);
    RUN(sphere_on_wall);
    RUN(rotate_back);
    TEST_MAIN_END();
}
