/* The vectorised sphere-sphere kernel of Kuhn's law (contact/ss_kuhn_simd.c)
 * against the scalar path: the same bed run with simd on and off must give
 * bit-identical particle states, forces, contact forces and energy books,
 * step after step -- for the refined and the conventional law, a dense
 * confined bed (almost every contact elastic: the 4-wide path), a flowing
 * bed (sliding, separating and new contacts: the lane-wise fallback mixed
 * with 4-wide lanes), a sheared periodic cell (images), and every
 * combination of the refinement switches. */
#include "core/scene_impl.h"
#include "fixture.h"
#include "grit/cell.h"
#include "grit/kuhn.h"

enum { DENSE, FLOW, PERIODIC };

typedef struct variant {
    const char *name;
    bool fresh, onset, turn, projection;
    int twirl, work;
    bool mixed;    /* a second material: no tangential spring with itself, no friction with the first */
    bool no_frict; /* the scene's no_frict */
} variant;

static const variant REFINED = {"refined", true, true, true, true, GRIT_KUHN_TWIRL_EXACT, GRIT_KUHN_WORK_TRAPEZOID,
                                false, false};
static const variant CONVENTIONAL = {"conventional", false, false, false, true, GRIT_KUHN_TWIRL_OFF,
                                     GRIT_KUHN_WORK_TRAPEZOID, false, false};

/* A jittered cubic packing of nx*ny*nz spheres (radius 0.95..1.05 mm) at
 * spacing h with random velocities and spins in a box of six walls touching
 * the outer spheres. DENSE: h = 1.9 mm; FLOW: h = 1.95 mm, sheared
 * (v_x = 4 m/s (z/H - 1/2)), a quarter of the spheres spinning fast, gravity
 * tilted; PERIODIC: h = 1.9 mm, no walls
 * but a cell of nx h by ny h by nz h sheared at 40/s (v_x = 40/s z), no
 * gravity. */
