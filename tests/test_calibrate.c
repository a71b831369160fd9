/* Calibration of the concrete model (include/grit/calibrate.h): the
 * procedure reaches targets that a known material produces, its result
 * reproduces the best run bit for bit, the fresh specimen is reported,
 * targets out of the model's reach are refused with the limit named, and
 * every bad input is refused before a run. The cells are small periodic
 * packings strained fast (the figures of a quasi-static test are not the
 * point here), so that the file runs in seconds under the sanitizers. */
#include <string.h>

#include "grit/grit.h"
#include "test.h"

static char err[1024];

static grit_packing cell(int seed)
{
    grit_pack_def d = grit_default_pack_def();
    d.n = 150;
    d.radius = 1e-3;
    d.seed = seed;
    d.tan_phi = 0.5;
    grit_packing p;
    if (grit_pack_dense(&d, NULL, &p, err, sizeof err)) {
        fprintf(stderr, "packing: %s\n", err);
        exit(1);
    }
    return p;
}

static grit_uniax_def fast(void)
{
    grit_uniax_def d = grit_default_uniax_def();
    d.rate_tension = 2;
    d.rate_compression = -10;
    d.max_steps = 50000;
    return d;
}

static grit_packing A, B, C;

typedef struct seen {
    int elastic, full, fresh, stop_after;
} seen;

static int count_runs(const grit_calibrate_run *r, void *data)
{
    seen *s = data;
    if (r->stage == GRIT_CAL_ELASTIC) s->elastic++;
    else if (r->stage == GRIT_CAL_FULL) s->full++;
    else s->fresh++;
    return s->stop_after > 0 && s->elastic + s->full + s->fresh >= s->stop_after;
}

/* The figures of a material on a cell, by the periodic test. */
static void figures(const grit_packing *p, const grit_concretemat_def *m, double f[GRIT_CAL_FIGURES])
{
    grit_uniax_def d = fast();
    d.stop_tension = 0.9 * d.gf_fraction; /* as the calibration runs it */
    grit_uniax_result r;
    CHECK(grit_uniax_periodic_run(&(grit_uniax_specimen){p, GRIT_MAT_CONCRETEMAT, m, NULL, NULL}, &d, NULL, &r, err,
                                  sizeof err) == GRIT_OK);
    f[GRIT_CAL_E] = r.young, f[GRIT_CAL_NU] = r.poisson, f[GRIT_CAL_FT] = r.ft, f[GRIT_CAL_FC] = r.fc;
    f[GRIT_CAL_GF] = r.gf;
    grit_uniax_result_free(&r);
}

/* Targets made by a known material (other than the starting one): the
 * procedure must get there, and its material must give the best run's
 * figures again. */
