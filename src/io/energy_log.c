/* grit: the time series of a run as CSV, one row per call: the energies in
 * the layout of the Python package's grit.records (so grit.plot reads them),
 * and beside them the step size and contact statistics. */
#include <stdlib.h>

#include "core/scene_impl.h"
#include "grit/io.h"
#include "io/atomic_file.h"

struct grit_energy_log {
    grit_afile energy, stats;
    bool has_stats;
};

grit_energy_log *grit_energy_log_open(grit_scene *s, const char *path, const char *stats_path)
{
    grit_energy_log *e = calloc(1, sizeof *e);
    if (!e) {
        grit_fail(s, GRIT_ENOMEM, "out of memory opening '%s'", path);
        return NULL;
    }
    /* a run may last hours: the names say they are incomplete until closed */
    if (grit_afile_open(&e->energy, path, ".partial", s->err, sizeof s->err)) {
        free(e);
        return NULL;
    }
    if (stats_path) {
        if (grit_afile_open(&e->stats, stats_path, ".partial", s->err, sizeof s->err)) {
            grit_afile_abort(&e->energy);
            free(e);
            return NULL;
        }
        e->has_stats = true;
        fputs("step,time,dt,contacts,potential_pairs,rebuilds,sorts\n", e->stats.f);
    }
    fputs("step,time", e->energy.f);
    for (int k = 0; k < GRIT_E_COUNT; k++) fprintf(e->energy.f, ",%s", grit_energy_name(k));
    fputs(",total,rel_error\n", e->energy.f);
    return e;
}

int grit_energy_log_row(grit_energy_log *e, const grit_scene *s)
{
    FILE *f = e->energy.f;
    fprintf(f, "%ld,%.17g", grit_step_count(s), grit_time(s));
    for (int k = 0; k < GRIT_E_COUNT; k++) fprintf(f, ",%.17g", grit_energy(s, k));
    fprintf(f, ",%.17g,%.17g\n", grit_energy_total(s), grit_energy_rel_error(s));
    if (ferror(f)) return grit_fail((grit_scene *)s, GRIT_EIO, "cannot write '%s'", e->energy.tmp);
    if (e->has_stats) {
        grit_stats st;
        grit_get_stats(s, &st);
        fprintf(e->stats.f, "%ld,%.17g,%.17g,%d,%d,%ld,%ld\n", grit_step_count(s), grit_time(s), grit_dt(s),
                grit_contact_count(s), st.potential_pairs, st.rebuilds, st.sorts);
        if (ferror(e->stats.f)) return grit_fail((grit_scene *)s, GRIT_EIO, "cannot write '%s'", e->stats.tmp);
    }
    return GRIT_OK;
}

int grit_energy_log_close(grit_energy_log *e, grit_scene *s, bool commit)
{
    if (!e) return GRIT_OK;
    int rc = GRIT_OK;
    if (commit) {
        if (grit_afile_commit(&e->energy, s->err, sizeof s->err)) rc = GRIT_EIO;
        if (e->has_stats && grit_afile_commit(&e->stats, s->err, sizeof s->err)) rc = GRIT_EIO;
    } else {
        grit_afile_abort(&e->energy);
        if (e->has_stats) grit_afile_abort(&e->stats);
    }
    free(e);
    return rc;
}
