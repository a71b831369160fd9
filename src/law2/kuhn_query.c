/* grit: diagnostics of Kuhn's law over a scene's contacts. */
#include "contact/contact_loop.h"
#include "law2/kuhn.h"

int grit_kuhn_status_counts(const grit_scene *s, int counts[GRIT_KUHN_STATUS_COUNT])
{
    if (s->def.law != GRIT_LAW_KUHN || s->c.ext_n != GRIT_KUHN_EXT_N)
        return grit_fail((grit_scene *)s, GRIT_ESTATE, "grit_kuhn_status_counts: the scene's law is not kuhn");
    for (int q = 0; q < GRIT_KUHN_STATUS_COUNT; q++) counts[q] = 0;
    int n = 0;
    for (int k = 0; k < s->c.n; k++) {
        if (!(s->c.pair[k].flags & CF_REAL)) continue;
        const double st = s->c.ext[(size_t)k * GRIT_KUHN_EXT_N + GRIT_KUHN_X_STATUS];
        if (st >= 0 && st < GRIT_KUHN_STATUS_COUNT) { /* NaN: no step of this law yet */
            counts[(int)st]++;
            n++;
        }
    }
    return n;
}
