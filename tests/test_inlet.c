/* Particle inlets (grit/inlet.h, docs/inlets.md): the mass rate (the
 * inserted mass within one particle of rate x time), a size distribution by
 * mass fractions and a uniform range, box and cylinder regions (every
 * particle inside, none overlapping anything when it appears), max_mass and
 * t_start, a full region (the particle waits), the energy brought in booked
 * so that the balance closes, a restart in the middle of the inflow
 * continued bitwise, errors. */
#include "core/scene_impl.h"
#include "fixture.h"
#include "grit/inlet.h"
#include "grit/restart.h"

static const double RHO = 2500;

static grit_scene *scene(bool track)
{
    grit_scene_def d = grit_default_scene_def();
    d.dt = 1e-5;
    d.track_energy = track;
    d.gravity = v3(0, 0, -9.81);
    return fx_scene(&d);
}

static int material(grit_scene *s)
{
    grit_frictmat_def m = grit_default_frictmat_def();
    m.density = RHO;
    m.young = 1e7;
    return fx_must(s, grit_add_frictmat(s, &m), "FrictMat");
}

/* Each particle that appeared in the last step: inside the region, and
 * clear of every other particle (spheres by their distance, walls by the
 * plane), to within the step's motion since it was placed (tol). Returns
 * the number of violations. */
static int check_new(const grit_scene *s, int first_new, const grit_inlet_def *d)
{
    const double tol = 2e-5; /* 1 m/s over a step of 1e-5 s, with gravity, both ways */
    int bad = 0;
    for (int id = first_new; id < grit_particle_count(s); id++) {
        const int i = s->id2idx[id];
        const grit_vec3 x = s->b.pr[i].pos;
        const double r = s->b.pr[i].r;
        if (d->region == GRIT_REGION_BOX) {
            bad += x.x - r < d->lo.x - tol || x.x + r > d->hi.x + tol || x.y - r < d->lo.y - tol ||
                   x.y + r > d->hi.y + tol || x.z - r < d->lo.z - tol || x.z + r > d->hi.z + tol;
        } else {
            bad += hypot(x.x - d->center.x, x.y - d->center.y) + r > d->radius + tol || x.z - r < d->center.z - tol ||
                   x.z + r > d->center.z + d->height + tol;
        }
        for (int j = 0; j < s->b.n; j++) {
            if (j == i) continue;
            if (s->b.shape[j] == GRIT_SHAPE_SPHERE)
                bad += v3_norm(v3_sub(s->b.pr[j].pos, x)) < r + s->b.pr[j].r - tol;
            else if (s->b.shape[j] == GRIT_SHAPE_WALL)
                bad += fabs(x.z - s->b.pr[j].pos.z) < r - tol;
        }
    }
    return bad;
}

/* ---- rate, sizes, box ------------------------------------------------------------------- */
static void rate_sizes_box(void)
{
    grit_scene *s = scene(false);
    const int m = material(s);
    fx_wall(s, m, 2, -1.0, 1); /* far below: the particles fall out of the box */
    grit_inlet_def d = grit_default_inlet_def();
    d.region = GRIT_REGION_BOX;
    d.lo = v3(0, 0, 0);
    d.hi = v3(0.05, 0.05, 0.03);
    d.mass_rate = 1.0;
    d.n_sizes = 2;
    d.sizes[0] = 1.5e-3;
    d.mass_frac[0] = 0.3;
    d.sizes[1] = 2.5e-3;
    d.mass_frac[1] = 0.7;
    d.material = m;
    d.vel = v3(0, 0, -0.5);
    d.seed = 11;
    CHECK(grit_add_inlet(s, &d) == 0);
    int bad = 0;
    double worst_lag = 0;
    const double m_big = 4.0 / 3.0 * M_PI * pow(2.5e-3, 3) * RHO;
    for (int k = 0; k < 6000; k++) { /* 0.06 s */
        const int n0 = grit_particle_count(s);
        CHECK(grit_step(s, 1) == GRIT_OK);
        bad += check_new(s, n0, &d);
        grit_inlet_info info;
        grit_inlet_get(s, 0, NULL, &info);
        /* the mass asked for by the start of the step just run */
        const double asked = d.mass_rate * (grit_time(s) - grit_dt(s));
        worst_lag = fmax(worst_lag, fabs(info.mass - asked));
    }
    grit_inlet_info info;
    grit_inlet_get(s, 0, NULL, &info);
    double mass_small = 0;
    for (int id = 1; id < grit_particle_count(s); id++) {
        const int i = s->id2idx[id];
        if (s->b.pr[i].r < 2e-3) mass_small += s->b.mi[i].m;
    }
    printf("  box: %ld spheres, %.5f kg in %.4f s (rate %.4f kg/s; largest lag %.2e kg, one big sphere %.2e kg), "
           "small spheres %.4f of the mass (0.3), %ld places refused, %d violations\n",
           info.count, info.mass, grit_time(s), info.mass / (grit_time(s) - grit_dt(s)), worst_lag, m_big,
           mass_small / info.mass, info.failed, bad);
    CHECK(bad == 0);
    CHECK(worst_lag <= m_big);
    CHECK(fabs(mass_small / info.mass - 0.3) < 0.03);
    CHECK(info.count > 500 && info.failed > 0 && info.energy > 0);
    grit_scene_destroy(s);
}

