/* Energy conservation with aspherical particles: capsules, ellipsoids and
 * spheres bounce in a closed box of walls with facets across its corners,
 * under gravity, without damping. The energy balance error (total of the
 * tracker minus its initial value, relative to the initial kinetic energy)
 * must converge with the time step.
 *
 * The error is read when no contact is active: during a contact the
 * tracker's sum oscillates by about (omega dt)^2 of the stored energy (the
 * leapfrog's second-order error, docs/linear-model.md), which is not an
 * error of the balance. What remains between contacts is the energy the
 * integration and the contact geometry created or destroyed. */
#include "shapes_util.h"

static unsigned long long rng;
static double urand(void)
{
    rng = rng * 6364136223846793005ULL + 1442695040888963407ULL;
    return (double)(rng >> 11) * (1.0 / 9007199254740992.0);
}
static double urange(double a, double b) { return a + (b - a) * urand(); }
/* three draws in a fixed order, z first: as arguments of one call their
 * order is unspecified (GCC evaluates the last first, Clang the first), and
 * the two compilers' builds ran different scenes; z, y, x is GCC's order */
static grit_vec3 urange3(double a, double b)
{
    const double z = urange(a, b), y = urange(a, b);
    return v3(urange(a, b), y, z);
}
static bool woo = false; /* scene parameter woo_geom */

enum { CAPSULES = 1, ELLIPSOIDS = 2, SPHERES = 4, ALL = 7 };
static const double L = 0.3; /* box edge */

typedef struct result {
    double err;    /* |balance| at the last instant without contacts / initial kinetic energy */
    double worst;  /* the largest such value over the run */
    long contacts; /* contacts created over the run (that there were collisions) */
    int free_steps;
    double dt;
} result;

static result run(int kinds, int n, double dt_factor, double tan_phi, double T, unsigned long long seed)
{
    rng = seed;
    grit_scene_def sd = grit_default_scene_def();
    sd.gravity = v3(0, 0, -9.81);
    sd.track_energy = true;
    sd.woo_geom = woo;
    grit_scene *s = grit_scene_create(&sd);
    grit_frictmat_def md = grit_default_frictmat_def();
    md.young = 1e6;
    md.density = 2600;
    md.tan_phi = tan_phi;
    const int m = grit_add_frictmat(s, &md);
    /* closed box; facets cut two lower corners and one upper one */
    for (int ax = 0; ax < 3; ax++) {
        su_wall(s, m, ax, 0.0, 1);
        su_wall(s, m, ax, L, -1);
    }
    const double c = 0.06;
    su_facet(s, m, v3(c, 0, 0), v3(c, L, 0), v3(0, L, c), 0.0);
    su_facet(s, m, v3(c, 0, 0), v3(0, L, c), v3(0, 0, c), 0.0);
    su_facet(s, m, v3(L - c, 0, 0), v3(L, 0, c), v3(L, L, c), 0.004);
    su_facet(s, m, v3(L - c, 0, 0), v3(L, L, c), v3(L - c, L, 0), 0.004);
    su_facet(s, m, v3(L, 0, L - c), v3(L - c, 0, L), v3(L, L - c, L), 0.0);
    /* particles on a lattice, random orientations, velocities and spins */
    const int per = 4;
    const double h = (L - 2 * c) / per;
    int k = 0;
    for (int i = 0; k < n && i < per * per * per; i++) {
        const int kind = (kinds & (1 << (k % 3))) ? k % 3 : (kinds & 1 ? 0 : (kinds & 2 ? 1 : 2));
        grit_vec3 p = v3(c + (i % per + 0.5) * h, c + (i / per % per + 0.5) * h, c + (i / (per * per) + 0.5) * h);
        grit_vec3 v = urange3(-1, 1);
        const double angle = urange(0, M_PI);
        grit_quat q = su_rot(urange3(-1, 1), angle);
        int id;
        if (kind == 0) id = su_capsule(s, m, p, q, 0.008, 0.016, v);
        else if (kind == 1) id = su_ellipsoid(s, m, p, q, v3(0.016, 0.011, 0.008), v);
        else id = su_sphere(s, m, p, 0.01, v);
        grit_set_angvel(s, id, urange3(-20, 20));
        k++;
    }
    double dt0;
    if (grit_check_dt(s, &dt0)) fprintf(stderr, "%s\n", grit_last_error(s));
    grit_scene_def d = *grit_scene_get_def(s);
    d.dt = dt_factor * grit_critical_dt(s);
    CHECK(grit_scene_set_def(s, &d) == GRIT_OK);
    result r = {0, 0, 0, 0, d.dt};
    CHECK(grit_step(s, 1) == GRIT_OK);
    const double e0 = grit_energy(s, GRIT_E_KINETIC);
    const long steps = (long)(T / d.dt);
    int prev = 0;
    for (long st = 1; st < steps; st++) {
        if (grit_step(s, 1) != GRIT_OK) {
            fprintf(stderr, "%s: %s\n", test_current, grit_last_error(s));
            test_failures++;
            break;
        }
        const int nc = grit_contact_count(s);
        if (nc > prev) r.contacts += nc - prev;
        prev = nc;
        if (nc == 0) {
            r.err = fabs(grit_energy_total(s) - grit_energy_initial(s)) / e0;
            r.worst = fmax(r.worst, r.err);
            r.free_steps++;
        }
    }
    grit_scene_destroy(s);
    return r;
}

