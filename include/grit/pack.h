/* grit: dense random sphere packings (docs/packing.md).
 *
 * A packing is made in a cubic periodic cell: a loose random cloud (placed
 * from the seed, no overlaps) is compressed by the cell's velocity gradient
 * with a servo until the target pressure or solid fraction holds and the
 * assembly is quiet (small unbalanced force); optionally the cell then
 * expands to a low pressure so that the packing is nearly stress-free. The
 * periodic packing is then tiled over a region and the spheres lying
 * entirely inside a shape are kept: a cuboid, a cylinder, a hyperboloid of
 * revolution (the "dog bone" of tension specimens), a closed STL solid, or
 * any predicate.
 *
 * The functions here need no scene. They return GRIT_OK or a negative
 * grit_status and then write one line into err (naming the parameter, file
 * or value) and leave their output untouched.
 */
#ifndef GRIT_PACK_H
#define GRIT_PACK_H

#include <stdbool.h>
#include <stddef.h>

#include "grit/params.h"
#include "grit/scene.h"
#include "grit/stl.h"
#include "grit/export.h"

GRIT_BEGIN_DECLS

/* ---- the compaction ------------------------------------------------------ */
/* clang-format off */
#define GRIT_PACK_PARAMS(X) \
    X(int, n, 2000, "-", 8, 1e7, 0, NULL, "number of spheres in the periodic cell") \
    X(double, radius, 0.001, "m", 0.0, INFINITY, GRIT_P_MIN_EXCL, NULL, \
      "mean sphere radius (replaced by a size distribution psd when one is given)") \
    X(double, spread, 0.0, "-", 0.0, 1.0, GRIT_P_MAX_EXCL, NULL, \
      "radii uniform in radius*(1-spread) .. radius*(1+spread); 0: monodisperse") \
    X(choice, target, 0, "-", 0, 1, 0, "pressure|solid_fraction", \
      "what the compaction aims at: the mean pressure, or the solid fraction (1 - porosity)") \
    X(double, pressure, 1e5, "Pa", 0.0, INFINITY, GRIT_P_MIN_EXCL, NULL, \
      "target=pressure: the mean pressure the cell is compressed to") \
    X(double, solid_fraction, 0.6, "-", 0.0, 0.9, GRIT_P_MIN_EXCL, NULL, \
      "target=solid_fraction: the solid fraction the cell is compressed to") \
    X(double, relax_pressure, NAN, "Pa", 0.0, INFINITY, GRIT_P_MIN_EXCL | GRIT_P_NAN_OK, NULL, \
      "target=pressure: after the compaction the cell expands until the pressure holds at this lower value " \
      "(nearly stress-free); nan: no relaxation") \
    X(double, young, 1e8, "Pa", 0.0, INFINITY, GRIT_P_MIN_EXCL, NULL, \
      "Young's modulus of the spheres during the compaction (overlaps scale with pressure / young)") \
    X(double, tan_phi, 0.0, "-", 0.0, INFINITY, 0, NULL, \
      "friction during the compaction: 0 gives the densest random packings, more friction looser ones") \
    X(double, damping, 0.4, "-", 0.0, 1.0, GRIT_P_MAX_EXCL, NULL, "Cundall non-viscous damping during the compaction") \
    X(double, phi0, 0.3, "-", 0.0, 0.35, GRIT_P_MIN_EXCL, NULL, \
      "solid fraction of the initial loose random cloud") \
    X(double, max_strain_step, 1e-3, "-", 0.0, 0.01, GRIT_P_MIN_EXCL, NULL, \
      "largest linear strain of the cell in one time step (the compaction's speed limit)") \
    X(double, tolerance, 0.01, "-", 0.0, 0.5, GRIT_P_MIN_EXCL, NULL, \
      "relative tolerance on the target pressure or solid fraction") \
    X(double, unbalanced, 0.02, "-", 0.0, 1.0, GRIT_P_MIN_EXCL, NULL, \
      "the assembly is quiet when the mean force on a sphere is below this fraction of the mean contact force") \
    X(int, max_steps, 500000, "steps", 1, 2e9, 0, NULL, \
      "cap on the time steps of the compaction: reaching it is an error that says where it stopped") \
    X(int, seed, 1, "-", 0, 2147483647, 0, NULL, "random seed of the radii and of the initial cloud")
/* clang-format on */

typedef struct grit_pack_def {
    GRIT_PACK_PARAMS(GRIT_PARAM_FIELD)
} grit_pack_def;

enum { GRIT_PACK_PRESSURE = 0, GRIT_PACK_SOLID_FRACTION = 1 };

grit_pack_def grit_default_pack_def(void);
extern const grit_param_table grit_pack_param_table;

/* A discrete size distribution: n sizes, radius[k] (m) with the share
 * mass_fraction[k] of the solid volume (normalised by their sum). Replaces
 * radius and spread of the definition; the counts are rounded so that they
 * add up to the definition's n. */
