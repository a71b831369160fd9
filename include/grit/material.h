/* grit: materials, and what a pair of materials makes of a contact.
 *
 * Every particle references a material. The material's type decides, with
 * the other particle's, the contact's physics (the Cp2 functor) and law:
 *
 *   FrictMat    + FrictMat     FrictPhys     the law both FrictMats name (law);
 *                                            when they differ, the pair
 *                                            override's law, else the first
 *                                            of the two in GRIT_LAWS' order
 *   FrictMat    + ConcreteMat  FrictPhys     the FrictMat's law
 *   ConcreteMat + ConcreteMat  ConcretePhys  CPM (docs/concrete.md)
 *   HertzMat    + HertzMat     HertzPhys     Hertz-Mindlin (docs/hertz.md)
 *   HertzMat    + FrictMat or  FrictPhys     the FrictMat's law, from the
 *                 ConcreteMat                FrictMat side of both
 *
 * so that concrete spheres between steel (FrictMat) platens, or a bed under
 * Kuhn's law in a hopper whose walls use the plain law, need no special
 * code. A ConcreteMat is a FrictMat too (its density, young, kt_div_kn and
 * tan_phi), as in Woo, so a FrictPhys contact can be made with it.
 *
 * GRIT_MATERIAL_TYPES is the registration list: one entry per material type
 * gives its enum value and its names; the parameter group, the defaults,
 * the restart section MATS, the Python classes and the generated docs
 * follow from it and from the type's parameter list. A new material type is
 * one file src/material/<name>.c (its grit_material_class) plus one entry
 * here and its parameter list; the pairs it makes are entries of the Cp2
 * list (src/cp2/cp2.h). Materials cannot be changed once added (contacts
 * hold what was made of them).
 */
#ifndef GRIT_MATERIAL_H
#define GRIT_MATERIAL_H

#include "grit/law.h"
#include "grit/params.h"
#include "grit/export.h"

GRIT_BEGIN_DECLS

/* X(UPPER, lower, Woo's class name) -- the order is kept in restart files. */
#define GRIT_MATERIAL_TYPES(X)           \
    X(FRICTMAT, frictmat, "FrictMat")    \
    X(CONCRETEMAT, concretemat, "ConcreteMat") \
    X(HERTZMAT, hertzmat, "HertzMat")

typedef enum grit_material_type {
#define GRIT_MAT_ENUM(U, l, name) GRIT_MAT_##U,
    GRIT_MATERIAL_TYPES(GRIT_MAT_ENUM)
#undef GRIT_MAT_ENUM
    GRIT_MAT_COUNT
} grit_material_type;

/* clang-format off */
#define GRIT_FRICTMAT_PARAMS(X) \
    X(double, density, 1000.0, "kg/m^3", 0.0, INFINITY, GRIT_P_MIN_EXCL, NULL, "mass density") \
    X(double, young, 1e9, "Pa", 0.0, INFINITY, GRIT_P_MIN_EXCL, NULL, "Young's modulus") \
    X(double, kt_div_kn, 0.2, "-", 0.0, INFINITY, 0, NULL, "ratio of tangential to normal contact stiffness") \
    X(double, tan_phi, 0.5, "-", 0.0, INFINITY, 0, NULL, "tangent of the inter-particle friction angle") \
    X(choice, law, 0, "-", 0, 2, 0, "idealelpl|linel6|kuhn", \
      "contact law of this material's FrictPhys contacts: linear elastic-perfectly plastic (Cundall), six-DoF " \
      "linear elastic, or Kuhn's refined linear-frictional law")

/* ConcreteMat: the concrete particle model's material (docs/concrete.md).
 * Defaults: the uniaxial example of the model's author (normal concrete). */
