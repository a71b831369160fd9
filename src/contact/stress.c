/* grit: the Love-Weber stress tensor from the contact forces (see
 * include/grit/stress.h), and the virial sum the gradV energy term needs. */
#include "contact/stress_impl.h"

#include "cg2/l6geom.h"
#include "core/cell_impl.h"
#include "grit/stress.h"

/* Free bodies have a centre (their node); boundaries (walls, facets,
 * infinite cylinders, rods) do not: their side of a contact starts at the
 * contact point. */
static inline bool has_centre(int shape)
{
    return shape == GRIT_SHAPE_SPHERE || shape == GRIT_SHAPE_CAPSULE || shape == GRIT_SHAPE_ELLIPSOID;
}

static inline bool inside(grit_vec3 c, const grit_vec3 *lo, const grit_vec3 *hi)
{
    return c.x >= lo->x && c.x <= hi->x && c.y >= lo->y && c.y <= hi->y && c.z >= lo->z && c.z <= hi->z;
}

void grit_contact_virial(const grit_scene *s, const grit_vec3 *lo, const grit_vec3 *hi, grit_mat3 *W)
{
    double w[3][3] = {{0}};
    const grit_contacts *C = &s->c;
    for (int k = 0; k < C->n; k++) {
        const grit_pair *p = &C->pair[k];
        if (!(p->flags & CF_REAL)) continue;
        const grit_l6geom *g = &C->geom[k];
        if (lo && !inside(g->c, lo, hi)) continue;
        const bool sa = has_centre(s->b.shape[p->a]), sb = has_centre(s->b.shape[p->b]);
        if (!sa && !sb) continue;
        const grit_vec3 shift = s->cell ? m3_mul_k(&s->cell->H, p->cell) : v3_zero();
        const grit_vec3 xa = sa ? s->b.pr[p->a].pos : g->c;
        const grit_vec3 xb = sb ? v3_add(s->b.pr[p->b].pos, shift) : g->c;
        const grit_vec3 l = v3_sub(xb, xa);
        const grit_vec3 f = C->phys[k].f;
        const grit_vec3 F = v3_add(v3_add(v3_scale(g->ex, f.x), v3_scale(g->ey, f.y)), v3_scale(l6_ez(g), f.z));
        for (int i = 0; i < 3; i++)
            for (int j = 0; j < 3; j++)
                w[i][j] += 0.5 * (v3_get(F, i) * v3_get(l, j) + v3_get(F, j) * v3_get(l, i));
    }
    for (int j = 0; j < 3; j++) W->c[j] = v3(w[0][j], w[1][j], w[2][j]);
}

int grit_stress(const grit_scene *s, double sigma[3][3])
{
    if (!s->cell)
        return grit_fail((grit_scene *)s, GRIT_ESTATE,
                         "grit_stress: the scene has no periodic cell; use grit_stress_box with a region");
    grit_mat3 W;
    grit_contact_virial(s, NULL, NULL, &W);
    const double V = m3_det(&s->cell->H);
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) sigma[i][j] = m3_at(&W, i, j) / V;
    return GRIT_OK;
}

int grit_stress_box(const grit_scene *s, grit_vec3 lo, grit_vec3 hi, double sigma[3][3])
{
    if (!v3_isfinite(lo) || !v3_isfinite(hi) || !(lo.x < hi.x && lo.y < hi.y && lo.z < hi.z))
        return grit_fail((grit_scene *)s, GRIT_EINVAL,
                         "grit_stress_box: the box (%g, %g, %g)-(%g, %g, %g) must be finite with lo < hi on every "
                         "axis",
                         lo.x, lo.y, lo.z, hi.x, hi.y, hi.z);
    grit_mat3 W;
    grit_contact_virial(s, &lo, &hi, &W);
    const double V = (hi.x - lo.x) * (hi.y - lo.y) * (hi.z - lo.z);
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) sigma[i][j] = m3_at(&W, i, j) / V;
    return GRIT_OK;
}
