/* grit: the law tester -- two particles driven along prescribed paths in
 * contact-local coordinates, and the contact's response recorded (Woo's
 * LawTester; docs/law-tester.md), plus the local-axes imposition it uses.
 *
 * ---- Local-axes imposition (Woo's Local6Dofs) ---------------------------
 * A particle may carry a frame (three orthonormal axes) and, for each of
 * its six DoFs along those axes (x y z, rotation about x y z), one of
 *   GRIT_IMPOSE_FREE  nothing imposed,
 *   GRIT_IMPOSE_VEL   the velocity component is overwritten with the value
 *                     right after the integrator's velocity update,
 *   GRIT_IMPOSE_FORCE the force (torque) component is overwritten with the
 *                     value when the accumulators are reset (before the
 *                     contact forces of the step are added; other
 *                     components keep m g).
 * The axes are the columns of `axes` (local -> global); the imposition
 * works with their transpose (global -> local), consistently.
 *
 * ---- Law tester --------------------------------------------------------
 * A tester holds particle ids (A, B) = (ids[0], ids[1]) and a list of
 * stages. Drive it with grit_tester_step / grit_tester_run instead of
 * grit_step: after every scene step it does what Woo's LawTester engine does
 * after the contact loop:
 *   1. find the real contact between A and B;
 *   2. the tester frame: the contact's frame, turned so that its normal
 *      points from A to B when the contact is stored as (B, A); without a
 *      contact, the frame a new contact would get from the normal
 *      <x_B - x_A> (docs/law-tester.md);
 *   3. on entering a stage, install the impositions on both particles:
 *      for DoF j and whats[j] =
 *        'v' velocity for the whole stage, 'i' velocity in its first step,
 *            B gets  ab_weight * values[j], A gets -(1 - ab_weight) * values[j]
 *            (bending j = 4, 5: weights r_A/(r_A+r_B) for B and r_B/(r_A+r_B)
 *            for A, both must be spheres), so that the motion of B relative
 *            to A is `values`;
 *        'f' force: on A (value -values[j]) if ab_weight < 1/2, else on B
 *            (value +values[j]); the other particle gets velocity 0 on that
 *            DoF; a negative normal value compresses the contact;
 *        '.' nothing;
 *      in every later step of the stage the frame is refreshed and the 'i'
 *      impositions are dropped;
 *   4. record the response in the tester frame (6-vectors: force and torque
 *      on A, relative velocity of B w.r.t. A, displacement, stiffness; NaN
 *      without contact), smoothed values and their errors, the work done on
 *      the contact;
 *   5. every `until_every` stage steps test the stage's end condition; when it
 *      holds, run the stage's end actions and move to the next stage, whose
 *      impositions are installed at the next call (so the old ones still
 *      drive one more step, as in Woo). After the last stage the tester is
 *      done and the impositions are removed.
 *
 * A stage ends on a built-in condition (`until`, also written as text, see
 * grit_tester_cond_parse), on a C callback (`until_fn`), or on either.
 * Callbacks returning a negative value abort the run with GRIT_ESTATE (a
 * Python wrapper maps an exception to that).
 */
#ifndef GRIT_TESTER_H
#define GRIT_TESTER_H

#include <stddef.h>
#include <stdint.h>

#include "grit/scene.h"
#include "grit/export.h"

GRIT_BEGIN_DECLS

/* ---- local-axes imposition ------------------------------------------------ */
enum { GRIT_IMPOSE_FREE = 0, GRIT_IMPOSE_VEL = 1, GRIT_IMPOSE_FORCE = 2 };

/* Impose on particle `id`: axes columns orthonormal (checked to 1e-9),
 * what[j] one of GRIT_IMPOSE_*, values finite. Replaces an earlier
 * imposition on that particle. Velocities about the axes of a particle with
 * anisotropic inertia cannot be imposed. */
int grit_impose_local(grit_scene *s, int id, const grit_mat3 *axes, const double values[6],
                      const uint8_t what[6]);
/* Remove the imposition (no-op if there is none). */
int grit_impose_local_clear(grit_scene *s, int id);