/* The error at three time steps, each half the previous (fractions of the
 * critical step), over an ensemble of SCENES scenes (seeds 1..SCENES) of
 * SPAN seconds each: its geometric mean must fall below tol at the smallest
 * step and shrink by the given factor from the largest to the smallest (a
 * factor 16 is second order).
 *
 * Why an ensemble of short scenes and not one long one: a box of bouncing
 * aspherical particles is chaotic, so over 0.5 s the runs at dt, dt/2 and
 * dt/4 went through different collisions, and one run's error at each step
 * was a draw from the errors of collisions in general: its ratio from dt to
 * dt/4 ranged from 4.7 to 71 between seeds (and between compilers, which
 * once drew the initial state in other orders). Over 0.125 s a scene has 10
 * to 35 collisions and the three runs go through the same ones (in 22 of 32
 * scenes measured they created the same number of contacts, in the others
 * one to three grazing touches more or fewer), so each scene's ratio is that
 * of one set of collisions integrated more finely; the
 * geometric mean over eight scenes (the mean of the logarithms, which a
 * single ratio of 70 does not dominate) is the typical ratio, on more
 * collisions (134 to 237 contacts created at dt/4) than the long run had
 * (77 to 141). */
enum { SCENES = 8 };
static const double SPAN = 0.125;

static void converges(const char *what, int kinds, int n, double f0, double tol, double factor)
{
    double lg[3] = {0, 0, 0}, dt = 0;
    long contacts = 0;
    int free_steps = 0;
    for (int seed = 1; seed <= SCENES; seed++)
        for (int k = 0; k < 3; k++) {
            const result r = run(kinds, n, f0 / (1 << k), 0.0, SPAN, (unsigned long long)seed);
            CHECK(r.worst > 0); /* a scene without error would make the mean meaningless */
            lg[k] += log(fmax(r.worst, 1e-300)) / SCENES;
            if (k == 0) dt = r.dt;
            if (k == 2) contacts += r.contacts, free_steps += r.free_steps;
        }
    const double a = exp(lg[0]), b = exp(lg[1]), c = exp(lg[2]);
    printf("  %-30s dt = %.3g s: error %.3g, dt/2: %.3g, dt/4: %.3g (down %.1f x; geometric means of %d scenes of "
           "%g s: %ld contacts, %d free steps at dt/4)\n",
           what, dt, a, b, c, a / c, SCENES, SPAN, contacts, free_steps);
    CHECK(contacts > 100 && free_steps > 1000);
    CHECK(c < tol);
    CHECK(a > factor * c);
    if (factor >= 8) CHECK(b < a);
}

/* With the spec's (Woo's) geometry the capsules and ellipsoids do not
 * converge: the error stays at a few 1e-3 whatever the step. */
static void woo_geometry_does_not_converge(void)
{
    woo = true;
    result a = run(CAPSULES | ELLIPSOIDS, 18, 0.1, 0.0, 0.5, 7), c = run(CAPSULES | ELLIPSOIDS, 18, 0.025, 0.0, 0.5, 7);
    woo = false;
    printf("  woo_geom: error %.3g at dt = %.3g s, %.3g at dt/4\n", a.worst, a.dt, c.worst);
    CHECK(c.worst > 1e-3);
    CHECK(c.worst > 0.5 * a.worst);
}

static void spheres(void) { converges("spheres", SPHERES, 18, 0.2, 1e-4, 8); }
/* capsules keep an error that does not shrink with the step where a capsule
 * meets a thick facet's edge: there its two ends see different normals and
 * their smooth minimum (width r / 8) is conservative only to first order
 * (docs/shapes.md, "a capsule's two ends"); a capsule of seed 5 against the
 * edge of the facet of half thickness 4 mm keeps 3.8e-3 of its kinetic
 * energy at every step from 0.05 to 0.006 x critical, 7e-4 with a width of
 * r / 32. So they gain less. */
static void capsules(void) { converges("capsules", CAPSULES, 18, 0.2, 3e-4, 3); }
static void ellipsoids(void) { converges("ellipsoids", ELLIPSOIDS, 18, 0.2, 1e-4, 8); }
static void mixed(void) { converges("capsules, ellipsoids, spheres", ALL, 24, 0.2, 1e-4, 8); }

int main(void)
{
    RUN(spheres);
    RUN(capsules);
    RUN(ellipsoids);
    RUN(mixed);
    RUN(woo_geometry_does_not_converge);
    TEST_MAIN_END();
}
