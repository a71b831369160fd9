/* grit: the shapes beyond spheres, walls and facets -- infinite cylinder,
 * capsule, ellipsoid, rod -- their definitions and adders, read access to
 * every shape's parameters, and triangle meshes of shape surfaces (for
 * visualisation). See docs/shapes.md.
 *
 * Orientations are unit quaternions mapping body (local) axes to global
 * ones; any finite nonzero quaternion is accepted and normalised. */
#ifndef GRIT_SHAPES_H
#define GRIT_SHAPES_H

#include "grit/scene.h"
#include "grit/export.h"

GRIT_BEGIN_DECLS

/* Infinite cylinder: the line through `pos` along global `axis`, radius R.
 * Infinite mass; fixed, it may translate with the imposed `vel` and turn
 * about its own axis with `angvel` (rad/s, right-handed about +axis). Default
 * mask is a particle's (Woo): it meets spheres, capsules and facets. */
typedef struct grit_infcylinder_def {
    grit_vec3 pos;
    int axis; /* 0, 1, 2 */
    double radius;
    grit_vec3 vel;
    double angvel;
    int material;
    uint32_t mask;
} grit_infcylinder_def;
grit_infcylinder_def grit_default_infcylinder_def(void);
int grit_add_infcylinder(grit_scene *s, const grit_infcylinder_def *def);

/* Capsule: a cylinder of length `shaft` along local x, capped by two
 * hemispheres of `radius`. Mass and inertia from the material density
 * (the two hemispheres plus the cylinder; docs/shapes.md); integrated with
 * the quaternion leapfrog. */
typedef struct grit_capsule_def {
    grit_vec3 pos, vel, angvel;
    grit_quat ori;
    double radius, shaft;
    int material;
    unsigned blocked; /* GRIT_BLOCK_* bits */
    uint32_t mask;
} grit_capsule_def;
grit_capsule_def grit_default_capsule_def(void);
int grit_add_capsule(grit_scene *s, const grit_capsule_def *def);

/* Ellipsoid with semi-axes along local x, y, z. */
typedef struct grit_ellipsoid_def {
    grit_vec3 pos, vel, angvel;
    grit_quat ori;
    grit_vec3 semi_axes;
    int material;
    unsigned blocked;
    uint32_t mask;
} grit_ellipsoid_def;
grit_ellipsoid_def grit_default_ellipsoid_def(void);
int grit_add_ellipsoid(grit_scene *s, const grit_ellipsoid_def *def);

/* Rod: the capped cylinder of `radius` around the segment p[0]-p[1]. A
 * rigid, fixed (or kinematic, with `vel`) boundary like a facet; it only
 * meets spheres (Cg2_Rod_Sphere). Default mask is a boundary's. */
typedef struct grit_rod_def {
    grit_vec3 p[2];
    double radius;
    grit_vec3 vel;
    int material;
    uint32_t mask;
} grit_rod_def;
grit_rod_def grit_default_rod_def(void);
int grit_add_rod(grit_scene *s, const grit_rod_def *def);

/* ---- reading shape parameters (by particle id) --------------------------- */
/* Name of a grit_shape_type ("Sphere", "Capsule", ...), NULL if invalid. */
const char *grit_shape_name(int type);
int grit_get_capsule(const grit_scene *s, int id, double *radius, double *shaft);
int grit_get_ellipsoid(const grit_scene *s, int id, grit_vec3 *semi_axes);
int grit_get_infcylinder(const grit_scene *s, int id, int *axis, double *radius);
int grit_get_rod(const grit_scene *s, int id, grit_vec3 p[2], double *radius);
int grit_get_facet(const grit_scene *s, int id, grit_vec3 v[3], double *half_thick);
int grit_get_wall(const grit_scene *s, int id, int *axis, int *sense);

/* ---- surface meshes ------------------------------------------------------ */
typedef struct grit_trimesh {
    int nv, nt;
    grit_vec3 *v;   /* vertices, global coordinates */
    int (*t)[3];    /* triangles, counter-clockwise seen from outside */
} grit_trimesh;

/* Triangulate the surface of particle `id` in its current position and
 * orientation. `resolution` (>= 4) is the number of segments around a
 * circle; unbounded shapes (wall, infinite cylinder) are cut to a patch of
 * half-size `extent` (> 0) centred at the node. A thick facet becomes a
 * prism (its rounded edges are not drawn). Fills *out (free it with
 * grit_trimesh_free); returns GRIT_OK or a negative status. */
int grit_shape_tessellate(const grit_scene *s, int id, int resolution, double extent, grit_trimesh *out);
void grit_trimesh_free(grit_trimesh *m);

GRIT_END_DECLS

#endif
