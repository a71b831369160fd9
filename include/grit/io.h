/* grit: reading and writing files -- spheres from CSV, VTK XML for ParaView,
 * the energy time series.
 *
 * Every file is written under a temporary name in its own folder and renamed
 * into place when complete, so that a crash never leaves a truncated file
 * that looks complete (a reader sees the previous version or none). Every
 * function returns GRIT_OK or a negative grit_status with a one-line message
 * in grit_last_error(scene) naming the file (and line, field, value for
 * input). See docs/output.md for the file contents.
 */
#ifndef GRIT_IO_H
#define GRIT_IO_H

#include "grit/scene.h"
#include "grit/export.h"

GRIT_BEGIN_DECLS

/* ---- input ---------------------------------------------------------------- */
/* Add one sphere of `material` per row of a CSV file with the header line
 * `x,y,z,r` (m; the header may name the units, `x[m],y[m],z[m],r[m]`, any
 * other unit is refused; blank lines and lines starting with `#` are
 * skipped, CR-LF accepted). The whole file is
 * validated first: on any error (missing or empty file, wrong header or
 * column count, a field that is not a number, a NaN or infinite coordinate,
 * a radius that is not positive and finite) nothing is added. On success
 * the new ids are first_id .. first_id + count - 1 (either pointer may be
 * NULL). */
int grit_io_load_spheres_csv(grit_scene *s, const char *path, int material, int *first_id, int *count);

/* Write every sphere under the header `x[m],y[m],z[m],r[m]` (the format the
 * loader reads), in id
 * order, with 17 significant digits so that a load restores it exactly. */
int grit_io_save_spheres_csv(const grit_scene *s, const char *path);

/* ---- VTK XML (ParaView) ----------------------------------------------------- */
typedef enum grit_vtk_format {
    GRIT_VTK_BINARY = 0, /* base64 inline binary: compact, still well-formed XML */
    GRIT_VTK_ASCII = 1,  /* plain numbers: readable, larger and slower */
    GRIT_VTK_ZLIB = 2,   /* base64 inline binary compressed with zlib (vtkZLibDataCompressor): the smallest */
    /* or'ed with one of the above: the floating-point arrays as Float32
     * (7 significant digits; half the bytes) instead of Float64 */
    GRIT_VTK_FLOAT32 = 16,
} grit_vtk_format;

/* One PolyData file each (.vtp):
 * - particles: one vertex per sphere at its centre; point data id, radius,
 *   velocity, angular_velocity, force, torque.
 * - contacts: one line per real contact, from centre to centre (to the
 *   contact point on a wall, facet, rod or infinite cylinder); cell data
 *   id_a, id_b, fn (normal force, compression positive), ft (tangential
 *   magnitude), force (on A, global; B gets the opposite), normal (A to B),
 *   overlap (-uN), boundary (1 if a wall, facet, rod or infinite cylinder
 *   takes part).
 * - shapes: every particle that is not a sphere as a surface: a quad per
 *   wall sized to the scene's bounding box, the triangles of
 *   grit_shape_tessellate for the others (infinite cylinders cut to the
 *   box); cell data id, shape (grit_shape_type), force (the contact forces
 *   on it: wall reactions), velocity. */
int grit_vtk_write_particles(const grit_scene *s, const char *path, grit_vtk_format fmt);
int grit_vtk_write_contacts(const grit_scene *s, const char *path, grit_vtk_format fmt);
int grit_vtk_write_shapes(const grit_scene *s, const char *path, grit_vtk_format fmt);

/* A time series: per call to grit_vtk_series_write, DIR/particles_<step>.vtp,
 * contacts_<step>.vtp and shapes_<step>.vtp, and the index files
 * DIR/particles.pvd, contacts.pvd, shapes.pvd rewritten to list every
 * frame with its simulated time (open a .pvd in ParaView). */
typedef struct grit_vtk_series grit_vtk_series;
grit_vtk_series *grit_vtk_series_create(const char *dir, grit_vtk_format fmt);
int grit_vtk_series_write(grit_vtk_series *v, const grit_scene *s);
int grit_vtk_series_frames(const grit_vtk_series *v);
void grit_vtk_series_destroy(grit_vtk_series *v);
/* A series an earlier run wrote into dir, to be continued from the scene's
 * current step (a run continued from its checkpoint): the frames listed in
 * DIR/particles.pvd up to that step are kept, the files of later ones
 * removed; the next write adds to the index. No index in dir: an empty
 * series. NULL with grit_last_error(s) when the index cannot be read. */
grit_vtk_series *grit_vtk_series_continue(const char *dir, grit_vtk_format fmt, grit_scene *s);

/* ---- time series (CSV) -------------------------------------------------------- */
/* One row per grit_energy_log_row call in each of two files:
 * - path: step, time, one column per grit_energy_name entry, total,
 *   rel_error (the balance error, grit_energy_rel_error): the layout of the
 *   Python package's grit.records, so that grit.plot draws it;
 * - stats_path (may be NULL): step, time, dt, contacts (real),
 *   potential_pairs, rebuilds, sorts (grit_get_stats).
 * Both are written as NAME.partial and renamed to NAME by
 * grit_energy_log_close (commit = true) or removed (commit = false). */
typedef struct grit_energy_log grit_energy_log;
grit_energy_log *grit_energy_log_open(grit_scene *s, const char *path, const char *stats_path);
int grit_energy_log_row(grit_energy_log *e, const grit_scene *s);
int grit_energy_log_close(grit_energy_log *e, grit_scene *s, bool commit);
/* Go on with the logs an earlier run wrote at path and stats_path (under
 * those names, or NAME.partial when it was killed), e.g. a run continued
 * from its checkpoint: their rows up to the scene's current step are kept
 * (later ones, written after the checkpoint, are dropped) and new rows
 * follow, so that the files end as one uninterrupted run's would. A file
 * missing or with another header (another version's columns) is an error. */
grit_energy_log *grit_energy_log_continue(grit_scene *s, const char *path, const char *stats_path);

/* One row per grit_stress_log_row call, for a periodic scene (grit/cell.h):
 * step, time, volume (det H, m^3), p (mean pressure -tr(sigma)/3,
 * compression positive, Pa), the Love-Weber stress s_xx, s_yy, s_zz, s_yz,
 * s_xz, s_xy (grit_stress: tension positive, Pa), the deformation gradient
 * of the cell F_xx, F_xy, ..., F_zz (by rows, grit_cell_get_trsf) and the
 * velocity gradient of the last step L_xx, ..., L_zz (1/s). Written as
 * NAME.partial and renamed by grit_stress_log_close (commit = true).
 * GRIT_ESTATE (NULL) for an aperiodic scene. */
typedef struct grit_stress_log grit_stress_log;
grit_stress_log *grit_stress_log_open(grit_scene *s, const char *path);
int grit_stress_log_row(grit_stress_log *l, const grit_scene *s);
int grit_stress_log_close(grit_stress_log *l, grit_scene *s, bool commit);
/* As grit_energy_log_continue, for stress.csv. */
grit_stress_log *grit_stress_log_continue(grit_scene *s, const char *path);

GRIT_END_DECLS

#endif
