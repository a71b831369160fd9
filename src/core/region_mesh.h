/* grit internal: a closed triangle mesh as the region of an inlet or an
 * outlet (GRIT_REGION_MESH, docs/inlets.md and docs/outlets.md). The
 * region owns a copy of the triangles (the definition's `tri` points to it
 * once added) and the solid built from them, which answers whether a ball
 * lies entirely inside (pack/stl_solid.c: winding number, search grid). */
#ifndef GRIT_CORE_REGION_MESH_H
#define GRIT_CORE_REGION_MESH_H

#include "grit/scene.h"

struct pack_mesh;

typedef struct grit_region_mesh {
    grit_vec3 (*tri)[3];
    int n;
    struct pack_mesh *solid;
} grit_region_mesh;

/* Copy n triangles and build the solid: GRIT_OK, or a negative grit_status
 * (not closed, no volume, not finite, out of memory) with the scene's error
 * naming `who`, *out untouched. */
int grit_region_mesh_make(grit_scene *s, const char *who, const grit_vec3 (*tri)[3], int n, grit_region_mesh *out);
void grit_region_mesh_free(grit_region_mesh *m);
/* non-zero when the ball (c, r) lies entirely inside; r = 0: the point */
int grit_region_mesh_contains(const grit_region_mesh *m, grit_vec3 c, double r);
void grit_region_mesh_bounds(const grit_region_mesh *m, grit_vec3 *lo, grit_vec3 *hi);

#endif
