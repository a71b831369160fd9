/* grit internal: Cg2_Facet_Capsule_L6Geom (spec 2.4 (13)). A = facet,
 * B = capsule. The facet is two-sided.
 *
 * Only the two capsule end points are sampled: for each end, the nearest
 * facet point F_i and the point S_i of the capsule segment nearest to F_i.
 * If both samples are within reach they share the contact by their
 * penetration (a capsule lying on the facet is supported under both ends);
 * otherwise the nearer one alone defines it. A shaft crossing a facet edge
 * far from both ends is therefore approximated (as in Woo). */
#ifndef GRIT_CG2_FACET_CAPSULE_H
#define GRIT_CG2_FACET_CAPSULE_H

#include "cg2/geom.h"
#include "shape/shape.h"

static inline bool cg2_facet_capsule(const grit_scene *s, int a, int b, grit_vec3 shift, bool real,
                                     const grit_l6geom *prev, grit_cg2_out *o)
{
    const grit_facet_data *f = &s->facets[s->b.sidx[a]];
    const double h = f->half_thick, r = s->b.pr[b].r, T = h + r;
    const double e = grit_capsule_half(s, b);
    grit_vec3 xb = v3_add(s->b.pr[b].pos, shift), u = grit_capsule_axis(s, b);
    grit_vec3 P[2] = {v3_madd(xb, -e, u), v3_madd(xb, e, u)};
    double dl0 = v3_dot(v3_sub(P[0], f->v[0]), f->normal), dl1 = v3_dot(v3_sub(P[1], f->v[0]), f->normal);
    if (!real && signbit(dl0) == signbit(dl1) && fmin(fabs(dl0), fabs(dl1)) > T) return false;
    grit_vec3 F[2], S[2];
    double g[2];
    for (int i = 0; i < 2; i++) {
        F[i] = grit_facet_nearest_point(f, P[i]);
        S[i] = v3_madd(xb, seg_closest_param(xb, u, e, F[i]), u);
        g[i] = v3_norm(v3_sub(S[i], F[i]));
    }
    double gmin = fmin(g[0], g[1]);
    if (!real && gmin > T) return false;
    o->uN = gmin - T;
    grit_vec3 dir, foot;
    if (fmax(g[0], g[1]) > T) {
        int k = g[0] <= g[1] ? 0 : 1;
        dir = v3_sub(S[k], F[k]);
        foot = F[k];
    } else {
        double sw = (g[0] - T) + (g[1] - T);
        double w0 = sw != 0 ? (g[0] - T) / sw : 0.5, w1 = 1.0 - w0;
        dir = v3_add(v3_scale(v3_sub(S[0], F[0]), w0), v3_scale(v3_sub(S[1], F[1]), w1));
        foot = v3_add(v3_scale(F[0], w0), v3_scale(F[1], w1));
    }
    double dn = v3_norm(dir);
    if (dn > 0) o->n = v3_scale(dir, 1.0 / dn);
    else if (real) o->n = prev->ex;
    else o->n = v3_dot(v3_sub(xb, f->v[0]), f->normal) >= 0 ? f->normal : v3_neg(f->normal);
    o->c = v3_madd(foot, h + 0.5 * o->uN, o->n);
    cg2_nodes(s, a, b, xb, o);
    o->r1 = fmax(h, r);
    o->r2 = r;
    return true;
}

#endif
