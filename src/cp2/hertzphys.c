/* grit: Cp2_HertzMat_HertzPhys -- the constants of a Hertz-Mindlin contact
 * (docs/hertz.md, "Model"). */
#include "cp2/cp2.h"
#include "law2/hertz.h"
#include "material/material.h"

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
    const int k = grit_matpair_of(s, ma, mb)->override;
    if (k >= 0) {
        const grit_pair_def *ov = &s->overrides[k].def;
        if (!isnan(ov->tan_phi)) tan_phi = ov->tan_phi;
        if (!isnan(ov->restitution)) e = ov->restitution;
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
    p->kn = 0.0;
    p->kt = 0.0;
    p->tan_phi = tan_phi;
    p->cn = 0.0;
    p->f = v3_zero();
    p->t = v3_zero();
}
