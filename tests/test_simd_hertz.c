/* The vectorised sphere-sphere kernel of the Hertz-Mindlin law
 * (contact/ss_hertz_simd.c) against the scalar contact loop: a bed of
 * spheres of two materials poured into a box, colliding, sliding, spinning,
 * with contacts made and lost (and, with limit_force, the normal force cut;
 * with rolling resistance, EPSD and CDT contacts through the scalar law),
 * and a dense periodic cell sheared; energy tracking on and off. Positions,
 * velocities, every contact's force, state and stiffnesses and every energy
 * entry are equal bit for bit, step after step. */
#include "core/scene_impl.h"
#include "fixture.h"
#include "grit/cell.h"
#include "law2/hertz.h"

static grit_scene *bed(bool simd, bool track, bool periodic, bool limit_force, bool roll)
{
    grit_scene_def d = grit_default_scene_def();
    d.track_energy = track;
    d.simd = simd;
    d.gravity = periodic ? v3_zero() : v3(0, 0, -9.81);
    grit_scene *s = fx_scene(&d);
    grit_hertz_def law = grit_default_hertz_def();
    law.limit_force = limit_force;
    fx_must(s, grit_set_law_def(s, GRIT_LAW_HERTZ, &law, sizeof law), "hertz");
    grit_hertzmat_def m = grit_default_hertzmat_def();
    m.young = 5e7;
    m.poisson = 0.3;
    m.density = 2500;
    m.tan_phi = 0.3;
    m.restitution = 0.5;
    if (roll) { /* EPSD between m1s and between m1 and m2, CDT between m2s */
        m.rolling = GRIT_ROLLING_EPSD;
        m.mu_roll = 0.1;
    }
    const int m1 = fx_must(s, grit_add_hertzmat(s, &m), "HertzMat");
    m.young = 2e7;
    m.tan_phi = 0.6;
    m.restitution = 0.8;
    if (roll) {
        m.rolling = GRIT_ROLLING_CDT;
        m.mu_roll = 0.2;
    }
    const int m2 = fx_must(s, grit_add_hertzmat(s, &m), "HertzMat 2");
    const double r = 2e-3, h = 2.1 * r;
    const int n = periodic ? 6 : 7;
    if (!periodic) {
        fx_wall(s, m1, 2, 0.0, 1);
        fx_wall(s, m1, 0, -r, 1);
        fx_wall(s, m1, 0, n * h, -1);
        fx_wall(s, m1, 1, -r, 1);
        fx_wall(s, m1, 1, n * h, -1);
    }
    unsigned long long rng = 4242;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            for (int k = 0; k < (periodic ? n : 2 * n); k++) {
                double u[7];
                for (int q = 0; q < 7; q++) u[q] = fx_rand(&rng) - 0.5;
                const double rr = r * (periodic ? 1.05 + 0.1 * u[6] : 1.0 + 0.2 * u[6]);
                const grit_vec3 x = v3((i + 0.5) * h + 0.1 * r * u[0], (j + 0.5) * h + 0.1 * r * u[1],
                                       (k + 0.5) * h + 0.1 * r * u[2]);
                const int id = fx_sphere(s, (i + j + k) % 3 ? m1 : m2, x, rr, v3(0.3 * u[3], 0.3 * u[4], 0.3 * u[5]));
                grit_set_angvel(s, id, v3(300 * u[4], 300 * u[5], 300 * u[3]));
            }
    if (periodic) {
        const double H[3][3] = {{n * h, 0, 0}, {0, n * h, 0}, {0, 0, n * h}};
        fx_must(s, grit_cell_set(s, H), "cell");
        const double L[3][3] = {{0, 20.0, 0}, {0, 0, 0}, {0, 0, -2.0}};
        fx_must(s, grit_cell_set_grad_v(s, L), "gradient");
    }
    return s;
}