/* ---- tester parameters (one declaration each, see params.h) --------------- */
/* clang-format off */
#define GRIT_TESTER_PARAMS(X) \
    X(double, ab_weight, 1.0, "-", 0.0, 1.0, 0, NULL, \
      "share of the prescribed motion given to B (ids[1]); A gets the rest") \
    X(double, smooth, 1e-4, "-", 0.0, 1.0, GRIT_P_MIN_EXCL, NULL, \
      "weight of the current value in the exponentially smoothed f, u, v") \
    X(double, smooth_err, -1.0, "-", -INFINITY, 1.0, 0, NULL, \
      "weight of the current deviation in the smoothed errors; <= 0: same as smooth") \
    X(int, record_every, 0, "steps", 0, 1e9, 0, NULL, \
      "append a row to the record every that many scene steps (0: no record)")
/* clang-format on */

typedef struct grit_tester_def {
    GRIT_TESTER_PARAMS(GRIT_PARAM_FIELD)
} grit_tester_def;

grit_tester_def grit_default_tester_def(void);
extern const grit_param_table grit_tester_param_table;

/* ---- state seen by conditions and callbacks ------------------------------- */
typedef struct grit_tester_state {
    int stage;          /* index of the current stage; == stage count when done */
    long stage_step;    /* steps since the stage was entered */
    double stage_time;  /* time since the stage was entered */
    bool has_contact;   /* a real contact exists now */
    bool had_contact;   /* one existed at some point in this stage */
    double time_c0;     /* stage time at which the last contact was created (NaN) */
    int bounces;        /* sign changes of the normal relative velocity */
    double dist;        /* distance of the two particle positions */
    /* tester frame, 6-vectors (x y z rx ry rz); NaN without contact */
    double f[6];        /* force and torque on A */
    double v[6];        /* velocity and angular velocity of B relative to A */
    double u[6];        /* u[0] = uN, the others: time integral of v */
    double k[6];        /* stiffnesses (kn kt kt, and kw kb kb for linel6) */
    double smoo_f[6], smoo_u[6], smoo_v[6];
    double f_err_rel[6], f_err_abs[6], u_err_rel[6], u_err_abs[6], v_err_rel[6], v_err_abs[6];
    double work;        /* sum over DoFs of the trapezoidal work of f on the increments of u
                         * since the contact was created (= stored energy for an elastic law) */
    grit_vec3 axes[3];  /* the tester frame (local x = normal A -> B) */
    bool flipped;       /* the contact is stored as (B, A) */
} grit_tester_state;

/* ---- built-in end conditions ---------------------------------------------- */
typedef enum grit_tester_quantity {
    GRIT_TQ_NONE = 0,  /* no built-in condition */
    GRIT_TQ_CONTACT,   /* 1 if a real contact exists, else 0 */
    GRIT_TQ_BROKEN,    /* 1 if a contact existed in this stage and is gone */
    GRIT_TQ_UN,        /* normal gap (NaN without contact) */
    GRIT_TQ_U,         /* u[index] */
    GRIT_TQ_F,         /* f[index] */
    GRIT_TQ_V,         /* v[index] */
    GRIT_TQ_FERR_REL,  /* f_err_rel[index] */
    GRIT_TQ_FERR_ABS,  /* f_err_abs[index] */
    GRIT_TQ_STEP,      /* stage steps */
    GRIT_TQ_TIME,      /* stage time */
    GRIT_TQ_BOUNCES,   /* bounces */
    GRIT_TQ_ENERGY,    /* energy entry `index` (grit_energy_kind) */
    GRIT_TQ_REBOUND,   /* 1 if bounces >= 2 or broken, else 0 */
    GRIT_TQ_CTIME,     /* stage time since the last contact was created (NaN before) */
    GRIT_TQ_COUNT
} grit_tester_quantity;

typedef enum grit_tester_op { GRIT_OP_LT = 0, GRIT_OP_LE, GRIT_OP_GT, GRIT_OP_GE } grit_tester_op;

/* quantity[index] op value; a NaN quantity never satisfies it. */
typedef struct grit_tester_cond {
    int quantity; /* grit_tester_quantity */
    int index;
    int op;       /* grit_tester_op */
    double value;
} grit_tester_cond;

