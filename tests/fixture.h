/* grit tests: shorthand for building small scenes. Every helper aborts the
 * test program (exit 2) when the engine refuses the input, because the
 * scenes built here are meant to be valid; error paths are tested with the
 * API directly (test_api_errors.c). */
#ifndef GRIT_TEST_FIXTURE_H
#define GRIT_TEST_FIXTURE_H

#include "grit/grit.h"
#include "test.h"

static grit_scene *fx_scene(const grit_scene_def *d)
{
    grit_scene *s = grit_scene_create(d);
    if (!s) {
        fprintf(stderr, "grit_scene_create: %s\n", grit_create_error());
        exit(2);
    }
    return s;
}

/* Default scene with a fixed time step and energy tracking. */
static grit_scene *fx_scene_dt(double dt)
{
    grit_scene_def d = grit_default_scene_def();
    d.dt = dt;
    d.track_energy = true;
    return fx_scene(&d);
}

static int fx_must(grit_scene *s, int rc, const char *what)
{
    if (rc < 0) {
        fprintf(stderr, "%s: %s\n", what, grit_last_error(s));
        exit(2);
    }
    return rc;
}

/* A scene under gravity (-9.81 m/s^2 along z) with a fixed step and energy
 * tracking, and its one FrictMat (*mat): where the inlet tests pour. */
static grit_scene *fx_gravity_scene(double dt, double density, double young, double tan_phi, int *mat)
{
    grit_scene_def d = grit_default_scene_def();
    d.dt = dt;
    d.track_energy = true;
    d.gravity = (grit_vec3){0, 0, -9.81};
    grit_scene *s = fx_scene(&d);
    grit_frictmat_def m = grit_default_frictmat_def();
    m.density = density;
    m.young = young;
    m.tan_phi = tan_phi;
    *mat = fx_must(s, grit_add_frictmat(s, &m), "FrictMat");
    return s;
}

/* Save `a` to `path` and load it back (the file removed): the scene a
 * restarted run continues from. */
static grit_scene *fx_reload(grit_scene *a, const char *path)
{
    fx_must(a, grit_save(a, path), "save");
    grit_scene *b = grit_scene_load(path);
    if (!b) {
        fprintf(stderr, "load %s: %s\n", path, grit_create_error());
        exit(2);
    }
    remove(path);
    return b;
}

/* Run n times `steps` steps, watching the energy balance: the largest
 * relative error and the most contacts seen after each run. */
static void fx_run_balance(grit_scene *s, int n, int steps, double *worst, int *most)
{
    *worst = 0, *most = 0;
    for (int k = 0; k < n; k++) {
        CHECK(grit_step(s, steps) == GRIT_OK);
        *worst = fmax(*worst, fabs(grit_energy_rel_error(s)));
        *most = grit_contact_count(s) > *most ? grit_contact_count(s) : *most;
    }
}

static int fx_mat(grit_scene *s, double young, double kt_div_kn, double tan_phi)
{
    grit_frictmat_def m = grit_default_frictmat_def();
    m.young = young;
    m.kt_div_kn = kt_div_kn;
    m.tan_phi = tan_phi;
    return fx_must(s, grit_add_frictmat(s, &m), "add material");
}

static int fx_sphere(grit_scene *s, int mat, grit_vec3 pos, double r, grit_vec3 vel)
{
    grit_sphere_def d = grit_default_sphere_def();
    d.pos = pos;
    d.radius = r;
    d.vel = vel;
    d.material = mat;
    return fx_must(s, grit_add_sphere(s, &d), "add sphere");
}

static int fx_wall(grit_scene *s, int mat, int axis, double coord, int sense)
{
    grit_wall_def w = grit_default_wall_def();
    w.axis = axis;
    w.coord = coord;
    w.sense = sense;
    w.material = mat;
    return fx_must(s, grit_add_wall(s, &w), "add wall");
}

static int fx_facet(grit_scene *s, int mat, grit_vec3 a, grit_vec3 b, grit_vec3 c, double half_thick)
{
    grit_facet_def f = grit_default_facet_def();
    f.v[0] = a;
    f.v[1] = b;
    f.v[2] = c;
    f.half_thick = half_thick;
    f.material = mat;
    return fx_must(s, grit_add_facet(s, &f), "add facet");
}

