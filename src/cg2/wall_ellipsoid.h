/* grit internal: Cg2_Wall_Ellipsoid_L6Geom (spec 2.4 (7)). A = wall,
 * B = ellipsoid. Exact gap: the ellipsoid's half-extent along the wall axis
 * is e = |row_a(M)|, reached at the point M row_a(M)^T / e.
 *
 * Deviation: for a two-sided wall Woo re-evaluates the side every step; grit
 * keeps the side of the contact's creation, as for Wall-Sphere, so that an
 * ellipsoid pushed past the wall plane is pushed back, not through. */
#ifndef GRIT_CG2_WALL_ELLIPSOID_H
#define GRIT_CG2_WALL_ELLIPSOID_H

#include "cg2/geom.h"
#include "shape/shape.h"

static inline bool cg2_wall_ellipsoid(const grit_scene *s, int a, int b, grit_vec3 shift, bool real,
                                      const grit_l6geom *prev, grit_cg2_out *o)
{
    const grit_wall_data *w = &s->walls[s->b.sidx[a]];
    const int ax = w->axis;
    grit_vec3 xa = s->b.pr[a].pos, xb = v3_add(s->b.pr[b].pos, shift);
    grit_mat3 M = grit_ellipsoid_matrix(s, b);
    grit_vec3 row = v3(v3_get(M.c[0], ax), v3_get(M.c[1], ax), v3_get(M.c[2], ax));
    double e = v3_norm(row);
    double wa = v3_get(xa, ax), delta = v3_get(xb, ax) - wa;
    if (!real && fabs(delta) > e) return false;
    double nu = wall_sense(w->sense, ax, real, prev, delta);
    o->n = v3_scale(v3_unit(ax), nu);
    o->uN = nu * delta - e;
    grit_vec3 pe = v3_scale(m3_mul(&M, row), 1.0 / e);
    o->c = v3_madd(xb, -nu, pe);
    v3_set(&o->c, ax, wa);
    double rho = v3_norm(v3_sub(o->c, xb));
    cg2_nodes(s, a, b, xb, o);
    o->r1 = -rho;
    o->r2 = rho;
    return true;
}

#endif