#define GRIT_CONCRETEMAT_PARAMS(X) \
    X(double, density, 4800.0, "kg/m^3", 0.0, INFINITY, GRIT_P_MIN_EXCL, NULL, \
      "mass density (twice concrete's: the spheres fill about half the volume)") \
    X(double, young, 24e9, "Pa", 0.0, INFINITY, GRIT_P_MIN_EXCL, NULL, \
      "normal modulus k_N of the contacts (not the specimen's Young's modulus, docs/concrete.md)") \
    X(double, kt_div_kn, 0.2, "-", 0.0, INFINITY, 0, NULL, \
      "shear to normal modulus ratio k_T/k_N (sets the specimen's Poisson ratio)") \
    X(double, tan_phi, 0.8, "-", 0.0, INFINITY, 0, NULL, "friction coefficient of the yield surface") \
    X(double, sigma_t, 3.5e6, "Pa", 0.0, INFINITY, 0, NULL, "undamaged shear cohesion c_T0 of the yield surface") \
    X(double, eps_crack_onset, 1e-4, "-", 0.0, INFINITY, GRIT_P_MIN_EXCL, NULL, \
      "normal strain at which damage starts (end of the linear range in tension)") \
    X(double, rel_ductility, 30.0, "-", 1.0, INFINITY, 0, NULL, \
      "softening strain relative to the crack-onset strain (> 1 with the linear damage law)") \
    X(choice, dam_law, 1, "-", 0, 1, 0, "linear|exp", "damage evolution: linear or exponential softening") \
    X(flag, never_damage, false, "-", 0, 1, 0, NULL, "cohesive contacts never damage (elastic calibration)") \
    X(double, dmg_tau, -1.0, "s", -INFINITY, INFINITY, 0, NULL, "visco-damage characteristic time (<= 0: off)") \
    X(double, dmg_rate_exp, 0.0, "-", 0.0, INFINITY, 0, NULL, \
      "visco-damage exponent (> 0 when dmg_tau > 0)") \
    X(double, pl_tau, -1.0, "s", -INFINITY, INFINITY, 0, NULL, "visco-plasticity characteristic time (<= 0: off)") \
    X(double, pl_rate_exp, 0.0, "-", 0.0, INFINITY, 0, NULL, \
      "visco-plasticity exponent (> 0 when pl_tau > 0)") \
    X(double, iso_prestress, 0.0, "Pa", -INFINITY, 0.0, 0, NULL, \
      "isotropic confinement of the contacts, negative = compression (0: none)") \
    X(double, equiv_strain_shear, 0.0, "-", 0.0, INFINITY, 0, NULL, \
      "weight of the shear strain in the equivalent strain that drives damage (0: normal strain only)")

/* HertzMat: elastic spheres under the Hertz-Mindlin (no-slip) law
 * (docs/hertz.md). Its FrictMat side (for contacts with FrictMats) has
 * kt_div_kn = 2 (1 - poisson) / (2 - poisson), Mindlin's ratio. */
#define GRIT_HERTZMAT_PARAMS(X) \
    X(double, density, 2500.0, "kg/m^3", 0.0, INFINITY, GRIT_P_MIN_EXCL, NULL, "mass density") \
    X(double, young, 7e10, "Pa", 0.0, INFINITY, GRIT_P_MIN_EXCL, NULL, "Young's modulus of the solid") \
    X(double, poisson, 0.25, "-", -1.0, 0.5, GRIT_P_MIN_EXCL, NULL, "Poisson's ratio of the solid") \
    X(double, tan_phi, 0.5, "-", 0.0, INFINITY, 0, NULL, "coefficient of (sliding) friction") \
    X(double, restitution, 0.9, "-", 0.0, 1.0, 0, NULL, \
      "coefficient of normal restitution, which sets the contacts' viscous damping (1: elastic)") \
    X(choice, rolling, 0, "-", 0, 2, 0, "none|epsd|cdt", \
      "rolling resistance: none, the elastic-plastic spring-dashpot (EPSD) or the constant directional torque " \
      "(CDT) model (docs/hertz.md)") \
    X(double, mu_roll, 0.0, "-", 0.0, INFINITY, 0, NULL, \
      "coefficient of rolling resistance: the largest rolling torque is mu_roll R* times the normal force") \
    X(double, eta_roll, 0.3, "-", 0.0, INFINITY, 0, NULL, \
      "EPSD: damping ratio of the rolling dashpot (of the critical damping of the rolling spring)")

