/* Rolling resistance of the hertz law (HertzMat rolling, mu_roll, eta_roll;
 * docs/hertz.md "Rolling resistance"): the EPSD spring's stiffness and its
 * limit torque under an imposed rotation; a sphere rolling on a plane stops
 * after the distance the model predicts, 7 v0^2 / (10 mu_roll g), under
 * both models, with the energy book closed (the kinetic energy goes to
 * plast and visc); the choice per material pair (the materials' rule, pair
 * overrides and their errors); a rolling sphere continued bitwise after a
 * restart. */
#include "core/scene_impl.h"
#include "fixture.h"
#include "grit/restart.h"
#include "cp2/cp2.h"
#include "law2/hertz.h"

static const double E = 1e8, NU = 0.3, RHO = 2500, R = 0.005, G = 9.81;

static int rmat(grit_scene *s, int rolling, double mu_roll)
{
    grit_hertzmat_def m = grit_default_hertzmat_def();
    m.young = E;
    m.poisson = NU;
    m.density = RHO;
    m.tan_phi = 0.5;
    m.restitution = 0.5;
    m.rolling = rolling;
    m.mu_roll = mu_roll;
    return fx_must(s, grit_add_hertzmat(s, &m), "add HertzMat");
}

static double sphere_mass(double r) { return RHO * 4.0 / 3.0 * M_PI * r * r * r; }

/* the overlap under the sphere's weight on a wall of its material */
static double rest_overlap(void)
{
    const double Es = E / (2 * (1 - NU * NU));
    return pow(sphere_mass(R) * G / (4.0 / 3.0 * Es * sqrt(R)), 2.0 / 3.0);
}

static grit_scene *plane(int rolling, double mu_roll, double dt, bool track)
{
    grit_scene_def d = grit_default_scene_def();
    d.dt = dt;
    d.track_energy = track;
    d.gravity = v3(0, 0, -G);
    grit_scene *s = fx_scene(&d);
    const int m = rmat(s, rolling, mu_roll);
    fx_wall(s, m, 2, 0.0, 1);
    return s;
}

/* ---- the EPSD spring under an imposed rotation ------------------------------------------ */
/* A sphere held at its resting overlap, turned about y at a constant rate:
 * the torque grows as k_r w dt per step, k_r = 2.25 mu_roll^2 R*^2 k_n, until
 * it reaches mu_roll R* F_n, and stays there. */
static void epsd_spring(void)
{
    const double mu_r = 0.1, w = 0.05, dt = 1e-6;
    grit_scene *s = plane(GRIT_ROLLING_EPSD, mu_r, dt, false);
    grit_scene_def d = *grit_scene_get_def(s);
    d.gravity = v3_zero();
    fx_must(s, grit_scene_set_def(s, &d), "def");
    const double delta = rest_overlap();
    const int id = fx_sphere(s, 0, v3(0, 0, R - delta), R, v3_zero());
    fx_must(s, grit_set_blocked(s, id, GRIT_BLOCK_ALL), "block");
    fx_must(s, grit_set_angvel(s, id, v3(0, w, 0)), "angvel");
    CHECK(grit_step(s, 1) == GRIT_OK);
    grit_contact_info c = fx_only_contact(s);
    const double Es = E / (2 * (1 - NU * NU)), a = sqrt(R * delta), kn = 2 * Es * a;
    const double Fn = 4.0 / 3.0 * Es * sqrt(R) * pow(delta, 1.5), kr = 2.25 * mu_r * mu_r * R * R * kn;
    CHECK_REL(c.kn, kn, 1e-9);
    CHECK_REL(-c.force.x, Fn, 1e-9);
    CHECK(grit_step(s, 10) == GRIT_OK);
    grit_contact_get(s, 0, &c);
    const double t1 = hypot(c.torque.y, c.torque.z);
    CHECK(grit_step(s, 100) == GRIT_OK);
    grit_contact_get(s, 0, &c);
    const double t2 = hypot(c.torque.y, c.torque.z);
    /* the limit after mu_r R Fn / (k_r w) of rotation */
    const long n_lim = (long)(mu_r * R * Fn / (kr * w * dt)) + 10;
    CHECK(grit_step(s, (int)n_lim) == GRIT_OK);
    grit_contact_get(s, 0, &c);
    const double t3 = hypot(c.torque.y, c.torque.z);
    printf("  k_r %.4g N m/rad: torque grows %.6g N m per 100 steps (k_r w 100 dt = %.6g), limit %.6g N m "
           "(mu_r R* F_n = %.6g) after %ld steps\n",
           kr, t2 - t1, kr * w * 100 * dt, t3, mu_r * R * Fn, n_lim);
    CHECK_REL(t2 - t1, kr * w * 100 * dt, 1e-9);
    CHECK_REL(t3, mu_r * R * Fn, 1e-12);
    /* the torque on the sphere (B here or A) resists its rotation */
    grit_ft ft = s->b.ft[s->id2idx[id]];
    CHECK(ft.t.y < 0);
    grit_scene_destroy(s);
}

