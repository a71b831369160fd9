/* grit: compaction of a loose cloud in a periodic cell to a dense packing.
 *
 * The cell is compressed isotropically through its velocity gradient L =
 * rate I, re-set every CONTROL steps from the measured state:
 *
 *   pressure target P: the linear strain of the next CONTROL steps is
 *     GAIN (p - P) / S, where S = sum_c kn_c l_c^2 / (3 V) is the pressure
 *     change per unit of linear compression if every contact followed the
 *     cell (affine). The assembly is a little softer than affine, so a gain
 *     below 1 approaches P without overshooting (twice that gain
 *     oscillates); while the gas has no contacts S is 0 and the cell goes at
 *     the speed limit.
 *   solid fraction target: the strain that brings the volume to the target,
 *     ln(phi / phi_target) / 3, but never a compression the pressure rule
 *     towards `pressure` would not make: rushing into the target jams the
 *     packing early and loads it far beyond. Once the target holds, the
 *     velocities are stilled (a gas below jamming would keep its speed:
 *     damping acts on forces only).
 *
 * Both are capped at max_strain_step per step. Done when the target holds
 * within the tolerance and the assembly is quiet: the mean force on a
 * sphere is below `unbalanced` times the mean contact force, or, for a
 * solid fraction below jamming, the pressure has fallen to almost nothing.
 * Every quantity that sets the pace is per time step, so the number of
 * steps does not depend on the density or the stiffness, only on
 * pressure / young. */
#include <stdlib.h>
#include <string.h>

#include "grit/cell.h"
#include "grit/stress.h"
#include "pack/pack_impl.h"

enum { CONTROL = 10 };
static const double GAIN = 0.7;
/* target=solid_fraction: a packing whose pressure fell below this fraction
 * of `pressure` carries no load to speak of (overlaps of ~1e-3 of those at
 * `pressure`) and counts as quiet */
static const double UNLOADED = 1e-3;
/* The density of the spheres: it only scales the time step, which the
 * compaction never sees (rates are per step). */
static const double DENSITY = 1000.0;

typedef struct measure {
    double p, phi, unbalanced, stiffness;
    int contacts;
} measure;

static int measure_state(grit_scene *s, double vol_spheres, measure *m, char *err, size_t errlen)
{
    double sig[3][3];
    if (grit_stress(s, sig)) return pack_fail(err, errlen, GRIT_ESTATE, "pack: %s", grit_last_error(s));
    const double V = grit_cell_volume(s);
    m->p = -(sig[0][0] + sig[1][1] + sig[2][2]) / 3;
    m->phi = vol_spheres / V;
    double fc = 0, kl2 = 0;
    int nc = 0, cursor = 0;
    grit_contact_info c;
    while (grit_contact_next(s, &cursor, &c)) {
        const double l = c.lens[0] + c.lens[1] + c.uN;
        fc += v3_norm(c.force_global);
        kl2 += c.kn * l * l;
        nc++;
    }
    double fp = 0;
    const int n = grit_particle_count(s);
    for (int id = 0; id < n; id++) {
        grit_vec3 f;
        grit_get_force(s, id, &f);
        fp += v3_norm(f);
    }
    m->contacts = nc;
    m->stiffness = kl2 / (3 * V);
    m->unbalanced = nc > 0 && fc > 0 ? (fp / n) / (fc / nc) : 0.0;
    return GRIT_OK;
}

/* Velocities that follow the field of the last step: no fluctuation. */
static void still(grit_scene *s)
{
    double L[3][3];
    grit_cell_get_grad_v(s, L);
    const int n = grit_particle_count(s);
    for (int id = 0; id < n; id++) {
        grit_vec3 x;
        grit_get_pos(s, id, &x);
        grit_set_vel(s, id, v3(L[0][0] * x.x + L[0][1] * x.y + L[0][2] * x.z, L[1][0] * x.x + L[1][1] * x.y + L[1][2] * x.z,
                               L[2][0] * x.x + L[2][1] * x.y + L[2][2] * x.z));
        grit_set_angvel(s, id, v3(0, 0, 0));
    }
}

