/* The Hertz-Mindlin law (HertzMat, HertzPhys, law hertz; docs/hertz.md):
 * normal impacts against Hertz's theory (force, overlap, duration), the
 * prescribed restitution with and without limit_force, Mindlin's tangential
 * stiffness and the Coulomb limit under imposed motion, the unloading rule
 * dissipating, walls, facets, capsules and ellipsoids, the energy balance of
 * a pile, the Rayleigh time step, HertzMat against FrictMat and ConcreteMat,
 * pair overrides and their errors, restart. */
#include "core/scene_impl.h"
#include "fixture.h"
#include "grit/restart.h"
#include "law2/hertz.h"

static int hmat(grit_scene *s, double young, double poisson, double density, double tan_phi, double e)
{
    grit_hertzmat_def m = grit_default_hertzmat_def();
    m.young = young;
    m.poisson = poisson;
    m.density = density;
    m.tan_phi = tan_phi;
    m.restitution = e;
    return fx_must(s, grit_add_hertzmat(s, &m), "add HertzMat");
}

static double rayleigh_time(double young, double poisson, double density, double r)
{
    return M_PI * r * sqrt(density * 2 * (1 + poisson) / young) / (0.1631 * poisson + 0.8766);
}

/* Hertz's elastic impact: maximum overlap, force and the contact duration of
 * effective modulus E, radius R and mass m at approach speed v. */
typedef struct hertz_impact {
    double dmax, fmax, tc;
} hertz_impact;

static hertz_impact hertz_theory(double E, double R, double m, double v)
{
    hertz_impact h;
    h.dmax = pow(15.0 * m * v * v / (16.0 * E * sqrt(R)), 0.4);
    h.fmax = 4.0 / 3.0 * E * sqrt(R) * pow(h.dmax, 1.5);
    /* duration 2 int_0^1 dx / sqrt(1 - x^(5/2)) dmax / v = 2.9432 dmax / v */
    h.tc = 2.9432 * h.dmax / v;
    return h;
}

typedef struct measured {
    double fmax, dmax, tc;
    int steps;
} measured;

/* Steps the scene through one impact (the first contact made and lost). */
static measured run_impact(grit_scene *s, long max_steps)
{
    measured m = {0, 0, 0, 0};
    bool touched = false;
    for (long k = 0; k < max_steps; k++) {
        CHECK(grit_step(s, 1) == GRIT_OK);
        if (grit_contact_count(s)) {
            grit_contact_info c;
            grit_contact_get(s, 0, &c);
            m.fmax = fmax(m.fmax, -c.force.x);
            m.dmax = fmax(m.dmax, -c.uN);
            m.steps++;
            touched = true;
        } else if (touched)
            break;
    }
    m.tc = m.steps * grit_dt(s);
    return m;
}

static double sphere_mass(double rho, double r) { return rho * 4.0 / 3.0 * M_PI * r * r * r; }

/* ---- normal impacts --------------------------------------------------------------------- */
/* Chung & Ooi's test 1 (glass spheres, 10 m/s each): force, overlap and
 * duration of the impact as Hertz's theory has them, the speed given back. */
