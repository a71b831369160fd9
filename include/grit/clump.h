/* grit: clumps -- rigid bodies made of member spheres (docs/clumps.md).
 *
 * A clump is one body (shape GRIT_SHAPE_CLUMP: it carries the mass, the
 * principal inertia, the orientation and the motion, and touches nothing)
 * followed by its member spheres, whose ids follow the body's: body + 1 ...
 * body + n. Members take part in contacts like any sphere, except with the
 * members of their own clump; they are not integrated: every step places
 * them from the body's position and orientation and gives them its rigid
 * velocity, and their contact forces and torques are summed on the body in
 * member order. In a periodic cell a clump must span less than half the
 * cell along each base vector (grit_add_clump refuses a wider one, naming
 * it; docs/periodic.md "Clumps"). */
#ifndef GRIT_CLUMP_H
#define GRIT_CLUMP_H

#include "grit/scene.h"
#include "grit/export.h"

GRIT_BEGIN_DECLS

/* A clump from a template: member k is the sphere of radius radii[k] at
 * pos + R(ori) centers[k] (centers in the template's frame; ori any finite
 * nonzero quaternion, normalised). The body sits at the centre of mass of
 * the union of the spheres (overlaps counted once), with the velocity `vel`
 * and the angular velocity `angvel` (global axes). `cells_per_radius` sets
 * the grid that integrates the mass of overlapping members (per smallest
 * member radius; docs/clumps.md); disjoint members are exact. */
typedef struct grit_clump_def {
    grit_vec3 pos, vel, angvel;
    grit_quat ori;
    int n;                    /* member count, 1 ... GRIT_CLUMP_MAX_MEMBERS */
    const grit_vec3 *centers; /* n member centres, template frame */
    const double *radii;      /* n member radii */
    int material;             /* of every member; its density gives the mass */
    unsigned blocked;         /* GRIT_BLOCK_* bits of the body */
    uint32_t mask;            /* of every member */
    int cells_per_radius;     /* 8 ... 1024; default 48 */
} grit_clump_def;
enum { GRIT_CLUMP_MAX_MEMBERS = 4096 };
grit_clump_def grit_default_clump_def(void);

/* What a clump made from a definition would be. */
typedef struct grit_clump_props {
    double mass, volume;
    grit_vec3 center;  /* centre of mass, global (pos + R(ori) c) */
    grit_vec3 inertia; /* principal moments, ascending */
    grit_quat ori;     /* principal axes: body x, y, z in global axes */
    bool exact;        /* members disjoint: closed form; else grid integration */
} grit_clump_props;

/* Add a clump; returns the body's id (members are id + 1 ... id + n) or a
 * negative grit_status (nothing added). */
int grit_add_clump(grit_scene *s, const grit_clump_def *def);
/* Mass properties of the clump `def` would make (no particle is added). */
int grit_get_clump_properties(grit_scene *s, const grit_clump_def *def, grit_clump_props *out);
/* For a clump body or member `id`: the body's id and the member count
 * (either may be NULL). GRIT_EINVAL if `id` is neither. */
int grit_get_clump(const grit_scene *s, int id, int *body, int *n_members);
/* Member k's centre in the body's principal frame and its radius. */
int grit_get_clump_member(const grit_scene *s, int body, int k, grit_vec3 *local, double *radius);
int grit_get_clump_count(const grit_scene *s);

GRIT_END_DECLS

#endif
