/* grit internal: the state of a periodic cell (spec 9.3) and the 3x3 matrix
 * arithmetic it needs.
 *
 * Timing (one step, see cell.c): the prologue makes nextGradV the gradient
 * of this step and moves the cell, H <- C H with the Cayley map
 * C = (I - dt/2 L)^-1 (I + dt/2 L); the leapfrog then moves the particles
 * with the same gradient (the gradV2 update keeps a purely affine motion on
 * exactly the same map), so images and particles always move together.
 * Matrices are grit_mat3, stored by columns; H's columns are the base
 * vectors. */
#ifndef GRIT_CELL_IMPL_H
#define GRIT_CELL_IMPL_H

#include "core/scene_impl.h"
#include "grit/cell.h"

/* ---- 3x3 matrices ---- */
static inline double m3_at(const grit_mat3 *m, int i, int j) { return v3_get(m->c[j], i); }
/* row i of m (a row of H^-1 maps a point to one reduced coordinate) */
static inline grit_vec3 m3_row(const grit_mat3 *m, int i) { return v3(m3_at(m, i, 0), m3_at(m, i, 1), m3_at(m, i, 2)); }
static inline grit_mat3 m3_identity(void) { return (grit_mat3){{v3(1, 0, 0), v3(0, 1, 0), v3(0, 0, 1)}}; }
static inline grit_mat3 m3_zero(void) { return (grit_mat3){{v3_zero(), v3_zero(), v3_zero()}}; }
static inline grit_mat3 m3_lin(double a, const grit_mat3 *A, double b, const grit_mat3 *B)
{
    grit_mat3 r;
    for (int j = 0; j < 3; j++) r.c[j] = v3_add(v3_scale(A->c[j], a), v3_scale(B->c[j], b));
    return r;
}
static inline grit_mat3 m3_mmul(const grit_mat3 *a, const grit_mat3 *b)
{
    grit_mat3 r;
    for (int j = 0; j < 3; j++) r.c[j] = m3_mul(a, b->c[j]);
    return r;
}
static inline double m3_det(const grit_mat3 *m) { return v3_dot(m->c[0], v3_cross(m->c[1], m->c[2])); }
/* Inverse (the caller checks the determinant): the rows of m^-1 are the
 * cross products of the columns over det. */
static inline grit_mat3 m3_inverse(const grit_mat3 *m)
{
    double id = 1.0 / m3_det(m);
    grit_vec3 r0 = v3_scale(v3_cross(m->c[1], m->c[2]), id), r1 = v3_scale(v3_cross(m->c[2], m->c[0]), id),
              r2 = v3_scale(v3_cross(m->c[0], m->c[1]), id);
    return (grit_mat3){{v3(r0.x, r1.x, r2.x), v3(r0.y, r1.y, r2.y), v3(r0.z, r1.z, r2.z)}};
}
static inline bool m3_is_zero(const grit_mat3 *m)
{
    for (int j = 0; j < 3; j++)
        if (m->c[j].x != 0 || m->c[j].y != 0 || m->c[j].z != 0) return false;
    return true;
}
/* Spin vector w of L: its antisymmetric part W = (L - L^T)/2 acts as w x. */
static inline grit_vec3 m3_spin(const grit_mat3 *L)
{
    return v3(0.5 * (m3_at(L, 2, 1) - m3_at(L, 1, 2)), 0.5 * (m3_at(L, 0, 2) - m3_at(L, 2, 0)),
              0.5 * (m3_at(L, 1, 0) - m3_at(L, 0, 1)));
}
/* m k for an integer image k */
static inline grit_vec3 m3_mul_k(const grit_mat3 *m, const int8_t k[3])
{
    return m3_mul(m, v3((double)k[0], (double)k[1], (double)k[2]));
}