static grit_scene *bed(int kind, int nx, int ny, int nz, const variant *v, bool simd, bool track)
{
    grit_scene_def d = grit_default_scene_def();
    d.dt = 2.5e-6;
    d.gravity = kind == FLOW ? v3(6.0, 2.0, -9.81) : (kind == DENSE ? v3(0, 0, -9.81) : v3_zero());
    d.simd = simd;
    d.track_energy = track;
    grit_scene *s = fx_scene(&d);
    grit_kuhn_def kd = grit_default_kuhn_def();
    kd.kuhn_fresh = v->fresh;
    kd.kuhn_onset = v->onset;
    kd.kuhn_turn = v->turn;
    kd.kuhn_projection = v->projection;
    kd.kuhn_twirl = v->twirl;
    kd.kuhn_work = v->work;
    fx_must(s, grit_set_law_def(s, GRIT_LAW_KUHN, &kd, sizeof kd), "kuhn");
    grit_idealelpl_def ie = grit_default_idealelpl_def();
    ie.no_frict = v->no_frict;
    fx_must(s, grit_set_law_def(s, GRIT_LAW_IDEALELPL, &ie, sizeof ie), "idealelpl");
    grit_frictmat_def fm = grit_default_frictmat_def();
    fm.law = GRIT_LAW_KUHN;
    fm.density = 2600;
    const int mat = grit_add_frictmat(s, &fm);
    grit_pair_def pd = grit_default_pair_def();
    pd.kn = 1e4;
    pd.kt = 1e4 * 2.0 / 7.0;
    pd.tan_phi = 0.5;
    pd.cn = 0.05;
    fx_must(s, grit_set_pair(s, mat, mat, &pd), "pair");
    int mat1 = mat;
    if (v->mixed) {
        mat1 = grit_add_frictmat(s, &fm);
        grit_pair_def p1 = pd;
        p1.kt = 0;
        fx_must(s, grit_set_pair(s, mat1, mat1, &p1), "pair");
        p1 = pd;
        p1.tan_phi = 0;
        fx_must(s, grit_set_pair(s, mat, mat1, &p1), "pair");
    }
    const double h = kind == FLOW ? 1.95e-3 : 1.9e-3;
    if (kind != PERIODIC) {
        fx_wall(s, mat, 2, 0.0, 1);
        fx_wall(s, mat, 2, h * nz, -1);
        fx_wall(s, mat, 0, 0.0, 1);
        fx_wall(s, mat, 0, h * nx, -1);
        fx_wall(s, mat, 1, 0.0, 1);
        fx_wall(s, mat, 1, h * ny, -1);
    }
    unsigned long long seed = 0x9E3779B97F4A7C15ULL;
    for (int i = 0; i < nx; i++)
        for (int j = 0; j < ny; j++)
            for (int k = 0; k < nz; k++) {
                grit_sphere_def sd = grit_default_sphere_def();
                sd.material = (i + j + k) % 3 ? mat : mat1;
                sd.radius = 1e-3 * (0.95 + 0.1 * fx_rand(&seed));
                /* draws in GCC's order, last argument first (fixture.h, fx_rand) */
                double z = fx_rand(&seed) - 0.5, y = fx_rand(&seed) - 0.5, x = fx_rand(&seed) - 0.5;
                sd.pos = v3(h * (i + 0.5) + 1e-4 * x, h * (j + 0.5) + 1e-4 * y, h * (k + 0.5) + 1e-4 * z);
                z = fx_rand(&seed) - 0.5, y = fx_rand(&seed) - 0.5, x = fx_rand(&seed) - 0.5;
                sd.vel = v3(0.05 * x, 0.05 * y, 0.05 * z);
                z = fx_rand(&seed) - 0.5, y = fx_rand(&seed) - 0.5, x = fx_rand(&seed) - 0.5;
                sd.angvel = v3(20 * x, 20 * y, 20 * z);
                if (kind == PERIODIC) sd.vel.x += 40.0 * sd.pos.z;
                if (kind == FLOW) {
                    sd.vel.x += 4.0 * (sd.pos.z / (h * nz) - 0.5);
                    /* some spin fast: twirl angles above 1e-3 rad (the longer
                     * series) and above 0.05 rad (sin, cos) in a step */
                    const double u = fx_rand(&seed);
                    sd.angvel = v3_scale(sd.angvel, u < 0.05 ? 4000.0 : (u < 0.3 ? 150.0 : 1.0));
                }
                fx_must(s, grit_add_sphere(s, &sd) < 0 ? -1 : 0, "sphere");
            }
    if (kind == PERIODIC) {
        const double H[3][3] = {{h * nx, 0, 0}, {0, h * ny, 0}, {0, 0, h * nz}};
        fx_must(s, grit_cell_set(s, H), "cell");
        const double L[3][3] = {{0, 0, 40.0}, {0, 0, 0}, {0, 0, 0}};
        fx_must(s, grit_cell_set_grad_v(s, L), "gradient");
    }
    return s;
}

static bool same3(grit_vec3 a, grit_vec3 b) { return memcmp(&a, &b, sizeof a) == 0; }

/* Both scenes bit for bit: every particle's state and accumulated force,
 * every real contact's force, every energy entry. Returns the number of
 * differing values. */