static void normal_impact_sphere_sphere(void)
{
    const double E = 4.8e10, nu = 0.2, rho = 2800, r = 0.01, v = 10.0;
    grit_scene *s = fx_scene_dt(0.005 * rayleigh_time(E, nu, rho, r));
    grit_scene_def d = *grit_scene_get_def(s);
    d.gravity = v3_zero();
    fx_must(s, grit_scene_set_def(s, &d), "def");
    const int m = hmat(s, E, nu, rho, 0.35, 1.0);
    const int a = fx_sphere(s, m, v3(-r - 1e-6, 0, 0), r, v3(v, 0, 0));
    fx_sphere(s, m, v3(r + 1e-6, 0, 0), r, v3(-v, 0, 0));
    const measured got = run_impact(s, 1000000);
    const hertz_impact th = hertz_theory(E / (2 * (1 - nu * nu)), r / 2, sphere_mass(rho, r) / 2, 2 * v);
    printf("  glass: Fmax %.4f kN (Hertz %.4f), overlap %.3f um (%.3f), duration %.3f us (%.3f)\n", got.fmax / 1e3,
           th.fmax / 1e3, got.dmax * 1e6, th.dmax * 1e6, got.tc * 1e6, th.tc * 1e6);
    CHECK_REL(got.fmax, th.fmax, 1e-4);
    CHECK_REL(got.dmax, th.dmax, 1e-4);
    CHECK_REL(got.tc, th.tc, 3e-3);
    grit_vec3 va;
    grit_get_vel(s, a, &va);
    CHECK_REL(va.x, -v, 1e-6);
    printf("  energy balance after the impact: %.2e\n", grit_energy_rel_error(s));
    CHECK(fabs(grit_energy_rel_error(s)) < 1e-6);
    grit_scene_destroy(s);
}

/* A sphere against a wall, a facet and (head on) a capsule's cap: a flat
 * side brings no curvature, a cap its radius; all as Hertz says. */
static void walls_facets_capsules(void)
{
    const double E = 7e10, nu = 0.3, rho = 2700, r = 0.1, v = 0.2;
    const double Es = 1.0 / (2 * (1 - nu * nu) / E); /* both sides of the material */
    for (int kind = 0; kind < 4; kind++) {
        grit_scene *s = fx_scene_dt(0.005 * rayleigh_time(E, nu, rho, r));
        grit_scene_def d = *grit_scene_get_def(s);
        d.gravity = v3_zero();
        fx_must(s, grit_scene_set_def(s, &d), "def");
        const int m = hmat(s, E, nu, rho, 0.0, 1.0);
        double R = r, M = sphere_mass(rho, r);
        if (kind == 0) fx_wall(s, m, 0, 0.0, 0);
        if (kind == 1) fx_facet(s, m, v3(0, -1, -1), v3(0, 1, -1), v3(0, 0, 1), 0.0);
        if (kind == 2) { /* a fixed capsule along x, its cap at x = 0 */
            grit_capsule_def c = grit_default_capsule_def();
            c.pos = v3(0.15 + 0.1, 0, 0);
            c.radius = 0.15;
            c.shaft = 0.2;
            c.material = m;
            c.blocked = GRIT_BLOCK_ALL;
            fx_must(s, grit_add_capsule(s, &c), "capsule");
            R = 1.0 / (1.0 / r + 1.0 / 0.15);
        }
        if (kind == 3) { /* a fixed ellipsoid, a tip of radius of curvature... the distance to its centre */
            grit_ellipsoid_def e = grit_default_ellipsoid_def();
            e.pos = v3(0.3, 0, 0);
            e.semi_axes = v3(0.3, 0.2, 0.2);
            e.material = m;
            e.blocked = GRIT_BLOCK_ALL;
            fx_must(s, grit_add_ellipsoid(s, &e), "ellipsoid");
            R = 1.0 / (1.0 / r + 1.0 / 0.3); /* the equivalent sphere through the contact point */
        }
        fx_sphere(s, m, v3(-r - 1e-6, 0, 0), r, v3(v, 0, 0));
        const measured got = run_impact(s, 1000000);
        const hertz_impact th = hertz_theory(Es, R, M, v);
        printf("  %s: Fmax %.4f N (Hertz %.4f), overlap %.4f um (%.4f)\n",
               (const char *[]){"wall", "facet", "capsule cap", "ellipsoid tip"}[kind], got.fmax, th.fmax,
               got.dmax * 1e6, th.dmax * 1e6);
        CHECK_REL(got.fmax, th.fmax, 2e-4);
        CHECK_REL(got.dmax, th.dmax, 2e-4);
        grit_scene_destroy(s);
    }
}

/* The rebound speed over the impact speed is the prescribed restitution
 * (Tsuji's damping with the dashpot allowed to pull at the end); with
 * limit_force it is higher. Energy: the dashpot's work is booked. */
