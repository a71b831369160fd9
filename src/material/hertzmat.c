/* grit: HertzMat -- elastic solids under the Hertz-Mindlin law
 * (docs/hertz.md). Two HertzMats make HertzPhys contacts under the hertz
 * law; with a FrictMat or a ConcreteMat, a FrictPhys contact from the
 * FrictMat side of both, whose kt/kn is Mindlin's ratio for the material's
 * Poisson ratio (the tangential to normal stiffness of a Hertz contact of
 * two equal solids). */
#include "material/material.h"

grit_hertzmat_def grit_default_hertzmat_def(void)
{
    return (grit_hertzmat_def){GRIT_HERTZMAT_PARAMS(GRIT_PARAM_DEFAULT)};
}

#define INFO(...) GRIT_PARAM_INFO(grit_hertzmat_def, __VA_ARGS__)
static const grit_param_info params[] = {GRIT_HERTZMAT_PARAMS(INFO)};
const grit_param_table grit_hertzmat_param_table = {"hertzmat", params, (int)(sizeof params / sizeof params[0])};

static void fill_default(void *def) { *(grit_hertzmat_def *)def = grit_default_hertzmat_def(); }

static grit_frict_params frict(const grit_material *m)
{
    const grit_hertzmat_def *d = &m->u.hertzmat;
    return (grit_frict_params){d->density, d->young, 2.0 * (1.0 - d->poisson) / (2.0 - d->poisson), d->tan_phi};
}

static int law(const grit_material *m)
{
    (void)m;
    return GRIT_LAW_HERTZ;
}

double grit_hertzmat_rayleigh_time(const grit_hertzmat_def *d, double r)
{
    /* the Rayleigh wave speed is (0.1631 nu + 0.8766) sqrt(G / rho), a fit
     * to the root of Rayleigh's equation over 0 <= nu <= 0.5 */
    const double G = d->young / (2.0 * (1.0 + d->poisson));
    return M_PI * r * sqrt(d->density / G) / (0.1631 * d->poisson + 0.8766);
}

const grit_material_class grit_hertzmat_material = {
    .name = "hertzmat",
    .class_name = "HertzMat",
    .table = &grit_hertzmat_param_table,
    .def_size = sizeof(grit_hertzmat_def),
    .fill_default = fill_default,
    .frict = frict,
    .law = law,
    .check = NULL,
};
