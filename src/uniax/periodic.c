/* grit: the uniaxial test on a periodic cell: the bonded packing itself,
 * with no supports and so no boundary effect. The cell is strained along
 * the axis through its velocity gradient, L_aa = rate; the cell's
 * stress/strain controller (core/cellctrl.c, docs/periodic.md "Stress
 * control") holds the two lateral stresses at zero (uniaxial stress),
 * updating the lateral rates every step: its affine feed-forward gives
 * them the contraction an affine assembly would have, its servo removes
 * half the remaining lateral stress per step without overshoot.
 * Stress from the contacts (Love-Weber over the cell), strain from the cell. */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/cellctrl.h"
#include "grit/cell.h"
#include "grit/stress.h"
#include "uniax/uniax_impl.h"

/* the lateral rates stay within this multiple of the axial one (a Poisson
 * ratio below 0.5 needs half of it; a cracking cell springs back faster) */
static const double LATERAL_CAP = 4.0;

typedef struct cellrun {
    grit_scene *s;
    int axis, n, bonds;
    double H0[3][3], V0, confinement;
} cellrun;

static int build(const grit_uniax_specimen *spec, const grit_uniax_def *def, cellrun *c, char *err, size_t errlen)
{
    const grit_packing *p = spec->packing;
    int mat;
    if (!(c->s = uniax_scene(spec, def, &mat, err, errlen))) return GRIT_EINVAL;
    grit_sphere_def d = grit_default_sphere_def();
    d.material = mat;
    for (int i = 0; i < p->n; i++) {
        d.pos = p->center[i];
        d.radius = p->radius[i];
        if (grit_add_sphere(c->s, &d) != i)
            return uniax_fail(err, errlen, GRIT_EINVAL, "uniax: sphere %d: %s", i, grit_last_error(c->s));
    }
    if (grit_cell_set(c->s, p->cell))
        return uniax_fail(err, errlen, GRIT_EINVAL, "uniax: the packing's cell: %s", grit_last_error(c->s));
    int rc = uniax_bond(c->s, err, errlen);
    if (rc) return rc;
    grit_cell_get(c->s, c->H0);
    c->V0 = grit_cell_volume(c->s);
    c->n = p->n;
    c->bonds = grit_contact_count(c->s);
    return GRIT_OK;
}

static double strain_of(const cellrun *c, int k)
{
    double H[3][3];
    grit_cell_get(c->s, H);
    return H[k][k] / c->H0[k][k] - 1;
}

/* v = L x for every sphere: the cell starts straining without a shock */
static void follow_field(grit_scene *s, const double L[3][3], int n)
{
    for (int id = 0; id < n; id++) {
        grit_vec3 x;
        grit_get_pos(s, id, &x);
        grit_set_vel(s, id, v3(L[0][0] * x.x, L[1][1] * x.y, L[2][2] * x.z));
    }
}

static int monitor(const grit_uniax_opts *o, cellrun *c, int run, long step, double e, double sig, double peak,
                   int stop, double *omega)
{
    grit_concrete_summary cs;
    grit_concrete_summarize(c->s, &cs);
    *omega = cs.mean_omega;
    if (!o || !o->monitor) return 0;
    const grit_uniax_state st = {run, step, e, sig, peak, cs.mean_omega, cs.cracked, grit_contact_count(c->s), stop, c->s};
    return o->monitor(&st, o->monitor_data);
}