typedef struct grit_psd {
    int n;
    const double *radius;
    const double *mass_fraction;
} grit_psd;

/* What the compaction is doing, for a monitor. */
typedef enum grit_pack_phase {
    GRIT_PACK_COMPRESS = 0, /* towards the target */
    GRIT_PACK_RELAX = 1,    /* expanding to relax_pressure */
    GRIT_PACK_DONE = 2
} grit_pack_phase;

typedef struct grit_pack_state {
    int phase;             /* grit_pack_phase */
    long step;             /* time steps so far */
    double pressure;       /* mean pressure -tr(sigma)/3 (Pa) */
    double solid_fraction; /* sphere volume / cell volume */
    double unbalanced;     /* mean |net force| of a sphere / mean |contact force| (0 without contacts) */
    double strain_rate;    /* the cell's linear strain rate now (1/s; negative: compressing) */
    int contacts;          /* real contacts */
    grit_scene *scene;     /* the periodic scene being compacted: read it, write output from it; do not
                              step or change it, nor keep it */
} grit_pack_state;

/* Called every `every` steps of the compaction (and once at the end, with
 * phase GRIT_PACK_DONE); a non-zero return stops the compaction, which then
 * fails with GRIT_ESTATE ("stopped by the monitor"). */
typedef int (*grit_pack_monitor_fn)(const grit_pack_state *st, void *data);

typedef struct grit_pack_opts {
    const grit_psd *psd;        /* NULL: radius and spread of the definition */
    grit_pack_monitor_fn monitor; /* NULL: none */
    void *monitor_data;
    long monitor_every;         /* steps between calls (<= 0: 1000) */
    grit_scene **keep_scene;    /* not NULL: receives the compacted periodic scene, also the last state of a
                                   compaction that failed (NULL if it failed before the scene existed); the
                                   caller destroys it */
} grit_pack_opts;
grit_pack_opts grit_default_pack_opts(void);

/* ---- packings --------------------------------------------------------- */
/* A list of spheres. A periodic packing (the result of the compaction)
 * holds its cell H (row-major; the columns are the base vectors) with every
 * centre inside it; a clipped one the region's volume. `info` records how it
 * was made: lines "key=value key=value ...", written as comments by
 * grit_packing_save and read back by grit_packing_load. */
typedef struct grit_packing {
    int n;
    grit_vec3 *center;
    double *radius;
    bool periodic;
    double cell[3][3];     /* periodic: H; else zero */
    double volume;         /* periodic: det H; clipped: the region's volume (NaN if unknown) */
    double solid_fraction; /* sphere volume / volume (NaN if the volume is unknown) */
    double pressure;       /* the periodic cell's mean pressure at the end of the compaction (NaN if unknown) */
    double unbalanced;     /* and its unbalanced force (NaN if unknown) */
    long steps;            /* time steps of the compaction (0 if unknown) */
    char *info;
} grit_packing;

/* Check a definition (and psd, may be NULL) as grit_pack_dense does before
 * it starts: ranges, the parameters' relations, whether the cell is large
 * enough for the radii. */
int grit_pack_check(const grit_pack_def *def, const grit_psd *psd, char *err, size_t errlen);

/* Make a periodic packing. `opts` may be NULL (defaults). On success *out
 * holds the packing (free it with grit_packing_free). Fails with GRIT_EINVAL
 * for bad parameters (named), GRIT_ESTATE when max_steps was reached before
 * the target held or the monitor stopped it (the message gives the state it
 * stopped in), or the engine's error. */
int grit_pack_dense(const grit_pack_def *def, const grit_pack_opts *opts, grit_packing *out, char *err,
                    size_t errlen);

void grit_packing_free(grit_packing *p);
/* Sum of the sphere volumes (m^3). */
double grit_packing_sphere_volume(const grit_packing *p);
/* The largest overlap between two spheres divided by the smaller radius
 * (periodic images included for a periodic packing; 0: none), and the pair
 * (either pointer may be NULL). O(n) with a grid. */
double grit_packing_max_overlap(const grit_packing *p, int *a, int *b);

/* Write as the spheres CSV that grit_io_load_spheres_csv reads
 * (x[m],y[m],z[m],r[m], 17 digits), with comment lines (# ...) before the header that record the
 * info, the cell of a periodic packing and the figures (solid fraction,
 * pressure, ...). */
int grit_packing_save(const grit_packing *p, const char *path, char *err, size_t errlen);
/* Read such a file (or any spheres CSV: then not periodic, figures
 * unknown). */
int grit_packing_load(const char *path, grit_packing *out, char *err, size_t errlen);

