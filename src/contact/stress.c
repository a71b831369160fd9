/* grit: the Love-Weber stress tensor over the real contacts (see
 * include/grit/stress.h), and the virial sum the gradV energy term of a
 * periodic cell needs (stress_impl.h). */
#include "grit/stress.h"

#include "cg2/l6geom.h"
#include "contact/stress_impl.h"
#include "core/cell_impl.h"

/* A boundary has no centre that belongs to the assembly: its branch vector
 * starts at the contact point. */
static bool is_boundary(int shape)
{
    return shape == GRIT_SHAPE_WALL || shape == GRIT_SHAPE_FACET || shape == GRIT_SHAPE_INFCYLINDER;
}

/* Where a contact's branch vector ends on particle i (its image shifted by
 * `shift`): a boundary's contact point c, a clump member's body centre (the
 * clump, not the member, is the body in equilibrium, and the cell's affine
 * field moves the body's centre), else the particle's centre. */
static grit_vec3 branch_end(const grit_scene *s, int i, grit_vec3 c, grit_vec3 shift)
{
    if (is_boundary(s->b.shape[i])) return c;
    if (s->b.flags[i] & PF_MEMBER) return v3_add(s->b.pr[s->id2idx[s->clumps[s->b.sidx[i]].body]].pos, shift);
    return v3_add(s->b.pr[i].pos, shift);
}

static bool inside(grit_vec3 p, const grit_vec3 *lo, const grit_vec3 *hi)
{
    if (!lo) return true;
    return p.x >= lo->x && p.x <= hi->x && p.y >= lo->y && p.y <= hi->y && p.z >= lo->z && p.z <= hi->z;
}

/* The affine response of the diagonal stresses to a symmetric strain
 * increment d, by one contact of stiffnesses kn, kt and branch l = |l| n:
 * B's image moves by d l relative to A, the force follows it normally and
 * tangentially, and V d sigma_aa = l^2 ((kn - kt) n_a^2 (n.d n) + kt n_a (d n)_a).
 * K[a][q] collects the factor of the strain component q (xx, yy, zz, xy, xz,
 * yz; the off-diagonal ones stand for d_ij = d_ji). */
static void add_affine(double K[3][6], grit_vec3 l, double kn, double kt)
{
    const double l2 = v3_norm2(l);
    if (!(l2 > 0)) return;
    const double n[3] = {l.x, l.y, l.z}, il = 1 / sqrt(l2);
    double u[3];
    for (int a = 0; a < 3; a++) u[a] = n[a] * il;
    const double w[6] = {u[0] * u[0], u[1] * u[1], u[2] * u[2], 2 * u[0] * u[1], 2 * u[0] * u[2], 2 * u[1] * u[2]};
    /* (d n)_a as a combination of the components q */
    static const int off[3][2] = {{3, 4}, {3, 5}, {4, 5}}, other[3][2] = {{1, 2}, {0, 2}, {0, 1}};
    for (int a = 0; a < 3; a++) {
        const double c = l2 * (kn - kt) * u[a] * u[a];
        for (int q = 0; q < 6; q++) K[a][q] += c * w[q];
        const double t = l2 * kt * u[a];
        K[a][a] += t * u[a];
        K[a][off[a][0]] += t * u[other[a][0]];
        K[a][off[a][1]] += t * u[other[a][1]];
    }
}

/* m = sum F (x) l over the real contacts in the region; returns the count.
 * K (may be NULL): the affine stiffness sum (add_affine), not divided by V. */
static int sum_contacts(const grit_scene *s, const grit_vec3 *lo, const grit_vec3 *hi, double m[3][3], double K[3][6])
{
    int n = 0;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) m[i][j] = 0;
    if (K)
        for (int i = 0; i < 3; i++)
            for (int q = 0; q < 6; q++) K[i][q] = 0;
    const grit_contacts *C = &s->c;
    for (int k = 0; k < C->n; k++) {
        const grit_pair *pp = &C->pair[k];
        if (!(pp->flags & CF_REAL)) continue;
        const grit_l6geom *g = &C->geom[k];
        if (!inside(g->c, lo, hi)) continue;
        const grit_vec3 f = C->phys[k].f, ez = l6_ez(g);
        const grit_vec3 F = v3_add(v3_add(v3_scale(g->ex, f.x), v3_scale(g->ey, f.y)), v3_scale(ez, f.z));
        const grit_vec3 shift = s->cell ? m3_mul_k(&s->cell->H, pp->cell) : v3_zero(); /* B's image */
        const grit_vec3 xa = branch_end(s, pp->a, g->c, v3_zero()), xb = branch_end(s, pp->b, g->c, shift);
        const grit_vec3 l = v3_sub(xb, xa);
        const double Fv[3] = {F.x, F.y, F.z}, lv[3] = {l.x, l.y, l.z};
        for (int i = 0; i < 3; i++)
            for (int j = 0; j < 3; j++) m[i][j] += Fv[i] * lv[j];
        if (K) add_affine(K, l, C->phys[k].kn, C->phys[k].kt);
        n++;
    }
    return n;
}

