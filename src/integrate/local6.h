/* grit internal: imposed motion along particle-local axes (Woo's Local6Dofs,
 * spec 8.5), used by the law tester.
 *
 * A particle with an entry here carries PF_LOCAL6 in its flags; the
 * integrator then calls grit_local6_velocity after its velocity update and
 * grit_local6_force after its force reset, and nothing else in the hot loop
 * knows about it. Entries are keyed by the stable particle id, so they
 * survive re-sorting; there are only ever a few (two per law tester), so
 * they are found by a linear search. */
#ifndef GRIT_LOCAL6_H
#define GRIT_LOCAL6_H

#include "core/scene_impl.h"
#include "grit/tester.h"

typedef struct grit_local6 {
    int32_t id;
    uint8_t what[6]; /* GRIT_IMPOSE_FREE / _VEL / _FORCE per DoF (x y z rx ry rz) */
    uint8_t pad[6]; /* explicit, so that restart files hold no stray bytes */
    double value[6];
    grit_mat3 axes; /* columns: the local axes in global coordinates */
} grit_local6;

grit_local6 *grit_local6_find(grit_scene *s, int id);

/* Overwrite the velocity components along the flagged local axes (vw is
 * the particle's new mid-step velocity, before positions are advanced). */
void grit_local6_velocity(const grit_scene *s, int idx, grit_velw *vw);
/* Overwrite the force/torque components along the flagged local axes
 * (called after the accumulators were reset to m g). */
void grit_local6_force(grit_scene *s, int idx);

#endif
