/* grit run uniax: the uniaxial tension/compression test of a concrete
 * specimen (include/grit/uniax.h, docs/concrete.md "Uniaxial test and
 * calibration").
 *
 * The specimen is a dense packing cut to a shape (the groups "packing" and
 * "clip", or a packing file), of a ConcreteMat (group "material") under the
 * law cpm (its group). The library pulls it, builds it again and crushes
 * it; this file adds the progress lines, the VTK frames of both runs, the
 * output files (results.json, curves.csv, the figure uniax.png through
 * grit.plot) and the table of confinements. With variant=periodic the
 * packed periodic cell itself is strained instead (no supports). Nothing
 * is stepped by `grit run` itself: like `pack`, it makes its own output. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <errno.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "uniax_job.h"
#include "grit/io.h"
#include "grit/pack.h"
#include "grit/uniax.h"
#include "core/clock.h"

/* clang-format off */
#define UNIAX_PACKING_PARAMS(X) \
    X(int, n, 2000, "-", 8, 1e7, 0, NULL, \
      "spheres in the periodic cell that is compacted and cut to the shape (without packing=FILE)") \
    X(double, radius, 3.5e-3, "m", 0.0, INFINITY, GRIT_P_MIN_EXCL, NULL, "sphere radius") \
    X(double, spread, 0.0, "-", 0.0, 1.0, GRIT_P_MAX_EXCL, NULL, \
      "radii uniform in radius*(1-spread) .. radius*(1+spread); 0: monodisperse") \
    X(int, seed, 1, "-", 0, 2147483647, 0, NULL, "random seed of the packing") \
    X(double, pack_tan_phi, 0.5463, "-", 0.0, INFINITY, 0, NULL, \
      "friction during the compaction; the default, tan(0.5 rad), makes the looser packing of the model " \
      "author's example (0: the densest)") \
    X(double, pack_pressure, 3.33e-3, "-", 0.0, 0.1, GRIT_P_MIN_EXCL, NULL, \
      "mean pressure at the end of the compaction relative to the spheres' stiffness (pressure / young of " \
      "the packing; sets the overlaps, which the bonds take as stress-free)")

#define UNIAX_OUTPUT_PARAMS(X) \
    X(choice, variant, 0, "-", 0, 1, 0, "specimen|periodic", \
      "specimen: the packing cut to the shape, strained by its supports; periodic: the packed periodic cell " \
      "itself, strained by its velocity gradient (no boundary)") \
    X(double, progress, 5.0, "s", 0.0, INFINITY, 0, NULL, \
      "seconds between progress lines when stdout is not a terminal (0: none)") \
    X(int, vtk_every, 2000, "steps", -1, 2e9, 0, NULL, \
      "a VTK frame of the spheres and contacts (with their damage) every that many steps of each run; -1: none") \
    X(flag, plot, true, "-", 0, 1, 0, NULL, "draw uniax.png (both curves) through python3 -m grit.plot")
/* clang-format on */

typedef struct packing_def {
    UNIAX_PACKING_PARAMS(GRIT_PARAM_FIELD)
} packing_def;
typedef struct output_def {
    UNIAX_OUTPUT_PARAMS(GRIT_PARAM_FIELD)
} output_def;

#define PACKING_INFO(...) GRIT_PARAM_INFO(packing_def, __VA_ARGS__)
static const grit_param_info packing_params[] = {UNIAX_PACKING_PARAMS(PACKING_INFO)};
static const grit_param_table packing_table = {"packing", packing_params,
                                               (int)(sizeof packing_params / sizeof packing_params[0])};
#define OUTPUT_INFO(...) GRIT_PARAM_INFO(output_def, __VA_ARGS__)
static const grit_param_info output_params[] = {UNIAX_OUTPUT_PARAMS(OUTPUT_INFO)};
static const grit_param_table output_table = {"output", output_params,
                                              (int)(sizeof output_params / sizeof output_params[0])};
/* grit calibrate: the variant and the progress lines (its output is its own), periodic by default */
static const grit_param_table calibrate_output_table = {"output", output_params, 2};

