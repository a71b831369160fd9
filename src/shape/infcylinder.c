/* grit: the InfCylinder shape -- an infinite circular cylinder along a
 * global axis through the node (spec 2.1). Infinite mass; it may translate
 * with an imposed velocity and spin about its own axis. */
#include "core/storage.h"
#include "grit/shapes.h"
#include "shape/shape.h"

static grit_aabb infcyl_aabb(const grit_scene *s, int i)
{
    int ax = s->infcyls[s->b.sidx[i]].axis;
    grit_posr p = s->b.pr[i];
    grit_vec3 r = v3(p.r, p.r, p.r);
    grit_aabb bb = {v3_sub(p.pos, r), v3_add(p.pos, r)};
    v3_set(&bb.lo, ax, -INFINITY);
    v3_set(&bb.hi, ax, INFINITY);
    return bb;
}

static double infcyl_no_radius(const grit_scene *s, int i)
{
    (void)s;
    (void)i;
    return NAN;
}

const grit_shape_class grit_shape_infcylinder_class = {
    .name = "InfCylinder",
    .aabb = infcyl_aabb,
    .pwave_radius = infcyl_no_radius,
    .equiv_radius = infcyl_no_radius,
    .rot_radius = NULL, /* axisymmetric: turning about the axis changes nothing */
    .follow_node = NULL,
    .unbounded = true,
};

grit_infcylinder_def grit_default_infcylinder_def(void)
{
    return (grit_infcylinder_def){.pos = v3(0, 0, 0), .axis = 0, .radius = NAN, .vel = v3(0, 0, 0), .angvel = 0.0,
                                  .material = 0, .mask = GRIT_MASK_PARTICLE};
}

int grit_add_infcylinder(grit_scene *s, const grit_infcylinder_def *d)
{
    if (d->axis < 0 || d->axis > 2)
        return grit_fail(s, GRIT_EINVAL, "infinite cylinder: axis = %d must be 0, 1 or 2", d->axis);
    if (!(d->radius > 0) || !isfinite(d->radius))
        return grit_fail(s, GRIT_EINVAL, "infinite cylinder: radius = %g must be positive and finite (m)", d->radius);
    if (!v3_isfinite(d->pos) || !v3_isfinite(d->vel) || !isfinite(d->angvel))
        return grit_fail(s, GRIT_EINVAL,
                         "infinite cylinder: position (%g, %g, %g), velocity and angular velocity must be finite",
                         d->pos.x, d->pos.y, d->pos.z);
    if (grit_check_material(s, "infinite cylinder", d->material)) return GRIT_EINVAL;
    if (grit_shape_reserve(s, (void **)&s->infcyls, sizeof *s->infcyls, s->n_infcyls, &s->cap_infcyls,
                           "infinite cylinder"))
        return GRIT_ENOMEM;
    int i = grit_append_body(s, GRIT_SHAPE_INFCYLINDER, s->n_infcyls, d->material, d->mask);
    if (i < 0) return i;
    s->infcyls[s->n_infcyls++] = (grit_infcyl_data){d->axis};
    grit_vec3 w = v3_zero();
    v3_set(&w, d->axis, d->angvel);
    s->b.pr[i] = (grit_posr){d->pos, d->radius};
    s->b.vw[i] = (grit_velw){d->vel, w, {0, 0}};
    s->b.flags[i] = GRIT_BLOCK_ALL | PF_NO_GRAVITY | PF_NO_DAMPING | PF_NO_ENERGY;
    return s->b.id[i];
}

int grit_get_infcylinder(const grit_scene *s, int id, int *axis, double *radius)
{
    int i = grit_idx(s, id);
    if (i < 0 || s->b.shape[i] != GRIT_SHAPE_INFCYLINDER)
        return grit_fail((grit_scene *)s, GRIT_EINVAL, "particle id %d is not an infinite cylinder", id);
    if (axis) *axis = s->infcyls[s->b.sidx[i]].axis;
    if (radius) *radius = s->b.pr[i].r;
    return GRIT_OK;
}
