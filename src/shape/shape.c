/* grit: the table of shape classes, indexed by grit_shape_type. */
#include "shape/shape.h"

const grit_shape_class *const grit_shape_classes[GRIT_SHAPE_COUNT] = {
    [GRIT_SHAPE_SPHERE] = &grit_shape_sphere_class,
    [GRIT_SHAPE_WALL] = &grit_shape_wall_class,
    [GRIT_SHAPE_FACET] = &grit_shape_facet_class,
};
