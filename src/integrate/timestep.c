/* grit: the critical time step (spec 8.6), extended to per-pair stiffness
 * overrides, for which the p-wave estimate of the material says nothing.
 *
 * Both estimates compare a contact's stiffness with the mass it moves. For
 * a sphere that is the mass; a capsule or an ellipsoid also turns, so that
 * a contact away from the line through its centre moves the smaller
 * effective mass m / (1 + m (l x n)^T I^-1 (l x n)) -- a third of m at the
 * flank of a (3, 1, 1) ellipsoid. The shapes' p-wave radii and effective
 * masses (shape/shape.h) account for it, so that every shape keeps the
 * margin a sphere has (docs/shapes.md, "time step").
 *
 * For an overridden kn the estimate is sqrt(3 m / (8 kn)): exactly the p-wave
 * step r sqrt(rho/E) of two equal spheres whose material stiffness
 * E pi r / 2 equals kn, so both estimates keep the same margin for a
 * particle with many contacts (about 5 springs in parallel per direction).
 * The single-spring limit sqrt(2 m / kn) has no such margin: a chain of
 * spheres (two contacts each, limit sqrt(m / kn)) explodes at 0.9 of it.
 *
 * Hertz contacts (two HertzMats) stiffen with the overlap, so no stiffness
 * bounds them; their estimate is the customary fraction (rayleigh_fraction,
 * 0.2) of the Rayleigh time, which is about the p-wave step of the same
 * material (docs/hertz.md, "Time step"). */
#include <stdlib.h>

#include "integrate/integrate.h"
#include "material/material.h"
#include "shape/shape.h"

double grit_critical_dt(const grit_scene *s)
{
    const int nm = s->n_mats;
    /* per material: does it meet a material without a kn override (p-wave
     * applies), and the largest overridden kn it can meet */
    bool *pwave = calloc((size_t)(nm > 0 ? nm : 1), sizeof *pwave);
    bool *rayleigh = calloc((size_t)(nm > 0 ? nm : 1), sizeof *rayleigh);
    double *kmax = calloc((size_t)(nm > 0 ? nm : 1), sizeof *kmax);
    if (!pwave || !rayleigh || !kmax) {
        free(pwave);
        free(rayleigh);
        free(kmax);
        return 0.0;
    }
    for (int a = 0; a < nm; a++)
        for (int b = 0; b < nm; b++) {
            const grit_matpair *e = grit_matpair_of(s, a, b);
            int k = e->override;
            if (e->phys == GRIT_PHYS_HERTZPHYS) rayleigh[a] = true; /* two HertzMats: Hertz contacts */
            else if (k >= 0 && !isnan(s->overrides[k].def.kn)) kmax[a] = fmax(kmax[a], s->overrides[k].def.kn);
            else pwave[a] = true;
        }
    double dt = INFINITY;
    for (int i = 0; i < s->b.n; i++) {
        const grit_massi mi = s->b.mi[i];
        if (!isfinite(mi.m)) continue;
        int m = s->b.mat[i];
        double r = grit_shape_classes[s->b.shape[i]]->pwave_radius(s, i);
        if (pwave[m] && r > 0) {
            const grit_frict_params fm = grit_material_frict(s, m);
            dt = fmin(dt, r / sqrt(fm.young / fm.density));
        }
        if (rayleigh[m] && r > 0)
            dt = fmin(dt, s->laws.hertz.rayleigh_fraction * grit_hertzmat_rayleigh_time(&s->mats[m].u.hertzmat, r));
        if (kmax[m] > 0) {
            const grit_shape_class *sc = grit_shape_classes[s->b.shape[i]];
            const double meff = sc->eff_mass ? sc->eff_mass(s, i) : mi.m;
            dt = fmin(dt, sqrt(3.0 * meff / (8.0 * kmax[m])));
        }
    }
    free(pwave);
    free(rayleigh);
    free(kmax);
    return dt;
}
