/* grit run pack: a dense random sphere packing (include/grit/pack.h,
 * docs/packing.md), cut to a shape.
 *
 * The library compacts a periodic cell (parameters of the group "pack");
 * the cell is then tiled over the shape of the group "clip" and the spheres
 * entirely inside are kept. Unlike the other preprocessors nothing is
 * stepped afterwards: the compaction is the run. Output: packing.csv (the
 * cut spheres), cell-packing.csv (the periodic cell), stress.csv (the
 * compaction's pressure and cell over time), VTK files of both, and
 * restart.grit (the compacted periodic scene, for `grit run restart`). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "grit/io.h"
#include "grit/pack.h"
#include "core/clock.h"

/* clang-format off */
#define PACK_OUTPUT_PARAMS(X) \
    X(double, progress, 5.0, "s", 0.0, INFINITY, 0, NULL, \
      "seconds between progress lines when stdout is not a terminal (0: none)") \
    X(int, save_every, 100, "steps", -1, 2e9, 0, NULL, \
      "a row of stress.csv (the compaction) every that many steps; -1: no stress.csv") \
    X(flag, vtk, true, "-", 0, 1, 0, NULL, \
      "write cell.vtp, cell-contacts.vtp and packing.vtp (ParaView: Glyph the points with the array radius)")
/* clang-format on */

typedef struct pack_output_def {
    PACK_OUTPUT_PARAMS(GRIT_PARAM_FIELD)
} pack_output_def;

#define OUTPUT_INFO(...) GRIT_PARAM_INFO(pack_output_def, __VA_ARGS__)
static const grit_param_info output_params[] = {PACK_OUTPUT_PARAMS(OUTPUT_INFO)};
static const grit_param_table output_table = {"output", output_params,
                                              (int)(sizeof output_params / sizeof output_params[0])};

enum { MAX_SIZES = 64 };

static grit_pack_def pk;
static grit_clip_def cl;
static pack_output_def po;
static text_param psd_text = {"psd", NULL,
                              "discrete size distribution 'radius:mass_fraction,...' (m:-), e.g. 0.002:0.3,0.003:0.7; "
                              "replaces radius and spread",
                              NULL};
static text_param stl_text = {"stl", NULL, "shape=stl: the closed STL solid to cut the packing to", NULL};
static struct {
    double r[MAX_SIZES], w[MAX_SIZES];
    grit_psd psd;
    bool have_psd;
    grit_region *region;
} ck;

static void init(job *j)
{
    pk = grit_default_pack_def();
    cl = grit_default_clip_def();
    po = (pack_output_def){PACK_OUTPUT_PARAMS(GRIT_PARAM_DEFAULT)};
    ck.have_psd = false;
    ck.region = NULL;
    job_add_group(j, "pack", &grit_pack_param_table, &pk);
    job_add_text(j, "pack", &psd_text);
    job_add_group(j, "clip", &grit_clip_param_table, &cl);
    job_add_text(j, "clip", &stl_text);
    job_add_group(j, "output", &output_table, &po);
}

static int parse_psd(const char *text, char *err, size_t len)
{
    int n = 0;
    for (const char *p = text; *p;) {
        char *end;
        const double r = strtod(p, &end);
        if (end == p || *end != ':') goto bad;
        p = end + 1;
        const double w = strtod(p, &end);
        if (end == p || (*end != ',' && *end != '\0')) goto bad;
        if (n == MAX_SIZES)
            return snprintf(err, len, "parameter 'psd' has more than %d sizes", MAX_SIZES), -1;
        ck.r[n] = r;
        ck.w[n++] = w;
        p = *end ? end + 1 : end;
        if (*end && !*p) goto bad; /* a trailing comma */
    }
    ck.psd = (grit_psd){n, ck.r, ck.w};
    ck.have_psd = true;
    return 0;
bad:
    return snprintf(err, len,
                    "parameter 'psd' = '%s' is not a list of radius:mass_fraction pairs (e.g. 0.002:0.3,0.003:0.7)",
                    text),
           -1;
}

static double largest_radius(void)
{
    double r = pk.radius * (1 + pk.spread);
    if (ck.have_psd) {
        r = 0;
        for (int k = 0; k < ck.psd.n; k++) r = ck.psd.mass_fraction[k] > 0 ? fmax(r, ck.psd.radius[k]) : r;
    }
    return r;
}

