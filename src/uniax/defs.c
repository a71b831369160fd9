/* grit: the parameter group "uniax" (include/grit/uniax.h), the checks every
 * entry point shares, and the result's memory. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "uniax/uniax_impl.h"

grit_uniax_def grit_default_uniax_def(void) { return (grit_uniax_def){GRIT_UNIAX_PARAMS(GRIT_PARAM_DEFAULT)}; }

grit_uniax_opts grit_default_uniax_opts(void)
{
    return (grit_uniax_opts){.monitor = NULL, .monitor_data = NULL, .monitor_every = 100};
}

#define UNIAX_INFO(...) GRIT_PARAM_INFO(grit_uniax_def, __VA_ARGS__)
static const grit_param_info uniax_params[] = {GRIT_UNIAX_PARAMS(UNIAX_INFO)};
const grit_param_table grit_uniax_param_table = {"uniax", uniax_params,
                                                 (int)(sizeof uniax_params / sizeof uniax_params[0])};

int uniax_fail(char *err, size_t errlen, int code, const char *fmt, ...)
{
    if (err && errlen) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err, errlen, fmt, ap);
        va_end(ap);
    }
    return code;
}

double uniax_max_strain(const grit_uniax_def *def, double confinement)
{
    if (!isnan(def->max_strain)) return def->max_strain;
    /* confined concrete flows instead of failing: its curve may never fall */
    return confinement != 0 ? 5e-2 : 5e-3;
}

int uniax_check_common(const grit_uniax_specimen *spec, const grit_uniax_def *def, grit_concretemat_def *cm,
                       char *err, size_t errlen)
{
    if (!spec || !def) return uniax_fail(err, errlen, GRIT_EINVAL, "uniax: no specimen or no definition given");
    if (grit_param_validate(&grit_uniax_param_table, def, err, errlen)) return GRIT_EINVAL;
    if (spec->mat_type != GRIT_MAT_CONCRETEMAT) {
        const char *name = grit_material_class_name(spec->mat_type);
        return uniax_fail(err, errlen, GRIT_EINVAL,
                          "uniax: the material is a %s, not a ConcreteMat: the uniaxial test strains concrete "
                          "(bonded spheres)",
                          name ? name : "material of unknown type");
    }
    if (!spec->mat) return uniax_fail(err, errlen, GRIT_EINVAL, "uniax: no material definition given");
    const grit_concretemat_def *m = spec->mat;
    if (grit_param_validate(&grit_concretemat_param_table, m, err, errlen)) return GRIT_EINVAL;
    if (spec->law) {
        grit_cpm_def l = *spec->law;
        if (grit_param_validate(&grit_cpm_param_table, &l, err, errlen)) return GRIT_EINVAL;
    }
    if (cm) *cm = *m;
    return GRIT_OK;
}

int uniax_curve_push(grit_uniax_curve *c, double strain, double stress, double time, double omega, double lateral)
{
    if (c->n == c->cap) {
        const int cap = c->cap ? 2 * c->cap : 256;
        double *a[5] = {c->strain, c->stress, c->time, c->omega, c->lateral};
        for (int k = 0; k < 5; k++) {
            double *p = realloc(a[k], sizeof *p * (size_t)cap);
            if (!p) {
                c->strain = a[0], c->stress = a[1], c->time = a[2], c->omega = a[3], c->lateral = a[4];
                return -1;
            }
            a[k] = p;
        }
        c->strain = a[0], c->stress = a[1], c->time = a[2], c->omega = a[3], c->lateral = a[4];
        c->cap = cap;
    }
    c->strain[c->n] = strain;
    c->stress[c->n] = stress;
    c->time[c->n] = time;
    c->omega[c->n] = omega;
    c->lateral[c->n] = lateral;
    c->n++;
    return 0;
}

void grit_uniax_curve_free(grit_uniax_curve *c)
{
    if (!c) return;
    free(c->strain), free(c->stress), free(c->time), free(c->omega), free(c->lateral);
    memset(c, 0, sizeof *c);
}

void grit_uniax_result_free(grit_uniax_result *r)
{
    if (!r) return;
    grit_uniax_curve_free(&r->tension);
    grit_uniax_curve_free(&r->compression);
}