static int check_def(const grit_pack_def *def, const grit_psd *psd, char *err, size_t errlen)
{
    if (grit_param_validate(&grit_pack_param_table, def, err, errlen)) return GRIT_EINVAL;
    if (def->target == GRIT_PACK_PRESSURE && !isnan(def->relax_pressure) && !(def->relax_pressure < def->pressure))
        return pack_fail(err, errlen, GRIT_EINVAL,
                         "parameter 'relax_pressure' = %g is out of range: must be below pressure = %g (Pa)",
                         def->relax_pressure, def->pressure);
    if (def->target == GRIT_PACK_SOLID_FRACTION && !isnan(def->relax_pressure))
        return pack_fail(err, errlen, GRIT_EINVAL,
                         "parameter 'relax_pressure' = %g: relaxing applies to target=pressure only (it would "
                         "change the solid fraction)",
                         def->relax_pressure);
    if (def->target == GRIT_PACK_SOLID_FRACTION && def->solid_fraction <= def->phi0)
        return pack_fail(err, errlen, GRIT_EINVAL,
                         "parameter 'solid_fraction' = %g is out of range: must be above phi0 = %g (the cloud's)",
                         def->solid_fraction, def->phi0);
    if (psd) {
        if (psd->n < 1 || !psd->radius || !psd->mass_fraction)
            return pack_fail(err, errlen, GRIT_EINVAL, "psd: %d sizes: give at least one (radius, mass fraction)",
                             psd->n);
        double sum = 0;
        for (int k = 0; k < psd->n; k++) {
            if (!(psd->radius[k] > 0) || !isfinite(psd->radius[k]))
                return pack_fail(err, errlen, GRIT_EINVAL, "psd: radius[%d] = %g must be positive and finite (m)", k,
                                 psd->radius[k]);
            if (!(psd->mass_fraction[k] >= 0) || !isfinite(psd->mass_fraction[k]))
                return pack_fail(err, errlen, GRIT_EINVAL, "psd: mass_fraction[%d] = %g must be >= 0 and finite", k,
                                 psd->mass_fraction[k]);
            sum += psd->mass_fraction[k];
        }
        if (!(sum > 0)) return pack_fail(err, errlen, GRIT_EINVAL, "psd: the mass fractions add up to 0");
    }
    return GRIT_OK;
}

/* The cell must stay wider than two of the largest boxes (a periodic
 * cell's rule), also at the end: the densest it may get is about 0.74 (or
 * the target). *vs: the spheres' volume. */
static int check_radii(const grit_pack_def *def, const double *r, double *vs, char *err, size_t errlen)
{
    double v = 0, rmax = 0;
    for (int i = 0; i < def->n; i++) {
        v += 4.0 / 3.0 * M_PI * r[i] * r[i] * r[i];
        rmax = fmax(rmax, r[i]);
    }
    const double phi_end = def->target == GRIT_PACK_SOLID_FRACTION ? fmax(def->solid_fraction, 0.74) : 0.74;
    const double edge_end = cbrt(v / phi_end), need = 2 * 2 * rmax * 1.3;
    if (edge_end <= need)
        return pack_fail(err, errlen, GRIT_EINVAL,
                         "parameter 'n' = %d is too small for these radii: the compacted cell (edge about %.3g m) "
                         "must be wider than 2.6 largest diameters (%.3g m); use n >= %.0f",
                         def->n, edge_end, need, ceil(def->n * pow(need / edge_end, 3)));
    *vs = v;
    return GRIT_OK;
}

int grit_pack_check(const grit_pack_def *def, const grit_psd *psd, char *err, size_t errlen)
{
    int rc = check_def(def, psd, err, errlen);
    if (rc) return rc;
    double *r = malloc(sizeof *r * (size_t)def->n), vs;
    int *counts = psd ? calloc((size_t)psd->n, sizeof *counts) : NULL;
    if (!r || (psd && !counts)) rc = pack_fail(err, errlen, GRIT_ENOMEM, "pack: out of memory for %d spheres", def->n);
    if (!rc) rc = pack_radii(def, psd, r, counts, err, errlen);
    if (!rc) rc = check_radii(def, r, &vs, err, errlen);
    free(r), free(counts);
    return rc;
}

