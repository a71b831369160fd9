/* The vectorised sphere-sphere kernel of the concrete law
 * (contact/ss_cpm_simd.c, whose elastic steps are 4-wide and the others go
 * through the scalar update) against the scalar contact loop: a bonded block
 * pulled apart (damage, cracks, shear, contacts removed and made again) under
 * each yield surface, and a bonded periodic cell sheared, energy tracking on
 * and off -- positions,
 * velocities, every contact's force and state and every energy entry equal
 * bit for bit, step after step. */
#include "core/scene_impl.h"
#include "fixture.h"
#include "grit/cell.h"
#include "grit/concrete.h"
#include "law2/cpm.h"

static int yield_surface = GRIT_YIELD_LOGLIN;

static grit_scene *block(bool simd, bool track, bool periodic, int n, double rate, int dam_law)
{
    grit_scene_def d = grit_default_scene_def();
    d.dt_safety = 0.3;
    d.track_energy = track;
    d.simd = simd;
    d.interaction_radius = 1.5;
    grit_scene *s = fx_scene(&d);
    grit_cpm_def law = grit_default_cpm_def();
    law.omega_threshold = 0.95; /* cohesive contacts are removed too */
    law.cohesive_steps = 3;
    law.yield_surface = yield_surface;
    fx_must(s, grit_set_law_def(s, GRIT_LAW_CPM, &law, sizeof law), "cpm");
    grit_concretemat_def m = grit_default_concretemat_def();
    m.young = 30e9;
    m.dam_law = dam_law;
    m.rel_ductility = 5;
    m.eps_crack_onset = 1e-4;
    int mat = fx_must(s, grit_add_concretemat(s, &m), "ConcreteMat");
    const double r = 1e-3, h = 2 * r;
    unsigned long long rng = 99;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            for (int k = 0; k < n; k++) {
                double u[6];
                for (int q = 0; q < 6; q++) {
                    rng = rng * 6364136223846793005ull + 1442695040888963407ull;
                    u[q] = (double)(rng >> 11) * 0x1p-53 - 0.5;
                }
                grit_vec3 x = v3((i + 0.5) * h + 0.05 * r * u[0], (j + 0.5) * h + 0.05 * r * u[1],
                                 (k + 0.5) * h + 0.05 * r * u[2]);
                grit_vec3 v = periodic ? v3(0.3 * u[3], 0.3 * u[4], 0.3 * u[5])
                                       : v3(rate * (x.x - 0.5 * n * h) + 0.2 * u[3], 0.2 * u[4], 0.2 * u[5]);
                int id = fx_sphere(s, mat, x, r, v);
                grit_set_angvel(s, id, v3(100 * u[4], 100 * u[5], 100 * u[3]));
            }
    if (periodic) {
        const double H[3][3] = {{n * h, 0, 0}, {0, n * h, 0}, {0, 0, n * h}};
        fx_must(s, grit_cell_set(s, H), "cell");
        const double L[3][3] = {{0, 300.0, 0}, {0, 0, 0}, {0, 0, -50.0}}; /* shear and stretch */
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
        diff += memcmp(&ia.force, &ib.force, sizeof ia.force) != 0 || ia.uN != ib.uN;
    for (int e = 0; e < GRIT_E_COUNT; e++) diff += memcmp(&a->energy[e], &b->energy[e], sizeof(double)) != 0;
    for (int k = 0; k < a->c.n; k++)
        if ((a->c.pair[k].flags & CF_REAL) && a->c.pair[k].law == GRIT_LAW_CPM)
            diff += memcmp(a->c.ext + (size_t)k * (size_t)a->c.ext_n, b->c.ext + (size_t)k * (size_t)b->c.ext_n,
                           sizeof(double) * GRIT_LAW_CPM_EXT_N) != 0;
    return diff;
}

static void run_case(const char *name, bool track, bool periodic, int dam_law)
{
    grit_scene *a = block(true, track, periodic, 5, 700.0, dam_law), *b = block(false, track, periodic, 5, 700.0,
                                                                                dam_law);
    int worst = 0, first_bad = -1;
    long steps = 0;
    for (int k = 0; k < 60; k++) {
        CHECK(grit_step(a, 25) == GRIT_OK && grit_step(b, 25) == GRIT_OK);
        steps += 25;
        const int d = compare(a, b);
        if (d && first_bad < 0) first_bad = (int)steps;
        worst = d > worst ? d : worst;
    }
    grit_concrete_summary sa;
    grit_concrete_summarize(a, &sa);
    const double share = (double)a->cpm_lanes[0] / (double)(a->cpm_lanes[0] + a->cpm_lanes[1]);
    printf("  %s: %.1f %% of the kernel's contact steps were the 4-wide elastic step\n", name, 100 * share);
    CHECK(b->cpm_lanes[0] == 0);                         /* simd = false: the scalar loop only */
    if (!strncmp(name, "block", 5)) CHECK(share > 0.5); /* mostly elastic steps there */
    printf("  %s: %ld steps, %d contacts (%d cohesive, %d damaged, %ld cohesive removed): %s\n", name, steps,
           sa.contacts, sa.cohesive, sa.damaged, sa.broken, worst ? "DIFFERENT" : "identical");
    if (worst) printf("    first difference after %d steps\n", first_bad);
    CHECK(worst == 0);
    CHECK(sa.damaged > 0);
    if (!periodic) CHECK(sa.broken > 0);
    grit_scene_destroy(a);
    grit_scene_destroy(b);
}

static void bonded_block(void) { run_case("block pulled apart, energy on", true, false, GRIT_DAM_LAW_EXP); }
static void bonded_block_fast(void) { run_case("block pulled apart, energy off", false, false, GRIT_DAM_LAW_EXP); }
static void bonded_block_linear(void) { run_case("block, linear damage", true, false, GRIT_DAM_LAW_LINEAR); }
static void periodic_cell(void) { run_case("periodic cell sheared", true, true, GRIT_DAM_LAW_EXP); }
/* the vectorised elastic step tests each yield surface its own way */
static void yield_surfaces(void)
{
    const int ys[3] = {GRIT_YIELD_LIN, GRIT_YIELD_LOG, GRIT_YIELD_PARAB};
    const char *names[3] = {"linear surface", "logarithmic surface", "parabolic surface"};
    for (int k = 0; k < 3; k++) {
        yield_surface = ys[k];
        run_case(names[k], true, false, GRIT_DAM_LAW_EXP);
    }
    yield_surface = GRIT_YIELD_LOGLIN;
}

int main(void)
{
    RUN(bonded_block);
    RUN(bonded_block_fast);
    RUN(bonded_block_linear);
    RUN(periodic_cell);
    RUN(yield_surfaces);
    TEST_MAIN_END();
}
