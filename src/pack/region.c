/* grit: regions a packing is cut to -- whether a sphere lies entirely
 * inside a cuboid, a cylinder, a hyperboloid of revolution, a closed STL
 * solid (stl_solid.c) or a user's predicate.
 *
 * The hyperboloid of one sheet about the axis, with waist radius a at
 * mid-length and radius R at the ends z = +-L/2, has the radius profile
 *   rho(z) = sqrt(a^2 + (R^2 - a^2) (2 z / L)^2),
 * and is closed by the planes z = +-L/2. A sphere is inside when it lies
 * between the planes and its centre is at least its radius from the curved
 * surface. The nearest point of a surface of revolution lies in the
 * meridian half-plane of the centre, where the outside {rho >= rho(z)} is
 * convex (rho(z) is convex): from a point inside exactly one normal of the
 * profile passes through it, so the squared distance along the profile has
 * a single minimum, found by bisection on its derivative. */
#include <stdlib.h>
#include <string.h>

#include "pack/pack_impl.h"

enum { REGION_PREDICATE = 100 };

struct grit_region {
    int shape;
    grit_vec3 lo, hi; /* bounding box */
    grit_vec3 center, axis;
    double half_len, R, a, k2; /* k2 = (R^2 - a^2) (2 / L)^2 */
    double volume;
    grit_region_fn fn;
    void *data;
    pack_mesh *mesh;
    char desc[1024];
};

static void vec_text(grit_vec3 v, char *buf, size_t len)
{
    char a[32], b[32], c[32];
    pack_exact(v.x, a, sizeof a), pack_exact(v.y, b, sizeof b), pack_exact(v.z, c, sizeof c);
    snprintf(buf, len, "%s,%s,%s", a, b, c);
}

/* Bounding box of a solid of revolution of radius R, half-length h. */
static void revolution_box(grit_region *g)
{
    const double u[3] = {g->axis.x, g->axis.y, g->axis.z}, c[3] = {g->center.x, g->center.y, g->center.z};
    double lo[3], hi[3];
    for (int k = 0; k < 3; k++) {
        const double e = g->half_len * fabs(u[k]) + g->R * sqrt(fmax(0.0, 1 - u[k] * u[k]));
        lo[k] = c[k] - e;
        hi[k] = c[k] + e;
    }
    g->lo = v3(lo[0], lo[1], lo[2]);
    g->hi = v3(hi[0], hi[1], hi[2]);
}

int grit_region_create(const grit_clip_def *def, const char *stl_path, grit_region **out, char *err, size_t errlen)
{
    if (grit_param_validate(&grit_clip_param_table, def, err, errlen)) return GRIT_EINVAL;
    grit_region *g = calloc(1, sizeof *g);
    if (!g) return pack_fail(err, errlen, GRIT_ENOMEM, "region: out of memory");
    g->shape = def->shape;
    int rc = GRIT_EINVAL;
    char t[3][100];
    switch (def->shape) {
    case GRIT_CLIP_NONE:
        pack_fail(err, errlen, GRIT_EINVAL, "parameter 'shape' = none: no region to cut the packing to");
        goto fail;
    case GRIT_CLIP_CUBOID: {
        const grit_vec3 lo = def->lo, hi = def->hi;
        if (!(hi.x > lo.x && hi.y > lo.y && hi.z > lo.z)) {
            vec_text(lo, t[0], sizeof t[0]), vec_text(hi, t[1], sizeof t[1]);
            pack_fail(err, errlen, GRIT_EINVAL, "parameter 'hi' = %s must exceed lo = %s on every axis (m)", t[1], t[0]);
            goto fail;
        }
        g->lo = lo, g->hi = hi;
        g->volume = (hi.x - lo.x) * (hi.y - lo.y) * (hi.z - lo.z);
        vec_text(lo, t[0], sizeof t[0]), vec_text(hi, t[1], sizeof t[1]);
        snprintf(g->desc, sizeof g->desc, "shape=cuboid lo=%s hi=%s", t[0], t[1]);
        *out = g;
        return GRIT_OK;
    }
    case GRIT_CLIP_CYLINDER:
    case GRIT_CLIP_HYPERBOLOID: {
        const double n = v3_norm(def->axis);
        if (!(n > 0)) {
            pack_fail(err, errlen, GRIT_EINVAL, "parameter 'axis' = 0,0,0: the axis needs a direction");
            goto fail;
        }
        const bool hyp = def->shape == GRIT_CLIP_HYPERBOLOID;
        if (hyp && def->waist_radius > def->outer_radius) {
            pack_fail(err, errlen, GRIT_EINVAL,
                      "parameter 'waist_radius' = %g is out of range: must be at most outer_radius = %g (m)",
                      def->waist_radius, def->outer_radius);
            goto fail;
        }
        g->axis = v3_scale(def->axis, 1 / n);
        g->center = def->center;
        g->half_len = def->length / 2;
        g->R = def->outer_radius;
        g->a = hyp ? def->waist_radius : def->outer_radius;
        g->k2 = (g->R * g->R - g->a * g->a) / (g->half_len * g->half_len);
        g->volume = M_PI * def->length * (hyp ? g->a * g->a + (g->R * g->R - g->a * g->a) / 3 : g->R * g->R);
        revolution_box(g);
        char L[32], R[32], a[32];
        vec_text(g->center, t[0], sizeof t[0]), vec_text(g->axis, t[1], sizeof t[1]);
        pack_exact(def->length, L, sizeof L), pack_exact(g->R, R, sizeof R), pack_exact(g->a, a, sizeof a);
        if (hyp)
            snprintf(g->desc, sizeof g->desc,
                     "shape=hyperboloid center=%s axis=%s length=%s outer_radius=%s waist_radius=%s", t[0], t[1], L, R,
                     a);
        else
            snprintf(g->desc, sizeof g->desc, "shape=cylinder center=%s axis=%s length=%s outer_radius=%s", t[0], t[1],
                     L, R);
        *out = g;
        return GRIT_OK;
    }
    case GRIT_CLIP_STL: {
        if (!stl_path || !*stl_path) {
            pack_fail(err, errlen, GRIT_EINVAL, "shape=stl needs the STL file of the solid (stl=FILE)");
            goto fail;
        }
        if (!(g->mesh = pack_mesh_load(stl_path, def->stl_scale, def->stl_shift, &rc, err, errlen))) goto fail;
        pack_mesh_bounds(g->mesh, &g->lo, &g->hi);
        g->volume = pack_mesh_volume(g->mesh);
        char sc[32];
        pack_exact(def->stl_scale, sc, sizeof sc), vec_text(def->stl_shift, t[0], sizeof t[0]);
        snprintf(g->desc, sizeof g->desc, "shape=stl stl=%.700s stl_scale=%s stl_shift=%s triangles=%d", stl_path, sc,
                 t[0], pack_mesh_triangles(g->mesh));
        *out = g;
        return GRIT_OK;
    }
    }
    pack_fail(err, errlen, GRIT_EINVAL, "parameter 'shape' = %d is not a shape", def->shape);
fail:
    free(g);
    return rc;
}

