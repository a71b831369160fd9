/* grit: the Ellipsoid shape (semi-axes along the local axes, spec 2.1).
 * posr.r holds the smallest semi-axis (the p-wave radius). */
#include "material/material.h"
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

/* The contacts of an ellipsoid (semi-axes a, inertia I, mass m) at its
 * surface point p (body axes), normal n: effective mass m_eff(p) = 1 / (1/m
 * + sum_k (p x n)_k^2 / I_k) and lever rho = |p|, from which a contact's
 * stiffness grows (k_n <= E pi rho / 2, a wall's: lens (rho, rho)).
 * Returns min m_eff and min m_eff / rho over the surface, found on a grid of
 * one octant (the terms are even in each coordinate) refined three times
 * around its best point: to about 1e-4, well within the time step's
 * margin. */
static void ellipsoid_contact_extremes(grit_vec3 a, grit_massi mi, double *meff_min, double *ratio_min)
{
    double best[2] = {INFINITY, INFINITY}, at[2][2] = {{0, 0}, {0, 0}};
    double span = 0.5 * M_PI;
    for (int round = 0; round < 4; round++) {
        const int n = round ? 6 : 12;
        double c[2][2] = {{at[0][0], at[0][1]}, {at[1][0], at[1][1]}};
        for (int which = 0; which < 2; which++)
            for (int u = 0; u <= n; u++)
                for (int v = 0; v <= n; v++) {
                    double th = round ? c[which][0] + span * (2.0 * u / n - 1) : span * u / n;
                    double ph = round ? c[which][1] + span * (2.0 * v / n - 1) : span * v / n;
                    th = clamp(th, 0, 0.5 * M_PI), ph = clamp(ph, 0, 0.5 * M_PI);
                    grit_vec3 p = v3(a.x * sin(th) * cos(ph), a.y * sin(th) * sin(ph), a.z * cos(th));
                    grit_vec3 nn = v3_normalized(v3(p.x / (a.x * a.x), p.y / (a.y * a.y), p.z / (a.z * a.z)));
                    grit_vec3 w = v3_cross(p, nn);
                    double meff = 1.0 / (1.0 / mi.m + w.x * w.x / mi.inertia.x + w.y * w.y / mi.inertia.y +
                                         w.z * w.z / mi.inertia.z);
                    double q = which ? meff / v3_norm(p) : meff;
                    if (q < best[which]) best[which] = q, at[which][0] = th, at[which][1] = ph;
                }
        span = round ? 0.25 * span : span / 12;
    }
    *meff_min = best[0];
    *ratio_min = best[1];
}

/* Both extremes scale with the size: min m_eff = m f and min m_eff / rho =
 * m g / c for semi-axes a = c (x, y, 1), f and g functions of (x, y) alone
 * (I = m (b^2 + c^2) / 5, ...). The last 16 shapes are remembered (per
 * thread: scenes may step in parallel threads; x = 0 never occurs, so the
 * zeroed entries never match): 20000 ellipsoids of 7 shapes take a few ms,
 * not 0.35 s. */
static void ellipsoid_ratios(grit_vec3 a, double *f, double *g)
{
    enum { N = 16 };
    static _Thread_local struct {
        double x, y, f, g;
    } memo[N];
    static _Thread_local int next = 0;
    const double x = a.x / a.z, y = a.y / a.z;
    for (int k = 0; k < N; k++)
        if (memo[k].x == x && memo[k].y == y) {
            *f = memo[k].f;
            *g = memo[k].g;
            return;
        }
    const grit_massi unit = {1.0, v3((y * y + 1) / 5, (1 + x * x) / 5, (x * x + y * y) / 5)};
    ellipsoid_contact_extremes(v3(x, y, 1.0), unit, f, g);
    memo[next].x = x, memo[next].y = y, memo[next].f = *f, memo[next].g = *g;
    next = (next + 1) % N;
}

static double ellipsoid_eff_mass(const grit_scene *s, int i)
{
    double f, g;
    ellipsoid_ratios(s->ellipsoids[s->b.sidx[i]].semi, &f, &g);
    return s->b.mi[i].m * f;
}

/* The spec's smallest semi-axis, or less: rp^2 = 3 min(m_eff / rho) / (4 pi
 * density), the sphere with the same stiffness to mass ratio (timestep.c).
 * Elongated ellipsoids need it: 0.75 c for (2, 1, 1) c, 0.61 c for
 * (3, 1, 1), 0.46 c for (10, 1, 1); flat and nearly round ones keep c. With
 * 3 / (4 pi density) = a b c / m and min(m_eff / rho) = m g / c:
 * rp = c sqrt(x y g). */
static double ellipsoid_pwave_radius(const grit_scene *s, int i)
{
    const grit_vec3 a = s->ellipsoids[s->b.sidx[i]].semi;
    double f, g;
    ellipsoid_ratios(a, &f, &g);
    return fmin(s->b.pr[i].r, a.z * sqrt(a.x / a.z * a.y / a.z * g));
}

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
    .eff_mass = ellipsoid_eff_mass,
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
    double m = 4.0 / 3.0 * M_PI * a.x * a.y * a.z * grit_material_frict(s, d->material).density;
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
