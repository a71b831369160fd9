/* Contact geometry (Cg2 functors and the L6Geom frame): acceptance tests
 * T7, T8, T9, T11(e), T13 and T14 of the linear-model spec (section 11),
 * and the velocity of a moving rigid facet at the contact point. */
#include "cg2/l6geom.h"
#include "fixture.h"

static void t7_initial_frames(void)
{
    struct {
        grit_vec3 n, ey, ez;
    } cases[] = {
        {{1, 0, 0}, {0, -1, 0}, {0, 0, -1}},
        {{0, 1, 0}, {1, 0, 0}, {0, 0, -1}},
        {{0, 0, 1}, {-1, 0, 0}, {0, -1, 0}},
        {{0.9486832980505138, 0.31622776601683794, 0}, {0.31622776601683794, -0.9486832980505138, 0}, {0, 0, -1}},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        grit_vec3 ey = l6_initial_ey(cases[k].n);
        grit_vec3 ez = v3_cross(cases[k].n, ey);
        CHECK_VEC(ey, cases[k].ey.x, cases[k].ey.y, cases[k].ey.z, 1e-15);
        CHECK_VEC(ez, cases[k].ez.x, cases[k].ez.y, cases[k].ez.z, 1e-15);
    }
    /* the normalised T7 normal is what the sphere-sphere functor of T8 gives */
    grit_vec3 n = v3_normalized(v3(0.15, 0.05, 0));
    CHECK_VEC(n, 0.9486832980505138, 0.31622776601683794, 0, 1e-15);
}

static void t8_sphere_sphere(void)
{
    grit_scene *s = fx_scene_dt(1e-6);
    int m = fx_mat(s, 1e7, 0.2, 0.5);
    int a = fx_sphere(s, m, v3(0, 0, 0), 0.1, v3_zero());
    fx_sphere(s, m, v3(0.15, 0.05, 0), 0.1, v3_zero());
    CHECK(grit_step(s, 1) == GRIT_OK);
    grit_contact_info c = fx_only_contact(s);
    CHECK(c.id_a == a);
    CHECK_ABS(c.uN, -0.04188611699158104, 1e-15);
    CHECK_VEC(c.normal, 0.9486832980505138, 0.31622776601683794, 0, 1e-15);
    CHECK_VEC(c.ey, 0.31622776601683794, -0.9486832980505138, 0, 1e-15);
    CHECK_VEC(c.ez, 0, 0, -1, 1e-15);
    CHECK_VEC(c.point, 0.075, 0.025, 0, 1e-15);
    CHECK_VEC(c.vel, 0, 0, 0, 0);
    CHECK_VEC(c.angvel, 0, 0, 0, 0);
    CHECK_REL(c.force.x, c.kn * c.uN, 1e-15);
    CHECK(c.force.y == 0 && c.force.z == 0);
    CHECK_REL(c.kn, 1e7 * M_PI * 0.01 / 0.2, 1e-14);
    grit_scene_destroy(s);
}

typedef struct {
    double h;
    grit_vec3 centre;
} facet_case;

/* One step with the facet of T9 and a sphere r = 0.1; returns the contact. */
static grit_contact_info facet_sphere(double h, grit_vec3 centre)
{
    grit_scene *s = fx_scene_dt(1e-6);
    int m = fx_mat(s, 1e7, 0.2, 0.5);
    int f = fx_facet(s, m, v3(0, 0, 0), v3(1, 0, 0), v3(0, 1, 0), h);
    int b = fx_sphere(s, m, centre, 0.1, v3_zero());
    CHECK(grit_step(s, 1) == GRIT_OK);
    grit_contact_info c = fx_only_contact(s);
    CHECK(c.id_a == f && c.id_b == b);
    CHECK_REL(c.area, M_PI * 0.01, 1e-15);
    grit_scene_destroy(s);
    return c;
}