typedef struct run {
    const grit_pack_def *def;
    const grit_pack_opts *opt;
    grit_scene *s;
    double vol_spheres, dt;
    int phase;
    bool stilled;
    long next_monitor;
} run;

static const char *phase_name(int phase) { return phase == GRIT_PACK_RELAX ? "relaxing" : "compressing"; }

static int call_monitor(run *r, const measure *m, double rate, int phase, char *err, size_t errlen)
{
    if (!r->opt->monitor) return GRIT_OK;
    const grit_pack_state st = {phase, grit_step_count(r->s), m->p, m->phi, m->unbalanced, rate, m->contacts, r->s};
    if (r->opt->monitor(&st, r->opt->monitor_data))
        return pack_fail(err, errlen, GRIT_ESTATE,
                         "pack: stopped by the monitor at step %ld while %s (pressure %.4g Pa, solid fraction %.4f, "
                         "unbalanced force %.3g)",
                         st.step, phase_name(phase), m->p, m->phi, m->unbalanced);
    return GRIT_OK;
}

/* The linear strain of the next CONTROL steps that moves the pressure to P. */
static double pressure_strain(const measure *m, double P, double cap)
{
    if (m->stiffness > 0) return GAIN * (m->p - P) / m->stiffness;
    return m->p > P ? cap : -cap;
}

/* One control: measure, decide, set the gradient. *done when finished. */
static int control(run *r, measure *m, double *rate, bool *done, char *err, size_t errlen)
{
    const grit_pack_def *d = r->def;
    int rc = measure_state(r->s, r->vol_spheres, m, err, errlen);
    if (rc) return rc;
    const double cap = d->max_strain_step * CONTROL;
    double strain; /* linear strain of the next CONTROL steps, negative: compression */
    bool reached, quiet = m->unbalanced <= d->unbalanced;
    if (d->target == GRIT_PACK_SOLID_FRACTION) {
        /* towards the volume of the target, but never compressing beyond
         * `pressure`: a fast approach would jam the packing below its
         * target and load it far beyond that pressure */
        strain = fmax(log(m->phi / d->solid_fraction) / 3, pressure_strain(m, d->pressure, cap));
        reached = fabs(m->phi - d->solid_fraction) <= d->tolerance * d->solid_fraction;
        /* below jamming the contact network unloads instead of settling */
        quiet = quiet || m->p <= UNLOADED * d->pressure;
        if (reached && !r->stilled) {
            still(r->s);
            r->stilled = true;
        }
        if (!reached && m->phi < d->solid_fraction && quiet && m->p >= (1 - d->tolerance) * d->pressure)
            return pack_fail(err, errlen, GRIT_ESTATE,
                             "pack: target solid_fraction = %g is not reached at step %ld: the packing holds the "
                             "pressure %.4g Pa (the largest allowed: parameter 'pressure' = %g) at solid fraction %.4f; "
                             "raise pressure or lower solid_fraction",
                             d->solid_fraction, grit_step_count(r->s), m->p, d->pressure, m->phi);
    } else {
        const double P = r->phase == GRIT_PACK_RELAX ? d->relax_pressure : d->pressure;
        strain = pressure_strain(m, P, cap);
        reached = fabs(m->p - P) <= d->tolerance * P;
    }
    strain = clamp(strain, -cap, cap);
    if (reached && quiet) {
        if (r->phase == GRIT_PACK_COMPRESS && d->target == GRIT_PACK_PRESSURE && !isnan(d->relax_pressure)) {
            r->phase = GRIT_PACK_RELAX;
            return control(r, m, rate, done, err, errlen);
        }
        *done = true;
        strain = 0;
    }
    *rate = strain / (CONTROL * r->dt);
    const double L[3][3] = {{*rate, 0, 0}, {0, *rate, 0}, {0, 0, *rate}};
    if (grit_cell_set_grad_v(r->s, L)) return pack_fail(err, errlen, GRIT_ESTATE, "pack: %s", grit_last_error(r->s));
    return GRIT_OK;
}

