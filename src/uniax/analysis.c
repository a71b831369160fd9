/* grit: what a stress-strain curve says (docs/concrete.md, "What is measured"): the
 * peak, Young's modulus, the fracture energy, Poisson's ratio from the
 * displacements, and the result of a whole test from its two curves. */
#include "uniax/uniax_impl.h"

int grit_uniax_peak(const double *stress, int n, int sense)
{
    int k = -1;
    for (int i = 0; i < n; i++)
        if (k < 0 || sense * stress[i] > sense * stress[k]) k = i;
    return k;
}

int grit_uniax_fit_young(const double *strain, const double *stress, int n, int sense, double fraction, double *E,
                         char *err, size_t errlen)
{
    const int k = grit_uniax_peak(stress, n, sense);
    if (k < 0) return uniax_fail(err, errlen, GRIT_ESTATE, "Young's modulus: the curve is empty");
    /* measured from the first point: a confined run starts at its confinement */
    const double base = stress[0], limit = fraction * fabs(stress[k] - base);
    double mx = 0, my = 0;
    int m = 0;
    for (int i = 0; i <= k; i++)
        if (fabs(stress[i] - base) < limit) mx += strain[i], my += stress[i], m++;
    if (m < 2)
        return uniax_fail(err, errlen, GRIT_ESTATE,
                          "Young's modulus: %d point(s) before the peak with |stress| below %g of %g Pa; sample more "
                          "often (sample_every) or raise young_fraction",
                          m, fraction, fabs(stress[k] - base));
    mx /= m, my /= m;
    double sxy = 0, sxx = 0;
    for (int i = 0; i <= k; i++)
        if (fabs(stress[i] - base) < limit) sxy += (strain[i] - mx) * (stress[i] - my), sxx += (strain[i] - mx) * (strain[i] - mx);
    if (!(sxx > 0))
        return uniax_fail(err, errlen, GRIT_ESTATE, "Young's modulus: the %d points have no spread of strain", m);
    *E = sxy / sxx;
    return GRIT_OK;
}

int grit_uniax_fracture_energy(const double *strain, const double *stress, int n, double fraction, double *gf,
                               char *err, size_t errlen)
{
    const int k = grit_uniax_peak(stress, n, +1);
    if (k < 0 || !(stress[k] > 0))
        return uniax_fail(err, errlen, GRIT_ESTATE, "fracture energy: the curve has no tensile peak");
    const double ft = stress[k], low = fraction * ft;
    double g = 0.5 * ft * strain[k];
    for (int i = k + 1; i < n; i++) {
        const double e0 = strain[i - 1], s0 = stress[i - 1], e1 = strain[i], s1 = stress[i];
        if (s1 <= low) {
            /* up to the crossing only: the tail after it is not the thesis' measure */
            const double t = s0 > s1 ? (s0 - low) / (s0 - s1) : 1.0;
            const double ec = e0 + t * (e1 - e0);
            *gf = g + 0.5 * (s0 + low) * (ec - e0);
            return GRIT_OK;
        }
        g += 0.5 * (s0 + s1) * (e1 - e0);
    }
    return uniax_fail(err, errlen, GRIT_ESTATE,
                      "fracture energy: the tension curve never falls to %g of f_t = %g Pa (last %g Pa); run it "
                      "further (stop_tension below gf_fraction, max_strain)",
                      fraction, ft, n ? stress[n - 1] : 0.0);
}

int grit_uniax_poisson(const grit_vec3 *x0, const grit_vec3 *x, int n, int axis, grit_vec3 lo, grit_vec3 hi,
                       double *nu, double eps[3], char *err, size_t errlen)
{
    if (axis < 0 || axis > 2) return uniax_fail(err, errlen, GRIT_EINVAL, "Poisson's ratio: axis %d is not 0, 1 or 2", axis);
    double e[3];
    int m = 0;
    for (int w = 0; w < 3; w++) {
        double mx = 0, my = 0;
        m = 0;
        for (int i = 0; i < n; i++) {
            if (!(x[i].x >= lo.x && x[i].x <= hi.x && x[i].y >= lo.y && x[i].y <= hi.y && x[i].z >= lo.z &&
                  x[i].z <= hi.z))
                continue;
            mx += v3_axis(x0[i], w), my += v3_axis(x[i], w) - v3_axis(x0[i], w), m++;
        }
        if (m < 3)
            return uniax_fail(err, errlen, GRIT_ESTATE,
                              "Poisson's ratio: %d sphere(s) in the central box; raise poisson_box", m);
        mx /= m, my /= m;
        double sxy = 0, sxx = 0;
        for (int i = 0; i < n; i++) {
            if (!(x[i].x >= lo.x && x[i].x <= hi.x && x[i].y >= lo.y && x[i].y <= hi.y && x[i].z >= lo.z &&
                  x[i].z <= hi.z))
                continue;
            const double a = v3_axis(x0[i], w) - mx, d = v3_axis(x[i], w) - v3_axis(x0[i], w) - my;
            sxy += a * d, sxx += a * a;
        }
        if (!(sxx > 0))
            return uniax_fail(err, errlen, GRIT_ESTATE, "Poisson's ratio: the spheres in the box are all at one %c",
                              "xyz"[w]);
        e[w] = sxy / sxx;
    }
    if (!(e[axis] != 0))
        return uniax_fail(err, errlen, GRIT_ESTATE, "Poisson's ratio: no axial strain yet (strain the specimen first)");
    *nu = -(e[(axis + 1) % 3] + e[(axis + 2) % 3]) / (2 * e[axis]);
    if (eps) eps[0] = e[0], eps[1] = e[1], eps[2] = e[2];
    return GRIT_OK;
}

void uniax_analyse(const grit_uniax_def *def, double kn, grit_uniax_result *r)
{
    char err[256];
    r->young = r->young_tension = r->young_compression = NAN;
    r->ft = r->eps_ft = r->fc = r->eps_fc = r->fc_ft = r->gf = r->gf_norm = NAN;
    const grit_uniax_curve *t = &r->tension, *c = &r->compression;
    if (t->n > 0) {
        const int k = grit_uniax_peak(t->stress, t->n, +1);
        r->ft = t->stress[k], r->eps_ft = t->strain[k];
        if (grit_uniax_fit_young(t->strain, t->stress, t->n, +1, def->young_fraction, &r->young_tension, err,
                                 sizeof err))
            r->young_tension = NAN;
        if (grit_uniax_fracture_energy(t->strain, t->stress, t->n, def->gf_fraction, &r->gf, err, sizeof err))
            r->gf = NAN;
        r->gf_norm = kn * r->gf / (r->ft * r->ft);
    }
    if (c->n > 0) {
        const int k = grit_uniax_peak(c->stress, c->n, -1);
        r->fc = -c->stress[k], r->eps_fc = c->strain[k];
        if (grit_uniax_fit_young(c->strain, c->stress, c->n, -1, def->young_fraction, &r->young_compression, err,
                                 sizeof err))
            r->young_compression = NAN;
    }
    r->young = t->n > 0 ? r->young_tension : r->young_compression;
    if (t->n > 0 && c->n > 0) r->fc_ft = r->fc / r->ft;
}
