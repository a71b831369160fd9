/* grit internal: every particle's list of its contacts in the blocks, in
 * contact order (the contact loop's force gather walks it). */
#ifndef GRIT_CONTACT_ADJACENCY_H
#define GRIT_CONTACT_ADJACENCY_H

#include "core/scene_impl.h"

/* Make the lists again if they do not describe the blocks and particles of
 * now (after a rebuild, a re-sort or a restart load); 0, or -1 when out of
 * memory. The broad phase calls it, so that its time is the broad phase's,
 * whose rebuild is what makes it stale. */
int grit_adjacency_update(grit_scene *s);

/* id_order: the key by which a particle adds its contacts, of its slot e
 * (2 k + 1 if it is contact k's B): the partner's id, the geometry kind,
 * the partner's periodic image as this particle sees it (B's from A, the
 * negated one from B). */
static inline uint64_t grit_adjacency_key(const grit_scene *s, int32_t e)
{
    const grit_pair *p = &s->c.pair[e >> 1];
    const int other = (e & 1) ? p->a : p->b;
    const int sg = (e & 1) ? -1 : 1;
    uint64_t img = 0;
    for (int d = 0; d < 3; d++) img = (img << 8) | (uint8_t)(int8_t)(sg * p->cell[d]);
    return ((uint64_t)(uint32_t)s->b.id[other] << 32) | ((uint64_t)p->kind << 24) | img;
}

/* id_order: the slots of the contacts created since the lists were made
 * (contacts [adj_n, n)), sorted by particle and key into extra, with
 * extra_first[i] the first of particle i's (-1: none); n_extra 0 when there
 * are none. 0, or -1 out of memory. */
int grit_adjacency_extras(grit_scene *s);

#endif
