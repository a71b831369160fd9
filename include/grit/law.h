/* grit: contact laws (Law2) and their parameters.
 *
 * A contact's law is chosen by its two materials (material.h): the pair of
 * material types gives the contact's physics (FrictPhys, ConcretePhys,
 * HertzPhys), and
 * the law is the one the materials ask for among the laws that accept that
 * physics. Every law's parameters form one group, set per scene (as the
 * attributes of Woo's Law2 functors): grit_set_law_def / grit_get_law_def.
 * Parameter names are unique across the scene and the law groups, so that
 * the command line and Python accept them as plain keys.
 *
 * GRIT_LAWS is the registration list of the laws: one entry per law gives
 * its enum value, its name, the physics it accepts and its parameter group;
 * the contact loop's specialisations, the restart section LAWS, the Python
 * attributes and the generated documentation all follow from it. A new law
 * is one header src/law2/<name>.h (law_<name>, create_<name>, and the
 * constants GRIT_LAW_<NAME>_EXT_N and GRIT_LAW_<NAME>_TORQUE) plus one entry
 * here and its parameter list (docs/architecture.md).
 */
#ifndef GRIT_LAW_H
#define GRIT_LAW_H

#include <stdbool.h>
#include <stddef.h>

#include "grit/params.h"
#include "grit/export.h"

GRIT_BEGIN_DECLS

/* Contact physics: what a material pair's Cp2 functor makes. */
#define GRIT_PHYS_TYPES(X) \
    X(FRICTPHYS, "FrictPhys")   \
    X(CONCRETEPHYS, "ConcretePhys") \
    X(HERTZPHYS, "HertzPhys")

typedef enum grit_phys_type {
#define GRIT_PHYS_ENUM(U, name) GRIT_PHYS_##U,
    GRIT_PHYS_TYPES(GRIT_PHYS_ENUM)
#undef GRIT_PHYS_ENUM
    GRIT_PHYS_COUNT
} grit_phys_type;

/* X(UPPER, lower, physics it accepts, Woo's name) -- the order is the enum's
 * and is kept in restart files: append new laws at the end. */
#define GRIT_LAWS(X)                                                            \
    X(IDEALELPL, idealelpl, FRICTPHYS, "Law2_L6Geom_FrictPhys_IdealElPl")      \
    X(LINEL6, linel6, FRICTPHYS, "Law2_L6Geom_FrictPhys_LinEl6")               \
    X(KUHN, kuhn, FRICTPHYS, "Law2_L6Geom_FrictPhys_Kuhn")                     \
    X(CPM, cpm, CONCRETEPHYS, "Law2_L6Geom_ConcretePhys")                     \
    X(HERTZ, hertz, HERTZPHYS, "Law2_L6Geom_HertzPhys")

typedef enum grit_law {
#define GRIT_LAW_ENUM(U, l, phys, name) GRIT_LAW_##U,
    GRIT_LAWS(GRIT_LAW_ENUM)
#undef GRIT_LAW_ENUM
    GRIT_LAW_COUNT
} grit_law;

/* ---- parameters of each law ------------------------------------------------- */
/* clang-format off */
#define GRIT_IDEALELPL_PARAMS(X) \
    X(flag, no_slip, false, "-", 0, 1, 0, NULL, "IdealElPl: disable the Coulomb limit") \
    X(flag, no_break, false, "-", 0, 1, 0, NULL, "IdealElPl: never break a contact in tension (cohesion)") \
    X(flag, no_frict, false, "-", 0, 1, 0, NULL, \
      "FrictPhys laws (IdealElPl, Kuhn): no tangential force at all") \
    X(flag, ini_eqlb, false, "-", 0, 1, 0, NULL, "IdealElPl: the gap at contact creation is the equilibrium distance") \
    X(choice, plast_book, 0, "-", 0, 1, 0, "trapezoid|return", \
      "IdealElPl's plastic dissipation of a slipping step: trapezoidal work minus the change of stored energy (the " \
      "balance closes to second order) or the return map's fy (ft - fy) / kt (Woo's book; first order, " \
      "docs/linear-model.md)") \
    X(double, ct_div_cn, 0.0, "-", 0.0, INFINITY, 0, NULL, \
      "IdealElPl: tangential dashpot ct = ct_div_cn cn (cn: the pair's normal dashpot), force ct v_t added to the " \
      "transmitted force within the Coulomb limit; booked as viscDamp (0: none)")