enum { MAX_CONF = 32, MONITOR_EVERY = 10 };

static grit_uniax_def ud;
static grit_concretemat_def md;
static grit_cpm_def law;
static packing_def pk;
static grit_clip_def cl;
static output_def po;
static text_param packing_text = {"packing", NULL,
                                  "a packing file (grit run pack's packing.csv, grit_packing_save): a periodic cell "
                                  "is cut to the shape, any other packing is the specimen as it is",
                                  NULL};
static text_param stl_text = {"stl", NULL, "shape=stl: the closed STL solid to cut the packing to", NULL};
static text_param conf_text = {"confinements", NULL,
                               "a list of confinements iso_prestress (Pa, <= 0), e.g. 0,-20e6,-50e6: one test "
                               "each, compression only when confined; writes confined.csv",
                               NULL};
static struct {
    grit_packing file;
    bool have_file;
    grit_region *region;
    double conf[MAX_CONF];
    int n_conf;
} ck;

void uniax_job_init(job *j, bool calibrate)
{
    ud = grit_default_uniax_def();
    md = grit_default_concretemat_def();
    law = grit_default_cpm_def();
    pk = (packing_def){UNIAX_PACKING_PARAMS(GRIT_PARAM_DEFAULT)};
    cl = grit_default_clip_def();
    cl.shape = GRIT_CLIP_HYPERBOLOID; /* its defaults are the example's dog bone */
    po = (output_def){UNIAX_OUTPUT_PARAMS(GRIT_PARAM_DEFAULT)};
    memset(&ck, 0, sizeof ck);
    job_add_group(j, "uniax", &grit_uniax_param_table, &ud);
    job_add_group(j, "material (ConcreteMat)", &grit_concretemat_param_table, &md);
    job_add_group(j, "law cpm", &grit_cpm_param_table, &law);
    job_add_group(j, "packing", &packing_table, &pk);
    job_add_text(j, "packing", &packing_text);
    job_add_group(j, "clip", &grit_clip_param_table, &cl);
    job_add_text(j, "clip", &stl_text);
    if (calibrate) {
        po.variant = 1;
        job_add_group(j, "output", &calibrate_output_table, &po);
        return;
    }
    job_add_group(j, "output", &output_table, &po);
    job_add_text(j, "output", &conf_text);
}
static void init(job *j) { uniax_job_init(j, false); }

static grit_pack_def pack_def_seed(int seed)
{
    grit_pack_def d = grit_default_pack_def();
    d.n = pk.n;
    d.radius = pk.radius;
    d.spread = pk.spread;
    d.seed = seed;
    d.tan_phi = pk.pack_tan_phi;
    d.pressure = pk.pack_pressure * d.young;
    return d;
}
static grit_pack_def pack_def(void) { return pack_def_seed(pk.seed); }

static int parse_confinements(const char *text, char *err, size_t len)
{
    ck.n_conf = 0;
    for (const char *p = text; *p;) {
        char *end;
        const double c = strtod(p, &end);
        if (end == p || (*end != ',' && *end != '\0') || !isfinite(c) || c > 0 || (*end && !end[1]))
            return snprintf(err, len,
                            "parameter 'confinements' = '%s' is not a list of confinements <= 0 (Pa), e.g. "
                            "0,-20e6,-50e6",
                            text),
                   -1;
        if (ck.n_conf == MAX_CONF)
            return snprintf(err, len, "parameter 'confinements' has more than %d values", MAX_CONF), -1;
        ck.conf[ck.n_conf++] = c;
        p = *end ? end + 1 : end;
    }
    return 0;
}

