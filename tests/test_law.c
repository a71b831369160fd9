/* Contact laws on prescribed geometry: acceptance tests T15-T18
 * (IdealElPl) and T19 (LinEl6) of the linear-model spec (section 11). The
 * law functions are called directly on constructed structs, so the numbers
 * are those of the law alone. */
#include "law2/idealelpl.h"
#include "law2/linel6.h"
#include "test.h"

typedef struct {
    grit_law_ctx L;
    grit_l6geom g;
    grit_frictphys p;
    grit_contact_cold cold;
    grit_law_energy E;
} lawcase;

static lawcase mk(double kn, double kt, double tan_phi, double dt, double uN)
{
    lawcase c;
    memset(&c, 0, sizeof c);
    c.L.dt = dt;
    c.L.char_len = -1;
    c.g.ex = v3(1, 0, 0);
    c.g.ey = v3(0, -1, 0);
    c.g.uN = uN;
    c.p.kn = kn;
    c.p.kt = kt;
    c.p.tan_phi = tan_phi;
    c.cold.uN0 = NAN; /* as the contact loop sets it at creation */
    c.L.plast_return = true; /* the spec's numbers are for fy (ft - fy) / kt; t18b checks the default */
    return c;
}

static bool step_el(lawcase *c, bool fresh, double vy, double vz)
{
    c->g.vel = v3(0, vy, vz);
    c->E.elast = 0; /* resettable entry, as at the start of every step */
    return law_idealelpl(&c->L, &c->g, &c->p, &c->cold, fresh, true, &c->E, NULL, NULL);
}

static void t15a_creation(void)
{
    lawcase c = mk(1e5, 2e4, 0.5, 1e-3, -1e-3);
    CHECK(step_el(&c, true, 0, 0));
    CHECK_VEC(c.p.f, -100, 0, 0, 1e-13);
    CHECK_REL(c.E.elast, 0.05, 1e-14);
    CHECK(c.E.plast == 0 && c.E.broken == 0);
}

static void t15b_tension(void)
{
    lawcase c = mk(1e5, 2e4, 0.5, 1e-3, 1e-6);
    c.p.f = v3(-3, 7, 0); /* the previous force must not be touched */
    CHECK(!step_el(&c, false, 0, 0));
    CHECK_VEC(c.p.f, -3, 7, 0, 0);
    /* grit books the tangential spring's energy, lost with the contact, as
     * broken; u > 0 stores no normal energy, so none is booked */
    CHECK_REL(c.E.broken, 0.5 * 49 / 2e4, 1e-14);
    /* no_break: cohesive +0.1 N, friction limit |fx| tan(phi) = 0.05 N */
    c = mk(1e5, 2e4, 0.5, 1e-3, 1e-6);
    c.L.no_break = true;
    CHECK(step_el(&c, false, 10, 0)); /* trial 200 N */
    CHECK_REL(c.p.f.x, 0.1, 1e-12);
    CHECK_REL(c.p.f.y, 0.05, 1e-12);
    CHECK_REL(c.E.plast, 0.05 * (200 - 0.05) / 2e4, 1e-12);
}

static void t15c_zero_gap(void)
{
    lawcase c = mk(1e5, 2e4, 0.5, 1e-3, 0.0);
    c.p.f = v3(0, 3, -4);
    CHECK(step_el(&c, false, 1, 1)); /* u = 0 does not break */
    CHECK(c.p.f.x == 0);
    CHECK(c.p.f.y == 0 && c.p.f.z == 0); /* capped to f_y = 0 */
    CHECK(c.E.plast == 0);              /* zero force does no work */
    CHECK(c.E.elast == 0);
}

static void t15d_no_friction(void)
{
    for (int variant = 0; variant < 2; variant++) {
        lawcase c = mk(1e5, 2e4, variant ? 0.0 : 0.5, 1e-3, -1e-3);
        c.L.no_frict = variant == 0;
        for (int k = 0; k < 20; k++) {
            CHECK(step_el(&c, k == 0, k % 3 - 1.0, 0.5));
            CHECK(c.p.f.y == 0 && c.p.f.z == 0);
        }
        CHECK(c.E.plast == 0);
        CHECK_REL(c.E.elast, 0.05, 1e-14);
    }
}

/* Woo's noSlip: the tangential spring is never capped by the Coulomb
 * limit, and nothing is dissipated. Normal force 100 N, limit 50 N; each
 * step moves the spring by 1e-2 m (200 N). */
static void t15f_no_slip(void)
{
    for (int variant = 0; variant < 2; variant++) {
        lawcase c = mk(1e5, 2e4, 0.5, 1e-3, -1e-3);
        c.L.no_slip = variant == 1;
        for (int k = 0; k < 5; k++) CHECK(step_el(&c, k == 0, 10.0, 0));
        CHECK_REL(c.p.f.x, -100, 1e-12); /* compression: negative along the normal */
        if (variant == 0) {
            CHECK_REL(fabs(c.p.f.y), 50, 1e-12); /* at the limit */
            CHECK(c.E.plast > 0);
        } else {
            CHECK_REL(fabs(c.p.f.y), 5 * 200, 1e-12); /* the whole spring */
            CHECK(c.E.plast == 0);
        }
    }
}