/* ---- a sphere rolling on a plane ------------------------------------------------------- */
typedef struct rolled {
    double dist, ke0, diss, worst_balance, v_end, x_end;
} rolled;

/* Rolls a sphere from x = 0 at v0 (without slip) until it stops; the
 * distance where its velocity first turns, and the position a while later. */
static rolled roll_out(int rolling, double mu_r, double v0)
{
    const double tR = M_PI * R * sqrt(RHO * 2 * (1 + NU) / E) / (0.1631 * NU + 0.8766);
    grit_scene *s = plane(rolling, mu_r, 0.2 * tR, true);
    const int id = fx_sphere(s, 0, v3(0, 0, R - rest_overlap()), R, v3(v0, 0, 0));
    fx_must(s, grit_set_angvel(s, id, v3(0, v0 / R, 0)), "angvel");
    rolled out = {NAN, 0, 0, 0, 0, 0};
    out.ke0 = 0.7 * sphere_mass(R) * v0 * v0;
    const double t_stop = v0 / (5.0 / 7.0 * mu_r * G);
    const long n = (long)(1.3 * t_stop / grit_dt(s));
    double xprev = 0;
    for (long k = 0; k < n; k++) {
        CHECK(grit_step(s, 1) == GRIT_OK);
        grit_vec3 x, v;
        grit_get_pos(s, id, &x);
        grit_get_vel(s, id, &v);
        if (isnan(out.dist) && v.x <= 0) out.dist = v.x == 0 ? x.x : xprev;
        xprev = x.x;
        if (k % 64 == 0) out.worst_balance = fmax(out.worst_balance, fabs(grit_energy_rel_error(s)));
    }
    grit_vec3 x, v;
    grit_get_pos(s, id, &x);
    grit_get_vel(s, id, &v);
    out.x_end = x.x;
    out.v_end = v3_norm(v);
    out.diss = grit_energy(s, GRIT_E_PLAST) + grit_energy(s, GRIT_E_VISC);
    grit_scene_destroy(s);
    return out;
}

static void rolling_distance(void)
{
    const double v0 = 0.2;
    const double mus[2] = {0.05, 0.1};
    const char *names[3] = {"", "EPSD", "CDT"};
    for (int model = GRIT_ROLLING_EPSD; model <= GRIT_ROLLING_CDT; model++)
        for (int q = 0; q < 2; q++) {
            const double s_th = 7.0 * v0 * v0 / (10.0 * mus[q] * G);
            const rolled r = roll_out(model, mus[q], v0);
            printf("  %s mu_r %.2f: stops after %.6f m (7 v0^2 / 10 mu_r g = %.6f m, %+.2e), at rest %.6f m, "
                   "|v| %.1e m/s; dissipated %.5g J of %.5g J, worst balance %.1e\n",
                   names[model], mus[q], r.dist, s_th, r.dist / s_th - 1, r.x_end, r.v_end, r.diss, r.ke0,
                   r.worst_balance);
            CHECK(fabs(r.dist / s_th - 1) < 1e-3);
            CHECK(fabs(r.x_end / s_th - 1) < 1e-3);
            CHECK(r.v_end < 1e-3 * v0);
            CHECK(fabs(r.diss / r.ke0 - 1) < 1e-3);
            CHECK(r.worst_balance < 1e-3);
        }
    /* without rolling resistance it rolls on */
    const rolled free = roll_out(GRIT_ROLLING_NONE, 0.1, v0);
    printf("  none: still rolling at %.4f m/s after %.4f m\n", free.v_end, free.x_end);
    CHECK(isnan(free.dist) && free.v_end > 0.99 * v0);
}

/* ---- per material pair ------------------------------------------------------------------- */
static double contact_x(grit_scene *s, int q)
{
    for (int k = 0; k < s->c.n; k++)
        if (s->c.pair[k].flags & CF_REAL) return s->c.ext[(size_t)k * (size_t)s->c.ext_n + (size_t)q];
    return NAN;
}

