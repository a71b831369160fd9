/* grit: periodic cells with a prescribed velocity gradient (docs/periodic.md).
 *
 * A scene becomes periodic with grit_cell_set: space is tiled by the
 * parallelepiped whose edges are the columns of H (sheared cells allowed).
 * Positions are never wrapped; a contact between A and an image of B
 * carries the image k (integers) and sees B at x_B + H k.
 *
 * The cell deforms with a homogeneous velocity gradient L (v = L x): set it
 * with grit_cell_set_grad_v between steps; it applies from the next step
 * (Woo's nextGradV). Particle velocities are total velocities; the
 * integrator moves them with the field and books kinetic energy and damping
 * on the fluctuation (the velocity minus L x), and the work of the field on
 * the contacts goes to the energy entry GRIT_E_GRADV.
 *
 * Matrices are double[3][3], row-major: M[i][j] is row i, column j; the
 * base vectors of the cell are the columns H[.][0], H[.][1], H[.][2]; the
 * gradient is L[i][j] = d v_i / d x_j. */
#ifndef GRIT_CELL_H
#define GRIT_CELL_H

#include "grit/scene.h"
#include "grit/export.h"

GRIT_BEGIN_DECLS

/* Make the scene periodic with cell H (or replace the cell: every image
 * jumps at once, and the deformation gradient restarts from identity).
 * Refused: non-finite or degenerate H, det H <= 0 (left-handed base), a
 * scene holding walls (or other unbounded shapes), a particle whose box is
 * not below half the cell along some base vector. */
int grit_cell_set(grit_scene *s, const double H[3][3]);
bool grit_is_periodic(const grit_scene *s);
/* The current cell; GRIT_ESTATE in an aperiodic scene. */
int grit_cell_get(const grit_scene *s, double H[3][3]);
double grit_cell_volume(const grit_scene *s); /* det H; NAN if aperiodic */
/* Accumulated deformation gradient F since grit_cell_set (H = F H_set). */
int grit_cell_get_trsf(const grit_scene *s, double F[3][3]);

/* Velocity gradient for the next steps (nextGradV). */
int grit_cell_set_grad_v(grit_scene *s, const double L[3][3]);
/* The gradient of the last step (gradV); zero before the first step. */
int grit_cell_get_grad_v(const grit_scene *s, double L[3][3]);
/* The gradient set for the next steps (nextGradV): what grit_cell_set_grad_v
 * set last, zero if never set. */
int grit_cell_get_next_grad_v(const grit_scene *s, double L[3][3]);

/* Image k of B in the i-th real contact (the order of grit_contact_get):
 * B is seen at x_B + H k. Zero in an aperiodic scene. */
int grit_contact_image(const grit_scene *s, int i, int k[3]);

/* Tests of the broad phase. Brute force over all pairs and, for each, the
 * 27 images around the nearest one: every (A, B, k) whose shapes overlap
 * (uN < 0) now, as 5 ints (id A, id B, k) in the geometry functor's order.
 * Returns the count, writes at most cap entries. */
int grit_cell_brute_force_overlaps(grit_scene *s, int *out, int cap);
/* The candidate pairs of the broad phase as 5 ints (id A, id B, k). */
int grit_cell_potential_pairs(const grit_scene *s, int *out, int cap);

GRIT_END_DECLS

#endif
