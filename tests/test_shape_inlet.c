/* Capsules and ellipsoids through inlets (grit/inlet.h, docs/inlets.md): an
 * inlet with shape templates inserts single capsules or ellipsoids, each
 * scaled by a factor of the size distribution, turned uniformly at random,
 * inside its region and overlapping nothing, at its mass rate, each template
 * and each scale by its mass fraction; the energy brought in closes the
 * balance, spin (the inlet's angular velocity) included; a restart while they pour in continues bitwise; bad templates
 * are refused naming the field and the value. */
#include <string.h>

#include "core/scene_impl.h"
#include "core/storage.h"
#include "fixture.h"
#include "grit/inlet.h"
#include "grit/restart.h"
#include "grit/shapes.h"

static const double RHO = 2500;

/* the scene under gravity and its material (E = 1 MPa: the smallest
 * ellipsoid's critical step is 2.4e-5 s) */
static grit_scene *scene(int *m) { return fx_gravity_scene(1e-5, RHO, 1e6, 0.4, m); }

static const grit_inlet_shape CAPSULE = {GRIT_SHAPE_CAPSULE, 1e-3, 2e-3, {0, 0, 0}, 1};
static const grit_inlet_shape ELLIPSOID = {GRIT_SHAPE_ELLIPSOID, 0, 0, {2e-3, 1.2e-3, 0.8e-3}, 1};

/* ---- what a body is, independently of the inlet ------------------------------------------- */
/* the body frame's axis k in global coordinates */
static grit_vec3 body_axis(const grit_scene *s, int i, int k)
{
    return q_rotate(s->b.ori[i], v3(k == 0, k == 1, k == 2));
}

/* whether the point p lies inside particle i (walls: behind their plane) */
static bool inside(const grit_scene *s, int i, grit_vec3 p)
{
    const grit_vec3 c = s->b.pr[i].pos, x = v3_sub(p, c);
    switch (s->b.shape[i]) {
    case GRIT_SHAPE_SPHERE: return v3_norm(x) < s->b.pr[i].r;
    case GRIT_SHAPE_WALL: return p.z < c.z; /* the floors here */
    case GRIT_SHAPE_CAPSULE: {
        double r, shaft;
        grit_get_capsule(s, s->b.id[i], &r, &shaft);
        const grit_vec3 a = body_axis(s, i, 0);
        const double t = clamp(v3_dot(x, a), -0.5 * shaft, 0.5 * shaft);
        return v3_norm(v3_sub(x, v3_scale(a, t))) < r;
    }
    case GRIT_SHAPE_ELLIPSOID: {
        grit_vec3 e;
        grit_get_ellipsoid(s, s->b.id[i], &e);
        const double u = v3_dot(x, body_axis(s, i, 0)) / e.x, v = v3_dot(x, body_axis(s, i, 1)) / e.y,
                     w = v3_dot(x, body_axis(s, i, 2)) / e.z;
        return u * u + v * v + w * w < 1;
    }
    default: return false;
    }
}

/* Points of particle i (a capsule or an ellipsoid): its surface along 200
 * directions (a capsule's at 9 places along its axis); *n their count. */
static int body_points(const grit_scene *s, int i, grit_vec3 *pts)
{
    int n = 0;
    const grit_vec3 c = s->b.pr[i].pos;
    for (int k = 0; k < 200; k++) { /* a Fibonacci sphere */
        const double z = 1 - (2 * k + 1) / 200.0, rho = sqrt(1 - z * z), phi = k * 2.399963229728653;
        const grit_vec3 u = v3(rho * cos(phi), rho * sin(phi), z);
        if (s->b.shape[i] == GRIT_SHAPE_CAPSULE) {
            double r, shaft;
            grit_get_capsule(s, s->b.id[i], &r, &shaft);
            for (int j = 0; j < 9; j++)
                pts[n++] = v3_add(c, v3_add(v3_scale(body_axis(s, i, 0), shaft * (j / 8.0 - 0.5)), v3_scale(u, r)));
        } else {
            grit_vec3 e;
            grit_get_ellipsoid(s, s->b.id[i], &e);
            pts[n++] = v3_add(c, v3_add(v3_add(v3_scale(body_axis(s, i, 0), e.x * u.x), v3_scale(body_axis(s, i, 1),
                                                                                               e.y * u.y)),
                                        v3_scale(body_axis(s, i, 2), e.z * u.z)));
        }
    }
    return n;
}

