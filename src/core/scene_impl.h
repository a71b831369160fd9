/* grit internal: the memory layout of a scene.
 *
 * Particles live in a handful of packed arrays indexed by an internal index
 * that changes when the particles are re-sorted in space; the stable,
 * user-visible id maps to it through id2idx. The hot loops touch few streams:
 * the contact loop gathers `pr` (position + radius, 32 B) and `vw` (velocity
 * + angular velocity, 48 B) and scatters into `ft` (force + torque, 48 B);
 * the integrator streams vw, ft, pr, mi and ori.
 *
 * Contacts are stored as parallel arrays in the pair list's order, grouped by
 * geometry kind (one block per Cg2 functor) so that the contact loop
 * dispatches once per block, not once per contact.
 */
#ifndef GRIT_SCENE_IMPL_H
#define GRIT_SCENE_IMPL_H

#include <stdint.h>

#include "core/threads_tune.h"
#include "grit/scene.h"
#include "grit/inlet.h"
#include "grit/outlet.h"
#include "core/region_mesh.h"

/* ---------------------------------------------------------------- particles */
typedef struct grit_posr {
    grit_vec3 pos;
    double r; /* sphere radius; 0 for shapes without one */
} grit_posr;

/* 64-byte records: one cache line per gather or scatter */
typedef struct grit_velw {
    grit_vec3 v, w;
    double pad[2];
} grit_velw;

typedef struct grit_ft {
    grit_vec3 f, t;
    double pad[2];
} grit_ft;

typedef struct grit_massi {
    double m;          /* mass; INFINITY for fixed boundaries */
    grit_vec3 inertia; /* principal moments */
} grit_massi;

/* per-particle flags (besides the six GRIT_BLOCK_* bits) */
enum {
    PF_ASPHERICAL = 1u << 8, /* anisotropic inertia: quaternion leapfrog */
    PF_NO_GRAVITY = 1u << 9,
    PF_NO_DAMPING = 1u << 10,
    PF_NO_ENERGY = 1u << 11,
    PF_MOVES_SHAPE = 1u << 12, /* shape data follows the node (facet vertices) */
    PF_LOCAL6 = 1u << 13,      /* has an entry in scene->local6 (integrate/local6.h) */
    PF_MEMBER = 1u << 14,      /* a clump's member sphere: placed by its body, not integrated (shape/clump.c) */
    PF_GHOST = 1u << 15,       /* MPI: a copy of another rank's particle, overwritten every step (src/mpi/) */
};
/* MPI: a particle every rank holds (a fixed wall, facet, ...), whose motion
 * needs no force; with PF_GHOST, the particles no contact of this rank is
 * made between (grit_may_collide) */
enum { PF_SHARED = 1u << 7 };

typedef struct grit_wall_data {
    int axis, sense;
} grit_wall_data;

typedef struct grit_facet_data {
    grit_vec3 v[3];    /* vertices, global */
    grit_vec3 vloc[3]; /* vertices relative to the node position */
    grit_vec3 normal;  /* unit normal (v1-v0)x(v2-v0) */
    double half_thick;
} grit_facet_data;

/* Data of the shapes of include/grit/shapes.h (radii live in posr.r). */
typedef struct grit_capsule_data {
    double shaft; /* length of the segment along local x */
} grit_capsule_data;

typedef struct grit_ellipsoid_data {
    grit_vec3 semi; /* semi-axes along local x, y, z */
} grit_ellipsoid_data;

typedef struct grit_infcyl_data {
    int axis;
} grit_infcyl_data;

typedef struct grit_rod_data {
    grit_vec3 p[2];    /* end points, global */
    grit_vec3 ploc[2]; /* end points relative to the node, body axes */
} grit_rod_data;

/* A clump (shape/clump.c): its body's id, the member count and the first
 * member's row in scene->clump_loc; members are ids body + 1 ... body + n
 * and carry the clump's index in sidx, as the body does. */
typedef struct grit_clump_data {
    int32_t body, n, first, pad;
} grit_clump_data;

typedef struct grit_bodies {
    int n, cap;
    grit_posr *pr;
    grit_velw *vw;
    grit_ft *ft;
    grit_massi *mi;
    grit_quat *ori;
    grit_vec3 *angmom; /* global angular momentum (aspherical integrator) */
    uint16_t *flags;
    uint8_t *shape;
    int32_t *sidx; /* index into the shape's data array */
    uint16_t *mat;
    uint32_t *mask;
    int32_t *id;       /* stable id of the particle at this index */
    grit_vec3 *refpos; /* position at the last broad-phase rebuild */
} grit_bodies;

