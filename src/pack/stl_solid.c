/* grit: a closed triangle mesh as a solid -- is a ball entirely inside?
 *
 * A ball (c, r) is inside when no triangle comes closer to c than r and c
 * itself is inside. The second test uses the winding number, the sum of the
 * solid angles the triangles subtend at c divided by 4 pi: 1 inside (-1 if
 * the triangles face inwards), 0 outside, for any closed surface, convex or
 * not. Unlike counting the crossings of a ray it has no special cases (a ray
 * through an edge or a vertex), and since the first test already put c at
 * least r from the surface the sum is far from its ill-conditioned region.
 *
 * The mesh must be closed and consistently oriented: every edge is used
 * once in each direction (by the two triangles on its sides). Vertices are
 * matched by exact coordinates, as STL files repeat them.
 *
 * Distance queries go through a uniform grid of the triangles' boxes. The
 * grid's empty cells are classified once: face-connected empty cells form
 * regions the surface does not cross, so one winding number at a cell
 * centre tells inside or outside for the whole region. Only a centre in a
 * cell the surface passes through needs its own winding number, which
 * visits every triangle. */
#include <stdlib.h>
#include <string.h>

#include "pack/pack_impl.h"

struct pack_mesh {
    int n;
    grit_vec3 (*t)[3];
    grit_vec3 lo, hi;
    double volume;
    int m[3];
    double h[3]; /* grid cell sizes */
    int *start;  /* triangles of grid cell k: items[start[k] .. start[k+1]) */
    int *items;
    signed char *side; /* per grid cell: 1 inside, 0 outside, -1 the surface passes through it */
};

static double winding(const pack_mesh *m, grit_vec3 p);

void pack_mesh_free(pack_mesh *m)
{
    if (!m) return;
    free(m->t);
    free(m->start);
    free(m->items);
    free(m->side);
    free(m);
}

void pack_mesh_bounds(const pack_mesh *m, grit_vec3 *lo, grit_vec3 *hi)
{
    *lo = m->lo;
    *hi = m->hi;
}
double pack_mesh_volume(const pack_mesh *m) { return m->volume; }
int pack_mesh_triangles(const pack_mesh *m) { return m->n; }

/* ---- closedness ------------------------------------------------------------- */
typedef struct vref {
    grit_vec3 p;
    int i; /* 3 * triangle + corner */
} vref;

static int cmp_vref(const void *a, const void *b)
{
    const grit_vec3 p = ((const vref *)a)->p, q = ((const vref *)b)->p;
    if (p.x != q.x) return p.x < q.x ? -1 : 1;
    if (p.y != q.y) return p.y < q.y ? -1 : 1;
    if (p.z != q.z) return p.z < q.z ? -1 : 1;
    return ((const vref *)a)->i - ((const vref *)b)->i;
}

typedef struct edge {
    int u, v, tri;
} edge;

static int cmp_edge(const void *a, const void *b)
{
    const edge *x = a, *y = b;
    if (x->u != y->u) return x->u < y->u ? -1 : 1;
    if (x->v != y->v) return x->v < y->v ? -1 : 1;
    return x->tri - y->tri;
}

static const edge *find_edge(const edge *e, int n, int u, int v)
{
    int lo = 0, hi = n;
    while (lo < hi) {
        const int mid = (lo + hi) / 2;
        if (e[mid].u < u || (e[mid].u == u && e[mid].v < v)) lo = mid + 1;
        else hi = mid;
    }
    return lo < n && e[lo].u == u && e[lo].v == v ? &e[lo] : NULL;
}

