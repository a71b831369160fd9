/* Dynamics of every new shape pair: a resting contact under gravity carries
 * the weight; a collision conserves momentum (two free bodies) and, without
 * damping, energy; kinematic pairs of fixed bodies get equal and opposite
 * forces kn uN. */
#include "shapes_util.h"

static const grit_vec3 G = {0, 0, -9.81};

/* ---------------------------------------------------------------- resting */
typedef struct {
    int free_[3], nfree;
    int fixed[2], nfixed;
} rest_case;

static void check_rest(grit_scene *s, const rest_case *rc, const char *name)
{
    CHECK(grit_step(s, 2500) == GRIT_OK);
    double mtot = 0;
    for (int k = 0; k < rc->nfree; k++) {
        double m;
        grit_vec3 f, v, w;
        grit_get_mass(s, rc->free_[k], &m, NULL);
        mtot += m;
        grit_get_force(s, rc->free_[k], &f); /* gravity + contacts: zero at rest */
        grit_get_vel(s, rc->free_[k], &v);
        grit_get_angvel(s, rc->free_[k], &w);
        CHECK(v3_norm(f) < 1e-6 * m * 9.81);
        CHECK(v3_norm(v) < 1e-6);
        CHECK(v3_norm(w) < 1e-5);
    }
    grit_vec3 R = v3_zero();
    for (int k = 0; k < rc->nfixed; k++) {
        grit_vec3 f;
        grit_get_force(s, rc->fixed[k], &f);
        R = v3_add(R, f);
    }
    /* the supports carry the weight */
    CHECK_VEC(R, 0, 0, -9.81 * mtot, 1e-6 * 9.81 * mtot);
    if (test_failures) fprintf(stderr, "  (case %s)\n", name);
    grit_scene_destroy(s);
}

static grit_scene *rest_scene(int *m)
{
    grit_scene *s = su_scene(NAN, G, 0.3);
    *m = su_mat(s, 1e6, 1000);
    return s;
}

