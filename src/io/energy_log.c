/* grit: the energy time series as CSV, one row per call. */
#include <stdlib.h>

#include "core/scene_impl.h"
#include "grit/io.h"
#include "io/atomic_file.h"

struct grit_energy_log {
    grit_afile file;
};

grit_energy_log *grit_energy_log_open(grit_scene *s, const char *path)
{
    grit_energy_log *e = calloc(1, sizeof *e);
    if (!e) {
        grit_fail(s, GRIT_ENOMEM, "out of memory opening '%s'", path);
        return NULL;
    }
    /* a run may last hours: the name says it is incomplete until closed */
    if (grit_afile_open(&e->file, path, ".partial", s->err, sizeof s->err)) {
        free(e);
        return NULL;
    }
    fputs("step,time,dt", e->file.f);
    for (int k = 0; k < GRIT_E_COUNT; k++) fprintf(e->file.f, ",%s", grit_energy_name(k));
    fputs(",total,balance_error,contacts,potential_pairs,rebuilds\n", e->file.f);
    return e;
}

int grit_energy_log_row(grit_energy_log *e, const grit_scene *s)
{
    FILE *f = e->file.f;
    grit_stats st;
    grit_get_stats(s, &st);
    fprintf(f, "%ld,%.17g,%.17g", grit_step_count(s), grit_time(s), grit_dt(s));
    for (int k = 0; k < GRIT_E_COUNT; k++) fprintf(f, ",%.17g", grit_energy(s, k));
    fprintf(f, ",%.17g,%.17g,%d,%d,%ld\n", grit_energy_total(s), grit_energy_rel_error(s), grit_contact_count(s),
            st.potential_pairs, st.rebuilds);
    if (ferror(f)) return grit_fail((grit_scene *)s, GRIT_EIO, "cannot write '%s'", e->file.tmp);
    return GRIT_OK;
}

int grit_energy_log_close(grit_energy_log *e, grit_scene *s, bool commit)
{
    if (!e) return GRIT_OK;
    int rc = GRIT_OK;
    if (commit) rc = grit_afile_commit(&e->file, s->err, sizeof s->err) ? GRIT_EIO : GRIT_OK;
    else grit_afile_abort(&e->file);
    free(e);
    return rc;
}
