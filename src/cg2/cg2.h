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
 * Adding a shape pair = one header here with its inline functor, one entry
 * in the kind enum and one entry in the dispatch table (dispatch.c). */
#ifndef GRIT_CG2_H
#define GRIT_CG2_H

#include "core/scene_impl.h"

typedef enum grit_cg2_kind {
    GRIT_CG2_SPHERE_SPHERE = 0,
    GRIT_CG2_FACET_SPHERE,
    GRIT_CG2_WALL_SPHERE,
    GRIT_CG2_INFCYLINDER_SPHERE,
    GRIT_CG2_ELLIPSOID_ELLIPSOID,
    GRIT_CG2_SPHERE_ELLIPSOID,
    GRIT_CG2_WALL_ELLIPSOID,
    GRIT_CG2_WALL_FACET,
    GRIT_CG2_ROD_SPHERE,
    GRIT_CG2_WALL_CAPSULE,
    GRIT_CG2_CAPSULE_CAPSULE,
    GRIT_CG2_INFCYLINDER_CAPSULE,
    GRIT_CG2_FACET_CAPSULE,
    GRIT_CG2_SPHERE_CAPSULE,
    GRIT_CG2_FACET_FACET,
    GRIT_CG2_FACET_INFCYLINDER,
    /* grit extensions beyond Woo's sixteen */
    GRIT_CG2_FACET_ELLIPSOID,
    GRIT_CG2_CAPSULE_ELLIPSOID,
    GRIT_CG2_KIND_COUNT,
    GRIT_CG2_NONE = 255
} grit_cg2_kind;

/* kind_start in scene_impl.h has room for 32 kinds */
_Static_assert(GRIT_CG2_KIND_COUNT <= 32, "too many geometry kinds for grit_contacts.kind_start");

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

extern const grit_cg2_entry grit_cg2_dispatch[GRIT_SHAPE_COUNT][GRIT_SHAPE_COUNT];
extern const char *const grit_cg2_names[GRIT_CG2_KIND_COUNT];

/* Check that no two flat particles (walls, facets without thickness) may
 * collide: their effective lengths are undefined (spec 2.5, rule 3). Returns
 * GRIT_EINVAL with a message naming the first such pair, else 0. Cost: one
 * pass over the particles. */
int grit_cg2_check_flat_pairs(grit_scene *s);

/* Run the functor of `kind` (not inlined; for tests and cold paths). */
bool grit_cg2_eval(const grit_scene *s, int kind, int a, int b, grit_vec3 shift, bool real,
                   const grit_l6geom *prev, grit_cg2_out *o);

#endif