static double restitution_of(double e, bool limit_force, double dt_frac, double *balance)
{
    const double E = 3.8e11, nu = 0.23, rho = 4000, r = 0.0025, v = 3.9;
    grit_scene *s = fx_scene_dt(dt_frac * rayleigh_time(E, nu, rho, r));
    grit_scene_def d = *grit_scene_get_def(s);
    d.gravity = v3_zero();
    fx_must(s, grit_scene_set_def(s, &d), "def");
    grit_hertz_def law = grit_default_hertz_def();
    law.limit_force = limit_force;
    fx_must(s, grit_set_law_def(s, GRIT_LAW_HERTZ, &law, sizeof law), "law");
    const int m = hmat(s, E, nu, rho, 0.0, e), w = hmat(s, 1e6 * E, nu, rho, 0.0, e);
    fx_wall(s, w, 0, 0.0, 0);
    const int id = fx_sphere(s, m, v3(-r - 1e-7, 0, 0), r, v3(v, 0, 0));
    run_impact(s, 1000000);
    grit_vec3 vel;
    grit_get_vel(s, id, &vel);
    if (balance) *balance = grit_energy_rel_error(s);
    grit_scene_destroy(s);
    return -vel.x / v;
}

static void restitution(void)
{
    const double es[] = {0.0, 0.1, 0.2, 0.4, 0.6, 0.8, 0.9, 1.0};
    printf("  prescribed  measured  limit_force\n");
    for (int i = 0; i < 8; i++) {
        double bal;
        const double got = restitution_of(es[i], false, 0.01, &bal), lim = restitution_of(es[i], true, 0.01, NULL);
        printf("  %10.2f %9.5f %12.5f   (balance %.1e)\n", es[i], got, lim, bal);
        CHECK_ABS(got, es[i], 1e-3);
        if (es[i] > 0 && es[i] < 1) CHECK(lim > got + 0.001);
    }
    CHECK_ABS(restitution_of(0.2, true, 0.01, NULL), 0.325, 0.01); /* Thornton et al.'s finding */
    /* the dashpots' work by the trapezoid of the forces: better than first order */
    double b1, b2;
    restitution_of(0.5, false, 0.02, &b1);
    restitution_of(0.5, false, 0.01, &b2);
    printf("  balance at e = 0.5: %.2e at 0.02 t_R, %.2e at 0.01 t_R\n", b1, b2);
    CHECK(fabs(b1) < 1e-3 && fabs(b1 / b2) > 2.5);
}

/* ---- tangential: Mindlin's stiffness, the Coulomb limit, the unloading rule -------------- */
/* A sphere pressed onto a wall to a fixed overlap, then moved along it:
 * the force grows as 8 G* a s until it reaches tan_phi F_n. */
