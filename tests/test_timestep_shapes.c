/* The critical time step of capsules and ellipsoids (docs/shapes.md, "time
 * step"). A contact away from the line through a particle's centre also
 * turns it and moves only the effective mass m / (1 + m (l x n)^T I^-1
 * (l x n)); an ellipsoid's contact stiffness grows with its lever rho (a
 * wall: k_n = E pi rho / 2). The p-wave radius is the spec's (radius,
 * smallest semi-axis) or, where smaller, the radius of the sphere with the
 * same stiffness to mass ratio; pair overrides use the effective mass.
 * References here come from a brute-force search over the whole surface. */
#include "shapes_util.h"

static const double E = 1e7, RHO = 2000;

/* min over the surface of m_eff and of m_eff / rho, on a fine grid of the
 * whole surface (the engine searches one octant, refined) */
static void brute(grit_vec3 a, double m, grit_vec3 I, double *meff_min, double *ratio_min)
{
    *meff_min = *ratio_min = INFINITY;
    const int n = 720;
    for (int i = 0; i <= n; i++)
        for (int j = 0; j < 2 * n; j++) {
            double th = M_PI * i / n, ph = M_PI * j / n;
            grit_vec3 p = v3(a.x * sin(th) * cos(ph), a.y * sin(th) * sin(ph), a.z * cos(th));
            grit_vec3 nn = v3_normalized(v3(p.x / (a.x * a.x), p.y / (a.y * a.y), p.z / (a.z * a.z)));
            grit_vec3 w = v3_cross(p, nn);
            double meff = 1 / (1 / m + w.x * w.x / I.x + w.y * w.y / I.y + w.z * w.z / I.z);
            *meff_min = fmin(*meff_min, meff);
            *ratio_min = fmin(*ratio_min, meff / v3_norm(p));
        }
}

static grit_scene *one(int kind, grit_vec3 a, double kn_override, int *id)
{
    grit_scene *s = su_scene(NAN, v3(0, 0, 0), 0);
    int m = su_mat(s, E, RHO);
    if (kn_override > 0) {
        grit_pair_def p = grit_default_pair_def();
        p.kn = kn_override;
        CHECK(grit_set_pair(s, m, m, &p) == GRIT_OK);
    }
    if (kind == 0) *id = su_sphere(s, m, v3(0, 0, 0), a.x, v3(0, 0, 0));
    else if (kind == 1) *id = su_capsule(s, m, v3(0, 0, 0), su_rot(v3(1, 2, 3), 0.4), a.x, a.y, v3(0, 0, 0));
    else *id = su_ellipsoid(s, m, v3(0, 0, 0), su_rot(v3(1, 2, 3), 0.4), a, v3(0, 0, 0));
    return s;
}

/* Spheres and capsules keep the spec's p-wave step r sqrt(rho / E): a
 * capsule's shaft adds more mass than its turning takes away. */
static void spheres_and_capsules(void)
{
    const double c = sqrt(RHO / E);
    int id;
    grit_scene *s = one(0, v3(0.01, 0, 0), 0, &id);
    CHECK_REL(grit_critical_dt(s), 0.01 * c, 1e-15);
    grit_scene_destroy(s);
    const double shafts[3] = {0.0, 0.005, 0.08};
    for (int k = 0; k < 3; k++) {
        s = one(1, v3(0.01, shafts[k], 0), 0, &id);
        CHECK_REL(grit_critical_dt(s), 0.01 * c, 1e-15);
        grit_scene_destroy(s);
    }
}

/* Ellipsoids: min(c, rp) with rp^2 = 3 min(m_eff / rho) / (4 pi density). */
static void ellipsoids(void)
{
    const grit_vec3 axes[6] = {v3(0.01, 0.01, 0.01), v3(0.012, 0.01, 0.01), v3(0.02, 0.01, 0.01),
                               v3(0.03, 0.01, 0.01), v3(0.1, 0.01, 0.01), v3(0.02, 0.02, 0.01)};
    /* rp / c from the brute force (and an independent NumPy grid): */
    const double expect[6] = {1.0, 0.987, 0.752, 0.609, 0.456, 1.0};
    for (int k = 0; k < 6; k++) {
        int id;
        grit_scene *s = one(2, axes[k], 0, &id);
        double m;
        grit_vec3 I, a = axes[k];
        grit_get_mass(s, id, &m, &I);
        double meff, ratio;
        brute(a, m, I, &meff, &ratio);
        double rp = fmin(a.z, sqrt(3 * ratio / (4 * M_PI * RHO)));
        double dt = grit_critical_dt(s), ref = rp * sqrt(RHO / E);
        printf("  ellipsoid (%g, %g, %g) c: critical step %.4g s = %.3f c sqrt(rho/E) (brute force %.3f; m_eff/m "
               ">= %.3f)\n",
               a.x / a.z, a.y / a.z, 1.0, dt, dt / (a.z * sqrt(RHO / E)), rp / a.z, meff / m);
        CHECK_REL(dt, ref, 2e-4);
        CHECK_ABS(rp / a.z, expect[k], 1e-3);
        CHECK(dt <= a.z * sqrt(RHO / E) * (1 + 1e-15)); /* never above the spec's */
        grit_scene_destroy(s);
    }
}

