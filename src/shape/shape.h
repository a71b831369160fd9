/* grit internal: per-shape behaviour the rest of the engine needs.
 *
 * One file per shape (sphere.c, wall.c, facet.c, infcylinder.c, capsule.c,
 * ellipsoid.c, rod.c) defines the grit_shape_<name>_class that GRIT_SHAPES
 * (grit/scene.h) puts in grit_shape_classes. Contact
 * geometry between two shapes lives in cg2/. */
#ifndef GRIT_SHAPE_H
#define GRIT_SHAPE_H

#include "core/scene_impl.h"

typedef struct grit_aabb {
    grit_vec3 lo, hi;
} grit_aabb;

typedef struct grit_shape_class {
    const char *name;
    /* Axis-aligned box of particle `i` (internal index); may be infinite
     * along some axes (walls, infinite cylinders). */
    grit_aabb (*aabb)(const grit_scene *s, int i);
    /* Radius for the p-wave time step, NAN if the shape does not take part:
     * for shapes that turn under a contact, the radius of the sphere of the
     * same material whose stiffness to mass ratio equals the particle's
     * worst, if that is below the spec's radius (timestep.c). */
    double (*pwave_radius)(const grit_scene *s, int i);
    /* Smallest effective mass of a contact on the particle, m / (1 + m
     * (l x n)^T I^-1 (l x n)) over contact points l with normals n (the
     * mass a contact force sees when it also turns the particle); NULL: the
     * mass. For the time step of pair overrides (timestep.c). */
    double (*eff_mass)(const grit_scene *s, int i);
    /* Radius of the sphere of the same volume (Woo's equivRadius), from
     * which a relative Verlet distance is derived; NAN if undefined. */
    double (*equiv_radius)(const grit_scene *s, int i);
    /* Largest distance of a point of the shape from its node. Non-NULL
     * marks a shape whose box changes when it rotates: the broad phase then
     * bounds the motion of its surface by |dx| + rot_radius * angle. */
    double (*rot_radius)(const grit_scene *s, int i);
    /* Refresh shape data that follows the node (after the node moved). */
    void (*follow_node)(grit_scene *s, int i);
    bool unbounded; /* infinite along at least one axis */
} grit_shape_class;

#define GRIT_SHAPE_CLASS_DECL(U, l) extern const grit_shape_class grit_shape_##l##_class;
GRIT_SHAPES(GRIT_SHAPE_CLASS_DECL)
#undef GRIT_SHAPE_CLASS_DECL
extern const grit_shape_class *const grit_shape_classes[GRIT_SHAPE_COUNT];

/* Nearest point of a facet to p (region logic of spec section 2.3). */
grit_vec3 grit_facet_nearest_point(const grit_facet_data *f, grit_vec3 p);

/* Refuse an angular velocity the shape cannot have (an infinite cylinder
 * turns only about its axis): GRIT_EINVAL with a message, else 0. */
int grit_shape_check_angvel(grit_scene *s, int i, grit_vec3 w);

/* Validate and normalise a user orientation; `what` names the shape in the
 * error message. */
int grit_shape_check_ori(grit_scene *s, const char *what, grit_quat q, grit_quat *out);

/* Grow a per-shape data array by one element if full (doubling). */
int grit_shape_reserve(grit_scene *s, void **arr, size_t elem, int n, int *cap, const char *what);

/* Flags of a free particle with principal inertia I: PF_ASPHERICAL when the
 * moments differ (the quaternion leapfrog of spec 8.3 then runs). */
unsigned grit_inertia_flags(grit_vec3 I);

/* Capsule helpers: shaft direction (local x in global axes) and half shaft. */
static inline grit_vec3 grit_capsule_axis(const grit_scene *s, int i) { return q_rotate(s->b.ori[i], v3(1, 0, 0)); }
static inline double grit_capsule_half(const grit_scene *s, int i) { return 0.5 * s->capsules[s->b.sidx[i]].shaft; }

/* Ellipsoid shape matrix M = R(q) diag(a) (columns: the rotated semi-axes). */
static inline grit_mat3 grit_ellipsoid_matrix(const grit_scene *s, int i)
{
    grit_vec3 a = s->ellipsoids[s->b.sidx[i]].semi;
    grit_mat3 m = q_to_mat3(s->b.ori[i]);
    m.c[0] = v3_scale(m.c[0], a.x);
    m.c[1] = v3_scale(m.c[1], a.y);
    m.c[2] = v3_scale(m.c[2], a.z);
    return m;
}

#endif
