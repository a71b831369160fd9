/* grit: the Rod shape -- a capped cylinder of radius R around a segment
 * (Woo's Rod/Truss, spec 2.1). Woo's rod has two nodes and no mass model;
 * in grit it is, like a facet, a rigid single-node body (node at the
 * midpoint, end points following it): fixed or moved kinematically, and it
 * receives the reaction forces of its contacts. */
#include "core/storage.h"
#include "grit/shapes.h"
#include "shape/shape.h"

static grit_aabb rod_aabb(const grit_scene *s, int i)
{
    const grit_rod_data *r = &s->rods[s->b.sidx[i]];
    double R = s->b.pr[i].r;
    grit_vec3 lo = v3(fmin(r->p[0].x, r->p[1].x), fmin(r->p[0].y, r->p[1].y), fmin(r->p[0].z, r->p[1].z));
    grit_vec3 hi = v3(fmax(r->p[0].x, r->p[1].x), fmax(r->p[0].y, r->p[1].y), fmax(r->p[0].z, r->p[1].z));
    grit_vec3 e = v3(R, R, R);
    return (grit_aabb){v3_sub(lo, e), v3_add(hi, e)};
}

static double rod_no_radius(const grit_scene *s, int i)
{
    (void)s;
    (void)i;
    return NAN;
}

static double rod_rot_radius(const grit_scene *s, int i)
{
    return v3_norm(s->rods[s->b.sidx[i]].ploc[0]) + s->b.pr[i].r;
}

static void rod_follow_node(grit_scene *s, int i)
{
    grit_rod_data *r = &s->rods[s->b.sidx[i]];
    for (int k = 0; k < 2; k++) r->p[k] = v3_add(s->b.pr[i].pos, q_rotate(s->b.ori[i], r->ploc[k]));
}

const grit_shape_class grit_shape_rod_class = {
    .name = "Rod",
    .aabb = rod_aabb,
    .pwave_radius = rod_no_radius,
    .equiv_radius = rod_no_radius,
    .rot_radius = rod_rot_radius,
    .follow_node = rod_follow_node,
    .unbounded = false,
};

grit_rod_def grit_default_rod_def(void)
{
    return (grit_rod_def){.p = {v3(0, 0, 0), v3(1, 0, 0)}, .radius = NAN, .vel = v3(0, 0, 0), .material = 0,
                          .mask = GRIT_MASK_BOUNDARY};
}

int grit_add_rod(grit_scene *s, const grit_rod_def *d)
{
    for (int k = 0; k < 2; k++)
        if (!v3_isfinite(d->p[k]))
            return grit_fail(s, GRIT_EINVAL, "rod: end point %d (%g, %g, %g) must be finite", k, d->p[k].x, d->p[k].y,
                             d->p[k].z);
    if (!(d->radius > 0) || !isfinite(d->radius))
        return grit_fail(s, GRIT_EINVAL, "rod: radius = %g must be positive and finite (m)", d->radius);
    if (!v3_isfinite(d->vel)) return grit_fail(s, GRIT_EINVAL, "rod: velocity must be finite");
    if (grit_check_material(s, "rod", d->material)) return GRIT_EINVAL;
    if (grit_shape_reserve(s, (void **)&s->rods, sizeof *s->rods, s->n_rods, &s->cap_rods, "rod")) return GRIT_ENOMEM;
    int i = grit_append_body(s, GRIT_SHAPE_ROD, s->n_rods, d->material, d->mask);
    if (i < 0) return i;
    grit_rod_data *r = &s->rods[s->n_rods++];
    grit_vec3 mid = v3_scale(v3_add(d->p[0], d->p[1]), 0.5);
    for (int k = 0; k < 2; k++) {
        r->p[k] = d->p[k];
        r->ploc[k] = v3_sub(d->p[k], mid);
    }
    s->b.pr[i] = (grit_posr){mid, d->radius};
    s->b.vw[i].v = d->vel;
    s->b.flags[i] = GRIT_BLOCK_ALL | PF_NO_GRAVITY | PF_NO_DAMPING | PF_NO_ENERGY;
    if (v3_norm2(d->vel) > 0) s->b.flags[i] |= PF_MOVES_SHAPE;
    return s->b.id[i];
}

int grit_get_rod(const grit_scene *s, int id, grit_vec3 p[2], double *radius)
{
    int i = grit_idx(s, id);
    if (i < 0 || s->b.shape[i] != GRIT_SHAPE_ROD)
        return grit_fail((grit_scene *)s, GRIT_EINVAL, "particle id %d is not a rod", id);
    if (p) {
        p[0] = s->rods[s->b.sidx[i]].p[0];
        p[1] = s->rods[s->b.sidx[i]].p[1];
    }
    if (radius) *radius = s->b.pr[i].r;
    return GRIT_OK;
}
