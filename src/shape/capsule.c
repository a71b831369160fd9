/* grit: the Capsule shape -- a segment of length `shaft` along local x,
 * swept by a sphere of radius r (spec 2.1). Its radius is kept in the hot
 * posr record, its shaft in s->capsules. */
#include "material/material.h"
#include "core/storage.h"
#include "grit/shapes.h"
#include "shape/shape.h"

static grit_aabb capsule_aabb(const grit_scene *s, int i)
{
    grit_posr p = s->b.pr[i];
    grit_vec3 h = v3_scale(grit_capsule_axis(s, i), grit_capsule_half(s, i));
    grit_vec3 e = v3(fabs(h.x) + p.r, fabs(h.y) + p.r, fabs(h.z) + p.r);
    return (grit_aabb){v3_sub(p.pos, e), v3_add(p.pos, e)};
}

/* A contact force across the axis at an end of the shaft turns the capsule
 * most: lever e (half shaft) about a perpendicular axis. */
static double capsule_eff_mass(const grit_scene *s, int i)
{
    const grit_massi mi = s->b.mi[i];
    const double e = grit_capsule_half(s, i);
    return mi.m / (1.0 + mi.m * e * e / mi.inertia.y);
}

/* Every contact of a capsule has k_n <= E pi r / 2 (a wall's, lens (r, r));
 * the sphere of radius rp has k_n / m = 3 E / (8 rho rp^2), so rp^2 =
 * 3 m_eff / (4 pi rho r). It exceeds r for every capsule (the shaft's mass
 * outweighs the turning: 1.11 r for L = r / 2, 1.5 r for L = 8 r), so the
 * spec's r stays. */
static double capsule_pwave_radius(const grit_scene *s, int i)
{
    const double r = s->b.pr[i].r, L = s->capsules[s->b.sidx[i]].shaft;
    const double V = 4.0 / 3.0 * M_PI * r * r * r + M_PI * r * r * L; /* m / rho */
    const double rp = sqrt(3.0 * V * capsule_eff_mass(s, i) / (4.0 * M_PI * r * s->b.mi[i].m));
    return fmin(r, rp);
}

static double capsule_equiv_radius(const grit_scene *s, int i)
{
    double r = s->b.pr[i].r, L = s->capsules[s->b.sidx[i]].shaft;
    double V = 4.0 / 3.0 * M_PI * r * r * r + M_PI * r * r * L;
    return cbrt(3.0 * V / (4.0 * M_PI));
}

static double capsule_rot_radius(const grit_scene *s, int i) { return grit_capsule_half(s, i) + s->b.pr[i].r; }

const grit_shape_class grit_shape_capsule_class = {
    .name = "Capsule",
    .aabb = capsule_aabb,
    .pwave_radius = capsule_pwave_radius,
    .eff_mass = capsule_eff_mass,
    .equiv_radius = capsule_equiv_radius,
    .rot_radius = capsule_rot_radius,
    .follow_node = NULL,
    .unbounded = false,
};

grit_capsule_def grit_default_capsule_def(void)
{
    return (grit_capsule_def){.pos = v3(0, 0, 0), .vel = v3(0, 0, 0), .angvel = v3(0, 0, 0), .ori = q_identity(),
                              .radius = NAN, .shaft = NAN, .material = 0, .blocked = 0, .mask = GRIT_MASK_PARTICLE};
}

int grit_add_capsule(grit_scene *s, const grit_capsule_def *d)
{
    if (!(d->radius > 0) || !isfinite(d->radius))
        return grit_fail(s, GRIT_EINVAL, "capsule: radius = %g must be positive and finite (m)", d->radius);
    if (!(d->shaft >= 0) || !isfinite(d->shaft))
        return grit_fail(s, GRIT_EINVAL, "capsule: shaft = %g must be >= 0 and finite (m)", d->shaft);
    if (!v3_isfinite(d->pos) || !v3_isfinite(d->vel) || !v3_isfinite(d->angvel))
        return grit_fail(s, GRIT_EINVAL, "capsule: position (%g, %g, %g), velocity and angular velocity must be finite",
                         d->pos.x, d->pos.y, d->pos.z);
    if (d->blocked & ~GRIT_BLOCK_ALL)
        return grit_fail(s, GRIT_EINVAL, "capsule: blocked = %u has unknown bits", d->blocked);
    grit_quat q;
    if (grit_shape_check_ori(s, "capsule", d->ori, &q)) return GRIT_EINVAL;
    if (grit_check_material(s, "capsule", d->material)) return GRIT_EINVAL;
    if (grit_shape_reserve(s, (void **)&s->capsules, sizeof *s->capsules, s->n_capsules, &s->cap_capsules, "capsule"))
        return GRIT_ENOMEM;
    int i = grit_append_body(s, GRIT_SHAPE_CAPSULE, s->n_capsules, d->material, d->mask);
    if (i < 0) return i;
    s->capsules[s->n_capsules++] = (grit_capsule_data){d->shaft};
    double r = d->radius, L = d->shaft, rho = grit_material_frict(s, d->material).density;
    double mc = 4.0 / 3.0 * M_PI * r * r * r * rho, ms = M_PI * r * r * L * rho;
    double dc = 0.5 * L + 0.375 * r; /* centre of mass of a cap from the capsule centre */
    double Ix = 0.4 * mc * r * r + 0.5 * ms * r * r;
    double Iy = 83.0 / 320.0 * mc * r * r + mc * dc * dc + ms * (3 * r * r + L * L) / 12.0;
    grit_bodies *b = &s->b;
    b->pr[i] = (grit_posr){d->pos, r};
    b->vw[i] = (grit_velw){d->vel, d->angvel, {0, 0}};
    b->ori[i] = q;
    b->mi[i] = (grit_massi){mc + ms, v3(Ix, Iy, Iy)};
    b->flags[i] = (uint16_t)(d->blocked | grit_inertia_flags(b->mi[i].inertia));
    return b->id[i];
}

int grit_get_capsule(const grit_scene *s, int id, double *radius, double *shaft)
{
    int i = grit_idx(s, id);
    if (i < 0 || s->b.shape[i] != GRIT_SHAPE_CAPSULE)
        return grit_fail((grit_scene *)s, GRIT_EINVAL, "particle id %d is not a capsule", id);
    if (radius) *radius = s->b.pr[i].r;
    if (shaft) *shaft = s->capsules[s->b.sidx[i]].shaft;
    return GRIT_OK;
}
