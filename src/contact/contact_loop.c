/* grit: the contact loop.
 *
 * The candidate pairs are stored in blocks by geometry kind. For each block
 * one loop is compiled per (geometry functor, law, energy tracking on/off)
 * through the always-inlined run_block "template", so that nothing is
 * dispatched per contact and the plain step pays nothing for energy
 * bookkeeping. */
#include "contact/contact_loop.h"

#include "cg2/all.h"
#include "cg2/l6geom.h"
#include "cp2/cp2.h"
#include "law2/idealelpl.h"
#include "law2/linel6.h"

typedef bool (*cg2_fn)(const grit_scene *, int, int, grit_vec3, bool, const grit_l6geom *, grit_cg2_out *);
typedef bool (*law_fn)(const grit_law_ctx *, grit_l6geom *, grit_frictphys *, grit_contact_cold *, bool, bool,
                       grit_law_energy *);

static inline __attribute__((always_inline)) int run_block(grit_scene *s, int lo, int hi, cg2_fn cg2, law_fn law,
                                                           const bool track, const bool torque,
                                                           grit_law_energy *E)
{
    grit_contacts *C = &s->c;
    grit_ft *ft = s->b.ft;
    const grit_posr *pr = s->b.pr;
    const grit_law_ctx L = grit_law_ctx_from(s);
    const bool renorm = s->def.trsf_renorm > 0 && s->step % s->def.trsf_renorm == 0;
    const bool lens_touch = s->def.ini_lens_touch;
    const grit_vec3 zero = v3_zero();
    int n_real = 0;
    for (int k = lo; k < hi; k++) {
        grit_pair *pp = &C->pair[k];
        const bool real = pp->flags & CF_REAL;
        const int a = pp->a, b = pp->b;
        grit_l6geom *g = &C->geom[k];
        grit_cg2_out o;
        if (!cg2(s, a, b, zero, real, g, &o)) continue;
        grit_frictphys *p = &C->phys[k];
        grit_contact_cold *cold = &C->cold[k];
        if (!real) {
            l6geom_create(g, cold, &o, lens_touch);
            cold->uN0 = NAN;
            cold->step_created = s->step;
            grit_cp2_frictmat_frictphys(s, s->b.mat[a], s->b.mat[b], cold, p);
            pp->flags |= CF_REAL;
        } else {
            l6geom_update(g, &o, L.dt, renorm, zero);
        }
        if (!law(&L, g, p, cold, !real, track, E)) {
            pp->flags &= (uint8_t)~CF_REAL; /* history is lost; it may touch again as a new contact */
            continue;
        }
        n_real++;
        /* force and torque on A (local -> global), the opposite on B */
        const grit_vec3 ez = v3_cross(g->ex, g->ey);
        const grit_vec3 F = v3_add(v3_add(v3_scale(g->ex, p->f.x), v3_scale(g->ey, p->f.y)), v3_scale(ez, p->f.z));
        grit_vec3 Ma = v3_cross(v3_sub(g->c, pr[a].pos), F);
        grit_vec3 Mb = v3_cross(v3_sub(g->c, o.x2), v3_neg(F));
        if (torque) {
            const grit_vec3 T =
                v3_add(v3_add(v3_scale(g->ex, p->t.x), v3_scale(g->ey, p->t.y)), v3_scale(ez, p->t.z));
            Ma = v3_add(Ma, T);
            Mb = v3_sub(Mb, T);
        }
        ft[a].f = v3_add(ft[a].f, F);
        ft[a].t = v3_add(ft[a].t, Ma);
        ft[b].f = v3_sub(ft[b].f, F);
        ft[b].t = v3_add(ft[b].t, Mb);
    }
    return n_real;
}

#define RUN(CG2, LAW, TORQUE) \
    (track ? run_block(s, lo, hi, CG2, LAW, true, TORQUE, &E) : run_block(s, lo, hi, CG2, LAW, false, TORQUE, &E))
#define BY_LAW(CG2) (law == GRIT_LAW_LINEL6 ? RUN(CG2, law_linel6, true) : RUN(CG2, law_idealelpl, false))

int grit_contact_loop(grit_scene *s)
{
    grit_law_energy E = {0, 0, 0, 0};
    const bool track = s->def.track_energy;
    const int law = s->def.law;
    int n_real = 0;
    for (int kind = 0; kind < GRIT_CG2_KIND_COUNT; kind++) {
        const int lo = s->c.kind_start[kind], hi = s->c.kind_start[kind + 1];
        if (lo == hi) continue;
        switch (kind) {
        case GRIT_CG2_SPHERE_SPHERE: n_real += BY_LAW(cg2_sphere_sphere); break;
        case GRIT_CG2_FACET_SPHERE: n_real += BY_LAW(cg2_facet_sphere); break;
        case GRIT_CG2_WALL_SPHERE: n_real += BY_LAW(cg2_wall_sphere); break;
        case GRIT_CG2_INFCYLINDER_SPHERE: n_real += BY_LAW(cg2_infcylinder_sphere); break;
        case GRIT_CG2_ELLIPSOID_ELLIPSOID: n_real += BY_LAW(cg2_ellipsoid_ellipsoid); break;
        case GRIT_CG2_SPHERE_ELLIPSOID: n_real += BY_LAW(cg2_sphere_ellipsoid); break;
        case GRIT_CG2_WALL_ELLIPSOID: n_real += BY_LAW(cg2_wall_ellipsoid); break;
        case GRIT_CG2_WALL_FACET: n_real += BY_LAW(cg2_wall_facet); break;
        case GRIT_CG2_ROD_SPHERE: n_real += BY_LAW(cg2_rod_sphere); break;
        case GRIT_CG2_WALL_CAPSULE: n_real += BY_LAW(cg2_wall_capsule); break;
        case GRIT_CG2_CAPSULE_CAPSULE: n_real += BY_LAW(cg2_capsule_capsule); break;
        case GRIT_CG2_INFCYLINDER_CAPSULE: n_real += BY_LAW(cg2_infcylinder_capsule); break;
        case GRIT_CG2_FACET_CAPSULE: n_real += BY_LAW(cg2_facet_capsule); break;
        case GRIT_CG2_SPHERE_CAPSULE: n_real += BY_LAW(cg2_sphere_capsule); break;
        case GRIT_CG2_FACET_FACET: n_real += BY_LAW(cg2_facet_facet); break;
        case GRIT_CG2_FACET_INFCYLINDER: n_real += BY_LAW(cg2_facet_infcylinder); break;
        case GRIT_CG2_FACET_ELLIPSOID: n_real += BY_LAW(cg2_facet_ellipsoid); break;
        case GRIT_CG2_CAPSULE_ELLIPSOID: n_real += BY_LAW(cg2_capsule_ellipsoid); break;
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
