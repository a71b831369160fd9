/* grit: FrictMat -- density, elasticity and friction; its contacts use the
 * law it names. */
#include "material/material.h"

grit_frictmat_def grit_default_frictmat_def(void)
{
    return (grit_frictmat_def){GRIT_FRICTMAT_PARAMS(GRIT_PARAM_DEFAULT)};
}

#define INFO(...) GRIT_PARAM_INFO(grit_frictmat_def, __VA_ARGS__)
static const grit_param_info params[] = {GRIT_FRICTMAT_PARAMS(INFO)};
const grit_param_table grit_frictmat_param_table = {"frictmat", params, (int)(sizeof params / sizeof params[0])};

static void fill_default(void *def) { *(grit_frictmat_def *)def = grit_default_frictmat_def(); }

static grit_frict_params frict(const grit_material *m)
{
    const grit_frictmat_def *d = &m->u.frictmat;
    return (grit_frict_params){d->density, d->young, d->kt_div_kn, d->tan_phi};
}

/* the choice's values are the laws' enum values (idealelpl, linel6, kuhn) */
_Static_assert(GRIT_LAW_IDEALELPL == 0 && GRIT_LAW_LINEL6 == 1 && GRIT_LAW_KUHN == 2,
               "FrictMat's law choice lists the FrictPhys laws in the enum's order");
static int law(const grit_material *m) { return m->u.frictmat.law; }

const grit_material_class grit_frictmat_material = {
    .name = "frictmat",
    .class_name = "FrictMat",
    .table = &grit_frictmat_param_table,
    .def_size = sizeof(grit_frictmat_def),
    .fill_default = fill_default,
    .frict = frict,
    .law = law,
    .check = NULL,
};