/* Per-pair override of the contact parameters (Woo's MatchMaker idea): every
 * value that is not NaN replaces the one derived from the two materials;
 * `law` (when not auto) picks the law. FrictPhys contacts take kn, kt,
 * tan_phi, cn and law; HertzPhys contacts tan_phi, restitution and the
 * rolling resistance (rolling, mu_roll, eta_roll). */
#define GRIT_PAIR_PARAMS(X) \
    X(double, kn, NAN, "N/m", 0.0, INFINITY, GRIT_P_NAN_OK | GRIT_P_MIN_EXCL, NULL, "normal stiffness") \
    X(double, kt, NAN, "N/m", 0.0, INFINITY, GRIT_P_NAN_OK, NULL, "tangential stiffness") \
    X(double, tan_phi, NAN, "-", 0.0, INFINITY, GRIT_P_NAN_OK, NULL, "friction coefficient") \
    X(double, cn, 0.0, "N s/m", 0.0, INFINITY, 0, NULL, "linear normal dashpot coefficient") \
    X(double, restitution, NAN, "-", 0.0, 1.0, GRIT_P_NAN_OK, NULL, \
      "coefficient of normal restitution (HertzPhys contacts)") \
    X(choice, rolling, 0, "-", 0, 3, 0, "auto|none|epsd|cdt", \
      "rolling resistance model (HertzPhys contacts); auto: from the materials") \
    X(double, mu_roll, NAN, "-", 0.0, INFINITY, GRIT_P_NAN_OK, NULL, "coefficient of rolling resistance (HertzPhys)") \
    X(double, eta_roll, NAN, "-", 0.0, INFINITY, GRIT_P_NAN_OK, NULL, \
      "damping ratio of the EPSD rolling dashpot (HertzPhys)") \
    X(choice, law, 0, "-", 0, 3, 0, "auto|idealelpl|linel6|kuhn", \
      "law of the pair's contacts; auto: the one the materials name (the first in the list when they differ)")
/* clang-format on */

typedef struct grit_frictmat_def {
    GRIT_FRICTMAT_PARAMS(GRIT_PARAM_FIELD)
} grit_frictmat_def;
typedef struct grit_concretemat_def {
    GRIT_CONCRETEMAT_PARAMS(GRIT_PARAM_FIELD)
} grit_concretemat_def;
typedef struct grit_hertzmat_def {
    GRIT_HERTZMAT_PARAMS(GRIT_PARAM_FIELD)
} grit_hertzmat_def;
typedef struct grit_pair_def {
    GRIT_PAIR_PARAMS(GRIT_PARAM_FIELD)
} grit_pair_def;

enum { GRIT_DAM_LAW_LINEAR = 0, GRIT_DAM_LAW_EXP = 1 };
/* HertzMat rolling; a pair override's choice is this + 1 (0: auto) */
enum { GRIT_ROLLING_NONE = 0, GRIT_ROLLING_EPSD = 1, GRIT_ROLLING_CDT = 2 };

grit_frictmat_def grit_default_frictmat_def(void);
grit_concretemat_def grit_default_concretemat_def(void);
grit_hertzmat_def grit_default_hertzmat_def(void);
grit_pair_def grit_default_pair_def(void);
extern const grit_param_table grit_frictmat_param_table;
extern const grit_param_table grit_concretemat_param_table;
extern const grit_param_table grit_hertzmat_param_table;
extern const grit_param_table grit_pair_param_table;

/* Material type `type`'s names ("frictmat", "FrictMat") and parameter table
 * (whose name is the lower-case one); NULL out of range. */
const char *grit_material_type_name(int type);
const char *grit_material_class_name(int type);
const grit_param_table *grit_material_param_table(int type);
/* The type called `name` (either spelling), or -1. */
int grit_material_type_find(const char *name);

GRIT_END_DECLS

#endif
