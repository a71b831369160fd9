/* grit: blow-up detection (issue 15). A time step too large for the speeds,
 * or particles that start overlapping, make contacts pass through each other
 * and inject energy; the run goes on with numbers that look fine. Two cheap
 * signs are watched: the deepest overlap of a real contact against the
 * radius (an O(contacts) pass, only at the steps that rebuilt the pair list,
 * which is when particles moved by the skin) and the energy balance (O(1) per
 * step, with track_energy). */
#include <stdarg.h>
#include <stdio.h>

#include "core/health.h"
#include "shape/shape.h"

/* The radius that bounds a sensible overlap: the smaller positive radius of
 * the two (walls and facets have none). */
static double pair_radius(const grit_scene *s, int a, int b)
{
    const double ra = grit_shape_classes[s->b.shape[a]]->equiv_radius(s, a);
    const double rb = grit_shape_classes[s->b.shape[b]]->equiv_radius(s, b);
    if (ra > 0 && rb > 0) return fmin(ra, rb);
    return ra > 0 ? ra : rb;
}

static int blowup(grit_scene *s, bool *warned, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int blowup(grit_scene *s, bool *warned, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (s->def.on_blowup == 0) return grit_fail(s, GRIT_ENUMERIC, "%s", msg);
    if (!*warned) {
        *warned = true;
        snprintf(s->warning, sizeof s->warning, "%s", msg);
        s->n_warnings++;
    }
    return GRIT_OK;
}

/* What most likely made it: overlapping input at the first steps, else the
 * time step against the speed. */
static void cause(const grit_scene *s, double speed, double r, char *buf, size_t len)
{
    const double crit = grit_critical_dt(s), per_step = speed * s->dt / r;
    /* a contact resolves an approach over tens of steps; a pair that closes
     * by more than a twentieth of its radius per step goes through */
    if (per_step > 0.05)
        snprintf(buf, len,
                 "the time step: at %.3g m/s the particles move %.2g of the radius per step with dt = %g s "
                 "(critical %g s, which assumes slow contacts): reduce dt for such speeds",
                 speed, per_step, s->dt, crit);
    else if (s->step <= 1)
        snprintf(buf, len, "the input overlaps (duplicated or intersecting particles?)");
    else
        snprintf(buf, len, "likely the time step (dt = %g s, critical %g s) or particles placed overlapping", s->dt,
                 crit);
}

int grit_health_energy(grit_scene *s)
{
    /* under local-axes impositions (the law tester) the work put in is the
     * experiment, not a failure */
    if (s->n_local6 > 0) return GRIT_OK;
    /* the leapfrog books kinetic energy at mid-step: in the first steps of a
     * fall that puts an offset of about one step over the elapsed steps on
     * the balance, so the balance is judged from step 100 on */
    if (s->def.track_energy && s->energy_initial_set && s->step >= 100 && isfinite(s->def.max_energy_error) &&
        !s->warned_energy) {
        const double e = grit_energy_rel_error(s);
        if (!(fabs(e) <= s->def.max_energy_error)) {
            char why[300];
            snprintf(why, sizeof why, "likely the time step (dt = %g s, critical %g s) or overlapping input", s->dt,
                     grit_critical_dt(s));
            return blowup(s, &s->warned_energy,
                          "step %ld: energy balance error %.3g exceeds max_energy_error = %g (total %.6g J, initial "
                          "%.6g J): %s", s->step, e, s->def.max_energy_error, grit_energy_total(s),
                          s->energy_initial, why);
        }
    }
    return GRIT_OK;
}

int grit_health_check(grit_scene *s)
{
    /* under local-axes impositions (the law tester) overlaps are the
     * experiment, not a failure */
    if (s->n_local6 > 0) return GRIT_OK;
    /* (a spread scene's book is whole only once the ranks' shares are
     * summed, at the step's end: grit_energy_share_close) */
    int rc = s->mpi ? GRIT_OK : grit_health_energy(s);
    if (rc) return rc;
    if (s->stats.rebuilds == s->health_rebuilds || !isfinite(s->def.max_overlap) || s->warned_overlap)
        return GRIT_OK;
    s->health_rebuilds = s->stats.rebuilds;
    const grit_contacts *C = &s->c;
    int worst = -1;
    double worst_ratio = s->def.max_overlap;
    for (int k = 0; k < C->n; k++) {
        if (!(C->pair[k].flags & CF_REAL)) continue;
        const double u = C->geom[k].uN;
        if (!(u < 0)) {
            if (isnan(u)) worst = k, worst_ratio = NAN;
            if (isnan(u)) break;
            continue;
        }
        /* spheres carry their radius in pr (a cache line the pass reads
         * anyway); other shapes ask their class, only when the overlap is
         * deep enough to matter */
        const double ra = s->b.pr[C->pair[k].a].r, rb = s->b.pr[C->pair[k].b].r;
        if (ra > 0 && rb > 0 && -u <= worst_ratio * fmin(ra, rb)) continue;
        const double r = pair_radius(s, C->pair[k].a, C->pair[k].b);
        if (r > 0 && -u > worst_ratio * r) {
            worst = k;
            worst_ratio = -u / r;
        }
    }
    if (worst < 0) return GRIT_OK;
    const grit_pair *p = &C->pair[worst];
    const double r = pair_radius(s, p->a, p->b);
    const double speed = v3_norm(v3_sub(s->b.vw[p->a].v, s->b.vw[p->b].v));
    char why[300];
    cause(s, speed, r, why, sizeof why);
    return blowup(s, &s->warned_overlap,
                  "step %ld: particles %d and %d overlap by %.3g of the smaller radius %g m (max_overlap = %g): %s",
                  s->step, s->b.id[p->a], s->b.id[p->b], worst_ratio, r, s->def.max_overlap, why);
}

const char *grit_last_warning(const grit_scene *s) { return s->warning; }
long grit_warning_count(const grit_scene *s) { return s->n_warnings; }
