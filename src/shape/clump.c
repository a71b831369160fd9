/* grit: the Clump shape -- a rigid body made of member spheres
 * (include/grit/clump.h, docs/clumps.md).
 *
 * The body carries mass, inertia and motion and touches nothing (mask 0, a
 * point box); its members are plain spheres flagged PF_MEMBER that the
 * integrator skips. grit_clumps_place puts them where the body's motion
 * says after every leapfrog; grit_clumps_gather sums their contact forces
 * on the body after the contact loop, serially in clump and member order so
 * that the sum does not depend on how the contact loop was run. */
#include "shape/clump.h"

#include <stdlib.h>
#include <string.h>

#include "collide/periodic.h"
#include "core/cell_impl.h"
#include "core/storage.h"
#include "grit/clump.h"
#include "material/material.h"
#include "shape/shape.h"

/* ------------------------------------------------------------- the class */
static grit_aabb clump_aabb(const grit_scene *s, int i)
{
    const grit_vec3 x = s->b.pr[i].pos;
    return (grit_aabb){x, x};
}

static double clump_none(const grit_scene *s, int i)
{
    (void)s, (void)i;
    return NAN; /* the members stand for the clump in the time step and the skin */
}

const grit_shape_class grit_shape_clump_class = {
    .name = "Clump",
    .aabb = clump_aabb,
    .pwave_radius = clump_none,
    .equiv_radius = clump_none,
    .rot_radius = NULL,
    .follow_node = NULL,
    .unbounded = false,
};

grit_clump_def grit_default_clump_def(void)
{
    return (grit_clump_def){.pos = v3(0, 0, 0), .vel = v3(0, 0, 0), .angvel = v3(0, 0, 0), .ori = q_identity(),
                            .n = 0, .centers = NULL, .radii = NULL, .material = 0, .blocked = 0,
                            .mask = GRIT_MASK_PARTICLE, .cells_per_radius = 48};
}

/* ------------------------------------------------------ mass properties */
/* Moments of the union of the members about `o`: volume, first moments and
 * the second moments S_ab = integral of x_a x_b, per unit density. */
typedef struct moments {
    double v;
    grit_vec3 s1;
    double s2[3][3];
} moments;

/* Disjoint members: each sphere's own moments, exactly. */
static void moments_exact(const grit_clump_def *d, grit_vec3 o, moments *M)
{
    for (int k = 0; k < d->n; k++) {
        const double r = d->radii[k], v = 4.0 / 3.0 * M_PI * r * r * r;
        const grit_vec3 c = v3_sub(d->centers[k], o);
        const double cc[3] = {c.x, c.y, c.z};
        M->v += v;
        M->s1 = v3_madd(M->s1, v, c);
        for (int a = 0; a < 3; a++)
            for (int b = 0; b < 3; b++) M->s2[a][b] += v * (cc[a] * cc[b] + (a == b ? 0.2 * r * r : 0.0));
    }
}

typedef struct interval {
    double a, b;
} interval;

/* Overlapping members: a grid of columns along x over the (y, z) plane,
 * each column's cross-section integrated exactly along x over the union of
 * the members' chords and by the midpoint rule across (with the cell's own
 * h^2/12 in the squared moments). The rule is first order at the spheres'
 * rims, where the chord's square root kink lies: docs/clumps.md gives the
 * error against the closed form of two overlapping spheres. */
enum { GRID_CELLS = 100000000 };

