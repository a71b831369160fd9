/* Every error path of the public API (include/grit/scene.h): the call fails
 * with a negative status, a one-line message that names the parameter and the
 * value, and the scene is left exactly as it was. */
#include "fixture.h"

/* ---- what "unchanged" means: everything observable through the API ------ */
#define SNAP_MAX 16
typedef struct {
    int n_particles, n_mats, n_contacts;
    long step;
    double time, dt;
    grit_vec3 pos[SNAP_MAX], vel[SNAP_MAX], w[SNAP_MAX], f[SNAP_MAX];
    grit_scene_def def;
    double energy[GRIT_E_COUNT];
} snapshot;

static snapshot snap(const grit_scene *s)
{
    snapshot a;
    memset(&a, 0, sizeof a);
    a.n_particles = grit_particle_count(s);
    a.n_mats = grit_material_count(s);
    a.n_contacts = grit_contact_count(s);
    a.step = grit_step_count(s);
    a.time = grit_time(s);
    a.dt = grit_dt(s);
    a.def = *grit_scene_get_def(s);
    for (int i = 0; i < a.n_particles && i < SNAP_MAX; i++) {
        grit_get_pos(s, i, &a.pos[i]);
        grit_get_vel(s, i, &a.vel[i]);
        grit_get_angvel(s, i, &a.w[i]);
        grit_get_force(s, i, &a.f[i]);
    }
    for (int k = 0; k < GRIT_E_COUNT; k++) a.energy[k] = grit_energy(s, k);
    return a;
}

static bool same(const snapshot *a, const snapshot *b)
{
    /* memcmp: NaN == NaN bitwise (dt may be NaN before the first step) */
    return memcmp(a, b, sizeof *a) == 0;
}

/* The call failed with `code`, its message contains both words, nothing changed. */
#define CHECK_FAILS(s, call, code, word1, word2)                                                              \
    do {                                                                                                      \
        snapshot before_ = snap(s);                                                                           \
        int rc_ = (call);                                                                                     \
        CHECK(rc_ == (code));                                                                                 \
        const char *msg_ = grit_last_error(s);                                                                \
        if (!strstr(msg_, word1) || !strstr(msg_, word2))                                                     \
            fprintf(stderr, "%s:%d: message '%s' lacks '%s' or '%s'\n", __FILE__, __LINE__, msg_, word1, word2); \
        CHECK(strstr(msg_, word1) != NULL);                                                                   \
        CHECK(strstr(msg_, word2) != NULL);                                                                   \
        CHECK(strchr(msg_, '\n') == NULL);                                                                    \
        snapshot after_ = snap(s);                                                                            \
        CHECK(same(&before_, &after_));                                                                       \
    } while (0)

/* A small live scene: two spheres in contact on a wall, a few steps done. */
static grit_scene *live_scene(void)
{
    grit_scene *s = fx_scene_dt(1e-5);
    int m = fx_mat(s, 1e7, 0.2, 0.5);
    fx_wall(s, m, 2, 0.0, 0);
    fx_sphere(s, m, v3(0, 0, 0.099), 0.1, v3(0.1, 0, 0));
    fx_sphere(s, m, v3(0.19, 0, 0.1), 0.1, v3_zero());
    CHECK(grit_step(s, 10) == GRIT_OK);
    CHECK(grit_contact_count(s) == 2);
    return s;
}

/* ---- grit_scene_def ------------------------------------------------------ */
static void create_fails(grit_scene_def d, const char *name, const char *value)
{
    CHECK(grit_scene_create(&d) == NULL);
    const char *e = grit_create_error();
    if (!strstr(e, name) || !strstr(e, value)) fprintf(stderr, "  create error '%s' (%s = %s)\n", e, name, value);
    CHECK(strstr(e, name) != NULL);
    CHECK(strstr(e, value) != NULL);
}