static void resting_contacts(void)
{
    int m;
    grit_scene *s;
    grit_quat along_y = su_rot(v3(0, 0, 1), M_PI / 2);
    /* capsule lying on a wall (Wall-Capsule) */
    s = rest_scene(&m);
    rest_case a = {{0}, 1, {0}, 1};
    a.fixed[0] = su_wall(s, m, 2, 0.0, 0);
    a.free_[0] = su_capsule(s, m, v3(0, 0, 0.1), q_identity(), 0.1, 0.5, v3(0, 0, 0));
    check_rest(s, &a, "capsule on wall");
    /* ellipsoid on a wall (Wall-Ellipsoid), sphere on it (Sphere-Ellipsoid),
     * an ellipsoid on that (Ellipsoid-Ellipsoid, via a second stack) */
    s = rest_scene(&m);
    rest_case b = {{0}, 3, {0}, 1};
    b.fixed[0] = su_wall(s, m, 2, 0.0, 0);
    b.free_[0] = su_ellipsoid(s, m, v3(0, 0, 0.1), q_identity(), v3(0.25, 0.15, 0.1), v3(0, 0, 0));
    b.free_[1] = su_sphere(s, m, v3(0, 0, 0.25), 0.05, v3(0, 0, 0));
    b.free_[2] = su_ellipsoid(s, m, v3(2, 0, 0.1), q_identity(), v3(0.25, 0.15, 0.1), v3(0, 0, 0));
    su_ellipsoid(s, m, v3(2, 0, 0.28), along_y, v3(0.2, 0.12, 0.08), v3(0, 0, 0));
    b.nfree = 3;
    {
        /* four free bodies: collect the last one too */
        rest_case bb = b;
        bb.nfree = 3;
        int extra = 4;
        (void)extra;
        CHECK(grit_step(s, 2500) == GRIT_OK);
        double mtot = 0;
        for (int id = 1; id <= 4; id++) {
            double mm;
            grit_vec3 f;
            grit_get_mass(s, id, &mm, NULL);
            grit_get_force(s, id, &f);
            CHECK(v3_norm(f) < 1e-6 * mm * 9.81);
            mtot += mm;
        }
        grit_vec3 R;
        grit_get_force(s, bb.fixed[0], &R);
        CHECK_VEC(R, 0, 0, -9.81 * mtot, 1e-6 * 9.81 * mtot);
        CHECK(grit_contact_count(s) == 4);
        grit_scene_destroy(s);
    }
    /* sphere on an infinite cylinder, capsule across another (InfCylinder-*) */
    s = rest_scene(&m);
    rest_case c = {{0}, 2, {0}, 2};
    c.fixed[0] = su_infcyl(s, m, v3(0, 0, 0), 0, 0.3);
    c.free_[0] = su_sphere(s, m, v3(1, 0, 0.4), 0.1, v3(0, 0, 0));
    c.fixed[1] = su_infcyl(s, m, v3(0, 5, 0), 0, 0.3);
    c.free_[1] = su_capsule(s, m, v3(0, 5, 0.4), along_y, 0.1, 0.6, v3(0, 0, 0));
    check_rest(s, &c, "on infinite cylinders");
    /* sphere on a rod (Rod-Sphere) */
    s = rest_scene(&m);
    rest_case d = {{0}, 1, {0}, 1};
    d.fixed[0] = su_rod(s, m, v3(-1, 0, 0), v3(1, 0, 0), 0.05);
    d.free_[0] = su_sphere(s, m, v3(0.2, 0, 0.15), 0.1, v3(0, 0, 0));
    check_rest(s, &d, "sphere on rod");
    /* capsule on a thin facet, capsule on a thick one (Facet-Capsule) */
    s = rest_scene(&m);
    rest_case e = {{0}, 2, {0}, 2};
    e.fixed[0] = su_facet(s, m, v3(-2, -2, 0), v3(2, -2, 0), v3(0, 2, 0), 0.0);
    e.free_[0] = su_capsule(s, m, v3(0, -0.5, 0.1), q_identity(), 0.1, 0.8, v3(0, 0, 0));
    e.fixed[1] = su_facet(s, m, v3(8, -2, 0), v3(12, -2, 0), v3(10, 2, 0), 0.02);
    e.free_[1] = su_capsule(s, m, v3(10, -0.5, 0.12), su_rot(v3(0, 0, 1), 0.3), 0.1, 0.8, v3(0, 0, 0));
    check_rest(s, &e, "capsule on facets");
    /* grit extensions: ellipsoid on a thin facet, capsule across it */
    s = rest_scene(&m);
    rest_case g = {{0}, 2, {0}, 1};
    g.fixed[0] = su_facet(s, m, v3(-2, -2, 0), v3(2, -2, 0), v3(0, 2, 0), 0.0);
    g.free_[0] = su_ellipsoid(s, m, v3(0, -0.5, 0.1), q_identity(), v3(0.3, 0.2, 0.1), v3(0, 0, 0));
    g.free_[1] = su_capsule(s, m, v3(0, -0.5, 0.28), along_y, 0.08, 0.3, v3(0, 0, 0));
    check_rest(s, &g, "ellipsoid on facet, capsule on it");
    /* sphere on a capsule on a wall; crossed capsules on a wall
     * (Sphere-Capsule, Capsule-Capsule) */
    s = rest_scene(&m);
    rest_case f = {{0}, 3, {0}, 1};
    f.fixed[0] = su_wall(s, m, 2, 0.0, 0);
    f.free_[0] = su_capsule(s, m, v3(0, 0, 0.1), q_identity(), 0.1, 0.6, v3(0, 0, 0));
    /* centred: off centre, the sphere tilts the compliant capsule and rolls
     * down the slope (a neutral equilibrium along the shaft) */
    f.free_[1] = su_sphere(s, m, v3(0, 0, 0.3), 0.1, v3(0, 0, 0));
    /* a capsule lying across two parallel ones, in their groove */
    int c1 = su_capsule(s, m, v3(3, -0.15, 0.1), q_identity(), 0.1, 0.6, v3(0, 0, 0));
    int c2 = su_capsule(s, m, v3(3, 0.15, 0.1), q_identity(), 0.1, 0.6, v3(0, 0, 0));
    f.free_[2] = su_capsule(s, m, v3(3, 0, 0.1 + sqrt(0.18 * 0.18 - 0.15 * 0.15)), along_y, 0.08, 0.6, v3(0, 0, 0));
    CHECK(grit_step(s, 2500) == GRIT_OK);
    {
        int ids[5] = {f.free_[0], f.free_[1], c1, c2, f.free_[2]};
        double mtot = 0;
        for (int k = 0; k < 5; k++) {
            double mm;
            grit_vec3 ff, v;
            grit_get_mass(s, ids[k], &mm, NULL);
            grit_get_force(s, ids[k], &ff);
            grit_get_vel(s, ids[k], &v);
            CHECK(v3_norm(ff) < 1e-6 * mm * 9.81);
            CHECK(v3_norm(v) < 1e-6);
            mtot += mm;
        }
        grit_vec3 R;
        grit_get_force(s, f.fixed[0], &R);
        CHECK_VEC(R, 0, 0, -9.81 * mtot, 1e-6 * 9.81 * mtot);
        CHECK(grit_contact_count(s) == 6);
    }
    grit_scene_destroy(s);
}