/* 0, -1 out of memory, 1 the grid would exceed GRID_CELLS cells */
static int moments_grid(const grit_clump_def *d, grit_vec3 o, moments *M)
{
    double rmin = INFINITY;
    grit_vec3 lo = v3(INFINITY, INFINITY, INFINITY), hi = v3(-INFINITY, -INFINITY, -INFINITY);
    for (int k = 0; k < d->n; k++) {
        const grit_vec3 c = v3_sub(d->centers[k], o);
        const double r = d->radii[k];
        rmin = fmin(rmin, r);
        lo = v3(fmin(lo.x, c.x - r), fmin(lo.y, c.y - r), fmin(lo.z, c.z - r));
        hi = v3(fmax(hi.x, c.x + r), fmax(hi.y, c.y + r), fmax(hi.z, c.z + r));
    }
    const double h = rmin / d->cells_per_radius;
    /* a grid past GRID_CELLS (members of very different sizes, or a file's
     * nonsense) would take minutes, or overflow the counts */
    const double ey = ceil((hi.y - lo.y) / h), ez = ceil((hi.z - lo.z) / h);
    if (!(ey >= 1 && ez >= 1 && ey * ez <= GRID_CELLS)) return 1;
    const int ny = (int)ey, nz = (int)ez;
    const double hy = (hi.y - lo.y) / ny, hz = (hi.z - lo.z) / nz, area = hy * hz;
    interval *iv = malloc(sizeof *iv * (size_t)d->n);
    int *row = malloc(sizeof *row * (size_t)d->n);
    if (!iv || !row) {
        free(iv);
        free(row);
        return -1;
    }
    for (int jy = 0; jy < ny; jy++) {
        const double y = lo.y + (jy + 0.5) * hy;
        int nr = 0; /* the members this row crosses */
        for (int k = 0; k < d->n; k++)
            if (fabs(y - (d->centers[k].y - o.y)) < d->radii[k]) row[nr++] = k;
        for (int jz = 0; jz < nz; jz++) {
            const double z = lo.z + (jz + 0.5) * hz;
            int m = 0;
            for (int q = 0; q < nr; q++) {
                const int k = row[q];
                const grit_vec3 c = v3_sub(d->centers[k], o);
                const double r2 = d->radii[k] * d->radii[k] - sq(y - c.y) - sq(z - c.z);
                if (r2 <= 0) continue;
                const double w = sqrt(r2);
                interval in = {c.x - w, c.x + w};
                int p = m++; /* insertion by start */
                while (p > 0 && iv[p - 1].a > in.a) iv[p] = iv[p - 1], p--;
                iv[p] = in;
            }
            double l0 = 0, l1 = 0, l2 = 0;
            for (int q = 0; q < m;) {
                double a = iv[q].a, b = iv[q].b;
                for (q++; q < m && iv[q].a <= b; q++) b = fmax(b, iv[q].b);
                l0 += b - a;
                l1 += 0.5 * (b * b - a * a);
                l2 += (b * b * b - a * a * a) / 3.0;
            }
            if (m == 0) continue;
            M->v += area * l0;
            M->s1 = v3_add(M->s1, v3(area * l1, area * y * l0, area * z * l0));
            M->s2[0][0] += area * l2;
            M->s2[1][1] += area * (y * y + hy * hy / 12.0) * l0;
            M->s2[2][2] += area * (z * z + hz * hz / 12.0) * l0;
            M->s2[0][1] += area * y * l1;
            M->s2[0][2] += area * z * l1;
            M->s2[1][2] += area * y * z * l0;
        }
    }
    M->s2[1][0] = M->s2[0][1], M->s2[2][0] = M->s2[0][2], M->s2[2][1] = M->s2[1][2];
    free(iv);
    free(row);
    return 0;
}

/* Eigenvalues (ascending) and eigenvectors (columns of E, right-handed) of
 * a symmetric 3x3 matrix by cyclic Jacobi rotations. */
