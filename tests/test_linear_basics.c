/* Acceptance tests T1, T3, T20, T21 of the linear-model spec (section 11). */
#include "grit/grit.h"
#include "test.h"

static grit_scene *mk(double dt)
{
    grit_scene_def d = grit_default_scene_def();
    d.dt = dt;
    d.track_energy = true;
    grit_scene *s = grit_scene_create(&d);
    if (!s) {
        fprintf(stderr, "create: %s\n", grit_create_error());
        exit(2);
    }
    return s;
}

static int mat(grit_scene *s, double E, double ktdivkn, double tanphi)
{
    grit_frictmat_def m = grit_default_frictmat_def();
    m.young = E;
    m.kt_div_kn = ktdivkn;
    m.tan_phi = tanphi;
    return grit_add_frictmat(s, &m);
}

static int sphere(grit_scene *s, int m, grit_vec3 p, double r, grit_vec3 v)
{
    grit_sphere_def d = grit_default_sphere_def();
    d.pos = p;
    d.radius = r;
    d.vel = v;
    d.material = m;
    int id = grit_add_sphere(s, &d);
    if (id < 0) fprintf(stderr, "add sphere: %s\n", grit_last_error(s));
    return id;
}

static void t1_sphere_sphere_stiffness(void)
{
    grit_scene *s = mk(1e-6);
    int m = mat(s, 1e7, 0.2, 0.5);
    sphere(s, m, v3(0, 0, 0), 0.1, v3(0, 0, 0));
    sphere(s, m, v3(0.29, 0, 0), 0.2, v3(0, 0, 0));
    CHECK(grit_step(s, 1) == GRIT_OK);
    CHECK(grit_contact_count(s) == 1);
    grit_contact_info c;
    grit_contact_get(s, 0, &c);
    CHECK_REL(c.lens[0], 0.1, 1e-15);
    CHECK_REL(c.lens[1], 0.2, 1e-15);
    CHECK_REL(c.area, 0.031415926535897934, 1e-14);
    CHECK_REL(c.kn, 1047197.5511965977, 1e-14);
    CHECK_REL(c.kt, 209439.51023931956, 1e-14);
    grit_scene_destroy(s);
}

static void t20_sphere_wall_impact(void)
{
    grit_scene *s = mk(1e-5);
    int m = mat(s, 1e7, 0.2, 0.5);
    grit_wall_def w = grit_default_wall_def();
    w.axis = 2;
    w.material = m;
    CHECK(grit_add_wall(s, &w) >= 0);
    int id = sphere(s, m, v3(0, 0, 0.1005), 0.1, v3(0, 0, -1));
    double minu = 0, maxf = 0;
    long first = -1, last = -1;
    double ek0 = NAN;
    for (int k = 0; k < 2000; k++) {
        CHECK(grit_step(s, 1) == GRIT_OK);
        if (k == 0) ek0 = grit_energy(s, GRIT_E_KINETIC);
        if (grit_contact_count(s) > 0) {
            grit_contact_info c;
            grit_contact_get(s, 0, &c);
            if (first < 0) first = k;
            last = k;
            if (c.uN < minu) minu = c.uN;
            if (fabs(c.force.x) > maxf) maxf = fabs(c.force.x);
        }
    }
    grit_vec3 v;
    grit_get_vel(s, id, &v);
    CHECK_REL(minu, -1.632993e-3, 1e-5);
    CHECK_REL(maxf, 2565.100, 1e-5);
    CHECK_ABS(v.z, 1.0000004, 1e-6);
    CHECK_REL(grit_energy(s, GRIT_E_KINETIC), 2.094397, 1e-5);
    CHECK_REL(ek0, 2.094395, 1e-5);
    CHECK_ABS((double)(last - first + 1), 513, 1);
    grit_scene_destroy(s);
}

static void t21_head_on(void)
{
    grit_scene *s = mk(1e-5);
    int m = mat(s, 1e7, 0.2, 0.5);
    int a = sphere(s, m, v3(0, 0, 0), 0.1, v3(0.5, 0, 0));
    int b = sphere(s, m, v3(0.201, 0, 0), 0.1, v3(-0.5, 0, 0));
    double maxf = 0, minu = 0;
    for (int k = 0; k < 1000; k++) {
        grit_step(s, 1);
        if (grit_contact_count(s)) {
            grit_contact_info c;
            grit_contact_get(s, 0, &c);
            maxf = fmax(maxf, fabs(c.force.x));
            minu = fmin(minu, c.uN);
        }
    }
    grit_vec3 va, vb, wa;
    grit_get_vel(s, a, &va);
    grit_get_vel(s, b, &vb);
    grit_get_angvel(s, a, &wa);
    CHECK_ABS(va.x, -0.5, 1e-5);
    CHECK_ABS(vb.x, 0.5, 1e-5);
    CHECK_REL(maxf, 1813.799, 1e-4);
    CHECK_REL(minu, -1.154701e-3, 1e-4);
    CHECK_ABS(v3_norm(wa), 0, 1e-12);
    CHECK(grit_energy(s, GRIT_E_PLAST) == 0);
    grit_scene_destroy(s);
}

int main(void)
{
    RUN(t1_sphere_sphere_stiffness);
    RUN(t20_sphere_wall_impact);
    RUN(t21_head_on);
    TEST_MAIN_END();
}
