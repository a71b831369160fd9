/* grit: the Wall shape, an infinite plane normal to a global axis. */
#include "shape/shape.h"

static grit_aabb wall_aabb(const grit_scene *s, int i)
{
    const grit_wall_data *w = &s->walls[s->b.sidx[i]];
    grit_aabb bb = {v3(-INFINITY, -INFINITY, -INFINITY), v3(INFINITY, INFINITY, INFINITY)};
    double c = v3_get(s->b.pr[i].pos, w->axis);
    v3_set(&bb.lo, w->axis, c);
    v3_set(&bb.hi, w->axis, c);
    return bb;
}

static double wall_pwave_radius(const grit_scene *s, int i)
{
    (void)s;
    (void)i;
    return NAN;
}

const grit_shape_class grit_shape_wall_class = {
    .name = "Wall",
    .aabb = wall_aabb,
    .pwave_radius = wall_pwave_radius,
    .equiv_radius = wall_pwave_radius,
    .rot_radius = NULL,
    .follow_node = NULL,
    .unbounded = true,
};
