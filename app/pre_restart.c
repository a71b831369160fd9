/* grit run restart file=FILE: continue a saved scene (a run's
 * OUT/restart.grit, a checkpoint left in OUT.partial/, or grit_save from C
 * or Python) with the run controls of the command line.
 *
 * The scene keeps every parameter it was saved with -- time step, law,
 * damping, contact history -- so the continued run is bitwise the run that
 * never stopped; only the run controls (time or steps, output) are given. */
#include <stdio.h>

#include "cli.h"
#include "grit/restart.h"

static text_param file = {"file", NULL, "restart file to continue (grit_save format); required", NULL};

static void init(job *j) { job_add_text(j, "restart", &file); }

static int build(job *j, grit_scene *s, char *err, size_t len)
{
    (void)j, (void)s, (void)err, (void)len;
    return 0;
}

static grit_scene *load(job *j, char *err, size_t len)
{
    if (!file.value) {
        snprintf(err, len, "parameter 'file' is required: the restart file to continue");
        return NULL;
    }
    grit_scene *s = grit_scene_load(file.value);
    if (!s) {
        snprintf(err, len, "%s", grit_create_error());
        return NULL;
    }
    j->scene = *grit_scene_get_def(s);
    return s;
}

const preproc preproc_restart = {
    "restart",
    "continue a saved scene (restart file) for more time or steps, bitwise as if it had not stopped",
    init,
    build,
    load,
    NULL,
    NULL,
    NULL,
};
