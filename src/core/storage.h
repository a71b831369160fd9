/* grit internal: growth and copying of the packed particle and contact
 * arrays. */
#ifndef GRIT_STORAGE_H
#define GRIT_STORAGE_H

#include "core/scene_impl.h"

int grit_grow(void **p, size_t elem, int cap);
int grit_grow_aligned(void **p, size_t elem, int old, int cap);
int grit_bodies_reserve(grit_bodies *b, int cap);
void grit_bodies_free(grit_bodies *b);
int grit_contacts_reserve(grit_contacts *c, int cap);
void grit_contacts_free(grit_contacts *c);
/* dst[i] = src[j], all arrays */
void grit_contacts_copy(grit_contacts *dst, int i, const grit_contacts *src, int j);

#endif
