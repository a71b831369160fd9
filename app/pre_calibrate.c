/* grit calibrate (= grit run calibrate): the contact parameters of a
 * ConcreteMat for a concrete's E, nu, f_t, f_c and G_f (include/grit/
 * calibrate.h; docs/concrete.md, "Calibration").
 *
 * The job is grit run uniax's (the test, the starting material, the law,
 * the packing and its cut, the variant) plus the targets. It packs the
 * calibration specimen from `seed` and a fresh one from `fresh_seed`,
 * prints a line per run of the test, and writes into the output folder
 * calibration.csv (every run: parameters, figures, errors; appended as the
 * runs finish), calibration.json (targets, the result, the fresh
 * specimen's figures) and material.txt, the calibrated material and the
 * law as key=value lines that every command reading these groups accepts
 * as @material.txt (grit run uniax @out/material.txt). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "grit/calibrate.h"
#include "uniax_job.h"
#include "core/clock.h"

/* clang-format off */
#define CAL_SPECIMEN_PARAMS(X) \
    X(int, specimens, 2, "-", 1, 16, 0, NULL, \
      "packings (seeds seed, seed+1, ...) every run is made on, its figures their mean: the scatter between " \
      "packings shrinks as 1/sqrt(specimens)") \
    X(flag, fresh, true, "-", 0, 1, 0, NULL, \
      "try the calibrated material on a fresh specimen (packed from fresh_seed) and report its errors") \
    X(int, fresh_seed, -1, "-", -1, 2147483647, 0, NULL, "seed of the fresh specimen's packing; -1: seed + specimens")
/* clang-format on */

typedef struct specimens_def {
    CAL_SPECIMEN_PARAMS(GRIT_PARAM_FIELD)
} specimens_def;
#define SPECIMENS_INFO(...) GRIT_PARAM_INFO(specimens_def, __VA_ARGS__)
static const grit_param_info specimens_params[] = {CAL_SPECIMEN_PARAMS(SPECIMENS_INFO)};
static const grit_param_table specimens_table = {"specimens", specimens_params,
                                                 (int)(sizeof specimens_params / sizeof specimens_params[0])};

static grit_calibrate_def cd;
static specimens_def sd;

static void init(job *j)
{
    uniax_job_init(j, true);
    cd = grit_default_calibrate_def();
    sd = (specimens_def){CAL_SPECIMEN_PARAMS(GRIT_PARAM_DEFAULT)};
    job_add_group(j, "calibrate", &grit_calibrate_param_table, &cd);
    job_add_group(j, "specimens", &specimens_table, &sd);
}

enum { MAX_SPECIMENS = 16 };

/* the k-th calibration specimen's seed (k = specimens: the fresh one's default) */
static int seed_of(const uniax_job_view *v, int k) { return (int)(((long)v->seed + k) % 2147483648L); }

static int fresh_seed(const uniax_job_view *v) { return sd.fresh_seed >= 0 ? sd.fresh_seed : seed_of(v, sd.specimens); }

static int check(job *j, char *err, size_t len)
{
    if (j->save.value)
        return snprintf(err, len, "parameter 'save' = '%s': grit calibrate saves no scene (its result is "
                                  "OUT/material.txt)", j->save.value),
               -1;
    /* the calibration's checks first: they say why a setting does not suit it */
    uniax_job_view v = uniax_job_get();
    const grit_uniax_specimen spec = {NULL, GRIT_MAT_CONCRETEMAT, v.material, v.law, NULL};
    if (grit_calibrate_check(&spec, v.test, &cd, err, len) || grit_param_validate(&specimens_table, &sd, err, len))
        return -1;
    if (uniax_job_check(j, err, len)) return -1;
    v = uniax_job_get(); /* packing= is loaded now */
    if ((sd.fresh || sd.specimens > 1) && v.packing) {
        uniax_job_release();
        return snprintf(err, len,
                        "parameter 'packing' = '%s' is one packing: further specimens are packed from seeds (leave "
                        "packing= out, or set specimens=1 fresh=false)",
                        v.packing),
               -1;
    }
    for (int k = 0; sd.fresh && k < sd.specimens; k++)
        if (fresh_seed(&v) == seed_of(&v, k)) {
            uniax_job_release();
            return snprintf(err, len,
                            "parameter 'fresh_seed' = %d is the seed of calibration specimen %d: a fresh specimen "
                            "needs another",
                            sd.fresh_seed, k + 1),
                   -1;
        }
    return 0;
}