static void mindlin_and_coulomb(void)
{
    const double E = 7e10, nu = 0.3, rho = 2700, r = 0.01, mu = 0.3, delta = 2e-6, vt = 1e-3;
    const double dt = 1e-7;
    grit_scene *s = fx_scene_dt(dt);
    grit_scene_def d = *grit_scene_get_def(s);
    d.gravity = v3_zero();
    fx_must(s, grit_scene_set_def(s, &d), "def");
    const int m = hmat(s, E, nu, rho, mu, 0.5);
    fx_wall(s, m, 2, 0.0, 1);
    const int id = fx_sphere(s, m, v3(0, 0, r - delta), r, v3_zero());
    fx_must(s, grit_impose_vel(s, id, v3(vt, 0, 0), GRIT_BLOCK_X | GRIT_BLOCK_Y | GRIT_BLOCK_Z), "impose");
    fx_must(s, grit_set_blocked(s, id, GRIT_BLOCK_ALL), "block");
    const double Es = E / (2 * (1 - nu * nu)), Gs = E / (4 * (2 - nu) * (1 + nu)), a = sqrt(r * delta);
    const double Fn = 4.0 / 3.0 * Es * sqrt(r) * pow(delta, 1.5), kt = 8 * Gs * a;
    CHECK(grit_step(s, 1) == GRIT_OK);
    grit_contact_info c = fx_only_contact(s);
    CHECK_REL(-c.force.x, Fn, 1e-12);
    CHECK_REL(c.kn, 2 * Es * a, 1e-12);
    CHECK_REL(c.kt, kt, 1e-12);
    /* sliding at vt: the spring force after n steps is kt vt n dt (the
     * dashpot of the stick phase on top, gamma_t vt) */
    double ft_stick = 0, ft_end = 0;
    long n_slip = -1;
    for (long k = 1; k < 6000; k++) {
        CHECK(grit_step(s, 1) == GRIT_OK);
        grit_contact_get(s, 0, &c);
        const double ft = hypot(c.force.y, c.force.z);
        if (k == 20) ft_stick = ft;
        if (n_slip < 0 && fabs(ft - mu * Fn) < 1e-9 * Fn) n_slip = k;
        ft_end = ft;
    }
    const double m1 = sphere_mass(rho, r);
    const double beta = log(0.5) / sqrt(log(0.5) * log(0.5) + M_PI * M_PI);
    const double gt = -2 * sqrt(5.0 / 6.0) * beta * sqrt(kt * m1);
    printf("  Fn %.4f N, kt %.4g N/m: after 20 steps Ft %.6g N (kt vt t + gamma_t vt = %.6g), slides from step %ld "
           "(%.0f expected), then Ft = %.6g N = tan_phi Fn\n",
           Fn, kt, ft_stick, kt * vt * 20 * dt + gt * vt, n_slip, ceil(mu * Fn / (kt * vt * dt)), ft_end);
    CHECK_REL(ft_stick, kt * vt * 20 * dt + gt * vt, 1e-9);
    CHECK(labs(n_slip - (long)ceil(mu * Fn / (kt * vt * dt))) <= 1);
    CHECK_REL(ft_end, mu * Fn, 1e-12);
    grit_scene_destroy(s);
}

/* The tangential spring under a normal load going up and down, no slip:
 * the unloading rule (the force shrinks with the contact) dissipates, never
 * creates, energy; the balance closes. */
static void unloading_rule(void)
{
    const double E = 7e10, nu = 0.3, rho = 2700, r = 0.01;
    grit_scene *s = fx_scene_dt(1e-7);
    grit_scene_def d = *grit_scene_get_def(s);
    d.gravity = v3_zero();
    fx_must(s, grit_scene_set_def(s, &d), "def");
    const int m = hmat(s, E, nu, rho, 10.0, 1.0); /* sticks */
    fx_wall(s, m, 2, 0.0, 1);
    const int id = fx_sphere(s, m, v3(0, 0, r - 1e-6), r, v3_zero());
    fx_must(s, grit_set_blocked(s, id, GRIT_BLOCK_ALL), "block");
    double plast_prev = 0, plast_min_step = INFINITY;
    for (int k = 0; k < 4000; k++) {
        const double t = k * 1e-7;
        /* normal in and out, tangential back and forth, out of phase */
        fx_must(s, grit_set_vel(s, id, v3(2e-3 * cos(2 * M_PI * t / 1e-4), 0, -4e-3 * sin(2 * M_PI * t / 2e-4))),
                "vel");
        CHECK(grit_step(s, 1) == GRIT_OK);
        const double pl = grit_energy(s, GRIT_E_PLAST);
        plast_min_step = fmin(plast_min_step, pl - plast_prev);
        plast_prev = pl;
    }
    printf("  plastic (unloading) energy %.3e J, smallest step %.1e J, elastic now %.3e J\n", plast_prev,
           plast_min_step, grit_energy(s, GRIT_E_ELAST));
    CHECK(plast_prev > 0 && plast_min_step >= -1e-15 * plast_prev); /* rounding */
    grit_scene_destroy(s);
}

