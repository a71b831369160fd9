/* The uniaxial test of the concrete model's example specimen, timed
 * (docs/concrete.md, "Uniaxial test and calibration"; bench/results/).
 *
 *   grit_bench_uniax [--yade] [--radius R] [--n N] [--seed S] [--pack-tan-phi T]
 *                    [--pack-pressure P] [--rate-t R] [--rate-c R] [--dt-safety F]
 *                    [--tests both|tension|compression] [--csv PREFIX] [key=value ...]
 *
 * Packs a periodic cell (not timed), cuts the hyperboloid of the example,
 * runs the test on one core and prints the results, the CPU time of the
 * two runs and the particle-steps per second. --yade selects the
 * Yade-compatible switches (ref_length=distance, yield_surface=lin,
 * eps_soft=1); key=value sets any parameter of the groups uniax,
 * concretemat and cpm. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grit/grit.h"

static void save_curve(const char *prefix, const char *name, const grit_uniax_curve *c)
{
    char path[512];
    snprintf(path, sizeof path, "%s-%s.csv", prefix, name);
    FILE *f = fopen(path, "w");
    if (!f) return;
    fprintf(f, "strain,stress,time\n");
    for (int i = 0; i < c->n; i++) fprintf(f, "%.9g,%.9g,%.9g\n", c->strain[i], c->stress[i], c->time[i]);
    fclose(f);
}

int main(int argc, char **argv)
{
    grit_pack_def pd = grit_default_pack_def();
    pd.radius = 3.5e-3;
    grit_clip_def cd = grit_default_clip_def();
    cd.shape = GRIT_CLIP_HYPERBOLOID;
    grit_uniax_def ud = grit_default_uniax_def();
    grit_concretemat_def md = grit_default_concretemat_def();
    grit_cpm_def law = grit_default_cpm_def();
    const char *csv = NULL, *save = NULL;
    char err[1024];
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : "";
        if (!strcmp(a, "--yade")) {
            law.ref_length = GRIT_REF_LENGTH_DISTANCE;
            law.yield_surface = GRIT_YIELD_LIN;
            law.eps_soft = 1;
        } else if (!strcmp(a, "--radius")) pd.radius = atof(v), i++;
        else if (!strcmp(a, "--n")) pd.n = atoi(v), i++;
        else if (!strcmp(a, "--seed")) pd.seed = atoi(v), i++;
        else if (!strcmp(a, "--pack-tan-phi")) pd.tan_phi = atof(v), i++;
        else if (!strcmp(a, "--pack-pressure")) pd.pressure = atof(v), i++;
        else if (!strcmp(a, "--rate-t")) ud.rate_tension = atof(v), i++;
        else if (!strcmp(a, "--rate-c")) ud.rate_compression = atof(v), i++;
        else if (!strcmp(a, "--dt-safety")) ud.dt_safety = atof(v), i++;
        else if (!strcmp(a, "--csv")) csv = v, i++;
        else if (!strcmp(a, "--save-packing")) save = v, i++;
        else if (!strcmp(a, "--tests")) {
            if (grit_param_set_text(&grit_uniax_param_table, &ud, "tests", v, err, sizeof err)) return puts(err), 2;
            i++;
        } else if (strchr(a, '=')) {
            char key[64];
            snprintf(key, sizeof key, "%.*s", (int)(strchr(a, '=') - a), a);
            const char *val = strchr(a, '=') + 1;
            if (grit_param_find(&grit_uniax_param_table, key)) {
                if (grit_param_set_text(&grit_uniax_param_table, &ud, key, val, err, sizeof err)) return puts(err), 2;
            } else if (grit_param_find(&grit_concretemat_param_table, key)) {
                if (grit_param_set_text(&grit_concretemat_param_table, &md, key, val, err, sizeof err))
                    return puts(err), 2;
            } else if (grit_param_find(&grit_cpm_param_table, key)) {
                if (grit_param_set_text(&grit_cpm_param_table, &law, key, val, err, sizeof err)) return puts(err), 2;
            } else if (grit_param_find(&grit_pack_param_table, key)) {
                if (grit_param_set_text(&grit_pack_param_table, &pd, key, val, err, sizeof err)) return puts(err), 2;
            } else return fprintf(stderr, "unknown key %s\n", key), 2;
        } else return fprintf(stderr, "unknown argument %s\n", a), 2;
    }
    grit_packing cell, bone;
    grit_region *g;
    if (grit_pack_dense(&pd, NULL, &cell, err, sizeof err) || grit_region_create(&cd, NULL, &g, err, sizeof err) ||
        grit_packing_clip(&cell, g, true, cd.tile_shift, &bone, err, sizeof err))
        return fprintf(stderr, "%s\n", err), 1;
    if (save && grit_packing_save(&bone, save, err, sizeof err)) return fprintf(stderr, "%s\n", err), 1;
    grit_uniax_specimen sp = {&bone, GRIT_MAT_CONCRETEMAT, &md, &law, g};
    grit_uniax_result r;
    if (grit_uniax_run(&sp, &ud, NULL, &r, err, sizeof err)) return fprintf(stderr, "%s\n", err), 1;
    const double cpu = r.cpu_tension + r.cpu_compression;
    const long steps = r.steps_tension + r.steps_compression;
    printf("spheres %d (cell %d, solid fraction %.4f), supports %d/%d, bonds %d, per sphere %.2f (interior %.2f, %d "
           "spheres), area %.4g m^2, l0 %.4g m, dt %.4g s\n",
           r.spheres, cell.n, cell.solid_fraction, r.support_neg, r.support_pos, r.bonds, r.bonds_per_sphere,
           r.bonds_per_sphere_interior, r.interior, r.area, r.length, r.dt);
    printf("E %.4g GPa (tension %.4g, compression %.4g, regression %.4g), nu %.4f\n", r.young / 1e9,
           r.young_tension / 1e9, r.young_compression / 1e9, r.young_regression / 1e9, r.poisson);
    printf("ft %.4g MPa at %.4g, fc %.4g MPa at %.4g, fc/ft %.3f, Gf %.4g J/m^3, kN Gf/ft^2 %.3f\n", r.ft / 1e6,
           r.eps_ft, r.fc / 1e6, r.eps_fc, r.fc_ft, r.gf, r.gf_norm);
    printf("steps %ld + %ld (stops %d, %d), CPU %.3f + %.3f s, %.4g particle-steps/s\n", r.steps_tension,
           r.steps_compression, r.stop_tension, r.stop_compression, r.cpu_tension, r.cpu_compression,
           (double)steps * r.spheres / cpu);
    if (csv) save_curve(csv, "tension", &r.tension), save_curve(csv, "compression", &r.compression);
    grit_uniax_result_free(&r);
    grit_region_destroy(g);
    grit_packing_free(&cell), grit_packing_free(&bone);
    return 0;
}
