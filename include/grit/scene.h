/* grit: the scene -- particles, materials, contacts, engines -- and its API.
 *
 * A scene is created from a grit_scene_def (grit_default_scene_def() gives
 * the defaults), filled with materials and particles, then stepped. Every
 * function that can fail returns a negative grit_status and leaves the
 * scene unchanged; grit_last_error(scene) then holds a one-line message
 * naming the offending parameter and value.
 */
#ifndef GRIT_SCENE_H
#define GRIT_SCENE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "grit/math.h"
#include "grit/law.h"
#include "grit/material.h"
#include "grit/params.h"
#include "grit/export.h"

GRIT_BEGIN_DECLS

typedef struct grit_scene grit_scene;

typedef enum grit_status {
    GRIT_OK = 0,
    GRIT_EINVAL = -1,  /* a parameter or argument is out of range */
    GRIT_ENOMEM = -2,  /* allocation failed */
    GRIT_ESTATE = -3,  /* the call is not valid in the scene's current state */
    GRIT_EIO = -4,     /* a file could not be read or written */
    GRIT_EFORMAT = -5, /* a file is malformed */
    GRIT_ENUMERIC = -6 /* the simulation produced NaN or infinity */
} grit_status;

/* ---- scene-wide parameters ------------------------------------------------ */
/* clang-format off */
#define GRIT_SCENE_PARAMS(X) \
    X(double, dt, NAN, "s", 0.0, INFINITY, GRIT_P_NAN_OK | GRIT_P_MIN_EXCL, NULL, \
      "time step; NaN: dt_safety times the critical step, computed at the first step") \
    X(double, dt_safety, 0.9, "-", 0.0, 1.0, GRIT_P_MIN_EXCL, NULL, \
      "safety factor applied to the critical time step when dt is automatic, and to the contacts' one by dyn_dt") \
    X(flag, dyn_dt, false, "-", 0, 1, 0, NULL, \
      "adaptive time step (Woo's DynDt): every dyn_dt_period steps, dt_safety times the critical step of the " \
      "current contacts, growing by at most dyn_dt_max_inc per step (docs/linear-model.md)") \
    X(int, dyn_dt_period, 1, "steps", 1, 1e9, 0, NULL, \
      "dyn_dt: steps between evaluations of the contacts' critical step") \
    X(double, dyn_dt_max_inc, 1e-4, "-", 0.0, 1.0, 0, NULL, \
      "dyn_dt: largest relative growth of the time step per step (a decrease is immediate)") \
    X(vec3, gravity, GRIT_V3(0.0, 0.0, 0.0), "m/s^2", -INFINITY, INFINITY, 0, NULL, \
      "gravitational acceleration") \
    X(double, damping, 0.0, "-", 0.0, 1.0, GRIT_P_MAX_EXCL, NULL, \
      "Cundall non-viscous damping coefficient (0: none)") \
    X(double, mass_damping, 0.0, "1/s", 0.0, INFINITY, 0, NULL, \
      "viscous mass damping: force -c m v and torque -c I w on every particle, velocities decay as exp(-c t) " \
      "(0: none)") \
    X(double, verlet_dist, -0.05, "m", -1.0, INFINITY, GRIT_P_NAN_OK, NULL, \
      "broad-phase skin added to every bounding box; negative: that fraction of the smallest radius; nan: " \
      "chosen at every rebuild from the displacement per step, 0.02 to 1 times the smallest radius " \
      "(docs/broad-phase.md)") \
    X(flag, track_energy, false, "-", 0, 1, 0, NULL, \
      "book every energy term (kinetic, gravity, elastic, dissipation) at every step") \
    X(int, trsf_renorm, 100, "steps", 0, 1e9, 0, NULL, \
      "re-orthonormalise contact frames every that many steps (0: never)") \
    X(int, sort_period, 500, "steps", 0, 1e9, 0, NULL, \
      "re-sort particles in space at a broad-phase rebuild if at least that many steps passed (0: never)") \
    X(flag, id_order, false, "-", 0, 1, 0, NULL, \
      "results independent of where particles and contacts sit in memory: a new contact of two particles of " \
      "one shape takes the lower id as its first, and each particle adds its contacts' forces in the order of " \
      "their partners' ids; what MPI runs do, so that they give the same bits as one process with id_order " \
      "(docs/parallel.md)") \
    X(flag, gravity_first_step, false, "-", 0, 1, 0, NULL, \
      "start with gravity in the force accumulators (Woo starts with zero: no gravity in step 0)") \
    X(flag, ini_lens_touch, true, "-", 0, 1, 0, NULL, \
      "effective lengths are the touch lengths (radii); false: radii minus half the initial overlap, area from the same lengths") \
    X(flag, simd, true, "-", 0, 1, 0, NULL, \
      "vectorised kernels: sphere-sphere contacts under IdealElPl and Kuhn, leapfrog of free spheres (false: the scalar reference paths)") \
    X(flag, woo_geom, false, "-", 0, 1, 0, NULL, \
      "Woo's geometry for capsule ends and ellipsoids (weighted end gaps, Perram-Wertheim), whose forces " \
      "do not derive from the stored energy; false: grit's conservative versions (docs/shapes.md)") \
    X(choice, friction_rule, 0, "-", 0, 3, 0, "min|avg|max|harmavg", \
      "friction of a FrictPhys contact from the two materials' tan_phi (a pair override wins): min (Woo), avg, " \
      "max, harmavg 2ab/(a+b)") \
    X(double, interaction_radius, 1.0, "-", 1.0, INFINITY, 0, NULL, \
      "new sphere-sphere contacts are made up to this times the sum of the radii (Woo's distFactor); the " \
      "concrete model sets 1.5 for its first step, then 1 (docs/concrete.md)") \
    X(double, max_overlap, 0.5, "-", 0.0, INFINITY, GRIT_P_MIN_EXCL | GRIT_P_NAN_OK, NULL, \
      "a real contact whose overlap exceeds this fraction of the smaller radius is a blow-up (too large a time " \
      "step, overlapping input); checked at every broad-phase rebuild; nan: never") \
    X(double, max_energy_error, NAN, "-", 0.0, INFINITY, GRIT_P_MIN_EXCL | GRIT_P_NAN_OK, NULL, \
      "with track_energy, an energy balance error |total - initial| / sum |entries| beyond this (e.g. 0.1) is a " \
      "blow-up; checked every step from step 100 on; nan: never (scenes of near-zero energy have errors of order 1)") \
    X(choice, on_blowup, 1, "-", 0, 1, 0, "stop|warn", \
      "a blow-up (max_overlap, max_energy_error) stops the step with GRIT_ENUMERIC, or is reported once by " \
      "grit_last_warning and the run goes on (grit run: stop)")
