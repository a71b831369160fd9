/* grit: the Ellipsoid shape (semi-axes along the local axes, spec 2.1).
 * posr.r holds the smallest semi-axis (the p-wave radius). */
#include "core/storage.h"
#include "grit/shapes.h"
#include "shape/shape.h"

/* Exact box of a rotated ellipsoid: half-extent along axis k is the norm of
 * row k of M = R diag(a). */
static grit_aabb ellipsoid_aabb(const grit_scene *s, int i)
{
    grit_mat3 M = grit_ellipsoid_matrix(s, i);
    grit_vec3 e = v3(sqrt(sq(M.c[0].x) + sq(M.c[1].x) + sq(M.c[2].x)), sqrt(sq(M.c[0].y) + sq(M.c[1].y) + sq(M.c[2].y)),
                     sqrt(sq(M.c[0].z) + sq(M.c[1].z) + sq(M.c[2].z)));
    grit_vec3 x = s->b.pr[i].pos;
    return (grit_aabb){v3_sub(x, e), v3_add(x, e)};
}

static double ellipsoid_pwave_radius(const grit_scene *s, int i) { return s->b.pr[i].r; }

static double ellipsoid_equiv_radius(const grit_scene *s, int i)
{
    grit_vec3 a = s->ellipsoids[s->b.sidx[i]].semi;
    return cbrt(a.x * a.y * a.z);
}

static double ellipsoid_rot_radius(const grit_scene *s, int i)
{
    grit_vec3 a = s->ellipsoids[s->b.sidx[i]].semi;
    return fmax(a.x, fmax(a.y, a.z));
}

const grit_shape_class grit_shape_ellipsoid_class = {
    .name = "Ellipsoid",
    .aabb = ellipsoid_aabb,
    .pwave_radius = ellipsoid_pwave_radius,
    .equiv_radius = ellipsoid_equiv_radius,
    .rot_radius = ellipsoid_rot_radius,
    .follow_node = NULL,
    .unbounded = false,
};

grit_ellipsoid_def grit_default_ellipsoid_def(void)
{
    return (grit_ellipsoid_def){.pos = v3(0, 0, 0), .vel = v3(0, 0, 0), .angvel = v3(0, 0, 0), .ori = q_identity(),
                                .semi_axes = v3(NAN, NAN, NAN), .material = 0, .blocked = 0,
                                .mask = GRIT_MASK_PARTICLE};
}

int grit_add_ellipsoid(grit_scene *s, const grit_ellipsoid_def *d)
{
    grit_vec3 a = d->semi_axes;
    if (!(a.x > 0 && a.y > 0 && a.z > 0) || !v3_isfinite(a))
        return grit_fail(s, GRIT_EINVAL, "ellipsoid: semi_axes = (%g, %g, %g) must be positive and finite (m)", a.x, a.y,
                         a.z);
    if (!v3_isfinite(d->pos) || !v3_isfinite(d->vel) || !v3_isfinite(d->angvel))
        return grit_fail(s, GRIT_EINVAL,
                         "ellipsoid: position (%g, %g, %g), velocity and angular velocity must be finite", d->pos.x,
                         d->pos.y, d->pos.z);
    if (d->blocked & ~GRIT_BLOCK_ALL)
        return grit_fail(s, GRIT_EINVAL, "ellipsoid: blocked = %u has unknown bits", d->blocked);
    grit_quat q;
    if (grit_shape_check_ori(s, "ellipsoid", d->ori, &q)) return GRIT_EINVAL;
    if (grit_check_material(s, "ellipsoid", d->material)) return GRIT_EINVAL;
    if (grit_shape_reserve(s, (void **)&s->ellipsoids, sizeof *s->ellipsoids, s->n_ellipsoids, &s->cap_ellipsoids,
                           "ellipsoid"))
        return GRIT_ENOMEM;
    int i = grit_append_body(s, GRIT_SHAPE_ELLIPSOID, s->n_ellipsoids, d->material, d->mask);
    if (i < 0) return i;
    s->ellipsoids[s->n_ellipsoids++] = (grit_ellipsoid_data){a};
    double m = 4.0 / 3.0 * M_PI * a.x * a.y * a.z * s->mats[d->material].fm.density;
    grit_vec3 I = v3_scale(v3(a.y * a.y + a.z * a.z, a.z * a.z + a.x * a.x, a.x * a.x + a.y * a.y), m / 5.0);
    grit_bodies *b = &s->b;
    b->pr[i] = (grit_posr){d->pos, fmin(a.x, fmin(a.y, a.z))};
    b->vw[i] = (grit_velw){d->vel, d->angvel, {0, 0}};
    b->ori[i] = q;
    b->mi[i] = (grit_massi){m, I};
    b->flags[i] = (uint16_t)(d->blocked | grit_inertia_flags(I));
    return b->id[i];
}

int grit_get_ellipsoid(const grit_scene *s, int id, grit_vec3 *semi_axes)
{
    int i = grit_idx(s, id);
    if (i < 0 || s->b.shape[i] != GRIT_SHAPE_ELLIPSOID)
        return grit_fail((grit_scene *)s, GRIT_EINVAL, "particle id %d is not an ellipsoid", id);
    *semi_axes = s->ellipsoids[s->b.sidx[i]].semi;
    return GRIT_OK;
}