/* The single real contact of a scene (fails the test if there is not exactly one). */
static grit_contact_info fx_only_contact(grit_scene *s)
{
    grit_contact_info c;
    memset(&c, 0, sizeof c);
    int n = grit_contact_count(s);
    CHECK(n == 1);
    if (n >= 1) grit_contact_get(s, 0, &c);
    return c;
}

/* A concrete of 30 GPa, 3 MPa tensile strength, cracking at a strain of
 * 1e-4 and 30 times as ductile after. */
static grit_concretemat_def fx_concrete(void)
{
    grit_concretemat_def m = grit_default_concretemat_def();
    m.young = 30e9;
    m.kt_div_kn = 0.2;
    m.sigma_t = 3e6;
    m.tan_phi = 0.8;
    m.eps_crack_onset = 1e-4;
    m.rel_ductility = 30;
    return m;
}

/* Deterministic pseudo-random numbers (xorshift64*), uniform in [0, 1).
 * Draw them one per statement, never as several arguments of one call
 * (v3(fx_rand(&r), fx_rand(&r), ...)): C leaves the order of a call's
 * arguments open, GCC's builds evaluate the last first and Clang's the
 * first, so such a scene was another one with Clang. The tests that did so
 * draw in GCC's order, the last argument first, so their scenes stayed. */
static double fx_rand(unsigned long long *state)
{
    unsigned long long x = *state;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    *state = x;
    return (double)((x * 2685821657736338717ULL) >> 11) * (1.0 / 9007199254740992.0);
}

/* A pile dropped into a box: four walls and a floor, a plate (facet) just
 * above the floor, n particles of two materials (every third of the second)
 * falling with random velocities and spins: contacts of several kinds,
 * rebuilds and re-sorts. The random numbers start from the same seed every
 * time, so two calls make the same scene. */
typedef struct fx_pile_def {
    int law;         /* of the frictional materials */
    int n;           /* particles, in layers of per_row x per_row */
    int per_row;
    double pitch;    /* between the particles' centres at the start */
    double box;      /* the box's side */
    double speed;    /* the initial velocity's spread per axis */
    bool hertz;      /* Hertz materials (the first with rolling resistance) instead */
    bool shapes;     /* every second particle a capsule or an ellipsoid */
} fx_pile_def;

