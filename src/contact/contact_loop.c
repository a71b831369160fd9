/* grit: the contact loop.
 *
 * Contacts are stored in blocks by geometry kind. For each block
 * one loop is compiled per (geometry functor, law, energy tracking on/off)
 * through the always-inlined run_block "template", so that nothing is
 * dispatched per contact and the plain step pays nothing for energy
 * bookkeeping. */
#include "contact/contact_loop.h"

#include "cg2/all.h"
#include "contact/contact_block.h"
#include "contact/ss_idealelpl_simd.h"
#include "contact/ss_kuhn_simd.h"
#include "core/cell_impl.h"
#include "core/storage.h"
#include "law2/idealelpl.h"
#include "law2/kuhn.h"
#include "law2/linel6.h"

#define RUN_FLAT(CG2, LAW, TORQUE) \
    (track ? run_block(s, lo, hi, CG2, LAW, true, TORQUE, E) : run_block(s, lo, hi, CG2, LAW, false, TORQUE, E))
/* periodic cell: B at its image (contact_block.h) */
#define RUN_CELL(CG2, LAW, TORQUE)                                     \
    (track ? run_block_cell(s, lo, hi, CG2, LAW, true, TORQUE, true, E) \
           : run_block_cell(s, lo, hi, CG2, LAW, false, TORQUE, true, E))
#define RUN(CG2, LAW, TORQUE) (s->cell ? RUN_CELL(CG2, LAW, TORQUE) : RUN_FLAT(CG2, LAW, TORQUE))
#define BY_LAW(CG2)                                                                                                \
    (law == GRIT_LAW_LINEL6 ? RUN(CG2, law_linel6, true)                                                           \
                            : (law == GRIT_LAW_KUHN ? RUN(CG2, law_kuhn, false) : RUN(CG2, law_idealelpl, false)))

int grit_law_ext_n(int law) { return law == GRIT_LAW_KUHN ? GRIT_KUHN_EXT_N : 0; }

int grit_contact_prepare(grit_scene *s)
{
    int n = grit_law_ext_n(s->def.law);
    if (n != s->c.ext_n && grit_contacts_set_ext_n(&s->c, n))
        return grit_fail(s, GRIT_ENOMEM, "out of memory for the per-contact state of law %d", s->def.law);
    return GRIT_OK;
}

/* Contacts [lo, hi) of one kind; returns how many are real afterwards. */
static int run_range(grit_scene *s, int kind, int lo, int hi, grit_law_energy *E)
{
    const bool track = s->def.track_energy;
    const int law = s->def.law;
    switch (kind) {
    case GRIT_CG2_SPHERE_SPHERE:
        if (law == GRIT_LAW_IDEALELPL && s->def.simd && !s->eqlb_used)
            return grit_ss_idealelpl_simd(s, lo, hi, track, E);
        if (law == GRIT_LAW_KUHN && s->def.simd) return grit_ss_kuhn_simd(s, lo, hi, track, E);
        return BY_LAW(cg2_sphere_sphere);
    case GRIT_CG2_FACET_SPHERE: return BY_LAW(cg2_facet_sphere);
    case GRIT_CG2_WALL_SPHERE: return BY_LAW(cg2_wall_sphere);
    case GRIT_CG2_INFCYLINDER_SPHERE: return BY_LAW(cg2_infcylinder_sphere);
    case GRIT_CG2_ELLIPSOID_ELLIPSOID: return BY_LAW(cg2_ellipsoid_ellipsoid);
    case GRIT_CG2_SPHERE_ELLIPSOID: return BY_LAW(cg2_sphere_ellipsoid);
    case GRIT_CG2_WALL_ELLIPSOID: return BY_LAW(cg2_wall_ellipsoid);
    case GRIT_CG2_WALL_FACET: return BY_LAW(cg2_wall_facet);
    case GRIT_CG2_ROD_SPHERE: return BY_LAW(cg2_rod_sphere);
    case GRIT_CG2_WALL_CAPSULE: return BY_LAW(cg2_wall_capsule);
    case GRIT_CG2_CAPSULE_CAPSULE: return BY_LAW(cg2_capsule_capsule);
    case GRIT_CG2_INFCYLINDER_CAPSULE: return BY_LAW(cg2_infcylinder_capsule);
    case GRIT_CG2_FACET_CAPSULE: return BY_LAW(cg2_facet_capsule);
    case GRIT_CG2_SPHERE_CAPSULE: return BY_LAW(cg2_sphere_capsule);
    case GRIT_CG2_FACET_FACET: return BY_LAW(cg2_facet_facet);
    case GRIT_CG2_FACET_INFCYLINDER: return BY_LAW(cg2_facet_infcylinder);
    case GRIT_CG2_FACET_ELLIPSOID: return BY_LAW(cg2_facet_ellipsoid);
    case GRIT_CG2_CAPSULE_ELLIPSOID: return BY_LAW(cg2_capsule_ellipsoid);
    default: return 0;
    }
}

