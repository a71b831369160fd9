/* grit: direct views of the engine's particle and contact arrays, for
 * bindings (the Python package maps them to NumPy arrays without copying).
 *
 * A view is a base pointer, a row count and a row stride in bytes: row i of
 * array `pos` is the three doubles at data + i * stride. The rows are in the
 * engine's internal order, which is not the order of particle ids: the
 * particle view `id` gives the stable id of each row, and `index_of_id`
 * maps an id to its row.
 *
 * A view stays valid until the engine moves, reorders or resizes the arrays
 * of its group; the group's generation (grit_array_generation) changes at
 * that moment. For particles: adding a particle, and re-sorting in space at
 * a broad-phase rebuild (the first step always sorts). For contacts: every
 * broad-phase rebuild. Between such events the values behind a view are
 * live: they change with every step. A binding compares the generation it
 * saw when it took the view with the current one before each use.
 *
 * A binding that hands views to code it does not control takes them with
 * grit_array_retain: the memory then stays allocated while the view lives,
 * so a stale view reads old values instead of freed memory.
 *
 * Views marked writable may be written between steps and the engine uses
 * the new values (e.g. imposed velocities); the others must not be written.
 */
#ifndef GRIT_ARRAYS_H
#define GRIT_ARRAYS_H

#include <stdint.h>

#include "grit/scene.h"
#include "grit/export.h"

GRIT_BEGIN_DECLS

typedef enum grit_array_group {
    GRIT_ARRAYS_PARTICLES = 0, /* rows: particles, grit_particle_count() of them */
    GRIT_ARRAYS_CONTACTS = 1,  /* rows: candidate pairs, potential and real (flag GRIT_CONTACT_REAL) */
    GRIT_ARRAYS_GROUP_COUNT
} grit_array_group;

/* Bits of the contact view `flags`. */
enum { GRIT_CONTACT_REAL = 1u << 0 };

/* What an array is: fixed for the life of the program. */
typedef struct grit_array_info {
    const char *name;    /* e.g. "pos" */
    int group;           /* grit_array_group */
    const char *typestr; /* element type as NumPy writes it without byte order: "f8", "i4", "u1", ... */
    int elem_size;       /* bytes per element */
    int ncomp;           /* elements per row (1: a column); 0: variable, see the view */
    int writable;        /* 1: may be written between steps */
    const char *unit;
    const char *doc;
} grit_array_info;

/* Where an array is now. */
typedef struct grit_array_view {
    void *data;          /* row 0; NULL when count == 0 or ncomp == 0 */
    int64_t count;       /* rows */
    int64_t stride;      /* bytes from one row to the next */
    int32_t ncomp;       /* elements per row */
    int32_t writable;
    uint64_t generation; /* of the array's group, when the view was taken */
} grit_array_view;

int grit_array_count(void);
/* Description of array i (0 <= i < grit_array_count()), NULL out of range. */
const grit_array_info *grit_array_info_at(int i);
/* Index of the array of `group` called `name`, or -1. */
int grit_array_find(int group, const char *name);
/* Fill *out with where array i of scene s is now. GRIT_EINVAL for a bad
 * index (message in grit_last_error). */
int grit_array_get(grit_scene *s, int i, grit_array_view *out);
/* grit_array_get, and keep the memory behind the view allocated until
 * grit_array_release(*token), even after the engine moved the array or the
 * scene was destroyed (then the memory holds the values it had when the
 * engine let go of it, and the engine never writes it again). *token is
 * NULL when there is nothing to keep (data NULL). GRIT_EINVAL for a bad
 * index, GRIT_ENOMEM. Thread-safe against grit_array_release from any
 * thread. */
int grit_array_retain(grit_scene *s, int i, grit_array_view *out, void **token);
/* Drop a reference taken by grit_array_retain (NULL: nothing). Needs no
 * scene: valid after grit_scene_destroy. */
void grit_array_release(void *token);
/* Blocks referenced by grit_array_retain now, over all scenes (tests). */
int grit_array_kept(void);
/* Generation of a group of arrays (UINT64_MAX for an unknown group). It
 * starts at 0 and only grows. */
uint64_t grit_array_generation(const grit_scene *s, int group);

GRIT_END_DECLS

#endif
