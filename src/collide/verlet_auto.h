/* grit internal: the Verlet distance chosen automatically (scene parameter
 * verlet_dist = nan, docs/broad-phase.md "Automatic Verlet distance").
 *
 * At every rebuild the skin for the next interval is the one that minimises
 * a modelled cost per step: the potential pairs the contact loop checks at
 * every step (more with a wider skin) plus a rebuild's cost shared by the
 * steps until the next one (fewer with a wider skin: a particle moving d per
 * step crosses a skin s in s / d steps). The model uses counts only
 * (particles, potential pairs, the largest displacement since the last
 * rebuild, steps), never the clock, so a run makes the same choices, and the
 * same bytes, on any machine and with any number of threads. */
#ifndef GRIT_VERLET_AUTO_H
#define GRIT_VERLET_AUTO_H

#include "core/scene_impl.h"

/* The bounds of the automatic skin, as fractions of the smallest radius. */
#define GRIT_VERLET_AUTO_MIN 0.02
#define GRIT_VERLET_AUTO_MAX 1.0

/* The modelled cost of one step with skin `skin` (arbitrary units, about
 * nanoseconds): n particles, pairs0 candidate pairs (real and potential)
 * counted at skin skin0 (0: none counted yet),
 * rmin the smallest radius, d the largest displacement per step. */
double grit_verlet_auto_cost(double skin, int n, double pairs0, double skin0, double rmin, double d);

/* The skin for the next rebuild of an automatic scene, from the state now
 * (disp2: the squared largest displacement since the last rebuild, as the
 * rebuild test saw it); also the first skin (no rebuild yet). */
double grit_verlet_auto_choose(grit_scene *s, double disp2);

/* What the choice reads of the particles and pairs: on one process the
 * scene's own (grit_verlet_census_of); on MPI ranks the same figures of the
 * whole scene, summed over the ranks (src/mpi/halo.c). */
typedef struct grit_verlet_census {
    double rmin;  /* the smallest equivalent radius (INFINITY: none) */
    double v2;    /* the largest squared speed */
    double pairs; /* candidate pairs (real and potential) of the last rebuild */
    int n;        /* particles */
} grit_verlet_census;
void grit_verlet_census_of(const grit_scene *s, grit_verlet_census *c);
/* Particle i's radius and speed added to a census. */
void grit_verlet_census_add(const grit_scene *s, int i, grit_verlet_census *c);
/* grit_verlet_auto_choose from a census. */
double grit_verlet_auto_pick(const grit_scene *s, double disp2, const grit_verlet_census *c);

/* The smallest equivalent radius of the particles (INFINITY: none). */
double grit_min_radius(const grit_scene *s);

#endif