static int check(job *j, char *err, size_t len)
{
    (void)j;
    if (psd_text.value && parse_psd(psd_text.value, err, len)) return -1;
    if (grit_pack_check(&pk, ck.have_psd ? &ck.psd : NULL, err, len)) return -1;
    if (cl.shape == GRIT_CLIP_NONE) {
        if (stl_text.value)
            return snprintf(err, len, "parameter 'stl' = '%s' needs shape=stl (shape is none)", stl_text.value), -1;
        /* the clip group is unused: still, a bad value is an error */
        return grit_param_validate(&grit_clip_param_table, &cl, err, len) ? -1 : 0;
    }
    if (stl_text.value && cl.shape != GRIT_CLIP_STL)
        return snprintf(err, len, "parameter 'stl' = '%s' needs shape=stl", stl_text.value), -1;
    if (grit_region_create(&cl, stl_text.value, &ck.region, err, len)) return -1;
    grit_vec3 lo, hi;
    grit_region_bounds(ck.region, &lo, &hi);
    const double w = fmin(hi.x - lo.x, fmin(hi.y - lo.y, hi.z - lo.z)), d = 2 * largest_radius();
    if (w <= d) {
        snprintf(err, len, "the region (%s) is %g m wide: no sphere of diameter %g m fits", grit_region_describe(ck.region),
                 w, d);
        grit_region_destroy(ck.region);
        ck.region = NULL;
        return -1;
    }
    return 0;
}

/* ---- the run --------------------------------------------------------------- */
typedef struct watch {
    const char *dir;
    grit_stress_log *log;
    long next_row, step;
    bool tty, failed, relaxing;
    double start, last;
    char msg[1024];
} watch;

static int monitor(const grit_pack_state *st, void *data)
{
    watch *w = data;
    w->step = st->step;
    if (po.save_every > 0 && !w->log && !w->failed) {
        char path[4300];
        snprintf(path, sizeof path, "%s/stress.csv", w->dir);
        if (!(w->log = grit_stress_log_open(st->scene, path))) {
            snprintf(w->msg, sizeof w->msg, "%s", grit_last_error(st->scene));
            w->failed = true;
            return 1;
        }
    }
    if (w->log && (st->step >= w->next_row || st->phase == GRIT_PACK_DONE)) {
        if (grit_stress_log_row(w->log, st->scene)) {
            snprintf(w->msg, sizeof w->msg, "%s", grit_last_error(st->scene));
            w->failed = true;
            return 1;
        }
        while (w->next_row <= st->step) w->next_row += po.save_every;
    }
    if (st->phase == GRIT_PACK_RELAX && !w->relaxing) {
        w->relaxing = true;
        printf("%sgrit run pack: compressed to %.4g Pa at step %ld (solid fraction %.4f); relaxing to %g Pa\n",
               w->tty ? "\r" : "", st->pressure, st->step, st->solid_fraction, pk.relax_pressure);
    }
    const double t = grit_wall_now();
    const bool show = w->tty ? t - w->last >= 0.25 : po.progress > 0 && t - w->last >= po.progress;
    if (show && st->phase != GRIT_PACK_DONE) {
        w->last = t;
        char tp[48] = "", tf[48] = "";
        if (pk.target == GRIT_PACK_SOLID_FRACTION) snprintf(tf, sizeof tf, " (target %g)", pk.solid_fraction);
        else snprintf(tp, sizeof tp, " (target %g)", st->phase == GRIT_PACK_RELAX ? pk.relax_pressure : pk.pressure);
        printf("%sstep %ld  pressure %.4g Pa%s  solid fraction %.4f%s  unbalanced %.3g (quiet below %g)  %d contacts  "
               "%.4g steps/s%s",
               w->tty ? "\r" : "", st->step, st->pressure, tp, st->solid_fraction, tf, st->unbalanced, pk.unbalanced,
               st->contacts, st->step / fmax(t - w->start, 1e-9), w->tty ? "   " : "\n");
        fflush(stdout);
    }
    return run_interrupted() ? 1 : 0;
}

/* A scene holding the spheres of p, for the VTK writer. */
static int write_vtk(const grit_packing *p, const char *path, char *err, size_t len)
{
    grit_scene *s = grit_scene_create(NULL);
    if (!s) return snprintf(err, len, "%s", grit_create_error()), -1;
    const grit_frictmat_def md = grit_default_frictmat_def();
    grit_sphere_def d = grit_default_sphere_def();
    int rc = d.material = grit_add_frictmat(s, &md);
    for (int i = 0; rc >= 0 && i < p->n; i++) {
        d.pos = p->center[i];
        d.radius = p->radius[i];
        rc = grit_add_sphere(s, &d);
    }
    if (rc >= 0) rc = grit_vtk_write_particles(s, path, GRIT_VTK_BINARY);
    if (rc < 0) snprintf(err, len, "%s", grit_last_error(s));
    grit_scene_destroy(s);
    return rc < 0 ? -1 : 0;
}