/* ---- progress -------------------------------------------------------------- */
typedef struct watch {
    bool tty;
    double last, progress;
    FILE *csv;
    bool csv_failed;
} watch;

/* inside a run: a progress line on a terminal, the interrupt everywhere */
static int test_monitor(const grit_uniax_state *st, void *data)
{
    watch *w = data;
    const double t = grit_wall_now();
    if (w->tty ? t - w->last >= 0.25 : w->progress > 0 && t - w->last >= w->progress) {
        w->last = t;
        printf("%s  %-11s step %-7ld strain %10.3e  stress %8.4g MPa (peak %.4g)%s", w->tty ? "\r" : "",
               st->run == GRIT_UNIAX_TENSION ? "tension" : "compression", st->step, st->strain, st->stress / 1e6,
               st->peak / 1e6, w->tty ? "   " : "\n");
        fflush(stdout);
    }
    return run_interrupted() ? 1 : 0;
}

static const char *stage_name(int stage)
{
    return stage == GRIT_CAL_ELASTIC ? "elastic" : stage == GRIT_CAL_FULL ? "full" : "fresh";
}

static void pct(char *buf, size_t len, double e)
{
    if (isnan(e)) snprintf(buf, len, "%7s", "");
    else snprintf(buf, len, "(%+5.1f%%)", 100 * e);
}

static int run_monitor(const grit_calibrate_run *r, void *data)
{
    watch *w = data;
    if (w->tty) printf("\r%*s\r", 90, "");
    const double *p = r->param, *f = r->figure, *e = r->error;
    char b[GRIT_CAL_FIGURES][16];
    for (int k = 0; k < GRIT_CAL_FIGURES; k++) pct(b[k], sizeof b[k], e[k]);
    printf("%-7s %2d  young %6.3f GPa  kt/kn %6.4f  eps0 %9.4g  sigma_t %6.3f MPa  rho_d %6.2f  tan_phi %6.4f\n",
           stage_name(r->stage), r->index, p[GRIT_CAL_YOUNG] / 1e9, p[GRIT_CAL_KT_DIV_KN], p[GRIT_CAL_EPS0],
           p[GRIT_CAL_SIGMA_T] / 1e6, p[GRIT_CAL_DUCTILITY], p[GRIT_CAL_TAN_PHI]);
    printf("            E %6.3f GPa %s  nu %6.4f %s", f[GRIT_CAL_E] / 1e9, b[0], f[GRIT_CAL_NU], b[1]);
    if (r->stage != GRIT_CAL_ELASTIC)
        printf("  f_t %6.3f MPa %s  f_c %6.3f MPa %s  G_f %7.1f J/m^3 %s", f[GRIT_CAL_FT] / 1e6, b[2],
               f[GRIT_CAL_FC] / 1e6, b[3], f[GRIT_CAL_GF], b[4]);
    printf("  worst %.1f%%  %.1f s\n", 100 * r->worst, r->cpu);
    fflush(stdout);
    if (w->csv) {
        fprintf(w->csv, "%s,%d", stage_name(r->stage), r->index);
        for (int k = 0; k < GRIT_CAL_PARAMS; k++) fprintf(w->csv, ",%.17g", p[k]);
        for (int k = 0; k < GRIT_CAL_FIGURES; k++) fprintf(w->csv, ",%.9g", f[k]);
        for (int k = 0; k < GRIT_CAL_FIGURES; k++) fprintf(w->csv, ",%.6g", e[k]);
        fprintf(w->csv, ",%.6g,%.4g\n", r->worst, r->cpu);
        if (fflush(w->csv)) w->csv_failed = true;
    }
    w->last = grit_wall_now();
    return run_interrupted() ? 1 : 0;
}

