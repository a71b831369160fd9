/* grit: Cp2_ConcreteMat_ConcretePhys -- the constants of the concrete
 * particle model's contacts (docs/concrete.md, "Materials, contacts and the
 * interaction radius"). */
#include <stdlib.h>
#include <string.h>

#include "cp2/cp2.h"
#include "law2/cpm.h"

_Static_assert((int)GRIT_CPM_YIELD_LINEAR == (int)GRIT_YIELD_LIN && (int)GRIT_CPM_YIELD_LOG_LIN == (int)GRIT_YIELD_LOGLIN,
               "the yield surface choice is the math's enum");
_Static_assert((int)GRIT_CPM_DAMLAW_EXP == (int)GRIT_DAM_LAW_EXP && (int)GRIT_CPM_DAMLAW_LINEAR == (int)GRIT_DAM_LAW_LINEAR,
               "the damage law choice is the math's enum");

/* One material: its values. Two: the mean of each (as Woo), the shear
 * modulus the product of the mean modulus and the mean ratio, the softening
 * strain the mean crack-onset strain times the mean ductility. */
static grit_cpm_phys combine(const grit_concretemat_def *m1, const grit_concretemat_def *m2)
{
#define MEAN(f) (0.5 * (m1->f + m2->f))
    const double kN = MEAN(young), eps0 = MEAN(eps_crack_onset);
    return (grit_cpm_phys){
        .kN = kN,
        .kT = kN * MEAN(kt_div_kn),
        .tan_phi = MEAN(tan_phi),
        .cT0 = MEAN(sigma_t),
        .eps0 = eps0,
        .epsf = eps0 * MEAN(rel_ductility),
        .dmg_tau = MEAN(dmg_tau),
        .dmg_rate_exp = MEAN(dmg_rate_exp),
        .pl_tau = MEAN(pl_tau),
        .pl_rate_exp = MEAN(pl_rate_exp),
        .sigma0 = MEAN(iso_prestress),
        .xi1 = MEAN(equiv_strain_shear),
        .dam_law = m1->dam_law,
        .never_damage = m1->never_damage || m2->never_damage,
        .plain = MEAN(dmg_tau) <= 0 && MEAN(pl_tau) <= 0 && MEAN(iso_prestress) == 0 && MEAN(equiv_strain_shear) == 0,
    };
#undef MEAN
}

int grit_cp2_prepare(grit_scene *s)
{
    const int n = s->n_mats;
    grit_cpm_phys *t = calloc((size_t)(n > 0 ? n * n : 1), sizeof *t);
    if (!t) return grit_fail(s, GRIT_ENOMEM, "out of memory for the ConcretePhys table");
    for (int a = 0; a < n; a++)
        for (int b = 0; b < n; b++) {
            if (s->mats[a].type != GRIT_MAT_CONCRETEMAT || s->mats[b].type != GRIT_MAT_CONCRETEMAT) continue;
            const grit_concretemat_def *m1 = &s->mats[a].u.concretemat, *m2 = &s->mats[b].u.concretemat;
            if (m1->dam_law != m2->dam_law) {
                free(t);
                return grit_fail(s, GRIT_EINVAL,
                                 "ConcreteMats %d and %d: parameter 'dam_law' differs (%s, %s); concrete materials "
                                 "of one scene must share their damage law",
                                 a, b, m1->dam_law ? "exp" : "linear", m2->dam_law ? "exp" : "linear");
            }
            t[a * n + b] = a == b ? combine(m1, m1) : combine(m1, m2);
            char err[400];
            if (grit_cpm_phys_check(&t[a * n + b], err, sizeof err)) {
                free(t);
                return grit_fail(s, GRIT_EINVAL, "ConcreteMats %d and %d combined: %s", a, b, err);
            }
        }
    free(s->cpm_phys);
    s->cpm_phys = t;
    return GRIT_OK;
}

void grit_cp2_concretephys(const grit_scene *s, int mat_a, int mat_b, const grit_cg2_out *o,
                           grit_contact_cold *cold, grit_frictphys *p, double *ext)
{
    const int k = mat_a * s->pair_table_n + mat_b;
    const grit_cpm_phys *P = &s->cpm_phys[k];
    const grit_cpm_def *law = &s->laws.cpm;
    const int threshold = law->cohesive_steps;
    const bool cohesive = threshold < 0 || s->step < threshold;
    /* stress-free at its creation distance, whatever the gap (spec S0) */
    cold->uN0 = o->uN;
    double L = cold->lens[0] + cold->lens[1];
    if (law->ref_length == GRIT_REF_LENGTH_DISTANCE) L += o->uN; /* the distance at creation */
    ext[GRIT_CPM_X_PAIR] = k;
    ext[GRIT_CPM_X_COHESIVE] = cohesive;
    ext[GRIT_CPM_X_L] = L;
    grit_cpm_state st;
    grit_cpm_state_init(&st, cohesive);
    memcpy(ext + GRIT_CPM_X_STATE, &st, sizeof st);
    /* stiffnesses for the time step, the tester and the output: the law
     * itself works with the moduli */
    p->kn = P->kN * cold->area / L;
    p->kt = P->kT * cold->area / L;
    p->tan_phi = P->tan_phi;
    p->cn = 0.0;
    p->f = v3_zero();
    p->t = v3_zero();
}