/* clang-format on */

typedef struct grit_scene_def {
    GRIT_SCENE_PARAMS(GRIT_PARAM_FIELD)
} grit_scene_def;

enum { GRIT_FRICTION_MIN = 0, GRIT_FRICTION_AVG, GRIT_FRICTION_MAX, GRIT_FRICTION_HARMAVG };

grit_scene_def grit_default_scene_def(void);
extern const grit_param_table grit_scene_param_table;

/* ---- shapes and particles ------------------------------------------------- */
/* The registration list of the shapes: X(UPPER, lower). The order is the
 * enum's and is kept in restart files: append new shapes at the end. A new
 * shape is one file src/shape/<lower>.c (its grit_shape_class) plus one
 * entry here; its pairs are entries of the Cg2 list (src/cg2/cg2.h). */
#define GRIT_SHAPES(X)                                                                              \
    X(SPHERE, sphere) X(WALL, wall) X(FACET, facet) X(INFCYLINDER, infcylinder) X(CAPSULE, capsule) \
    X(ELLIPSOID, ellipsoid) X(ROD, rod) X(CLUMP, clump)

typedef enum grit_shape_type {
#define GRIT_SHAPE_ENUM(U, l) GRIT_SHAPE_##U,
    GRIT_SHAPES(GRIT_SHAPE_ENUM)
#undef GRIT_SHAPE_ENUM
    GRIT_SHAPE_COUNT
} grit_shape_type;

/* Blocked degrees of freedom (global axes); a blocked DoF keeps its velocity. */
enum {
    GRIT_BLOCK_X = 1u << 0,
    GRIT_BLOCK_Y = 1u << 1,
    GRIT_BLOCK_Z = 1u << 2,
    GRIT_BLOCK_RX = 1u << 3,
    GRIT_BLOCK_RY = 1u << 4,
    GRIT_BLOCK_RZ = 1u << 5,
    GRIT_BLOCK_ALL = 63u,
};

/* Default collision masks (Woo's): particles 0b0101, boundaries 0b0011; two
 * particles collide if (maskA & maskB) != 0 and (maskA & maskB & lone) == 0. */