/* ----------------------------------------------------------------- contacts */
enum {
    CF_REAL = 1u << 0,     /* has geometry and physics */
    CF_PROMOTED = 1u << 1, /* (potential list) moved to the contact list */
    CF_NEW_LAW = 1u << 2,  /* (during a rebuild) the contact's law changed: its state is reset */
};

typedef struct grit_pair {
    int32_t a, b; /* internal particle indices, in the functor's order */
    uint8_t kind; /* geometry functor (grit_cg2_kind) */
    uint8_t flags;
    int8_t cell[3]; /* periodic image of b */
    uint8_t law;    /* contact law (grit_law), from the two materials */
    uint8_t pad[2];
} grit_pair;

/* Contacts are grouped in blocks of one (geometry functor, law): block
 * kind * GRIT_LAW_COUNT + law, so that the contact loop runs one
 * specialised loop per block (contact/contact_loop.c). */
enum { GRIT_BLOCK_MAX = 128 };
static inline int grit_block_of(int kind, int law) { return kind * GRIT_LAW_COUNT + law; }

/* L6Geom: the contact-local frame and the six relative kinematic DoFs. */
typedef struct grit_l6geom {
    grit_vec3 ex, ey; /* frame columns; ez = ex x ey */
    grit_vec3 c;      /* contact point */
    double uN;        /* normal gap */
    grit_vec3 vel;    /* relative velocity of B w.r.t. A, mid-step local frame */
    grit_vec3 angvel; /* wB - wA, mid-step local frame */
} grit_l6geom;

/* FrictPhys: stiffnesses, friction, and the law's force and torque (local,
 * acting on A). */
typedef struct grit_frictphys {
    grit_vec3 f, t;
    double kn, kt, tan_phi, cn;
} grit_frictphys;

/* Data set once at creation and rarely read. */
typedef struct grit_contact_cold {
    double lens[2], area;
    double uN0; /* gap at creation (iniEqlb) */
    int64_t step_created;
} grit_contact_cold;

/* A contact's force on A and the torques on A and B (global; B gets -f),
 * stored by the contact loop and summed per particle (contact_loop.c). */
typedef struct grit_cforce {
    grit_vec3 f, ta, tb;
} grit_cforce;

/* id_order: a slot of a particle's contact list with its sort key
 * (contact/adjacency.c) */
typedef struct grit_adj_extra {
    uint64_t key;
    int32_t e, p; /* slot 2 k + side, particle */
} grit_adj_extra;

typedef struct grit_contacts {
    int n, cap;
    grit_pair *pair;
    grit_l6geom *geom;
    grit_frictphys *phys;
    grit_contact_cold *cold;
    /* law-specific per-contact state: ext_n doubles per contact (0 for the
     * laws that need none); copied with the contact at rebuilds */
    double *ext;
    int ext_n;
    /* blocks (grit_block_of): [block_start[k], block_start[k+1]); contacts
     * created since the last rebuild follow in [block_start[block count], n) */
    int block_start[GRIT_BLOCK_MAX + 1];
    int n_real; /* counted by the contact loop */
    /* candidate pairs whose shapes have not touched since the last rebuild:
     * no state; blocks by kind as above; a pair that touches is appended to
     * the contact list and flagged CF_PROMOTED here */
    grit_pair *pot;
    int n_pot, cap_pot, n_promoted;
    int pot_start[GRIT_BLOCK_MAX + 1];
    /* the step's forces (not saved, never permuted): cf[k] holds contact
     * k's force when fon[k] (contact/contact_loop.c); cf_cap slots */
    grit_cforce *cf;
    uint8_t *fon;
    int cf_cap;
    /* the contacts [0, adj_n) of each particle i, adj[adj_start[i]] ..
     * adj[adj_start[i + 1] - 1], as 2 k + (1 if i is B), k ascending; made
     * again when adj_ok is false (a rebuild, a re-sort, a loaded scene);
     * with id_order all contacts, by partner id (contact/adjacency.c) */
    int32_t *adj, *adj_start;
    int adj_cap, adj_start_cap, adj_n, adj_np, adj_order;
    /* id_order: the contacts created since the lists were made, per
     * particle by key, merged into the lists' sums (contact/adjacency.c) */
    struct grit_adj_extra *extra;
    int32_t *extra_first;
    int extra_cap, extra_first_cap, n_extra;
    bool adj_ok;
} grit_contacts;

/* --------------------------------------------------------------- materials */
typedef struct grit_material {
    int type; /* grit_material_type */
    union {
#define GRIT_MAT_UNION_FIELD(U, l, name) grit_##l##_def l;
        GRIT_MATERIAL_TYPES(GRIT_MAT_UNION_FIELD)
#undef GRIT_MAT_UNION_FIELD
    } u;
} grit_material;