/* ---- energy of a pile ---------------------------------------------------------------- */
static grit_scene *pile(double dt_frac, bool simd, int n)
{
    const double E = 1e8, nu = 0.3, rho = 2500, r = 0.005;
    grit_scene_def d = grit_default_scene_def();
    d.track_energy = true;
    d.simd = simd;
    d.dt = dt_frac * rayleigh_time(E, nu, rho, r);
    d.gravity = v3(0, 0, -9.81);
    grit_scene *s = fx_scene(&d);
    const int m = hmat(s, E, nu, rho, 0.5, 0.6);
    fx_wall(s, m, 2, 0.0, 1);
    fx_wall(s, m, 0, 0.0, 1);
    fx_wall(s, m, 0, 0.06, -1);
    fx_wall(s, m, 1, 0.0, 1);
    fx_wall(s, m, 1, 0.06, -1);
    unsigned long long rng = 7;
    for (int i = 0; i < n; i++) {
        const int ix = i % 5, iy = (i / 5) % 5, iz = i / 25;
        const double rr = r * (0.8 + 0.4 * fx_rand(&rng));
        const grit_vec3 x = v3(0.006 + 0.012 * ix, 0.006 + 0.012 * iy, 0.008 + 0.012 * iz);
        /* draws in GCC's order, last argument first (fixture.h, fx_rand) */
        const double vy = fx_rand(&rng), vx = fx_rand(&rng);
        const int id = fx_sphere(s, m, x, rr, v3(0.3 * (vx - 0.5), 0.3 * (vy - 0.5), -0.5));
        grit_set_angvel(s, id, v3(20 * (fx_rand(&rng) - 0.5), 0, 0));
    }
    return s;
}

static void pile_energy(void)
{
    double err[2];
    for (int q = 0; q < 2; q++) {
        grit_scene *s = pile(q ? 0.05 : 0.1, true, 100);
        const long steps = (long)(0.25 / grit_dt(s) + 0.5);
        double worst = 0;
        for (long k = 0; k < steps; k += 100) {
            CHECK(grit_step(s, 100) == GRIT_OK);
            worst = fmax(worst, fabs(grit_energy_rel_error(s)));
        }
        err[q] = worst;
        printf("  100 spheres poured in a box, %ld steps (%.2f t_R): %d contacts, plast %.3e J, visc %.3e J, "
               "worst balance %.2e\n",
               steps, q ? 0.05 : 0.1, grit_contact_count(s), grit_energy(s, GRIT_E_PLAST),
               grit_energy(s, GRIT_E_VISC), worst);
        CHECK(grit_energy(s, GRIT_E_PLAST) > 0 && grit_energy(s, GRIT_E_VISC) > 0);
        grit_scene_destroy(s);
    }
    CHECK(err[0] < 3e-3 && err[1] < 0.6 * err[0]);
}

