/* grit internal: geometry functors (Cg2) -- shape pair -> contact geometry.
 *
 * Every functor has the same contract (spec section 2.3): given the two
 * particles in the functor's order (A, B), it returns false when the
 * contact is not real and the shapes do not touch; otherwise it fills a
 * grit_cg2_out (unit normal A->B, gap uN, contact point, the points and
 * velocities used for the relative velocity, and the two signed lengths
 * r1, r2 from which the effective lengths and contact area come) and
 * returns true. l6geom.h turns that into the contact-local frame.
 *
 * Adding a shape pair = one header here with its inline functor (included
 * by all.h) and one entry in GRIT_CG2_LIST below. */
#ifndef GRIT_CG2_H
#define GRIT_CG2_H

#include "core/scene_impl.h"

/* The registration list of the geometry functors:
 *   X(KIND, functor, shape A, shape B, Woo's name)
 * The functor takes the particles in the order (A, B). The enum, the
 * dispatch table by shape pair (dispatch.c), the names and the contact
 * loop's specialisations (contact/contact_loop.c) all follow from this list.
 * The order is kept in restart files: append new pairs at the end. Pairs
 * without an entry never collide (as in Woo; e.g. ellipsoid - infinite
 * cylinder). Facet-Ellipsoid and Capsule-Ellipsoid are grit extensions. */
#define GRIT_CG2_LIST(X)                                                                           \
    X(SPHERE_SPHERE, cg2_sphere_sphere, SPHERE, SPHERE, "Cg2_Sphere_Sphere_L6Geom")                \
    X(FACET_SPHERE, cg2_facet_sphere, FACET, SPHERE, "Cg2_Facet_Sphere_L6Geom")                    \
    X(WALL_SPHERE, cg2_wall_sphere, WALL, SPHERE, "Cg2_Wall_Sphere_L6Geom")                        \
    X(INFCYLINDER_SPHERE, cg2_infcylinder_sphere, INFCYLINDER, SPHERE,                             \
      "Cg2_InfCylinder_Sphere_L6Geom")                                                             \
    X(ELLIPSOID_ELLIPSOID, cg2_ellipsoid_ellipsoid, ELLIPSOID, ELLIPSOID,                          \
      "Cg2_Ellipsoid_Ellipsoid_L6Geom")                                                            \
    X(SPHERE_ELLIPSOID, cg2_sphere_ellipsoid, SPHERE, ELLIPSOID, "Cg2_Sphere_Ellipsoid_L6Geom")    \
    X(WALL_ELLIPSOID, cg2_wall_ellipsoid, WALL, ELLIPSOID, "Cg2_Wall_Ellipsoid_L6Geom")            \
    X(WALL_FACET, cg2_wall_facet, WALL, FACET, "Cg2_Wall_Facet_L6Geom")                            \
    X(ROD_SPHERE, cg2_rod_sphere, ROD, SPHERE, "Cg2_Rod_Sphere_L6Geom")                            \
    X(WALL_CAPSULE, cg2_wall_capsule, WALL, CAPSULE, "Cg2_Wall_Capsule_L6Geom")                    \
    X(CAPSULE_CAPSULE, cg2_capsule_capsule, CAPSULE, CAPSULE, "Cg2_Capsule_Capsule_L6Geom")        \
    X(INFCYLINDER_CAPSULE, cg2_infcylinder_capsule, INFCYLINDER, CAPSULE,                          \
      "Cg2_InfCylinder_Capsule_L6Geom")                                                            \
    X(FACET_CAPSULE, cg2_facet_capsule, FACET, CAPSULE, "Cg2_Facet_Capsule_L6Geom")                \
    X(SPHERE_CAPSULE, cg2_sphere_capsule, SPHERE, CAPSULE, "Cg2_Sphere_Capsule_L6Geom")            \
    X(FACET_FACET, cg2_facet_facet, FACET, FACET, "Cg2_Facet_Facet_L6Geom")                        \
    X(FACET_INFCYLINDER, cg2_facet_infcylinder, FACET, INFCYLINDER, "Cg2_Facet_InfCylinder_L6Geom") \
    X(FACET_ELLIPSOID, cg2_facet_ellipsoid, FACET, ELLIPSOID, "Cg2_Facet_Ellipsoid_L6Geom")        \
    X(CAPSULE_ELLIPSOID, cg2_capsule_ellipsoid, CAPSULE, ELLIPSOID, "Cg2_Capsule_Ellipsoid_L6Geom")

typedef enum grit_cg2_kind {
#define GRIT_CG2_ENUM(K, fn, A, B, name) GRIT_CG2_##K,
    GRIT_CG2_LIST(GRIT_CG2_ENUM)
#undef GRIT_CG2_ENUM
    GRIT_CG2_KIND_COUNT,
    GRIT_CG2_NONE = 255
} grit_cg2_kind;

/* blocks of contacts by (kind, law): scene_impl.h */
enum { GRIT_BLOCK_COUNT = GRIT_CG2_KIND_COUNT * GRIT_LAW_COUNT };
_Static_assert((int)GRIT_BLOCK_COUNT <= (int)GRIT_BLOCK_MAX, "too many (geometry, law) blocks for grit_contacts.block_start");

typedef struct grit_cg2_out {
    grit_vec3 n;  /* unit normal, A -> B */
    grit_vec3 c;  /* contact point */
    double uN;    /* gap, negative = overlap */
    grit_vec3 x1, v1, w1; /* A side: point, velocity, angular velocity */
    grit_vec3 x2, v2, w2; /* B side (x2 includes the periodic shift) */
    double r1, r2;        /* signed lengths (negative: flat, use the other) */
} grit_cg2_out;

typedef struct grit_cg2_entry {
    uint8_t kind; /* GRIT_CG2_NONE if the pair never collides */
    uint8_t swap; /* the functor wants the particles the other way round */
} grit_cg2_entry;

/* The dispatch table generated from GRIT_CG2_LIST (dispatch.c): per shape
 * pair 0 (no functor) or kind + 1, plus 128 when the particles are swapped. */
extern const uint8_t grit_cg2_table[GRIT_SHAPE_COUNT][GRIT_SHAPE_COUNT];
extern const char *const grit_cg2_names[GRIT_CG2_KIND_COUNT];

/* The functor of a pair of shapes, and whether it wants them swapped. */
static inline grit_cg2_entry grit_cg2_lookup(int shape_a, int shape_b)
{
    const uint8_t c = grit_cg2_table[shape_a][shape_b];
    return c ? (grit_cg2_entry){(uint8_t)((c & 127u) - 1u), (uint8_t)(c >> 7)} : (grit_cg2_entry){GRIT_CG2_NONE, 0};
}

/* Check that no two flat particles (walls, facets without thickness) may
 * collide: their effective lengths are undefined (spec 2.5, rule 3). Returns
 * GRIT_EINVAL with a message naming the first such pair, else 0. Cost: one
 * pass over the particles. */
int grit_cg2_check_flat_pairs(grit_scene *s);

/* Run the functor of `kind` (not inlined; for tests and cold paths). */
bool grit_cg2_eval(const grit_scene *s, int kind, int a, int b, grit_vec3 shift, bool real,
                   const grit_l6geom *prev, grit_cg2_out *o);

#endif