/* ---- regions and clipping ------------------------------------------------- */
/* clang-format off */
#define GRIT_CLIP_PARAMS(X) \
    X(choice, shape, 0, "-", 0, 4, 0, "none|cuboid|cylinder|hyperboloid|stl", \
      "the region the packing is cut to (stl: the closed solid of the file stl=...)") \
    X(vec3, lo, GRIT_V3(0.0, 0.0, 0.0), "m", -INFINITY, INFINITY, 0, NULL, "cuboid: lowest corner") \
    X(vec3, hi, GRIT_V3(0.1, 0.1, 0.1), "m", -INFINITY, INFINITY, 0, NULL, "cuboid: highest corner") \
    X(vec3, center, GRIT_V3(0.0, 0.0, 0.0), "m", -INFINITY, INFINITY, 0, NULL, \
      "cylinder, hyperboloid: the middle of the axis") \
    X(vec3, axis, GRIT_V3(0.0, 0.0, 1.0), "-", -INFINITY, INFINITY, 0, NULL, \
      "cylinder, hyperboloid: direction of the axis (normalised)") \
    X(double, length, 0.15, "m", 0.0, INFINITY, GRIT_P_MIN_EXCL, NULL, "cylinder, hyperboloid: length along the axis") \
    X(double, outer_radius, 0.0375, "m", 0.0, INFINITY, GRIT_P_MIN_EXCL, NULL, \
      "cylinder: its radius; hyperboloid: the radius at both ends") \
    X(double, waist_radius, 0.0255, "m", 0.0, INFINITY, GRIT_P_MIN_EXCL, NULL, \
      "hyperboloid: the radius at mid-length (at most outer_radius)") \
    X(double, stl_scale, 1.0, "-", 0.0, INFINITY, GRIT_P_MIN_EXCL, NULL, "stl: file units -> m (1e-3: a file in mm)") \
    X(vec3, stl_shift, GRIT_V3(0.0, 0.0, 0.0), "m", -INFINITY, INFINITY, 0, NULL, \
      "stl: translation applied to the scaled file") \
    X(flag, recentre, true, "-", 0, 1, 0, NULL, \
      "place the centre of a periodic cell at the centre of the region's bounding box before tiling") \
    X(vec3, tile_shift, GRIT_V3(0.0, 0.0, 0.0), "m", -INFINITY, INFINITY, 0, NULL, \
      "translation of the tiled packing (after recentring)")
/* clang-format on */

typedef struct grit_clip_def {
    GRIT_CLIP_PARAMS(GRIT_PARAM_FIELD)
} grit_clip_def;

enum {
    GRIT_CLIP_NONE = 0,
    GRIT_CLIP_CUBOID = 1,
    GRIT_CLIP_CYLINDER = 2,
    GRIT_CLIP_HYPERBOLOID = 3,
    GRIT_CLIP_STL = 4,
};

grit_clip_def grit_default_clip_def(void);
extern const grit_param_table grit_clip_param_table;

/* A region that can tell whether a sphere lies entirely inside it. */
typedef struct grit_region grit_region;

/* Non-zero when the sphere (centre, radius) lies entirely inside. */
typedef int (*grit_region_fn)(grit_vec3 center, double radius, void *data);

/* The shape of def (cuboid, cylinder, hyperboloid, or the STL solid of the
 * file stl_path, scaled by stl_scale and shifted by stl_shift; stl_path is
 * only read for shape=stl) into *out. An STL solid must be closed: every
 * edge shared by exactly two triangles of opposite orientation (else
 * GRIT_EFORMAT; GRIT_EIO if the file cannot be read, GRIT_EINVAL for bad
 * parameters). */
int grit_region_create(const grit_clip_def *def, const char *stl_path, grit_region **out, char *err, size_t errlen);
/* A region given by a predicate; [lo, hi] must bound it (the tiling covers
 * that box); volume may be NaN (unknown: no solid fraction). */
int grit_region_predicate(grit_region_fn fn, void *data, grit_vec3 lo, grit_vec3 hi, double volume, grit_region **out,
                          char *err, size_t errlen);
void grit_region_destroy(grit_region *r);
int grit_region_contains(const grit_region *r, grit_vec3 center, double radius);
double grit_region_volume(const grit_region *r);
void grit_region_bounds(const grit_region *r, grit_vec3 *lo, grit_vec3 *hi);
/* One line describing the region, "shape=cylinder center=... ..." */
const char *grit_region_describe(const grit_region *r);

/* Tile the periodic packing `cell` over the region's bounding box and keep
 * the spheres lying entirely inside the region. With recentre, a cell's
 * centre is put at the centre of the bounding box first; shift translates
 * the tiling. The kept spheres are in the order (image, sphere of the cell),
 * images in lexicographic order: reproducible. Fails with GRIT_EINVAL when
 * cell is not periodic, GRIT_ESTATE when no sphere fits inside. */
int grit_packing_clip(const grit_packing *cell, const grit_region *r, bool recentre, grit_vec3 shift,
                      grit_packing *out, char *err, size_t errlen);

GRIT_END_DECLS

#endif
