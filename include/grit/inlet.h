/* grit public API: particle inlets (docs/inlets.md).
 *
 * An inlet inserts spheres into a region (a box, an upright cylinder, or a
 * closed triangle mesh) at
 * a mass rate, with radii drawn from a size distribution (a uniform range,
 * or up to GRIT_INLET_MAX_SIZES radii with their mass fractions), each at a
 * random place where it overlaps nothing. It runs at the start of every
 * step; the particles it adds are ordinary particles. The kinetic energy
 * they bring is booked (negative) in the energy entry `inlet`, so that the
 * balance stays closed. Its random stream and its record are saved in
 * restart files: a continued run inserts the same particles.
 *
 * With clump templates (n_clumps > 0) it inserts clumps (grit/clump.h)
 * instead of spheres: each a template drawn by its mass fraction, scaled by
 * a factor from the size fields if they are given (read as dimensionless
 * scales, as for shape templates; both NaN and n_sizes = 0: not scaled),
 * turned by a uniformly random rotation from the inlet's stream, its centre
 * of mass at a random place such that every member sphere lies inside the
 * region (the sphere about the centre of mass that holds every member, for
 * a box or a cylinder) and overlaps nothing.
 *
 * With shape templates (n_shapes > 0) it inserts single capsules and
 * ellipsoids: each a template drawn by its mass fraction, scaled by a
 * factor from the size fields (read as dimensionless scales: uniform in
 * [r_min, r_max] by number, or sizes with mass fractions; both NaN and
 * n_sizes = 0: scale 1), turned by a uniformly random rotation, its centre
 * where the sphere that bounds it lies inside the region and overlaps
 * nothing. An inlet has clump templates or shape templates, not both.
 *
 * Every particle it inserts gets the velocity vel and the angular velocity
 * angvel (global axes); both kinetic energies are booked. */
#ifndef GRIT_INLET_H
#define GRIT_INLET_H

#include <stdint.h>

#include "grit/scene.h"
#include "grit/export.h"

GRIT_BEGIN_DECLS

/* The regions of inlets and outlets: a box, an upright cylinder, or the
 * solid a closed triangle mesh encloses (an STL file's, for example: every
 * edge shared by two triangles of opposite orientation). */
enum { GRIT_REGION_BOX = 0, GRIT_REGION_CYLINDER = 1, GRIT_REGION_MESH = 2 };
enum { GRIT_INLET_MAX_SIZES = 8, GRIT_INLET_MAX_CLUMPS = 8, GRIT_INLET_MAX_SHAPES = 8 };

/* A clump template of an inlet: its member spheres in the template's frame
 * (the inlet copies them when it is added). */
typedef struct grit_inlet_clump {
    int n;                    /* members, 1 ... GRIT_CLUMP_MAX_MEMBERS */
    const grit_vec3 *centers; /* n member centres (m) */
    const double *radii;      /* n member radii (m) */
    double mass_frac;         /* its share of the inserted mass (normalised over the templates) */
} grit_inlet_clump;

/* A shape template of an inlet: one capsule or one ellipsoid at scale 1, in
 * its body frame (as grit_capsule_def and grit_ellipsoid_def give them). */
typedef struct grit_inlet_shape {
    int shape;            /* GRIT_SHAPE_CAPSULE or GRIT_SHAPE_ELLIPSOID */
    double radius, shaft; /* capsule: radius and the length of its cylinder along local x (m) */
    grit_vec3 semi_axes;  /* ellipsoid: semi-axes along local x, y, z (m) */
    double mass_frac;     /* its share of the inserted mass (normalised over the templates) */
} grit_inlet_shape;

typedef struct grit_inlet_def {
    int region;               /* GRIT_REGION_* */
    grit_vec3 lo, hi;         /* box: its corners (particle centres stay inside) */
    grit_vec3 center;         /* cylinder: the centre of its bottom face; its axis is z */
    double radius, height;    /* cylinder: radius and height (particle centres stay inside) */
    double mass_rate;         /* kg/s */
    double max_mass;          /* stop after inserting this much (INFINITY: never) */
    double t_start;           /* the scene time it starts at (NAN: the time it is added) */
    int n_sizes;              /* 0: radii uniform in [r_min, r_max] by number */
    double r_min, r_max;      /* m (with shape or clump templates: scale factors) */
    double sizes[GRIT_INLET_MAX_SIZES];     /* radii (m; with shape or clump templates: scale factors) */
    double mass_frac[GRIT_INLET_MAX_SIZES]; /* their shares of the mass (normalised) */
    int material;
    grit_vec3 vel;            /* initial velocity of the particles */
    grit_vec3 angvel;         /* initial angular velocity of the particles (rad/s, global axes) */
    uint64_t seed;            /* of the inlet's random stream */
    int max_attempts;         /* places tried per particle and step before it waits for the next step */
    int n_tri;                        /* mesh: triangles (copied when the inlet is added) */
    const grit_vec3 (*tri)[3];        /* mesh: their vertices (particles stay entirely inside) */
    int n_clumps;                     /* 0: spheres; else clumps from the first n_clumps templates */
    grit_inlet_clump clumps[GRIT_INLET_MAX_CLUMPS];
    int n_shapes;                     /* 0: none; else capsules/ellipsoids from the first n_shapes templates */
    grit_inlet_shape shapes[GRIT_INLET_MAX_SHAPES];
} grit_inlet_def;

grit_inlet_def grit_default_inlet_def(void);

/* What an inlet did so far. */
typedef struct grit_inlet_info {
    double mass;     /* inserted mass, kg */
    long count;      /* inserted particles (a clump counts once) */
    long failed;     /* places tried that overlapped something */
    double energy;   /* kinetic energy brought in, J */
    int waiting;     /* 1: the region was too full this step; the particle waits */
} grit_inlet_info;

/* Add an inlet; returns its index (>= 0) or a negative GRIT_E* code. */
int grit_add_inlet(grit_scene *s, const grit_inlet_def *d);
int grit_inlet_count(const grit_scene *s);
int grit_inlet_get(const grit_scene *s, int k, grit_inlet_def *def, grit_inlet_info *info);

GRIT_END_DECLS

#endif
