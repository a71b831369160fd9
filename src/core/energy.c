/* grit: the energy tracker -- named entries whose sum must stay constant. */
#include <float.h>

#include "core/energy_share.h"
#include "core/health.h"

static const char *const names[GRIT_E_COUNT] = {
    [GRIT_E_KINETIC] = "kinetic", [GRIT_E_ELAST] = "elast",   [GRIT_E_GRAV] = "grav",
    [GRIT_E_PLAST] = "plast",     [GRIT_E_NONVISC] = "nonviscDamp", [GRIT_E_VISC] = "viscDamp",
    [GRIT_E_BROKEN] = "broken",   [GRIT_E_GRADV] = "gradV",     [GRIT_E_DAMAGE] = "damage",
    [GRIT_E_INLET] = "inlet",
    [GRIT_E_MASSDAMP] = "massDamp", [GRIT_E_OUTLET] = "outlet",
};

const char *grit_energy_name(int kind) { return kind >= 0 && kind < GRIT_E_COUNT ? names[kind] : NULL; }

double grit_energy(const grit_scene *s, int kind)
{
    return kind >= 0 && kind < GRIT_E_COUNT ? s->energy[kind] : NAN;
}

double grit_energy_total(const grit_scene *s)
{
    double t = 0;
    for (int k = 0; k < GRIT_E_COUNT; k++) t += s->energy[k];
    return t;
}

double grit_energy_initial(const grit_scene *s) { return s->energy_initial_set ? s->energy_initial : NAN; }

double grit_energy_rel_error(const grit_scene *s)
{
    double sa = 0;
    for (int k = 0; k < GRIT_E_COUNT; k++) sa += fabs(s->energy[k]);
    if (!s->energy_initial_set) return 0.0;
    return (grit_energy_total(s) - s->energy_initial) / fmax(sa, DBL_MIN);
}

void grit_energy_reset(grit_scene *s)
{
    for (int k = 0; k < GRIT_E_COUNT; k++) s->energy[k] = 0;
    s->energy_initial_set = false;
}

/* A scene spread over MPI ranks: each rank books its share of a step from
 * zero, so that the shares are the step's own terms and their sum over the
 * ranks is what one process books in the step (src/mpi/halo.c sums them). */
void grit_energy_share_open(grit_scene *s)
{
    for (int k = 0; k < GRIT_E_COUNT; k++) {
        s->energy_base[k] = s->energy[k];
        s->energy[k] = 0;
    }
}

int grit_energy_share_close(grit_scene *s, const double *sum)
{
    if (!sum) { /* the step failed: the book of before it */
        for (int k = 0; k < GRIT_E_COUNT; k++) s->energy[k] = s->energy_base[k];
        return GRIT_OK;
    }
    /* kinetic and elastic energy are states, booked anew at every step;
     * the other terms are work, added up over the steps */
    for (int k = 0; k < GRIT_E_COUNT; k++)
        s->energy[k] = k == GRIT_E_KINETIC || k == GRIT_E_ELAST ? sum[k] : s->energy_base[k] + sum[k];
    if (!s->energy_initial_set) {
        s->energy_initial = grit_energy_total(s);
        s->energy_initial_set = true;
    }
    return grit_health_energy(s);
}