static void t9_facet_regions(void)
{
    const double s2 = 0.7071067811865475, s3 = 1.0 / sqrt(3.0);
    /* (a) face */
    grit_contact_info c = facet_sphere(0, v3(0.2, 0.2, 0.099));
    CHECK_VEC(c.normal, 0, 0, 1, 0);
    CHECK_ABS(c.uN, -0.001, 1e-15);
    CHECK_VEC(c.point, 0.2, 0.2, 0, 0);
    CHECK_REL(c.lens[0], 0.1, 1e-15);
    CHECK_REL(c.lens[1], 0.1, 1e-15);
    /* (b) edge v0 v1 */
    c = facet_sphere(0, v3(0.5, -0.05, 0.05));
    CHECK_VEC(c.point, 0.5, 0, 0, 1e-15);
    CHECK_VEC(c.normal, 0, -s2, s2, 1e-15);
    CHECK_ABS(c.uN, -0.02928932188134524, 1e-15);
    /* (c) vertex v0 */
    c = facet_sphere(0, v3(-0.05, -0.05, 0.05));
    CHECK_VEC(c.point, 0, 0, 0, 0);
    CHECK_VEC(c.normal, -s3, -s3, s3, 1e-15);
    CHECK_ABS(c.uN, -0.013397459621556126, 1e-15);
    /* (d) back side: the facet is two-sided */
    c = facet_sphere(0, v3(0.2, 0.2, -0.099));
    CHECK_VEC(c.normal, 0, 0, -1, 0);
    CHECK_ABS(c.uN, -0.001, 1e-15);
    CHECK_VEC(c.point, 0.2, 0.2, 0, 0);
    /* (e) thick facet: contact point on the surface, lens max(h, r), r */
    c = facet_sphere(0.05, v3(0.2, 0.2, 0.12));
    CHECK_ABS(c.uN, -0.03, 1e-15);
    CHECK_VEC(c.point, 0.2, 0.2, 0.05, 1e-15);
    CHECK_REL(c.lens[0], 0.1, 1e-15);
    CHECK_REL(c.lens[1], 0.1, 1e-15);
}

/* The remaining edge and vertex regions (v1, v2, edges v1v2 and v2v0, also
 * beyond an obtuse corner) against the exact closest point, computed here by
 * brute force over a fine parametrisation of the triangle's boundary. */
static void t9_all_regions_exact(void)
{
    const grit_vec3 probes[] = {
        {1.05, -0.05, 0.05}, /* vertex v1 */
        {-0.05, 1.05, 0.05}, /* vertex v2 */
        {0.55, 0.55, 0.05},  /* edge v1 v2 */
        {-0.05, 0.5, -0.05}, /* edge v2 v0, back side */
        {0.3, 0.3, 0.08},    /* face */
    };
    for (size_t k = 0; k < sizeof probes / sizeof probes[0]; k++) {
        grit_vec3 p = probes[k];
        /* closest point: face projection if inside, else on the boundary */
        grit_vec3 q = v3(p.x, p.y, 0);
        double best = INFINITY;
        if (!(p.x >= 0 && p.y >= 0 && p.x + p.y <= 1)) {
            const grit_vec3 v[3] = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
            for (int e = 0; e < 3; e++) {
                grit_vec3 a = v[e], d = v3_sub(v[(e + 1) % 3], a);
                double t = clamp(v3_dot(v3_sub(p, a), d) / v3_norm2(d), 0, 1);
                grit_vec3 cand = v3_madd(a, t, d);
                double d2 = v3_norm2(v3_sub(p, cand));
                if (d2 < best) {
                    best = d2;
                    q = cand;
                }
            }
        }
        grit_contact_info c = facet_sphere(0, p);
        grit_vec3 d = v3_sub(p, q);
        CHECK_VEC(c.point, q.x, q.y, q.z, 1e-15);
        CHECK_ABS(c.uN, v3_norm(d) - 0.1, 1e-15);
        grit_vec3 n = v3_normalized(d);
        CHECK_VEC(c.normal, n.x, n.y, n.z, 1e-15);
    }
}

/* T11(e): which side of a wall interacts. */
static void t11e_wall_sense(void)
{
    const int senses[3] = {0, 1, -1};
    const double nz[3] = {-1, 1, -1}, uN[3] = {-0.05, -0.15, -0.05};
    for (int k = 0; k < 3; k++) {
        grit_scene *s = fx_scene_dt(1e-6);
        int m = fx_mat(s, 1e7, 0.2, 0.5);
        fx_wall(s, m, 2, 0.0, senses[k]);
        int b = fx_sphere(s, m, v3(0, 0, -0.05), 0.1, v3_zero());
        CHECK(grit_step(s, 1) == GRIT_OK);
        grit_contact_info c = fx_only_contact(s);
        CHECK_VEC(c.normal, 0, 0, nz[k], 0);
        CHECK_ABS(c.uN, uN[k], 1e-15);
        CHECK_VEC(c.point, 0, 0, 0, 0);
        /* the force on the sphere pushes it along the normal */
        CHECK(grit_step(s, 1) == GRIT_OK);
        grit_vec3 f;
        grit_get_force(s, b, &f);
        CHECK(f.z * nz[k] > 0);
        grit_scene_destroy(s);
    }
    /* a sense-0 wall never flips the normal of an existing contact: a sphere
     * driven through the plane stays pushed back to its original side */
    grit_scene *s = fx_scene_dt(1e-6);
    int m = fx_mat(s, 1e7, 0.2, 0.5);
    fx_wall(s, m, 2, 0.0, 0);
    int b = fx_sphere(s, m, v3(0, 0, 0.05), 0.1, v3_zero());
    CHECK(grit_set_blocked(s, b, GRIT_BLOCK_ALL) == GRIT_OK);
    CHECK(grit_set_vel(s, b, v3(0, 0, -100)) == GRIT_OK);
    CHECK(grit_step(s, 1000) == GRIT_OK); /* 0.1 m down: centre at z = -0.05 */
    grit_contact_info c = fx_only_contact(s);
    CHECK_VEC(c.normal, 0, 0, 1, 0);
    CHECK_ABS(c.uN, -0.15, 1e-12);
    grit_scene_destroy(s);
}

