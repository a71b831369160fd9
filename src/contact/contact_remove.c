/* grit: removing a real contact outside the contact loop (contact_remove.h).
 * Each law's stored energy is its own formula of the state it keeps; a new
 * law of GRIT_LAWS adds its case here (the compiler's -Wswitch names it). */
#include "contact/contact_remove.h"

#include <string.h>

#include "cg2/l6geom.h"
#include "law2/all.h"

static double sq2(double y, double z) { return y * y + z * z; }

double grit_contact_stored_energy(const grit_scene *s, int k)
{
    const grit_contacts *C = &s->c;
    const grit_l6geom *g = &C->geom[k];
    const grit_frictphys *p = &C->phys[k];
    const grit_contact_cold *cold = &C->cold[k];
    const double *x = C->ext_n ? C->ext + (size_t)k * (size_t)C->ext_n : NULL;
    const int law = C->pair[k].law;
    if (!x && (law == GRIT_LAW_KUHN || law == GRIT_LAW_CPM || law == GRIT_LAW_HERTZ)) return 0.0; /* no state */
    switch ((grit_law)law) {
    case GRIT_LAW_IDEALELPL: {
        /* the spring: the transmitted tangential force less the dashpot's share */
        double fy = p->f.y, fz = p->f.z;
        if (s->laws.idealelpl.ct_div_cn != 0 && x && C->ext_n >= GRIT_IDEALELPL_DASHPOT_EXT_N && isfinite(x[0]) &&
            isfinite(x[1])) {
            fy -= x[0];
            fz -= x[1];
        }
        const double u = isnan(cold->uN0) ? g->uN : g->uN - cold->uN0;
        return 0.5 * p->kn * u * u + (p->kt != 0 ? 0.5 * sq2(fy, fz) / p->kt : 0.0);
    }
    case GRIT_LAW_LINEL6: {
        const double kw = p->kn / s->laws.linel6.char_len, kb = p->kt / s->laws.linel6.char_len;
        double e = 0.5 * p->f.x * p->f.x / p->kn;
        if (p->kt != 0) e += 0.5 * sq2(p->f.y, p->f.z) / p->kt;
        if (kw != 0) e += 0.5 * p->t.x * p->t.x / kw;
        if (kb != 0) e += 0.5 * sq2(p->t.y, p->t.z) / kb;
        return e;
    }
    case GRIT_LAW_KUHN: {
        const double z = -g->uN;
        const double un = z > 0 ? 0.5 * p->kn * z * z : 0.0;
        return un + (p->kt > 0 ? 0.5 * (x[0] * x[0] + x[1] * x[1] + x[2] * x[2]) / p->kt : 0.0);
    }
    case GRIT_LAW_CPM: {
        grit_cpm_state st;
        memcpy(&st, x + GRIT_CPM_X_STATE, sizeof st);
        return st.u * cold->area * x[GRIT_CPM_X_L];
    }
    case GRIT_LAW_HERTZ: {
        const double d = fmax(-g->uN, 0.0);
        double e = 0.4 * x[GRIT_HERTZ_X_KN] * d * d * sqrt(d);
        if (p->kt > 0) e += 0.5 * sq2(x[GRIT_HERTZ_X_FS], x[GRIT_HERTZ_X_FS + 1]) / p->kt;
        if (C->ext_n >= GRIT_HERTZ_ROLL_EXT_N && x[GRIT_HERTZ_X_ROLL] == GRIT_ROLLING_EPSD) {
            const double kr = x[GRIT_HERTZ_X_KR] * p->kn;
            if (kr > 0) e += 0.5 * sq2(x[GRIT_HERTZ_X_MS], x[GRIT_HERTZ_X_MS + 1]) / kr;
        }
        return e;
    }
    case GRIT_LAW_COUNT: break;
    }
    return 0.0;
}

static const bool law_torque[GRIT_LAW_COUNT] = {
#define TORQUE(U, l, phys, name) [GRIT_LAW_##U] = GRIT_LAW_##U##_TORQUE,
    GRIT_LAWS(TORQUE)
#undef TORQUE
};

void grit_contact_unapply(grit_scene *s, int k)
{
    const grit_contacts *C = &s->c;
    const grit_pair *pp = &C->pair[k];
    const grit_l6geom *g = &C->geom[k];
    const grit_frictphys *p = &C->phys[k];
    grit_ft *ft = s->b.ft;
    const int a = pp->a, b = pp->b;
    const grit_vec3 ez = v3_cross(g->ex, g->ey);
    const grit_vec3 F = v3_add(v3_add(v3_scale(g->ex, p->f.x), v3_scale(g->ey, p->f.y)), v3_scale(ez, p->f.z));
    grit_vec3 Ma = v3_cross(v3_sub(g->c, s->b.pr[a].pos), F);
    grit_vec3 Mb = v3_cross(v3_sub(g->c, s->b.pr[b].pos), v3_neg(F));
    if (law_torque[pp->law]) {
        const grit_vec3 T = v3_add(v3_add(v3_scale(g->ex, p->t.x), v3_scale(g->ey, p->t.y)), v3_scale(ez, p->t.z));
        Ma = v3_add(Ma, T);
        Mb = v3_sub(Mb, T);
    }
    ft[a].f = v3_sub(ft[a].f, F);
    ft[a].t = v3_sub(ft[a].t, Ma);
    ft[b].f = v3_add(ft[b].f, F);
    ft[b].t = v3_sub(ft[b].t, Mb);
}