static int check_closed(const pack_mesh *m, const char *what, char *err, size_t errlen)
{
    const int nv = 3 * m->n;
    vref *vr = malloc(sizeof *vr * (size_t)nv);
    int *id = malloc(sizeof *id * (size_t)nv);
    edge *e = malloc(sizeof *e * (size_t)nv);
    int rc = GRIT_OK;
    if (!vr || !id || !e) {
        rc = pack_fail(err, errlen, GRIT_ENOMEM, "%s: out of memory checking %d triangles", what, m->n);
        goto out;
    }
    for (int i = 0; i < nv; i++) vr[i] = (vref){m->t[i / 3][i % 3], i};
    qsort(vr, (size_t)nv, sizeof *vr, cmp_vref);
    for (int i = 0, k = -1; i < nv; i++) {
        if (i == 0 || cmp_vref(&(vref){vr[i - 1].p, 0}, &(vref){vr[i].p, 0}) != 0) k++;
        id[vr[i].i] = k;
    }
    int ne = 0;
    for (int t = 0; t < m->n; t++)
        for (int k = 0; k < 3; k++) {
            const int u = id[3 * t + k], v = id[3 * t + (k + 1) % 3];
            if (u != v) e[ne++] = (edge){u, v, t}; /* a collapsed edge joins nothing */
        }
    qsort(e, (size_t)ne, sizeof *e, cmp_edge);
    for (int i = 0; i < ne && rc == GRIT_OK; i++) {
        const grit_vec3 a = m->t[e[i].tri][0], b = m->t[e[i].tri][1], c = m->t[e[i].tri][2];
        grit_vec3 pu = a, pv = b;
        for (int k = 0; k < 3; k++) /* the edge's end points, for the message */
            if (id[3 * e[i].tri + k] == e[i].u) pu = k == 0 ? a : (k == 1 ? b : c);
        for (int k = 0; k < 3; k++)
            if (id[3 * e[i].tri + k] == e[i].v) pv = k == 0 ? a : (k == 1 ? b : c);
        if (i + 1 < ne && e[i + 1].u == e[i].u && e[i + 1].v == e[i].v)
            rc = pack_fail(err, errlen, GRIT_EFORMAT,
                           "%s is not a closed, consistently oriented solid: triangles %d and %d both run along the "
                           "edge (%g, %g, %g) -> (%g, %g, %g) in the same direction (a flipped triangle, or more than "
                           "two triangles on one edge)",
                           what, e[i].tri, e[i + 1].tri, pu.x, pu.y, pu.z, pv.x, pv.y, pv.z);
        else if (!find_edge(e, ne, e[i].v, e[i].u))
            rc = pack_fail(err, errlen, GRIT_EFORMAT,
                           "%s is not a closed solid: the edge (%g, %g, %g) - (%g, %g, %g) of triangle %d has no "
                           "triangle on its other side (a hole); its inside is undefined",
                           what, pu.x, pu.y, pu.z, pv.x, pv.y, pv.z, e[i].tri);
    }
out:
    free(vr), free(id), free(e);
    return rc;
}

/* ---- the grid --------------------------------------------------------------- */
static void tri_box(const grit_vec3 *t, grit_vec3 *lo, grit_vec3 *hi)
{
    *lo = v3(fmin(t[0].x, fmin(t[1].x, t[2].x)), fmin(t[0].y, fmin(t[1].y, t[2].y)), fmin(t[0].z, fmin(t[1].z, t[2].z)));
    *hi = v3(fmax(t[0].x, fmax(t[1].x, t[2].x)), fmax(t[0].y, fmax(t[1].y, t[2].y)), fmax(t[0].z, fmax(t[1].z, t[2].z)));
}

static int clampi(int v, int lo, int hi) { return v < lo ? lo : (v > hi ? hi : v); }

/* The grid cells [c0, c1] (per axis) that the box [lo, hi] touches. */
static void cell_range(const pack_mesh *m, grit_vec3 lo, grit_vec3 hi, int c0[3], int c1[3])
{
    const double l[3] = {lo.x - m->lo.x, lo.y - m->lo.y, lo.z - m->lo.z};
    const double u[3] = {hi.x - m->lo.x, hi.y - m->lo.y, hi.z - m->lo.z};
    for (int k = 0; k < 3; k++) {
        c0[k] = clampi((int)floor(l[k] / m->h[k]), 0, m->m[k] - 1);
        c1[k] = clampi((int)floor(u[k] / m->h[k]), 0, m->m[k] - 1);
    }
}

/* Inside or outside for every empty cell: breadth-first over face-connected
 * empty cells, one winding number per region. */
static int classify(pack_mesh *m, size_t nc)
{
    int *queue = malloc(sizeof *queue * nc);
    m->side = malloc(nc);
    if (!queue || !m->side) {
        free(queue);
        return -1;
    }
    const signed char UNSEEN = 2;
    for (size_t k = 0; k < nc; k++) m->side[k] = m->start[k + 1] > m->start[k] ? -1 : UNSEEN;
    const int n1 = m->m[1], n2 = m->m[2];
    for (size_t seed = 0; seed < nc; seed++) {
        if (m->side[seed] != UNSEEN) continue;
        const int sx = (int)(seed / ((size_t)n1 * n2)), sy = (int)(seed / n2 % n1), sz = (int)(seed % n2);
        const grit_vec3 c = v3(m->lo.x + (sx + 0.5) * m->h[0], m->lo.y + (sy + 0.5) * m->h[1],
                               m->lo.z + (sz + 0.5) * m->h[2]);
        const signed char in = fabs(winding(m, c)) > 0.5;
        size_t head = 0, tail = 0;
        queue[tail++] = (int)seed;
        m->side[seed] = in;
        while (head < tail) {
            const int k = queue[head++], x = k / (n1 * n2), y = k / n2 % n1, z = k % n2;
            const int nb[6][3] = {{x - 1, y, z}, {x + 1, y, z}, {x, y - 1, z}, {x, y + 1, z}, {x, y, z - 1}, {x, y, z + 1}};
            for (int f = 0; f < 6; f++) {
                if (nb[f][0] < 0 || nb[f][0] >= m->m[0] || nb[f][1] < 0 || nb[f][1] >= n1 || nb[f][2] < 0 ||
                    nb[f][2] >= n2)
                    continue;
                const int j = (nb[f][0] * n1 + nb[f][1]) * n2 + nb[f][2];
                if (m->side[j] != UNSEEN) continue;
                m->side[j] = in;
                queue[tail++] = j;
            }
        }
    }
    free(queue);
    return 0;
}