int grit_region_predicate(grit_region_fn fn, void *data, grit_vec3 lo, grit_vec3 hi, double volume, grit_region **out,
                          char *err, size_t errlen)
{
    char a[100], b[100];
    vec_text(lo, a, sizeof a), vec_text(hi, b, sizeof b);
    if (!fn) return pack_fail(err, errlen, GRIT_EINVAL, "region: the predicate is NULL");
    if (!v3_isfinite(lo) || !v3_isfinite(hi) || !(hi.x > lo.x && hi.y > lo.y && hi.z > lo.z))
        return pack_fail(err, errlen, GRIT_EINVAL, "region: the bounds hi = %s must be finite and exceed lo = %s", b, a);
    if (!isnan(volume) && !(volume > 0 && isfinite(volume)))
        return pack_fail(err, errlen, GRIT_EINVAL, "region: volume = %g must be positive and finite, or nan (unknown)",
                         volume);
    grit_region *g = calloc(1, sizeof *g);
    if (!g) return pack_fail(err, errlen, GRIT_ENOMEM, "region: out of memory");
    g->shape = REGION_PREDICATE;
    g->fn = fn, g->data = data, g->lo = lo, g->hi = hi, g->volume = volume;
    snprintf(g->desc, sizeof g->desc, "shape=predicate lo=%s hi=%s", a, b);
    *out = g;
    return GRIT_OK;
}

void grit_region_destroy(grit_region *g)
{
    if (!g) return;
    pack_mesh_free(g->mesh);
    free(g);
}

double grit_region_volume(const grit_region *g) { return g->volume; }
const char *grit_region_describe(const grit_region *g) { return g->desc; }

void grit_region_bounds(const grit_region *g, grit_vec3 *lo, grit_vec3 *hi)
{
    if (lo) *lo = g->lo;
    if (hi) *hi = g->hi;
}

/* Distance from the meridian point (t, rho0), inside, to the profile. */
static double hyperboloid_distance(const grit_region *g, double t, double rho0)
{
    const double a2 = g->a * g->a, k2 = g->k2;
    const double d0 = sqrt(a2 + k2 * t * t) - rho0; /* straight out: an upper bound */
    double lo = t - d0, hi = t + d0;
    for (int it = 0; it < 200 && hi - lo > 1e-15 * (fabs(lo) + fabs(hi) + g->R); it++) {
        const double z = 0.5 * (lo + hi), h = sqrt(a2 + k2 * z * z);
        const double slope = (z - t) + (h - rho0) * k2 * z / h; /* half the derivative of the distance squared */
        if (slope > 0) hi = z;
        else lo = z;
    }
    const double z = 0.5 * (lo + hi), h = sqrt(a2 + k2 * z * z);
    return sqrt((z - t) * (z - t) + (h - rho0) * (h - rho0));
}

int grit_region_contains(const grit_region *g, grit_vec3 c, double r)
{
    if (c.x - r < g->lo.x || c.y - r < g->lo.y || c.z - r < g->lo.z || c.x + r > g->hi.x || c.y + r > g->hi.y ||
        c.z + r > g->hi.z)
        return 0; /* outside the bounding box: outside every shape */
    switch (g->shape) {
    case GRIT_CLIP_CUBOID: return 1;
    case GRIT_CLIP_CYLINDER:
    case GRIT_CLIP_HYPERBOLOID: {
        const grit_vec3 d = v3_sub(c, g->center);
        const double t = v3_dot(d, g->axis);
        if (fabs(t) + r > g->half_len) return 0;
        const double rho = v3_norm(v3_madd(d, -t, g->axis));
        if (g->shape == GRIT_CLIP_CYLINDER || g->k2 == 0) return rho + r <= g->R;
        const double prof = sqrt(g->a * g->a + g->k2 * t * t);
        if (rho + r > prof) return 0; /* the radial distance bounds the distance from above */
        return hyperboloid_distance(g, t, rho) >= r;
    }
    case GRIT_CLIP_STL: return pack_mesh_contains(g->mesh, c, r);
    case REGION_PREDICATE: return g->fn(c, r, g->data) != 0;
    }
    return 0;
}