/* -------------------------------------------------------------- collisions */
typedef struct {
    double ek0, ek1, erel;
    grit_vec3 P0, P1, H0, H1; /* linear and angular momentum of the free bodies */
    double herr;
    int contact_steps, end_contacts;
} coll_result;

/* Linear and angular momentum (about the origin) of the free bodies. The
 * spin is read from (orientation, angular velocity), which differs from the
 * integrator's stored momentum by half a step's rotation: *err bounds that,
 * sum |L_i| |w_i| dt. */
static void momenta(grit_scene *s, grit_vec3 *P, grit_vec3 *H, double *err)
{
    *P = *H = v3_zero();
    *err = 0;
    for (int id = 0; id < grit_particle_count(s); id++) {
        double m;
        grit_vec3 I, x, v, w;
        grit_get_mass(s, id, &m, &I);
        if (!isfinite(m)) continue;
        grit_get_pos(s, id, &x);
        grit_get_vel(s, id, &v);
        grit_get_angvel(s, id, &w);
        grit_quat q;
        grit_get_ori(s, id, &q);
        grit_vec3 wb = q_unrotate(q, w);
        *P = v3_madd(*P, m, v);
        grit_vec3 Ls = q_rotate(q, v3(I.x * wb.x, I.y * wb.y, I.z * wb.z));
        *H = v3_add(*H, v3_add(v3_scale(v3_cross(x, v), m), Ls));
        *err += v3_norm(Ls) * v3_norm(w) * grit_dt(s);
    }
}

static coll_result run_collision(grit_scene *s, int steps)
{
    coll_result r = {0};
    double e0;
    momenta(s, &r.P0, &r.H0, &e0);
    CHECK(grit_step(s, 1) == GRIT_OK);
    CHECK(grit_contact_count(s) == 0); /* apart at the start */
    r.ek0 = grit_energy(s, GRIT_E_KINETIC);
    for (int k = 1; k < steps; k++) {
        CHECK(grit_step(s, 1) == GRIT_OK);
        r.contact_steps += grit_contact_count(s) > 0;
    }
    r.ek1 = grit_energy(s, GRIT_E_KINETIC);
    r.erel = grit_energy_rel_error(s);
    r.end_contacts = grit_contact_count(s);
    momenta(s, &r.P1, &r.H1, &r.herr);
    return r;
}