int uniax_job_check(job *j, char *err, size_t len)
{
    (void)j;
    if (conf_text.value && parse_confinements(conf_text.value, err, len)) return -1;
    const grit_uniax_specimen spec = {NULL, GRIT_MAT_CONCRETEMAT, &md, &law, NULL};
    if (grit_uniax_check(&spec, &ud, err, len)) return -1;
    if (grit_param_validate(&packing_table, &pk, err, len) || grit_param_validate(&output_table, &po, err, len))
        return -1;
    if (md.iso_prestress != 0 && ud.tests == GRIT_UNIAX_BOTH && !ck.n_conf)
        return snprintf(err, len,
                        "parameter 'iso_prestress' = %g Pa with tests=both: a confined specimen is only compressed "
                        "(tests=compression)",
                        md.iso_prestress),
               -1;
    if (ck.n_conf && md.iso_prestress != 0)
        return snprintf(err, len, "parameter 'iso_prestress' = %g Pa and 'confinements' both set the confinement: give one",
                        md.iso_prestress),
               -1;
    if (packing_text.value) {
        if (grit_packing_load(packing_text.value, &ck.file, err, len)) return -1;
        ck.have_file = true;
        /* a specimen given as it is: its supports can be checked now */
        const grit_uniax_specimen given = {&ck.file, GRIT_MAT_CONCRETEMAT, &md, &law, NULL};
        if (!ck.file.periodic && po.variant == 0 && grit_uniax_check(&given, &ud, err, len)) {
            grit_packing_free(&ck.file);
            ck.have_file = false;
            return -1;
        }
    } else {
        const grit_pack_def d = pack_def();
        if (grit_pack_check(&d, NULL, err, len)) return -1;
    }
    const bool periodic_source = !ck.have_file || ck.file.periodic;
    if (po.variant == 1) {
        if (!periodic_source)
            return snprintf(err, len,
                            "parameter 'packing' = '%s' is not a periodic cell: variant=periodic strains a cell "
                            "(grit run pack's cell-packing.csv)",
                            packing_text.value),
                   -1;
        return 0;
    }
    if (!periodic_source) return 0; /* the specimen as it is: nothing to cut */
    if (cl.shape == GRIT_CLIP_NONE)
        return snprintf(err, len, "parameter 'shape' = none: a periodic cell must be cut to a specimen (or use "
                                  "variant=periodic)"),
               -1;
    if (stl_text.value && cl.shape != GRIT_CLIP_STL)
        return snprintf(err, len, "parameter 'stl' = '%s' needs shape=stl", stl_text.value), -1;
    if (grit_region_create(&cl, stl_text.value, &ck.region, err, len)) return -1;
    return 0;
}

/* ---- the runs -------------------------------------------------------------- */
typedef struct watch {
    const char *dir;
    bool tty, vtk, failed;
    double start, last;
    long last_frame, step;
    int run;
    grit_vtk_series *series;
    const char *save; /* the final state of the last run */
    bool last_run;
    char msg[4400];
} watch;

static const char *run_name(int run) { return run == GRIT_UNIAX_TENSION ? "tension" : "compression"; }

static int monitor(const grit_uniax_state *st, void *data)
{
    watch *w = data;
    w->step = st->step;
    if (st->run != w->run) { /* a new run */
        w->run = st->run;
        w->start = grit_wall_now();
        w->last_frame = -1;
        grit_vtk_series_destroy(w->series);
        w->series = NULL;
        if (w->vtk) {
            char path[4300];
            snprintf(path, sizeof path, "%s/vtk-%s", w->dir, run_name(st->run));
            if ((mkdir(path, 0777) && errno != EEXIST) || !(w->series = grit_vtk_series_create(path, GRIT_VTK_BINARY))) {
                snprintf(w->msg, sizeof w->msg, "cannot write VTK frames into '%s'", path);
                w->failed = true;
                return 1;
            }
        }
    }
    if (w->series && (st->stop || st->step == 0 || st->step - w->last_frame >= po.vtk_every)) {
        if (grit_vtk_series_write(w->series, st->scene)) {
            snprintf(w->msg, sizeof w->msg, "%s", grit_last_error(st->scene));
            w->failed = true;
            return 1;
        }
        w->last_frame = st->step;
    }
    if (st->stop && w->last_run && w->save && grit_save(st->scene, w->save)) {
        snprintf(w->msg, sizeof w->msg, "%s", grit_last_error(st->scene));
        w->failed = true;
        return 1;
    }
    const double t = grit_wall_now();
    const bool show = w->tty ? t - w->last >= 0.25 : po.progress > 0 && t - w->last >= po.progress;
    if (show || st->stop) {
        w->last = t;
        printf("%s%-11s step %-7ld strain %10.3e  stress %8.4g MPa (peak %.4g)  damage %.4f, %d cracked bonds  %d "
               "contacts  %.0f steps/s%s",
               w->tty ? "\r" : "", run_name(st->run), st->step, st->strain, st->stress / 1e6, st->peak / 1e6,
               st->mean_omega, st->cracked, st->contacts, st->step / fmax(t - w->start, 1e-9), w->tty ? "  " : "\n");
        if (st->stop && w->tty) putchar('\n');
        fflush(stdout);
    }
    return run_interrupted() ? 1 : 0;
}