/* T13: update of the frame by a normal rotation of 0.01 rad (spec 1.6). */
static void t13_frame_update(void)
{
    const double al = 0.01;
    grit_l6geom g = {0};
    g.ex = v3(1, 0, 0);
    g.ey = l6_initial_ey(g.ex);
    g.c = v3(0.1, 0, 0);
    grit_cg2_out o;
    memset(&o, 0, sizeof o);
    o.n = v3(cos(al), sin(al), 0);
    o.c = v3(0.1, 0.001, 0);
    o.x1 = v3(0, 0, 0);
    o.x2 = v3(0.2, 0.002, 0);
    o.v2 = v3(0, 1, 0);
    o.r1 = o.r2 = 0.1;
    grit_l6geom g1 = g;
    l6geom_update(&g1, &o, 1e-3, false, v3_zero());
    grit_vec3 ez = l6_ez(&g1);
    CHECK_VEC(g1.ex, cos(al), sin(al), 0, 0);
    CHECK_VEC(g1.ey, 0.00999983333417, -0.999950001667, 0, 1e-12);
    CHECK_VEC(ez, 0, 0, -1.00000000125, 1e-12);
    CHECK_VEC(g1.vel, 0.00499997916669, -1, 0, 1e-12);
    CHECK_VEC(g1.angvel, 0, 0, 0, 0);
    /* the mid-step y axis y^m = (0.00499991666708, -1, 0) is what projects the
     * velocity: with v2 along x, vel_y = y^m . v2 = y^m_x */
    grit_l6geom g2 = g;
    o.v2 = v3(1, 0, 0);
    l6geom_update(&g2, &o, 1e-3, false, v3_zero());
    CHECK_ABS(g2.vel.y, 0.00499991666708, 1e-12);
    /* with renormalisation the frame is orthonormal again and keeps the normal */
    grit_l6geom g3 = g;
    l6geom_update(&g3, &o, 1e-3, true, v3_zero());
    CHECK_ABS(v3_norm(g3.ey), 1.0, 1e-15);
    CHECK_ABS(v3_dot(g3.ex, g3.ey), 0.0, 1e-15);
    CHECK_ABS(v3_norm(l6_ez(&g3)), 1.0, 1e-15);
    CHECK_VEC(g3.ex, cos(al), sin(al), 0, 1e-16);
}

/* T14: a rigid spin of the pair about the normal turns the frame with it and
 * produces no relative motion. */
static void t14_twist_objectivity(void)
{
    grit_scene *s = fx_scene_dt(1e-5);
    int m = fx_mat(s, 1e7, 0.2, 0.5);
    int a = fx_sphere(s, m, v3(0, 0, 0), 0.1, v3_zero());
    int b = fx_sphere(s, m, v3(0.19, 0, 0), 0.1, v3_zero());
    CHECK(grit_set_blocked(s, a, GRIT_BLOCK_ALL) == GRIT_OK);
    CHECK(grit_set_blocked(s, b, GRIT_BLOCK_ALL) == GRIT_OK);
    CHECK(grit_set_angvel(s, a, v3(10, 0, 0)) == GRIT_OK);
    CHECK(grit_set_angvel(s, b, v3(10, 0, 0)) == GRIT_OK);
    CHECK(grit_scene_get_def(s)->trsf_renorm == 100);
    CHECK(grit_step(s, 10001) == GRIT_OK);
    grit_contact_info c = fx_only_contact(s);
    double sg = c.id_a == a ? 1.0 : -1.0; /* normal A -> B */
    CHECK_VEC(c.normal, sg, 0, 0, 0);
    CHECK_VEC(c.ey, 0, -sg * 0.5403023045, -0.8414709857, 1e-8);
    grit_vec3 ez_expect = v3_cross(c.normal, v3(0, -sg * 0.5403023045, -0.8414709857));
    CHECK_VEC(c.ez, ez_expect.x, ez_expect.y, ez_expect.z, 1e-8);
    CHECK_VEC(c.angvel, 0, 0, 0, 1e-12);
    CHECK_ABS(c.vel.y, 0, 1e-12);
    CHECK_ABS(c.vel.z, 0, 1e-12);
    CHECK(c.force.y == 0 && c.force.z == 0);
    grit_scene_destroy(s);
}

