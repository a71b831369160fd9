/* The tangential dashpot of IdealElPl (ct_div_cn) and Kuhn's law
 * (kuhn_ct_div_cn): ct = that ratio times the pair's normal dashpot cn, a
 * force ct v_t added to the transmitted tangential force within the Coulomb
 * limit, booked as viscDamp. A sphere resting on a wall and rocking
 * tangentially (it sticks) is damped by it and the energy balance closes; the
 * transmitted force never leaves the Coulomb limit, also when it slides; the
 * scalar path is what the vectorised kernels give way to (bit for bit); a
 * restart continues bit for bit. */
#include "fixture.h"

enum { LAW_LINEAR, LAW_KUHN };

static void set_ct(grit_scene *s, int law, double ratio)
{
    if (law == LAW_LINEAR) {
        grit_idealelpl_def d = grit_default_idealelpl_def();
        d.ct_div_cn = ratio;
        fx_must(s, grit_set_law_def(s, GRIT_LAW_IDEALELPL, &d, sizeof d), "idealelpl");
    } else {
        grit_kuhn_def d = grit_default_kuhn_def();
        d.kuhn_ct_div_cn = ratio;
        fx_must(s, grit_set_law_def(s, GRIT_LAW_KUHN, &d, sizeof d), "kuhn");
    }
}

/* material with a pair override: cn for zeta = 0.1 of the normal spring, the
 * law asked for */
static int dashpot_mat(grit_scene *s, int law, double tan_phi)
{
    int m = fx_mat(s, 1e7, 0.2, tan_phi);
    const double mass = 4.0 / 3.0 * M_PI * 1e-3 * 1000, kn = 1e7 * M_PI * 0.1 / 2;
    grit_pair_def p = grit_default_pair_def();
    p.cn = 2 * 0.1 * sqrt(mass * kn);
    p.law = law == LAW_LINEAR ? 1 : 3; /* auto|idealelpl|linel6|kuhn */
    fx_must(s, grit_set_pair(s, m, m, &p), "pair");
    return m;
}

typedef struct rock {
    double ft_early, ft_late; /* largest tangential force over the first and last fifths */
    double worst;             /* largest balance error / sum |E| at any sample after the first fifth */
    double visc, excess;      /* viscDamp at the end; largest |f_t| / (tan_phi |f_n|) - 1 */
} rock;

/* Sphere r 0.1 on the wall z = 0 under gravity, first settled (dashpots
 * damp the drop), then pushed sideways at 0.02 m/s: it sticks and rocks. */
static rock rocking(int law, double ratio, double tan_phi, double vx)
{
    grit_scene_def d = grit_default_scene_def();
    d.dt = 1e-5;
    d.gravity = v3(0, 0, -9.81);
    d.track_energy = true;
    grit_scene *s = fx_scene(&d);
    int m = dashpot_mat(s, law, tan_phi);
    set_ct(s, law, ratio);
    fx_wall(s, m, 2, 0.0, 0);
    int id = fx_sphere(s, m, v3(0, 0, 0.1 - 4.1 * 9.81 / 1.5708e6), 0.1, v3_zero());
    CHECK(grit_step(s, 20000) == GRIT_OK);
    grit_vec3 v;
    grit_get_vel(s, id, &v);
    CHECK(grit_set_vel(s, id, v3(vx, 0, v.z)) == GRIT_OK);
    grit_energy_reset(s);
    rock r = {0, 0, 0, 0, 0};
    const int n = 10000;
    for (int k = 0; k < n; k++) {
        CHECK(grit_step(s, 1) == GRIT_OK);
        CHECK(grit_contact_count(s) == 1);
        grit_contact_info c = fx_only_contact(s);
        const double ft = hypot(c.force.y, c.force.z);
        if (k < n / 5) r.ft_early = fmax(r.ft_early, ft);
        if (k >= n - n / 5) r.ft_late = fmax(r.ft_late, ft);
        r.excess = fmax(r.excess, ft / (tan_phi * fabs(c.force.x)) - 1);
        if (k >= n / 5) {
            double sa = 0;
            for (int e = 0; e < GRIT_E_COUNT; e++) sa += fabs(grit_energy(s, e));
            r.worst = fmax(r.worst, fabs(grit_energy_total(s) - grit_energy_initial(s)) / sa);
        }
    }
    r.visc = grit_energy(s, GRIT_E_VISC);
    grit_scene_destroy(s);
    return r;
}