/* The spheres of the scene, centres wrapped into the cell. */
static int harvest(grit_scene *s, grit_packing *p, char *err, size_t errlen)
{
    const int n = grit_particle_count(s);
    p->n = n;
    p->center = malloc(sizeof *p->center * (size_t)n);
    p->radius = malloc(sizeof *p->radius * (size_t)n);
    if (!p->center || !p->radius) return pack_fail(err, errlen, GRIT_ENOMEM, "pack: out of memory for %d spheres", n);
    grit_cell_get(s, p->cell);
    const double(*H)[3] = (const double(*)[3])p->cell;
    /* reduced coordinates need H^-1; the cell stays diagonal under an
     * isotropic gradient, but nothing here relies on it */
    const double det = H[0][0] * (H[1][1] * H[2][2] - H[1][2] * H[2][1]) -
                       H[0][1] * (H[1][0] * H[2][2] - H[1][2] * H[2][0]) +
                       H[0][2] * (H[1][0] * H[2][1] - H[1][1] * H[2][0]);
    double Hi[3][3];
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            const int i1 = (j + 1) % 3, i2 = (j + 2) % 3, j1 = (i + 1) % 3, j2 = (i + 2) % 3;
            Hi[i][j] = (H[i1][j1] * H[i2][j2] - H[i1][j2] * H[i2][j1]) / det;
        }
    for (int id = 0; id < n; id++) {
        grit_vec3 x;
        grit_get_pos(s, id, &x);
        grit_get_radius(s, id, &p->radius[id]);
        const double xv[3] = {x.x, x.y, x.z};
        double f[3];
        for (int a = 0; a < 3; a++) {
            f[a] = Hi[a][0] * xv[0] + Hi[a][1] * xv[1] + Hi[a][2] * xv[2];
            f[a] -= floor(f[a]);
            if (f[a] >= 1) f[a] = 0; /* -1e-17 - floor() rounds to 1 */
        }
        p->center[id] = v3(H[0][0] * f[0] + H[0][1] * f[1] + H[0][2] * f[2], H[1][0] * f[0] + H[1][1] * f[1] + H[1][2] * f[2],
                           H[2][0] * f[0] + H[2][1] * f[1] + H[2][2] * f[2]);
    }
    p->periodic = true;
    p->volume = det;
    return GRIT_OK;
}

static int describe(const grit_pack_def *def, const grit_psd *psd, const int *counts, grit_packing *p)
{
    char line[2048];
    size_t k = (size_t)snprintf(line, sizeof line, "pack ");
    k += pack_format_params(&grit_pack_param_table, def, line + k, sizeof line - k);
    if (psd) {
        k += (size_t)snprintf(line + k, sizeof line - k, " psd=");
        for (int i = 0; i < psd->n && k < sizeof line; i++) {
            char a[32], b[32];
            pack_exact(psd->radius[i], a, sizeof a), pack_exact(psd->mass_fraction[i], b, sizeof b);
            k += (size_t)snprintf(line + k, sizeof line - k, "%s%s:%s", i ? "," : "", a, b);
        }
        for (int i = 0; i < psd->n && k < sizeof line; i++)
            k += (size_t)snprintf(line + k, sizeof line - k, "%s%d", i ? "," : " psd_counts=", counts[i]);
    }
    return pack_info_append(p, line);
}

