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

/* X(UPPER, lower, Woo's class name) -- the order is kept in restart files. */
#define GRIT_MATERIAL_TYPES(X)           \
    X(FRICTMAT, frictmat, "FrictMat")

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

/* Per-pair override of the contact parameters of FrictPhys contacts (Woo's
 * MatchMaker idea): every value that is not NaN replaces the one derived
 * from the two materials; `law` (when not auto) picks the law. */
#define GRIT_PAIR_PARAMS(X) \
    X(double, kn, NAN, "N/m", 0.0, INFINITY, GRIT_P_NAN_OK | GRIT_P_MIN_EXCL, NULL, "normal stiffness") \
    X(double, kt, NAN, "N/m", 0.0, INFINITY, GRIT_P_NAN_OK, NULL, "tangential stiffness") \
    X(double, tan_phi, NAN, "-", 0.0, INFINITY, GRIT_P_NAN_OK, NULL, "friction coefficient") \
    X(double, cn, 0.0, "N s/m", 0.0, INFINITY, 0, NULL, "linear normal dashpot coefficient") \
    X(choice, law, 0, "-", 0, 3, 0, "auto|idealelpl|linel6|kuhn", \
      "law of the pair's contacts; auto: the one the materials name (the first in the list when they differ)")
/* clang-format on */

typedef struct grit_frictmat_def {
    GRIT_FRICTMAT_PARAMS(GRIT_PARAM_FIELD)
} grit_frictmat_def;
typedef struct grit_pair_def {
    GRIT_PAIR_PARAMS(GRIT_PARAM_FIELD)
} grit_pair_def;

grit_frictmat_def grit_default_frictmat_def(void);
grit_pair_def grit_default_pair_def(void);
extern const grit_param_table grit_frictmat_param_table;
extern const grit_param_table grit_pair_param_table;

/* Material type `type`'s names ("frictmat", "FrictMat") and parameter table
 * (whose name is the lower-case one); NULL out of range. */
const char *grit_material_type_name(int type);
const char *grit_material_class_name(int type);
const grit_param_table *grit_material_param_table(int type);
/* The type called `name` (either spelling), or -1. */
int grit_material_type_find(const char *name);

#endif
