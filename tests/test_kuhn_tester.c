/* Kuhn's law driven by the law tester (include/grit/tester.h): a sphere on a
 * wall (fixed normal), pressed to N ~ 1000, slid along y into slip, then
 * moved along z: the Figure 4 configuration (spec 5.2) spread over 300
 * steps. With uniform movement the refined law is exact whatever the step
 * (spec 5.5), so the force turns by the Gudermannian atan(sinh x) of the
 * total movement x = kt u / (mu N), to round-off; the conventional law lags
 * by O(x/n). The tester's own trapezoidal work on the recorded force and
 * displacement must match the energy the law books (elast + plast). */
#include "grit/grit.h"
#include "test.h"

#define KN 1e6
#define KT 8e5
#define MU 0.5

typedef struct run_out {
    double N, ft, psi, x, work, booked, plast;
} run_out;

static double u2_start;

static int remember_u2(grit_scene *s, grit_tester *t, int stage, void *user)
{
    (void)s;
    (void)t;
    (void)stage;
    u2_start = ((const grit_tester_state *)user)->u[2];
    return 0;
}

/* a copy of the last state the tester showed, and the energies booked by
 * then (the scene may run one more step after the last stage ends) */
static grit_tester_state last;
static double last_booked, last_plast;
static int track_state(grit_scene *s, grit_tester *t, const grit_tester_state *st, void *user)
{
    (void)t;
    (void)user;
    last = *st;
    last_plast = grit_energy(s, GRIT_E_PLAST);
    last_booked = grit_energy(s, GRIT_E_ELAST) + last_plast;
    return 0;
}

static run_out run(bool refined)
{
    grit_scene_def d = grit_default_scene_def();
    d.dt = 1e-4;
    d.track_energy = true;
    grit_scene *s = grit_scene_create(&d);
    if (!refined) {
        grit_kuhn_def k = grit_default_kuhn_def();
        k.kuhn_fresh = k.kuhn_onset = k.kuhn_turn = false;
        k.kuhn_twirl = GRIT_KUHN_TWIRL_OFF;
        grit_set_law_def(s, GRIT_LAW_KUHN, &k, sizeof k);
    }
    grit_frictmat_def fm = grit_default_frictmat_def();
    fm.law = GRIT_LAW_KUHN;
    int m = grit_add_frictmat(s, &fm);
    grit_pair_def pd = grit_default_pair_def();
    pd.kn = KN;
    pd.kt = KT;
    pd.tan_phi = MU;
    grit_set_pair(s, m, m, &pd);
    grit_wall_def w = grit_default_wall_def();
    w.axis = 2;
    w.material = m;
    int a = grit_add_wall(s, &w);
    grit_sphere_def sp = grit_default_sphere_def();
    sp.pos = v3(0, 0, 0.1);
    sp.radius = 0.1;
    sp.material = m;
    sp.blocked = GRIT_BLOCK_RX | GRIT_BLOCK_RY | GRIT_BLOCK_RZ; /* bending is not imposable against a wall */
    int b = grit_add_sphere(s, &sp);
    grit_tester *t = grit_tester_create(s, a, b, NULL);
    CHECK(t != NULL);
    char err[256];
    grit_tester_stage st = grit_default_tester_stage();
    /* 1: press (B towards A) until the normal force on A exceeds 1000 */
    CHECK(grit_tester_stage_parse(&st, "-0.5,0,0,0,0,0", "vvvv..", "f[0] <= -1000", err, sizeof err) == 0);
    st.until_fn = track_state;
    CHECK(grit_tester_add_stage(t, &st) == GRIT_OK);
    /* 2: slide along y, 100 steps of 1e-5: slip from about the 63rd on */
    CHECK(grit_tester_stage_parse(&st, "0,0.1,0,0,0,0", "vvvv..", "step >= 100", err, sizeof err) == 0);
    st.done_fn = remember_u2;
    st.done_data = &last;
    CHECK(grit_tester_add_stage(t, &st) == GRIT_OK);
    /* 3: move along z, 300 steps of 2.5e-6 (x ~ 1.2 in all) */
    CHECK(grit_tester_stage_parse(&st, "0,0,0.025,0,0,0", "vvvv..", "step >= 300", err, sizeof err) == 0);
    st.done_fn = NULL;
    CHECK(grit_tester_add_stage(t, &st) == GRIT_OK);
    long n = grit_tester_run(t, 100000);
    if (n <= 0) fprintf(stderr, "tester: %s\n", grit_last_error(s));
    CHECK(n > 0);
    run_out r;
    r.N = -last.f[0];
    r.ft = hypot(last.f[1], last.f[2]);
    r.psi = atan2(last.f[2], last.f[1]);
    r.x = KT * (last.u[2] - u2_start) / (MU * r.N);
    r.work = last.work;
    r.plast = last_plast;
    r.booked = last_booked;
    grit_tester_destroy(t);
    grit_scene_destroy(s);
    return r;
}

static void figure4_through_tester(void)
{
    run_out r = run(true), c = run(false);
    CHECK(r.N > 1000 && r.N < 1100);
    CHECK_ABS(r.ft, MU * r.N, 1e-9 * r.N);
    CHECK(r.x > 1.0 && r.x < 1.5);
    /* the Gudermannian: exact for uniform movement, whatever the steps */
    CHECK_ABS(r.psi, atan(sinh(r.x)), 1e-9);
    /* the conventional law turns less, by O(x/n) (spec 5.5: 1.4e-3 rad at
     * x = 1 in 100 steps) */
    CHECK(c.psi < atan(sinh(c.x)) - 2e-4);
    CHECK(c.psi > atan(sinh(c.x)) - 2e-3);
    /* the tester's trapezoid of f on u and the law's books agree, but for
     * the work of the first step (the tester starts counting at the first
     * overlap 5e-5: 1/2 kn 5e-5^2) and, for the refined law, the slip onset */
    const double first = 0.5 * KN * 5e-5 * 5e-5;
    CHECK(r.plast > 0);
    /* the refined law books the onset step exactly: elastic from F0 to the
     * limit, then sliding at it (the tester's trapezoid cuts that corner) */
    const double du = 1e-5, F0 = KT * du * floor(MU * r.N / (KT * du)), as = (MU * r.N - F0) / (KT * du);
    const double onset = 0.5 * (MU * r.N - F0) * (1 - as) * du;
    CHECK(onset > 1e-6);
    CHECK_ABS(r.booked - first - onset, r.work, 1e-9 * r.work);
    CHECK_ABS(c.booked - first, c.work, 1e-9 * c.work);
    printf("    refined psi %.9f (atan sinh x %.9f), conventional %.6f; work %.6g booked %.6g\n", r.psi,
           atan(sinh(r.x)), c.psi, r.work, r.booked);
}

int main(void)
{
    RUN(figure4_through_tester);
    TEST_MAIN_END();
}