static grit_scene *fx_pile(const fx_pile_def *p)
{
    unsigned long long rng = 88172645463325252ull;
    grit_scene_def d = grit_default_scene_def();
    d.gravity = v3(0, 0, -9.81);
    d.track_energy = true;
    d.sort_period = 25;
    d.damping = 0.3;
    grit_scene *s = fx_scene(&d);
    grit_linel6_def l6 = grit_default_linel6_def();
    l6.char_len = 1e5; /* LinEl6: k/char_len about the rotations must stay stable at this dt */
    fx_must(s, grit_set_law_def(s, GRIT_LAW_LINEL6, &l6, sizeof l6), "LinEl6");
    int m0, m1;
    if (p->hertz) {
        grit_hertzmat_def h = grit_default_hertzmat_def();
        h.young = 1e8;
        h.density = 2600;
        h.rolling = 1; /* EPSD: the rolling spring's torques too */
        h.mu_roll = 0.1;
        m0 = fx_must(s, grit_add_hertzmat(s, &h), "add material");
        h.tan_phi = 0.3;
        h.rolling = 0;
        m1 = fx_must(s, grit_add_hertzmat(s, &h), "add material");
    } else {
        grit_frictmat_def m = grit_default_frictmat_def();
        m.law = p->law;
        m.young = 1e7;
        m.density = 2600;
        m.tan_phi = 0.5;
        m0 = fx_must(s, grit_add_frictmat(s, &m), "add material");
        m.tan_phi = 0.3;
        m1 = fx_must(s, grit_add_frictmat(s, &m), "add material");
        grit_pair_def pd = grit_default_pair_def();
        pd.cn = 0.5;
        pd.tan_phi = 0.4;
        fx_must(s, grit_set_pair(s, m0, m1, &pd), "pair");
    }
    const double L = p->box;
    for (int k = 0; k < 5; k++) fx_wall(s, m0, k < 4 ? k / 2 : 2, k < 4 ? (k % 2) * L : 0.0, 0);
    fx_facet(s, m1, v3(0, 0, 0.001), v3(L, 0, 0.001), v3(0, L, 0.001), grit_default_facet_def().half_thick);
    const int row = p->per_row;
    for (int i = 0; i < p->n; i++) {
        const grit_vec3 x = v3(0.013 + p->pitch * (i % row), 0.013 + p->pitch * ((i / row) % row),
                               0.013 + p->pitch * (i / (row * row)));
        const double r = 0.008 + 0.004 * fx_rand(&rng);
        grit_vec3 v;
        v.x = p->speed * (fx_rand(&rng) - 0.5);
        v.y = p->speed * (fx_rand(&rng) - 0.5);
        v.z = -p->speed * fx_rand(&rng);
        const grit_vec3 w = v3(10 * fx_rand(&rng), 0, 0);
        const int mat = i % 3 ? m0 : m1;
        if (p->shapes && i % 4 == 1) {
            grit_capsule_def c = grit_default_capsule_def();
            c.pos = x, c.vel = v, c.angvel = w, c.material = mat;
            c.radius = 0.6 * r;
            c.shaft = 0.7 * r;
            const double q1 = fx_rand(&rng), q3 = fx_rand(&rng);
            c.ori = grit_q_normalized((grit_quat){1, q1, 0, q3});
            fx_must(s, grit_add_capsule(s, &c), "add capsule");
        } else if (p->shapes && i % 4 == 3) {
            grit_ellipsoid_def e = grit_default_ellipsoid_def();
            e.pos = x, e.vel = v, e.angvel = w, e.material = mat;
            e.semi_axes = v3(r, 0.8 * r, 0.6 * r);
            const double q1 = fx_rand(&rng), q2 = fx_rand(&rng);
            e.ori = grit_q_normalized((grit_quat){1, q1, q2, 0});
            fx_must(s, grit_add_ellipsoid(s, &e), "add ellipsoid");
        } else {
            grit_sphere_def sd = grit_default_sphere_def();
            sd.pos = x, sd.vel = v, sd.angvel = w, sd.material = mat;
            sd.radius = r;
            fx_must(s, grit_add_sphere(s, &sd), "add sphere");
        }
    }
    return s;
}


/* A gas of n x n x n spheres (radius about size / n) in a periodic cell
 * sheared by 0.15 in xy, with random velocities: contacts across the
 * cell's faces once it is compressed. */
static grit_scene *fx_periodic_gas(int law, int n, double size)
{
    unsigned long long rng = 88172645463325252ull;
    grit_scene_def d = grit_default_scene_def();
    d.dt_safety = 0.3;
    d.damping = 0.3;
    d.track_energy = true;
    d.sort_period = 40;
    grit_scene *s = fx_scene(&d);
    grit_frictmat_def m = grit_default_frictmat_def();
    m.law = law;
    m.young = 1e6;
    m.kt_div_kn = 0.3;
    m.tan_phi = 0.5;
    const int mat = fx_must(s, grit_add_frictmat(s, &m), "add material");
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            for (int k = 0; k < n; k++) {
                grit_sphere_def sd = grit_default_sphere_def();
                const double y = (j + 0.3 + 0.4 * fx_rand(&rng)) / n;
                sd.pos.x = (i + 0.3 + 0.4 * fx_rand(&rng)) / n + 0.15 * y;
                sd.pos.y = y;
                sd.pos.z = (k + 0.3 + 0.4 * fx_rand(&rng)) / n;
                sd.vel.x = 0.1 * (2 * fx_rand(&rng) - 1);
                sd.vel.y = 0.1 * (2 * fx_rand(&rng) - 1);
                sd.vel.z = 0.1 * (2 * fx_rand(&rng) - 1);
                sd.radius = size / n * (0.8 + 0.4 * fx_rand(&rng));
                sd.material = mat;
                fx_must(s, grit_add_sphere(s, &sd), "add sphere");
            }
    static const double H[3][3] = {{1.0, 0.15, 0.0}, {0.0, 1.0, 0.0}, {0.0, 0.0, 1.0}};
    fx_must(s, grit_cell_set(s, H), "cell");
    return s;
}

