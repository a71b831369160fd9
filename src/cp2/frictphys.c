/* grit: Cp2_FrictMat_FrictPhys, for any two materials (every material is a
 * FrictMat too). */
#include "cp2/cp2.h"
#include "material/material.h"

/* The scene's friction_rule (Woo's MatchMaker fallback algorithms). min is
 * Woo's default: a frictionless material makes all its contacts frictionless. */
double grit_cp2_combine_friction(int rule, double a, double b)
{
    switch (rule) {
    case GRIT_FRICTION_AVG: return 0.5 * (a + b);
    case GRIT_FRICTION_MAX: return fmax(a, b);
    case GRIT_FRICTION_HARMAVG: return a + b > 0 ? 2.0 * a * b / (a + b) : 0.0;
    default: return fmin(a, b);
    }
}

void grit_cp2_frictphys(const grit_scene *s, int mat_a, int mat_b, const grit_contact_cold *cold,
                        grit_frictphys *p)
{
    const grit_frict_params f1 = grit_material_frict(s, mat_a), f2 = grit_material_frict(s, mat_b);
    const grit_frict_params *m1 = &f1, *m2 = &f2;
    double A = cold->area;
    /* springs in series; E*A/0 = inf makes a zero-length side rigid */
    double k1 = m1->young * A / cold->lens[0], k2 = m2->young * A / cold->lens[1];
    double kn = 1.0 / (1.0 / k1 + 1.0 / k2);
    double ratio = 0.5 * (m1->kt_div_kn + m2->kt_div_kn);
    double tan_phi = grit_cp2_combine_friction(s->def.friction_rule, m1->tan_phi, m2->tan_phi);
    double cn = 0.0, kt = NAN;
    int k = grit_matpair_of(s, mat_a, mat_b)->override;
    if (k >= 0) {
        const grit_pair_def *o = &s->overrides[k].def;
        if (!isnan(o->kn)) kn = o->kn;
        if (!isnan(o->kt)) kt = o->kt;
        if (!isnan(o->tan_phi)) tan_phi = o->tan_phi;
        cn = o->cn;
    }
    if (isnan(kt)) kt = ratio * kn;
    p->kn = kn;
    p->kt = kt;
    p->tan_phi = tan_phi;
    p->cn = cn;
    p->f = v3_zero();
    p->t = v3_zero();
}
