/* grit: which geometry functor handles which pair of shapes, and in which
 * order it wants them (the name of a functor gives the order). */
#include "cg2/cg2.h"
#include "cg2/facet_sphere.h"
#include "cg2/sphere_sphere.h"
#include "cg2/wall_sphere.h"

#define E(k, sw) {(uint8_t)(k), (uint8_t)(sw)}
#define NONE E(GRIT_CG2_NONE, 0)

const grit_cg2_entry grit_cg2_dispatch[GRIT_SHAPE_COUNT][GRIT_SHAPE_COUNT] = {
    /* A \ B            Sphere                              Wall                           Facet */
    [GRIT_SHAPE_SPHERE] = {E(GRIT_CG2_SPHERE_SPHERE, 0), E(GRIT_CG2_WALL_SPHERE, 1), E(GRIT_CG2_FACET_SPHERE, 1)},
    [GRIT_SHAPE_WALL] = {E(GRIT_CG2_WALL_SPHERE, 0), NONE, NONE},
    [GRIT_SHAPE_FACET] = {E(GRIT_CG2_FACET_SPHERE, 0), NONE, NONE},
};

const char *const grit_cg2_names[GRIT_CG2_KIND_COUNT] = {
    [GRIT_CG2_SPHERE_SPHERE] = "Cg2_Sphere_Sphere_L6Geom",
    [GRIT_CG2_FACET_SPHERE] = "Cg2_Facet_Sphere_L6Geom",
    [GRIT_CG2_WALL_SPHERE] = "Cg2_Wall_Sphere_L6Geom",
};

bool grit_cg2_eval(const grit_scene *s, int kind, int a, int b, grit_vec3 shift, bool real,
                   const grit_l6geom *prev, grit_cg2_out *o)
{
    switch (kind) {
    case GRIT_CG2_SPHERE_SPHERE: return cg2_sphere_sphere(s, a, b, shift, real, prev, o);
    case GRIT_CG2_FACET_SPHERE: return cg2_facet_sphere(s, a, b, shift, real, prev, o);
    case GRIT_CG2_WALL_SPHERE: return cg2_wall_sphere(s, a, b, shift, real, prev, o);
    default: return false;
    }
}
