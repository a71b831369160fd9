/* grit internal: the energy book of a scene spread over MPI ranks
 * (core/energy.c, docs/parallel.md). Every rank holds the whole book; during
 * a step each books only its share (its own particles, and the contacts
 * whose moving end of lowest id it owns: each contact computed on two ranks
 * is booked once), from zero; at the step's end the MPI layer sums the
 * shares over the ranks and closes the step with the sums. */
#ifndef GRIT_ENERGY_SHARE_H
#define GRIT_ENERGY_SHARE_H

#include "core/scene_impl.h"

/* The start of a step: the book kept aside, this rank's share from zero. */
void grit_energy_share_open(grit_scene *s);
/* The step's end: sum[GRIT_E_COUNT] the shares summed over the ranks (the
 * same on every rank), or NULL if the step failed (the book of before it).
 * Sets the initial total after the first step and checks the balance
 * (max_energy_error): GRIT_OK or the blow-up's error. */
int grit_energy_share_close(grit_scene *s, const double *sum);

/* Does this rank book contact p's energy? On one process every contact; on
 * a rank, not a contact whose moving end of lowest id is a ghost (that
 * end's owner computes the same contact and books it). */
static inline bool grit_energy_books_contact(const grit_scene *s, const grit_pair *p)
{
    const uint16_t fa = s->b.flags[p->a], fb = s->b.flags[p->b];
    if (!((fa | fb) & PF_GHOST)) return true;
    /* (a rank makes no contact of two ghosts, nor of a ghost and a shared
     * particle: the other end is its own) */
    const int g = (fa & PF_GHOST) ? p->a : p->b, o = g == p->a ? p->b : p->a;
    return s->b.id[o] < s->b.id[g];
}

#endif
