/* grit internal: re-sorting particles in space (Morton order of grid cells),
 * so that particles near in space are near in memory. Measured on this
 * machine: about 3x on the contact loop against a shuffled order. */
#ifndef GRIT_SORT_H
#define GRIT_SORT_H

#include "core/scene_impl.h"
#include "shape/shape.h"

/* Permute all particle arrays (and `boxes`, one per particle) into Morton
 * order of the cells of size h from origin; unbounded particles go last.
 * Contact indices and the id map are remapped. */
int grit_sort_particles(grit_scene *s, grit_vec3 origin, double h, grit_aabb *boxes);

#endif