static void t15e_ini_eqlb(void)
{
    lawcase c = mk(1e5, 2e4, 0.5, 1e-3, -1e-3);
    c.L.ini_eqlb = true;
    CHECK(step_el(&c, true, 0, 0));
    CHECK(c.p.f.x == 0);
    c.g.uN = -1.5e-3;
    CHECK(step_el(&c, false, 0, 0));
    CHECK_REL(c.p.f.x, -50, 1e-12);
    /* back above the creation gap: tension relative to equilibrium breaks */
    c.g.uN = -0.9e-3;
    CHECK(!step_el(&c, false, 0, 0));
}

/* The velocity sequence of T16/T17: +1 (5 steps), -1 (10), +1 (5). */
static double seq_vel(int k) { return (k < 5 || k >= 15) ? 1.0 : -1.0; }

typedef struct {
    double plast, elast, work;
} slip_result;

/* Run the sequence and record f_y; W is the trapezoidal work of the
 * tangential force on the tangential displacement. */
static slip_result slip_sequence(lawcase c, double *fy)
{
    slip_result r = {0, 0, 0};
    double f0 = 0;
    for (int k = 0; k < 20; k++) {
        double v = seq_vel(k);
        CHECK(step_el(&c, false, v, 0));
        fy[k] = c.p.f.y;
        r.work += 0.5 * (f0 + fy[k]) * v * c.L.dt;
        f0 = fy[k];
    }
    r.plast = c.E.plast;
    r.elast = c.E.elast;
    return r;
}

static void t16_slip_sequence(void)
{
    const double expect[20] = {20, 40, 50, 50, 50, 30, 10, -10, -30, -50, -50, -50, -50, -50, -50, -30, -10, 10, 30, 50};
    double fy[20];
    lawcase c = mk(1e5, 2e4, 0.5, 1e-3, -1e-3);
    slip_result r = slip_sequence(c, fy);
    for (int k = 0; k < 20; k++) CHECK_ABS(fy[k], expect[k], 1e-11);
    CHECK_REL(r.plast, 0.375, 1e-12);
    CHECK(fabs(r.plast - 0.4475) > 0.07); /* not the (ft^2 - fy^2)/2kt formula */
    CHECK_REL(r.elast, 0.05 + 0.0625, 1e-12);
    CHECK_REL(r.work, 0.435, 1e-12);
    const double dEt = 0.0625; /* tangential elastic energy, from 0 */
    CHECK_ABS(r.work - dEt - r.plast, -0.0025, 1e-13);
}

static void t17_closed_cycle_exact(void)
{
    const double expect[20] = {16, 32, 32, 32, 32, 16, 0, -16, -32, -32, -32, -32, -32, -32, -32, -16, 0, 16, 32, 32};
    double fy[20];
    lawcase c = mk(65536, 16384, 0.5, 0x1p-10, -0x1p-10);
    slip_result r = slip_sequence(c, fy);
    for (int k = 0; k < 20; k++) CHECK(fy[k] == expect[k]);
    CHECK(r.plast == 0.3125);
    const double et = 0.5 * 32.0 * 32.0 / 16384.0;
    CHECK(et == 0.03125);
    CHECK(r.elast == 0.5 * 64.0 * 64.0 / 65536.0 + et);
    CHECK(r.work == 0.34375);
    CHECK(r.work == et + r.plast); /* exact balance, binary data */
}

static void t18_one_step_dissipation(void)
{
    /* kt = 1000, f_y = |kn uN| tan(phi) = 1 N */
    struct {
        double f0, du, fy, dE;
    } cases[] = {{0.8, 5e-4, 1, 3.0e-4}, {1.0, 1e-3, 1, 1.0e-3}, {0.0, 1e-3, 0, 0.0}};
    for (int k = 0; k < 3; k++) {
        lawcase c = mk(1000, 1000, 0.5, 1e-3, -2e-3 * cases[k].fy);
        c.p.f = v3(0, cases[k].f0, 0);
        CHECK(step_el(&c, false, cases[k].du / 1e-3, 0));
        CHECK_ABS(c.E.plast, cases[k].dE, 1e-15);
        CHECK_ABS(c.p.f.y, cases[k].fy, 1e-12);
    }
    /* the yield test is strict: a trial exactly at the limit does not slip */
    lawcase c = mk(1024, 1024, 0.5, 0x1p-10, -0x1p-9); /* f_y = 1, increment = vel */
    c.p.f = v3(0, 0.5, 0);
    CHECK(step_el(&c, false, 0.5, 0));
    CHECK(c.p.f.y == 1.0);
    CHECK(c.E.plast == 0);
    /* kt = 0: no tangential stiffness, nothing dissipated, no division */
    c = mk(1000, 0, 0.5, 1e-3, -2e-3);
    c.p.f = v3(0, 0.3, 0);
    CHECK(step_el(&c, false, 1, 0));
    CHECK(c.E.plast == 0 && isfinite(c.E.elast));
    /* 2-D slip: the returned force keeps the trial direction */
    c = mk(1000, 1000, 0.5, 1e-3, -2e-3);
    CHECK(step_el(&c, false, 3, 4)); /* trial (3, 4), |.| = 5 */
    CHECK_VEC(c.p.f, -2, 0.6, 0.8, 1e-12);
    CHECK_REL(c.E.plast, 1 * (5 - 1) / 1000.0, 1e-12);
}