/* A grit facet is a rigid single-node body: its vertices follow its node, and
 * the velocity of the facet at the contact point is v + w x (c - x). Both must
 * hold also when the motion is set after creation (set_vel, set_angvel). */
static void moving_facet(void)
{
    /* translation set after creation: the facet rises into a fixed sphere */
    grit_scene *s = fx_scene_dt(1e-3);
    int m = fx_mat(s, 1e4, 0.2, 0.5);
    int f = fx_facet(s, m, v3(-1, -1, 0), v3(1, -1, 0), v3(0, 1, 0), 0);
    int b = fx_sphere(s, m, v3(0, 0, 0.15), 0.1, v3_zero());
    CHECK(grit_set_blocked(s, b, GRIT_BLOCK_ALL) == GRIT_OK);
    CHECK(grit_set_vel(s, f, v3(0, 0, 1)) == GRIT_OK);
    CHECK(grit_step(s, 60) == GRIT_OK); /* facet plane at z = 0.06 */
    grit_contact_info c = fx_only_contact(s);
    CHECK_ABS(c.uN, 0.15 - 0.06 - 0.1, 1e-12);
    CHECK_ABS(c.vel.x, -1.0, 1e-12); /* B approaches A at 1 m/s */
    grit_scene_destroy(s);

    /* spin about the facet's normal through its centroid (0, -1/3, 0) */
    s = fx_scene_dt(1e-4);
    m = fx_mat(s, 1e4, 0.2, 0.5);
    f = fx_facet(s, m, v3(-1, -1, 0), v3(1, -1, 0), v3(0, 1, 0), 0);
    b = fx_sphere(s, m, v3(0.3, 0.2, 0.099), 0.1, v3_zero());
    CHECK(grit_set_blocked(s, b, GRIT_BLOCK_ALL) == GRIT_OK);
    const double w = 2.0;
    CHECK(grit_set_angvel(s, f, v3(0, 0, w)) == GRIT_OK);
    CHECK(grit_step(s, 2) == GRIT_OK);
    c = fx_only_contact(s);
    /* velocity of B relative to the facet's material point under the sphere
     * (c is at the sphere's x, y), in the mid-step frame: ex = z, ey = -x, ez = -y */
    grit_vec3 r = v3_sub(c.point, v3(0, -1.0 / 3.0, 0));
    grit_vec3 vf = v3_cross(v3(0, 0, w), r);
    CHECK_ABS(c.vel.y, vf.x, 2e-4); /* -(-vf.x); mid-step vs. end-of-step lever: O(w^2 r dt) */
    CHECK_ABS(c.vel.z, vf.y, 2e-4);
    CHECK_ABS(c.vel.x, 0, 1e-12);
    /* the vertices turn with the node: after half a turn about the centroid
     * the facet covers (0, -1.5), which the original triangle (y >= -1) did not */
    CHECK(grit_set_pos(s, b, v3(50, 50, 50)) == GRIT_OK); /* out of the way */
    const long half_turn = lround(M_PI / (w * 1e-4));
    CHECK(grit_step(s, half_turn - 2) == GRIT_OK);
    grit_quat q;
    grit_get_ori(s, f, &q);
    const double turned = w * 1e-4 * (double)half_turn; /* q_angle is in [0, pi] */
    CHECK_ABS(q_angle(q), turned > M_PI ? 2 * M_PI - turned : turned, 1e-9);
    CHECK(grit_set_pos(s, b, v3(0, -1.5, 0.099)) == GRIT_OK);
    CHECK(grit_set_vel(s, f, v3_zero()) == GRIT_OK);
    CHECK(grit_set_angvel(s, f, v3_zero()) == GRIT_OK);
    CHECK(grit_step(s, 1) == GRIT_OK);
    c = fx_only_contact(s);
    CHECK_ABS(c.uN, -0.001, 1e-12);
    CHECK_VEC(c.point, 0, -1.5, 0, 1e-12);
    grit_scene_destroy(s);
}

int main(void)
{
    RUN(t7_initial_frames);
    RUN(t8_sphere_sphere);
    RUN(t9_facet_regions);
    RUN(t9_all_regions_exact);
    RUN(t11e_wall_sense);
    RUN(t13_frame_update);
    RUN(t14_twist_objectivity);
    RUN(moving_facet);
    TEST_MAIN_END();
}