static void reaches_known_targets(void)
{
    grit_concretemat_def known = grit_default_concretemat_def();
    known.young = 30e9;
    known.kt_div_kn = 0.3;
    known.eps_crack_onset = 1.4e-4;
    known.rel_ductility = 20;
    known.tan_phi = 1.1;
    known.sigma_t = 5e6;
    double f[GRIT_CAL_FIGURES];
    figures(&A, &known, f);
    printf("  known material: E %.4g GPa, nu %.4f, f_t %.4g MPa, f_c %.4g MPa, G_f %.4g J/m^3\n", f[0] / 1e9, f[1],
           f[2] / 1e6, f[3] / 1e6, f[4]);

    grit_calibrate_def cd = grit_default_calibrate_def();
    cd.target_young = f[GRIT_CAL_E];
    cd.target_poisson = f[GRIT_CAL_NU];
    cd.target_ft = f[GRIT_CAL_FT];
    cd.target_fc = f[GRIT_CAL_FC];
    cd.target_gf = f[GRIT_CAL_GF];
    cd.tolerance = 0.03;
    const grit_concretemat_def start = grit_default_concretemat_def();
    const grit_uniax_def d = fast();
    grit_uniax_specimen sp = {&A, GRIT_MAT_CONCRETEMAT, &start, NULL, NULL};
    grit_uniax_specimen fresh = {&C, GRIT_MAT_CONCRETEMAT, &start, NULL, NULL};
    seen s = {0};
    grit_calibrate_opts o = grit_default_calibrate_opts();
    o.periodic = true;
    o.monitor = count_runs;
    o.monitor_data = &s;
    grit_calibrate_result *r = malloc(sizeof *r);
    CHECK(grit_calibrate(&sp, 1, &fresh, &d, &cd, &o, r, err, sizeof err) == GRIT_OK);
    printf("  %d elastic + %d full runs, worst error %.2f %%, fresh %.2f %% (%.2f s CPU)\n", s.elastic, s.full,
           100 * r->runs[r->best].worst, 100 * r->fresh.worst, r->cpu);
    for (int i = 0; i < r->n_runs; i++) {
        const double *p = r->runs[i].param;
        printf("    %s %d: young %.4g kt/kn %.4f eps0 %.4g sigma_t %.4g rho %.3g tan_phi %.4f -> worst %.2f %%\n",
               r->runs[i].stage == GRIT_CAL_ELASTIC ? "elastic" : "full", r->runs[i].index, p[0], p[1], p[2], p[3],
               p[4], p[5], 100 * r->runs[i].worst);
    }
    CHECK(r->converged);
    CHECK(r->runs[r->best].stage == GRIT_CAL_FULL && r->runs[r->best].worst < 0.03);
    CHECK(s.elastic >= 1 && s.full >= 1 && s.fresh == 1 && s.elastic + s.full == r->n_runs);
    CHECK(s.full <= 10);
    /* every run is reported with errors against the targets */
    for (int k = 0; k < GRIT_CAL_FIGURES; k++)
        CHECK_REL(r->runs[r->best].figure[k], r->target[k] * (1 + r->runs[r->best].error[k]), 1e-12);
    /* the procedure kept sigma_t tied to young eps_crack_onset tan_phi */
    const grit_concretemat_def *m = &r->material;
    CHECK_REL(m->sigma_t / (m->young * m->eps_crack_onset * m->tan_phi),
              start.sigma_t / (start.young * start.eps_crack_onset * start.tan_phi), 1e-12);
    /* parameters it does not calibrate are the starting material's */
    CHECK(m->density == start.density && m->dam_law == start.dam_law && !m->never_damage);
    /* the result is the best run's material: the same figures again, bit for bit */
    double g[GRIT_CAL_FIGURES];
    figures(&A, m, g);
    for (int k = 0; k < GRIT_CAL_FIGURES; k++) CHECK(g[k] == r->runs[r->best].figure[k]);
    /* the fresh specimen ran that material on the other packing */
    CHECK(r->have_fresh && r->fresh.stage == GRIT_CAL_FRESH);
    figures(&C, m, g);
    for (int k = 0; k < GRIT_CAL_FIGURES; k++) CHECK(g[k] == r->fresh.figure[k]);
    CHECK(r->fresh_passed == (r->fresh.worst < cd.fresh_tolerance));
    free(r);
}

/* With two specimens every figure is the mean of the two cells'. */
static void averages_specimens(void)
{
    grit_calibrate_def cd = grit_default_calibrate_def();
    const grit_concretemat_def start = grit_default_concretemat_def();
    double fa[GRIT_CAL_FIGURES], fb[GRIT_CAL_FIGURES];
    figures(&A, &start, fa);
    figures(&B, &start, fb);
    /* targets the starting material meets on the mean: the first full run converges */
    cd.target_young = 0.5 * (fa[0] + fb[0]);
    cd.target_poisson = 0.5 * (fa[1] + fb[1]);
    cd.target_ft = 0.5 * (fa[2] + fb[2]);
    cd.target_fc = 0.5 * (fa[3] + fb[3]);
    cd.target_gf = 0.5 * (fa[4] + fb[4]);
    const grit_uniax_def d = fast();
    grit_uniax_specimen sp[2] = {{&A, GRIT_MAT_CONCRETEMAT, &start, NULL, NULL},
                                 {&B, GRIT_MAT_CONCRETEMAT, &start, NULL, NULL}};
    grit_calibrate_opts o = grit_default_calibrate_opts();
    o.periodic = true;
    grit_calibrate_result *r = malloc(sizeof *r);
    CHECK(grit_calibrate(sp, 2, NULL, &d, &cd, &o, r, err, sizeof err) == GRIT_OK);
    CHECK(r->converged && !r->have_fresh);
    /* the elastic stage met E and nu at once: one elastic run, one full run */
    CHECK(r->n_runs == 2);
    CHECK(r->runs[1].stage == GRIT_CAL_FULL && r->runs[1].worst < 1e-12);
    CHECK(memcmp(&r->material, &start, sizeof start) == 0);
    free(r);
}

