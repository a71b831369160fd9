/* grit: how far a packing is from static equilibrium -- the unbalanced force
 * ratio, the measure Yade users stop a settling run on (unbalancedForce). */
#include <math.h>

#include "core/scene_impl.h"

double grit_unbalanced_force(const grit_scene *s)
{
    double fc = 0;
    long nc = 0;
    int cursor = 0;
    grit_contact_info c;
    while (grit_contact_next(s, &cursor, &c)) {
        fc += v3_norm(c.force_global);
        nc++;
    }
    /* between steps a particle's force is the sum of the last contact loop
     * and its gravity: its net force; particles held in place (walls) take
     * reactions, not part of the balance; a clump member's force is part of
     * its body's */
    double fp = 0;
    long n = 0;
    for (int i = 0; i < s->b.n; i++) {
        if ((s->b.flags[i] & GRIT_BLOCK_ALL) == GRIT_BLOCK_ALL || (s->b.flags[i] & PF_MEMBER)) continue;
        fp += v3_norm(s->b.ft[i].f);
        n++;
    }
    /* a cloud in which a few particles collide is no packing: its ratio is
     * small (the free fall's m g against the impacts' forces) and says
     * nothing of rest */
    if (nc == 0 || nc < n || !(fc > 0)) return NAN;
    return (fp / (double)n) / (fc / (double)nc);
}
