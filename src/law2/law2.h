/* grit internal: contact laws (Law2) -- geometry + physics -> force, torque,
 * energy. A law returns false when the contact must be broken (it then
 * loses its geometry, physics and history). Laws are static inline so that
 * the contact loop compiles one specialised loop per (geometry, law) pair.
 * Besides the contact's geometry and physics a law receives the geometry
 * functor's output (particle points, velocities, angular velocities) and its
 * contact's `ext` doubles (NULL when the law declares none, see
 * grit_law_ext_n). */
#ifndef GRIT_LAW2_H
#define GRIT_LAW2_H

#include "cg2/cg2.h"
#include "law2/kuhn_math.h"

typedef struct grit_law_ctx {
    double dt;
    bool no_slip, no_break, no_frict, ini_eqlb;
    bool plast_return; /* plast_book=return: the spec's fy (ft - fy) / kt */
    double char_len;
    grit_kuhn_opt kuhn;
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
                          .plast_return = s->def.plast_book == 1,
                          .char_len = s->def.char_len,
                          .kuhn = {.fresh = s->def.kuhn_fresh,
                                   .onset = s->def.kuhn_onset,
                                   .turn = s->def.kuhn_turn,
                                   .projection = s->def.kuhn_projection,
                                   .twirl = s->def.kuhn_twirl,
                                   .work = s->def.kuhn_work}};
}

#endif
