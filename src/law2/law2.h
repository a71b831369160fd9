/* grit internal: contact laws (Law2) -- geometry + physics -> force, torque,
 * energy. A law returns false when the contact must be broken (it then
 * loses its geometry, physics and history). Laws are static inline so that
 * the contact loop compiles one specialised loop per (geometry, law) pair. */
#ifndef GRIT_LAW2_H
#define GRIT_LAW2_H

#include "core/scene_impl.h"

typedef struct grit_law_ctx {
    double dt;
    bool no_slip, no_break, no_frict, ini_eqlb;
    double char_len;
} grit_law_ctx;

/* Energy increments of one contact-loop pass (summed serially, so the
 * result is independent of anything but the contact order). */
typedef struct grit_law_energy {
    double elast, plast, visc, broken;
} grit_law_energy;

static inline grit_law_ctx grit_law_ctx_from(const grit_scene *s)
{
    return (grit_law_ctx){.dt = s->dt,
                          .no_slip = s->def.no_slip,
                          .no_break = s->def.no_break,
                          .no_frict = s->def.no_frict,
                          .ini_eqlb = s->def.ini_eqlb,
                          .char_len = s->def.char_len};
}

#endif