#define GRIT_LINEL6_PARAMS(X) \
    X(double, char_len, -1.0, "m", -INFINITY, INFINITY, 0, NULL, \
      "LinEl6: characteristic length dividing kn, kt into the twist and bending stiffnesses (must be > 0 " \
      "when a contact uses the law)")

#define GRIT_KUHN_PARAMS(X) \
    X(flag, kuhn_fresh, true, "-", 0, 1, 0, NULL, \
      "Kuhn: a new contact ignores the movement before its touch instant (refinement R1, docs/kuhn-law.md)") \
    X(flag, kuhn_onset, true, "-", 0, 1, 0, NULL, \
      "Kuhn: elastic up to the slip onset within the step, then slip (refinement R2, docs/kuhn-law.md)") \
    X(flag, kuhn_turn, true, "-", 0, 1, 0, NULL, \
      "Kuhn: closed-form turning of the force during slip (refinement R3, docs/kuhn-law.md); false: radial " \
      "return of the trial force") \
    X(flag, kuhn_projection, true, "-", 0, 1, 0, NULL, \
      "Kuhn: project the stored force onto the new tangent plane (R4a, docs/kuhn-law.md)") \
    X(choice, kuhn_twirl, 0, "-", 0, 2, 0, "exact|first_order|off", \
      "Kuhn: turn the stored force with the pair's mean spin about the normal (refinement R4b, docs/kuhn-law.md); " \
      "kuhn_fresh, kuhn_onset, kuhn_turn false and kuhn_twirl off is the conventional law") \
    X(choice, kuhn_work, 0, "-", 0, 1, 0, "trapezoid|exact", \
      "Kuhn: sliding work (and so dissipation) by Kuhn et al.'s trapezoid rule or by quadrature of the exact " \
      "integral") \
    X(double, kuhn_ct_div_cn, 0.0, "-", 0.0, INFINITY, 0, NULL, \
      "Kuhn: tangential dashpot ct = kuhn_ct_div_cn cn (cn: the pair's normal dashpot), force ct v_t added to " \
      "the transmitted force within the Coulomb limit; booked as viscDamp (0: none)")

#define GRIT_CPM_PARAMS(X) \
    X(choice, yield_surface, 3, "-", 0, 3, 0, "lin|parab|log|loglin", \
      "CPM: yield surface of the shear stress: linear (Mohr-Coulomb), parabolic, logarithmic, or logarithmic in " \
      "compression and linear in tension (docs/concrete.md)") \
    X(double, yield_log_speed, 0.1, "-", 0.0, INFINITY, GRIT_P_MIN_EXCL, NULL, \
      "CPM: how fast the logarithmic yield surface departs from the linear one (Y0)") \
    X(double, eps_soft, -3e-3, "-", -INFINITY, INFINITY, 0, NULL, \
      "CPM: normal strain at which compressive plasticity starts (>= 0: no compressive plasticity)") \
    X(double, rel_kn_soft, 0.3, "-", -INFINITY, INFINITY, 0, NULL, \
      "CPM: tangent modulus of the compressive plastic branch relative to the normal modulus (0: perfectly plastic)") \
    X(double, omega_threshold, 1.0, "-", 0.0, INFINITY, GRIT_P_MIN_EXCL, NULL, \
      "CPM: a cohesive contact in tension is deleted when its damage exceeds this (>= 1: never for the " \
      "exponential law)") \
    X(choice, ref_length, 0, "-", 0, 1, 0, "radii|distance", \
      "CPM: reference length of the strains: the sum of the radii (Woo) or the distance at creation (Smilauer's " \
      "thesis, Yade)") \
    X(flag, shear_strain_return, true, "-", 0, 1, 0, NULL, \
      "CPM: scale the shear strain back onto the yield surface after a plastic return (Smilauer's thesis, Yade); " \
      "false: Woo (shear is then a capped elastic spring)") \
    X(flag, iso_pre_adjust, true, "-", 0, 1, 0, NULL, \
      "CPM: isotropic confinement also shifts the strain the law sees (Smilauer's thesis, Yade); false: Woo " \
      "(only the applied stress is shifted)") \
    X(int, cohesive_steps, 10, "steps", -1, 2e9, 0, NULL, \
      "CPM: contacts made before this step are cohesive, later ones are not (-1: all are cohesive, 0: none)")

