/* grit: the concrete model's contacts read from outside the engine
 * (grit/concrete.h). */
#include <string.h>

#include "grit/concrete.h"
#include "law2/cpm.h"

/* Internal index of the i-th real contact, or -1. */
static int real_index(const grit_scene *s, int i)
{
    for (int k = 0; k < s->c.n; k++)
        if (s->c.pair[k].flags & CF_REAL) {
            if (i == 0) return k;
            i--;
        }
    return -1;
}

void grit_concrete_state_at(const grit_scene *s, int k, grit_concrete_state *out)
{
    const double *x = s->c.ext + (size_t)k * (size_t)s->c.ext_n;
    grit_cpm_state st;
    memcpy(&st, x + GRIT_CPM_X_STATE, sizeof st);
    const double L = x[GRIT_CPM_X_L], A = s->c.cold[k].area;
    *out = (grit_concrete_state){.cohesive = x[GRIT_CPM_X_COHESIVE] != 0,
                                 .omega = st.omega,
                                 .kappa = st.kappa,
                                 .eps_n = st.epsN,
                                 .eps_n_pl = st.epsNPl,
                                 .eps_t = {st.epsT[0], st.epsT[1]},
                                 .sigma_n = st.sigmaN,
                                 .sigma_t = {st.sigmaT[0], st.sigmaT[1]},
                                 .ref_length = L,
                                 .area = A,
                                 .rel_residual_strength = st.rres,
                                 .stored_energy = st.u * A * L};
}

int grit_concrete_contact(const grit_scene *s, int i, grit_concrete_state *out)
{
    const int k = real_index(s, i);
    if (k < 0) return grit_fail((grit_scene *)s, GRIT_EINVAL, "contact %d does not exist", i);
    if (s->c.pair[k].law != GRIT_LAW_CPM)
        return grit_fail((grit_scene *)s, GRIT_ESTATE, "contact %d is under the law %s, not cpm", i,
                         grit_law_name(s->c.pair[k].law));
    grit_concrete_state_at(s, k, out);
    return GRIT_OK;
}

int grit_concrete_summarize(const grit_scene *s, grit_concrete_summary *out)
{
    memset(out, 0, sizeof *out);
    double sum = 0;
    for (int k = 0; k < s->c.n; k++) {
        if (!(s->c.pair[k].flags & CF_REAL) || s->c.pair[k].law != GRIT_LAW_CPM) continue;
        grit_concrete_state st;
        grit_concrete_state_at(s, k, &st);
        out->contacts++;
        if (!st.cohesive) continue;
        out->cohesive++;
        out->damaged += st.omega > 0;
        out->cracked += st.omega >= 0.99;
        sum += st.omega;
    }
    out->mean_omega = out->cohesive ? sum / out->cohesive : 0.0;
    out->broken = s->cpm_broken;
    return GRIT_OK;
}