/* how far the particle reaches from its centre, and its box */
static double reach(const grit_scene *s, int i)
{
    if (s->b.shape[i] == GRIT_SHAPE_SPHERE) return s->b.pr[i].r;
    if (s->b.shape[i] == GRIT_SHAPE_CAPSULE) {
        double r, shaft;
        grit_get_capsule(s, s->b.id[i], &r, &shaft);
        return r + 0.5 * shaft;
    }
    grit_vec3 e;
    grit_get_ellipsoid(s, s->b.id[i], &e);
    return fmax(e.x, fmax(e.y, e.z));
}

/* The particles with ids from first on: how many poke out of the box d or
 * overlap another particle (a point of one inside the other, either way,
 * tested where their bounding spheres meet). */
static int check_new(const grit_scene *s, int first, const grit_inlet_def *d)
{
    static grit_vec3 pa[1800], pb[1800];
    int bad = 0;
    for (int id = first; id < grit_particle_id_end(s); id++) {
        const int i = grit_idx(s, id);
        const int na = body_points(s, i, pa);
        for (int k = 0; k < na; k++)
            bad += pa[k].x < d->lo.x || pa[k].x > d->hi.x || pa[k].y < d->lo.y || pa[k].y > d->hi.y ||
                   pa[k].z < d->lo.z || pa[k].z > d->hi.z;
        for (int j = 0; j < s->b.n; j++) {
            if (j == i) continue;
            if (s->b.shape[j] == GRIT_SHAPE_WALL) {
                for (int k = 0; k < na; k++) bad += inside(s, j, pa[k]);
                continue;
            }
            if (v3_norm(v3_sub(s->b.pr[j].pos, s->b.pr[i].pos)) > reach(s, i) + reach(s, j)) continue;
            int hit = 0;
            for (int k = 0; k < na; k++) hit += inside(s, j, pa[k]);
            if (s->b.shape[j] != GRIT_SHAPE_SPHERE) {
                const int nb = body_points(s, j, pb);
                for (int k = 0; k < nb; k++) hit += inside(s, i, pb[k]);
            } else {
                hit += inside(s, i, s->b.pr[j].pos);
            }
            bad += hit > 0;
        }
    }
    return bad;
}

/* ---- a box filled at the rate, by the fractions, turned at random ------------------------- */
typedef struct fill_result {
    long count;
    double rate, lag, biggest, frac_big, cos2[3][3]; /* cos2[k][g]: mean squared cosine of body axis k with g */
    int bad, unchecked; /* unchecked: inserted by the step's own run of the inlet (after waiting) */
} fill_result;

/* An inlet of template t at 0.4 kg/s into a box, the scales 0.8 and 1.2
 * at 0.3/0.7 of the mass (or uniform in [0.8, 1.2] by number), for 0.04 s;
 * the bodies leave the box at 2 m/s towards a floor 1 m below, so that it
 * never fills (each would wait, and be inserted by the step unchecked). A sphere in the
 * box from the start must stay clear. Every new body is checked before
 * anything moves. */