/* Pair overrides: sqrt(3 m_eff / (8 kn)) with the smallest effective mass. */
static void overrides(void)
{
    const double kn = 1e5;
    int id;
    grit_scene *s = one(0, v3(0.01, 0, 0), kn, &id);
    double m;
    grit_vec3 I;
    grit_get_mass(s, id, &m, &I);
    CHECK_REL(grit_critical_dt(s), sqrt(3 * m / (8 * kn)), 1e-15);
    grit_scene_destroy(s);
    /* capsule r 0.01, shaft 0.06: a force across the axis at a shaft end,
     * lever 0.03, is the worst */
    s = one(1, v3(0.01, 0.06, 0), kn, &id);
    grit_get_mass(s, id, &m, &I);
    double meff = m / (1 + m * 0.03 * 0.03 / I.y);
    printf("  capsule r 0.01, shaft 0.06: m_eff / m = %.3f\n", meff / m);
    CHECK_REL(grit_critical_dt(s), sqrt(3 * meff / (8 * kn)), 1e-14);
    grit_scene_destroy(s);
    s = one(2, v3(0.03, 0.015, 0.01), kn, &id);
    grit_get_mass(s, id, &m, &I);
    double ratio;
    brute(v3(0.03, 0.015, 0.01), m, I, &meff, &ratio);
    printf("  ellipsoid (3, 1.5, 1) cm: m_eff / m = %.3f\n", meff / m);
    CHECK_REL(grit_critical_dt(s), sqrt(3 * meff / (8 * kn)), 1e-4);
    grit_scene_destroy(s);
}

/* The automatic step for (3, 1, 1) ellipsoids falling into a box: the
 * energy balance holds (no damping, no friction), nothing flies off. */
static void elongated_bed(void)
{
    grit_scene_def d = grit_default_scene_def();
    d.gravity = v3(0, 0, -9.81);
    d.track_energy = true;
    grit_scene *s = grit_scene_create(&d);
    grit_frictmat_def md = grit_default_frictmat_def();
    md.young = 1e6;
    md.density = RHO;
    md.tan_phi = 0;
    int m = grit_add_frictmat(s, &md);
    const double L = 0.2;
    su_wall(s, m, 2, 0, 1);
    for (int ax = 0; ax < 2; ax++) {
        su_wall(s, m, ax, 0, 1);
        su_wall(s, m, ax, L, -1);
    }
    int n = 0;
    for (int i = 0; i < 3; i++) /* 6.5 cm apart: no overlap whatever the orientation */
        for (int j = 0; j < 3; j++)
            for (int k = 0; k < 5; k++, n++)
                su_ellipsoid(s, m, v3(0.035 + 0.065 * i, 0.035 + 0.065 * j, 0.035 + 0.065 * k),
                             su_rot(v3(i - 1.5, j + 0.5, k - 2.5), 0.3 * (i + j + k)), v3(0.03, 0.01, 0.01),
                             v3(0, 0, 0));
    double top = 0;
    int most = 0; /* contacts at once */
    for (int k = 0; k < 40; k++) {
        CHECK(grit_step(s, 100) == GRIT_OK);
        most = grit_contact_count(s) > most ? grit_contact_count(s) : most;
    }
    for (int id = 0; id < grit_particle_count(s); id++) {
        grit_vec3 x;
        grit_get_pos(s, id, &x);
        if (grit_get_shape(s, id) == GRIT_SHAPE_ELLIPSOID) top = fmax(top, x.z);
    }
    double rel = grit_energy_rel_error(s);
    printf("  %d (3, 1, 1) ellipsoids falling into a box, dt %.3g s, %ld steps: up to %d contacts at once, balance "
           "%.2e, highest centre %.3f m\n",
           n, grit_dt(s), grit_step_count(s), most, rel, top);
    CHECK(fabs(rel) < 1e-2);
    CHECK(top < 0.35);
    CHECK(most >= 8);
    grit_scene_destroy(s);
}

int main(void)
{
    RUN(spheres_and_capsules);
    RUN(ellipsoids);
    RUN(overrides);
    RUN(elongated_bed);
    TEST_MAIN_END();
}