/* The default book (plast_book=trapezoid): the trapezoidal work of the
 * tangential force on the step's movement minus the change of its stored
 * energy -- the spec's "leapfrog residual" column of 5.4 for T18, and for
 * the T16 sequence exactly the work not stored. */
static void t18b_trapezoid_book(void)
{
    struct {
        double f0, du, fy, dE;
    } cases[] = {{0.8, 5e-4, 1, 2.7e-4}, {1.0, 1e-3, 1, 1.0e-3}, {0.0, 1e-3, 0, 0.0}};
    for (int k = 0; k < 3; k++) {
        lawcase c = mk(1000, 1000, 0.5, 1e-3, -2e-3 * cases[k].fy);
        c.L.plast_return = false;
        c.p.f = v3(0, cases[k].f0, 0);
        CHECK(step_el(&c, false, cases[k].du / 1e-3, 0));
        CHECK_ABS(c.E.plast, cases[k].dE, 1e-15);
        CHECK_ABS(c.p.f.y, cases[k].fy, 1e-12);
    }
    double fy[20];
    lawcase c = mk(1e5, 2e4, 0.5, 1e-3, -1e-3);
    c.L.plast_return = false;
    slip_result r = slip_sequence(c, fy);
    CHECK_REL(r.work, 0.435, 1e-12);
    CHECK_ABS(r.work - 0.0625 - r.plast, 0, 1e-15); /* 0.0025 J closer than the return book */
    /* the normal force drops to zero under a loaded spring: the stored
     * energy is released and booked, where the return book books nothing */
    c = mk(1e5, 2e4, 0.5, 1e-3, 0.0);
    c.L.plast_return = false;
    c.p.f = v3(0, 3, -4);
    CHECK(step_el(&c, false, 1, 1));
    CHECK_ABS(c.E.plast, 0.5 * 1e-3 * (3 - 4) + 0.5 * 25 / 2e4, 1e-16);
}

static lawcase mk6(double kt)
{
    lawcase c = mk(1e5, kt, 0.5, 1e-3, -1e-3);
    c.L.char_len = 0.1;
    return c;
}

static void t19_linel6(void)
{
    lawcase c = mk6(2e4);
    for (int k = 0; k < 10; k++) {
        c.g.vel = v3(0, 0.5, 0);
        c.g.angvel = v3(1, 2, 0);
        c.E.elast = 0;
        CHECK(law_linel6(&c.L, &c.g, &c.p, &c.cold, k == 0, true, &c.E, NULL, NULL));
    }
    CHECK_VEC(c.p.f, -100, 100, 0, 1e-10);
    CHECK_VEC(c.p.t, 1e4, 4e3, 0, 1e-8); /* kw = kn / l = 1e6, kb = kt / l = 2e5 */
    CHECK_REL(c.E.elast, 90.3, 1e-12);
    CHECK(fabs(c.p.t.x - 100) > 1); /* not the docs' kw = l kn */
    /* kt = 0: no tangential force or bending torque, no division by zero */
    c = mk6(0);
    for (int k = 0; k < 10; k++) {
        c.g.vel = v3(0, 0.5, 0);
        c.g.angvel = v3(1, 2, 0);
        c.E.elast = 0;
        CHECK(law_linel6(&c.L, &c.g, &c.p, &c.cold, k == 0, true, &c.E, NULL, NULL));
    }
    CHECK(c.p.f.y == 0 && c.p.f.z == 0 && c.p.t.y == 0 && c.p.t.z == 0);
    CHECK_REL(c.E.elast, 50.05, 1e-12);
    /* never breaks, never slips */
    c = mk6(2e4);
    c.g.uN = 0.5;
    c.g.vel = v3(0, 1e6, 0);
    CHECK(law_linel6(&c.L, &c.g, &c.p, &c.cold, false, true, &c.E, NULL, NULL));
    CHECK_REL(c.p.f.y, 2e7, 1e-15);
    /* char_len <= 0 is refused by the first step of a scene with a LinEl6
     * contact (test_linel6.c: char_len_rejected) */
}

int main(void)
{
    RUN(t15a_creation);
    RUN(t15b_tension);
    RUN(t15c_zero_gap);
    RUN(t15d_no_friction);
    RUN(t15e_ini_eqlb);
    RUN(t15f_no_slip);
    RUN(t16_slip_sequence);
    RUN(t17_closed_cycle_exact);
    RUN(t18_one_step_dissipation);
    RUN(t18b_trapezoid_book);
    RUN(t19_linel6);
    TEST_MAIN_END();
}
