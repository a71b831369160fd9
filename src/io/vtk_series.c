/* grit: a VTK time series -- one file per frame and a .pvd index per kind. */
#include <stdlib.h>
#include <string.h>

#include "core/scene_impl.h"
#include "grit/io.h"
#include "io/atomic_file.h"

typedef int (*write_fn)(const grit_scene *, const char *, grit_vtk_format);

static const struct {
    const char *name;
    write_fn write;
} kinds[] = {
    {"particles", grit_vtk_write_particles},
    {"contacts", grit_vtk_write_contacts},
    {"shapes", grit_vtk_write_shapes},
};
enum { N_KINDS = sizeof kinds / sizeof kinds[0] };

typedef struct frame {
    long step;
    double time;
} frame;

struct grit_vtk_series {
    char *dir;
    grit_vtk_format fmt;
    frame *frames;
    int n, cap;
};

static void frame_file(char *buf, size_t len, const char *kind, long step)
{
    snprintf(buf, len, "%s_%09ld.vtp", kind, step);
}

grit_vtk_series *grit_vtk_series_create(const char *dir, grit_vtk_format fmt)
{
    grit_vtk_series *v = calloc(1, sizeof *v);
    if (!v || !(v->dir = strdup(dir))) {
        free(v);
        return NULL;
    }
    v->fmt = fmt;
    return v;
}

/* The frames of DIR/particles.pvd as grit_vtk_series_write wrote it: one
 * <DataSet timestep="T" ... file="particles_STEP.vtp"/> a line. */
static int read_index(grit_vtk_series *v, grit_scene *s, long last_step)
{
    char path[4096], line[1024];
    snprintf(path, sizeof path, "%s/particles.pvd", v->dir);
    FILE *f = fopen(path, "r");
    if (!f) return GRIT_OK;
    int rc = GRIT_OK, no = 0;
    while (fgets(line, sizeof line, f)) {
        no++;
        if (!strstr(line, "<DataSet")) continue;
        const char *t = strstr(line, "timestep=\""), *file = strstr(line, "file=\"particles_");
        char *end = NULL;
        frame fr = {0, 0};
        if (t && file) {
            fr.time = strtod(t + 10, &end);
            fr.step = strtol(file + 16, &end, 10);
        }
        if (!t || !file || strncmp(end, ".vtp\"", 5) != 0 || (v->n > 0 && fr.step <= v->frames[v->n - 1].step)) {
            rc = grit_fail(s, GRIT_EFORMAT, "cannot continue the VTK series: '%s' line %d is not a frame grit wrote",
                           path, no);
            break;
        }
        if (fr.step > last_step) {
            /* written after the checkpoint the run continues from: gone */
            char file_path[4200], name[128];
            for (int k = 0; k < N_KINDS; k++) {
                frame_file(name, sizeof name, kinds[k].name, fr.step);
                snprintf(file_path, sizeof file_path, "%s/%s", v->dir, name);
                remove(file_path);
            }
            continue;
        }
        if (v->n == v->cap) {
            int cap = v->cap ? 2 * v->cap : 64;
            frame *nf = realloc(v->frames, sizeof *nf * (size_t)cap);
            if (!nf) {
                rc = grit_fail(s, GRIT_ENOMEM, "out of memory reading '%s'", path);
                break;
            }
            v->frames = nf;
            v->cap = cap;
        }
        v->frames[v->n++] = fr;
    }
    fclose(f);
    return rc;
}

grit_vtk_series *grit_vtk_series_continue(const char *dir, grit_vtk_format fmt, grit_scene *s)
{
    grit_vtk_series *v = grit_vtk_series_create(dir, fmt);
    if (!v) {
        grit_fail(s, GRIT_ENOMEM, "out of memory continuing the VTK series in '%s'", dir);
        return NULL;
    }
    if (read_index(v, s, grit_step_count(s))) {
        grit_vtk_series_destroy(v);
        return NULL;
    }
    return v;
}

void grit_vtk_series_destroy(grit_vtk_series *v)
{
    if (!v) return;
    free(v->dir);
    free(v->frames);
    free(v);
}

int grit_vtk_series_frames(const grit_vtk_series *v) { return v->n; }

static int write_pvd(const grit_vtk_series *v, grit_scene *s, const char *kind)
{
    char path[4096], file[128];
    snprintf(path, sizeof path, "%s/%s.pvd", v->dir, kind);
    grit_afile a;
    if (grit_afile_open(&a, path, NULL, s->err, sizeof s->err)) return GRIT_EIO;
    fputs("<?xml version=\"1.0\"?>\n<VTKFile type=\"Collection\" version=\"0.1\">\n<Collection>\n", a.f);
    for (int i = 0; i < v->n; i++) {
        frame_file(file, sizeof file, kind, v->frames[i].step);
        fprintf(a.f, "<DataSet timestep=\"%.17g\" group=\"\" part=\"0\" file=\"%s\"/>\n", v->frames[i].time, file);
    }
    fputs("</Collection>\n</VTKFile>\n", a.f);
    return grit_afile_commit(&a, s->err, sizeof s->err) ? GRIT_EIO : GRIT_OK;
}

int grit_vtk_series_write(grit_vtk_series *v, const grit_scene *s)
{
    grit_scene *sm = (grit_scene *)s; /* only for the error message */
    const long step = grit_step_count(s);
    /* a second write at the same step replaces the frame */
    const bool again = v->n > 0 && v->frames[v->n - 1].step == step;
    if (!again && v->n == v->cap) {
        int cap = v->cap ? 2 * v->cap : 64;
        frame *f = realloc(v->frames, sizeof *f * (size_t)cap);
        if (!f) return grit_fail(sm, GRIT_ENOMEM, "out of memory adding a VTK frame");
        v->frames = f;
        v->cap = cap;
    }
    char path[4096], file[128];
    for (int k = 0; k < N_KINDS; k++) {
        frame_file(file, sizeof file, kinds[k].name, step);
        if ((size_t)snprintf(path, sizeof path, "%s/%s", v->dir, file) >= sizeof path)
            return grit_fail(sm, GRIT_EINVAL, "output folder name '%s' is too long", v->dir);
        int rc = kinds[k].write(s, path, v->fmt);
        if (rc) return rc;
    }
    /* the index lists a frame only once all its files are in place */
    v->frames[again ? v->n - 1 : v->n] = (frame){step, grit_time(s)};
    if (!again) v->n++;
    for (int k = 0; k < N_KINDS; k++) {
        int rc = write_pvd(v, sm, kinds[k].name);
        if (rc) return rc;
    }
    return GRIT_OK;
}
