/* grit: the contact loop.
 *
 * The candidate pairs are stored in blocks by geometry kind. For each block
 * one loop is compiled per (geometry functor, law, energy tracking on/off)
 * through the always-inlined run_block "template", so that nothing is
 * dispatched per contact and the plain step pays nothing for energy
 * bookkeeping. */
#include "contact/contact_loop.h"

#include "cg2/facet_sphere.h"
#include "cg2/sphere_sphere.h"
#include "cg2/wall_sphere.h"
#include "contact/contact_block.h"
#include "contact/ss_idealelpl_simd.h"
#include "law2/idealelpl.h"
#include "law2/linel6.h"

#define RUN_FLAT(CG2, LAW, TORQUE) \
    (track ? run_block(s, lo, hi, CG2, LAW, true, TORQUE, &E) : run_block(s, lo, hi, CG2, LAW, false, TORQUE, &E))
/* periodic cell: B at its image (contact_block.h) */
#define RUN_CELL(CG2, LAW, TORQUE)                                      \
    (track ? run_block_cell(s, lo, hi, CG2, LAW, true, TORQUE, true, &E) \
           : run_block_cell(s, lo, hi, CG2, LAW, false, TORQUE, true, &E))
#define RUN(CG2, LAW, TORQUE) (s->cell ? RUN_CELL(CG2, LAW, TORQUE) : RUN_FLAT(CG2, LAW, TORQUE))
#define BY_LAW(CG2) (law == GRIT_LAW_LINEL6 ? RUN(CG2, law_linel6, true) : RUN(CG2, law_idealelpl, false))

int grit_contact_loop(grit_scene *s)
{
    grit_law_energy E = {0, 0, 0, 0};
    const bool track = s->def.track_energy;
    const int law = s->def.law;
    int n_real = 0;
    if (s->def.ini_eqlb) s->eqlb_used = true;
    for (int kind = 0; kind < GRIT_CG2_KIND_COUNT; kind++) {
        const int lo = s->c.kind_start[kind], hi = s->c.kind_start[kind + 1];
        if (lo == hi) continue;
        switch (kind) {
        case GRIT_CG2_SPHERE_SPHERE:
            if (law == GRIT_LAW_IDEALELPL && s->def.simd && !s->eqlb_used)
                n_real += grit_ss_idealelpl_simd(s, lo, hi, track, &E);
            else n_real += BY_LAW(cg2_sphere_sphere);
            break;
        case GRIT_CG2_FACET_SPHERE: n_real += BY_LAW(cg2_facet_sphere); break;
        case GRIT_CG2_WALL_SPHERE: n_real += BY_LAW(cg2_wall_sphere); break;
        default: break;
        }
    }
    s->c.n_real = n_real;
    if (track) {
        s->energy[GRIT_E_ELAST] += E.elast;
        s->energy[GRIT_E_PLAST] += E.plast;
        s->energy[GRIT_E_VISC] += E.visc;
        s->energy[GRIT_E_BROKEN] += E.broken;
    }
    return GRIT_OK;
}