enum { GRIT_MASK_PARTICLE = 5u, GRIT_MASK_BOUNDARY = 3u, GRIT_MASK_LONE = 2u };

typedef struct grit_sphere_def {
    grit_vec3 pos, vel, angvel;
    double radius;
    int material;
    unsigned blocked; /* GRIT_BLOCK_* bits */
    uint32_t mask;
} grit_sphere_def;
grit_sphere_def grit_default_sphere_def(void);

typedef struct grit_wall_def {
    double coord; /* position of the plane along `axis` */
    int axis;     /* 0, 1, 2 */
    int sense;    /* -1, 0, +1: which side interacts (0: both) */
    int material;
    grit_vec3 vel; /* a wall is fixed; it may move with this imposed velocity */
    uint32_t mask;
} grit_wall_def;
grit_wall_def grit_default_wall_def(void);

typedef struct grit_facet_def {
    grit_vec3 v[3];
    double half_thick;
    int material;
    grit_vec3 vel; /* facets are fixed; imposed translation velocity */
    uint32_t mask;
} grit_facet_def;
grit_facet_def grit_default_facet_def(void);

/* ---- lifecycle ------------------------------------------------------------ */
grit_scene *grit_scene_create(const grit_scene_def *def);
void grit_scene_destroy(grit_scene *s);
const char *grit_last_error(const grit_scene *s);
/* With on_blowup=warn: the last blow-up seen (overlap, energy balance), each
 * kind reported once per scene, and how many were reported ("" and 0: none). */
const char *grit_last_warning(const grit_scene *s);
long grit_warning_count(const grit_scene *s);
/* Error of the last failed grit_scene_create (thread-local). */
const char *grit_create_error(void);

/* Change scene parameters between steps (validated as a whole). */
int grit_scene_set_def(grit_scene *s, const grit_scene_def *def);
const grit_scene_def *grit_scene_get_def(const grit_scene *s);

/* Add a material of `type` (grit_material_type) from its definition (a
 * grit_<type>_def); returns the material index (>= 0) or a negative
 * grit_status. Refused: a parameter out of range, or a material that cannot
 * be combined with one already there (two ConcreteMats with different
 * dam_law). */
int grit_add_material(grit_scene *s, int type, const void *def);
int grit_add_frictmat(grit_scene *s, const grit_frictmat_def *def);
int grit_add_concretemat(grit_scene *s, const grit_concretemat_def *def);
int grit_add_hertzmat(grit_scene *s, const grit_hertzmat_def *def);
/* The type of material `mat` (or a negative status), and a copy of its
 * definition into def (size: sizeof its grit_<type>_def). */
int grit_get_material_type(const grit_scene *s, int mat);
int grit_get_material(const grit_scene *s, int mat, void *def, size_t size);
/* Override the FrictPhys parameters or the law of the contacts between two
 * materials, or the HertzPhys friction and restitution (grit_pair_def;
 * between steps; contacts take the new law at the next step, new
 * parameters when they are made). */
int grit_set_pair(grit_scene *s, int mat_a, int mat_b, const grit_pair_def *def);
/* Run the physics functors again on the contacts that exist (Woo's
 * updatePhys), between steps: every real contact of FrictPhys (the linear,
 * IdealElPl, LinEl6 and Kuhn laws) takes kn, kt, tan_phi and cn from the
 * materials and pair overrides now, keeping its force and its law's state
 * (a force above a lowered friction limit slides at the next step).
 * Concrete and Hertz contacts keep theirs: a concrete contact's constants
 * belong to its damage history, a Hertz contact's stiffness follows its
 * overlap. Returns the number of contacts updated. */
int grit_contacts_update_physics(grit_scene *s);
/* The law (grit_law) of contacts between materials a and b. */
int grit_pair_law(const grit_scene *s, int mat_a, int mat_b);
/* Set or read a law's parameters (grit_<law>_def; size its sizeof),
 * validated as a whole; between steps. */
int grit_set_law_def(grit_scene *s, int law, const void *def, size_t size);
int grit_get_law_def(const grit_scene *s, int law, void *def, size_t size);
int grit_material_count(const grit_scene *s);

/* Return the new particle's id (>= 0, stable for the particle's life) or a
 * negative grit_status. */
int grit_add_sphere(grit_scene *s, const grit_sphere_def *def);
int grit_add_wall(grit_scene *s, const grit_wall_def *def);
int grit_add_facet(grit_scene *s, const grit_facet_def *def);
int grit_particle_count(const grit_scene *s);
/* One past the largest id ever handed out: ids are never reused, so with
 * particles deleted (outlets, grit/outlet.h) the live ids are a subset of
 * [0, grit_particle_id_end); grit_get_shape of a deleted id is an error. */