static fill_result fill_box(grit_inlet_shape t, bool two_scales)
{
    int m;
    grit_scene *s = scene(&m);
    fx_wall(s, m, 2, -1.0, 1);
    grit_inlet_def d = grit_default_inlet_def();
    d.region = GRIT_REGION_BOX;
    d.lo = v3(0, 0, 0);
    d.hi = v3(0.06, 0.06, 0.02);
    d.mass_rate = 0.4;
    d.material = m;
    d.vel = v3(0, 0, -2);
    d.seed = 17;
    d.n_shapes = 1;
    d.shapes[0] = t;
    if (two_scales) {
        d.n_sizes = 2;
        d.sizes[0] = 0.8, d.mass_frac[0] = 0.3;
        d.sizes[1] = 1.2, d.mass_frac[1] = 0.7;
    } else {
        d.r_min = 0.8, d.r_max = 1.2;
    }
    CHECK(grit_add_inlet(s, &d) == 0);
    const int ball = fx_sphere(s, m, v3(0.03, 0.03, 0.01), 4e-3, v3_zero());
    CHECK(grit_set_blocked(s, ball, GRIT_BLOCK_ALL) == GRIT_OK);
    fill_result r = {0};
    for (int k = 0; k < 4000; k++) {
        const int first = grit_particle_id_end(s);
        CHECK(grit_inlets_run(s) == GRIT_OK); /* what the step does first: look before anything moves */
        r.bad += check_new(s, first, &d);
        for (int id = first; id < grit_particle_id_end(s); id++) {
            const int i = grit_idx(s, id);
            for (int a = 0; a < 3; a++) {
                const grit_vec3 e = body_axis(s, i, a);
                r.cos2[a][0] += e.x * e.x, r.cos2[a][1] += e.y * e.y, r.cos2[a][2] += e.z * e.z;
            }
            r.biggest = fmax(r.biggest, s->b.mi[i].m);
            CHECK(s->b.shape[i] == t.shape && v3_norm2(s->b.vw[i].w) == 0 &&
                  v3_norm2(v3_sub(s->b.vw[i].v, d.vel)) == 0);
        }
        const int checked = grit_particle_id_end(s);
        CHECK(grit_step(s, 1) == GRIT_OK);
        r.unchecked += grit_particle_id_end(s) - checked;
        grit_inlet_info info;
        grit_inlet_get(s, 0, NULL, &info);
        r.lag = fmax(r.lag, fabs(info.mass - d.mass_rate * (grit_time(s) - grit_dt(s))));
    }
    grit_inlet_info info;
    grit_inlet_get(s, 0, NULL, &info);
    r.count = info.count;
    r.rate = info.mass / (grit_time(s) - grit_dt(s));
    double big = 0; /* the mass at scale 1.2 (above the middle scale's mass) */
    const double m1 = t.shape == GRIT_SHAPE_CAPSULE
                          ? (4.0 / 3.0 * M_PI * pow(t.radius, 3) + M_PI * t.radius * t.radius * t.shaft) * RHO
                          : 4.0 / 3.0 * M_PI * t.semi_axes.x * t.semi_axes.y * t.semi_axes.z * RHO;
    for (int i = 0; i < s->b.n; i++)
        if (s->b.shape[i] == t.shape && s->b.mi[i].m > m1) big += s->b.mi[i].m;
    r.frac_big = big / info.mass;
    for (int a = 0; a < 3; a++)
        for (int g = 0; g < 3; g++) r.cos2[a][g] /= (double)info.count;
    CHECK(grit_particle_count(s) == 2 + (int)info.count);
    grit_scene_destroy(s);
    return r;
}

static void report_fill(const char *what, fill_result r)
{
    printf("  %s: %ld in 0.04 s, rate %.4f kg/s (0.4; largest lag %.2e kg, largest body %.2e kg), "
           "%.3f of the mass above scale 1, %d overlaps or outside, %d unchecked\n"
           "   mean squared direction cosines of the body axes with x, y, z:",
           what, r.count, r.rate, r.lag, r.biggest, r.frac_big, r.bad, r.unchecked);
    for (int a = 0; a < 3; a++) printf(" (%.3f %.3f %.3f)", r.cos2[a][0], r.cos2[a][1], r.cos2[a][2]);
    printf("\n");
    CHECK(r.bad == 0 && r.unchecked == 0);
    CHECK(r.lag <= r.biggest);
    CHECK(r.count > 400);
    CHECK(fabs(r.rate - 0.4) < 0.4 * 0.02);
    /* uniform orientations: each body axis's squared direction cosines
     * average 1/3 (standard deviation of one: 0.30; over n: 0.30 / sqrt(n)) */
    for (int a = 0; a < 3; a++)
        for (int g = 0; g < 3; g++) CHECK(fabs(r.cos2[a][g] - 1.0 / 3.0) < 4 * 0.30 / sqrt((double)r.count));
}

static void capsules_fill_box(void)
{
    const fill_result r = fill_box(CAPSULE, true);
    report_fill("capsules, scales 0.8/1.2 at 0.3/0.7 of the mass", r);
    CHECK(fabs(r.frac_big - 0.7) < 0.07); /* 4 standard deviations over 600 bodies (0.017) */
}