/* ---- the time step -------------------------------------------------------------------- */
static void rayleigh_step(void)
{
    const double E = 7e10, nu = 0.3, rho = 2700, r = 0.002;
    grit_scene_def d = grit_default_scene_def();
    grit_scene *s = fx_scene(&d);
    const int m = hmat(s, E, nu, rho, 0.5, 0.5);
    fx_sphere(s, m, v3(0, 0, 0), r, v3_zero());
    fx_sphere(s, m, v3(0, 0, 3 * r), 2 * r, v3_zero());
    const double tR = rayleigh_time(E, nu, rho, r);
    CHECK_REL(grit_critical_dt(s), 0.2 * tR, 1e-12);
    double dt;
    CHECK(grit_check_dt(s, &dt) == GRIT_OK);
    CHECK_REL(dt, 0.9 * 0.2 * tR, 1e-12);
    printf("  r = 2 mm: Rayleigh time %.4g s, critical step %.4g s (p-wave r sqrt(rho/E) %.4g s)\n", tR,
           grit_critical_dt(s), r * sqrt(rho / E));
    grit_hertz_def law = grit_default_hertz_def();
    law.rayleigh_fraction = 0.3;
    fx_must(s, grit_set_law_def(s, GRIT_LAW_HERTZ, &law, sizeof law), "law");
    CHECK_REL(grit_critical_dt(s), 0.3 * tR, 1e-12);
    /* a FrictMat it may meet brings the p-wave estimate of its linear contacts */
    grit_frictmat_def f = grit_default_frictmat_def();
    f.young = E;
    const int fm = fx_must(s, grit_add_frictmat(s, &f), "FrictMat");
    fx_wall(s, fm, 2, -1.0, 1);
    CHECK_REL(grit_critical_dt(s), r * sqrt(rho / E), 1e-12);
    grit_scene_def d2 = *grit_scene_get_def(s);
    d2.dt = 0.5 * tR;
    fx_must(s, grit_scene_set_def(s, &d2), "def");
    CHECK(grit_step(s, 1) == GRIT_EINVAL);
    printf("  %s\n", grit_last_error(s));
    CHECK(strstr(grit_last_error(s), "Rayleigh") != NULL);
    grit_scene_destroy(s);
}

/* ---- materials meeting --------------------------------------------------------------- */
static void mixed_materials(void)
{
    grit_scene *s = fx_scene_dt(1e-6);
    const int h = hmat(s, 1e8, 0.25, 2500, 0.4, 0.5);
    const int f = fx_mat(s, 1e8, 0.3, 0.6);
    CHECK(grit_pair_law(s, h, h) == GRIT_LAW_HERTZ);
    CHECK(grit_pair_law(s, h, f) == GRIT_LAW_IDEALELPL);
    grit_frictmat_def kf = grit_default_frictmat_def();
    kf.law = GRIT_LAW_KUHN;
    const int k = fx_must(s, grit_add_frictmat(s, &kf), "Kuhn FrictMat");
    CHECK(grit_pair_law(s, h, k) == GRIT_LAW_KUHN);
    /* the linear contact's stiffness ratio is Mindlin's for the HertzMat's Poisson ratio */
    const int a = fx_sphere(s, h, v3(0, 0, 0), 0.01, v3(0, 0, 0));
    fx_sphere(s, f, v3(0.0199, 0, 0), 0.01, v3(0, 0, 0));
    (void)a;
    CHECK(grit_step(s, 1) == GRIT_OK);
    grit_contact_info ci = fx_only_contact(s);
    CHECK(ci.law == GRIT_LAW_IDEALELPL);
    CHECK_REL(ci.kt / ci.kn, 0.5 * (2 * (1 - 0.25) / (2 - 0.25) + 0.3), 1e-12);
    CHECK_REL(ci.tan_phi, 0.4, 1e-12);
    grit_scene_destroy(s);
}

static void concrete_meets_hertz(void)
{
    grit_scene *s = fx_scene_dt(1e-7);
    const int h = hmat(s, 1e9, 0.25, 2500, 0.4, 0.5);
    grit_concretemat_def cd = grit_default_concretemat_def();
    const int c = fx_must(s, grit_add_concretemat(s, &cd), "ConcreteMat");
    CHECK(grit_pair_law(s, h, c) == GRIT_LAW_IDEALELPL);
    grit_scene_destroy(s);
}

