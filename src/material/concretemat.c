/* grit: ConcreteMat -- the concrete particle model's material
 * (docs/concrete.md). Two ConcreteMats make ConcretePhys contacts under the
 * CPM law; with a FrictMat, a FrictPhys contact from the FrictMat side of
 * both (density, young, kt_div_kn, tan_phi). */
#include <stdio.h>

#include "material/material.h"

grit_concretemat_def grit_default_concretemat_def(void)
{
    return (grit_concretemat_def){GRIT_CONCRETEMAT_PARAMS(GRIT_PARAM_DEFAULT)};
}

#define INFO(...) GRIT_PARAM_INFO(grit_concretemat_def, __VA_ARGS__)
static const grit_param_info params[] = {GRIT_CONCRETEMAT_PARAMS(INFO)};
const grit_param_table grit_concretemat_param_table = {"concretemat", params,
                                                       (int)(sizeof params / sizeof params[0])};

static void fill_default(void *def) { *(grit_concretemat_def *)def = grit_default_concretemat_def(); }

static grit_frict_params frict(const grit_material *m)
{
    const grit_concretemat_def *d = &m->u.concretemat;
    return (grit_frict_params){d->density, d->young, d->kt_div_kn, d->tan_phi};
}

static int law(const grit_material *m)
{
    (void)m;
    return GRIT_LAW_CPM;
}

static int check(const void *def, char *err, size_t len)
{
    const grit_concretemat_def *d = def;
    if (d->dam_law == GRIT_DAM_LAW_LINEAR && !(d->rel_ductility > 1.0)) {
        snprintf(err, len,
                 "parameter 'rel_ductility' = %g is out of range: the linear damage law needs rel_ductility > 1 "
                 "(the softening strain beyond the crack-onset strain)",
                 d->rel_ductility);
        return -1;
    }
    if (d->dmg_tau > 0 && !(d->dmg_rate_exp > 0)) {
        snprintf(err, len,
                 "parameter 'dmg_rate_exp' = %g is out of range: visco-damage (dmg_tau = %g > 0) needs dmg_rate_exp > "
                 "0, else its equation has no solution",
                 d->dmg_rate_exp, d->dmg_tau);
        return -1;
    }
    if (d->pl_tau > 0 && !(d->pl_rate_exp > 0)) {
        snprintf(err, len,
                 "parameter 'pl_rate_exp' = %g is out of range: visco-plasticity (pl_tau = %g > 0) needs pl_rate_exp > "
                 "0, else its equation has no solution",
                 d->pl_rate_exp, d->pl_tau);
        return -1;
    }
    return 0;
}

const grit_material_class grit_concretemat_material = {
    .name = "concretemat",
    .class_name = "ConcreteMat",
    .table = &grit_concretemat_param_table,
    .def_size = sizeof(grit_concretemat_def),
    .fill_default = fill_default,
    .frict = frict,
    .law = law,
    .check = check,
};