static void ellipsoids_fill_box(void)
{
    const fill_result r = fill_box(ELLIPSOID, false);
    report_fill("ellipsoids, scales uniform in [0.8, 1.2]", r);
    /* uniform by number in [0.8, 1.2]: the mass above scale 1 is
     * int_1^1.2 s^3 ds / int_0.8^1.2 s^3 ds = 0.6452 */
    CHECK(fabs(r.frac_big - 0.6452) < 0.07); /* 4 standard deviations over 780 bodies (0.017) */
}

/* ---- mass and energy: capsules and ellipsoids pour into a 4 cm box ------------------------- */
/* an inlet in a cylinder over the middle of a 4 cm floor, 0.1 kg/s, its
 * particles thrown down and sideways and turning at angvel */
static grit_inlet_def cylinder_inlet(int m, grit_vec3 angvel)
{
    grit_inlet_def d = grit_default_inlet_def();
    d.region = GRIT_REGION_CYLINDER;
    d.center = v3(0.02, 0.02, 0.02);
    d.radius = 0.018;
    d.height = 0.02;
    d.mass_rate = 0.1;
    d.material = m;
    d.vel = v3(0.2, 0, -1.5);
    d.angvel = angvel;
    return d;
}

static grit_scene *pour(grit_vec3 angvel)
{
    int m;
    grit_scene *s = scene(&m);
    fx_wall(s, m, 2, 0.0, 1);
    for (int a = 0; a < 2; a++) fx_wall(s, m, a, 0.0, 1), fx_wall(s, m, a, 0.04, -1);
    grit_inlet_def d = cylinder_inlet(m, angvel);
    d.max_mass = 0.006;
    d.seed = 23;
    d.n_shapes = 2;
    d.shapes[0] = CAPSULE, d.shapes[0].mass_frac = 0.4;
    d.shapes[1] = ELLIPSOID, d.shapes[1].mass_frac = 0.6;
    CHECK(grit_add_inlet(s, &d) == 0);
    return s;
}

static void energy_book(void)
{
    grit_scene *s = pour(v3_zero());
    double worst;
    int most;
    fx_run_balance(s, 100, 100, &worst, &most);
    grit_inlet_info info;
    grit_inlet_get(s, 0, NULL, &info);
    double caps = 0, ells = 0, mass = 0;
    for (int i = 0; i < s->b.n; i++) {
        if (s->b.shape[i] == GRIT_SHAPE_CAPSULE) caps += s->b.mi[i].m;
        if (s->b.shape[i] == GRIT_SHAPE_ELLIPSOID) ells += s->b.mi[i].m;
    }
    mass = caps + ells;
    printf("  pour: %ld bodies, %.5f kg (max_mass 0.006, waiting %d), capsules %.3f of the mass (0.4), "
           "brought %.4e J (entry inlet %.4e J), up to %d contacts, worst balance error %.2e\n",
           info.count, info.mass, info.waiting, caps / mass, info.energy, grit_energy(s, GRIT_E_INLET), most, worst);
    CHECK(info.mass <= 0.006 && info.mass > 0.006 - 4e-5 && !info.waiting);
    CHECK_REL(mass, info.mass, 1e-12);
    CHECK(-grit_energy(s, GRIT_E_INLET) == info.energy);
    CHECK_REL(info.energy, 0.5 * info.mass * (0.2 * 0.2 + 1.5 * 1.5), 1e-12);
    CHECK(fabs(caps / mass - 0.4) < 0.1);
    CHECK(most > 30 && worst < 5e-3);
    grit_scene_destroy(s);
}

/* ---- spinning --------------------------------------------------------------------------------- */
static const grit_vec3 SPIN = {-150, 400, 900};

/* 1/2 w.I w of particle i with the inertia tensor R diag(I) R^T in global
 * axes (the inlet turns w into the body's axes instead) */
static double rot_energy(const grit_scene *s, int i, grit_vec3 w)
{
    const grit_vec3 I = s->b.mi[i].inertia;
    grit_vec3 Iw = v3_zero();
    for (int k = 0; k < 3; k++) {
        const grit_vec3 e = body_axis(s, i, k);
        Iw = v3_madd(Iw, (k == 0 ? I.x : k == 1 ? I.y : I.z) * v3_dot(e, w), e);
    }
    return 0.5 * v3_dot(w, Iw);
}

/* Capsules, ellipsoids and (in a second scene) spheres poured with the
 * inlet's angular velocity: each new body turns at exactly that rate, the
 * inlet books 1/2 m v^2 + 1/2 w.I w of each, and the balance stays closed. */