/* ---- pair overrides ------------------------------------------------------------------- */
static void pair_override(void)
{
    grit_scene *s = fx_scene_dt(1e-7);
    const int a = hmat(s, 1e9, 0.25, 2500, 0.4, 0.9), b = hmat(s, 1e9, 0.25, 2500, 0.6, 0.7);
    const int f = fx_mat(s, 1e9, 0.3, 0.5);
    grit_pair_def p = grit_default_pair_def();
    p.restitution = 0.3;
    p.tan_phi = 0.2;
    CHECK(grit_set_pair(s, a, b, &p) == GRIT_OK);
    grit_pair_def bad = grit_default_pair_def();
    bad.kn = 1e6;
    CHECK(grit_set_pair(s, a, b, &bad) == GRIT_EINVAL);
    printf("  %s\n", grit_last_error(s));
    CHECK(strstr(grit_last_error(s), "'kn'") && strstr(grit_last_error(s), "HertzPhys"));
    bad = grit_default_pair_def();
    bad.law = 1;
    CHECK(grit_set_pair(s, a, a, &bad) == GRIT_EINVAL && strstr(grit_last_error(s), "'law'"));
    bad = grit_default_pair_def();
    bad.restitution = 0.5;
    CHECK(grit_set_pair(s, a, f, &bad) == GRIT_EINVAL);
    printf("  %s\n", grit_last_error(s));
    CHECK(strstr(grit_last_error(s), "'restitution'") && strstr(grit_last_error(s), "FrictPhys"));
    /* the override's values in the contact: friction here, the damping below */
    fx_sphere(s, a, v3(0, 0, 0), 0.01, v3(0, 0, 0));
    fx_sphere(s, b, v3(0.0199, 0, 0), 0.01, v3(0, 0, 0));
    CHECK(grit_step(s, 1) == GRIT_OK);
    grit_contact_info ci = fx_only_contact(s);
    CHECK(ci.law == GRIT_LAW_HERTZ && ci.tan_phi == 0.2);
    /* without the override: the smaller friction and restitution of the two */
    grit_scene_destroy(s);
    s = fx_scene_dt(1e-7);
    const int a2 = hmat(s, 1e9, 0.25, 2500, 0.4, 0.9), b2 = hmat(s, 1e9, 0.25, 2500, 0.6, 0.7);
    fx_sphere(s, a2, v3(0, 0, 0), 0.01, v3(0, 0, 0));
    fx_sphere(s, b2, v3(0.0199, 0, 0), 0.01, v3(0, 0, 0));
    CHECK(grit_step(s, 1) == GRIT_OK);
    ci = fx_only_contact(s);
    CHECK(ci.tan_phi == 0.4);
    const double *x = s->c.ext; /* the only contact */
    const double beta = log(0.7) / sqrt(log(0.7) * log(0.7) + M_PI * M_PI);
    const double Es = 1e9 / (2 * (1 - 0.25 * 0.25)), m_eff = sphere_mass(2500, 0.01) / 2;
    CHECK_REL(x[GRIT_HERTZ_X_CN], -2 * sqrt(5.0 / 6.0) * beta * sqrt(2 * Es * sqrt(0.005) * m_eff), 1e-12);
    CHECK_REL(x[GRIT_HERTZ_X_KN], 4.0 / 3.0 * Es * sqrt(0.005), 1e-12);
    grit_scene_destroy(s);
}

/* ---- restart ------------------------------------------------------------------------------ */
static void restart_bitwise(void)
{
    grit_scene *a = pile(0.1, true, 75);
    CHECK(grit_step(a, 3000) == GRIT_OK);
    grit_scene *b = fx_restart_twin(a, "test_hertz.grit", 2000);
    const int diff = fx_pos_vel_diff(a, b, grit_particle_count(a));
    CHECK(diff == 0 && grit_contact_count(a) == grit_contact_count(b) && grit_contact_count(a) > 50);
    CHECK(fx_energy_diff(a, b) == 0);
    printf("  pile continued 2000 steps after a restart: %s (%d contacts)\n", diff ? "DIFFERENT" : "identical",
           grit_contact_count(a));
    grit_scene_destroy(a);
    grit_scene_destroy(b);
}

int main(void)
{
    RUN(normal_impact_sphere_sphere);
    RUN(walls_facets_capsules);
    RUN(restitution);
    RUN(mindlin_and_coulomb);
    RUN(unloading_rule);
    RUN(pile_energy);
    RUN(rayleigh_step);
    RUN(mixed_materials);
    RUN(concrete_meets_hertz);
    RUN(pair_override);
    RUN(restart_bitwise);
    TEST_MAIN_END();
}
