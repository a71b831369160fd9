/* grit: the time series of a run as CSV, one row per call: the energies in
 * the layout of the Python package's grit.records (so grit.plot reads them),
 * and beside them the step size and contact statistics. */
#include <stdio.h>
#include <stdlib.h>

#include "core/scene_impl.h"
#include "grit/io.h"
#include "io/atomic_file.h"

struct grit_energy_log {
    grit_afile energy, stats;
    bool has_stats;
};

/* units in brackets after the names (grit.records reads both); counts have none */
static const char stats_header[] = "step,time[s],dt[s],contacts,potential_pairs,rebuilds,sorts\n";

static void energy_header(char *buf, size_t len)
{
    size_t n = (size_t)snprintf(buf, len, "step,time[s]");
    for (int k = 0; k < GRIT_E_COUNT && n < len; k++)
        n += (size_t)snprintf(buf + n, len - n, ",%s[J]", grit_energy_name(k));
    if (n < len) snprintf(buf + n, len - n, ",total[J],rel_error\n");
}

/* A new log, or (cont) the one an earlier run wrote in the same place, kept
 * up to the scene's step and continued. */
static grit_energy_log *log_open(grit_scene *s, const char *path, const char *stats_path, bool cont)
{
    grit_energy_log *e = calloc(1, sizeof *e);
    if (!e) {
        grit_fail(s, GRIT_ENOMEM, "out of memory opening '%s'", path);
        return NULL;
    }
    char head[2048];
    energy_header(head, sizeof head);
    const long k = grit_step_count(s);
    /* a run may last hours: the names say they are incomplete until closed */
    if (cont ? grit_afile_continue(&e->energy, path, ".partial", head, k, s->err, sizeof s->err)
             : grit_afile_open(&e->energy, path, ".partial", s->err, sizeof s->err)) {
        free(e);
        return NULL;
    }
    if (!cont) fputs(head, e->energy.f);
    if (stats_path) {
        if (cont ? grit_afile_continue(&e->stats, stats_path, ".partial", stats_header, k, s->err, sizeof s->err)
                 : grit_afile_open(&e->stats, stats_path, ".partial", s->err, sizeof s->err)) {
            grit_afile_abort(&e->energy);
            free(e);
            return NULL;
        }
        e->has_stats = true;
        if (!cont) fputs(stats_header, e->stats.f);
    }
    return e;
}

grit_energy_log *grit_energy_log_open(grit_scene *s, const char *path, const char *stats_path)
{
    return log_open(s, path, stats_path, false);
}

grit_energy_log *grit_energy_log_continue(grit_scene *s, const char *path, const char *stats_path)
{
    return log_open(s, path, stats_path, true);
}

int grit_energy_log_row(grit_energy_log *e, const grit_scene *s)
{
    FILE *f = e->energy.f;
    fprintf(f, "%ld,%.17g", grit_step_count(s), grit_time(s));
    for (int k = 0; k < GRIT_E_COUNT; k++) fprintf(f, ",%.17g", grit_energy(s, k));
    fprintf(f, ",%.17g,%.17g\n", grit_energy_total(s), grit_energy_rel_error(s));
    /* on disk before the next checkpoint: a run killed after it goes on
     * from there with every row up to it (grit_energy_log_continue) */
    fflush(f);
    if (ferror(f)) return grit_fail((grit_scene *)s, GRIT_EIO, "cannot write '%s'", e->energy.tmp);
    if (e->has_stats) {
        grit_stats st;
        grit_get_stats(s, &st);
        fprintf(e->stats.f, "%ld,%.17g,%.17g,%d,%d,%ld,%ld\n", grit_step_count(s), grit_time(s), grit_dt(s),
                grit_contact_count(s), st.potential_pairs, st.rebuilds, st.sorts);
        fflush(e->stats.f);
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
