/* grit internal: deleting particles (core/delete.c). */
#ifndef GRIT_DELETE_H
#define GRIT_DELETE_H

#include "core/scene_impl.h"

/* Delete the particles i with mark[i] != 0 (mark m attributes them to
 * energy[m - 1], which gets the energy that leaves with them when the scene
 * tracks energy). Aperiodic scenes; between steps. */
int grit_delete_marked(grit_scene *s, const int *mark, double *energy);

#endif
