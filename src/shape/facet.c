/* grit: the Facet shape, a rigid triangle (optionally with half-thickness).
 *
 * Unlike Woo, where a facet has three independent nodes, a grit facet is a
 * single-node rigid body: its vertices follow the node's position and
 * orientation, so its velocity at any point is v + w x (p - x), and contact
 * forces can be applied to it (reaction forces of meshes). */
#include "shape/shape.h"

static grit_aabb facet_aabb(const grit_scene *s, int i)
{
    const grit_facet_data *f = &s->facets[s->b.sidx[i]];
    grit_aabb bb = {f->v[0], f->v[0]};
    for (int k = 1; k < 3; k++) {
        bb.lo = v3(fmin(bb.lo.x, f->v[k].x), fmin(bb.lo.y, f->v[k].y), fmin(bb.lo.z, f->v[k].z));
        bb.hi = v3(fmax(bb.hi.x, f->v[k].x), fmax(bb.hi.y, f->v[k].y), fmax(bb.hi.z, f->v[k].z));
    }
    grit_vec3 h = v3(f->half_thick, f->half_thick, f->half_thick);
    bb.lo = v3_sub(bb.lo, h);
    bb.hi = v3_add(bb.hi, h);
    return bb;
}

static double facet_pwave_radius(const grit_scene *s, int i)
{
    (void)s;
    (void)i;
    return NAN;
}

/* Only matters for facets that move (PF_MOVES_SHAPE): a mesh part turning
 * about its node. */
static double facet_rot_radius(const grit_scene *s, int i)
{
    const grit_facet_data *f = &s->facets[s->b.sidx[i]];
    double r = 0;
    for (int k = 0; k < 3; k++) r = fmax(r, v3_norm(f->vloc[k]));
    return r + f->half_thick;
}

static void facet_follow_node(grit_scene *s, int i)
{
    grit_facet_data *f = &s->facets[s->b.sidx[i]];
    grit_vec3 x = s->b.pr[i].pos;
    grit_quat q = s->b.ori[i];
    for (int k = 0; k < 3; k++) f->v[k] = v3_add(x, q_rotate(q, f->vloc[k]));
    f->normal = v3_normalized(v3_cross(v3_sub(f->v[1], f->v[0]), v3_sub(f->v[2], f->v[0])));
}

/* Closest point of triangle (a,b,c) to p, by Voronoi regions of vertices,
 * edges and face (exact, also for obtuse triangles). */
grit_vec3 grit_facet_nearest_point(const grit_facet_data *f, grit_vec3 p)
{
    grit_vec3 a = f->v[0], b = f->v[1], c = f->v[2];
    grit_vec3 ab = v3_sub(b, a), ac = v3_sub(c, a), ap = v3_sub(p, a);
    double d1 = v3_dot(ab, ap), d2 = v3_dot(ac, ap);
    if (d1 <= 0 && d2 <= 0) return a;
    grit_vec3 bp = v3_sub(p, b);
    double d3 = v3_dot(ab, bp), d4 = v3_dot(ac, bp);
    if (d3 >= 0 && d4 <= d3) return b;
    double vc = d1 * d4 - d3 * d2;
    if (vc <= 0 && d1 >= 0 && d3 <= 0) return v3_madd(a, d1 / (d1 - d3), ab);
    grit_vec3 cp = v3_sub(p, c);
    double d5 = v3_dot(ab, cp), d6 = v3_dot(ac, cp);
    if (d6 >= 0 && d5 <= d6) return c;
    double vb = d5 * d2 - d1 * d6;
    if (vb <= 0 && d2 >= 0 && d6 <= 0) return v3_madd(a, d2 / (d2 - d6), ac);
    double va = d3 * d6 - d5 * d4;
    if (va <= 0 && (d4 - d3) >= 0 && (d5 - d6) >= 0) {
        double w = (d4 - d3) / ((d4 - d3) + (d5 - d6));
        return v3_madd(b, w, v3_sub(c, b));
    }
    /* face: project onto the plane */
    return v3_madd(p, -v3_dot(v3_sub(p, a), f->normal), f->normal);
}

const grit_shape_class grit_shape_facet_class = {
    .name = "Facet",
    .aabb = facet_aabb,
    .pwave_radius = facet_pwave_radius,
    .equiv_radius = facet_pwave_radius,
    .rot_radius = facet_rot_radius,
    .follow_node = facet_follow_node,
    .unbounded = false,
};