static int pack_monitor(const grit_pack_state *st, void *data)
{
    watch *w = data;
    const double t = grit_wall_now();
    if (st->phase != GRIT_PACK_DONE && (w->tty ? t - w->last >= 0.25 : po.progress > 0 && t - w->last >= po.progress)) {
        w->last = t;
        printf("%spacking     step %-7ld pressure %.4g Pa  solid fraction %.4f  unbalanced %.3g%s", w->tty ? "\r" : "",
               st->step, st->pressure, st->solid_fraction, st->unbalanced, w->tty ? "   " : "\n");
        fflush(stdout);
    }
    return run_interrupted() ? 1 : 0;
}

static void json_num(FILE *f, const char *key, double v, bool comma)
{
    if (isfinite(v)) fprintf(f, "  \"%s\": %.17g%s\n", key, v, comma ? "," : "");
    else fprintf(f, "  \"%s\": null%s\n", key, comma ? "," : "");
}

static const char *stop_name(int s)
{
    static const char *const names[] = {"not run", "the stress fell below stop_tension/stop_compression of its peak",
                                        "the strain limit max_strain", "max_steps", "interrupted"};
    return s >= 0 && s <= 4 ? names[s] : "?";
}

static int write_results(const char *dir, const grit_uniax_result *r, char *err, size_t len)
{
    char path[4300];
    snprintf(path, sizeof path, "%s/results.json", dir);
    FILE *f = fopen(path, "w");
    if (!f) return snprintf(err, len, "cannot write '%s'", path), -1;
    fprintf(f, "{\n  \"variant\": \"%s\",\n  \"axis\": \"%c\",\n", po.variant ? "periodic" : "specimen", "xyz"[r->axis]);
    fprintf(f, "  \"spheres\": %d,\n  \"support_neg\": %d,\n  \"support_pos\": %d,\n  \"bonds\": %d,\n", r->spheres,
            r->support_neg, r->support_pos, r->bonds);
    fprintf(f, "  \"interior_spheres\": %d,\n", r->interior);
    json_num(f, "bonds_per_sphere", r->bonds_per_sphere, true);
    json_num(f, "bonds_per_sphere_interior", r->bonds_per_sphere_interior, true);
    json_num(f, "length", r->length, true);
    json_num(f, "area", r->area, true);
    json_num(f, "dt", r->dt, true);
    json_num(f, "confinement", r->confinement, true);
    json_num(f, "young", r->young, true);
    json_num(f, "young_tension", r->young_tension, true);
    json_num(f, "young_compression", r->young_compression, true);
    json_num(f, "young_regression", r->young_regression, true);
    json_num(f, "poisson", r->poisson, true);
    json_num(f, "ft", r->ft, true);
    json_num(f, "eps_ft", r->eps_ft, true);
    json_num(f, "fc", r->fc, true);
    json_num(f, "eps_fc", r->eps_fc, true);
    json_num(f, "fc_ft", r->fc_ft, true);
    json_num(f, "gf", r->gf, true);
    json_num(f, "gf_norm", r->gf_norm, true);
    fprintf(f, "  \"steps_tension\": %ld,\n  \"steps_compression\": %ld,\n", r->steps_tension, r->steps_compression);
    fprintf(f, "  \"stop_tension\": \"%s\",\n  \"stop_compression\": \"%s\",\n", stop_name(r->stop_tension),
            stop_name(r->stop_compression));
    json_num(f, "cpu_tension", r->cpu_tension, true);
    json_num(f, "cpu_compression", r->cpu_compression, false);
    fprintf(f, "}\n");
    if (fclose(f)) return snprintf(err, len, "cannot write '%s'", path), -1;
    return 0;
}

