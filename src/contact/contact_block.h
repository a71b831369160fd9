/* grit internal: the generic contact-loop "template" -- one loop body for
 * any (geometry functor, law) pair, compiled once per pair because it is
 * always inlined with constant function pointers. */
#ifndef GRIT_CONTACT_BLOCK_H
#define GRIT_CONTACT_BLOCK_H

#include "cg2/l6geom.h"
#include "core/assert.h"
#include "core/cell_impl.h"
#include "cp2/cp2.h"
#include "law2/law2.h"

/* Contact k's force F on A (-F on B) and the torques Ma, Mb: stored, and
 * added to the particles after the loop in contact order (contact_loop.c),
 * so that no two threads add into one particle. */
static inline void cforce_set(grit_contacts *C, int k, grit_vec3 F, grit_vec3 Ma, grit_vec3 Mb)
{
    C->cf[k] = (grit_cforce){F, Ma, Mb};
    C->fon[k] = 1;
}

typedef bool (*cg2_fn)(const grit_scene *, int, int, grit_vec3, bool, const grit_l6geom *, grit_cg2_out *);
typedef bool (*law_fn)(const grit_law_ctx *, grit_l6geom *, grit_frictphys *, grit_contact_cold *, bool, bool,
                       grit_law_energy *, const grit_cg2_out *, double *);
/* the law's physics functor (Cp2) and state initialisation of a new contact */
typedef void (*create_fn)(const grit_scene *, int, int, const grit_cg2_out *, grit_contact_cold *, grit_frictphys *,
                          double *);

/* periodic: B is seen at its image x_B + H k, moving with the velocity shift
 * L H_half k, added to B's velocity in the functor's output so that the
 * frame update and the law both see it (the aperiodic instance has no trace
 * of it) */
static inline __attribute__((always_inline)) int run_block_cell(grit_scene *s, int lo, int hi, cg2_fn cg2,
                                                                law_fn law, create_fn create, const bool track,
                                                                const bool torque, const bool periodic,
                                                                grit_law_energy *E)
{
    grit_contacts *C = &s->c;
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
        GRIT_ASSERT(a >= 0 && a < s->b.n && b >= 0 && b < s->b.n && a != b, "contact %d of %d: particles %d and %d of %d",
                    k, C->n, a, b, s->b.n);
        grit_l6geom *g = &C->geom[k];
        grit_cg2_out o;
        grit_vec3 shift = zero, dvs = zero;
        if (periodic) grit_cell_image(s->cell, pp->cell, &shift, &dvs);
        if (!cg2(s, a, b, shift, real, g, &o)) continue;
        if (periodic) o.v2 = v3_add(o.v2, dvs);
        grit_frictphys *p = &C->phys[k];
        grit_contact_cold *cold = &C->cold[k];
        double *ext = C->ext_n ? C->ext + (size_t)k * (size_t)C->ext_n : NULL;
        if (!real) {
            l6geom_create(g, cold, &o, lens_touch);
            cold->uN0 = NAN;
            cold->step_created = s->step;
            create(s, a, b, &o, cold, p, ext);
            pp->flags |= CF_REAL;
        } else {
            l6geom_update(g, &o, L.dt, renorm, zero);
        }
        if (!law(&L, g, p, cold, !real, track, E, &o, ext)) {
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
        cforce_set(C, k, F, Ma, Mb);
    }
    return n_real;
}

static inline __attribute__((always_inline)) int run_block(grit_scene *s, int lo, int hi, cg2_fn cg2, law_fn law,
                                                           create_fn create, const bool track, const bool torque,
                                                           grit_law_energy *E)
{
    return run_block_cell(s, lo, hi, cg2, law, create, track, torque, false, E);
}

#endif
