/* The six-DoF linear elastic law (spec 6): T19 on prescribed geometry, its
 * char_len check, and closed loading cycles in all six DoFs driven by the
 * law tester, which must give back all the energy stored. */
#include <string.h>

#include "grit/grit.h"
#include "law2/linel6.h"
#include "test.h"

/* T19: 10 steps with vel = (0, 0.5, 0), angVel = (1, 2, 0). */
static double t19_run(double kt, grit_frictphys *p)
{
    grit_law_ctx L = {.dt = 1e-3, .char_len = 0.1};
    grit_l6geom g = {.ex = v3(1, 0, 0), .ey = v3(0, -1, 0), .uN = -1e-3, .vel = v3(0, 0.5, 0), .angvel = v3(1, 2, 0)};
    grit_contact_cold cold = {{0.1, 0.1}, 0.0, NAN, 0};
    *p = (grit_frictphys){.kn = 1e5, .kt = kt, .tan_phi = 0.5};
    grit_law_energy E = {0, 0, 0, 0, 0, 0, 0};
    for (int k = 0; k < 10; k++) {
        E.elast = 0; /* a resettable entry: the contact loop books the current value each step */
        CHECK(law_linel6(&L, &g, p, &cold, k == 0, true, &E, NULL, NULL));
    }
    return E.elast;
}

static void t19_prescribed(void)
{
    grit_frictphys p;
    double e = t19_run(2e4, &p);
    CHECK_VEC(p.f, -100, 100, 0, 1e-10);
    CHECK_VEC(p.t, 1e4, 4e3, 0, 1e-8); /* kw = kn / char_len = 1e6, kb = 2e5 (not the docs' kn * char_len) */
    CHECK_REL(e, 90.3, 1e-12);
    /* ktDivKn = 0: no tangential force, no bending torque, no 0/0 */
    e = t19_run(0.0, &p);
    CHECK_VEC(p.f, -100, 0, 0, 1e-10);
    CHECK_VEC(p.t, 1e4, 0, 0, 1e-8);
    CHECK_REL(e, 50.05, 1e-12);
    CHECK(isfinite(e));
}

/* char_len is refused when a LinEl6 contact may exist: at the first step,
 * with nothing changed; the law's parameter itself is any finite number. */
static void char_len_rejected(void)
{
    grit_scene_def d = grit_default_scene_def();
    const double bad[] = {-1.0, 0.0, -INFINITY};
    grit_scene *s = grit_scene_create(&d);
    grit_frictmat_def m = grit_default_frictmat_def();
    m.law = GRIT_LAW_LINEL6;
    int mat = grit_add_frictmat(s, &m);
    grit_sphere_def sd = grit_default_sphere_def();
    sd.radius = 0.1;
    sd.material = mat;
    grit_add_sphere(s, &sd);
    sd.pos = v3(0.19, 0, 0);
    grit_add_sphere(s, &sd);
    grit_linel6_def l6 = grit_default_linel6_def();
    for (int k = 0; k < 3; k++) {
        l6.char_len = bad[k];
        CHECK(grit_set_law_def(s, GRIT_LAW_LINEL6, &l6, sizeof l6) == (isfinite(bad[k]) ? GRIT_OK : GRIT_EINVAL));
        if (!isfinite(bad[k])) continue;
        CHECK(grit_step(s, 1) == GRIT_EINVAL);
        CHECK(strstr(grit_last_error(s), "char_len") != NULL && strstr(grit_last_error(s), "linel6") != NULL);
        CHECK(grit_step_count(s) == 0);
    }
    l6.char_len = 0.1;
    CHECK(grit_set_law_def(s, GRIT_LAW_LINEL6, &l6, sizeof l6) == GRIT_OK);
    CHECK(grit_step(s, 1) == GRIT_OK);
    CHECK(grit_contact_count(s) == 1);
    grit_scene_destroy(s);
    /* the default law does not need it */
    s = grit_scene_create(&d);
    m.law = GRIT_LAW_IDEALELPL;
    sd.material = grit_add_frictmat(s, &m);
    grit_add_sphere(s, &sd);
    CHECK(grit_step(s, 1) == GRIT_OK);
    grit_scene_destroy(s);
}

/* Closed cycles: compress to uN = -0.005; then for each DoF j = 1..5 move
 * by +a and back by -a (a = 0.005 m, 0.05 rad), every other DoF held; then
 * unload. With kt_div_kn = 0 the tangential and bending stiffnesses are 0. */