/* Potential pairs of one kind: a pair whose shapes touch is appended to the
 * contact list, where it is created and gets its first force at once. */
static int promote_range(grit_scene *s, int kind, int lo, int hi, grit_law_energy *E)
{
    grit_contacts *C = &s->c;
    int n_real = 0;
    for (int k = lo; k < hi; k++) {
        grit_pair *pp = &C->pot[k];
        if (pp->flags & CF_PROMOTED) continue;
        grit_cg2_out o;
        const grit_vec3 shift = s->cell ? m3_mul_k(&s->cell->H, pp->cell) : v3_zero(); /* periodic image */
        if (!grit_cg2_eval(s, kind, pp->a, pp->b, shift, false, NULL, &o)) continue;
        if (C->n == C->cap && grit_contacts_reserve(C, C->cap + C->cap / 4 + 64))
            return grit_fail(s, GRIT_ENOMEM, "out of memory adding a contact");
        int q = C->n++;
        s->gen_contacts++; /* one more row in the contact arrays (views: arrays.h) */
        C->pair[q] = *pp;
        C->pair[q].flags = 0;
        pp->flags |= CF_PROMOTED;
        C->n_promoted++;
        n_real += run_range(s, kind, q, q + 1, E);
    }
    return n_real;
}

int grit_contact_loop(grit_scene *s)
{
    grit_law_energy E = {0, 0, 0, 0};
    grit_contacts *C = &s->c;
    int n_real = 0;
    if (s->def.ini_eqlb) s->eqlb_used = true;
    for (int kind = 0; kind < GRIT_CG2_KIND_COUNT; kind++)
        if (C->kind_start[kind] < C->kind_start[kind + 1])
            n_real += run_range(s, kind, C->kind_start[kind], C->kind_start[kind + 1], &E);
    /* contacts created since the last rebuild, outside the blocks */
    const int n_old = C->n;
    for (int k = C->kind_start[GRIT_CG2_KIND_COUNT], k2; k < n_old; k = k2) {
        /* runs of one kind (promotions come kind by kind): the block loops apply */
        for (k2 = k + 1; k2 < n_old && C->pair[k2].kind == C->pair[k].kind; k2++) {}
        n_real += run_range(s, C->pair[k].kind, k, k2, &E);
    }
    for (int kind = 0; kind < GRIT_CG2_KIND_COUNT; kind++) {
        int r = promote_range(s, kind, C->pot_start[kind], C->pot_start[kind + 1], &E);
        if (r < 0) return r;
        n_real += r;
    }
    s->c.n_real = n_real;
    if (s->def.track_energy) {
        s->energy[GRIT_E_ELAST] += E.elast;
        s->energy[GRIT_E_PLAST] += E.plast;
        s->energy[GRIT_E_VISC] += E.visc;
        s->energy[GRIT_E_BROKEN] += E.broken;
    }
    return GRIT_OK;
}
