/* grit internal: Law2_L6Geom_FrictPhys_LinEl6 -- linear elastic in all six
 * DoFs (spec section 6), a law for testing the contact kinematics: forces and
 * torques are integrals of the local relative velocities, the contact never
 * breaks and never slips. Rotational stiffnesses are kn/char_len and
 * kt/char_len (Woo's code; its docs' kn*char_len is not used). */
#ifndef GRIT_LAW2_LINEL6_H
#define GRIT_LAW2_LINEL6_H

#include "law2/law2.h"

enum { GRIT_LAW_LINEL6_EXT_N = 0 };
#define GRIT_LAW_LINEL6_TORQUE true

static inline void create_linel6(const grit_scene *s, int a, int b, const grit_cg2_out *o, grit_contact_cold *cold,
                                 grit_frictphys *p, double *ext)
{
    grit_create_frictphys(s, a, b, o, cold, p, ext);
}

static inline bool law_linel6(const grit_law_ctx *L, grit_l6geom *g, grit_frictphys *p, grit_contact_cold *cold,
                              bool fresh, bool track, grit_law_energy *E, const grit_cg2_out *o, double *ext)
{
    (void)o;
    (void)ext;
    (void)cold;
    (void)fresh;
    const double dt = L->dt, kn = p->kn, kt = p->kt;
    const double kw = kn / L->char_len, kb = kt / L->char_len;
    p->f = v3(kn * g->uN, p->f.y + dt * kt * g->vel.y, p->f.z + dt * kt * g->vel.z);
    p->t = v3(p->t.x + dt * kw * g->angvel.x, p->t.y + dt * kb * g->angvel.y, p->t.z + dt * kb * g->angvel.z);
    if (track) {
        double e = 0.5 * p->f.x * p->f.x / kn;
        if (kt != 0) e += 0.5 * (sq(p->f.y) + sq(p->f.z)) / kt;
        if (kw != 0) e += 0.5 * sq(p->t.x) / kw;
        if (kb != 0) e += 0.5 * (sq(p->t.y) + sq(p->t.z)) / kb;
        E->elast += e;
    }
    return true;
}

#endif