/* curves.csv: one row per point of every run (1 tension, 2 compression) of every confinement */
static int write_curves(FILE *f, double conf, const grit_uniax_result *r)
{
    const grit_uniax_curve *c[2] = {&r->tension, &r->compression};
    for (int k = 0; k < 2; k++)
        for (int i = 0; i < c[k]->n; i++)
            fprintf(f, "%.9g,%d,%.9g,%.9g,%.9g,%.9g,%.9g\n", conf, k ? GRIT_UNIAX_COMPRESSION : GRIT_UNIAX_TENSION, c[k]->strain[i],
                    c[k]->stress[i], c[k]->time[i], c[k]->omega[i], c[k]->lateral[i]);
    return ferror(f) ? -1 : 0;
}

static void summary(const grit_uniax_result *r, const grit_packing *spec, double wall)
{
    printf("grit run uniax: done\n");
    if (po.variant == 0)
        printf("  specimen      %d spheres (solid fraction %.4f), supports %d + %d along %c, %d bonds: %.2f per "
               "sphere, %.2f inside (%d spheres); section %.4g m^2, l0 %.4g m, dt %.4g s\n",
               r->spheres, spec->solid_fraction, r->support_neg, r->support_pos, "xyz"[r->axis], r->bonds,
               r->bonds_per_sphere, r->bonds_per_sphere_interior, r->interior, r->area, r->length, r->dt);
    else
        printf("  cell          %d spheres (solid fraction %.4f), strained along %c, %d bonds: %.2f per sphere, dt "
               "%.4g s\n",
               r->spheres, spec->solid_fraction, "xyz"[r->axis], r->bonds, r->bonds_per_sphere, r->dt);
    if (r->confinement != 0) printf("  confinement   %.4g MPa (iso_prestress, added to the stress)\n", r->confinement / 1e6);
    if (r->tension.n)
        printf("  tension       %ld steps, %.3g s CPU: f_t = %.4g MPa at strain %.4g; stopped: %s\n", r->steps_tension,
               r->cpu_tension, r->ft / 1e6, r->eps_ft, stop_name(r->stop_tension));
    if (r->compression.n)
        printf("  compression   %ld steps, %.3g s CPU: f_c = %.4g MPa at strain %.4g; stopped: %s\n",
               r->steps_compression, r->cpu_compression, r->fc / 1e6, r->eps_fc, stop_name(r->stop_compression));
    printf("  elastic       E = %.4g GPa (tension %.4g, compression %.4g), nu = %.4f\n", r->young / 1e9,
           r->young_tension / 1e9, r->young_compression / 1e9, r->poisson);
    if (r->tension.n) {
        if (isfinite(r->gf))
            printf("  fracture      G_f = %.4g J/m^3 (to %g f_t), k_N G_f / f_t^2 = %.3f", r->gf, ud.gf_fraction,
                   r->gf_norm);
        else
            printf("  fracture      G_f not measured: the tension curve stops above %g f_t (stop_tension, max_strain)",
                   ud.gf_fraction);
        if (isfinite(r->fc_ft)) printf("; f_c / f_t = %.3f", r->fc_ft);
        putchar('\n');
    }
    const double ps = (double)(r->steps_tension + r->steps_compression) * r->spheres;
    printf("  time          %.3g s wall; %.3g particle-steps/s over the runs\n", wall,
           ps / fmax(r->cpu_tension + r->cpu_compression, 1e-9));
}

