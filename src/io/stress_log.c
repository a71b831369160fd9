/* grit: the stress and strain of a periodic cell over time, as CSV (one row
 * per call), for grit.plot's stress kind and for the user's own analysis. */
#include <stdio.h>
#include <stdlib.h>

#include "core/scene_impl.h"
#include "grit/cell.h"
#include "grit/io.h"
#include "grit/stress.h"
#include "io/atomic_file.h"

struct grit_stress_log {
    grit_afile f;
};

static void stress_header(char *buf, size_t len)
{
    static const char *const xyz = "xyz";
    size_t n = (size_t)snprintf(buf, len,
                                "step,time[s],volume[m^3],p[Pa],s_xx[Pa],s_yy[Pa],s_zz[Pa],s_yz[Pa],s_xz[Pa],s_xy[Pa]");
    /* F is dimensionless: no unit */
    for (int m = 0; m < 2; m++)
        for (int i = 0; i < 3; i++)
            for (int j = 0; j < 3 && n < len; j++)
                n += (size_t)snprintf(buf + n, len - n, ",%c_%c%c%s", m ? 'L' : 'F', xyz[i], xyz[j], m ? "[1/s]" : "");
    if (n < len) snprintf(buf + n, len - n, "\n");
}

static grit_stress_log *log_open(grit_scene *s, const char *path, bool cont)
{
    if (!grit_is_periodic(s)) {
        grit_fail(s, GRIT_ESTATE, "stress log '%s': the scene has no periodic cell (grit_cell_set)", path);
        return NULL;
    }
    grit_stress_log *l = calloc(1, sizeof *l);
    if (!l) {
        grit_fail(s, GRIT_ENOMEM, "out of memory opening '%s'", path);
        return NULL;
    }
    char head[1024];
    stress_header(head, sizeof head);
    if (cont ? grit_afile_continue(&l->f, path, ".partial", head, grit_step_count(s), s->err, sizeof s->err)
             : grit_afile_open(&l->f, path, ".partial", s->err, sizeof s->err)) {
        free(l);
        return NULL;
    }
    if (!cont) fputs(head, l->f.f);
    return l;
}

grit_stress_log *grit_stress_log_open(grit_scene *s, const char *path) { return log_open(s, path, false); }

grit_stress_log *grit_stress_log_continue(grit_scene *s, const char *path) { return log_open(s, path, true); }

int grit_stress_log_row(grit_stress_log *l, const grit_scene *s)
{
    double sig[3][3], F[3][3], L[3][3];
    if (grit_stress(s, sig) || grit_cell_get_trsf(s, F) || grit_cell_get_grad_v(s, L)) return GRIT_ESTATE;
    FILE *f = l->f.f;
    fprintf(f, "%ld,%.17g,%.17g,%.17g", grit_step_count(s), grit_time(s), grit_cell_volume(s),
            0.0 - (sig[0][0] + sig[1][1] + sig[2][2]) / 3); /* 0 - x: +0 when there is no stress */
    fprintf(f, ",%.17g,%.17g,%.17g,%.17g,%.17g,%.17g", sig[0][0], sig[1][1], sig[2][2], sig[1][2], sig[0][2],
            sig[0][1]);
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) fprintf(f, ",%.17g", F[i][j]);
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) fprintf(f, ",%.17g", L[i][j]);
    fputc('\n', f);
    fflush(f); /* see grit_energy_log_row */
    if (ferror(f)) return grit_fail((grit_scene *)s, GRIT_EIO, "cannot write '%s'", l->f.tmp);
    return GRIT_OK;
}

int grit_stress_log_close(grit_stress_log *l, grit_scene *s, bool commit)
{
    if (!l) return GRIT_OK;
    int rc = GRIT_OK;
    if (commit) {
        if (grit_afile_commit(&l->f, s->err, sizeof s->err)) rc = GRIT_EIO;
    } else
        grit_afile_abort(&l->f);
    free(l);
    return rc;
}
