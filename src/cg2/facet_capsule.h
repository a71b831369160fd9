/* grit internal: Cg2_Facet_Capsule_L6Geom (spec 2.4 (13)). A = facet,
 * B = capsule. The facet is two-sided.
 *
 * With woo_geom (the spec): only the two capsule end points are sampled --
 * for each end, the nearest facet point F_i and the point S_i of the
 * capsule segment nearest to F_i; the smaller gap |S_i - F_i| - (h + r),
 * and if both ends are within reach, normal and foot weighted by their
 * penetrations. A shaft crossing a facet edge far from both ends is
 * approximated, and the force is not the gradient of the stored energy.
 *
 * By default (docs/shapes.md, "a capsule's two ends"): the distance between
 * the capsule's segment and the triangle, minus h + r, as the smallest of
 * the critical pairs -- each end against the triangle (face, edge or
 * vertex), each edge against the segment and each vertex against it (both
 * points inside their segments) -- with the two end gaps joined by their
 * smooth minimum (smin2, width r / 8), so that a capsule lying on a face is
 * carried by both ends and the contact point moves smoothly as it rocks. The
 * force is then the gradient of the stored energy k_n u_N^2 / 2 (exactly so
 * whenever the ends see one normal, as on a face), and a shaft crossing an
 * edge is found wherever it crosses. */
#ifndef GRIT_CG2_FACET_CAPSULE_H
#define GRIT_CG2_FACET_CAPSULE_H

#include "cg2/geom.h"
#include "shape/shape.h"

/* The conservative version; xb, u, e: capsule centre, axis, half shaft. */
static inline bool facet_capsule_smooth(const grit_facet_data *f, double r, grit_vec3 xb, grit_vec3 u, double e,
                                        grit_vec3 fallback, bool real, grit_cg2_out *o)
{
    const double h = f->half_thick, T = h + r, delta = GRIT_CAPSULE_SMOOTH * r;
    /* the ends against the triangle */
    grit_vec3 P[2] = {v3_madd(xb, -e, u), v3_madd(xb, e, u)}, F[2];
    double gap[2];
    for (int i = 0; i < 2; i++) {
        F[i] = grit_facet_nearest_point(f, P[i]);
        gap[i] = v3_norm(v3_sub(P[i], F[i])) - T;
    }
    double wt[2] = {1, 0};
    double best = e > 0 ? smin2(gap[0], gap[1], delta, wt) : gap[0];
    /* interior pairs: edges and vertices against the segment */
    grit_vec3 pa = v3_zero(), pb = v3_zero();
    bool interior = false;
    for (int k = 0; k < 3; k++) {
        grit_vec3 A = f->v[k], B = f->v[(k + 1) % 3], ue = v3_sub(B, A);
        const double le = v3_norm(ue);
        double se, tc;
        seg_seg_closest(v3_scale(v3_add(A, B), 0.5), v3_scale(ue, 1.0 / le), 0.5 * le, xb, u, e, &se, &tc);
        if (fabs(se) < 0.5 * le && fabs(tc) < e) {
            grit_vec3 q = v3_madd(v3_scale(v3_add(A, B), 0.5), se / le, ue), c = v3_madd(xb, tc, u);
            const double g = v3_norm(v3_sub(c, q)) - T;
            if (g < best) best = g, pa = q, pb = c, interior = true;
        }
        const double tv = seg_closest_param(xb, u, e, A);
        if (fabs(tv) < e) {
            grit_vec3 c = v3_madd(xb, tv, u);
            const double g = v3_norm(v3_sub(c, A)) - T;
            if (g < best) best = g, pa = A, pb = c, interior = true;
        }
    }
    if (!real && best > 0) return false;
    o->uN = best;
    grit_vec3 dir, foot;
    if (interior) {
        dir = v3_sub(pb, pa);
        foot = pa;
    } else {
        dir = v3_zero();
        foot = v3_zero();
        for (int i = 0; i < 2; i++) {
            if (wt[i] == 0) continue;
            grit_vec3 d = v3_sub(P[i], F[i]);
            const double dn = v3_norm(d);
            dir = v3_madd(dir, wt[i], dn > 0 ? v3_scale(d, 1.0 / dn) : fallback);
            foot = v3_madd(foot, wt[i], F[i]);
        }
    }
    const double dn = v3_norm(dir);
    o->n = dn > 0 ? v3_scale(dir, 1.0 / dn) : fallback;
    o->c = v3_madd(foot, h + 0.5 * o->uN, o->n);
    return true;
}

static inline bool cg2_facet_capsule(const grit_scene *s, int a, int b, grit_vec3 shift, bool real,
                                     const grit_l6geom *prev, grit_cg2_out *o)
{
    const grit_facet_data *f = &s->facets[s->b.sidx[a]];
    const double h = f->half_thick, r = s->b.pr[b].r, T = h + r;
    const double e = grit_capsule_half(s, b);
    grit_vec3 xb = v3_add(s->b.pr[b].pos, shift), u = grit_capsule_axis(s, b);
    grit_vec3 P[2] = {v3_madd(xb, -e, u), v3_madd(xb, e, u)};
    double dl0 = v3_dot(v3_sub(P[0], f->v[0]), f->normal), dl1 = v3_dot(v3_sub(P[1], f->v[0]), f->normal);
    if (!real && signbit(dl0) == signbit(dl1) && fmin(fabs(dl0), fabs(dl1)) > T + GRIT_CAPSULE_SMOOTH * r)
        return false;
    /* the capsule's axis on the facet's mid-plane has no direction of its
     * own: the previous normal, or the side of the capsule's centre */
    grit_vec3 fallback = real ? prev->ex
                              : (v3_dot(v3_sub(xb, f->v[0]), f->normal) >= 0 ? f->normal : v3_neg(f->normal));
    if (!s->def.woo_geom) {
        if (!facet_capsule_smooth(f, r, xb, u, e, fallback, real, o)) return false;
        cg2_nodes(s, a, b, xb, o);
        o->r1 = fmax(h, r);
        o->r2 = r;
        return true;
    }
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
    o->n = dn > 0 ? v3_scale(dir, 1.0 / dn) : fallback;
    o->c = v3_madd(foot, h + 0.5 * o->uN, o->n);
    cg2_nodes(s, a, b, xb, o);
    o->r1 = fmax(h, r);
    o->r2 = r;
    return true;
}

#endif
