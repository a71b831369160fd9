/* grit: the table of shape classes, indexed by grit_shape_type, and helpers
 * shared by the shape files. */
#include "shape/shape.h"

#include "core/storage.h"
#include "grit/shapes.h"

const grit_shape_class *const grit_shape_classes[GRIT_SHAPE_COUNT] = {
#define CLASS(U, l) [GRIT_SHAPE_##U] = &grit_shape_##l##_class,
    GRIT_SHAPES(CLASS)
#undef CLASS
};

int grit_shape_check_angvel(grit_scene *s, int i, grit_vec3 w)
{
    if (s->b.shape[i] != GRIT_SHAPE_INFCYLINDER) return 0;
    int ax = s->infcyls[s->b.sidx[i]].axis;
    grit_vec3 off = w;
    v3_set(&off, ax, 0.0);
    if (v3_norm(off) > 1e-12 * v3_norm(w))
        return grit_fail(s, GRIT_EINVAL,
                         "particle %d: an infinite cylinder (axis %d) may only rotate about its axis; angular velocity "
                         "(%g, %g, %g) has components across it",
                         s->b.id[i], ax, w.x, w.y, w.z);
    return 0;
}

int grit_shape_check_ori(grit_scene *s, const char *what, grit_quat q, grit_quat *out)
{
    double n = q_norm(q);
    if (!isfinite(n) || !(n > 1e-12))
        return grit_fail(s, GRIT_EINVAL, "%s: orientation (%g, %g, %g, %g) must be a finite nonzero quaternion", what, q.w,
                         q.x, q.y, q.z);
    *out = q_normalized(q);
    return 0;
}

int grit_shape_reserve(grit_scene *s, void **arr, size_t elem, int n, int *cap, const char *what)
{
    if (n < *cap) return 0;
    int c = *cap ? 2 * *cap : 16;
    if (grit_grow(arr, elem, c)) return grit_fail(s, GRIT_ENOMEM, "out of memory adding a %s", what);
    *cap = c;
    return 0;
}

unsigned grit_inertia_flags(grit_vec3 I)
{
    double lo = fmin(I.x, fmin(I.y, I.z)), hi = fmax(I.x, fmax(I.y, I.z));
    return hi - lo > 1e-12 * hi ? PF_ASPHERICAL : 0u;
}

const char *grit_shape_name(int type)
{
    return type >= 0 && type < GRIT_SHAPE_COUNT ? grit_shape_classes[type]->name : NULL;
}

int grit_get_facet(const grit_scene *s, int id, grit_vec3 v[3], double *half_thick)
{
    int i = grit_idx(s, id);
    if (i < 0 || s->b.shape[i] != GRIT_SHAPE_FACET)
        return grit_fail((grit_scene *)s, GRIT_EINVAL, "particle id %d is not a facet", id);
    const grit_facet_data *f = &s->facets[s->b.sidx[i]];
    if (v)
        for (int k = 0; k < 3; k++) v[k] = f->v[k];
    if (half_thick) *half_thick = f->half_thick;
    return GRIT_OK;
}

int grit_get_wall(const grit_scene *s, int id, int *axis, int *sense)
{
    int i = grit_idx(s, id);
    if (i < 0 || s->b.shape[i] != GRIT_SHAPE_WALL)
        return grit_fail((grit_scene *)s, GRIT_EINVAL, "particle id %d is not a wall", id);
    const grit_wall_data *w = &s->walls[s->b.sidx[i]];
    if (axis) *axis = w->axis;
    if (sense) *sense = w->sense;
    return GRIT_OK;
}
