/* grit internal: contact laws (Law2) -- geometry + physics -> force, torque,
 * energy. Each law <name> of GRIT_LAWS (grit/law.h) has a header here with
 *   law_<name>     the per-step update (the signature of law_idealelpl),
 *   create_<name>  its physics functor and state of a new contact,
 *   GRIT_LAW_<NAME>_EXT_N   doubles of per-contact state it keeps in ext,
 *   GRIT_LAW_<NAME>_TORQUE  whether it returns a contact torque,
 * and law2/all.h includes it. A law returns false when the contact must be broken (it then
 * loses its geometry, physics and history). Laws are static inline so that
 * the contact loop compiles one specialised loop per (geometry, law) pair.
 * Besides the contact's geometry and physics a law receives the geometry
 * functor's output (particle points, velocities, angular velocities) and its
 * contact's `ext` doubles (NULL when the law declares none, see
 * grit_law_ext_n). */
#ifndef GRIT_LAW2_H
#define GRIT_LAW2_H

#include "cg2/cg2.h"
#include "cp2/cp2.h"
#include "law2/cpm_math.h"
#include "law2/kuhn_math.h"

/* ext doubles of a hertz contact with rolling resistance (law2/hertz.h);
 * without it, in a scene where no pair rolls, the first 8 suffice */
enum { GRIT_HERTZ_ROLL_EXT_N = 16 };

typedef struct grit_law_ctx {
    double dt;
    long step;
    bool no_slip, no_break, no_frict, ini_eqlb;
    bool plast_return; /* plast_book=return: the spec's fy (ft - fy) / kt */
    double ct_div_cn;  /* IdealElPl's tangential dashpot (0: none; the contact's ext holds its force) */
    double kuhn_ct_div_cn; /* Kuhn's tangential dashpot (0: none) */
    double char_len;
    grit_kuhn_opt kuhn;
    grit_cpm_opts cpm;                    /* the CPM law's parameters */
    const grit_cpm_phys *cpm_phys;        /* ConcretePhys constants per material pair */
    int cpm_ref_length;                   /* GRIT_REF_LENGTH_* */
    bool hertz_limit_force;               /* the hertz law's normal force never attracts */
    bool hertz_roll;                      /* the hertz law's contacts hold rolling resistance (ext's second line) */
} grit_law_ctx;

/* Energy increments of one contact-loop pass (summed serially, so the
 * result is independent of anything but the contact order). */
typedef struct grit_law_energy {
    double elast, plast, visc, broken, damage;
    int failed; /* contacts whose law could not be evaluated (the CPM solver); the step fails */
    int cohesive_broken; /* cohesive CPM contacts the law removed */
} grit_law_energy;

/* The share lambda in [0, 1] of a tangential dashpot force fd that can be
 * added to the tangential spring force fs (|fs| <= limit) without leaving the
 * Coulomb limit: |fs + lambda fd| <= limit. The dashpot never pushes the
 * transmitted force past the limit, and what it adds always dissipates
 * (lambda ct |v_t|^2 dt >= 0), also while the contact slides (then only a
 * dashpot force pointing into the limit circle acts). */
static inline double grit_dashpot_share(grit_vec3 fs, grit_vec3 fd, double limit)
{
    const double a = v3_norm2(fd);
    if (a == 0 || v3_norm2(v3_add(fs, fd)) <= limit * limit) return 1.0;
    const double b = v3_dot(fs, fd), c = fmin(v3_norm2(fs) - limit * limit, 0.0);
    const double l = (-b + sqrt(fmax(b * b - a * c, 0.0))) / a;
    return fmin(fmax(l, 0.0), 1.0);
}

/* The CPM law's parameters as its mathematics takes them. */
static inline grit_cpm_opts grit_cpm_opts_from(const grit_cpm_def *d)
{
    return (grit_cpm_opts){.yield_surface = d->yield_surface,
                           .yield_log_speed = d->yield_log_speed,
                           .eps_soft = d->eps_soft,
                           .rel_kn_soft = d->rel_kn_soft,
                           .omega_threshold = d->omega_threshold,
                           .shear_strain_return = d->shear_strain_return,
                           .iso_pre_adjust = d->iso_pre_adjust};
}

static inline grit_law_ctx grit_law_ctx_from(const grit_scene *s)
{
    const grit_idealelpl_def *ie = &s->laws.idealelpl;
    const grit_kuhn_def *ku = &s->laws.kuhn;
    return (grit_law_ctx){.dt = s->dt,
                          .step = s->step,
                          .no_slip = ie->no_slip,
                          .no_break = ie->no_break,
                          .no_frict = ie->no_frict,
                          .ini_eqlb = ie->ini_eqlb,
                          .plast_return = ie->plast_book == GRIT_PLAST_BOOK_RETURN,
                          .ct_div_cn = ie->ct_div_cn,
                          .kuhn_ct_div_cn = ku->kuhn_ct_div_cn,
                          .char_len = s->laws.linel6.char_len,
                          .kuhn = {.fresh = ku->kuhn_fresh,
                                   .onset = ku->kuhn_onset,
                                   .turn = ku->kuhn_turn,
                                   .projection = ku->kuhn_projection,
                                   .twirl = ku->kuhn_twirl,
                                   .work = ku->kuhn_work},
                          .cpm = grit_cpm_opts_from(&s->laws.cpm),
                          .cpm_phys = s->cpm_phys,
                          .cpm_ref_length = s->laws.cpm.ref_length,
                          .hertz_limit_force = s->laws.hertz.limit_force,
                          .hertz_roll = s->c.ext_n >= GRIT_HERTZ_ROLL_EXT_N};
}

/* The create_<law> of the laws of FrictPhys: Cp2_FrictMat_FrictPhys. */
static inline void grit_create_frictphys(const grit_scene *s, int a, int b, const grit_cg2_out *o,
                                         grit_contact_cold *cold, grit_frictphys *p, double *ext)
{
    (void)o;
    (void)ext;
    grit_cp2_frictphys(s, s->b.mat[a], s->b.mat[b], cold, p);
}

#endif