static grit_scene *coll_scene(int *m, double tan_phi)
{
    grit_scene *s = su_scene(1e-5, v3(0, 0, 0), 0.0);
    grit_frictmat_def d = grit_default_frictmat_def();
    d.young = 1e7;
    d.tan_phi = tan_phi;
    *m = grit_add_frictmat(s, &d);
    return s;
}

/* Two free bodies: momentum (linear and angular) exact, energy to `etol`. */
static void check_free(coll_result r, double etol, const char *name)
{
    int before = test_failures;
    CHECK(r.contact_steps > 50);
    CHECK(r.end_contacts == 0);
    double p = v3_norm(r.P0), h = fmax(v3_norm(r.H0), 1e-3);
    CHECK_VEC(r.P1, r.P0.x, r.P0.y, r.P0.z, 1e-12 * p);
    CHECK_VEC(r.H1, r.H0.x, r.H0.y, r.H0.z, 1e-12 * h + r.herr);
    CHECK_REL(r.ek1, r.ek0, etol);
    CHECK(fabs(r.erel) < etol);
    printf("  %-28s contact %5d steps, kinetic after/before - 1 = %+.2e\n", name, r.contact_steps, r.ek1 / r.ek0 - 1);
    if (test_failures != before) fprintf(stderr, "  (case %s)\n", name);
}

static void collisions_free_pairs(void)
{
    int m;
    grit_scene *s;
    grit_quat along_y = su_rot(v3(0, 0, 1), M_PI / 2);
    /* sphere onto the middle of a capsule's shaft, head on */
    s = coll_scene(&m, 0.5);
    su_capsule(s, m, v3(0, 0, 0), q_identity(), 0.1, 0.6, v3(0, 0.5, 0));
    su_sphere(s, m, v3(0, 0.205, 0), 0.1, v3(0, -0.5, 0));
    check_free(run_collision(s, 2000), 1e-5, "sphere-capsule head-on");
    grit_scene_destroy(s);
    /* sphere onto a capsule's cap, off-centre: the capsule spins */
    s = coll_scene(&m, 0.5);
    su_capsule(s, m, v3(0, 0, 0), q_identity(), 0.1, 0.6, v3(0, 0, 0));
    su_sphere(s, m, v3(0.35, 0.21, 0), 0.1, v3(0, -1, 0));
    check_free(run_collision(s, 3000), 2e-4, "sphere-capsule on cap");
    grit_scene_destroy(s);
    /* capsules end to end */
    s = coll_scene(&m, 0.5);
    su_capsule(s, m, v3(0, 0, 0), q_identity(), 0.1, 0.6, v3(0.5, 0, 0));
    su_capsule(s, m, v3(0.805, 0, 0), q_identity(), 0.1, 0.6, v3(-0.5, 0, 0));
    check_free(run_collision(s, 2000), 1e-5, "capsule-capsule end to end");
    grit_scene_destroy(s);
    /* crossed capsules, B hits near A's end: both spin */
    s = coll_scene(&m, 0.0);
    su_capsule(s, m, v3(0, 0, 0), q_identity(), 0.1, 0.6, v3(0, 0, 0));
    su_capsule(s, m, v3(0.2, 0.1, 0.205), along_y, 0.1, 0.6, v3(0, 0, -1));
    check_free(run_collision(s, 3000), 5e-4, "capsule-capsule crossed");
    grit_scene_destroy(s);
    /* ellipsoids along their long axes, head on */
    s = coll_scene(&m, 0.5);
    su_ellipsoid(s, m, v3(0, 0, 0), q_identity(), v3(0.2, 0.1, 0.08), v3(0.5, 0, 0));
    su_ellipsoid(s, m, v3(0.405, 0, 0), q_identity(), v3(0.2, 0.1, 0.08), v3(-0.5, 0, 0));
    check_free(run_collision(s, 2000), 1e-4, "ellipsoids head-on");
    grit_scene_destroy(s);
    /* oblique ellipsoids, turned: both spin */
    s = coll_scene(&m, 0.0);
    su_ellipsoid(s, m, v3(0, 0, 0), su_rot(v3(1, 1, 0), 0.7), v3(0.2, 0.1, 0.08), v3(0, 0, 0));
    su_ellipsoid(s, m, v3(0.1, 0.45, 0.05), su_rot(v3(0, 1, 1), 1.2), v3(0.2, 0.12, 0.06), v3(0, -1, 0));
    check_free(run_collision(s, 40000), 1e-3, "ellipsoids oblique");
    grit_scene_destroy(s);
    /* sphere glancing off an ellipsoid. The exact gap (default) conserves
     * the energy like the other pairs. The Perram-Wertheim gap (woo_geom)
     * is exact only to first order in the overlap, so its spring is not
     * conservative: the energy error is proportional to the overlap
     * (independent of dt), -2.2e-3 at 1 m/s and a quarter of that at
     * 0.25 m/s */
    for (int woo = 0; woo < 2; woo++) {
        double err[2];
        for (int k = 0; k < 2; k++) {
            double v = k ? 0.25 : 1.0;
            s = coll_scene(&m, 0.0);
            grit_scene_def d = *grit_scene_get_def(s);
            d.woo_geom = woo;
            CHECK(grit_scene_set_def(s, &d) == GRIT_OK);
            su_ellipsoid(s, m, v3(0, 0, 0), su_rot(v3(0, 0, 1), 0.5), v3(0.25, 0.1, 0.1), v3(0, 0, 0));
            su_sphere(s, m, v3(0.15, 0.25, 0), 0.08, v3(0, -v, 0));
            coll_result r = run_collision(s, (int)(4000 / v));
            check_free(r, woo ? 3e-3 * v : 1e-5,
                       woo ? (k ? "(woo) sphere-ellipsoid 0.25 m/s" : "(woo) sphere-ellipsoid oblique")
                           : (k ? "sphere-ellipsoid at 0.25 m/s" : "sphere-ellipsoid oblique"));
            err[k] = r.ek1 / r.ek0 - 1;
            grit_scene_destroy(s);
        }
        if (woo) CHECK(err[0] / err[1] > 3.5 && err[0] / err[1] < 4.5);
    }
    /* capsule glancing off an ellipsoid (grit extension, exact geometry) */
    s = coll_scene(&m, 0.0);
    su_ellipsoid(s, m, v3(0, 0, 0), su_rot(v3(0, 0, 1), 0.5), v3(0.25, 0.1, 0.1), v3(0, 0, 0));
    su_capsule(s, m, v3(0.1, 0.3, 0.05), su_rot(v3(1, 0, 1), 0.4), 0.06, 0.2, v3(0, -1, 0));
    check_free(run_collision(s, 15000), 1e-5, "capsule-ellipsoid oblique");
    grit_scene_destroy(s);
}

