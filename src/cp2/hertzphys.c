/* grit: Cp2_HertzMat_HertzPhys -- the constants of a Hertz-Mindlin contact
 * (docs/hertz.md, "Model"). */
#include "cp2/cp2.h"
#include "law2/hertz.h"
#include "material/material.h"

int grit_hertz_rolling_of(const grit_scene *s, int ma, int mb)
{
    const int k = grit_matpair_of(s, ma, mb)->override;
    if (k >= 0 && s->overrides[k].def.rolling > 0) return s->overrides[k].def.rolling - 1;
    const int r1 = s->mats[ma].u.hertzmat.rolling, r2 = s->mats[mb].u.hertzmat.rolling;
    /* one that has none takes the other's; two different ones, the first in
     * the choice's order */
    if (r1 == GRIT_ROLLING_NONE || r2 == GRIT_ROLLING_NONE) return r1 > r2 ? r1 : r2;
    return r1 < r2 ? r1 : r2;
}

/* The curvature radius one side brings to the contact: the radius the
 * geometry functor gives (a sphere's, a capsule's, an ellipsoid's distance
 * from its centre to the contact point), none for a wall, and none for a
 * facet met by anything but a facet (its face is flat; the functor's
 * max(half thickness, r) is the linear law's length, not a curvature). A
 * facet against a facet meets it with a rounded edge of its half
 * thickness. */
static double inv_radius(int shape, int other, double r)
{
    if (shape == GRIT_SHAPE_WALL || (shape == GRIT_SHAPE_FACET && other != GRIT_SHAPE_FACET) || !(r > 0)) return 0.0;
    return 1.0 / r;
}

void grit_cp2_hertzphys(const grit_scene *s, int a, int b, const grit_cg2_out *o, grit_frictphys *p, double *x)
{
    const int ma = s->b.mat[a], mb = s->b.mat[b];
    const grit_hertzmat_def *m1 = &s->mats[ma].u.hertzmat, *m2 = &s->mats[mb].u.hertzmat;
    const int sa = s->b.shape[a], sb = s->b.shape[b];
    const double inv_r = inv_radius(sa, sb, o->r1) + inv_radius(sb, sa, o->r2);
    /* two flat sides cannot meet (grit_cg2_check_flat_pairs); should it
     * happen, the larger length keeps the force finite */
    const double R = inv_r > 0 ? 1.0 / inv_r : fmax(fabs(o->r1), fabs(o->r2));
    const double E = 1.0 / ((1.0 - m1->poisson * m1->poisson) / m1->young + (1.0 - m2->poisson * m2->poisson) / m2->young);
    const double G = 1.0 / (2.0 * (2.0 - m1->poisson) * (1.0 + m1->poisson) / m1->young +
                            2.0 * (2.0 - m2->poisson) * (1.0 + m2->poisson) / m2->young);
    const double inv_m = 1.0 / s->b.mi[a].m + 1.0 / s->b.mi[b].m; /* a fixed particle's mass is infinite */
    double tan_phi = grit_cp2_combine_friction(s->def.friction_rule, m1->tan_phi, m2->tan_phi);
    double e = fmin(m1->restitution, m2->restitution);
    double mu_roll = grit_cp2_combine_friction(s->def.friction_rule, m1->mu_roll, m2->mu_roll);
    double eta_roll = 0.5 * (m1->eta_roll + m2->eta_roll);
    int roll = grit_hertz_rolling_of(s, ma, mb);
    const int k = grit_matpair_of(s, ma, mb)->override;
    if (k >= 0) {
        const grit_pair_def *ov = &s->overrides[k].def;
        if (!isnan(ov->tan_phi)) tan_phi = ov->tan_phi;
        if (!isnan(ov->restitution)) e = ov->restitution;
        if (!isnan(ov->mu_roll)) mu_roll = ov->mu_roll;
        if (!isnan(ov->eta_roll)) eta_roll = ov->eta_roll;
    }
    /* Tsuji's damping: the ratio beta of a linear oscillator whose
     * restitution is e, applied to the Hertz spring's stiffness */
    const double beta = e > 0 ? log(e) / sqrt(log(e) * log(e) + M_PI * M_PI) : -1.0;
    const double sR = sqrt(R), m = inv_m > 0 ? 1.0 / inv_m : 0.0; /* two fixed particles: no damping */
    x[GRIT_HERTZ_X_KN] = 4.0 / 3.0 * E * sR;
    x[GRIT_HERTZ_X_KT] = 8.0 * G * sR;
    x[GRIT_HERTZ_X_CN] = -2.0 * sqrt(5.0 / 6.0) * beta * sqrt(2.0 * E * sR * m);
    x[GRIT_HERTZ_X_CT] = -2.0 * sqrt(5.0 / 6.0) * beta * sqrt(8.0 * G * sR * m);
    x[GRIT_HERTZ_X_FS] = 0.0;
    x[GRIT_HERTZ_X_FS + 1] = 0.0;
    x[GRIT_HERTZ_X_MU] = tan_phi;
    x[GRIT_HERTZ_X_FDN] = 0.0;
    if (s->c.ext_n >= GRIT_LAW_HERTZ_EXT_N) { /* some pair rolls: the second line is there */
        /* the moment of inertia about the contact point of the two, in
         * series (a fixed particle's is infinite) */
        double inv_i = 0;
        const int ids[2] = {a, b};
        const grit_vec3 xs[2] = {o->x1, o->x2};
        for (int q = 0; q < 2; q++) {
            const grit_massi mi = s->b.mi[ids[q]];
            const double arm2 = v3_norm2(v3_sub(o->c, xs[q]));
            const double I = (mi.inertia.x + mi.inertia.y + mi.inertia.z) / 3.0 + mi.m * arm2;
            if (isfinite(I)) inv_i += 1.0 / I;
        }
        x[GRIT_HERTZ_X_ROLL] = mu_roll > 0 ? roll : GRIT_ROLLING_NONE;
        x[GRIT_HERTZ_X_MR] = mu_roll * R;
        x[GRIT_HERTZ_X_KR] = 2.25 * mu_roll * mu_roll * R * R;
        x[GRIT_HERTZ_X_CR] = inv_i > 0 ? 2.0 * eta_roll * sqrt(1.0 / inv_i) : 0.0;
        x[GRIT_HERTZ_X_MS] = 0.0;
        x[GRIT_HERTZ_X_MS + 1] = 0.0;
        x[GRIT_HERTZ_X_RSTAR] = R;
        x[GRIT_HERTZ_X_RSTAR + 1] = 0.0;
    }
    p->kn = 0.0;
    p->kt = 0.0;
    p->tan_phi = tan_phi;
    p->cn = 0.0;
    p->f = v3_zero();
    p->t = v3_zero();
}