static void spinning(void)
{
    for (int kind = 0; kind < 2; kind++) {
        grit_scene *s;
        if (kind == 0) s = pour(SPIN);
        else { /* spheres of 0.8-1.2 mm in the same cylinder */
            int m;
            s = scene(&m);
            fx_wall(s, m, 2, 0.0, 1);
            grit_inlet_def d = cylinder_inlet(m, SPIN);
            d.max_mass = 0.004;
            d.r_min = 0.8e-3, d.r_max = 1.2e-3;
            CHECK(grit_add_inlet(s, &d) == 0);
        }
        grit_inlet_def d;
        grit_inlet_get(s, 0, &d, NULL);
        int other = 0;
        double e_book = 0, e_rot = 0, worst = 0;
        for (int k = 0; k < 6000; k++) {
            const int first = grit_particle_id_end(s);
            CHECK(grit_inlets_run(s) == GRIT_OK);
            for (int id = first; id < grit_particle_id_end(s); id++) {
                const int i = grit_idx(s, id);
                grit_vec3 w;
                CHECK(grit_get_angvel(s, id, &w) == GRIT_OK);
                other += memcmp(&w, &SPIN, sizeof w) != 0;
                const double er = rot_energy(s, i, SPIN);
                e_rot += er;
                e_book += 0.5 * s->b.mi[i].m * v3_norm2(d.vel) + er;
            }
            CHECK(grit_step(s, 1) == GRIT_OK);
            if (k % 100 == 99) worst = fmax(worst, fabs(grit_energy_rel_error(s)));
        }
        grit_inlet_info info;
        grit_inlet_get(s, 0, NULL, &info);
        printf("  %s: %ld bodies, %d turning at another rate; brought %.6e J (expected %.6e J, rotation %.3e J); "
               "worst balance error %.2e\n", kind ? "spheres" : "capsules and ellipsoids", info.count, other,
               info.energy, e_book, e_rot, worst);
        CHECK(info.count > 30 && other == 0);
        CHECK_REL(info.energy, e_book, 1e-12);
        CHECK(-grit_energy(s, GRIT_E_INLET) == info.energy);
        CHECK(e_rot > 0.05 * info.energy && worst < 5e-3);
        grit_scene_destroy(s);
    }
}

/* ---- restart while they pour in ----------------------------------------------------------- */
static void restart_bitwise(void)
{
    grit_scene *a = pour(SPIN);
    CHECK(grit_step(a, 2003) == GRIT_OK);
    grit_scene *b = fx_reload(a, "test_shape_inlet.grit");
    grit_inlet_def da, db;
    grit_inlet_get(a, 0, &da, NULL);
    grit_inlet_get(b, 0, &db, NULL);
    CHECK(db.n_shapes == 2 && memcmp(da.shapes, db.shapes, sizeof da.shapes) == 0 && db.r_min == 1 && db.r_max == 1);
    CHECK(memcmp(&da.angvel, &db.angvel, sizeof da.angvel) == 0 && db.angvel.z == SPIN.z);
    CHECK(grit_step(a, 3000) == GRIT_OK && grit_step(b, 3000) == GRIT_OK);
    grit_inlet_info ia, ib;
    grit_inlet_get(a, 0, NULL, &ia);
    grit_inlet_get(b, 0, NULL, &ib);
    int diff = fx_state_diff(a, b, "continued from the restart file");
    diff += memcmp(a->b.shape, b->b.shape, sizeof *a->b.shape * (size_t)a->b.n) != 0;
    diff += ia.mass != ib.mass || ia.count != ib.count || ia.failed != ib.failed || ia.energy != ib.energy ||
            ia.waiting != ib.waiting;
    printf("  continued 3000 steps after a restart at step 2003: %s (%ld bodies inserted, %d contacts)\n",
           diff ? "DIFFERENT" : "identical", ia.count, grit_contact_count(a));
    CHECK(diff == 0 && ia.count > 40);
    grit_scene_destroy(a);
    grit_scene_destroy(b);
}