static void check_bounce(coll_result r, double etol, const char *name)
{
    int before = test_failures;
    CHECK(r.contact_steps > 50);
    CHECK(r.end_contacts == 0);
    CHECK_REL(r.ek1, r.ek0, etol);
    CHECK(fabs(r.erel) < etol);
    printf("  %-28s contact %5d steps, kinetic after/before - 1 = %+.2e\n", name, r.contact_steps, r.ek1 / r.ek0 - 1);
    if (test_failures != before) fprintf(stderr, "  (case %s)\n", name);
}

static void collisions_with_boundaries(void)
{
    int m;
    grit_scene *s;
    coll_result r;
    grit_vec3 v;
    /* capsule flat onto a wall: straight back */
    s = coll_scene(&m, 0.5);
    su_wall(s, m, 2, 0.0, 0);
    /* 2.5 mm apart: the conservative gap of a flat capsule is r / 48 below its ends' */
    int c = su_capsule(s, m, v3(0, 0, 0.1025), q_identity(), 0.1, 0.6, v3(0, 0, -1));
    r = run_collision(s, 2000);
    check_bounce(r, 1e-5, "capsule flat on wall");
    grit_get_vel(s, c, &v);
    CHECK_VEC(v, 0, 0, 1, 1e-5);
    grit_scene_destroy(s);
    /* tilted capsule onto a wall (weighted end gaps) */
    s = coll_scene(&m, 0.0);
    su_wall(s, m, 2, 0.0, 0);
    su_capsule(s, m, v3(0, 0, 0.2), su_rot(v3(0, 1, 0), -0.3), 0.1, 0.6, v3(0, 0, -1));
    check_bounce(run_collision(s, 6000), 1e-3, "capsule tilted on wall");
    grit_scene_destroy(s);
    /* tilted ellipsoid onto a wall */
    s = coll_scene(&m, 0.0);
    su_wall(s, m, 2, 0.0, 0);
    su_ellipsoid(s, m, v3(0, 0, 0.17), su_rot(v3(0, 1, 0), 0.6), v3(0.2, 0.1, 0.08), v3(0, 0, -1));
    check_bounce(run_collision(s, 5000), 1e-3, "ellipsoid tilted on wall");
    grit_scene_destroy(s);
    /* sphere onto an infinite cylinder, capsule across another */
    s = coll_scene(&m, 0.5);
    su_infcyl(s, m, v3(0, 0, 0), 0, 0.3);
    int sp = su_sphere(s, m, v3(2, 0, 0.4005), 0.1, v3(0, 0, -1));
    su_infcyl(s, m, v3(0, 5, 0), 0, 0.3);
    su_capsule(s, m, v3(0, 5, 0.4005), su_rot(v3(0, 0, 1), M_PI / 2), 0.1, 0.6, v3(0, 0, -1));
    check_bounce(run_collision(s, 2000), 1e-5, "on infinite cylinders");
    grit_get_vel(s, sp, &v);
    CHECK_VEC(v, 0, 0, 1, 1e-5);
    grit_scene_destroy(s);
    /* sphere onto a rod */
    s = coll_scene(&m, 0.5);
    su_rod(s, m, v3(-1, 0, 0), v3(1, 0, 0), 0.05);
    sp = su_sphere(s, m, v3(0.3, 0, 0.1505), 0.1, v3(0, 0, -1));
    check_bounce(run_collision(s, 2000), 1e-5, "sphere on rod");
    grit_get_vel(s, sp, &v);
    CHECK_VEC(v, 0, 0, 1, 1e-5);
    grit_scene_destroy(s);
    /* capsule flat onto a facet; capsule onto a facet's edge */
    s = coll_scene(&m, 0.5);
    su_facet(s, m, v3(-2, -2, 0), v3(2, -2, 0), v3(0, 2, 0), 0.0);
    c = su_capsule(s, m, v3(0, -0.5, 0.1025), q_identity(), 0.1, 0.8, v3(0, 0, -1));
    check_bounce(run_collision(s, 2000), 1e-5, "capsule flat on facet");
    grit_get_vel(s, c, &v);
    CHECK_VEC(v, 0, 0, 1, 1e-5);
    grit_scene_destroy(s);
    /* tilted ellipsoid onto a facet face: exact gap, as on a wall */
    s = coll_scene(&m, 0.0);
    su_facet(s, m, v3(-2, -2, 0), v3(2, -2, 0), v3(0, 2, 0), 0.0);
    su_ellipsoid(s, m, v3(0, -0.5, 0.17), su_rot(v3(0, 1, 0), 0.6), v3(0.2, 0.1, 0.08), v3(0, 0, -1));
    check_bounce(run_collision(s, 5000), 1e-4, "ellipsoid tilted on facet");
    grit_scene_destroy(s);
    /* ...and onto a facet's edge (exact geometry there too) */
    s = coll_scene(&m, 0.0);
    su_facet(s, m, v3(0, -1, 0), v3(1, -1, 0), v3(0, 1, 0), 0.0);
    su_ellipsoid(s, m, v3(-0.1, 0.1, 0.2), su_rot(v3(1, 1, 0), 0.6), v3(0.2, 0.1, 0.08), v3(0, 0, -1));
    check_bounce(run_collision(s, 30000), 1e-4, "ellipsoid on facet edge");
    grit_scene_destroy(s);
    s = coll_scene(&m, 0.0);
    su_facet(s, m, v3(0, -1, 0), v3(1, -1, 0), v3(0, 1, 0), 0.03);
    su_capsule(s, m, v3(-0.3, 0, 0.25), su_rot(v3(0, 1, 0), 0.4), 0.1, 0.6, v3(0, 0, -1));
    check_bounce(run_collision(s, 6000), 2e-3, "capsule on facet edge");
    grit_scene_destroy(s);
}