/* ---- output files ------------------------------------------------------------ */
static void json_num(FILE *f, const char *key, double v, const char *indent, bool comma)
{
    if (isfinite(v)) fprintf(f, "%s\"%s\": %.17g%s\n", indent, key, v, comma ? "," : "");
    else fprintf(f, "%s\"%s\": null%s\n", indent, key, comma ? "," : "");
}

static void json_run(FILE *f, const char *key, const grit_calibrate_run *r, bool comma)
{
    fprintf(f, "  \"%s\": {\n", key);
    for (int k = 0; k < GRIT_CAL_FIGURES; k++) json_num(f, grit_calibrate_figure_name(k), r->figure[k], "    ", true);
    fprintf(f, "    \"errors\": {");
    for (int k = 0; k < GRIT_CAL_FIGURES; k++)
        fprintf(f, "\"%s\": %.6g%s", grit_calibrate_figure_name(k), isfinite(r->error[k]) ? r->error[k] : 0,
                k + 1 < GRIT_CAL_FIGURES ? ", " : "");
    fprintf(f, "},\n");
    json_num(f, "worst", r->worst, "    ", true);
    json_num(f, "cpu", r->cpu, "    ", false);
    fprintf(f, "  }%s\n", comma ? "," : "");
}

static int write_json(const char *dir, const grit_calibrate_result *r, const uniax_job_view *v, char *err, size_t len)
{
    char path[4300];
    snprintf(path, sizeof path, "%s/calibration.json", dir);
    FILE *f = fopen(path, "w");
    if (!f) return snprintf(err, len, "cannot write '%s'", path), -1;
    fprintf(f, "{\n  \"variant\": \"%s\",\n  \"seed\": %d,\n  \"specimens\": %d,\n", v->periodic ? "periodic" : "specimen",
            v->seed, sd.specimens);
    fprintf(f, "  \"targets\": {");
    for (int k = 0; k < GRIT_CAL_FIGURES; k++)
        fprintf(f, "\"%s\": %.17g%s", grit_calibrate_figure_name(k), r->target[k], k + 1 < GRIT_CAL_FIGURES ? ", " : "");
    fprintf(f, "},\n");
    json_num(f, "tolerance", cd.tolerance, "  ", true);
    fprintf(f, "  \"converged\": %s,\n  \"runs\": %d,\n  \"best_run\": %d,\n", r->converged ? "true" : "false",
            r->n_runs, r->best + 1);
    fprintf(f, "  \"material\": {");
    for (int k = 0; k < GRIT_CAL_PARAMS; k++) {
        const grit_param_info *p = grit_param_find(&grit_concretemat_param_table, grit_calibrate_param_name(k));
        fprintf(f, "\"%s\": %.17g%s", p->name, grit_param_get_double(p, &r->material),
                k + 1 < GRIT_CAL_PARAMS ? ", " : "");
    }
    fprintf(f, "},\n");
    json_run(f, "calibration_specimen", &r->runs[r->best], true);
    if (r->have_fresh) {
        fprintf(f, "  \"fresh_seed\": %d,\n  \"fresh_passed\": %s,\n", fresh_seed(v), r->fresh_passed ? "true" : "false");
        json_run(f, "fresh_specimen", &r->fresh, true);
    }
    json_num(f, "cpu", r->cpu, "  ", false);
    fprintf(f, "}\n");
    if (fclose(f)) return snprintf(err, len, "cannot write '%s'", path), -1;
    return 0;
}