static int differences(const grit_scene *a, const grit_scene *b)
{
    int diff = 0;
    if (grit_contact_count(a) != grit_contact_count(b)) return 1;
    for (int id = 0; id < grit_particle_count(a); id++) {
        grit_vec3 u, w;
        grit_get_pos(a, id, &u), grit_get_pos(b, id, &w), diff += !same3(u, w);
        grit_get_vel(a, id, &u), grit_get_vel(b, id, &w), diff += !same3(u, w);
        grit_get_angvel(a, id, &u), grit_get_angvel(b, id, &w), diff += !same3(u, w);
        grit_get_force(a, id, &u), grit_get_force(b, id, &w), diff += !same3(u, w);
        grit_get_torque(a, id, &u), grit_get_torque(b, id, &w), diff += !same3(u, w);
    }
    int ca = 0, cb = 0;
    grit_contact_info ia, ib;
    while (grit_contact_next(a, &ca, &ia) && grit_contact_next(b, &cb, &ib))
        diff += ia.id_a != ib.id_a || ia.id_b != ib.id_b || !same3(ia.force, ib.force) ||
                !same3(ia.force_global, ib.force_global) || !same3(ia.ey, ib.ey) || !same3(ia.vel, ib.vel);
    for (int e = 0; e < GRIT_E_COUNT; e++) {
        const double ea = grit_energy(a, e), eb = grit_energy(b, e);
        diff += memcmp(&ea, &eb, sizeof ea) != 0;
    }
    return diff;
}

typedef struct outcome {
    int first_diff_step;           /* -1: none */
    long lanes4, lanes1, lanesu;   /* the SIMD run's contacts: 4-wide, scalar, 4-wide but the update */
    int statuses[GRIT_KUHN_STATUS_COUNT]; /* summed over the compared steps */
    int contacts;                  /* real contacts at the end */
    double elast;                  /* elastic energy at the end (track) */
} outcome;

/* Run both for `steps` steps, comparing after every `every` steps. */
static outcome run_pair(int kind, int nx, int ny, int nz, const variant *v, bool track, int steps, int every)
{
    grit_scene *a = bed(kind, nx, ny, nz, v, true, track), *b = bed(kind, nx, ny, nz, v, false, track);
    outcome o = {.first_diff_step = -1};
    for (int st = 0; st < steps; st += every) {
        CHECK(grit_step(a, every) == GRIT_OK);
        CHECK(grit_step(b, every) == GRIT_OK);
        int cnt[GRIT_KUHN_STATUS_COUNT];
        if (grit_kuhn_status_counts(a, cnt) >= 0)
            for (int i = 0; i < GRIT_KUHN_STATUS_COUNT; i++) o.statuses[i] += cnt[i];
        if (o.first_diff_step < 0 && differences(a, b)) o.first_diff_step = st + every;
    }
    o.lanes4 = a->kuhn_lanes[0];
    o.lanes1 = a->kuhn_lanes[1];
    o.lanesu = a->kuhn_lanes[2];
    CHECK(b->kuhn_lanes[0] == 0 && b->kuhn_lanes[1] == 0 && b->kuhn_lanes[2] == 0); /* simd = false: scalar only */
    o.contacts = grit_contact_count(a);
    o.elast = grit_energy(a, GRIT_E_ELAST);
    grit_scene_destroy(a);
    grit_scene_destroy(b);
    return o;
}

static void report(const char *what, const variant *v, const outcome *o)
{
    const int *c = o->statuses;
    printf("    %s, %s: %d contacts; 4-wide %ld, scalar update %ld, scalar %ld; statuses elastic %d slip %d "
           "fresh %d+%d; first difference at step %d\n",
           what, v->name, o->contacts, o->lanes4, o->lanesu, o->lanes1, c[GRIT_KUHN_ELASTIC], c[GRIT_KUHN_SLIP],
           c[GRIT_KUHN_FRESH_ELASTIC], c[GRIT_KUHN_FRESH_SLIDING], o->first_diff_step);
}

/* A dense confined bed: nearly every contact is elastic and goes 4-wide. */
static void dense_bed(void)
{
    for (int t = 0; t < 2; t++)
        for (int i = 0; i < 2; i++) {
            const variant *v = i ? &CONVENTIONAL : &REFINED;
            outcome o = run_pair(DENSE, 7, 7, 8, v, t, 300, 20);
            report(t ? "dense, energy" : "dense", v, &o);
            CHECK(o.first_diff_step == -1);
            CHECK(o.contacts > 1000);
            CHECK(o.lanes4 > 0.8 * (o.lanes4 + o.lanes1 + o.lanesu)); /* what the kernel is for */
            int all = 0;
            for (int q = 0; q < GRIT_KUHN_STATUS_COUNT; q++) all += o.statuses[q];
            CHECK(o.statuses[GRIT_KUHN_ELASTIC] > 0.8 * all);
            if (t) CHECK(o.elast > 0);
        }
}