static int build_grid(pack_mesh *m)
{
    const double ext[3] = {m->hi.x - m->lo.x, m->hi.y - m->lo.y, m->hi.z - m->lo.z};
    const double emax = fmax(ext[0], fmax(ext[1], ext[2]));
    /* about two triangles per cell for a surface: n^(1/2) cells along the
     * longest edge */
    const double h = emax / fmax(1.0, fmin(128.0, ceil(sqrt((double)m->n))));
    size_t nc = 1;
    for (int k = 0; k < 3; k++) {
        m->m[k] = clampi((int)ceil(ext[k] / h), 1, 128);
        m->h[k] = ext[k] > 0 ? ext[k] / m->m[k] : 1.0;
        nc *= (size_t)m->m[k];
    }
    m->start = calloc(nc + 1, sizeof *m->start);
    if (!m->start) return -1;
    for (int pass = 0; pass < 2; pass++) { /* count, then fill */
        for (int t = 0; t < m->n; t++) {
            grit_vec3 lo, hi;
            int c0[3], c1[3];
            tri_box(m->t[t], &lo, &hi);
            /* widened a little: a cell called empty must really be free of the surface */
            const grit_vec3 pad = v3(1e-9 * m->h[0], 1e-9 * m->h[1], 1e-9 * m->h[2]);
            cell_range(m, v3_sub(lo, pad), v3_add(hi, pad), c0, c1);
            for (int x = c0[0]; x <= c1[0]; x++)
                for (int y = c0[1]; y <= c1[1]; y++)
                    for (int z = c0[2]; z <= c1[2]; z++) {
                        const size_t k = ((size_t)x * m->m[1] + y) * m->m[2] + z;
                        if (pass == 0) m->start[k + 1]++;
                        else m->items[m->start[k]++] = t;
                    }
        }
        if (pass == 0) {
            for (size_t k = 0; k < nc; k++) m->start[k + 1] += m->start[k];
            if (!(m->items = malloc(sizeof *m->items * (size_t)(m->start[nc] > 0 ? m->start[nc] : 1)))) return -1;
        } else { /* filling advanced every start to the next cell's: shift back */
            for (size_t k = nc; k > 0; k--) m->start[k] = m->start[k - 1];
            m->start[0] = 0;
        }
    }
    return classify(m, nc);
}

pack_mesh *pack_mesh_from_triangles(const grit_vec3 (*tri)[3], int n, const char *what, int *rc, char *err,
                                    size_t errlen)
{
    *rc = GRIT_EFORMAT;
    if (n < 4)
        return pack_fail(err, errlen, GRIT_EFORMAT, "%s has %d triangles: a closed solid needs at least 4", what, n),
               NULL;
    pack_mesh *m = calloc(1, sizeof *m);
    if (m) m->t = malloc(sizeof *m->t * (size_t)n);
    if (!m || !m->t) {
        pack_mesh_free(m);
        *rc = pack_fail(err, errlen, GRIT_ENOMEM, "%s: out of memory for %d triangles", what, n);
        return NULL;
    }
    memcpy(m->t, tri, sizeof *m->t * (size_t)n);
    m->n = n;
    m->lo = v3(INFINITY, INFINITY, INFINITY);
    m->hi = v3(-INFINITY, -INFINITY, -INFINITY);
    double vol6 = 0;
    for (int t = 0; t < n; t++) {
        grit_vec3 lo, hi;
        tri_box(m->t[t], &lo, &hi);
        m->lo = v3(fmin(m->lo.x, lo.x), fmin(m->lo.y, lo.y), fmin(m->lo.z, lo.z));
        m->hi = v3(fmax(m->hi.x, hi.x), fmax(m->hi.y, hi.y), fmax(m->hi.z, hi.z));
        vol6 += v3_dot(m->t[t][0], v3_cross(m->t[t][1], m->t[t][2]));
    }
    if ((*rc = check_closed(m, what, err, errlen))) {
        pack_mesh_free(m);
        return NULL;
    }
    m->volume = fabs(vol6) / 6;
    const double ext = v3_norm(v3_sub(m->hi, m->lo));
    if (!(m->volume > 1e-12 * ext * ext * ext)) {
        pack_mesh_free(m);
        *rc = pack_fail(err, errlen, GRIT_EFORMAT, "%s encloses no volume (%g m^3)", what, fabs(vol6) / 6);
        return NULL;
    }
    if (build_grid(m)) {
        pack_mesh_free(m);
        *rc = pack_fail(err, errlen, GRIT_ENOMEM, "%s: out of memory for the search grid", what);
        return NULL;
    }
    *rc = GRIT_OK;
    return m;
}

