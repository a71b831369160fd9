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

/* ---- stress/strain control (Woo's WeirdTriaxControl, Yade's
 * PeriTriaxController; docs/periodic.md "Stress control").
 *
 * Each diagonal component of the cell's velocity gradient is either
 * prescribed (mode GRIT_CTRL_RATE: L_aa = goal[a]) or steered by a servo so
 * that the stress sigma_aa reaches goal[a] (mode GRIT_CTRL_STRESS; tension
 * positive, so a confining stress is negative). The off-diagonal entries of
 * grad_v are prescribed rates (shear, rotation); its diagonal is ignored.
 * Every `every` steps, at the start of the step, the servo measures the
 * stress and the cell's affine stiffness (the contacts' normal and
 * tangential stiffness projected on the axes) and sets the diagonal rates
 * that would remove the fraction `gain` of the error over the next `every`
 * steps if the assembly deformed affinely; the real assembly is softer, so
 * under pure stress control the stress approaches its goal from one side,
 * without overshoot. While prescribed components strain the cell, an
 * integral term (`integral`) also corrects what the affine feed-forward of
 * the prescribed strain gets wrong, which a proportional servo would leave
 * as a lasting error of several per cent. The controller belongs to the
 * scene: it runs inside grit_step and is saved in restart files (section
 * CTRL, with its integral terms). */
enum { GRIT_CTRL_RATE = 0, GRIT_CTRL_STRESS = 1 };

typedef struct grit_cell_ctrl_def {
    int mode[3];          /* per axis: GRIT_CTRL_RATE or GRIT_CTRL_STRESS */
    double goal[3];       /* per axis: L_aa [1/s] or the target sigma_aa [Pa] */
    double grad_v[3][3];  /* prescribed off-diagonal L_ij [1/s]; the diagonal is not read */
    double gain;          /* fraction of the stress error removed per update, in (0, 1) */
    double max_rate;      /* cap on |L_aa| of the stress-controlled axes [1/s] */
    double stress_tol;    /* within tolerance: |sigma_aa - goal| <= stress_tol * scale (see state) */
    int every;            /* steps between two servo updates, >= 1 */
    int settle;           /* updates in a row within tolerance for `converged` (and grit_cell_ctrl_run), >= 1 */
    double integral;      /* integral action, in [0, 1): each update adds integral * gain * error to the integral
                           * term, while prescribed components strain the cell and the rate cap does not bind;
                           * 0: proportional only */
} grit_cell_ctrl_def;

/* All axes GRIT_CTRL_RATE with goal 0, no shear, gain 0.5, max_rate 1 1/s,
 * stress_tol 1e-3, every 1, settle 1, integral 0.5. */
grit_cell_ctrl_def grit_default_cell_ctrl_def(void);

/* Install (or replace) the controller; the first update is at the next
 * step, with its integral terms at zero. Refused with a message naming the
 * field: a mode other than the two, a non-finite goal or grad_v entry, gain
 * outside (0, 1), integral outside [0, 1), max_rate not > 0
 * and finite, stress_tol < 0, every or settle < 1; GRIT_ESTATE in an
 * aperiodic scene. */
int grit_cell_ctrl_set(grit_scene *s, const grit_cell_ctrl_def *def);
/* Remove the controller; the gradient it set last stays (set a new one with
 * grit_cell_set_grad_v). No error without a controller. */
int grit_cell_ctrl_clear(grit_scene *s);
/* The installed definition; GRIT_ESTATE if there is none. */
int grit_cell_ctrl_get(const grit_scene *s, grit_cell_ctrl_def *def);

typedef struct grit_cell_ctrl_state {
    bool active;          /* a controller is installed */
    double stress[3][3];  /* the stress now (grit_stress) [Pa] */
    double error[3];      /* goal - sigma_aa on stress-controlled axes, 0 on the others [Pa] */
    double stiffness[3];  /* the servo's affine stiffness of each axis now [Pa] */
    double scale;         /* the stress scale of the tolerance: the largest |goal| of the stress-controlled
                           * axes and |sigma_aa| of every axis [Pa] */
    double rel_error;     /* max |error| / scale now (0 if scale is 0 and every error is 0) */
    int held;             /* servo updates in a row within tolerance so far */
    bool converged;       /* held >= settle */
    long updates;         /* servo updates since grit_cell_ctrl_set */
    double integral[3];   /* the integral term of each stress-controlled axis now, 0 on the others [Pa] */
} grit_cell_ctrl_state;

/* The controller's state, measured now (one pass over the contacts). */
int grit_cell_ctrl_get_state(const grit_scene *s, grit_cell_ctrl_state *st);

/* Run until the controller has converged (settle updates in a row within
 * stress_tol; checked at every update) or max_steps have run. *steps (may
 * be NULL): the steps run. GRIT_OK when converged; GRIT_ESTATE with a
 * message giving the remaining error when max_steps ran out; any error of
 * grit_step. */
int grit_cell_ctrl_run(grit_scene *s, long max_steps, long *steps);

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
