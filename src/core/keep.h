/* grit internal: memory that a binding keeps alive (arrays.h,
 * grit_array_retain).
 *
 * A binding's view of a particle or contact array holds a reference to the
 * array's block. While a block is referenced the engine never frees it:
 * freeing it (at a reallocation, a change of the law state's width, or when
 * the scene is destroyed) only marks it orphaned, and growing it allocates a
 * new block and copies instead of calling realloc (which may free the old
 * one). The last grit_array_release frees an orphaned block. Every free or
 * reallocation of an array that grit_array_get can return goes through
 * grit_keep_free or grit_keep_realloc; with no block referenced (the usual
 * case) they cost one atomic load more than free and realloc. */
#ifndef GRIT_KEEP_H
#define GRIT_KEEP_H

#include <stddef.h>

void grit_keep_free(void *p);
void *grit_keep_realloc(void *p, size_t n);
/* Take a reference to block p of `size` bytes (bytes valid behind p).
 * 0, or -1 out of memory. */
int grit_keep_retain(void *p, size_t size);

#endif
