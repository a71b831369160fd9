/* grit: the Sphere shape (radius stored in the hot posr record). */
#include "shape/shape.h"

/* The box of the sphere's reach: new sphere-sphere contacts are made up to
 * interaction_radius times the sum of the radii (cg2/sphere_sphere.h). */
static grit_aabb sphere_aabb(const grit_scene *s, int i)
{
    grit_posr p = s->b.pr[i];
    const double h = p.r * s->def.interaction_radius;
    grit_vec3 r = v3(h, h, h);
    return (grit_aabb){v3_sub(p.pos, r), v3_add(p.pos, r)};
}

static double sphere_pwave_radius(const grit_scene *s, int i) { return s->b.pr[i].r; }

const grit_shape_class grit_shape_sphere_class = {
    .name = "Sphere",
    .aabb = sphere_aabb,
    .pwave_radius = sphere_pwave_radius,
    .equiv_radius = sphere_pwave_radius,
    .rot_radius = NULL,
    .follow_node = NULL,
    .unbounded = false,
};