static int write_material(const char *dir, const char *out, const grit_calibrate_result *r, const uniax_job_view *v,
                          char *err, size_t len)
{
    char path[4300];
    snprintf(path, sizeof path, "%s/material.txt", dir);
    FILE *f = fopen(path, "w");
    if (!f) return snprintf(err, len, "cannot write '%s'", path), -1;
    fprintf(f, "# grit calibrate: a ConcreteMat and its law for E = %.6g Pa, nu = %.6g, f_t = %.6g Pa, f_c = %.6g Pa, "
               "G_f = %.6g J/m^3\n# (%s, on %d %s specimens from seed %d; worst error %.2f %%%s).\n"
               "# Use it as: grit run uniax @%s/material.txt%s\n",
            r->target[0], r->target[1], r->target[2], r->target[3], r->target[4],
            r->converged ? "converged" : "NOT converged", sd.specimens, v->periodic ? "periodic" : "cut", v->seed,
            100 * r->runs[r->best].worst, r->have_fresh ? (r->fresh_passed ? "; the fresh specimen passed" : "; the fresh specimen did NOT pass") : "",
            out, v->periodic ? " variant=periodic" : "");
    fprintf(f, "# material (ConcreteMat)\n");
    job_print_group(&grit_concretemat_param_table, &r->material, f);
    fprintf(f, "# law cpm\n");
    job_print_group(&grit_cpm_param_table, v->law, f);
    if (fclose(f)) return snprintf(err, len, "cannot write '%s'", path), -1;
    return 0;
}

/* ---- the calibration ----------------------------------------------------- */
static int pack_monitor(const grit_pack_state *st, void *data)
{
    (void)st, (void)data;
    return run_interrupted() ? 1 : 0;
}