pack_mesh *pack_mesh_load(const char *path, double scale, grit_vec3 shift, int *rc, char *err, size_t errlen)
{
    grit_stl_mesh sm;
    if ((*rc = grit_stl_read(path, scale, q_identity(), shift, &sm, err, errlen))) return NULL;
    pack_mesh *m = pack_mesh_from_triangles((const grit_vec3(*)[3])sm.tri, sm.n, path, rc, err, errlen);
    grit_stl_mesh_free(&sm);
    return m;
}

/* ---- queries ------------------------------------------------------------------ */
static double seg_dist2(grit_vec3 p, grit_vec3 a, grit_vec3 b)
{
    const grit_vec3 ab = v3_sub(b, a), ap = v3_sub(p, a);
    const double l2 = v3_norm2(ab);
    const double t = l2 > 0 ? clamp(v3_dot(ap, ab) / l2, 0.0, 1.0) : 0.0;
    return v3_norm2(v3_madd(ap, -t, ab));
}

/* The squared distance from p to a triangle: to its plane if p projects
 * inside it, else to the nearest edge. */
static double tri_dist2(grit_vec3 p, const grit_vec3 *t)
{
    const grit_vec3 e0 = v3_sub(t[1], t[0]), e1 = v3_sub(t[2], t[0]), n = v3_cross(e0, e1);
    const double nn = v3_norm2(n);
    if (nn > 0) {
        const grit_vec3 ap = v3_sub(p, t[0]);
        /* barycentric coordinates of the projection */
        const double u = v3_dot(v3_cross(ap, e1), n) / nn, v = v3_dot(v3_cross(e0, ap), n) / nn;
        if (u >= 0 && v >= 0 && u + v <= 1) {
            const double d = v3_dot(ap, n);
            return d * d / nn;
        }
    }
    return fmin(seg_dist2(p, t[0], t[1]), fmin(seg_dist2(p, t[1], t[2]), seg_dist2(p, t[2], t[0])));
}

static double winding(const pack_mesh *m, grit_vec3 p)
{
    double w = 0;
    for (int t = 0; t < m->n; t++) {
        const grit_vec3 a = v3_sub(m->t[t][0], p), b = v3_sub(m->t[t][1], p), c = v3_sub(m->t[t][2], p);
        const double la = v3_norm(a), lb = v3_norm(b), lc = v3_norm(c);
        /* tan(omega / 2) of the triangle's solid angle (Van Oosterom and
         * Strackee); atan2 keeps the quadrant */
        const double num = v3_dot(a, v3_cross(b, c));
        const double den = la * lb * lc + v3_dot(a, b) * lc + v3_dot(a, c) * lb + v3_dot(b, c) * la;
        w += 2 * atan2(num, den);
    }
    return w / (4 * M_PI);
}

int pack_mesh_contains(const pack_mesh *m, grit_vec3 c, double r)
{
    int c0[3], c1[3];
    cell_range(m, v3_add(c, v3(-r, -r, -r)), v3_add(c, v3(r, r, r)), c0, c1);
    const double r2 = r * r;
    for (int x = c0[0]; x <= c1[0]; x++)
        for (int y = c0[1]; y <= c1[1]; y++)
            for (int z = c0[2]; z <= c1[2]; z++) {
                const size_t k = ((size_t)x * m->m[1] + y) * m->m[2] + z;
                for (int i = m->start[k]; i < m->start[k + 1]; i++)
                    if (tri_dist2(c, m->t[m->items[i]]) < r2) return 0;
            }
    /* the centre's own cell, when the surface does not pass through it */
    int k0[3], k1[3];
    cell_range(m, c, c, k0, k1);
    const signed char side = m->side[((size_t)k0[0] * m->m[1] + k0[1]) * m->m[2] + k0[2]];
    if (side >= 0 && c.x >= m->lo.x && c.y >= m->lo.y && c.z >= m->lo.z && c.x <= m->hi.x && c.y <= m->hi.y &&
        c.z <= m->hi.z)
        return side;
    return fabs(winding(m, c)) > 0.5;
}