static int make(job *j, const char *dir, char *err, size_t len)
{
    (void)j;
    watch w = {.dir = dir, .tty = isatty(STDOUT_FILENO), .start = grit_wall_now(), .run = -1, .vtk = po.vtk_every > 0,
               .save = j->save.value};
    w.last = w.start;
    const double t0 = grit_wall_now();
    grit_packing cell = {0}, cut = {0};
    const grit_packing *source = ck.have_file ? &ck.file : &cell;
    int rc = 0;
    char path[4300];
    printf("grit run uniax: %s, output in %s/\n",
           ck.have_file ? packing_text.value : "packing a periodic cell", j->out.value);
    fflush(stdout);
    if (!ck.have_file) {
        const grit_pack_def d = pack_def();
        grit_pack_opts o = grit_default_pack_opts();
        o.monitor = pack_monitor;
        o.monitor_data = &w;
        o.monitor_every = 100;
        if ((rc = grit_pack_dense(&d, &o, &cell, err, len))) goto done;
        if (w.tty) printf("\r%*s\r", 100, "");
    }
    const grit_packing *spec = source;
    if (po.variant == 0 && source->periodic) {
        if ((rc = grit_packing_clip(source, ck.region, cl.recentre, cl.tile_shift, &cut, err, len))) goto done;
        spec = &cut;
    }
    snprintf(path, sizeof path, "%s/packing.csv", dir);
    if ((rc = grit_packing_save(spec, path, err, len))) goto done;
    snprintf(path, sizeof path, "%s/curves.csv", dir);
    FILE *curves = fopen(path, "w");
    FILE *table = NULL;
    if (!curves) {
        rc = -1;
        snprintf(err, len, "cannot write '%s'", path);
        goto done;
    }
    fprintf(curves, "confinement[Pa],run,strain,stress[Pa],time[s],omega,lateral\n");
    if (ck.n_conf) {
        snprintf(path, sizeof path, "%s/confined.csv", dir);
        if (!(table = fopen(path, "w"))) {
            fclose(curves);
            rc = -1;
            snprintf(err, len, "cannot write '%s'", path);
            goto done;
        }
        /* stop: grit_uniax_stop (1 the fall, 2 the strain limit, 3 max_steps) */
        fprintf(table, "confinement[Pa],fc[Pa],eps_fc,young[Pa],steps,stop\n");
    }
    const int n_tests = ck.n_conf ? ck.n_conf : 1;
    for (int k = 0; k < n_tests && !rc; k++) {
        grit_concretemat_def m = md;
        grit_uniax_def d = ud;
        if (ck.n_conf) {
            m.iso_prestress = ck.conf[k];
            if (m.iso_prestress != 0) d.tests = GRIT_UNIAX_COMPRESSION;
            printf("grit run uniax: confinement %g MPa (%d of %d)\n", m.iso_prestress / 1e6, k + 1, n_tests);
        }
        w.vtk = po.vtk_every > 0 && k == 0;
        w.last_run = k == n_tests - 1;
        w.run = -1;
        const grit_uniax_specimen sp = {spec, GRIT_MAT_CONCRETEMAT, &m, &law, spec == &cut ? ck.region : NULL};
        grit_uniax_opts o = grit_default_uniax_opts();
        o.monitor = monitor;
        o.monitor_data = &w;
        o.monitor_every = MONITOR_EVERY;
        grit_uniax_result r;
        rc = po.variant ? grit_uniax_periodic_run(&sp, &d, &o, &r, err, len) : grit_uniax_run(&sp, &d, &o, &r, err, len);
        grit_vtk_series_destroy(w.series);
        w.series = NULL;
        if (rc) break;
        if (write_curves(curves, m.iso_prestress, &r)) rc = -1, snprintf(err, len, "cannot write curves.csv");
        if (!rc && table)
            fprintf(table, "%.9g,%.9g,%.9g,%.9g,%ld,%d\n", m.iso_prestress, r.fc, r.eps_fc, r.young_compression,
                    r.steps_compression, r.stop_compression);
        if (!rc && k == 0) rc = write_results(dir, &r, err, len);
        if (!rc && (k == 0 || ck.n_conf)) {
            if (k == 0) summary(&r, spec, grit_wall_now() - t0);
            else printf("  f_c = %.4g MPa at strain %.4g, E = %.4g GPa\n", r.fc / 1e6, r.eps_fc, r.young_compression / 1e9);
        }
        grit_uniax_result_free(&r);
    }
    if (fclose(curves) && !rc) rc = -1, snprintf(err, len, "cannot write curves.csv");
    if (table && fclose(table) && !rc) rc = -1, snprintf(err, len, "cannot write confined.csv");
    if (!rc && po.plot) {
        char csv[4300], png[4300];
        snprintf(csv, sizeof csv, "%s/curves.csv", dir);
        snprintf(png, sizeof png, "%s/uniax.png", dir);
        const char *args[] = {csv, "-o", png};
        if (plot_figure(3, args)) printf("  figure        not made (python3 -m grit.plot failed: matplotlib?); run grit plot %s/curves.csv\n", j->out.value);
    }
done:
    if (rc && w.failed) snprintf(err, len, "%s", w.msg);
    else if (rc && run_interrupted() && w.run < 0) snprintf(err, len, "while packing");
    else if (rc && run_interrupted()) snprintf(err, len, "at step %ld of the %s run", w.step, run_name(w.run));
    grit_vtk_series_destroy(w.series);
    grit_packing_free(&cell);
    grit_packing_free(&cut);
    if (ck.have_file) grit_packing_free(&ck.file);
    grit_region_destroy(ck.region);
    ck.region = NULL;
    ck.have_file = false;
    if (rc && run_interrupted() && !w.failed) return 1;
    return rc ? -1 : 0;
}

