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

#endif