/* A flowing bed: sliding, separating and new contacts between 4-wide ones. */
static void flowing_bed(void)
{
    for (int t = 0; t < 2; t++)
        for (int i = 0; i < 2; i++) {
            const variant *v = i ? &CONVENTIONAL : &REFINED;
            outcome o = run_pair(FLOW, 8, 6, 6, v, t, 400, 20);
            report(t ? "flowing, energy" : "flowing", v, &o);
            CHECK(o.first_diff_step == -1);
            CHECK(o.lanes4 > 0.4 * (o.lanes4 + o.lanes1 + o.lanesu));
            /* the fallbacks are exercised: the update lane by lane (slip),
             * whole contacts (separation) */
            CHECK(o.lanesu > 0.02 * (o.lanes4 + o.lanes1 + o.lanesu));
            CHECK(o.lanes1 > 0);
            CHECK(o.statuses[GRIT_KUHN_SLIP] > 0.02 * o.statuses[GRIT_KUHN_ELASTIC]);
            CHECK(o.statuses[GRIT_KUHN_FRESH_ELASTIC] + o.statuses[GRIT_KUHN_FRESH_SLIDING] > 0);
        }
}

/* A sheared periodic cell: contacts with images of B (position and
 * velocity shifts added per lane). */
static void periodic_shear(void)
{
    for (int i = 0; i < 2; i++) {
        const variant *v = i ? &CONVENTIONAL : &REFINED;
        outcome o = run_pair(PERIODIC, 6, 6, 6, v, true, 300, 20);
        report("periodic", v, &o);
        CHECK(o.first_diff_step == -1);
        CHECK(o.contacts > 300);
        CHECK(o.lanes4 > 0.5 * (o.lanes4 + o.lanes1 + o.lanesu));
    }
}

/* Every combination of the switches (R1 fresh, R2 onset, R3 turn, R4a
 * projection, R4b twirl exact / first order / off) and the exact work, on a
 * small flowing bed with energy and contacts without tangential spring or
 * without friction. */
static void every_switch(void)
{
    int bad = 0, runs = 0;
    for (int m = 0; m < 16; m++)
        for (int tw = 0; tw < 3; tw++) {
            variant v = {"combination", m & 1, m & 2, m & 4, m & 8, tw, (m + tw) % 5 == 0, true, false};
            outcome o = run_pair(FLOW, 5, 4, 4, &v, true, 150, 50);
            runs++;
            if (o.first_diff_step >= 0 || o.lanes4 == 0) {
                printf("    fresh %d onset %d turn %d projection %d twirl %d work %d: differs at step %d, 4-wide %ld\n",
                       v.fresh, v.onset, v.turn, v.projection, v.twirl, v.work, o.first_diff_step, o.lanes4);
                bad++;
            }
        }
    printf("    %d combinations, %d differ\n", runs, bad);
    CHECK(bad == 0);
}

/* no_frict: no lane has a tangential force; the update goes lane by lane. */
static void frictionless(void)
{
    for (int i = 0; i < 2; i++) {
        variant v = i ? CONVENTIONAL : REFINED;
        v.no_frict = true;
        outcome o = run_pair(FLOW, 5, 4, 4, &v, true, 200, 20);
        report("no_frict", &v, &o);
        CHECK(o.first_diff_step == -1);
        CHECK(o.lanes4 == 0 && o.lanesu > 1000);
    }
}

int main(void)
{
    RUN(dense_bed);
    RUN(flowing_bed);
    RUN(periodic_shear);
    RUN(every_switch);
    RUN(frictionless);
    TEST_MAIN_END();
}