/* ---- cylinder, uniform radii, t_start and max_mass -------------------------------------- */
static void cylinder_uniform(void)
{
    grit_scene *s = scene(false);
    const int m = material(s);
    grit_inlet_def d = grit_default_inlet_def();
    d.region = GRIT_REGION_CYLINDER;
    d.center = v3(0.1, -0.2, 0.5);
    d.radius = 0.02;
    d.height = 0.05;
    d.mass_rate = 0.5;
    d.max_mass = 0.02;
    d.vel = v3(0, 0, -1); /* out of the region at once: it never fills */
    d.t_start = 0.01;
    d.r_min = 1e-3;
    d.r_max = 2e-3;
    d.material = m;
    CHECK(grit_add_inlet(s, &d) == 0);
    int bad = 0;
    long first_step = -1;
    for (int k = 0; k < 8000; k++) {
        const int n0 = grit_particle_count(s);
        CHECK(grit_step(s, 1) == GRIT_OK);
        bad += check_new(s, n0, &d);
        if (first_step < 0 && grit_particle_count(s) > 0) first_step = k;
    }
    grit_inlet_info info;
    grit_inlet_get(s, 0, NULL, &info);
    double rmin = INFINITY, rmax = 0, rsum = 0;
    for (int i = 0; i < s->b.n; i++) {
        rmin = fmin(rmin, s->b.pr[i].r);
        rmax = fmax(rmax, s->b.pr[i].r);
        rsum += s->b.pr[i].r;
    }
    const double m_big = 4.0 / 3.0 * M_PI * pow(2e-3, 3) * RHO;
    printf("  cylinder: first sphere at step %ld (t_start 0.01 s), %ld spheres, %.5f kg (max_mass 0.02), radii "
           "%.4g-%.4g mm, mean %.4f mm (1.5), %d violations\n",
           first_step, info.count, info.mass, rmin * 1e3, rmax * 1e3, rsum / s->b.n * 1e3, bad);
    CHECK(bad == 0);
    CHECK(first_step == 1001);
    CHECK(info.mass <= 0.02 && info.mass > 0.02 - m_big);
    CHECK(rmin >= 1e-3 && rmax <= 2e-3 && fabs(rsum / s->b.n - 1.5e-3) < 0.05e-3);
    grit_scene_destroy(s);
}

/* ---- a full region: the particle waits ---------------------------------------------------- */
static void full_region(void)
{
    grit_scene_def sd = grit_default_scene_def();
    sd.dt = 1e-5;
    sd.gravity = v3_zero();
    grit_scene *s = fx_scene(&sd);
    const int m = material(s);
    grit_inlet_def d = grit_default_inlet_def();
    d.lo = v3(0, 0, 0);
    d.hi = v3(0.0021, 0.0021, 0.0021); /* one sphere of 1 mm fits, no second */
    d.mass_rate = 1.0;
    d.r_min = d.r_max = 1e-3;
    d.material = m;
    CHECK(grit_add_inlet(s, &d) == 0);
    CHECK(grit_step(s, 10) == GRIT_OK);
    grit_inlet_info info;
    grit_inlet_get(s, 0, NULL, &info);
    printf("  full region: %ld sphere, waiting %d, %ld places refused\n", info.count, info.waiting, info.failed);
    CHECK(info.count == 1 && info.waiting == 1 && info.failed == 8 * d.max_attempts); /* nothing asked at step 0 */
    grit_scene_destroy(s);
}