void grit_contact_stress_stiffness(const grit_scene *s, double sigma[3][3], double K[3][6])
{
    double m[3][3];
    sum_contacts(s, NULL, NULL, m, K);
    const double V = m3_det(&s->cell->H);
    for (int i = 0; i < 3; i++) {
        for (int j = 0; j < 3; j++) sigma[i][j] = 0.5 * (m[i][j] + m[j][i]) / V;
        for (int q = 0; q < 6; q++) K[i][q] /= V;
    }
}

void grit_contact_virial(const grit_scene *s, const grit_vec3 *lo, const grit_vec3 *hi, grit_mat3 *W)
{
    double m[3][3];
    sum_contacts(s, lo, hi, m, NULL);
    for (int j = 0; j < 3; j++)
        W->c[j] = v3(0.5 * (m[0][j] + m[j][0]), 0.5 * (m[1][j] + m[j][1]), 0.5 * (m[2][j] + m[j][2]));
}

static void symmetric_over(const double m[3][3], double V, double sigma[3][3])
{
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) sigma[i][j] = 0.5 * (m[i][j] + m[j][i]) / V;
}

int grit_stress(const grit_scene *s, double sigma[3][3])
{
    if (!s->cell)
        return grit_fail((grit_scene *)s, GRIT_ESTATE,
                         "grit_stress: the scene has no periodic cell; use grit_stress_box with a region");
    double m[3][3];
    sum_contacts(s, NULL, NULL, m, NULL);
    symmetric_over(m, m3_det(&s->cell->H), sigma);
    return GRIT_OK;
}

int grit_stress_box(const grit_scene *s, grit_vec3 lo, grit_vec3 hi, double sigma[3][3])
{
    if (!v3_isfinite(lo) || !v3_isfinite(hi) || !(lo.x < hi.x && lo.y < hi.y && lo.z < hi.z))
        return grit_fail((grit_scene *)s, GRIT_EINVAL,
                         "grit_stress_box: the box (%g, %g, %g)-(%g, %g, %g) must be finite with lo < hi on every "
                         "axis",
                         lo.x, lo.y, lo.z, hi.x, hi.y, hi.z);
    double m[3][3];
    sum_contacts(s, &lo, &hi, m, NULL);
    symmetric_over(m, (hi.x - lo.x) * (hi.y - lo.y) * (hi.z - lo.z), sigma);
    return GRIT_OK;
}

int grit_stress_love_weber(const grit_scene *s, double volume, const grit_vec3 *lo, const grit_vec3 *hi,
                           grit_mat3 *sigma, int *n_contacts)
{
    if (!(volume > 0) || !isfinite(volume))
        return grit_fail((grit_scene *)s, GRIT_EINVAL, "stress: volume = %g must be > 0 and finite", volume);
    if ((lo == NULL) != (hi == NULL))
        return grit_fail((grit_scene *)s, GRIT_EINVAL, "stress: give both corners of the region or neither");
    if (lo && !(lo->x <= hi->x && lo->y <= hi->y && lo->z <= hi->z))
        return grit_fail((grit_scene *)s, GRIT_EINVAL,
                         "stress: region lo = (%g, %g, %g) is not below hi = (%g, %g, %g)", lo->x, lo->y, lo->z,
                         hi->x, hi->y, hi->z);
    double m[3][3];
    int n = sum_contacts(s, lo, hi, m, NULL);
    for (int j = 0; j < 3; j++) sigma->c[j] = v3(m[0][j] / volume, m[1][j] / volume, m[2][j] / volume);
    if (n_contacts) *n_contacts = n;
    return GRIT_OK;
}

grit_mat3 grit_mat3_sym(const grit_mat3 *a)
{
    grit_mat3 r;
    for (int j = 0; j < 3; j++)
        for (int i = 0; i < 3; i++) v3_set(&r.c[j], i, 0.5 * (v3_get(a->c[j], i) + v3_get(a->c[i], j)));
    return r;
}

double grit_mat3_frob(const grit_mat3 *a) { return sqrt(v3_norm2(a->c[0]) + v3_norm2(a->c[1]) + v3_norm2(a->c[2])); }

grit_mat3 grit_mat3_rotate_back(const grit_mat3 *R, const grit_mat3 *sigma)
{
    /* (R^T sigma R)_ij = R_ki sigma_kl R_lj = c_i(R) . sigma c_j(R) */
    grit_mat3 r;
    for (int j = 0; j < 3; j++) {
        const grit_vec3 sr = m3_mul(sigma, R->c[j]);
        r.c[j] = v3(v3_dot(R->c[0], sr), v3_dot(R->c[1], sr), v3_dot(R->c[2], sr));
    }
    return r;
}