static int one_run(const grit_uniax_specimen *spec, const grit_uniax_def *def, const grit_uniax_opts *opts, double rate,
                   grit_uniax_result *r, grit_uniax_curve *curve, long *steps, int *stop, double *cpu, char *err,
                   size_t errlen)
{
    const double t0 = (double)clock() / CLOCKS_PER_SEC;
    cellrun c;
    memset(&c, 0, sizeof c);
    c.axis = def->load_axis == GRIT_UNIAX_AXIS_AUTO ? 0 : def->load_axis - 1;
    c.confinement = ((const grit_concretemat_def *)spec->mat)->iso_prestress;
    int rc = build(spec, def, &c, err, errlen);
    if (rc) goto done;
    const int a = c.axis, run = rate > 0 ? GRIT_UNIAX_TENSION : GRIT_UNIAX_COMPRESSION;
    const double dt = grit_dt(c.s);
    grit_cell_ctrl_def ctl = grit_default_cell_ctrl_def();
    for (int k = 0; k < 3; k++) {
        ctl.mode[k] = k == a ? GRIT_CTRL_RATE : GRIT_CTRL_STRESS;
        ctl.goal[k] = k == a ? rate : 0;
    }
    /* an update at every step: once per sample leaves 0.7 % of lateral stress, not 0.3 % */
    ctl.max_rate = LATERAL_CAP * fabs(rate);
    /* proportional only, as docs/concrete.md's figures were measured: the
     * lateral stresses stay below 0.3 % of the axial one before the peak */
    ctl.integral = 0;
    double L[3][3];
    grit_cell_ctrl_command(c.s, &ctl, dt, NULL, L, NULL, NULL); /* the affine contraction from the start */
    follow_field(c.s, L, c.n);
    if (grit_cell_ctrl_set(c.s, &ctl)) {
        rc = uniax_fail(err, errlen, GRIT_EINVAL, "uniax: %s", grit_last_error(c.s));
        goto done;
    }
    const long start = grit_step_count(c.s);
    const int every = opts && opts->monitor_every > 0 ? opts->monitor_every : 100;
    double sig[3][3], omega, peak;
    grit_stress(c.s, sig);
    double e = 0, s = sig[a][a] + c.confinement;
    int why = monitor(opts, &c, run, 0, e, s, s, 0, &omega) ? GRIT_UNIAX_STOP_MONITOR : GRIT_UNIAX_RUNNING;
    if (uniax_curve_push(curve, e, s, 0, omega, 0)) {
        rc = uniax_fail(err, errlen, GRIT_ENOMEM, "uniax: out of memory for the curve");
        goto done;
    }
    uniax_track tr;
    uniax_track_start(&tr, def, rate > 0 ? 1 : -1, c.confinement, curve);
    for (int samples = 1; !why; samples++) {
        if (grit_step(c.s, def->sample_every < def->max_steps - (grit_step_count(c.s) - start)
                               ? def->sample_every
                               : def->max_steps - (grit_step_count(c.s) - start))) {
            rc = uniax_fail(err, errlen, GRIT_ENUMERIC, "uniax: %s (periodic %s run, strain %g)",
                            grit_last_error(c.s), rate > 0 ? "tension" : "compression", e);
            goto done;
        }
        grit_stress(c.s, sig);
        e = strain_of(&c, a), s = sig[a][a] + c.confinement;
        const double lat = 0.5 * (strain_of(&c, (a + 1) % 3) + strain_of(&c, (a + 2) % 3));
        why = uniax_track_point(&tr, curve, e, s, grit_step_count(c.s) - start, &peak);
        omega = NAN;
        if ((why || samples % every == 0) &&
            monitor(opts, &c, run, grit_step_count(c.s) - start, e, s, peak, why, &omega) && !why)
            why = GRIT_UNIAX_STOP_MONITOR;
        if (uniax_curve_push(curve, e, s, (grit_step_count(c.s) - start) * dt, omega, lat)) {
            rc = uniax_fail(err, errlen, GRIT_ENOMEM, "uniax: out of memory for the curve");
            goto done;
        }
    }
    *stop = why;
    *steps = grit_step_count(c.s) - start;
    r->axis = a;
    r->spheres = c.n;
    r->bonds = c.bonds;
    r->bonds_per_sphere = r->bonds_per_sphere_interior = 2.0 * c.bonds / c.n;
    r->interior = c.n;
    r->length = c.H0[a][a];
    r->area = c.V0 / c.H0[a][a];
    r->dt = dt;
    r->confinement = c.confinement;
    if (why == GRIT_UNIAX_STOP_MONITOR)
        rc = uniax_fail(err, errlen, GRIT_ESTATE, "uniax: stopped by the monitor at step %ld of the %s run", *steps,
                        rate > 0 ? "tension" : "compression");
done:
    grit_scene_destroy(c.s);
    *cpu = (double)clock() / CLOCKS_PER_SEC - t0;
    return rc;
}

/* nu: minus the slope of the mean lateral strain against the axial one,
 * over the points the modulus is fitted on */
static double poisson_of(const grit_uniax_curve *c, int sense, double fraction)
{
    const int k = grit_uniax_peak(c->stress, c->n, sense);
    if (k < 0) return NAN;
    const double base = c->stress[0], limit = fraction * fabs(c->stress[k] - base);
    double mx = 0, my = 0, sxy = 0, sxx = 0;
    int m = 0;
    for (int i = 0; i <= k; i++)
        if (fabs(c->stress[i] - base) < limit) mx += c->strain[i], my += c->lateral[i], m++;
    if (m < 2) return NAN;
    mx /= m, my /= m;
    for (int i = 0; i <= k; i++)
        if (fabs(c->stress[i] - base) < limit)
            sxy += (c->strain[i] - mx) * (c->lateral[i] - my), sxx += (c->strain[i] - mx) * (c->strain[i] - mx);
    return sxx > 0 ? -sxy / sxx : NAN;
}

int grit_uniax_periodic_run(const grit_uniax_specimen *spec, const grit_uniax_def *def, const grit_uniax_opts *opts,
                            grit_uniax_result *out, char *err, size_t errlen)
{
    grit_concretemat_def cm;
    int rc = uniax_check_common(spec, def, &cm, err, errlen);
    if (rc) return rc;
    if (!spec->packing || !spec->packing->periodic)
        return uniax_fail(err, errlen, GRIT_EINVAL,
                          "uniax: the periodic variant needs a periodic packing (grit_pack_dense's cell), not %s",
                          spec->packing ? "a cut specimen" : "none");
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
                           &r.cpu_tension, err, errlen)))
        goto fail;
    if (c && (rc = one_run(spec, def, opts, def->rate_compression, &r, &r.compression, &r.steps_compression,
                           &r.stop_compression, &r.cpu_compression, err, errlen)))
        goto fail;
    uniax_analyse(def, cm.young, &r);
    r.poisson = t ? poisson_of(&r.tension, +1, def->young_fraction) : poisson_of(&r.compression, -1, def->young_fraction);
    *out = r;
    return GRIT_OK;
fail:
    grit_uniax_result_free(&r);
    return rc;
}
