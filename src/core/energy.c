/* grit: the energy tracker -- named entries whose sum must stay constant. */
#include <float.h>

#include "core/scene_impl.h"

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
