/* grit: the whole uniaxial test: tension on the specimen as built, then
 * compression on the same specimen built again (the build is
 * deterministic, so the second run starts from the first one's initial
 * state), and the analysis of the two curves. */
#include <string.h>
#include <time.h>

#include "uniax/uniax_impl.h"

static double cpu_now(void) { return (double)clock() / CLOCKS_PER_SEC; }

static int one_run(const grit_uniax_specimen *spec, const grit_uniax_def *def, const grit_uniax_opts *opts, double rate,
                   grit_uniax_result *r, grit_uniax_curve *curve, long *steps, int *stop, double *cpu, bool first,
                   char *err, size_t errlen)
{
    const double t0 = cpu_now();
    grit_uniax *u;
    int rc = grit_uniax_create(spec, def, &u, err, errlen);
    if (rc) return rc;
    if (first) {
        r->axis = u->axis;
        r->spheres = u->n;
        r->support_neg = u->n_neg, r->support_pos = u->n_pos;
        r->bonds = u->bonds;
        r->bonds_per_sphere = 2.0 * u->bonds / u->n;
        r->interior = u->interior;
        r->bonds_per_sphere_interior = u->interior ? (double)u->interior_bonds / u->interior : NAN;
        r->length = u->l0;
        r->area = u->area;
        r->dt = grit_dt(u->s);
        r->confinement = u->confinement;
    }
    rc = grit_uniax_load(u, rate, opts, curve, stop, err, errlen);
    *steps = grit_step_count(u->s) - u->step0;
    if (!rc && *stop == GRIT_UNIAX_STOP_MONITOR)
        rc = uniax_fail(err, errlen, GRIT_ESTATE, "uniax: stopped by the monitor at step %ld of the %s run", *steps,
                        rate > 0 ? "tension" : "compression");
    if (!rc && first && u->have_poisson && !isnan(u->nu)) {
        r->poisson = u->nu;
        r->young_regression = (u->stress_at_poisson - u->confinement) / u->eps_reg[u->axis];
    }
    grit_uniax_destroy(u);
    *cpu = cpu_now() - t0;
    return rc;
}

int grit_uniax_run(const grit_uniax_specimen *spec, const grit_uniax_def *def, const grit_uniax_opts *opts,
                   grit_uniax_result *out, char *err, size_t errlen)
{
    grit_concretemat_def cm;
    int rc = uniax_check_common(spec, def, &cm, err, errlen);
    if (rc) return rc;
    if (def->tests == GRIT_UNIAX_BOTH && cm.iso_prestress != 0)
        return uniax_fail(err, errlen, GRIT_EINVAL,
                          "parameter 'tests' = both with iso_prestress = %g Pa: a confined specimen is only compressed "
                          "(tests=compression)",
                          cm.iso_prestress);
    grit_uniax_result r;
    memset(&r, 0, sizeof r);
    r.poisson = r.young_regression = NAN;
    const bool t = def->tests != GRIT_UNIAX_COMPRESSION, c = def->tests != GRIT_UNIAX_TENSION;
    if (t && (rc = one_run(spec, def, opts, def->rate_tension, &r, &r.tension, &r.steps_tension, &r.stop_tension,
                           &r.cpu_tension, true, err, errlen)))
        goto fail;
    if (c && (rc = one_run(spec, def, opts, def->rate_compression, &r, &r.compression, &r.steps_compression,
                           &r.stop_compression, &r.cpu_compression, !t, err, errlen)))
        goto fail;
    uniax_analyse(def, cm.young, &r);
    *out = r;
    return GRIT_OK;
fail:
    grit_uniax_result_free(&r);
    return rc;
}
