/* grit internal: Law2_L6Geom_ConcretePhys -- the concrete particle model's
 * contact law (docs/concrete.md), the contact-loop adapter of the
 * constitutive mathematics of cpm_math.h.
 *
 * Geometry to strains: eps_geo = (uN - uN0) / L with uN0 the gap at the
 * contact's creation (every contact starts stress-free, also one made at a
 * positive gap by an interaction radius above 1) and L the reference length
 * (ref_length: the sum of the radii, or the distance at creation); the
 * shear-strain increment dt vT / L from L6Geom's mid-step tangential
 * relative velocity, in the local frame that the contact carries (so the
 * stored shear strain needs no rotation). Stresses to forces: F = A_c sigma
 * on A (tension positive, pulling A towards B), A_c the contact's area
 * pi min(r_A, r_B)^2. Energies: the densities times the volume A_c L.
 *
 * ext layout (GRIT_LAW_CPM_EXT_N doubles): the material pair's index into
 * the scene's ConcretePhys table, the cohesive flag, L, then the
 * grit_cpm_state. */
#ifndef GRIT_LAW2_CPM_H
#define GRIT_LAW2_CPM_H

#include <string.h>

#include "law2/law2.h"

enum {
    GRIT_CPM_X_PAIR = 0,
    GRIT_CPM_X_COHESIVE = 1,
    GRIT_CPM_X_L = 2,
    GRIT_CPM_X_STATE = 3,
    GRIT_LAW_CPM_EXT_N = GRIT_CPM_X_STATE + (int)(sizeof(grit_cpm_state) / sizeof(double))
};
_Static_assert(sizeof(grit_cpm_state) % sizeof(double) == 0, "the CPM state is a run of doubles");
#define GRIT_LAW_CPM_TORQUE false

static inline void create_cpm(const grit_scene *s, int a, int b, const grit_cg2_out *o, grit_contact_cold *cold,
                              grit_frictphys *p, double *ext)
{
    grit_cp2_concretephys(s, s->b.mat[a], s->b.mat[b], o, cold, p, ext);
}

static inline bool law_cpm(const grit_law_ctx *L, grit_l6geom *g, grit_frictphys *p, grit_contact_cold *cold,
                           bool fresh, bool track, grit_law_energy *E, const grit_cg2_out *o, double *x)
{
    (void)o;
    (void)fresh; /* creation set uN0 = uN and the initial state: this first update is at zero strain */
    const grit_cpm_phys *P = &L->cpm_phys[(int)x[GRIT_CPM_X_PAIR]];
    const double Lref = x[GRIT_CPM_X_L];
    grit_cpm_state st;
    memcpy(&st, x + GRIT_CPM_X_STATE, sizeof st);
    const double eps = (g->uN - cold->uN0) / Lref;
    const double deps[2] = {L->dt * g->vel.y / Lref, L->dt * g->vel.z / Lref};
    grit_cpm_energy e;
    const int rc = grit_cpm_update(P, &L->cpm, x[GRIT_CPM_X_COHESIVE] != 0, &st, eps, deps, L->dt, track ? &e : NULL);
    const double vol = cold->area * Lref;
    if (rc < 0) { /* the solver failed (extreme visco parameters): keep the last state, fail the step */
        E->failed++;
        return true;
    }
    if (rc == GRIT_CPM_DELETE) {
        if (track) E->broken += e.broken * vol;
        E->cohesive_broken += x[GRIT_CPM_X_COHESIVE] != 0;
        return false;
    }
    memcpy(x + GRIT_CPM_X_STATE, &st, sizeof st);
    const double A = cold->area;
    p->f = v3(A * st.sigmaN, A * st.sigmaT[0], A * st.sigmaT[1]);
    if (track) {
        E->elast += st.u * vol;
        E->damage += e.damage * vol;
        E->plast += e.plast * vol;
    }
    return true;
}

/* The state of contact k (internal index, a real contact under this law),
 * for the output (io/vtk_scene.c) and grit/concrete.h. */
struct grit_concrete_state;
void grit_concrete_state_at(const grit_scene *s, int k, struct grit_concrete_state *out);

#endif
