/* Viscous mass damping (scene parameter mass_damping, c): a force -c m v and
 * a torque -c I w on every particle, with the on-step velocity, booked as
 * massDamp. A free sphere's velocity and spin decay as exp(-c t); the energy
 * balance closes at every sample, free and in contact; blocked DoFs and
 * particles that skip damping are untouched. */
#include "fixture.h"

static grit_scene *damped_scene(double c, double dt, grit_vec3 gravity)
{
    grit_scene_def d = grit_default_scene_def();
    d.dt = dt;
    d.mass_damping = c;
    d.gravity = gravity;
    d.track_energy = true;
    return fx_scene(&d);
}

/* per step the velocity is scaled by (1 - c dt/2) / (1 + c dt/2), exp(-c dt)
 * to third order (relative (c dt)^3 / 12 per step): over c t = 1 in 1000
 * steps the decay is exp(-1) to 1000 (c dt)^3 / 12 = 8.3e-8 */
static void free_sphere_decays_exponentially(void)
{
    const double c = 10, dt = 1e-4;
    grit_scene *s = damped_scene(c, dt, v3_zero());
    int m = fx_mat(s, 1e7, 0.2, 0.5);
    int id = fx_sphere(s, m, v3(0, 0, 0), 0.1, v3(1, -2, 0.5));
    CHECK(grit_set_angvel(s, id, v3(3, 0, -4)) == GRIT_OK);
    double worst = 0;
    for (int k = 0; k < 1000; k++) {
        CHECK(grit_step(s, 1) == GRIT_OK);
        /* kinetic + massDamp constant: the book of every step is exact */
        worst = fmax(worst, fabs(grit_energy_total(s) - grit_energy_initial(s)) / grit_energy_initial(s));
    }
    grit_vec3 v, w;
    grit_get_vel(s, id, &v);
    grit_get_angvel(s, id, &w);
    /* the stored velocities are mid-step ones, the initial one at -dt/2 and
     * the last at t - dt/2: 1000 steps apart */
    const double f = exp(-c * grit_time(s));
    printf("    v_x / exp(-c t) - 1 = %.2g, w_z: %.2g, balance %.2g over 1000 steps\n", v.x / f - 1, w.z / (-4 * f) - 1,
           worst);
    CHECK_REL(v.x, 1 * f, 2e-7);
    CHECK_REL(v.y, -2 * f, 2e-7);
    CHECK_REL(v.z, 0.5 * f, 2e-7);
    CHECK_REL(w.x, 3 * f, 2e-7);
    CHECK_REL(w.z, -4 * f, 2e-7);
    CHECK(worst < 1e-12);
    CHECK(grit_energy(s, GRIT_E_MASSDAMP) > 0.85 * grit_energy_initial(s)); /* 1 - exp(-2) = 0.865 dissipated */
    grit_scene_destroy(s);
}

/* A sphere dropped on a wall under gravity, a damped oscillator once it
 * stays on the wall: it comes to rest, and the balance (kinetic, gravity,
 * elastic, massDamp) holds at every sample. */
static void damped_bounce_balance(void)
{
    const double c = 50, dt = 2e-5;
    grit_scene *s = damped_scene(c, dt, v3(0, 0, -9.81));
    int m = fx_mat(s, 1e7, 0.2, 0.0);
    fx_wall(s, m, 2, 0.0, 0);
    int id = fx_sphere(s, m, v3(0, 0, 0.102), 0.1, v3_zero());
    double worst = 0;
    const int n = 20000; /* 0.4 s: c t = 20 */
    for (int k = 0; k < n; k++) {
        CHECK(grit_step(s, 1) == GRIT_OK);
        double scale = 0;
        for (int e = 0; e < GRIT_E_COUNT; e++) scale += fabs(grit_energy(s, e));
        worst = fmax(worst, fabs(grit_energy_total(s) - grit_energy_initial(s)) / scale);
    }
    grit_vec3 v;
    grit_get_vel(s, id, &v);
    printf("    bounce: worst balance %.2g of sum |E| at every step, massDamp %.3g J, v_z at the end %.2g m/s\n", worst,
           grit_energy(s, GRIT_E_MASSDAMP), v.z);
    CHECK(worst < 1e-4);
    CHECK(fabs(v.z) < 1e-3);
    CHECK(grit_contact_count(s) == 1);
    grit_scene_destroy(s);
}

/* Blocked DoFs keep their velocity; a particle that skips damping is not
 * damped; with c = 0 the step is the plain one bit for bit. */
static void blocked_and_off(void)
{
    grit_scene *s = damped_scene(50, 1e-4, v3_zero());
    int m = fx_mat(s, 1e7, 0.2, 0.5);
    int a = fx_sphere(s, m, v3(0, 0, 0), 0.1, v3(1, 1, 0));
    CHECK(grit_set_blocked(s, a, GRIT_BLOCK_X) == GRIT_OK);
    CHECK(grit_step(s, 100) == GRIT_OK);
    grit_vec3 v;
    grit_get_vel(s, a, &v);
    CHECK(v.x == 1);
    CHECK(v.y < 0.61 && v.y > 0.6); /* exp(-0.5) = 0.6065 */
    grit_scene_destroy(s);

    /* c = 0 and c > 0 then 0 again: same trajectory as never damped */
    grit_vec3 p[2];
    for (int run = 0; run < 2; run++) {
        grit_scene_def d = grit_default_scene_def();
        d.dt = 1e-4;
        d.gravity = v3(0, 0, -9.81);
        grit_scene *t = fx_scene(&d);
        int mm = fx_mat(t, 1e7, 0.2, 0.5);
        fx_wall(t, mm, 2, 0.0, 0);
        for (int i = 0; i < 8; i++) fx_sphere(t, mm, v3(0.21 * i, 0, 0.1 + 0.01 * i), 0.1, v3(0.1, 0, 0));
        if (run == 1) { /* switched on and off again before the first step */
            d.mass_damping = 5;
            CHECK(grit_scene_set_def(t, &d) == GRIT_OK);
            d.mass_damping = 0;
            CHECK(grit_scene_set_def(t, &d) == GRIT_OK);
        }
        CHECK(grit_step(t, 500) == GRIT_OK);
        grit_get_pos(t, 7, &p[run]);
        grit_scene_destroy(t);
    }
    CHECK(p[0].x == p[1].x && p[0].z == p[1].z);
}

int main(void)
{
    RUN(free_sphere_decays_exponentially);
    RUN(damped_bounce_balance);
    RUN(blocked_and_off);
    TEST_MAIN_END();
}