static int compare(grit_scene *a, grit_scene *b)
{
    int diff = 0;
    for (int id = 0; id < grit_particle_count(a); id++) {
        grit_vec3 x[2], v[2], w[2];
        grit_get_pos(a, id, &x[0]), grit_get_pos(b, id, &x[1]);
        grit_get_vel(a, id, &v[0]), grit_get_vel(b, id, &v[1]);
        grit_get_angvel(a, id, &w[0]), grit_get_angvel(b, id, &w[1]);
        diff += memcmp(&x[0], &x[1], sizeof x[0]) || memcmp(&v[0], &v[1], sizeof v[0]) ||
                memcmp(&w[0], &w[1], sizeof w[0]);
    }
    if (grit_contact_count(a) != grit_contact_count(b)) return diff + 1000000;
    int ca = 0, cb = 0;
    grit_contact_info ia, ib;
    while (grit_contact_next(a, &ca, &ia) && grit_contact_next(b, &cb, &ib))
        diff += memcmp(&ia.force, &ib.force, sizeof ia.force) != 0 || ia.uN != ib.uN || ia.kn != ib.kn ||
                ia.kt != ib.kt;
    for (int e = 0; e < GRIT_E_COUNT; e++) diff += memcmp(&a->energy[e], &b->energy[e], sizeof(double)) != 0;
    for (int k = 0; k < a->c.n; k++)
        if ((a->c.pair[k].flags & CF_REAL) && a->c.pair[k].law == GRIT_LAW_HERTZ)
            diff += memcmp(a->c.ext + (size_t)k * (size_t)a->c.ext_n, b->c.ext + (size_t)k * (size_t)b->c.ext_n,
                           sizeof(double) * (size_t)a->c.ext_n) != 0; /* 8 without rolling resistance */
    return diff;
}

static void run_case(const char *name, bool track, bool periodic, bool limit_force, bool roll)
{
    grit_scene *a = bed(true, track, periodic, limit_force, roll), *b = bed(false, track, periodic, limit_force, roll);
    int worst = 0, first_bad = -1, most = 0;
    long steps = 0, slipping = 0;
    for (int k = 0; k < 60; k++) {
        CHECK(grit_step(a, 50) == GRIT_OK && grit_step(b, 50) == GRIT_OK);
        steps += 50;
        const int d = compare(a, b);
        if (d && first_bad < 0) first_bad = (int)steps;
        worst = d > worst ? d : worst;
        most = grit_contact_count(a) > most ? grit_contact_count(a) : most;
        int c = 0;
        grit_contact_info ci;
        while (grit_contact_next(a, &c, &ci))
            slipping += ci.law == GRIT_LAW_HERTZ && hypot(ci.force.y, ci.force.z) >= ci.tan_phi * fabs(ci.force.x) &&
                        ci.force.x != 0;
    }
    printf("  %s: %ld steps, up to %d contacts, %ld contact samples sliding, plast %.3g J: %s\n", name, steps, most,
           slipping, grit_energy(a, GRIT_E_PLAST), worst ? "DIFFERENT" : "identical");
    if (worst) printf("    first difference after %d steps\n", first_bad);
    CHECK(worst == 0);
    CHECK(most > 100 && slipping > 0);
    grit_scene_destroy(a);
    grit_scene_destroy(b);
}

static void poured_bed(void) { run_case("bed poured into a box, energy on", true, false, false, false); }
static void poured_bed_fast(void) { run_case("bed poured into a box, energy off", false, false, false, false); }
static void poured_bed_limit(void) { run_case("bed poured, limit_force", true, false, true, false); }
static void poured_bed_rolling(void)
{
    run_case("bed poured, rolling resistance (EPSD and CDT), energy on", true, false, false, true);
}
static void periodic_cell(void) { run_case("periodic cell sheared", true, true, false, false); }

int main(void)
{
    RUN(poured_bed);
    RUN(poured_bed_fast);
    RUN(poured_bed_limit);
    RUN(poured_bed_rolling);
    RUN(periodic_cell);
    TEST_MAIN_END();
}
