/* grit internal: Cg2_Wall_Facet_L6Geom (spec 2.4 (8)). A = wall, B = facet.
 * Only a facet with thickness (h > 0) touches a wall: a thin facet and a
 * wall are two flat bodies whose effective lengths are undefined; such a
 * pair is refused before the first step (grit_cg2_check_flat_pairs), and
 * the functor never reports a contact for it. */
#ifndef GRIT_CG2_WALL_FACET_H
#define GRIT_CG2_WALL_FACET_H

#include "cg2/geom.h"

static inline bool cg2_wall_facet(const grit_scene *s, int a, int b, grit_vec3 shift, bool real,
                                  const grit_l6geom *prev, grit_cg2_out *o)
{
    const grit_wall_data *w = &s->walls[s->b.sidx[a]];
    const grit_facet_data *f = &s->facets[s->b.sidx[b]];
    const int ax = w->axis;
    const double h = f->half_thick;
    if (!(h > 0)) return false;
    const double wa = v3_get(s->b.pr[a].pos, ax);
    grit_vec3 p[3];
    double dl[3];
    bool near = false;
    for (int i = 0; i < 3; i++) {
        p[i] = v3_add(f->v[i], shift);
        dl[i] = v3_get(p[i], ax) - wa;
        near = near || fabs(dl[i]) <= h;
    }
    if (!real && !near) return false;
    double nu = wall_sense(w->sense, ax, real, prev, dl[0] + dl[1] + dl[2]);
    double umin = INFINITY, su = 0;
    grit_vec3 c = v3_zero(), cmin = p[0];
    for (int i = 0; i < 3; i++) {
        double ui = nu * dl[i] - h;
        if (ui < umin) {
            umin = ui;
            cmin = p[i];
        }
        if (ui < 0) { /* penetration-weighted mean of the overlapping vertices */
            c = v3_madd(c, ui, p[i]);
            su += ui;
        }
    }
    o->c = su < 0 ? v3_scale(c, 1.0 / su) : cmin;
    v3_set(&o->c, ax, wa);
    o->uN = umin;
    o->n = v3_scale(v3_unit(ax), nu);
    cg2_nodes(s, a, b, v3_add(s->b.pr[b].pos, shift), o);
    o->r1 = -h;
    o->r2 = h;
    return true;
}

#endif