static void scene_def_out_of_range(void)
{
    const grit_scene_def d0 = grit_default_scene_def();
    grit_scene_def d;
#define BAD(field, val, text)      \
    d = d0;                        \
    d.field = (val);               \
    create_fails(d, #field, text);
    BAD(dt, 0.0, "= 0");
    BAD(dt, -1e-5, "-1e-05");
    BAD(dt, INFINITY, "inf");
    BAD(dt_safety, 0.0, "= 0");
    BAD(dt_safety, 1.5, "1.5");
    BAD(dt_safety, NAN, "nan");
    BAD(gravity, v3(0, 0, NAN), "nan");
    BAD(gravity, v3(INFINITY, 0, 0), "inf");
    BAD(damping, 1.0, "= 1");
    BAD(damping, -0.1, "-0.1");
    BAD(verlet_dist, -2.0, "-2");
    BAD(verlet_dist, INFINITY, "inf"); /* (nan is the automatic skin) */
    BAD(trsf_renorm, -1, "-1");
    BAD(sort_period, -5, "-5");
    BAD(friction_rule, 4, "= 4");
    BAD(friction_rule, -1, "-1");
    BAD(interaction_radius, 0.5, "0.5");
    BAD(interaction_radius, NAN, "nan");
#undef BAD
    /* the defaults themselves are valid */
    grit_scene *s = grit_scene_create(&d0);
    CHECK(s != NULL);
    CHECK(strcmp(grit_create_error(), "") == 0);

    /* grit_scene_set_def validates the same way and keeps the old definition */
    grit_scene_destroy(s);
    s = live_scene();
    d = *grit_scene_get_def(s);
    d.damping = 2;
    CHECK_FAILS(s, grit_scene_set_def(s, &d), GRIT_EINVAL, "damping", "2");
    d = *grit_scene_get_def(s);
    d.dt_safety = -1;
    CHECK_FAILS(s, grit_scene_set_def(s, &d), GRIT_EINVAL, "dt_safety", "-1");
    grit_scene_destroy(s);
}

/* ---- law parameters (grit/law.h) ------------------------------------------ */
static void law_def_out_of_range(void)
{
    grit_scene *s = live_scene();
    grit_idealelpl_def ie = grit_default_idealelpl_def();
    ie.plast_book = 2;
    CHECK_FAILS(s, grit_set_law_def(s, GRIT_LAW_IDEALELPL, &ie, sizeof ie), GRIT_EINVAL, "plast_book", "2");
    ie = grit_default_idealelpl_def();
    CHECK_FAILS(s, grit_set_law_def(s, GRIT_LAW_KUHN, &ie, sizeof ie), GRIT_EINVAL, "kuhn", "bytes");
    CHECK_FAILS(s, grit_set_law_def(s, GRIT_LAW_COUNT, &ie, sizeof ie), GRIT_EINVAL, "law", "out of range");
    grit_kuhn_def ku = grit_default_kuhn_def();
    ku.kuhn_twirl = 3;
    CHECK_FAILS(s, grit_set_law_def(s, GRIT_LAW_KUHN, &ku, sizeof ku), GRIT_EINVAL, "kuhn_twirl", "3");
    grit_linel6_def l6 = grit_default_linel6_def();
    l6.char_len = NAN;
    CHECK_FAILS(s, grit_set_law_def(s, GRIT_LAW_LINEL6, &l6, sizeof l6), GRIT_EINVAL, "char_len", "nan");
    /* char_len = -1 (the default) is fine until a contact uses LinEl6: then the
     * step is refused and nothing moves */
    grit_frictmat_def m = grit_default_frictmat_def();
    m.law = GRIT_LAW_LINEL6;
    m.young = 1e7;
    int ml = grit_add_frictmat(s, &m);
    CHECK(ml == 1);
    CHECK(grit_step(s, 1) == GRIT_OK); /* no particle of it yet */
    fx_sphere(s, ml, v3(3, 0, 0.099), 0.1, v3_zero());
    CHECK_FAILS(s, grit_step(s, 1), GRIT_EINVAL, "char_len", "linel6");
    l6.char_len = 0.1;
    CHECK(grit_set_law_def(s, GRIT_LAW_LINEL6, &l6, sizeof l6) == GRIT_OK);
    CHECK(grit_step(s, 1) == GRIT_OK);
    grit_linel6_def back;
    CHECK(grit_get_law_def(s, GRIT_LAW_LINEL6, &back, sizeof back) == GRIT_OK && back.char_len == 0.1);
    CHECK(grit_pair_law(s, 0, ml) == GRIT_LAW_IDEALELPL); /* the first of the two laws */
    CHECK(grit_pair_law(s, ml, ml) == GRIT_LAW_LINEL6);
    grit_scene_destroy(s);
}

/* ---- grit_frictmat_def, grit_pair_def ----------------------------------- */
static void material_out_of_range(void)
{
    grit_scene *s = live_scene();
    const grit_frictmat_def m0 = grit_default_frictmat_def();
    grit_frictmat_def m;
#define BADMAT(field, val, text) \
    m = m0;                      \
    m.field = (val);             \
    CHECK_FAILS(s, grit_add_frictmat(s, &m), GRIT_EINVAL, "'" #field "'", text);
    BADMAT(density, 0.0, "= 0");
    BADMAT(density, -1000.0, "-1000");
    BADMAT(density, NAN, "nan");
    BADMAT(density, INFINITY, "inf");
    BADMAT(young, 0.0, "= 0");
    BADMAT(young, INFINITY, "inf");
    BADMAT(kt_div_kn, -0.2, "-0.2");
    BADMAT(kt_div_kn, NAN, "nan");
    BADMAT(tan_phi, -0.5, "-0.5");
    BADMAT(tan_phi, NAN, "nan");
    BADMAT(law, 3, "= 3");
    BADMAT(law, -1, "-1");
#undef BADMAT
    CHECK_FAILS(s, grit_add_material(s, GRIT_MAT_COUNT, &m0), GRIT_EINVAL, "material type", "out of range");
    CHECK_FAILS(s, grit_add_material(s, GRIT_MAT_FRICTMAT, NULL), GRIT_EINVAL, "FrictMat", "definition");
    CHECK(grit_material_count(s) == 1);

    const grit_pair_def p0 = grit_default_pair_def();
    grit_pair_def p;
#define BADPAIR(field, val, text) \
    p = p0;                       \
    p.field = (val);              \
    CHECK_FAILS(s, grit_set_pair(s, 0, 0, &p), GRIT_EINVAL, "'" #field "'", text);
    BADPAIR(kn, 0.0, "= 0");
    BADPAIR(kn, -1e5, "-100000");
    BADPAIR(kn, INFINITY, "inf");
    BADPAIR(kt, -1.0, "-1");
    BADPAIR(tan_phi, -0.1, "-0.1");
    BADPAIR(cn, -3.0, "-3");
    BADPAIR(cn, NAN, "nan");
    BADPAIR(law, 4, "= 4");
#undef BADPAIR
    p = p0;
    CHECK_FAILS(s, grit_set_pair(s, 0, 1, &p), GRIT_EINVAL, "material index", "(0, 1)");
    CHECK_FAILS(s, grit_set_pair(s, -1, 0, &p), GRIT_EINVAL, "material index", "(-1, 0)");
    /* the failed overrides did not reach the pair table: a new contact still
     * gets the stiffness from the materials */
    CHECK(grit_step(s, 1) == GRIT_OK);
    int m1 = fx_mat(s, 1e7, 0.2, 0.5);
    int id = fx_sphere(s, m1, v3(5, 0, 0.099), 0.1, v3_zero());
    CHECK(grit_step(s, 1) == GRIT_OK);
    grit_contact_info c;
    int k = grit_contact_find(s, 0, id);
    CHECK(k >= 0);
    grit_contact_get(s, k, &c);
    CHECK_REL(c.kn, 1e7 * M_PI * 0.1 / 2, 1e-14);
    CHECK(c.cn == 0);
    grit_scene_destroy(s);
}

/* ---- particles ----------------------------------------------------------- */
static void bad_particles(void)
{
    grit_scene *s = live_scene();
    grit_sphere_def sd = grit_default_sphere_def();
    sd.pos = v3(3, 0, 0);
    CHECK_FAILS(s, grit_add_sphere(s, &sd), GRIT_EINVAL, "radius", "nan"); /* the default radius is NaN */
    const double radii[] = {0.0, -0.1, INFINITY, -INFINITY};
    const char *texts[] = {"radius = 0", "-0.1", "inf", "-inf"};
    for (int k = 0; k < 4; k++) {
        sd.radius = radii[k];
        CHECK_FAILS(s, grit_add_sphere(s, &sd), GRIT_EINVAL, "radius", texts[k]);
    }
    sd.radius = 0.1;
    sd.material = 1;
    CHECK_FAILS(s, grit_add_sphere(s, &sd), GRIT_EINVAL, "material 1", "1 material defined");
    sd.material = -1;
    CHECK_FAILS(s, grit_add_sphere(s, &sd), GRIT_EINVAL, "material -1", "does not exist");
    sd.material = 0;
    sd.pos = v3(NAN, 0, 0);
    CHECK_FAILS(s, grit_add_sphere(s, &sd), GRIT_EINVAL, "position", "nan");
    sd.pos = v3(3, 0, 0);
    sd.vel = v3(0, INFINITY, 0);
    CHECK_FAILS(s, grit_add_sphere(s, &sd), GRIT_EINVAL, "velocity", "finite");
    sd.vel = v3_zero();
    sd.angvel = v3(0, 0, NAN);
    CHECK_FAILS(s, grit_add_sphere(s, &sd), GRIT_EINVAL, "angular velocity", "finite");
    sd.angvel = v3_zero();
    sd.blocked = 64;
    CHECK_FAILS(s, grit_add_sphere(s, &sd), GRIT_EINVAL, "blocked", "64");

    grit_wall_def wd = grit_default_wall_def();
    wd.axis = 3;
    CHECK_FAILS(s, grit_add_wall(s, &wd), GRIT_EINVAL, "axis", "3");
    wd.axis = -1;
    CHECK_FAILS(s, grit_add_wall(s, &wd), GRIT_EINVAL, "axis", "-1");
    wd.axis = 1;
    wd.sense = 2;
    CHECK_FAILS(s, grit_add_wall(s, &wd), GRIT_EINVAL, "sense", "2");
    wd.sense = -2;
    CHECK_FAILS(s, grit_add_wall(s, &wd), GRIT_EINVAL, "sense", "-2");
    wd.sense = 0;
    wd.coord = NAN;
    CHECK_FAILS(s, grit_add_wall(s, &wd), GRIT_EINVAL, "coord", "nan");
    wd.coord = 1;
    wd.vel = v3(NAN, 0, 0);
    CHECK_FAILS(s, grit_add_wall(s, &wd), GRIT_EINVAL, "wall", "velocity");
    wd.vel = v3_zero();
    wd.material = 7;
    CHECK_FAILS(s, grit_add_wall(s, &wd), GRIT_EINVAL, "material 7", "does not exist");

    grit_facet_def fd = grit_default_facet_def();
    fd.v[2] = v3(2, 0, 0); /* collinear */
    CHECK_FAILS(s, grit_add_facet(s, &fd), GRIT_EINVAL, "collinear", "(2,0,0)");
    fd.v[1] = fd.v[2] = fd.v[0]; /* a point */
    CHECK_FAILS(s, grit_add_facet(s, &fd), GRIT_EINVAL, "facet", "zero area");
    fd.v[1] = v3(1, 0, 0);
    fd.v[2] = v3(1, 1e-14, 0); /* a sliver far below round-off of the edge lengths */
    CHECK_FAILS(s, grit_add_facet(s, &fd), GRIT_EINVAL, "facet", "zero area");
    fd = grit_default_facet_def();
    fd.v[1] = v3(1, NAN, 0);
    CHECK_FAILS(s, grit_add_facet(s, &fd), GRIT_EINVAL, "vertex 1", "nan");
    fd = grit_default_facet_def();
    fd.half_thick = -0.01;
    CHECK_FAILS(s, grit_add_facet(s, &fd), GRIT_EINVAL, "half_thick", "-0.01");
    fd.half_thick = INFINITY;
    CHECK_FAILS(s, grit_add_facet(s, &fd), GRIT_EINVAL, "half_thick", "inf");
    fd.half_thick = NAN;
    CHECK_FAILS(s, grit_add_facet(s, &fd), GRIT_EINVAL, "half_thick", "nan");
    fd.half_thick = 0;
    fd.vel = v3(0, 0, INFINITY);
    CHECK_FAILS(s, grit_add_facet(s, &fd), GRIT_EINVAL, "facet", "velocity");
    fd.vel = v3_zero();
    fd.material = 1;
    CHECK_FAILS(s, grit_add_facet(s, &fd), GRIT_EINVAL, "material 1", "does not exist");
    /* a valid facet is accepted after all that */
    fd.material = 0;
    CHECK(grit_add_facet(s, &fd) == 3);
    grit_scene_destroy(s);
}

/* ---- state access -------------------------------------------------------- */
static void bad_ids_and_values(void)
{
    grit_scene *s = live_scene();
    grit_vec3 v;
    double x;
    const int bad_ids[] = {-1, 3, 1 << 30};
    for (int k = 0; k < 3; k++) {
        int id = bad_ids[k];
        char idtext[32];
        snprintf(idtext, sizeof idtext, "id %d", id);
        CHECK_FAILS(s, grit_get_pos(s, id, &v), GRIT_EINVAL, idtext, "does not exist");
        CHECK_FAILS(s, grit_get_vel(s, id, &v), GRIT_EINVAL, idtext, "does not exist");
        CHECK_FAILS(s, grit_get_angvel(s, id, &v), GRIT_EINVAL, idtext, "does not exist");
        CHECK_FAILS(s, grit_get_force(s, id, &v), GRIT_EINVAL, idtext, "does not exist");
        CHECK_FAILS(s, grit_get_torque(s, id, &v), GRIT_EINVAL, idtext, "does not exist");
        grit_quat q;
        CHECK_FAILS(s, grit_get_ori(s, id, &q), GRIT_EINVAL, idtext, "does not exist");
        CHECK_FAILS(s, grit_get_mass(s, id, &x, NULL), GRIT_EINVAL, idtext, "does not exist");
        CHECK_FAILS(s, grit_get_radius(s, id, &x), GRIT_EINVAL, idtext, "does not exist");
        CHECK_FAILS(s, grit_get_shape(s, id), GRIT_EINVAL, idtext, "does not exist");
        CHECK_FAILS(s, grit_set_vel(s, id, v3_zero()), GRIT_EINVAL, idtext, "does not exist");
        CHECK_FAILS(s, grit_set_angvel(s, id, v3_zero()), GRIT_EINVAL, idtext, "does not exist");
        CHECK_FAILS(s, grit_set_pos(s, id, v3_zero()), GRIT_EINVAL, idtext, "does not exist");
        CHECK_FAILS(s, grit_set_blocked(s, id, 0), GRIT_EINVAL, idtext, "does not exist");
        CHECK_FAILS(s, grit_impose_vel(s, id, v3_zero(), 1), GRIT_EINVAL, idtext, "does not exist");
    }
    CHECK_FAILS(s, grit_set_vel(s, 1, v3(NAN, 0, 0)), GRIT_EINVAL, "particle 1", "velocity");
    CHECK_FAILS(s, grit_set_angvel(s, 1, v3(0, INFINITY, 0)), GRIT_EINVAL, "particle 1", "angular velocity");
    CHECK_FAILS(s, grit_set_pos(s, 2, v3(0, 0, -INFINITY)), GRIT_EINVAL, "particle 2", "position");
    CHECK_FAILS(s, grit_set_blocked(s, 1, 128), GRIT_EINVAL, "particle 1", "128");
    CHECK_FAILS(s, grit_impose_vel(s, 1, v3(NAN, 0, 0), 1), GRIT_EINVAL, "particle 1", "imposed velocity");
    CHECK_FAILS(s, grit_impose_vel(s, 1, v3_zero(), 8), GRIT_EINVAL, "particle 1", "mask 8");
    grit_contact_info c;
    CHECK_FAILS(s, grit_contact_get(s, 2, &c), GRIT_EINVAL, "contact 2", "2 real contacts");
    CHECK_FAILS(s, grit_contact_get(s, -1, &c), GRIT_EINVAL, "contact -1", "does not exist");
    CHECK(grit_contact_find(s, 1, 99) == -1);
    CHECK(grit_contact_find(s, -5, 1) == -1);
    CHECK(isnan(grit_energy(s, GRIT_E_COUNT)));
    CHECK(isnan(grit_energy(s, -1)));
    CHECK(grit_energy_name(GRIT_E_COUNT) == NULL);
    CHECK(strcmp(grit_energy_name(GRIT_E_PLAST), "plast") == 0);
    grit_scene_destroy(s);
}

/* ---- stepping -------------------------------------------------------------- */
static void step_errors(void)
{
    grit_scene *s = live_scene();
    CHECK_FAILS(s, grit_step(s, -1), GRIT_EINVAL, "number of steps", "-1");
    CHECK(grit_step(s, 0) == GRIT_OK);
    grit_scene_destroy(s);

    /* a fixed dt above the critical one: refused before the first step */
    grit_scene_def d = grit_default_scene_def();
    d.dt = 2e-3;
    s = fx_scene(&d);
    int m = fx_mat(s, 1e7, 0.2, 0.5);
    fx_sphere(s, m, v3(0, 0, 0), 0.1, v3(1, 0, 0));
    CHECK_FAILS(s, grit_step(s, 5), GRIT_EINVAL, "'dt' = 0.002", "critical time step 0.001");
    CHECK(grit_step_count(s) == 0);
    grit_scene_destroy(s);

    /* ... after a change of the parameter between steps */
    s = live_scene();
    d = *grit_scene_get_def(s);
    d.dt = 0.5;
    CHECK(grit_scene_set_def(s, &d) == GRIT_OK); /* in range; too large only for these particles */
    CHECK_FAILS(s, grit_step(s, 3), GRIT_EINVAL, "'dt' = 0.5", "critical time step 0.001");
    d.dt = 1e-3; /* exactly critical is allowed */
    CHECK(grit_scene_set_def(s, &d) == GRIT_OK);
    CHECK(grit_step(s, 1) == GRIT_OK);
    /* ... after adding a particle that lowers the critical step */
    fx_sphere(s, 0, v3(2, 0, 0), 0.05, v3_zero());
    CHECK_FAILS(s, grit_step(s, 1), GRIT_EINVAL, "'dt' = 0.001", "critical time step 0.0005");
    /* ... after a stiff pair override: sqrt(2 m / kn) */
    d.dt = 1e-4;
    CHECK(grit_scene_set_def(s, &d) == GRIT_OK);
    CHECK(grit_step(s, 1) == GRIT_OK);
    grit_pair_def p = grit_default_pair_def();
    p.kn = 1e12; /* m = 0.52 kg (r 0.05): sqrt(3 m / 8 kn) = 4.4e-7 s */
    CHECK(grit_set_pair(s, 0, 0, &p) == GRIT_OK);
    double m_small;
    grit_get_mass(s, 3, &m_small, NULL);
    char crit[64];
    snprintf(crit, sizeof crit, "critical time step %g", sqrt(3 * m_small / (8 * 1e12)));
    CHECK_FAILS(s, grit_step(s, 1), GRIT_EINVAL, "'dt' = 0.0001", crit);
    grit_scene_destroy(s);

    /* an automatic dt follows the critical step when a smaller particle comes */
    s = fx_scene(NULL);
    m = fx_mat(s, 1e7, 0.2, 0.5);
    fx_sphere(s, m, v3(0, 0, 0), 0.1, v3_zero());
    CHECK(grit_step(s, 2) == GRIT_OK);
    CHECK_REL(grit_dt(s), 9e-4, 1e-15);
    fx_sphere(s, m, v3(1, 0, 0), 0.01, v3_zero());
    CHECK(grit_step(s, 1) == GRIT_OK);
    CHECK_REL(grit_dt(s), 9e-5, 1e-15);
    grit_scene_destroy(s);

    /* automatic dt with nothing that has a finite mass */
    s = fx_scene(NULL);
    m = fx_mat(s, 1e7, 0.2, 0.5);
    fx_wall(s, m, 2, 0.0, 0);
    CHECK_FAILS(s, grit_step(s, 1), GRIT_ESTATE, "time step", "'dt'");
    grit_scene_destroy(s);
}

int main(void)
{
    RUN(scene_def_out_of_range);
    RUN(material_out_of_range);
    RUN(law_def_out_of_range);
    RUN(bad_particles);
    RUN(bad_ids_and_values);
    RUN(step_errors);
    TEST_MAIN_END();
}
