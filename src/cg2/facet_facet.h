/* grit internal: Cg2_Facet_Facet_L6Geom (spec 2.4 (15)). A, B = facets with
 * thickness (two thin facets are flat-flat: refused before the first step).
 *
 * Candidate point pairs (a on A, b on B): each vertex against the other
 * facet (6 pairs) and the closest points of the 9 edge pairs. Pairs closer
 * than hA + hB share the contact, weighted by their penetration; edge pairs
 * near an edge end are left to the vertex pairs (spec: 0.99 of the half
 * length -- applied here to each edge's own half length, so that a short
 * edge's end is not counted twice). */
#ifndef GRIT_CG2_FACET_FACET_H
#define GRIT_CG2_FACET_FACET_H

#include "cg2/geom.h"
#include "shape/shape.h"

static inline bool cg2_facet_facet(const grit_scene *s, int a, int b, grit_vec3 shift, bool real,
                                   const grit_l6geom *prev, grit_cg2_out *o)
{
    const grit_facet_data *fa = &s->facets[s->b.sidx[a]], *fb0 = &s->facets[s->b.sidx[b]];
    const double hA = fa->half_thick, T = hA + fb0->half_thick;
    grit_facet_data fb = *fb0; /* B shifted by the periodic image */
    for (int k = 0; k < 3; k++) fb.v[k] = v3_add(fb.v[k], shift);
    grit_vec3 ca[15], cb[15];
    int nc = 0;
    for (int k = 0; k < 3; k++) {
        ca[nc] = fa->v[k];
        cb[nc++] = grit_facet_nearest_point(&fb, fa->v[k]);
        ca[nc] = grit_facet_nearest_point(fa, fb.v[k]);
        cb[nc++] = fb.v[k];
    }
    const int n_vertex = nc;
    bool edge_ok[15] = {false};
    for (int i = 0; i < 3; i++) {
        grit_vec3 A0 = fa->v[i], A1 = fa->v[(i + 1) % 3];
        grit_vec3 ua = v3_sub(A1, A0);
        double ea = 0.5 * v3_norm(ua);
        ua = v3_scale(ua, 1.0 / (2 * ea));
        grit_vec3 ma = v3_scale(v3_add(A0, A1), 0.5);
        for (int j = 0; j < 3; j++) {
            grit_vec3 B0 = fb.v[j], B1 = fb.v[(j + 1) % 3];
            grit_vec3 ub = v3_sub(B1, B0);
            double eb = 0.5 * v3_norm(ub);
            ub = v3_scale(ub, 1.0 / (2 * eb));
            grit_vec3 mb = v3_scale(v3_add(B0, B1), 0.5);
            double ps, pt;
            seg_seg_closest(ma, ua, ea, mb, ub, eb, &ps, &pt);
            ca[nc] = v3_madd(ma, ps, ua);
            cb[nc] = v3_madd(mb, pt, ub);
            edge_ok[nc++] = fabs(ps) <= 0.99 * ea && fabs(pt) <= 0.99 * eb;
        }
    }
    grit_vec3 sa = v3_zero(), sb = v3_zero();
    double sw = 0, dmin = INFINITY, dclose = INFINITY;
    int kmin = 0;
    for (int k = 0; k < nc; k++) {
        double dk = v3_norm(v3_sub(cb[k], ca[k]));
        if (dk < dmin) {
            dmin = dk;
            kmin = k;
        }
        if (dk < T && (k < n_vertex || edge_ok[k])) {
            double wk = dk - T;
            sa = v3_madd(sa, wk, ca[k]);
            sb = v3_madd(sb, wk, cb[k]);
            sw += wk;
            dclose = fmin(dclose, dk);
        }
    }
    grit_vec3 pa, pb;
    if (sw < 0) {
        pa = v3_scale(sa, 1.0 / sw);
        pb = v3_scale(sb, 1.0 / sw);
    } else {
        if (!real) return false;
        pa = ca[kmin];
        pb = cb[kmin];
    }
    o->uN = (sw < 0 ? dclose : dmin) - T;
    grit_vec3 d = v3_sub(pb, pa);
    double dn = v3_norm(d);
    if (dn > 0) o->n = v3_scale(d, 1.0 / dn);
    else if (real) o->n = prev->ex;
    else { /* interpenetrating planes: A's normal towards B */
        grit_vec3 gb = v3_scale(v3_add(v3_add(fb.v[0], fb.v[1]), fb.v[2]), 1.0 / 3.0);
        o->n = v3_dot(v3_sub(gb, fa->v[0]), fa->normal) >= 0 ? fa->normal : v3_neg(fa->normal);
    }
    o->c = v3_madd(pa, hA + 0.5 * o->uN, o->n);
    cg2_nodes(s, a, b, v3_add(s->b.pr[b].pos, shift), o);
    o->r1 = hA;
    o->r2 = fb.half_thick;
    return true;
}

#endif