/* ---- targets out of reach ------------------------------------------------- */
static void poisson_out_of_reach(void)
{
    grit_calibrate_def cd = grit_default_calibrate_def();
    cd.target_poisson = 0.32;
    const grit_concretemat_def start = grit_default_concretemat_def();
    const grit_uniax_def d = fast();
    grit_uniax_specimen sp = {&A, GRIT_MAT_CONCRETEMAT, &start, NULL, NULL};
    grit_calibrate_opts o = grit_default_calibrate_opts();
    o.periodic = true;
    seen s = {0};
    o.monitor = count_runs;
    o.monitor_data = &s;
    grit_calibrate_result *r = malloc(sizeof *r);
    memset(r, 0x5a, sizeof *r);
    CHECK(grit_calibrate(&sp, 1, NULL, &d, &cd, &o, r, err, sizeof err) == GRIT_EINVAL);
    printf("  %s\n", err);
    CHECK(strstr(err, "target_poisson = 0.32 is above what the model gives") != NULL);
    CHECK(strstr(err, "kt_div_kn = 0") != NULL);
    CHECK(s.full == 0 && s.elastic >= 2); /* found in the elastic stage, kt_div_kn driven to 0 */
    CHECK(((unsigned char *)r)[0] == 0x5a); /* the result untouched */
    free(r);
}

static void gf_out_of_reach(void)
{
    grit_calibrate_def cd = grit_default_calibrate_def();
    const grit_concretemat_def start = grit_default_concretemat_def();
    double f[GRIT_CAL_FIGURES];
    figures(&A, &start, f);
    cd.target_young = f[0], cd.target_poisson = f[1], cd.target_ft = f[2], cd.target_fc = f[3];
    cd.target_gf = 0.01 * f[4]; /* far below what rel_ductility = 1 gives */
    const grit_uniax_def d = fast();
    grit_uniax_specimen sp = {&A, GRIT_MAT_CONCRETEMAT, &start, NULL, NULL};
    grit_calibrate_opts o = grit_default_calibrate_opts();
    o.periodic = true;
    grit_calibrate_result *r = malloc(sizeof *r);
    CHECK(grit_calibrate(&sp, 1, NULL, &d, &cd, &o, r, err, sizeof err) == GRIT_EINVAL);
    printf("  %s\n", err);
    CHECK(strstr(err, "target_gf") != NULL && strstr(err, "rel_ductility = 1") != NULL);
    free(r);
}

static void monitor_stops(void)
{
    grit_calibrate_def cd = grit_default_calibrate_def();
    const grit_concretemat_def start = grit_default_concretemat_def();
    const grit_uniax_def d = fast();
    grit_uniax_specimen sp = {&A, GRIT_MAT_CONCRETEMAT, &start, NULL, NULL};
    grit_calibrate_opts o = grit_default_calibrate_opts();
    o.periodic = true;
    seen s = {.stop_after = 1};
    o.monitor = count_runs;
    o.monitor_data = &s;
    grit_calibrate_result *r = malloc(sizeof *r);
    CHECK(grit_calibrate(&sp, 1, NULL, &d, &cd, &o, r, err, sizeof err) == GRIT_ESTATE);
    CHECK(strstr(err, "stopped by the monitor") != NULL && s.elastic == 1);
    free(r);
}