/* A run continued across a restart: `a` reloaded (fx_reload), then both
 * stepped `steps` steps. Returns the loaded scene. */
static grit_scene *fx_restart_twin(grit_scene *a, const char *path, long steps)
{
    grit_scene *b = fx_reload(a, path);
    CHECK(grit_step(a, steps) == GRIT_OK && grit_step(b, steps) == GRIT_OK);
    return b;
}

/* How many of the ids 0 .. n-1 differ between two scenes in any bit of
 * their position or velocity. */
static int fx_pos_vel_diff(const grit_scene *a, const grit_scene *b, int n)
{
    int diff = 0;
    for (int id = 0; id < n; id++) {
        grit_vec3 xa, xb, va, vb;
        grit_get_pos(a, id, &xa), grit_get_pos(b, id, &xb), grit_get_vel(a, id, &va), grit_get_vel(b, id, &vb);
        diff += memcmp(&xa, &xb, sizeof xa) != 0 || memcmp(&va, &vb, sizeof va) != 0;
    }
    return diff;
}

/* How many energy entries differ between two scenes in any bit. */
static int fx_energy_diff(const grit_scene *a, const grit_scene *b)
{
    int diff = 0;
    for (int e = 0; e < GRIT_E_COUNT; e++) diff += grit_energy(a, e) != grit_energy(b, e);
    return diff;
}

#ifdef GRIT_SCENE_IMPL_H
/* Everything a later step reads, compared bit for bit (a test that
 * includes core/scene_impl.h first gets it): the number of parts that
 * differ, each named on stderr after `what`. */
static int fx_state_diff(const grit_scene *a, const grit_scene *b, const char *what)
{
    if (a->step != b->step || a->b.n != b->b.n || a->c.n != b->c.n) {
        fprintf(stderr, "%s: step %ld/%ld, %d/%d particles, %d/%d contacts\n", what, a->step, b->step, a->b.n,
                b->b.n, a->c.n, b->c.n);
        return 1;
    }
    const size_t n = (size_t)a->b.n, nc = (size_t)a->c.n;
    int real = 0;
    for (size_t k = 0; k < nc; k++)
        if (a->c.pair[k].flags & CF_REAL)
            real += memcmp(&a->c.phys[k], &b->c.phys[k], sizeof a->c.phys[k]) != 0 ||
                    memcmp(&a->c.geom[k], &b->c.geom[k], sizeof a->c.geom[k]) != 0 ||
                    memcmp(&a->c.cold[k], &b->c.cold[k], sizeof a->c.cold[k]) != 0;
    const struct {
        const char *name;
        bool differs;
    } part[] = {
        {"positions", memcmp(a->b.pr, b->b.pr, n * sizeof *a->b.pr) != 0},
        {"velocities", memcmp(a->b.vw, b->b.vw, n * sizeof *a->b.vw) != 0},
        {"forces", memcmp(a->b.ft, b->b.ft, n * sizeof *a->b.ft) != 0},
        {"orientations", memcmp(a->b.ori, b->b.ori, n * sizeof *a->b.ori) != 0},
        {"ids", memcmp(a->b.id, b->b.id, n * sizeof *a->b.id) != 0},
        {"reference positions", memcmp(a->b.refpos, b->b.refpos, n * sizeof *a->b.refpos) != 0},
        {"contact pairs", memcmp(a->c.pair, b->c.pair, nc * sizeof *a->c.pair) != 0},
        {"real contacts' state", real != 0},
        {"energy", memcmp(a->energy, b->energy, sizeof a->energy) != 0},
        {"time and dt", a->time != b->time || a->dt != b->dt},
    };
    int bad = 0;
    for (size_t i = 0; i < sizeof part / sizeof part[0]; i++)
        if (part[i].differs) {
            fprintf(stderr, "%s: the %s differ\n", what, part[i].name);
            bad++;
        }
    return bad;
}
#endif

#endif