/* What a pair of materials makes of a contact, resolved whenever the
 * materials or the overrides change (material/material.c). */
typedef struct grit_matpair {
    int16_t override; /* index into overrides, or -1 */
    uint8_t phys;     /* grit_phys_type, or GRIT_PHYS_NONE: no Cp2 functor */
    uint8_t law;      /* grit_law */
} grit_matpair;
enum { GRIT_PHYS_NONE = 255 };

typedef struct grit_pair_override {
    int mat_a, mat_b;
    grit_pair_def def;
} grit_pair_override;

/* ------------------------------------------------------------------ scene */
/* SAVE AND RESTART: src/io/restart.c writes every field below that a later
 * step depends on (docs/restart.md). A field, array, shape data or law state
 * added here must be added to the saver and the loader there too (a new
 * tagged section or array record), or a restarted run silently diverges;
 * test_restart compares a restarted run with an uninterrupted one bit for
 * bit. */
/* An inlet (core/inlet.c): its definition and what it did, with its random
 * stream and the radius (or the clump or shape template, and a shape's
 * scale) it drew for the particle it has still to place. */
typedef struct grit_inlet_state {
    grit_inlet_def def; /* a mesh region's def.tri points to mesh.tri */
    grit_region_mesh mesh;
    double mass, energy; /* inserted mass, kinetic energy brought in */
    long count, failed;
    uint64_t rng;
    double next_r; /* a sphere's radius or a shape's (or scaled clump's) scale; 0: none drawn */
    int waiting;
    /* clump templates: def.clumps[k] points into these copies */
    grit_vec3 *tpl_centers;
    double *tpl_radii;
    int tpl_members; /* rows of the templates' members; after them, room for the largest one scaled */
    /* per template, a clump's or a shape's (an inlet has one kind) */
    double tpl_mass[GRIT_INLET_MAX_CLUMPS];     /* a clump's mass; a shape's at scale 1 */
    grit_vec3 tpl_com[GRIT_INLET_MAX_CLUMPS];   /* a clump's centre of mass, template frame */
    double tpl_reach[GRIT_INLET_MAX_CLUMPS];    /* how far its members (the shape at scale 1) reach from it */
    int next_tpl; /* the template drawn for the particle still to place + 1; 0: none */
} grit_inlet_state;

/* An outlet (core/outlet.c): its definition and what it deleted. */
typedef struct grit_outlet_state {
    grit_outlet_def def;
    grit_region_mesh mesh;
    double mass, energy;
    long count;
} grit_outlet_state;

struct grit_scene {
    grit_scene_def def;
    grit_bodies b;
    grit_contacts c;

    int32_t *id2idx; /* stable id -> internal index */
    int id_cap;
    int next_id; /* the id the next particle gets (ids are never reused) */

    grit_wall_data *walls;
    int n_walls, cap_walls;
    grit_facet_data *facets;
    int n_facets, cap_facets;
    grit_capsule_data *capsules;
    int n_capsules, cap_capsules;
    grit_ellipsoid_data *ellipsoids;
    int n_ellipsoids, cap_ellipsoids;
    grit_infcyl_data *infcyls;
    int n_infcyls, cap_infcyls;
    grit_rod_data *rods;
    int n_rods, cap_rods;
    grit_clump_data *clumps;
    int n_clumps, cap_clumps;
    grit_vec3 *clump_loc; /* member centres in their body's principal frame */
    int n_clump_loc, cap_clump_loc;

    grit_material *mats;
    int n_mats, cap_mats;
    grit_pair_override *overrides;
    int n_overrides, cap_overrides;
    /* resolved pair table [n_mats*n_mats] */
    grit_matpair *pair_table;
    int pair_table_n;
    /* ConcretePhys constants per material pair [n_mats*n_mats] (entries of
     * other pairs unused), for the CPM law (cp2/concretephys.c) */
    struct grit_cpm_phys *cpm_phys;
    grit_law_defs laws; /* every law's parameters */
    long cpm_broken;    /* cohesive CPM contacts removed by the law (grit/concrete.h) */
    bool laws_check;    /* materials or law parameters changed: check them at the next step */

    long step;
    double time;
    double dt; /* current step (resolved from def.dt) */
    bool dt_check; /* something that may lower the critical step changed: check dt again */

    grit_inlet_state *inlets; /* run at the start of every step */
    int n_inlets, cap_inlets;
    grit_outlet_state *outlets; /* run at the start of the step after each broad-phase rebuild */
    int n_outlets, cap_outlets;
    long outlet_rebuilds; /* the rebuild count the outlets last looked after */