static void sym_eigen(double A[3][3], double lam[3], double E[3][3])
{
    double V[3][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
    for (int sweep = 0; sweep < 64; sweep++) {
        const double off = sq(A[0][1]) + sq(A[0][2]) + sq(A[1][2]);
        const double diag = sq(A[0][0]) + sq(A[1][1]) + sq(A[2][2]);
        if (off <= 1e-34 * diag) break;
        for (int p = 0; p < 2; p++)
            for (int q = p + 1; q < 3; q++) {
                if (A[p][q] == 0) continue;
                const double th = (A[q][q] - A[p][p]) / (2 * A[p][q]);
                const double t = (th >= 0 ? 1.0 : -1.0) / (fabs(th) + sqrt(th * th + 1));
                const double c = 1 / sqrt(t * t + 1), sn = t * c;
                for (int k = 0; k < 3; k++) { /* A <- A J */
                    const double akp = A[k][p], akq = A[k][q];
                    A[k][p] = c * akp - sn * akq;
                    A[k][q] = sn * akp + c * akq;
                }
                for (int k = 0; k < 3; k++) { /* A <- J^T A */
                    const double apk = A[p][k], aqk = A[q][k];
                    A[p][k] = c * apk - sn * aqk;
                    A[q][k] = sn * apk + c * aqk;
                }
                for (int k = 0; k < 3; k++) {
                    const double vkp = V[k][p], vkq = V[k][q];
                    V[k][p] = c * vkp - sn * vkq;
                    V[k][q] = sn * vkp + c * vkq;
                }
            }
    }
    int idx[3] = {0, 1, 2};
    for (int a = 0; a < 2; a++)
        for (int b = a + 1; b < 3; b++)
            if (A[idx[b]][idx[b]] < A[idx[a]][idx[a]]) {
                int t = idx[a];
                idx[a] = idx[b], idx[b] = t;
            }
    for (int j = 0; j < 3; j++) {
        lam[j] = A[idx[j]][idx[j]];
        for (int k = 0; k < 3; k++) E[k][j] = V[k][idx[j]];
    }
    const double det = E[0][0] * (E[1][1] * E[2][2] - E[1][2] * E[2][1]) -
                       E[0][1] * (E[1][0] * E[2][2] - E[1][2] * E[2][0]) +
                       E[0][2] * (E[1][0] * E[2][1] - E[1][1] * E[2][0]);
    if (det < 0)
        for (int k = 0; k < 3; k++) E[k][2] = -E[k][2];
}

static int check_def(grit_scene *s, const grit_clump_def *d)
{
    if (d->n < 1 || d->n > GRIT_CLUMP_MAX_MEMBERS)
        return grit_fail(s, GRIT_EINVAL, "clump: n = %d members must be in [1, %d]", d->n, GRIT_CLUMP_MAX_MEMBERS);
    if (!d->centers || !d->radii) return grit_fail(s, GRIT_EINVAL, "clump: centers and radii must be given");
    for (int k = 0; k < d->n; k++) {
        if (!(d->radii[k] > 0) || !isfinite(d->radii[k]))
            return grit_fail(s, GRIT_EINVAL, "clump: member %d: radius = %g must be positive and finite (m)", k,
                             d->radii[k]);
        if (!v3_isfinite(d->centers[k]))
            return grit_fail(s, GRIT_EINVAL, "clump: member %d: centre (%g, %g, %g) must be finite", k,
                             d->centers[k].x, d->centers[k].y, d->centers[k].z);
    }
    if (!v3_isfinite(d->pos) || !v3_isfinite(d->vel) || !v3_isfinite(d->angvel))
        return grit_fail(s, GRIT_EINVAL, "clump: position (%g, %g, %g), velocity and angular velocity must be finite",
                         d->pos.x, d->pos.y, d->pos.z);
    if (d->blocked & ~GRIT_BLOCK_ALL) return grit_fail(s, GRIT_EINVAL, "clump: blocked = %u has unknown bits", d->blocked);
    if (d->cells_per_radius < 8 || d->cells_per_radius > 1024)
        return grit_fail(s, GRIT_EINVAL, "clump: cells_per_radius = %d must be in [8, 1024]", d->cells_per_radius);
    grit_quat q;
    if (grit_shape_check_ori(s, "clump", d->ori, &q)) return GRIT_EINVAL;
    return grit_check_material(s, "clump", d->material) ? GRIT_EINVAL : GRIT_OK;
}

static bool disjoint(const grit_clump_def *d)
{
    for (int i = 0; i < d->n; i++)
        for (int j = i + 1; j < d->n; j++)
            if (v3_norm2(v3_sub(d->centers[i], d->centers[j])) < sq(d->radii[i] + d->radii[j])) return false;
    return true;
}

/* The properties in the template's frame (centre, principal axes E as
 * columns), then placed by pos and ori. */
static int clump_props(grit_scene *s, const grit_clump_def *d, grit_clump_props *out, double E[3][3],
                       grit_vec3 *center_t)
{
    int rc = check_def(s, d);
    if (rc) return rc;
    /* moments about the members' mean centre: the sums stay well scaled */
    grit_vec3 o = v3_zero();
    for (int k = 0; k < d->n; k++) o = v3_add(o, d->centers[k]);
    o = v3_scale(o, 1.0 / d->n);
    moments M = {0, v3_zero(), {{0}}};
    const bool exact = disjoint(d);
    if (exact) moments_exact(d, o, &M);
    else if ((rc = moments_grid(d, o, &M)) > 0)
        return grit_fail(s, GRIT_EINVAL,
                         "clump: overlapping members spanning more than %d cells of the mass grid (cells_per_radius = "
                         "%d of the smallest radius): members too different in size, or a smaller cells_per_radius",
                         GRID_CELLS, d->cells_per_radius);
    else if (rc < 0)
        return grit_fail(s, GRIT_ENOMEM, "clump: out of memory integrating the mass of %d members", d->n);
    const double rho = grit_material_frict(s, d->material).density;
    const grit_vec3 c = v3_scale(M.s1, 1.0 / M.v); /* relative to o */
    const double cc[3] = {c.x, c.y, c.z};
    double J[3][3], I[3][3];
    for (int a = 0; a < 3; a++)
        for (int b = 0; b < 3; b++) J[a][b] = M.s2[a][b] - M.v * cc[a] * cc[b];
    const double tr = J[0][0] + J[1][1] + J[2][2];
    for (int a = 0; a < 3; a++)
        for (int b = 0; b < 3; b++) I[a][b] = rho * ((a == b ? tr : 0.0) - J[a][b]);
    double lam[3];
    sym_eigen(I, lam, E);
    grit_mat3 Em;
    for (int j = 0; j < 3; j++) Em.c[j] = v3(E[0][j], E[1][j], E[2][j]);
    grit_quat qd;
    grit_shape_check_ori(s, "clump", d->ori, &qd);
    *center_t = v3_add(o, c);
    out->mass = rho * M.v;
    out->volume = M.v;
    out->center = v3_add(d->pos, q_rotate(qd, *center_t));
    out->inertia = v3(lam[0], lam[1], lam[2]);
    out->ori = q_normalized(q_mul(qd, q_from_mat3(&Em)));
    out->exact = exact;
    return GRIT_OK;
}

int grit_get_clump_properties(grit_scene *s, const grit_clump_def *d, grit_clump_props *out)
{
    double E[3][3];
    grit_vec3 c;
    grit_clump_props p;
    int rc = clump_props(s, d, &p, E, &c);
    if (rc == GRIT_OK) *out = p;
    return rc;
}

/* ------------------------------------------------------------- adding */
/* In a periodic cell the clump must span less than half the cell (see
 * grit_rspan in collide/periodic.h); checked before anything is added. */
static int check_cell_span(grit_scene *s, const grit_clump_def *d)
{
    grit_quat q;
    grit_shape_check_ori(s, "clump", d->ori, &q);
    grit_rspan sp = grit_rspan_empty();
    for (int k = 0; k < d->n; k++)
        grit_rspan_add(&sp, &s->cell->Hinv, v3_add(d->pos, q_rotate(q, d->centers[k])), d->radii[k]);
    double w;
    const int a = grit_rspan_over(&sp, 0.5, &w);
    if (a < 0) return GRIT_OK;
    return grit_fail(s, GRIT_EINVAL,
                     "clump: its %d members span %.4g of the periodic cell along base vector %d; a clump must stay "
                     "below 0.5 of the cell so that it never meets its own image (enlarge the cell)",
                     d->n, w, a);
}

int grit_add_clump(grit_scene *s, const grit_clump_def *d)
{
    grit_clump_props p;
    double E[3][3];
    grit_vec3 ct;
    int rc = clump_props(s, d, &p, E, &ct);
    if (rc) return rc;
    if (s->cell && (rc = check_cell_span(s, d))) return rc;
    if ((rc = grit_reserve_bodies(s, d->n + 1))) return rc;
    if (grit_shape_reserve(s, (void **)&s->clumps, sizeof *s->clumps, s->n_clumps, &s->cap_clumps, "clump"))
        return GRIT_ENOMEM;
    if (s->n_clump_loc + d->n > s->cap_clump_loc) {
        const int cap = 2 * (s->n_clump_loc + d->n);
        if (grit_grow((void **)&s->clump_loc, sizeof *s->clump_loc, cap))
            return grit_fail(s, GRIT_ENOMEM, "out of memory adding a clump");
        s->cap_clump_loc = cap;
    }
    const int ci = s->n_clumps;
    const int i = grit_append_body(s, GRIT_SHAPE_CLUMP, ci, d->material, 0u);
    if (i < 0) return i;
    grit_bodies *b = &s->b;
    b->pr[i] = (grit_posr){p.center, 0.0};
    b->vw[i] = (grit_velw){d->vel, d->angvel, {0, 0}};
    b->mi[i] = (grit_massi){p.mass, p.inertia};
    b->ori[i] = p.ori;
    b->flags[i] = (uint16_t)(d->blocked | grit_inertia_flags(p.inertia));
    const int body = b->id[i];
    s->clumps[s->n_clumps++] = (grit_clump_data){body, d->n, s->n_clump_loc, 0};
    const double rho = grit_material_frict(s, d->material).density;
    for (int k = 0; k < d->n; k++) {
        /* the centre in the principal frame: E^T (c_k - centre) */
        const grit_vec3 r = v3_sub(d->centers[k], ct);
        s->clump_loc[s->n_clump_loc++] = v3(E[0][0] * r.x + E[1][0] * r.y + E[2][0] * r.z,
                                            E[0][1] * r.x + E[1][1] * r.y + E[2][1] * r.z,
                                            E[0][2] * r.x + E[1][2] * r.y + E[2][2] * r.z);
        const int j = grit_append_body(s, GRIT_SHAPE_SPHERE, ci, d->material, d->mask); /* reserved: cannot fail */
        const double rk = d->radii[k], m = 4.0 / 3.0 * M_PI * rk * rk * rk * rho;
        b->pr[j].r = rk;
        /* the member's own mass: what a contact law or a time-step estimate
         * that asks for a mass sees (never less than its share of the body) */
        b->mi[j] = (grit_massi){m, v3(0.4 * m * rk * rk, 0.4 * m * rk * rk, 0.4 * m * rk * rk)};
        b->flags[j] = PF_MEMBER | PF_NO_GRAVITY | PF_NO_DAMPING | PF_NO_ENERGY;
    }
    grit_clump_place_one(s, ci);
    return body;
}

/* ------------------------------------------------------ every step */
double grit_clump_place_one(grit_scene *s, int c)
{
    grit_bodies *b = &s->b;
    const grit_clump_data *cd = &s->clumps[c];
    const int i = s->id2idx[cd->body];
    const grit_vec3 X = b->pr[i].pos, V = b->vw[i].v, W = b->vw[i].w;
    const grit_quat q = b->ori[i];
    double d2max = 0;
    for (int k = 0; k < cd->n; k++) {
        const int j = s->id2idx[cd->body + 1 + k];
        const grit_vec3 l = q_rotate(q, s->clump_loc[cd->first + k]), x = v3_add(X, l);
        b->pr[j].pos = x;
        b->vw[j].v = v3_add(V, v3_cross(W, l));
        b->vw[j].w = W;
        b->ori[j] = q;
        grit_vec3 dpos = v3_sub(x, b->refpos[j]);
        if (s->cell) dpos = grit_cell_image_move(s->cell, j, dpos); /* as the leapfrog's, for the skin */
        const double d2 = v3_norm2(dpos);
        if (d2 > d2max) d2max = d2; /* NaN: not seen by the broad phase yet (a rebuild is due anyway) */
    }
    return d2max;
}

double grit_clumps_place(grit_scene *s)
{
    double d2max = 0;
    for (int c = 0; c < s->n_clumps; c++) {
        const double d2 = grit_clump_place_one(s, c);
        if (d2 > d2max) d2max = d2;
        /* the members' accumulators, for the contact loop of this step */
        const grit_clump_data *cd = &s->clumps[c];
        for (int k = 0; k < cd->n; k++) s->b.ft[s->id2idx[cd->body + 1 + k]] = (grit_ft){v3_zero(), v3_zero(), {0, 0}};
    }
    return d2max;
}

void grit_clumps_gather(grit_scene *s)
{
    grit_bodies *b = &s->b;
    for (int c = 0; c < s->n_clumps; c++) {
        const grit_clump_data *cd = &s->clumps[c];
        const int i = s->id2idx[cd->body];
        const grit_vec3 X = b->pr[i].pos;
        grit_vec3 F = b->ft[i].f, T = b->ft[i].t;
        for (int k = 0; k < cd->n; k++) {
            const int j = s->id2idx[cd->body + 1 + k];
            const grit_ft f = b->ft[j];
            F = v3_add(F, f.f);
            T = v3_add(T, v3_add(f.t, v3_cross(v3_sub(b->pr[j].pos, X), f.f)));
        }
        b->ft[i].f = F;
        b->ft[i].t = T;
    }
}

int grit_clump_member_check(grit_scene *s, int i, const char *what)
{
    if (!(s->b.flags[i] & PF_MEMBER)) return GRIT_OK;
    return grit_fail(s, GRIT_EINVAL, "particle %d: %s: it is a member of clump %d; set the clump body's state",
                     s->b.id[i], what, s->clumps[s->b.sidx[i]].body);
}

/* ------------------------------------------------------------- queries */
int grit_get_clump(const grit_scene *s, int id, int *body, int *n_members)
{
    const int i = grit_idx(s, id);
    if (i < 0 || !(s->b.shape[i] == GRIT_SHAPE_CLUMP || (s->b.flags[i] & PF_MEMBER)))
        return grit_fail((grit_scene *)s, GRIT_EINVAL, "particle id %d is neither a clump nor a clump member", id);
    const grit_clump_data *cd = &s->clumps[s->b.sidx[i]];
    if (body) *body = cd->body;
    if (n_members) *n_members = cd->n;
    return GRIT_OK;
}

int grit_get_clump_member(const grit_scene *s, int body, int k, grit_vec3 *local, double *radius)
{
    const int i = grit_idx(s, body);
    if (i < 0 || s->b.shape[i] != GRIT_SHAPE_CLUMP)
        return grit_fail((grit_scene *)s, GRIT_EINVAL, "particle id %d is not a clump body", body);
    const grit_clump_data *cd = &s->clumps[s->b.sidx[i]];
    if (k < 0 || k >= cd->n)
        return grit_fail((grit_scene *)s, GRIT_EINVAL, "clump %d: member %d does not exist (%d members)", body, k, cd->n);
    if (local) *local = s->clump_loc[cd->first + k];
    if (radius) *radius = s->b.pr[s->id2idx[body + 1 + k]].r;
    return GRIT_OK;
}

int grit_get_clump_count(const grit_scene *s) { return s->n_clumps; }