int grit_particle_id_end(const grit_scene *s);

/* ---- stepping ------------------------------------------------------------- */
/* Run n steps. Returns GRIT_OK, or an error (time step above the critical one,
 * NaN in the state) after which the scene is left at the last good step. */
int grit_step(grit_scene *s, long n);
long grit_step_count(const grit_scene *s);
double grit_time(const grit_scene *s);
double grit_dt(const grit_scene *s);
/* Worker threads of the scene's steps (OpenMP). n = 0 (the default): as many
 * as OMP_NUM_THREADS says; without it, automatic: up to the cores the process
 * may use, fewer while fewer run the steps faster (the step's wall time is
 * measured, docs/performance.md "Threads"). Results do
 * not depend on the count: every run repeats to the bit with any count
 * (docs/architecture.md, "threads"). Not saved in restart files. */
int grit_set_threads(grit_scene *s, int n);
/* The count the next step will use (n resolved; >= 1). */
int grit_threads(const grit_scene *s);
/* Critical time step estimate [s], the smallest over the particles (INFINITY
 * without any): p-wave r sqrt(rho/E); sqrt(3m/8kn) for pair overrides (the
 * same margin as the p-wave estimate); rayleigh_fraction of the Rayleigh time
 * for Hertz contacts. An automatic dt is dt_safety times it. */
double grit_critical_dt(const grit_scene *s);
/* Critical time step of the current contacts, the estimate of the adaptive
 * step (dyn_dt): sqrt(min 2 m / k) over the free DoFs of every particle, k
 * the stiffness of its real contacts along that DoF; INFINITY without
 * contacts. */
double grit_contacts_critical_dt(grit_scene *s);
/* The time step the next grit_step will use (an automatic one resolved now),
 * after the checks of the materials (a pair that cannot touch, a law missing
 * a parameter),
 * or the error that grit_step would give (a fixed dt above the critical one);
 * changes nothing. For checking a scene before committing to a run. */
int grit_check_dt(grit_scene *s, double *dt);

/* ---- state access (by particle id) ---------------------------------------- */
int grit_get_pos(const grit_scene *s, int id, grit_vec3 *out);
int grit_get_vel(const grit_scene *s, int id, grit_vec3 *out);
int grit_get_angvel(const grit_scene *s, int id, grit_vec3 *out);
int grit_get_force(const grit_scene *s, int id, grit_vec3 *out);
int grit_get_torque(const grit_scene *s, int id, grit_vec3 *out);
int grit_get_ori(const grit_scene *s, int id, grit_quat *out);
int grit_get_mass(const grit_scene *s, int id, double *mass, grit_vec3 *inertia);
int grit_get_radius(const grit_scene *s, int id, double *out);
int grit_get_shape(const grit_scene *s, int id);
int grit_set_vel(grit_scene *s, int id, grit_vec3 v);
int grit_set_angvel(grit_scene *s, int id, grit_vec3 w);
int grit_set_pos(grit_scene *s, int id, grit_vec3 p);
int grit_set_blocked(grit_scene *s, int id, unsigned blocked);
/* Impose velocity components (GRIT_BLOCK_X..Z bits in `which`): they are
 * blocked and keep the given value. */
int grit_impose_vel(grit_scene *s, int id, grit_vec3 v, unsigned which);

/* ---- energy --------------------------------------------------------------- */
typedef enum grit_energy_kind {
    GRIT_E_KINETIC = 0, /* translational + rotational, resettable */
    GRIT_E_ELAST,       /* elastic energy stored in contacts, resettable */
    GRIT_E_GRAV,        /* work against gravity (gain of potential energy) */
    GRIT_E_PLAST,       /* frictional (plastic) dissipation, and the concrete model's plasticity */
    GRIT_E_NONVISC,     /* Cundall non-viscous damping */
    GRIT_E_VISC,        /* dashpots: the linear normal one, the hertz law's */
    GRIT_E_BROKEN,      /* elastic energy lost when contacts break */
    GRIT_E_GRADV,       /* work of a periodic cell's velocity gradient (grit/cell.h) */
    GRIT_E_DAMAGE,      /* dissipated by damage of cohesive contacts (concrete model) */
    GRIT_E_INLET,       /* minus the kinetic energy particles brought in by inlets (grit/inlet.h) */
    GRIT_E_MASSDAMP,    /* viscous mass damping (scene parameter mass_damping) */
    GRIT_E_OUTLET,      /* energy that left with the particles outlets deleted (grit/outlet.h) */
    GRIT_E_COUNT
} grit_energy_kind;

