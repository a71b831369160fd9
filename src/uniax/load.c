/* grit: one run of the uniaxial test: strain the specimen at a constant
 * rate, sample the stress-strain curve, measure Poisson's ratio on the way,
 * and stop by the rules of the definition. */
#include "uniax/uniax_impl.h"

static int call_monitor(grit_uniax *u, const grit_uniax_opts *o, int run, double e, double sig, double peak, int stop,
                        double *omega)
{
    grit_concrete_summary cs;
    grit_concrete_summarize(u->s, &cs);
    *omega = cs.mean_omega;
    if (!o || !o->monitor) return 0;
    const grit_uniax_state st = {run, grit_step_count(u->s) - u->step0, e, sig, peak, cs.mean_omega, cs.cracked,
                                 grit_contact_count(u->s), stop, u->s};
    return o->monitor(&st, o->monitor_data);
}

void uniax_track_start(uniax_track *t, const grit_uniax_def *def, int sense, double confinement,
                       const grit_uniax_curve *c)
{
    t->sense = sense;
    t->first = t->ipeak = c->n - 1;
    t->fall = sense > 0 ? def->stop_tension : def->stop_compression;
    t->max_strain = uniax_max_strain(def, confinement);
    t->max_steps = def->max_steps;
}

int uniax_track_point(uniax_track *t, const grit_uniax_curve *c, double e, double sig, long steps, double *peak)
{
    if (t->sense * sig > t->sense * c->stress[t->ipeak]) t->ipeak = c->n;
    *peak = t->ipeak < c->n ? c->stress[t->ipeak] : sig;
    /* a peak among the first samples is the start, not the material's strength */
    if (t->fall > 0 && t->ipeak - t->first >= 3 && t->ipeak < c->n && fabs(sig) < t->fall * fabs(*peak))
        return GRIT_UNIAX_STOP_FALL;
    if (fabs(e) >= t->max_strain) return GRIT_UNIAX_STOP_STRAIN;
    if (steps >= t->max_steps) return GRIT_UNIAX_STOP_STEPS;
    return GRIT_UNIAX_RUNNING;
}

int grit_uniax_load(grit_uniax *u, double rate, const grit_uniax_opts *opts, grit_uniax_curve *curve, int *stop,
                    char *err, size_t errlen)
{
    int rc = grit_uniax_start(u, rate, err, errlen);
    if (rc) return rc;
    const grit_uniax_def *d = &u->def;
    const int sense = rate > 0 ? 1 : -1, run = rate > 0 ? GRIT_UNIAX_TENSION : GRIT_UNIAX_COMPRESSION;
    const int every = opts && opts->monitor_every > 0 ? opts->monitor_every : 100;
    const double dt = grit_dt(u->s);
    double omega = NAN;
    double e = grit_uniax_strain(u), sig = grit_uniax_stress(u);
    int why = GRIT_UNIAX_RUNNING;
    if (call_monitor(u, opts, run, e, sig, sig, 0, &omega)) why = GRIT_UNIAX_STOP_MONITOR;
    if (uniax_curve_push(curve, e, sig, 0.0, omega, NAN))
        return uniax_fail(err, errlen, GRIT_ENOMEM, "uniax: out of memory for the curve");
    uniax_track tr;
    uniax_track_start(&tr, d, sense, u->confinement, curve);
    int samples = 0;
    while (!why) {
        const long done = grit_step_count(u->s) - u->step0;
        const long n = d->sample_every < d->max_steps - done ? d->sample_every : d->max_steps - done;
        if (grit_step(u->s, n))
            return uniax_fail(err, errlen, GRIT_ENUMERIC, "uniax: %s (%s run, strain %g)", grit_last_error(u->s),
                              run == GRIT_UNIAX_TENSION ? "tension" : "compression", e);
        e = grit_uniax_strain(u), sig = grit_uniax_stress(u);
        samples++;
        if (!u->have_poisson && fabs(e) >= d->poisson_strain) {
            char msg[256];
            u->have_poisson = true;
            if (grit_uniax_poisson_now(u, &u->nu, u->eps_reg, msg, sizeof msg)) u->nu = NAN;
            u->stress_at_poisson = sig;
        }
        double peak;
        why = uniax_track_point(&tr, curve, e, sig, grit_step_count(u->s) - u->step0, &peak);
        omega = NAN;
        if ((why || samples % every == 0) && call_monitor(u, opts, run, e, sig, peak, why, &omega) && !why)
            why = GRIT_UNIAX_STOP_MONITOR;
        if (uniax_curve_push(curve, e, sig, (grit_step_count(u->s) - u->step0) * dt, omega, NAN))
            return uniax_fail(err, errlen, GRIT_ENOMEM, "uniax: out of memory for the curve");
    }
    *stop = why;
    return GRIT_OK;
}