/* ---- energy ------------------------------------------------------------------------------ */
static void energy_book(void)
{
    grit_scene *s = scene(true);
    const int m = material(s);
    fx_wall(s, m, 2, 0.0, 1);
    grit_inlet_def d = grit_default_inlet_def();
    d.lo = v3(0, 0, 0.02);
    d.hi = v3(0.03, 0.03, 0.04);
    d.mass_rate = 0.3;
    d.max_mass = 0.01;
    d.r_min = 1.5e-3;
    d.r_max = 2e-3;
    d.material = m;
    d.vel = v3(0.3, 0, -1.0);
    CHECK(grit_add_inlet(s, &d) == 0);
    double worst;
    int most;
    fx_run_balance(s, 1000, 10, &worst, &most);
    grit_inlet_info info;
    grit_inlet_get(s, 0, NULL, &info);
    printf("  energy: %ld spheres brought %.4e J (entry inlet %.4e J), up to %d contacts, worst balance %.2e\n",
           info.count, info.energy, grit_energy(s, GRIT_E_INLET), most, worst);
    CHECK_REL(-grit_energy(s, GRIT_E_INLET), info.energy, 1e-12);
    CHECK_REL(info.energy, 0.5 * info.mass * 1.09, 1e-12);
    CHECK(most >= 3 && worst < 5e-3);
    grit_scene_destroy(s);
}

/* ---- restart ------------------------------------------------------------------------------ */
static grit_scene *pour(void)
{
    grit_scene *s = scene(true);
    const int m = material(s);
    fx_wall(s, m, 2, 0.0, 1);
    grit_inlet_def d = grit_default_inlet_def();
    d.region = GRIT_REGION_CYLINDER;
    d.center = v3(0, 0, 0.01);
    d.radius = 0.01;
    d.height = 0.01;
    d.mass_rate = 0.2;
    d.r_min = 1e-3;
    d.r_max = 1.5e-3;
    d.material = m;
    d.seed = 99;
    CHECK(grit_add_inlet(s, &d) == 0);
    return s;
}

static void restart_bitwise(void)
{
    grit_scene *a = pour();
    CHECK(grit_step(a, 2003) == GRIT_OK);
    grit_scene *b = fx_restart_twin(a, "test_inlet.grit", 3000);
    int diff = grit_particle_count(a) != grit_particle_count(b);
    if (!diff) diff = fx_pos_vel_diff(a, b, grit_particle_count(a));
    grit_inlet_info ia, ib;
    grit_inlet_get(a, 0, NULL, &ia);
    grit_inlet_get(b, 0, NULL, &ib);
    diff += ia.mass != ib.mass || ia.count != ib.count || ia.failed != ib.failed || ia.energy != ib.energy ||
            ia.waiting != ib.waiting;
    diff += fx_energy_diff(a, b);
    printf("  pour continued 3000 steps after a restart: %s (%d particles, %ld inserted)\n",
           diff ? "DIFFERENT" : "identical", grit_particle_count(a), ia.count);
    CHECK(diff == 0 && ia.count > 50 && ia.count > ib.count - 1);
    grit_scene_destroy(a);
    grit_scene_destroy(b);
}

/* ---- errors ------------------------------------------------------------------------------- */
static void errors(void)
{
    grit_scene *s = scene(false);
    const int m = material(s);
    grit_inlet_def d = grit_default_inlet_def();
    d.hi = v3(0.01, 0.01, 0.01);
    d.mass_rate = 1;
    d.r_min = d.r_max = 1e-3;
    d.material = m;
    grit_inlet_def bad = d;
    bad.mass_rate = 0;
    CHECK(grit_add_inlet(s, &bad) == GRIT_EINVAL && strstr(grit_last_error(s), "mass_rate"));
    bad = d;
    bad.r_max = 0.02;
    CHECK(grit_add_inlet(s, &bad) == GRIT_EINVAL && strstr(grit_last_error(s), "hold a sphere"));
    printf("  %s\n", grit_last_error(s));
    bad = d;
    bad.material = 5;
    CHECK(grit_add_inlet(s, &bad) == GRIT_EINVAL);
    bad = d;
    bad.n_sizes = 2;
    bad.sizes[0] = 1e-3;
    bad.sizes[1] = 1e-3;
    CHECK(grit_add_inlet(s, &bad) == GRIT_EINVAL && strstr(grit_last_error(s), "mass fractions"));
    CHECK(grit_inlet_count(s) == 0 && grit_add_inlet(s, &d) == 0 && grit_inlet_count(s) == 1);
    CHECK(grit_inlet_get(s, 1, NULL, NULL) == GRIT_EINVAL);
    grit_scene_destroy(s);
}

int main(void)
{
    RUN(rate_sizes_box);
    RUN(cylinder_uniform);
    RUN(full_region);
    RUN(energy_book);
    RUN(restart_bitwise);
    RUN(errors);
    TEST_MAIN_END();
}
