/* grit tests: non-spherical shapes meeting across the faces of a periodic
 * cell. Every geometry functor takes the image shift of its partner; here
 * each pair collides across the face x = 0 of a periodic cell and must end
 * where the same collision leaves it in an open scene with the partner
 * moved by one period: capsule-sphere, ellipsoid-sphere, capsule-capsule,
 * ellipsoid-ellipsoid, capsule-ellipsoid, and a sphere thrown through the
 * face onto a fixed facet and onto a fixed rod. */
#include <math.h>
#include <stdio.h>

#include "fixture.h"
#include "grit/grit.h"
#include "shapes_util.h"
#include "test.h"

enum { CAPSULE, ELLIPSOID, SPHERE, FACET, ROD };
static const char *const NAME[] = {"capsule", "ellipsoid", "sphere", "facet", "rod"};

static int add_body(grit_scene *s, int m, int kind, grit_vec3 x, grit_quat q, grit_vec3 v)
{
    switch (kind) {
    case CAPSULE: return su_capsule(s, m, x, q, 0.0006, 0.0012, v);
    case ELLIPSOID: return su_ellipsoid(s, m, x, q, v3(0.0011, 0.0007, 0.0005), v);
    case SPHERE: return su_sphere(s, m, x, 0.0007, v);
    case ROD: /* a fixed rod along y and z in the plane x = x.x */
        return su_rod(s, m, v3(x.x, x.y - 0.0015, x.z - 0.001), v3(x.x, x.y + 0.0015, x.z + 0.001), 0.0003);
    default: /* a fixed triangle in the plane x = x.x */
        return su_facet(s, m, v3(x.x, x.y - 0.0015, x.z - 0.0015), v3(x.x, x.y + 0.0015, x.z - 0.0005),
                        v3(x.x, x.y, x.z + 0.0015), 0.0);
    }
}

/* Body a (moving towards -x, spinning, straddling x = 0) and body b beyond
 * the face: at x = L - d in the periodic cell, at -d in the open scene.
 * Returns the largest difference of the final velocities and angular
 * velocities of both (over their magnitude) and whether they met. */
static double across(int ka, int kb, bool *met)
{
    const double L = 0.01, d = kb == FACET || kb == ROD ? 0.0012 : 0.0021;
    grit_vec3 v[2][2], w[2][2];
    for (int periodic = 0; periodic < 2; periodic++) {
        grit_scene *s = su_scene(1e-7, v3(0, 0, 0), 0);
        const int m = su_mat(s, 1e8, 2500);
        if (periodic) {
            const double H[3][3] = {{L, 0, 0}, {0, L, 0}, {0, 0, L}};
            CHECK(grit_cell_set(s, H) == GRIT_OK);
        }
        int id[2];
        id[0] = add_body(s, m, ka, v3(0.0003, 0.005, 0.005), su_rot(v3(1, 2, 3), 0.7), v3(-0.4, 0.03, -0.02));
        id[1] = add_body(s, m, kb, v3(periodic ? L - d : -d, 0.0051, 0.0049), su_rot(v3(3, -1, 2), 1.1),
                         kb == FACET ? v3_zero() : v3(0.1, 0, 0));
        if (ka != FACET) CHECK(grit_set_angvel(s, id[0], v3(20, -30, 40)) == GRIT_OK);
        if (grit_step(s, 40000) != GRIT_OK) {
            printf("  %s\n", grit_last_error(s));
            CHECK(false);
        }
        for (int k = 0; k < 2; k++) {
            grit_get_vel(s, id[k], &v[periodic][k]);
            grit_get_angvel(s, id[k], &w[periodic][k]);
        }
        grit_scene_destroy(s);
    }
    *met = v[0][0].x > -0.4 + 1e-3; /* a's velocity changed: they collided */
    double worst = 0;
    for (int k = 0; k < 2; k++) {
        const double sv = fmax(v3_norm(v[0][k]), 1e-3), sw = fmax(v3_norm(w[0][k]), 1.0);
        worst = fmax(worst, v3_norm(v3_sub(v[0][k], v[1][k])) / sv);
        worst = fmax(worst, v3_norm(v3_sub(w[0][k], w[1][k])) / sw);
    }
    return worst;
}

static void pairs_across_the_face(void)
{
    static const int P[][2] = {{CAPSULE, SPHERE},      {ELLIPSOID, SPHERE},  {CAPSULE, CAPSULE},
                               {ELLIPSOID, ELLIPSOID}, {CAPSULE, ELLIPSOID}, {SPHERE, FACET},
                               {SPHERE, ROD}};
    for (size_t k = 0; k < sizeof P / sizeof P[0]; k++) {
        bool met;
        const double e = across(P[k][0], P[k][1], &met);
        printf("  %s-%s: met %s, open against periodic %.2g\n", NAME[P[k][0]], NAME[P[k][1]], met ? "yes" : "no", e);
        CHECK(met);
        CHECK(e < 1e-9);
    }
}

int main(void)
{
    RUN(pairs_across_the_face);
    TEST_MAIN_END();
}