/* ---- errors ------------------------------------------------------------------------------- */
static void errors(void)
{
    int m;
    grit_scene *s = scene(&m);
    grit_inlet_def d = grit_default_inlet_def();
    d.lo = v3(0, 0, 0);
    d.hi = v3(0.02, 0.02, 0.02);
    d.mass_rate = 0.1;
    d.material = m;
    d.n_shapes = 2;
    d.shapes[0] = CAPSULE;
    d.shapes[1] = ELLIPSOID;
    grit_inlet_def bad = d;
    bad.shapes[1].shape = GRIT_SHAPE_SPHERE;
    CHECK(grit_add_inlet(s, &bad) == GRIT_EINVAL && strstr(grit_last_error(s), "shape template 1: shape = 0"));
    printf("  %s\n", grit_last_error(s));
    bad = d;
    bad.shapes[0].shaft = -1e-3;
    CHECK(grit_add_inlet(s, &bad) == GRIT_EINVAL && strstr(grit_last_error(s), "shape template 0: capsule") &&
          strstr(grit_last_error(s), "shaft = -0.001"));
    printf("  %s\n", grit_last_error(s));
    bad = d;
    bad.shapes[1].semi_axes.y = 0;
    CHECK(grit_add_inlet(s, &bad) == GRIT_EINVAL &&
          strstr(grit_last_error(s), "shape template 1: ellipsoid semi_axes = (0.002, 0, 0.0008)"));
    printf("  %s\n", grit_last_error(s));
    bad = d;
    bad.shapes[0].mass_frac = -1;
    CHECK(grit_add_inlet(s, &bad) == GRIT_EINVAL && strstr(grit_last_error(s), "shape template 0: mass_frac = -1"));
    bad = d;
    bad.shapes[0].mass_frac = bad.shapes[1].mass_frac = 0;
    CHECK(grit_add_inlet(s, &bad) == GRIT_EINVAL &&
          strstr(grit_last_error(s), "the shape templates' mass fractions add up to 0"));
    bad = d;
    bad.n_shapes = 9;
    CHECK(grit_add_inlet(s, &bad) == GRIT_EINVAL && strstr(grit_last_error(s), "n_shapes = 9"));
    bad = d;
    const grit_vec3 c[1] = {{0, 0, 0}};
    const double rr[1] = {1e-3};
    bad.n_clumps = 1;
    bad.clumps[0] = (grit_inlet_clump){1, c, rr, 1};
    CHECK(grit_add_inlet(s, &bad) == GRIT_EINVAL && strstr(grit_last_error(s), "not both"));
    printf("  %s\n", grit_last_error(s));
    bad = d;
    bad.r_min = 0.5, bad.r_max = 0.4;
    CHECK(grit_add_inlet(s, &bad) == GRIT_EINVAL && strstr(grit_last_error(s), "scales [r_min, r_max] = [0.5, 0.4]"));
    printf("  %s\n", grit_last_error(s));
    bad = d;
    bad.n_sizes = 1, bad.sizes[0] = -2, bad.mass_frac[0] = 1;
    CHECK(grit_add_inlet(s, &bad) == GRIT_EINVAL && strstr(grit_last_error(s), "size 0: scale -2"));
    bad = d;
    bad.n_sizes = 1, bad.sizes[0] = 6, bad.mass_frac[0] = 1; /* the capsule at 6: 2.4 cm long, the box 2 cm */
    CHECK(grit_add_inlet(s, &bad) == GRIT_EINVAL && strstr(grit_last_error(s), "hold a shape template 0") &&
          strstr(grit_last_error(s), "0.012 m"));
    printf("  %s\n", grit_last_error(s));
    CHECK(grit_inlet_count(s) == 0);
    /* without a scale distribution: scale 1, read back as [1, 1] */
    CHECK(grit_add_inlet(s, &d) == 0);
    grit_inlet_def back;
    CHECK(grit_inlet_get(s, 0, &back, NULL) == GRIT_OK);
    CHECK(back.n_shapes == 2 && back.r_min == 1 && back.r_max == 1 && back.n_sizes == 0 &&
          back.shapes[1].semi_axes.x == 2e-3 && back.shapes[0].shaft == 2e-3 && back.shapes[2].shape == 0);
    grit_scene_destroy(s);
}

int main(void)
{
    RUN(capsules_fill_box);
    RUN(ellipsoids_fill_box);
    RUN(energy_book);
    RUN(spinning);
    RUN(restart_bitwise);
    RUN(errors);
    TEST_MAIN_END();
}
