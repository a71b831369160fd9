/* grit internal: Cg2_Facet_Ellipsoid_L6Geom -- a grit extension (Woo has no
 * facet-ellipsoid functor: ellipsoids fall through meshes there). A = facet,
 * B = ellipsoid. Exact (ellipsoid_distance.h): the nearest part of the
 * triangle is its face if the ellipsoid's extreme point towards the plane
 * projects inside the triangle (gap: centre-plane distance minus the
 * support |M^T m|, as Wall-Ellipsoid), otherwise the nearest of its three
 * edges; a thick facet is the triangle swept by a ball of radius h, so h
 * is subtracted. The contact point is the middle of the overlap on the
 * common normal. Effective lengths (spec 2.5 rules): rho = ellipsoid
 * centre-contact point distance; the facet takes max(h, rho) if thick (as
 * facet-sphere), the other's length if thin. */
#ifndef GRIT_CG2_FACET_ELLIPSOID_H
#define GRIT_CG2_FACET_ELLIPSOID_H

#include "cg2/ellipsoid_distance.h"
#include "shape/shape.h"

/* Is the projection of p on the facet's plane inside the triangle? */
static inline bool facet_covers(const grit_facet_data *f, grit_vec3 p)
{
    for (int i = 0; i < 3; i++) {
        grit_vec3 e = v3_sub(f->v[(i + 1) % 3], f->v[i]);
        if (v3_dot(v3_cross(e, v3_sub(p, f->v[i])), f->normal) < 0) return false;
    }
    return true;
}

static inline bool cg2_facet_ellipsoid(const grit_scene *s, int a, int b, grit_vec3 shift, bool real,
                                       const grit_l6geom *prev, grit_cg2_out *o)
{
    const grit_facet_data *f = &s->facets[s->b.sidx[a]];
    const double h = f->half_thick;
    ell e = ell_of(s, b, shift);
    double side = v3_dot(v3_sub(e.c, f->v[0]), f->normal);
    const double reach = h + ell_max(&e); /* bounding sphere of the ellipsoid, plus h */
    if (!real && fabs(side) > reach) return false;
    if (!real && v3_norm2(v3_sub(e.c, grit_facet_nearest_point(f, e.c))) > reach * reach) return false;
    /* towards the ellipsoid's side (kept once in contact: two-sided facet) */
    bool up = real ? v3_dot(prev->ex, f->normal) >= 0 : side >= 0;
    grit_vec3 m = up ? f->normal : v3_neg(f->normal);
    grit_mat3 M = grit_ellipsoid_matrix(s, b);
    grit_vec3 Mtm = m3_tmul(&M, m);
    double sup = v3_norm(Mtm);
    grit_vec3 low = v3_madd(e.c, -1.0 / sup, m3_mul(&M, Mtm)); /* extreme point towards the plane */
    double g;
    grit_vec3 n = m, xe = low;
    if (facet_covers(f, low)) {
        g = (up ? side : -side) - sup;
        n = m;
        xe = low;
    } else {
        g = INFINITY;
        for (int i = 0; i < 3; i++) {
            grit_vec3 A = f->v[i], B = f->v[(i + 1) % 3], u = v3_sub(B, A);
            /* the ellipsoid lies within ell_max of its centre: skip edges
             * that cannot beat the best one */
            if (v3_norm(v3_sub(e.c, seg_closest(A, B, e.c))) - ell_max(&e) >= g) continue;
            double len = v3_norm(u);
            grit_vec3 q, x, nout;
            double d = ell_segment(&e, v3_scale(v3_add(A, B), 0.5), v3_scale(u, 1.0 / len), 0.5 * len, &q, &x, &nout);
            if (d < g) {
                g = d;
                n = v3_neg(nout);
                xe = x;
            }
        }
    }
    o->uN = g - h;
    if (!real && o->uN > 0) return false;
    o->n = n;
    o->c = v3_madd(xe, -0.5 * o->uN, n); /* between the ellipsoid's point and the facet surface */
    cg2_nodes(s, a, b, e.c, o);
    double rho = v3_norm(v3_sub(o->c, e.c));
    o->r1 = h > 0 ? fmax(h, rho) : -rho;
    o->r2 = rho;
    return true;
}

#endif
