/* grit internal: per-shape behaviour the rest of the engine needs.
 *
 * One file per shape (sphere.c, wall.c, facet.c) fills one entry of
 * grit_shape_classes. Contact geometry between two shapes lives in cg2/. */
#ifndef GRIT_SHAPE_H
#define GRIT_SHAPE_H

#include "core/scene_impl.h"

typedef struct grit_aabb {
    grit_vec3 lo, hi;
} grit_aabb;

typedef struct grit_shape_class {
    const char *name;
    /* Axis-aligned box of particle `i` (internal index); may be infinite
     * along some axes (walls). */
    grit_aabb (*aabb)(const grit_scene *s, int i);
    /* Radius for the p-wave time step, NAN if the shape does not take part. */
    double (*pwave_radius)(const grit_scene *s, int i);
    /* Refresh shape data that follows the node (after the node moved). */
    void (*follow_node)(grit_scene *s, int i);
    bool unbounded; /* infinite along at least one axis */
} grit_shape_class;

extern const grit_shape_class grit_shape_sphere_class;
extern const grit_shape_class grit_shape_wall_class;
extern const grit_shape_class grit_shape_facet_class;
extern const grit_shape_class *const grit_shape_classes[GRIT_SHAPE_COUNT];

/* Nearest point of a facet to p (region logic of spec section 2.3). */
grit_vec3 grit_facet_nearest_point(const grit_facet_data *f, grit_vec3 p);

#endif
