/* grit: the adaptive time step (Woo's DynDt, scene parameter dyn_dt).
 *
 * The automatic step of grit_critical_dt is a bound from the materials (the
 * p-wave speed, or an overridden kn) that must hold for any packing; the
 * contacts a particle actually has are usually softer, so that bound wastes
 * steps. DynDt takes the step from the current contacts instead: for every
 * particle that is not fully blocked the stiffness its real contacts give
 * each DoF, summed over its contacts with n the global normal,
 *   k_tr,i  += n_i^2 (kn - kt) + kt,
 *   k_rot   += l^2 kt (ny^2 + nz^2, nz^2 + nx^2, nx^2 + ny^2),
 * l this particle's length of the contact (its branch to the contact point),
 * and the critical step sqrt(min over free DoFs with stiffness of 2 m / k_tr,i
 * and 2 I_i / k_rot,i), the smallest over particles. (sqrt(2 m/k) is 1/sqrt 2
 * of the single spring's stability limit 2 sqrt(m/k); a chain with two
 * contacts per particle is stable up to it.) The new step is
 *   min(dt_safety x critical, dt (1 + dyn_dt_max_inc)^N),
 * N the steps since the last evaluation: a decrease is immediate, an increase
 * gradual. Without contacts the step is left as it is. Contacts of the
 * concrete model (ConcretePhys) are not counted. */
#include <stdlib.h>

#include "integrate/integrate.h"

double grit_contacts_critical_dt(grit_scene *s)
{
    const grit_bodies *b = &s->b;
    const grit_contacts *C = &s->c;
    const int n = b->n;
    if (n == 0 || C->n_real == 0) return INFINITY;
    if (s->dyndt_cap < n) {
        double *k = realloc(s->dyndt_k, sizeof(double) * 6 * (size_t)n);
        if (!k) return 0.0; /* the caller keeps its step */
        s->dyndt_k = k;
        s->dyndt_cap = n;
    }
    double *K = s->dyndt_k; /* per particle: k_tr (3), k_rot (3) */
    for (size_t q = 0; q < 6 * (size_t)n; q++) K[q] = 0;
    bool any = false;
    for (int c = 0; c < C->n; c++) {
        const grit_pair *p = &C->pair[c];
        if (!(p->flags & CF_REAL) || p->law == GRIT_LAW_CPM) continue;
        const grit_vec3 nn = C->geom[c].ex;
        const double kn = C->phys[c].kn, kt = C->phys[c].kt;
        const double n2[3] = {nn.x * nn.x, nn.y * nn.y, nn.z * nn.z};
        const int ends[2] = {p->a, p->b};
        for (int e = 0; e < 2; e++) {
            double *k = K + 6 * (size_t)ends[e];
            const double l = C->cold[c].lens[e], r = l * l * kt;
            for (int j = 0; j < 3; j++) k[j] += n2[j] * (kn - kt) + kt;
            k[3] += r * (n2[1] + n2[2]);
            k[4] += r * (n2[2] + n2[0]);
            k[5] += r * (n2[0] + n2[1]);
        }
        any = true;
    }
    if (!any) return INFINITY;
    double dt2 = INFINITY;
    for (int i = 0; i < n; i++) {
        const unsigned blocked = b->flags[i] & GRIT_BLOCK_ALL;
        if (blocked == GRIT_BLOCK_ALL) continue;
        const double *k = K + 6 * (size_t)i;
        const grit_massi mi = b->mi[i];
        const double I[3] = {mi.inertia.x, mi.inertia.y, mi.inertia.z};
        for (int j = 0; j < 3; j++) {
            if (!(blocked & (GRIT_BLOCK_X << j)) && k[j] > 0 && isfinite(mi.m)) dt2 = fmin(dt2, 2 * mi.m / k[j]);
            if (!(blocked & (GRIT_BLOCK_RX << j)) && k[3 + j] > 0 && isfinite(I[j]))
                dt2 = fmin(dt2, 2 * I[j] / k[3 + j]);
        }
    }
    return sqrt(dt2);
}

void grit_dyndt_update(grit_scene *s, long steps)
{
    const double crit = grit_contacts_critical_dt(s);
    if (!isfinite(crit) || !(crit > 0)) return;
    const double grown = s->dt * pow(1.0 + s->def.dyn_dt_max_inc, (double)steps);
    s->dt = fmin(s->def.dt_safety * crit, grown);
}