    /* energy */
    double energy[GRIT_E_COUNT];
    double energy_initial;
    bool energy_initial_set;
    /* MPI with track_energy (src/mpi/): every rank holds the whole scene's
     * book; a step books this rank's share from zero (energy_base keeps the
     * book before it) and the ranks' shares are summed at the step's end.
     * energy_skip: the particle flags this rank leaves out of its share
     * (ghosts, booked by their owner; shared walls and facets but on rank 0) */
    double energy_base[GRIT_E_COUNT];
    uint16_t energy_skip;

    bool eqlb_used; /* some contact may carry an iniEqlb offset */
    double *dyndt_k; /* the adaptive step's stiffness per particle (integrate/dyndt.c) */
    double dt_prev;  /* the last step's dt (NaN before the first): the adaptive step's velocity update */
    int dyndt_cap;
    bool idealelpl_ct_on; /* IdealElPl's tangential dashpot was on at the last step (contact_loop.c) */

    /* periodic cell (core/cell_impl.h); NULL: aperiodic */
    struct grit_cell *cell;

    /* broad phase */
    struct grit_broadphase *bp;
    double verlet_dist; /* resolved skin, NAN until first use */
    bool need_rebuild;
    long last_sort_step;
    double max_disp2; /* max squared displacement since rebuild (from integrator) */
    long verlet_last_rebuild; /* step of the last rebuild (-1: none, or unknown after loading an older file) */

    /* local-axes impositions (law tester), by particle id */
    struct grit_local6 *local6;
    int n_local6, cap_local6;

    int threads; /* worker threads; 0: automatic (core/threads.c); not saved: results do not depend on it */
    int tune_on;   /* automatic count: 0 not decided yet, 1 tuned (tune), -1 fixed (OMP_NUM_THREADS) */
    grit_tune tune; /* the automatic count's measurements (core/threads_tune.c) */
    int par_min;   /* loops of fewer items stay serial (core/threads.h, grit_par); 0: the default */
    void *scratch; /* the per-chunk sums of a parallel loop (grit_scratch) */
    size_t scratch_cap;

    /* MPI (src/mpi/, grit/mpi.h): the rank's share of a scene spread over
     * ranks; NULL on one process. The core calls the MPI layer through these
     * hooks, so that libgrit itself needs no MPI. */
    struct grit_mpi *mpi;
    int (*mpi_exchange)(grit_scene *s, int rc); /* after the leapfrog: errors agreed, ghosts updated, rebuild agreed */
    int (*mpi_agree)(grit_scene *s, int rc);    /* at the end of a step: errors agreed */
    void (*mpi_free)(struct grit_mpi *m);
    bool mpi_partial; /* this rank holds a part of the scene only: not saved */

    grit_stats stats;
    double time_block[GRIT_BLOCK_MAX]; /* the contact loop's CPU seconds per block (kind * laws + law) */
    /* sphere-sphere contacts of the vectorised Kuhn kernel (tests,
     * benchmarks): [0] done 4-wide, [1] sent whole to the scalar path, [2]
     * 4-wide but for the scalar update of the law (slip and other rare steps) */
    long kuhn_lanes[3];
    /* sphere-sphere contacts of the vectorised concrete kernel: [0] the
     * elastic step 4-wide, [1] the scalar update in the group */
    long cpm_lanes[2];
    /* Layout generations, read by grit_array_generation (arrays.h): bumped
     * whenever the particle (contact) arrays may move, change order or
     * change length, so that views held outside the engine can tell they
     * went stale. Whoever reallocates, reorders or resizes them bumps these. */
    uint64_t gen_bodies, gen_contacts;
    /* blow-up checks (core/health.c): the rebuild count they last looked at,
     * the warnings given with on_blowup=warn (each kind once) */
    long health_rebuilds;
    long n_warnings;
    bool warned_overlap, warned_energy;
    char warning[512];
    char err[512];
};

/* errors: format into s->err, return code */
int grit_fail(grit_scene *s, int code, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* the message returned by grit_create_error() (for functions that make a scene) */
void grit_set_create_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static inline int grit_idx(const grit_scene *s, int id)
{
    if (id < 0 || id >= s->id_cap) return -1;
    return s->id2idx[id];
}

/* id's shape, or -1 if no particle has it (deleted by an outlet): the
 * writers walk every id up to grit_particle_id_end and must neither fail
 * nor leave an error message on the deleted ones */
static inline int grit_live_shape(const grit_scene *s, int id)
{
    const int i = grit_idx(s, id);
    return i < 0 ? -1 : s->b.shape[i];
}

#endif