int grit_pack_dense(const grit_pack_def *def, const grit_pack_opts *opts, grit_packing *out, char *err,
                    size_t errlen)
{
    const grit_pack_opts dflt = grit_default_pack_opts();
    const grit_pack_opts *opt = opts ? opts : &dflt;
    int rc = check_def(def, opt->psd, err, errlen);
    if (rc) return rc;
    const int n = def->n;
    double *r = malloc(sizeof *r * (size_t)n);
    grit_vec3 *x = malloc(sizeof *x * (size_t)n);
    int *counts = opt->psd ? calloc((size_t)opt->psd->n, sizeof *counts) : NULL;
    grit_packing res = {0};
    grit_scene *s = NULL;
    if (!r || !x || (opt->psd && !counts)) {
        rc = pack_fail(err, errlen, GRIT_ENOMEM, "pack: out of memory for %d spheres", n);
        goto done;
    }
    if ((rc = pack_radii(def, opt->psd, r, counts, err, errlen))) goto done;
    double vs;
    if ((rc = check_radii(def, r, &vs, err, errlen))) goto done;
    double edge;
    if ((rc = pack_cloud(r, n, def->phi0, (uint64_t)def->seed, x, &edge, err, errlen))) goto done;

    grit_scene_def sd = grit_default_scene_def();
    sd.damping = def->damping;
    sd.verlet_dist = -0.2; /* the cell's own motion triggers rebuilds: a wider skin pays */
    if (!(s = grit_scene_create(&sd))) {
        rc = pack_fail(err, errlen, GRIT_ENOMEM, "pack: %s", grit_create_error());
        goto done;
    }
    grit_frictmat_def md = grit_default_frictmat_def();
    md.density = DENSITY;
    md.young = def->young;
    md.tan_phi = def->tan_phi;
    const int mat = grit_add_frictmat(s, &md);
    if (mat < 0) {
        rc = pack_fail(err, errlen, mat, "pack: %s", grit_last_error(s));
        goto done;
    }
    grit_sphere_def sp = grit_default_sphere_def();
    sp.material = mat;
    for (int i = 0; i < n; i++) {
        sp.pos = x[i];
        sp.radius = r[i];
        const int id = grit_add_sphere(s, &sp);
        if (id < 0) {
            rc = pack_fail(err, errlen, id, "pack: %s", grit_last_error(s));
            goto done;
        }
    }
    const double H[3][3] = {{edge, 0, 0}, {0, edge, 0}, {0, 0, edge}};
    double dt;
    if (grit_cell_set(s, H) || grit_check_dt(s, &dt)) {
        rc = pack_fail(err, errlen, GRIT_EINVAL, "pack: %s", grit_last_error(s));
        goto done;
    }
    run ru = {def, opt, s, vs, dt, GRIT_PACK_COMPRESS, false, 0};
    const long every = opt->monitor_every > 0 ? opt->monitor_every : 1000;
    measure m = {0};
    double rate = 0;
    bool finished = false;
    for (;;) {
        if ((rc = control(&ru, &m, &rate, &finished, err, errlen))) goto done;
        if (finished) break;
        if (grit_step_count(s) >= ru.next_monitor) {
            if ((rc = call_monitor(&ru, &m, rate, ru.phase, err, errlen))) goto done;
            ru.next_monitor += every;
        }
        if (grit_step_count(s) >= def->max_steps) {
            const double P = ru.phase == GRIT_PACK_RELAX ? def->relax_pressure : def->pressure;
            char want[160];
            if (def->target == GRIT_PACK_SOLID_FRACTION)
                snprintf(want, sizeof want, "solid fraction %.4f (target %g +- %g%%)", m.phi, def->solid_fraction,
                         100 * def->tolerance);
            else
                snprintf(want, sizeof want, "pressure %.4g Pa (target %g +- %g%%), solid fraction %.4f", m.p, P,
                         100 * def->tolerance, m.phi);
            rc = pack_fail(err, errlen, GRIT_ESTATE,
                           "pack: max_steps = %d reached while %s: %s, unbalanced force %.3g (quiet below %g); "
                           "raise max_steps or loosen tolerance/unbalanced",
                           def->max_steps, phase_name(ru.phase), want, m.unbalanced, def->unbalanced);
            goto done;
        }
        const long k = def->max_steps - grit_step_count(s);
        if (grit_step(s, k < CONTROL ? k : CONTROL)) {
            rc = pack_fail(err, errlen, GRIT_ENUMERIC, "pack: %s", grit_last_error(s));
            goto done;
        }
    }
    if ((rc = harvest(s, &res, err, errlen))) goto done;
    res.solid_fraction = vs / res.volume;
    res.pressure = m.p;
    res.unbalanced = m.unbalanced;
    res.steps = grit_step_count(s);
    if (describe(def, opt->psd, counts, &res)) {
        rc = pack_fail(err, errlen, GRIT_ENOMEM, "pack: out of memory");
        goto done;
    }
    if ((rc = call_monitor(&ru, &m, 0, GRIT_PACK_DONE, err, errlen))) goto done;
    *out = res;
    res = (grit_packing){0};
done:
    grit_packing_free(&res);
    if (s && opt->keep_scene) { /* also after a failure: its last state tells what went wrong */
        *opt->keep_scene = s;
        s = NULL;
    }
    grit_scene_destroy(s);
    free(r), free(x), free(counts);
    return rc;
}
