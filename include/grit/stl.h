/* grit: triangle meshes from STL files (ASCII or binary, detected from the
 * content) loaded as facets -- silos, drums, hoppers. See docs/shapes.md. */
#ifndef GRIT_STL_H
#define GRIT_STL_H

#include "grit/scene.h"
#include "grit/export.h"

GRIT_BEGIN_DECLS

/* Placement and properties of the loaded facets. Each vertex p of the file
 * becomes shift + R(ori) (scale p). */
typedef struct grit_stl_def {
    int material;
    double half_thick; /* facet half-thickness (m), >= 0 */
    double scale;      /* file units -> m, > 0 (e.g. 1e-3 for a file in mm) */
    grit_quat ori;     /* rotation applied after scaling (normalised) */
    grit_vec3 shift;   /* translation applied last */
    grit_vec3 vel;     /* imposed velocity of every facet */
    uint32_t mask;
} grit_stl_def;
grit_stl_def grit_default_stl_def(void);

typedef struct grit_stl_info {
    int first_id;     /* the facets have consecutive ids from this one (-1 if none) */
    int n_facets;     /* facets added */
    int n_degenerate; /* zero-area triangles (collinear vertices) skipped */
    int binary;       /* 1: binary STL, 0: ASCII */
    char name[81];    /* ASCII solid name or binary header text */
} grit_stl_info;

/* Load every triangle of the file as a facet. Degenerate triangles are
 * skipped and counted (info->n_degenerate), not an error. Returns the
 * number of facets added (>= 0) or a negative grit_status: GRIT_EIO (file
 * cannot be read), GRIT_EFORMAT (malformed: the message names the file, the
 * line or facet index and the offending value), GRIT_EINVAL (bad def); on
 * error nothing is added. `info` may be NULL. */
int grit_load_stl(grit_scene *s, const char *path, const grit_stl_def *def, grit_stl_info *info);

/* The triangles of an STL file without a scene (e.g. to test points against
 * a closed solid, include/grit/pack.h). Each vertex p becomes shift +
 * R(ori) (scale p); every triangle is kept, degenerate ones counted. */
typedef struct grit_stl_mesh {
    int n;               /* triangles */
    grit_vec3 (*tri)[3]; /* their vertices, placed */
    int n_degenerate;    /* zero-area triangles among them */
    int binary;          /* 1: binary STL, 0: ASCII */
    char name[81];
} grit_stl_mesh;

/* Returns GRIT_OK or a negative grit_status with the message of
 * grit_load_stl in err; on error *mesh is untouched. */
int grit_stl_read(const char *path, double scale, grit_quat ori, grit_vec3 shift, grit_stl_mesh *mesh, char *err,
                  size_t errlen);
void grit_stl_mesh_free(grit_stl_mesh *mesh);

GRIT_END_DECLS

#endif