#define GRIT_HERTZ_PARAMS(X) \
    X(double, rayleigh_fraction, 0.2, "-", 0.0, 1.0, GRIT_P_MIN_EXCL, NULL, \
      "hertz: the critical time step of HertzMat particles as a fraction of their Rayleigh time (docs/hertz.md; " \
      "the step taken is dt_safety times the critical one)") \
    X(flag, limit_force, false, "-", 0, 1, 0, NULL, \
      "hertz: the normal force never attracts (LIGGGHTS' limitForce): the dashpot's pull at the end of a contact is " \
      "cut, and the restitution comes out above the prescribed one (0.33 for 0.2, docs/hertz.md)")
/* clang-format on */

typedef struct grit_idealelpl_def {
    GRIT_IDEALELPL_PARAMS(GRIT_PARAM_FIELD)
} grit_idealelpl_def;
typedef struct grit_linel6_def {
    GRIT_LINEL6_PARAMS(GRIT_PARAM_FIELD)
} grit_linel6_def;
typedef struct grit_kuhn_def {
    GRIT_KUHN_PARAMS(GRIT_PARAM_FIELD)
} grit_kuhn_def;
typedef struct grit_cpm_def {
    GRIT_CPM_PARAMS(GRIT_PARAM_FIELD)
} grit_cpm_def;
typedef struct grit_hertz_def {
    GRIT_HERTZ_PARAMS(GRIT_PARAM_FIELD)
} grit_hertz_def;

/* Values of the choices. */
enum { GRIT_PLAST_BOOK_TRAPEZOID = 0, GRIT_PLAST_BOOK_RETURN = 1 };
enum { GRIT_YIELD_LIN = 0, GRIT_YIELD_PARAB, GRIT_YIELD_LOG, GRIT_YIELD_LOGLIN };
enum { GRIT_REF_LENGTH_RADII = 0, GRIT_REF_LENGTH_DISTANCE = 1 };

grit_idealelpl_def grit_default_idealelpl_def(void);
grit_linel6_def grit_default_linel6_def(void);
grit_kuhn_def grit_default_kuhn_def(void);
grit_cpm_def grit_default_cpm_def(void);
grit_hertz_def grit_default_hertz_def(void);
extern const grit_param_table grit_idealelpl_param_table;
extern const grit_param_table grit_linel6_param_table;
extern const grit_param_table grit_kuhn_param_table;
extern const grit_param_table grit_cpm_param_table;
extern const grit_param_table grit_hertz_param_table;

/* Every law's parameters, as a scene holds them. */
typedef struct grit_law_defs {
#define GRIT_LAW_DEFS_FIELD(U, l, phys, name) grit_##l##_def l;
    GRIT_LAWS(GRIT_LAW_DEFS_FIELD)
#undef GRIT_LAW_DEFS_FIELD
} grit_law_defs;

grit_law_defs grit_default_law_defs(void);

/* Law `law`'s name ("idealelpl"), Woo's name, the physics it accepts and its
 * parameter table (whose name is the law's); NULL / -1 out of range. */
const char *grit_law_name(int law);
const char *grit_law_woo_name(int law);
int grit_law_phys(int law);
const grit_param_table *grit_law_param_table(int law);
/* The law called `name`, or -1. */
int grit_law_find(const char *name);
const char *grit_phys_name(int phys);

GRIT_END_DECLS

#endif