const preproc preproc_uniax = {
    "uniax",
    "the uniaxial tension/compression test of a concrete specimen (a dense packing cut to a dog bone), or of a "
    "periodic cell: E, nu, f_t, f_c, G_f",
    init,
    NULL,
    NULL,
    uniax_job_check,
    make,
    NULL,
};

/* ---- shared with grit calibrate (uniax_job.h) -------------------------------- */
uniax_job_view uniax_job_get(void)
{
    return (uniax_job_view){&ud, &md, &law, po.variant == 1, po.progress, po.plot, pk.seed,
                            ck.have_file ? packing_text.value : NULL};
}

int uniax_job_make_specimen(int seed, const grit_pack_opts *opts, uniax_job_specimen *out, char *err, size_t len)
{
    memset(out, 0, sizeof *out);
    const grit_packing *source = &out->cell;
    if (ck.have_file) {
        if (seed != pk.seed)
            return snprintf(err, len,
                            "a second specimen needs a packing made from a seed; packing='%s' is only one (leave "
                            "packing= out, or set fresh=false)",
                            packing_text.value),
                   -1;
        source = &ck.file;
    } else {
        const grit_pack_def d = pack_def_seed(seed);
        if (grit_pack_dense(&d, opts, &out->cell, err, len)) return -1;
    }
    out->packing = source;
    const grit_region *region = NULL;
    if (po.variant == 0 && source->periodic) {
        if (grit_packing_clip(source, ck.region, cl.recentre, cl.tile_shift, &out->cut, err, len)) {
            uniax_job_specimen_free(out);
            return -1;
        }
        out->packing = &out->cut;
        region = ck.region;
    }
    out->spec = (grit_uniax_specimen){out->packing, GRIT_MAT_CONCRETEMAT, &md, &law, region};
    return 0;
}

void uniax_job_specimen_free(uniax_job_specimen *s)
{
    grit_packing_free(&s->cell);
    grit_packing_free(&s->cut);
    memset(s, 0, sizeof *s);
}

void uniax_job_release(void)
{
    if (ck.have_file) grit_packing_free(&ck.file);
    grit_region_destroy(ck.region);
    ck.region = NULL;
    ck.have_file = false;
}
