/* grit: the physics functors run again on the contacts that exist (Woo's
 * ContactLoop.updatePhys): after grit_set_pair has changed the stiffness,
 * friction or damping of a pair of materials, the contacts already made
 * take the new values too, not only the ones made from now on. The usual
 * use: compact an assembly without friction, then switch friction on. */
#include "cp2/cp2.h"
#include "grit/law.h"

int grit_contacts_update_physics(grit_scene *s)
{
    grit_contacts *C = &s->c;
    int n = 0;
    for (int k = 0; k < C->n; k++) {
        const grit_pair *pp = &C->pair[k];
        /* Only FrictPhys: a concrete contact's constants are part of its
         * damage history, and a Hertz contact's follow from its overlap */
        if (!(pp->flags & CF_REAL) || grit_law_phys(pp->law) != GRIT_PHYS_FRICTPHYS) continue;
        grit_frictphys p;
        grit_cp2_frictphys(s, s->b.mat[pp->a], s->b.mat[pp->b], &C->cold[k], &p);
        grit_frictphys *q = &C->phys[k];
        q->kn = p.kn; /* the force and the law's state stay: the law applies the new */
        q->kt = p.kt; /* limit and stiffnesses from the next step on */
        q->tan_phi = p.tan_phi;
        q->cn = p.cn;
        n++;
    }
    return n;
}