static void rocking_is_damped(int law, const char *name)
{
    rock off = rocking(law, 0, 0.5, 0.02), on = rocking(law, 1, 0.5, 0.02);
    printf("    %s: tangential force %.3g -> %.3g N without, %.3g -> %.3g N with the dashpot (viscDamp %.3g J, "
           "balance %.2g, limit excess %.2g)\n",
           name, off.ft_early, off.ft_late, on.ft_early, on.ft_late, on.visc, on.worst, on.excess);
    CHECK(off.ft_late > 0.8 * off.ft_early); /* no tangential damping: it keeps rocking */
    CHECK(on.ft_late < 0.2 * on.ft_early);
    CHECK(on.visc > 0);
    CHECK(on.worst < 1e-3);
    CHECK(on.excess < 1e-9);
}

static void linear_rocking(void) { rocking_is_damped(LAW_LINEAR, "IdealElPl"); }
static void kuhn_rocking(void) { rocking_is_damped(LAW_KUHN, "Kuhn"); }

/* Pushed hard (1 m/s, tan_phi 0.1) the sphere slides: the transmitted force
 * stays on the limit, the dashpot adds nothing that would push it past.
 * (Kuhn's limit is mu times the spring's normal force; the normal dashpot
 * changes the transmitted normal force by cn v_n, 1.6e-8 of it here.) */
static void sliding_stays_in_the_limit(void)
{
    for (int law = 0; law < 2; law++) {
        rock r = rocking(law, 5, 0.1, 1.0);
        printf("    sliding, law %d: limit excess %.3g, balance %.3g, viscDamp %.3g\n", law, r.excess, r.worst, r.visc);
        CHECK(r.excess < (law == LAW_LINEAR ? 1e-12 : 1e-6));
        CHECK(r.worst < 1e-3);
    }
}

/* Two layers of spheres on a wall, shaken, ct on: simd=true and false agree
 * bit for bit (the dashpot takes the scalar path), and a restart midway
 * continues bit for bit. */
static grit_scene *heap(int law, bool simd)
{
    grit_scene_def d = grit_default_scene_def();
    d.gravity = v3(0, 0, -9.81);
    d.simd = simd;
    d.track_energy = true;
    grit_scene *s = fx_scene(&d);
    int m = dashpot_mat(s, law, 0.5);
    set_ct(s, law, 0.5);
    fx_wall(s, m, 2, 0.0, 0);
    /* a square layer of 6 x 6 on the wall, 5 x 5 in its hollows, with
     * random velocities */
    unsigned long long rng = 5;
    for (int l = 0; l < 2; l++)
        for (int i = 0; i < 36 - 11 * l; i++) {
            const int w = 6 - l;
            /* draws in GCC's order, last argument first (fixture.h, fx_rand) */
            const double vz = fx_rand(&rng) - 0.5, vy = fx_rand(&rng) - 0.5, vx = fx_rand(&rng) - 0.5;
            const grit_vec3 v = v3(vx, vy, vz);
            fx_sphere(s, m, v3(0.2 * (i % w + 0.5 * l), 0.2 * (i / w + 0.5 * l), 0.0999 + 0.141 * l), 0.1,
                      v3_scale(v, 0.02));
        }
    return s;
}

static bool same(grit_scene *a, grit_scene *b)
{
    bool eq = grit_energy_total(a) == grit_energy_total(b);
    for (int i = 0; i < grit_particle_count(a); i++) {
        grit_vec3 p, q;
        grit_get_pos(a, i, &p);
        grit_get_pos(b, i, &q);
        eq = eq && p.x == q.x && p.y == q.y && p.z == q.z;
    }
    return eq;
}

static void simd_and_restart_bitwise(void)
{
    for (int law = 0; law < 2; law++) {
        grit_scene *a = heap(law, true), *b = heap(law, false);
        CHECK(grit_step(a, 1000) == GRIT_OK && grit_step(b, 1000) == GRIT_OK);
        printf("    two layers, law %d: %d contacts\n", law, grit_contact_count(a));
        CHECK(grit_contact_count(a) > 60);
        CHECK(same(a, b));
        const char *path = "test_tangential_dashpot.grit";
        CHECK(grit_save(a, path) == GRIT_OK);
        grit_scene *c = grit_scene_load(path);
        CHECK(c != NULL);
        CHECK(grit_step(a, 1000) == GRIT_OK && grit_step(c, 1000) == GRIT_OK);
        CHECK(same(a, c));
        CHECK(grit_energy(a, GRIT_E_VISC) > 0);
        remove(path);
        grit_scene_destroy(a);
        grit_scene_destroy(b);
        grit_scene_destroy(c);
    }
}

int main(void)
{
    RUN(linear_rocking);
    RUN(kuhn_rocking);
    RUN(sliding_stays_in_the_limit);
    RUN(simd_and_restart_bitwise);
    TEST_MAIN_END();
}