/* Fixed bodies driven into each other: the force on each is kn uN along the
 * normal, equal and opposite. */
static void kinematic_pairs(void)
{
    for (int k = 0; k < 3; k++) {
        grit_scene *s = su_scene(1e-5, v3(0, 0, 0), 0.0);
        int m = su_mat(s, 1e7, 1000);
        int a, b;
        grit_facet_def f = grit_default_facet_def();
        f.material = m;
        f.mask = 1;
        f.half_thick = 0.05;
        f.v[0] = v3(0, 0, 0.06);
        f.v[1] = v3(1, 0, 0.06);
        f.v[2] = v3(0, 1, 0.06);
        f.vel = v3(0, 0, -1);
        if (k == 0) { /* Wall-Facet */
            grit_wall_def w = grit_default_wall_def();
            w.material = m;
            w.mask = 1;
            a = grit_add_wall(s, &w);
            b = grit_add_facet(s, &f);
        } else if (k == 1) { /* Facet-Facet */
            grit_facet_def g = f;
            g.vel = v3(0, 0, 0);
            g.v[0] = v3(-0.5, -0.5, -0.05);
            g.v[1] = v3(2, -0.5, -0.05);
            g.v[2] = v3(-0.5, 2, -0.05);
            a = grit_add_facet(s, &g);
            b = grit_add_facet(s, &f);
        } else { /* Facet-InfCylinder: the cylinder moves down onto a thin facet */
            f.vel = v3(0, 0, 0);
            f.half_thick = 0;
            f.mask = GRIT_MASK_BOUNDARY;
            f.v[0] = v3(-1, -1, 0);
            f.v[1] = v3(1, -0.5, 0);
            f.v[2] = v3(0, 1, 0);
            a = grit_add_facet(s, &f);
            grit_infcylinder_def y = grit_default_infcylinder_def();
            y.material = m;
            y.axis = 0;
            y.radius = 0.2;
            y.pos = v3(0, 0, 0.205);
            y.vel = v3(0, 0, -1);
            b = grit_add_infcylinder(s, &y);
        }
        CHECK(a >= 0 && b >= 0);
        int touching = 0;
        for (int n = 0; n < 2000; n++) {
            CHECK(grit_step(s, 1) == GRIT_OK);
            int i = grit_contact_find(s, a, b);
            if (i < 0) continue;
            touching++;
            grit_contact_info ci;
            grit_contact_get(s, i, &ci);
            grit_vec3 fa, fb;
            grit_get_force(s, a, &fa);
            grit_get_force(s, b, &fb);
            CHECK_VEC(fa, ci.force_global.x, ci.force_global.y, ci.force_global.z, 1e-9 * (1 + v3_norm(fa)));
            CHECK_VEC(fb, -fa.x, -fa.y, -fa.z, 1e-9 * (1 + v3_norm(fa)));
            CHECK_ABS(ci.force.x, ci.kn * ci.uN, 1e-9 * fabs(ci.force.x) + 1e-12);
            CHECK_VEC(ci.normal, 0, 0, 1, 1e-12);
        }
        CHECK(touching > 1000);
        grit_scene_destroy(s);
    }
}

int main(void)
{
    RUN(resting_contacts);
    RUN(collisions_free_pairs);
    RUN(collisions_with_boundaries);
    RUN(kinematic_pairs);
    TEST_MAIN_END();
}