const char *grit_energy_name(int kind);
double grit_energy(const grit_scene *s, int kind);
/* Sum of all entries, and its value when tracking started. */
double grit_energy_total(const grit_scene *s);
double grit_energy_initial(const grit_scene *s);
/* Balance error: (total - initial) / max(sum |entries|, tiny). */
double grit_energy_rel_error(const grit_scene *s);
void grit_energy_reset(grit_scene *s);

/* ---- contacts ------------------------------------------------------------- */
typedef struct grit_contact_info {
    int id_a, id_b;      /* particle ids, in the geometry functor's order */
    grit_vec3 normal;    /* unit, A -> B */
    grit_vec3 ey, ez;    /* tangential axes of the local frame */
    grit_vec3 point;     /* contact point */
    double uN;           /* normal gap (< 0: overlap) */
    grit_vec3 vel, angvel; /* local relative velocities */
    grit_vec3 force;     /* local force on A */
    grit_vec3 torque;    /* local torque on A */
    grit_vec3 force_global; /* force on A, global */
    double kn, kt, tan_phi, cn;
    double lens[2], area;
    int law;             /* the contact's law (grit_law) */
} grit_contact_info;

int grit_contact_count(const grit_scene *s); /* real contacts */
/* Fill info for the i-th real contact (0 <= i < grit_contact_count). */
int grit_contact_get(const grit_scene *s, int i, grit_contact_info *info);
/* Visit every real contact in O(1) each: start with *cursor = 0; returns 1
 * and fills info while there are more, then 0. */
int grit_contact_next(const grit_scene *s, int *cursor, grit_contact_info *info);
/* Find the real contact between two particle ids; returns its index or -1. */
int grit_contact_find(const grit_scene *s, int id_a, int id_b);
/* The unbalanced force ratio between steps: the mean magnitude of the net
 * force (contacts and gravity) on the particles that are not held in place,
 * over the mean magnitude of the real contacts' forces. Near 0 for a packing
 * at rest, of order 1 or more while it moves. NaN while there are fewer real
 * contacts than such particles: a cloud in which a few collide is no packing
 * (its ratio would be small and mean nothing). O(n + contacts). */
double grit_unbalanced_force(const grit_scene *s);

/* ---- diagnostics ---------------------------------------------------------- */
typedef struct grit_stats {
    long rebuilds;        /* broad-phase rebuilds */
    long sorts;           /* particle re-sorts */
    int potential_pairs;  /* pairs in the candidate list */
    int real_contacts;
    double verlet_dist;   /* the skin actually used */
    double time_integrate, time_collide, time_contacts; /* CPU seconds of this thread, accumulated */
    /* of time_collide: broad-phase rebuilds (without sorting; with the
     * particles' contact lists they make stale), re-sorts */
    double time_rebuild, time_sort;
    /* worker threads: the mean count over the steps the automatic count
     * timed (threads = 0 without OMP_NUM_THREADS; 0 when it timed none),
     * and how many steps it timed */
    double threads_mean;
    long threads_steps;
} grit_stats;
void grit_get_stats(const grit_scene *s, grit_stats *out);

/* The contact loop's time by functor: one entry per (geometry kind, law)
 * that has run, named "<geometry>/<law>" (e.g. "Sphere+Sphere/idealelpl"),
 * with its accumulated CPU seconds (contacts made in the step included; on
 * every thread that ran its contacts, so with several threads the sum may
 * exceed time_contacts, the calling thread's). The work the blocks share
 * (setting up, adding each contact's force to its particles) is divided
 * among them by their contacts. Fills up to cap entries (names up to 63 characters); returns how many
 * there are. */
typedef struct grit_functor_time {
    char name[64];
    double seconds;
} grit_functor_time;
int grit_functor_times(const grit_scene *s, grit_functor_time *out, int cap);

/* Brute-force list of all pairs whose shapes overlap (uN < 0) right now; used
 * by tests to check that the broad phase misses nothing. Returns count,
 * writes up to cap pairs of ids into out (2 ints per pair). */
int grit_brute_force_overlaps(grit_scene *s, int *out, int cap);
int grit_potential_pairs(const grit_scene *s, int *out, int cap);

GRIT_END_DECLS

#endif
