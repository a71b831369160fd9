/* grit: diagnostics of Kuhn's law over a scene's contacts. */
#include "contact/contact_loop.h"
#include "law2/kuhn.h"

int grit_kuhn_status_counts(const grit_scene *s, int counts[GRIT_KUHN_STATUS_COUNT])
{
    bool any = false;
    for (int k = 0; k < s->pair_table_n * s->pair_table_n; k++)
        any |= s->pair_table[k].phys != GRIT_PHYS_NONE && s->pair_table[k].law == GRIT_LAW_KUHN;
    if (!any || s->c.ext_n < GRIT_KUHN_EXT_N)
        return grit_fail((grit_scene *)s, GRIT_ESTATE,
                         "grit_kuhn_status_counts: no pair of the scene's materials uses Kuhn's law");
    for (int q = 0; q < GRIT_KUHN_STATUS_COUNT; q++) counts[q] = 0;
    int n = 0;
    for (int k = 0; k < s->c.n; k++) {
        if (!(s->c.pair[k].flags & CF_REAL) || s->c.pair[k].law != GRIT_LAW_KUHN) continue;
        const double st = s->c.ext[(size_t)k * (size_t)s->c.ext_n + GRIT_KUHN_X_STATUS];
        if (st >= 0 && st < GRIT_KUHN_STATUS_COUNT) { /* NaN: no step of this law yet */
            counts[(int)st]++;
            n++;
        }
    }
    return n;
}