typedef struct grit_cell {
    grit_mat3 H, Hinv; /* current cell (columns: base vectors) and its inverse */
    grit_mat3 H_half;  /* mid-step cell of the last step, (H_old + H) / 2 */
    grit_mat3 trsf;    /* accumulated deformation gradient F, H = F H_ref */
    grit_mat3 L;       /* gradV: the gradient of the current (last) step */
    grit_mat3 L_prev;  /* gradV of the step before (L^- of the leapfrog) */
    grit_mat3 next_L;  /* nextGradV: becomes L at the next step */
    grit_mat3 LH;      /* L H_half: velocity shift of an image per unit of k */

    /* gradV2 leapfrog, set by the prologue: v+ = A v + B x + Mdt a */
    grit_mat3 lf_A, lf_B, lf_Mdt;
    bool grad_changed;     /* L != L_prev (B is not zero) */
    grit_vec3 spin_prev;   /* spin vector of L_prev (fluctuation of w) */
    grit_vec3 dspin;       /* spin(L) - spin(L_prev), added to w */
    bool spin_changed;     /* dspin != 0 */

    /* broad phase: H at the last rebuild, H - H_rebuild, and each particle's
     * period p (reduced centre = wrapped + p) at the last rebuild */
    grit_mat3 H_rebuild, dH;
    grit_vec3 *period;
    int n_period, cap_period;
    struct grit_pbp *pbp;

    /* stress power: virial sum F (x) l of the previous step */
    grit_mat3 virial_prev;
    bool virial_prev_set;

    /* the stress/strain controller (cellctrl.c) */
    bool ctrl_on;
    grit_cell_ctrl_def ctrl;
    int ctrl_countdown; /* steps before its next update (0: at the start of the next step) */
    int ctrl_held;      /* updates in a row within tolerance */
    long ctrl_updates;  /* updates since grit_cell_ctrl_set */
    double ctrl_integ[3]; /* the servo's integral term per axis [Pa] */
} grit_cell;

/* Shift s = H k and velocity shift dvs = L H_half k of B's image (spec 1.6,
 * 9.3); zero for the image k = 0 of almost every contact. */
static inline __attribute__((always_inline)) void grit_cell_image(const grit_cell *c, const int8_t k[3],
                                                                  grit_vec3 *shift, grit_vec3 *dvs)
{
    if ((k[0] | k[1] | k[2]) == 0) {
        *shift = v3_zero();
        *dvs = v3_zero();
        return;
    }
    *shift = m3_mul_k(&c->H, k);
    *dvs = m3_mul_k(&c->LH, k);
}

/* Move of particle i's wrapped image x - H p since the last rebuild, from
 * its move dpos (see collide/periodic.c): what the Verlet check compares
 * with the skin. Infinite for a particle the broad phase has not seen. */
static inline grit_vec3 grit_cell_image_move(const grit_cell *c, int i, grit_vec3 dpos)
{
    if (i >= c->n_period) return v3(INFINITY, INFINITY, INFINITY);
    return v3_sub(dpos, m3_mul(&c->dH, c->period[i]));
}

/* The gradV2 velocity update of one particle:
 *   v+ = (I - dt/2 L+)^-1 ((L+ - L-) x + (I + dt/2 L-) v + dt a),
 * i.e. exactly f+ = f- + dt a for the fluctuation velocity of spec 9.3,
 * f- = v - L- (x - dt/2 v) before and f+ = v+ - L+ (x + dt/2 v+) after.
 * The spec's formula puts dt/4 (L+ + L-) on both sides instead: the same
 * for a constant gradient, but at a change of gradient it leaves a
 * fluctuation of order dt L^2 x that then drifts the particles off the
 * deformed lattice for good (tests/test_periodic.c measures both). */
static inline __attribute__((always_inline)) grit_vec3 grit_cell_velocity(const grit_cell *c, grit_vec3 v,
                                                                         grit_vec3 x, grit_vec3 a)
{
    grit_vec3 r = v3_add(m3_mul(&c->lf_A, v), m3_mul(&c->lf_Mdt, a));
    return c->grad_changed ? v3_add(r, m3_mul(&c->lf_B, x)) : r;
}

/* Step prologue: nextGradV -> gradV, move the cell, prepare the leapfrog.
 * Fails (nothing changed) if the gradient is too large for the time step. */
int grit_cell_prologue(grit_scene *s);
/* Step epilogue: the gradV energy term when tracking energy. */
void grit_cell_epilogue(grit_scene *s);
void grit_cell_free(grit_cell *c);

#endif