static int make(job *j, const char *dir, char *err, size_t len)
{
    watch w = {.dir = dir, .tty = isatty(STDOUT_FILENO), .start = grit_wall_now()};
    w.last = w.start;
    grit_pack_opts o = grit_default_pack_opts();
    grit_scene *s = NULL;
    o.psd = ck.have_psd ? &ck.psd : NULL;
    o.monitor = monitor;
    o.monitor_data = &w;
    o.monitor_every = po.save_every > 0 && po.save_every < 100 ? po.save_every : 100;
    o.keep_scene = &s;
    grit_packing cell = {0}, cut = {0};
    char path[4300];
    printf("grit run pack: %d spheres in a periodic cell, compressed to %s %g, output in %s/\n", pk.n,
           pk.target == GRIT_PACK_SOLID_FRACTION ? "the solid fraction" : "the pressure (Pa)",
           pk.target == GRIT_PACK_SOLID_FRACTION ? pk.solid_fraction : pk.pressure, j->out.value);
    fflush(stdout);
    int rc = grit_pack_dense(&pk, &o, &cell, err, len);
    const double wall = grit_wall_now() - w.start;
    if (w.tty) printf("\r%*s\r", 150, "");
    if (s && grit_stress_log_close(w.log, s, true) && !rc) {
        snprintf(err, len, "%s", grit_last_error(s));
        rc = -1;
    }
    if (rc) {
        grit_region_destroy(ck.region);
        ck.region = NULL;
        snprintf(path, sizeof path, "%s/restart.grit", dir); /* the state it stopped in, to look at */
        if (s) grit_save(s, path);
        grit_scene_destroy(s);
        if (w.failed) snprintf(err, len, "%s", w.msg);
        else if (run_interrupted()) snprintf(err, len, "at step %ld of the compaction", w.step);
        return run_interrupted() && !w.failed ? 1 : -1;
    }
    snprintf(path, sizeof path, "%s/cell-packing.csv", dir);
    if ((rc = grit_packing_save(&cell, path, err, len))) goto done;
    if (ck.region) {
        if ((rc = grit_packing_clip(&cell, ck.region, cl.recentre, cl.tile_shift, &cut, err, len))) goto done;
    }
    const grit_packing *result = ck.region ? &cut : &cell;
    snprintf(path, sizeof path, "%s/packing.csv", dir);
    if ((rc = grit_packing_save(result, path, err, len))) goto done;
    if (po.vtk) {
        snprintf(path, sizeof path, "%s/cell.vtp", dir);
        rc = grit_vtk_write_particles(s, path, GRIT_VTK_BINARY);
        snprintf(path, sizeof path, "%s/cell-contacts.vtp", dir);
        if (!rc) rc = grit_vtk_write_contacts(s, path, GRIT_VTK_BINARY);
        if (rc) snprintf(err, len, "%s", grit_last_error(s));
        snprintf(path, sizeof path, "%s/packing.vtp", dir);
        if (!rc && (rc = write_vtk(result, path, err, len))) goto done;
        if (rc) goto done;
    }
    snprintf(path, sizeof path, "%s/restart.grit", dir);
    if ((rc = grit_save(s, path)) || (j->save.value && (rc = grit_save(s, j->save.value)))) {
        snprintf(err, len, "%s", grit_last_error(s));
        goto done;
    }
    const double a = cbrt(cell.volume), ov = grit_packing_max_overlap(&cell, NULL, NULL);
    printf("grit run pack: done\n");
    printf("  cell          %d spheres, edge %.4g m: solid fraction %.4f, pressure %.4g Pa, unbalanced force %.3g, "
           "largest overlap %.3g of a radius\n",
           cell.n, a, cell.solid_fraction, cell.pressure, cell.unbalanced, ov);
    printf("  compaction    %ld steps in %.3g s (%.4g steps/s)\n", cell.steps, wall, cell.steps / fmax(wall, 1e-9));
    if (ck.region)
        printf("  packing       %d spheres in %s: volume %.6g m^3, solid fraction %.4f\n", cut.n,
               grit_region_describe(ck.region), cut.volume, cut.solid_fraction);
    else
        printf("  packing       the periodic cell itself (shape=none)\n");
done:
    if (rc) rc = -1;
    grit_packing_free(&cell);
    grit_packing_free(&cut);
    grit_region_destroy(ck.region);
    ck.region = NULL;
    grit_scene_destroy(s);
    return rc;
}

const preproc preproc_pack = {
    "pack",
    "a dense random packing: a periodic cell compacted to a pressure or solid fraction, tiled and cut to a shape "
    "(cuboid, cylinder, hyperboloid, STL solid)",
    init,
    NULL,
    NULL,
    check,
    make,
    NULL,
};
