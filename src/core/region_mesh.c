/* grit: closed triangle meshes as inlet and outlet regions (core/region_mesh.h). */
#include <stdlib.h>
#include <string.h>

#include "core/region_mesh.h"
#include "core/storage.h"
#include "pack/pack_impl.h"

int grit_region_mesh_make(grit_scene *s, const char *who, const grit_vec3 (*tri)[3], int n, grit_region_mesh *out)
{
    if (!tri || n < 4)
        return grit_fail(s, GRIT_EINVAL, "%s: a mesh region needs the triangles of a closed surface (n_tri = %d)", who,
                         n);
    for (int t = 0; t < n; t++)
        for (int k = 0; k < 3; k++)
            if (!v3_isfinite(tri[t][k]))
                return grit_fail(s, GRIT_EINVAL, "%s: triangle %d, vertex %d is not finite", who, t, k);
    grit_vec3(*copy)[3] = malloc(sizeof *copy * (size_t)n);
    if (!copy) return grit_fail(s, GRIT_ENOMEM, "%s: out of memory for %d triangles", who, n);
    memcpy(copy, tri, sizeof *copy * (size_t)n);
    char err[400], what[64];
    snprintf(what, sizeof what, "%s: the mesh", who);
    int rc;
    struct pack_mesh *solid = pack_mesh_from_triangles((const grit_vec3(*)[3])copy, n, what, &rc, err, sizeof err);
    if (!solid) {
        free(copy);
        return grit_fail(s, rc == GRIT_ENOMEM ? GRIT_ENOMEM : GRIT_EINVAL, "%s", err);
    }
    *out = (grit_region_mesh){copy, n, solid};
    return GRIT_OK;
}

void grit_region_mesh_free(grit_region_mesh *m)
{
    free(m->tri);
    pack_mesh_free(m->solid);
    *m = (grit_region_mesh){0};
}

int grit_region_mesh_contains(const grit_region_mesh *m, grit_vec3 c, double r)
{
    return pack_mesh_contains(m->solid, c, r);
}

void grit_region_mesh_bounds(const grit_region_mesh *m, grit_vec3 *lo, grit_vec3 *hi)
{
    pack_mesh_bounds(m->solid, lo, hi);
}