/* Parse a condition written as text:
 *   "C"  (a contact exists), "not C", "broken", "rebound",
 *   "<q> <op> <number>"   with q one of uN, step, time, cTime, bounces,
 *   "<q>[<k>] <op> <number>" with q one of u, f, v, fErrRel, fErrAbs (k 0..5)
 *                            or E (k an energy name, e.g. E[plast] > 0),
 *   op one of < <= > >=. Returns 0, or -1 with a one-line message in err. */
int grit_tester_cond_parse(const char *text, grit_tester_cond *out, char *err, size_t errlen);
/* Evaluate a condition on a state (energy read from the scene). */
bool grit_tester_cond_eval(const grit_scene *s, const grit_tester_state *st, const grit_tester_cond *c);

/* ---- stages ----------------------------------------------------------------- */
typedef struct grit_tester grit_tester;

/* Return > 0 to end the stage, 0 to go on, < 0 to abort the run. */
typedef int (*grit_tester_until_fn)(grit_scene *s, grit_tester *t, const grit_tester_state *st, void *user);
/* Run when a stage ends (stage = its index); < 0 aborts the run. */
typedef int (*grit_tester_done_fn)(grit_scene *s, grit_tester *t, int stage, void *user);

typedef struct grit_tester_stage {
    double values[6];   /* prescribed values, local DoF order x y z rx ry rz */
    char whats[7];      /* one of "vif." per DoF, NUL-terminated */
    grit_tester_cond until; /* built-in end condition (GRIT_TQ_NONE: none) */
    grit_tester_until_fn until_fn; /* optional callback; the stage ends when either holds */
    void *until_data;
    long until_every;   /* test the end condition every that many stage steps (>= 1) */
    unsigned reset_energy; /* bit k: set energy entry k to 0 when the stage ends */
    grit_tester_done_fn done_fn; /* optional action when the stage ends */
    void *done_data;
} grit_tester_stage;

/* values 0, whats "......", no condition, until_every 1. */
grit_tester_stage grit_default_tester_stage(void);
/* Fill values, whats and until from text (for command lines and scripts):
 * values "v0,v1,v2,v3,v4,v5", whats e.g. "v.....", until as in
 * grit_tester_cond_parse. Returns 0 or -1 with a message in err. */
int grit_tester_stage_parse(grit_tester_stage *st, const char *values, const char *whats, const char *until,
                            char *err, size_t errlen);

/* ---- the tester ------------------------------------------------------------- */
/* Create a tester on particles id_a, id_b of scene s (def NULL: defaults).
 * Returns NULL on bad input, with the message in grit_last_error(s). The
 * tester must be destroyed before the scene; destroying it before its last
 * stage ended removes its impositions from the particles. */
grit_tester *grit_tester_create(grit_scene *s, int id_a, int id_b, const grit_tester_def *def);
void grit_tester_destroy(grit_tester *t);
/* Append a stage (validated). */
int grit_tester_add_stage(grit_tester *t, const grit_tester_stage *st);
int grit_tester_stage_count(const grit_tester *t);

/* Run n scene steps, the tester acting after each (it stops acting when done).
 * Errors come from grit_step or from the tester (message in grit_last_error). */
int grit_tester_step(grit_tester *t, long n);
/* Step until the last stage has ended, at most max_steps steps. Returns the
 * number of steps run (>= 0), or a negative grit_status (also GRIT_ESTATE if
 * max_steps passed before the stages ended). */
long grit_tester_run(grit_tester *t, long max_steps);
bool grit_tester_done(const grit_tester *t);
const grit_tester_state *grit_tester_get_state(const grit_tester *t);

/* ---- the record -------------------------------------------------------------- */
/* Every record_every scene steps a row of doubles is appended: see
 * grit_tester_record_columns for the names (step, time, stage, stage_step,
 * contact, dist, u0..u5, f0..f5, v0..v5, k0..k5, work, bounces, then one
 * column per energy entry named by grit_energy_name). Rows are stored
 * contiguously (row-major); the pointer is invalidated by further steps. */
int grit_tester_record_columns(const grit_tester *t);
const char *grit_tester_record_column_name(const grit_tester *t, int col);
long grit_tester_record_rows(const grit_tester *t);
const double *grit_tester_record_data(const grit_tester *t);
/* Write the record as CSV (header line of column names, %.17g values). */
int grit_tester_write_csv(const grit_tester *t, const char *path);

GRIT_END_DECLS

#endif
