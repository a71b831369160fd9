/* grit internal: Cg2_Facet_InfCylinder_L6Geom (spec 2.4 (16)). A = facet,
 * B = infinite cylinder. Only the facet's edges are tested, in the plane
 * normal to the cylinder axis. A thin facet is rigid here: lens (0, R), so
 * the cylinder alone gives the stiffness (spec 2.5; the only pair breaking
 * rule 2). The cylinder's periodic shift is applied ([Woo quirk] corrected). */
#ifndef GRIT_CG2_FACET_INFCYLINDER_H
#define GRIT_CG2_FACET_INFCYLINDER_H

#include "cg2/geom.h"

static inline bool cg2_facet_infcylinder(const grit_scene *s, int a, int b, grit_vec3 shift, bool real,
                                         const grit_l6geom *prev, grit_cg2_out *o)
{
    const grit_facet_data *f = &s->facets[s->b.sidx[a]];
    const int ax = s->infcyls[s->b.sidx[b]].axis;
    const double h = f->half_thick, R = s->b.pr[b].r, T = R + h;
    grit_vec3 xb = v3_add(s->b.pr[b].pos, shift);
    double d[3], dmin = INFINITY, sw = 0;
    grit_vec3 p[3], pw = v3_zero();
    int kmin = 0;
    for (int i = 0; i < 3; i++) {
        grit_vec3 A = f->v[i], B = f->v[(i + 1) % 3];
        grit_vec3 M = v3_sub(B, A), CB = v3_sub(xb, A); /* projected: axis component zeroed */
        v3_set(&M, ax, 0.0);
        v3_set(&CB, ax, 0.0);
        double mm = v3_norm2(M);
        double t = mm > 0 ? clamp(v3_dot(M, CB) / mm, 0.0, 1.0) : 0.0; /* edge along the axis */
        d[i] = v3_norm(v3_madd(CB, -t, M));
        p[i] = v3_madd(A, t, v3_sub(B, A));
        if (d[i] < dmin) {
            dmin = d[i];
            kmin = i;
        }
        if (d[i] < T) {
            pw = v3_madd(pw, d[i] - T, p[i]);
            sw += d[i] - T;
        }
    }
    bool touch = dmin < T;
    if (!real && !touch) return false;
    grit_vec3 pc = touch ? v3_scale(pw, 1.0 / sw) : p[kmin];
    o->uN = dmin - T;
    grit_vec3 n = v3_sub(xb, pc);
    v3_set(&n, ax, 0.0);
    double nn = v3_norm(n);
    if (nn > 0) o->n = v3_scale(n, 1.0 / nn);
    else if (real) o->n = prev->ex;
    else {
        o->n = f->normal;
        v3_set(&o->n, ax, 0.0);
        o->n = v3_norm2(o->n) > 0 ? v3_normalized(o->n) : perp_unit(ax);
    }
    o->c = v3_madd(pc, h + 0.5 * o->uN, o->n);
    cg2_nodes(s, a, b, xb, o);
    o->r1 = h;
    o->r2 = R;
    return true;
}

#endif
