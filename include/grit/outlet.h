/* grit public API: particle outlets (docs/outlets.md).
 *
 * An outlet deletes the particles whose node lies inside its region (a box,
 * an upright cylinder, or a closed triangle mesh), and records how many left and their mass (its
 * mass flow). It looks at the particles once per broad-phase rebuild (at the
 * start of the step after it), so that a particle is deleted within the
 * steps it takes to move the Verlet distance; that is what keeps an idle
 * outlet free. Fixed particles (infinite mass: walls, facets) and particles
 * with local-axes impositions are never deleted. A clump goes whole, body
 * and members, when its centre of mass (its body's node) is inside; it
 * counts once, with the clump's mass. The energy that leaves
 * (their kinetic energy, the elastic energy of their contacts) is booked in
 * the energy entry `outlet`, so that the balance stays closed. Particle ids
 * stay stable: a deleted particle's id is never reused
 * (grit_particle_id_end). Outlets are saved in restart files. */
#ifndef GRIT_OUTLET_H
#define GRIT_OUTLET_H

#include "grit/inlet.h"
#include "grit/scene.h"
#include "grit/export.h"

GRIT_BEGIN_DECLS

typedef struct grit_outlet_def {
    int region;                /* GRIT_REGION_* (grit/inlet.h) */
    grit_vec3 lo, hi;          /* box: its corners */
    grit_vec3 center;          /* cylinder: the centre of its bottom face; its axis is z */
    double radius, height;     /* cylinder: radius and height */
    int n_tri;                 /* mesh: triangles (copied when the outlet is added) */
    const grit_vec3 (*tri)[3]; /* mesh: their vertices */
} grit_outlet_def;

grit_outlet_def grit_default_outlet_def(void);

/* What an outlet did so far. */
typedef struct grit_outlet_info {
    double mass;   /* deleted mass, kg */
    long count;    /* deleted particles */
    double energy; /* energy that left with them (kinetic + elastic of their contacts), J */
} grit_outlet_info;

/* Add an outlet; returns its index (>= 0) or a negative GRIT_E* code. */
int grit_add_outlet(grit_scene *s, const grit_outlet_def *d);
int grit_outlet_count(const grit_scene *s);
int grit_outlet_get(const grit_scene *s, int k, grit_outlet_def *def, grit_outlet_info *info);

GRIT_END_DECLS

#endif