/* ---- refused inputs ------------------------------------------------------- */
static void check_errors(void)
{
    const grit_concretemat_def m0 = grit_default_concretemat_def();
    grit_concretemat_def m = m0;
    grit_uniax_def d = fast();
    grit_calibrate_def cd = grit_default_calibrate_def();
    grit_uniax_specimen sp = {NULL, GRIT_MAT_CONCRETEMAT, &m, NULL, NULL};
    CHECK(grit_calibrate_check(&sp, &d, &cd, err, sizeof err) == GRIT_OK);
#define REFUSED(what, text)                                                     \
    do {                                                                        \
        what;                                                                   \
        CHECK(grit_calibrate_check(&sp, &d, &cd, err, sizeof err) == GRIT_EINVAL); \
        if (!strstr(err, text)) fprintf(stderr, "  message: %s\n", err);        \
        CHECK(strstr(err, text) != NULL);                                       \
        m = m0, d = fast(), cd = grit_default_calibrate_def();                  \
    } while (0)
    REFUSED(cd.target_young = -1, "'target_young'");
    REFUSED(cd.target_poisson = 0.5, "'target_poisson'");
    REFUSED(cd.target_ft = NAN, "'target_ft'");
    REFUSED(cd.target_fc_ft = NAN, "both nan");
    REFUSED(cd.target_fc_ft = 0.5, "'target_fc_ft'");
    REFUSED(cd.target_fc = 2e6, "not above 'target_ft'");
    REFUSED(cd.tolerance = 0, "'tolerance'");
    REFUSED(cd.max_runs = 1, "'max_runs'");
    REFUSED(d.tests = GRIT_UNIAX_TENSION, "tests=both");
    REFUSED(d.stop_tension = 0.3, "'stop_tension'");
    REFUSED(d.stop_tension = 0, "'stop_tension'");
    REFUSED(m.iso_prestress = -1e6, "unconfined");
    REFUSED(m.never_damage = true, "never_damage");
    REFUSED(m.tan_phi = 0, "tan_phi > 0");
    REFUSED(m.young = 0, "'young'");
    REFUSED(d.rate_tension = -1, "'rate_tension'");
    CHECK(grit_calibrate_check(&sp, &d, NULL, err, sizeof err) == GRIT_EINVAL);
#undef REFUSED
    /* the run itself: no specimens, a specimen with another material, no result */
    grit_calibrate_result *r = malloc(sizeof *r);
    grit_uniax_specimen two[2] = {{&A, GRIT_MAT_CONCRETEMAT, &m, NULL, NULL}, {&B, GRIT_MAT_CONCRETEMAT, &m0, NULL, NULL}};
    grit_calibrate_opts o = grit_default_calibrate_opts();
    o.periodic = true;
    CHECK(grit_calibrate(two, 0, NULL, &d, &cd, &o, r, err, sizeof err) == GRIT_EINVAL);
    CHECK(grit_calibrate(two, 2, NULL, &d, &cd, &o, r, err, sizeof err) == GRIT_EINVAL);
    CHECK(strstr(err, "another material") != NULL);
    CHECK(grit_calibrate(two, 1, NULL, &d, &cd, &o, NULL, err, sizeof err) == GRIT_EINVAL);
    /* a periodic cell where a specimen is expected */
    o.periodic = false;
    CHECK(grit_calibrate(two, 1, NULL, &d, &cd, &o, r, err, sizeof err) == GRIT_EINVAL);
    CHECK(strstr(err, "periodic cell") != NULL);
    free(r);
    /* names */
    CHECK(!strcmp(grit_calibrate_figure_name(GRIT_CAL_GF), "gf") && !grit_calibrate_figure_name(5));
    CHECK(!strcmp(grit_calibrate_param_name(GRIT_CAL_DUCTILITY), "rel_ductility") && !grit_calibrate_param_name(-1));
    for (int k = 0; k < GRIT_CAL_PARAMS; k++)
        CHECK(grit_param_find(&grit_concretemat_param_table, grit_calibrate_param_name(k)) != NULL);
}

int main(void)
{
    A = cell(1), B = cell(2), C = cell(3);
    RUN(check_errors);
    RUN(monitor_stops);
    RUN(poisson_out_of_reach);
    RUN(averages_specimens);
    RUN(reaches_known_targets);
    RUN(gf_out_of_reach);
    grit_packing_free(&A), grit_packing_free(&B), grit_packing_free(&C);
    TEST_MAIN_END();
}