static void closed_cycles(double kt_div_kn)
{
    grit_scene_def d = grit_default_scene_def();
    d.dt = 1e-3;
    d.track_energy = true;
    grit_scene *s = grit_scene_create(&d);
    grit_linel6_def l6 = {.char_len = 0.1};
    grit_set_law_def(s, GRIT_LAW_LINEL6, &l6, sizeof l6);
    grit_frictmat_def m = grit_default_frictmat_def();
    m.law = GRIT_LAW_LINEL6;
    m.young = 1e7;
    m.kt_div_kn = kt_div_kn;
    grit_add_frictmat(s, &m);
    grit_sphere_def sd = grit_default_sphere_def();
    sd.radius = 0.5;
    CHECK(grit_add_sphere(s, &sd) == 0);
    sd.pos = v3(1, 0, 0);
    CHECK(grit_add_sphere(s, &sd) == 1);
    grit_tester_def td = grit_default_tester_def();
    td.ab_weight = 0.5;
    grit_tester *t = grit_tester_create(s, 0, 1, &td);
    const double rate[6] = {0.01, 0.01, 0.01, 0.1, 0.1, 0.1}; /* 500 steps: 0.005 m or 0.05 rad */
    grit_tester_stage st = grit_default_tester_stage();
    memcpy(st.whats, "vvvvvv", 7);
    st.until = (grit_tester_cond){GRIT_TQ_STEP, 0, GRIT_OP_GE, 500};
    st.values[0] = -rate[0];
    CHECK(grit_tester_add_stage(t, &st) == GRIT_OK);
    st.values[0] = 0;
    for (int j = 1; j < 6; j++)
        for (int sgn = 1; sgn >= -1; sgn -= 2) {
            memset(st.values, 0, sizeof st.values);
            st.values[j] = sgn * rate[j];
            CHECK(grit_tester_add_stage(t, &st) == GRIT_OK);
        }
    memset(st.values, 0, sizeof st.values);
    st.values[0] = rate[0];
    CHECK(grit_tester_add_stage(t, &st) == GRIT_OK);

    const grit_tester_state *S = grit_tester_get_state(t);
    double w_in = 0, w_out = 0, w_prev = 0, e_max = 0, dev_we = 0, dev_fku[6] = {0}, peak_f[6] = {0};
    while (!grit_tester_done(t)) {
        CHECK(grit_tester_step(t, 1) == GRIT_OK);
        const double e = grit_energy(s, GRIT_E_ELAST);
        CHECK(isfinite(e));
        e_max = fmax(e_max, e);
        if (!S->has_contact) continue;
        const double dw = S->work - w_prev;
        w_prev = S->work;
        if (dw > 0) w_in += dw;
        else w_out -= dw;
        dev_we = fmax(dev_we, fabs(S->work - e)); /* the tester's work against the law's stored energy */
        for (int j = 0; j < 6; j++) {
            dev_fku[j] = fmax(dev_fku[j], fabs(S->f[j] - S->k[j] * S->u[j])); /* F = k u per DoF */
            peak_f[j] = fmax(peak_f[j], fabs(S->f[j]));
        }
    }
    const double kn = 1e7 * M_PI * 0.25 / 1.0, kt = kt_div_kn * kn;
    const double k6[6] = {kn, kt, kt, kn / 0.1, kt / 0.1, kt / 0.1};
    const double amp[6] = {0.005, 0.005, 0.005, 0.05, 0.05, 0.05};
    for (int j = 0; j < 6; j++) {
        CHECK_ABS(peak_f[j], k6[j] * amp[j], 1e-4 * k6[j] * amp[j]);
        CHECK_ABS(dev_fku[j], 0, 1e-12 * k6[j] * amp[j]);
    }
    CHECK(dev_we < 1e-9 * e_max);
    CHECK(grit_energy(s, GRIT_E_ELAST) < 1e-9 * e_max); /* all stored energy given back */
    CHECK(fabs(w_in - w_out) < 1e-9 * w_in);            /* work in = work out */
    printf("  kt/kn = %g: peak elastic energy %.6g J, work in %.10g J, out %.10g J, final elastic %.3g J\n", kt_div_kn,
           e_max, w_in, w_out, grit_energy(s, GRIT_E_ELAST));
    grit_tester_destroy(t);
    grit_scene_destroy(s);
}
static void closed_cycles_all_dofs(void) { closed_cycles(0.2); }
static void closed_cycles_zero_kt(void) { closed_cycles(0.0); }

int main(void)
{
    RUN(t19_prescribed);
    RUN(char_len_rejected);
    RUN(closed_cycles_all_dofs);
    RUN(closed_cycles_zero_kt);
    TEST_MAIN_END();
}
