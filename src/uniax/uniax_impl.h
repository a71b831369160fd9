/* grit: what the files of src/uniax share (not public). */
#ifndef GRIT_UNIAX_IMPL_H
#define GRIT_UNIAX_IMPL_H

#include "grit/concrete.h"
#include "grit/uniax.h"

/* One error line into err; returns code. */
int uniax_fail(char *err, size_t errlen, int code, const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/* The specimen while it is strained. */
struct grit_uniax {
    grit_uniax_def def;
    grit_scene *s;
    int axis;
    int n;                  /* spheres; their ids are 0 .. n-1 */
    int *neg, *pos;         /* support ids */
    int n_neg, n_pos;
    int ref_neg, ref_pos;   /* reference spheres */
    double l0, area, confinement, kn;
    double lo[3], hi[3];    /* extents (centre +- r) at creation */
    grit_vec3 *x0;          /* centres after the bonding step */
    int bonds, interior, interior_bonds;
    double rate;
    long step0;             /* the scene's step at grit_uniax_start */
    /* Poisson's ratio, measured once in the first run that reaches poisson_strain */
    bool have_poisson;
    double nu, eps_reg[3], stress_at_poisson;
};

/* Append a point to a curve (grows it); -1 when out of memory. */
int uniax_curve_push(grit_uniax_curve *c, double strain, double stress, double time, double omega, double lateral);

/* The stop rules of one run, shared by the specimen and the periodic cell. */
typedef struct uniax_track {
    int sense;          /* +1 tension, -1 compression */
    int first, ipeak;   /* the run's first point in the curve, its extremum so far */
    double fall, max_strain;
    long max_steps;
} uniax_track;
void uniax_track_start(uniax_track *t, const grit_uniax_def *def, int sense, double confinement,
                       const grit_uniax_curve *c);
/* Why the run stops at the point (e, sig) about to be appended as c->n
 * after `steps` steps (GRIT_UNIAX_RUNNING: it goes on); updates the peak.
 * *peak receives the extremum so far. */
int uniax_track_point(uniax_track *t, const grit_uniax_curve *c, double e, double sig, long steps, double *peak);

/* max_strain of the definition for a material's confinement. */
double uniax_max_strain(const grit_uniax_def *def, double confinement);

/* Validate the definition, the material and the law; *cm (may be NULL)
 * receives the ConcreteMat. */
int uniax_check_common(const grit_uniax_specimen *spec, const grit_uniax_def *def, grit_concretemat_def *cm,
                       char *err, size_t errlen);

/* Fill the analysis fields of r from its curves (E, strengths, G_f). */
void uniax_analyse(const grit_uniax_def *def, double kn, grit_uniax_result *r);

/* A new scene of the specimen's material and law (no particles yet):
 * damping, dt_safety, interaction radius = bond_radius. *mat receives the
 * material index. */
grit_scene *uniax_scene(const grit_uniax_specimen *spec, const grit_uniax_def *def, int *mat, char *err,
                        size_t errlen);
/* Take the bonding step at rest, then set the interaction radius back to 1. */
int uniax_bond(grit_scene *s, char *err, size_t errlen);

static inline double v3_axis(grit_vec3 v, int a) { return a == 0 ? v.x : a == 1 ? v.y : v.z; }

#endif
