/* grit internal: growth and copying of the packed particle and contact
 * arrays. */
#ifndef GRIT_STORAGE_H
#define GRIT_STORAGE_H

#include "core/scene_impl.h"

int grit_grow(void **p, size_t elem, int cap);
int grit_grow_aligned(void **p, size_t elem, int old, int cap);
int grit_bodies_reserve(grit_bodies *b, int cap);
void grit_bodies_free(grit_bodies *b);
/* Row `from` of every particle array copied to row `to`. */
void grit_bodies_move(grit_bodies *b, int to, int from);
int grit_contacts_reserve(grit_contacts *c, int cap);
void grit_contacts_free(grit_contacts *c);
/* Change the ext doubles per contact (a law with more state came into use):
 * ext is reallocated for the capacity; every contact keeps its first
 * doubles, the new ones are NaN, which a law reads as "no state of mine
 * yet". */
int grit_contacts_set_ext_n(grit_contacts *c, int n);
/* dst[i] = src[j], all arrays */
void grit_contacts_copy(grit_contacts *dst, int i, const grit_contacts *src, int j);

/* Append a particle slot of `shape` with data index sidx; fills the common
 * fields (infinite mass, identity orientation, no flags). Returns the
 * internal index or a negative status (nothing changed). */
/* Room for `more` particles (arrays and id map), so that adding them
 * allocates nothing: a loader that adds many reserves first and cannot fail
 * half-way. GRIT_OK or GRIT_ENOMEM/GRIT_EINVAL, nothing changed. */
int grit_reserve_bodies(grit_scene *s, int more);
int grit_append_body(grit_scene *s, grit_shape_type shape, int sidx, int mat, uint32_t mask);
/* 0 if material `mat` exists, else GRIT_EINVAL with a message naming `what`. */
int grit_check_material(grit_scene *s, const char *what, int mat);
/* Run the inlets (core/inlet.c): insert what their rates ask for by now. */
int grit_inlets_run(grit_scene *s);
/* Run the outlets (core/outlet.c): at the first step after each broad-phase
 * rebuild, delete the particles inside them. */
int grit_outlets_run(grit_scene *s);

#endif
