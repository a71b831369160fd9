/* grit internal: invariant checks of a whole scene (core/validate.c). */
#ifndef GRIT_VALIDATE_H
#define GRIT_VALIDATE_H

#include <stddef.h>

#include "core/scene_impl.h"

/* 0, or -1 with the first broken invariant in err. */
int grit_scene_validate(const grit_scene *s, char *err, size_t len);

#endif