static void per_pair(void)
{
    /* the materials' rule: one without takes the other's; EPSD before CDT */
    const int expect[3][3] = {{GRIT_ROLLING_NONE, GRIT_ROLLING_EPSD, GRIT_ROLLING_CDT},
                              {GRIT_ROLLING_EPSD, GRIT_ROLLING_EPSD, GRIT_ROLLING_EPSD},
                              {GRIT_ROLLING_CDT, GRIT_ROLLING_EPSD, GRIT_ROLLING_CDT}};
    grit_scene *s = fx_scene_dt(1e-6);
    int m[3];
    for (int q = 0; q < 3; q++) m[q] = rmat(s, q, 0.1);
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) CHECK(grit_hertz_rolling_of(s, m[i], m[j]) == expect[i][j]);
    /* an override picks the model and the coefficients */
    grit_pair_def p = grit_default_pair_def();
    p.rolling = 1 + GRIT_ROLLING_CDT;
    p.mu_roll = 0.3;
    CHECK(grit_set_pair(s, m[0], m[1], &p) == GRIT_OK);
    CHECK(grit_hertz_rolling_of(s, m[1], m[0]) == GRIT_ROLLING_CDT);
    /* and does not apply to FrictPhys */
    const int f = fx_mat(s, 1e8, 0.3, 0.5);
    grit_pair_def bad = grit_default_pair_def();
    bad.mu_roll = 0.1;
    CHECK(grit_set_pair(s, m[0], f, &bad) == GRIT_EINVAL);
    printf("  %s\n", grit_last_error(s));
    CHECK(strstr(grit_last_error(s), "'mu_roll'") && strstr(grit_last_error(s), "FrictPhys"));
    bad = grit_default_pair_def();
    bad.rolling = 2;
    CHECK(grit_set_pair(s, f, m[1], &bad) == GRIT_EINVAL && strstr(grit_last_error(s), "'rolling'"));
    /* the override's values reach the contact: R* = r/2 for two equal spheres */
    fx_sphere(s, m[0], v3(0, 0, 0), R, v3_zero());
    fx_sphere(s, m[1], v3(2 * R - 1e-6, 0, 0), R, v3_zero());
    CHECK(grit_step(s, 1) == GRIT_OK);
    CHECK(s->c.ext_n == GRIT_LAW_HERTZ_EXT_N);
    CHECK(contact_x(s, GRIT_HERTZ_X_ROLL) == GRIT_ROLLING_CDT);
    CHECK_REL(contact_x(s, GRIT_HERTZ_X_MR), 0.3 * R / 2, 1e-12);
    grit_scene_destroy(s);
    /* a scene where no pair rolls keeps the contact's state to one cache line */
    s = fx_scene_dt(1e-6);
    const int n = rmat(s, GRIT_ROLLING_NONE, 0.0);
    fx_sphere(s, n, v3(0, 0, 0), R, v3_zero());
    fx_sphere(s, n, v3(2 * R - 1e-6, 0, 0), R, v3_zero());
    CHECK(grit_step(s, 1) == GRIT_OK);
    CHECK(s->c.ext_n == GRIT_HERTZ_HOT_N);
    grit_scene_destroy(s);
}

/* ---- restart ---------------------------------------------------------------------------- */
static void restart_bitwise(void)
{
    for (int model = GRIT_ROLLING_EPSD; model <= GRIT_ROLLING_CDT; model++) {
        grit_scene *a = plane(model, 0.1, 5e-6, true);
        const int id = fx_sphere(a, 0, v3(0, 0, R - rest_overlap()), R, v3(0.2, 0, 0));
        fx_must(a, grit_set_angvel(a, id, v3(0, 0.2 / R, 0)), "angvel");
        CHECK(grit_step(a, 3000) == GRIT_OK);
        grit_scene *b = fx_restart_twin(a, "test_rolling.grit", 3000);
        grit_vec3 xa, xb, wa, wb;
        grit_get_pos(a, id, &xa), grit_get_pos(b, id, &xb), grit_get_angvel(a, id, &wa), grit_get_angvel(b, id, &wb);
        const int diff = memcmp(&xa, &xb, sizeof xa) != 0 || memcmp(&wa, &wb, sizeof wa) != 0;
        CHECK(diff == 0);
        CHECK(fx_energy_diff(a, b) == 0);
        printf("  %s: continued 3000 steps after a restart: %s\n", model == GRIT_ROLLING_EPSD ? "EPSD" : "CDT",
               diff ? "DIFFERENT" : "identical");
        grit_scene_destroy(a);
        grit_scene_destroy(b);
    }
}

int main(void)
{
    RUN(epsd_spring);
    RUN(rolling_distance);
    RUN(per_pair);
    RUN(restart_bitwise);
    TEST_MAIN_END();
}