static int make(job *j, const char *dir, char *err, size_t len)
{
    const uniax_job_view v = uniax_job_get();
    watch w = {.tty = isatty(STDOUT_FILENO), .last = grit_wall_now(), .progress = v.progress};
    uniax_job_specimen a[MAX_SPECIMENS] = {0}, b = {0};
    grit_uniax_specimen specs[MAX_SPECIMENS];
    grit_calibrate_result *r = calloc(1, sizeof *r);
    int rc = 0;
    char path[4300];
    if (!r) {
        snprintf(err, len, "out of memory");
        rc = -1;
        goto done;
    }
    double t[GRIT_CAL_FIGURES] = {cd.target_young, cd.target_poisson, cd.target_ft,
                                  isnan(cd.target_fc) ? cd.target_fc_ft * cd.target_ft : cd.target_fc, cd.target_gf};
    printf("grit calibrate: E %.4g GPa, nu %.4g, f_t %.4g MPa, f_c %.4g MPa (f_c/f_t %.3g), G_f %.4g J/m^3 within "
           "%.3g %%, on %d %s specimens; output in %s/\n",
           t[0] / 1e9, t[1], t[2] / 1e6, t[3] / 1e6, t[3] / t[2], t[4], 100 * cd.tolerance, sd.specimens,
           v.periodic ? "periodic" : "cut", j->out.value);
    fflush(stdout);
    grit_pack_opts po = grit_default_pack_opts();
    po.monitor = pack_monitor;
    po.monitor_every = 100;
    printf("  specimens    ");
    for (int k = 0; k < sd.specimens; k++) {
        if ((rc = uniax_job_make_specimen(seed_of(&v, k), &po, &a[k], err, len))) goto done;
        specs[k] = a[k].spec;
        printf(" %d spheres (seed %d)%s", a[k].packing->n, seed_of(&v, k), k + 1 < sd.specimens ? "," : "");
        fflush(stdout);
    }
    if (sd.fresh && (rc = uniax_job_make_specimen(fresh_seed(&v), &po, &b, err, len))) goto done;
    if (sd.fresh) printf("; fresh: %d spheres (seed %d)", b.packing->n, fresh_seed(&v));
    printf("\n");
    snprintf(path, sizeof path, "%s/calibration.csv", dir);
    if (!(w.csv = fopen(path, "w"))) {
        snprintf(err, len, "cannot write '%s'", path);
        rc = -1;
        goto done;
    }
    /* units in the header as in every CSV of grit ("" dimensionless) */
    static const char *const param_units[GRIT_CAL_PARAMS] = {"[Pa]", "", "", "[Pa]", "", ""};
    static const char *const figure_units[GRIT_CAL_FIGURES] = {"[Pa]", "", "[Pa]", "[Pa]", "[J/m^3]"};
    fprintf(w.csv, "stage,index");
    for (int k = 0; k < GRIT_CAL_PARAMS; k++) fprintf(w.csv, ",%s%s", grit_calibrate_param_name(k), param_units[k]);
    for (int k = 0; k < GRIT_CAL_FIGURES; k++)
        fprintf(w.csv, ",%s%s", grit_calibrate_figure_name(k), figure_units[k]);
    for (int k = 0; k < GRIT_CAL_FIGURES; k++) fprintf(w.csv, ",error_%s", grit_calibrate_figure_name(k));
    fprintf(w.csv, ",worst,cpu[s]\n");
    grit_uniax_opts uo = grit_default_uniax_opts();
    uo.monitor = test_monitor;
    uo.monitor_data = &w;
    uo.monitor_every = 10;
    grit_calibrate_opts co = grit_default_calibrate_opts();
    co.periodic = v.periodic;
    co.monitor = run_monitor;
    co.monitor_data = &w;
    co.uniax = &uo;
    const double t0 = grit_wall_now();
    if ((rc = grit_calibrate(specs, sd.specimens, sd.fresh ? &b.spec : NULL, v.test, &cd, &co, r, err, len))) goto done;
    if (w.csv_failed) {
        snprintf(err, len, "cannot write '%s/calibration.csv'", dir);
        rc = -1;
        goto done;
    }
    if ((rc = write_json(dir, r, &v, err, len)) || (rc = write_material(dir, j->out.value, r, &v, err, len))) goto done;
    const grit_calibrate_run *best = &r->runs[r->best];
    printf("grit calibrate: %s after %d runs (%.3g s CPU, %.3g s wall): the %s run %d, worst error %.2f %%\n",
           r->converged ? "converged" : "NOT converged within max_runs", r->n_runs, r->cpu, grit_wall_now() - t0,
           stage_name(best->stage), best->index, 100 * best->worst);
    const grit_concretemat_def *m = &r->material;
    printf("  material      young=%.6g kt_div_kn=%.6g eps_crack_onset=%.6g sigma_t=%.6g rel_ductility=%.6g "
           "tan_phi=%.6g\n",
           m->young, m->kt_div_kn, m->eps_crack_onset, m->sigma_t, m->rel_ductility, m->tan_phi);
    if (r->have_fresh)
        printf("  fresh         seed %d: worst error %.2f %% (%s fresh_tolerance %.3g %%)\n", fresh_seed(&v),
               100 * r->fresh.worst, r->fresh_passed ? "within" : "NOT within", 100 * cd.fresh_tolerance);
    if (r->converged)
        printf("  use it        grit run uniax @%s/material.txt%s\n", j->out.value, v.periodic ? " variant=periodic" : "");
    else {
        snprintf(err, len, "the calibration did not reach tolerance %g in %d full runs (best: %.2f %%); its files are "
                           "written",
                 cd.tolerance, cd.max_runs, 100 * best->worst);
        rc = -1;
    }
done:
    if (w.csv && fclose(w.csv) && !rc) {
        snprintf(err, len, "cannot write '%s/calibration.csv'", dir);
        rc = -1;
    }
    free(r);
    for (int k = 0; k < MAX_SPECIMENS; k++) uniax_job_specimen_free(&a[k]);
    uniax_job_specimen_free(&b);
    uniax_job_release();
    if (rc && run_interrupted()) return 1;
    return rc ? -1 : 0;
}

const preproc preproc_calibrate = {
    "calibrate",
    "calibration of the concrete model: the ConcreteMat parameters (young, kt_div_kn, eps_crack_onset, sigma_t, "
    "rel_ductility, tan_phi) for target E, nu, f_t, f_c and G_f, by runs of the uniaxial test "
    "(also: grit calibrate)",
    init,
    NULL,
    NULL,
    check,
    make,
    NULL,
};
