/* grit: the broad phase of a periodic cell (see periodic.h).
 *
 * Why it finds every contact, with the right image. At a rebuild, particle
 * i's box (enlarged by the skin dv) is mapped to reduced coordinates
 * r = H^-1 x: its centre is split into a period p_i (integers) and a wrapped
 * part in [0,1)^3, its half-extents become the extents of the mapped box
 * (exact for a ball: R times the norm of a row of H^-1). Two wrapped boxes
 * narrower than 1/2 overlap in at most one image m per axis, the nearest
 * integer to the difference of their centres; the physical image of B is
 * then k = m - p_B + p_A. A pair is reported from the grid cell of the
 * lower corner of the intersection, computed in integer cell units so that
 * it is exactly one of the cells both boxes were binned in.
 *
 * Between rebuilds, the image of B relative to A moves by the change of the
 * two wrapped images, x - H p, plus (H - H_rebuild) m with |m_i| <= 1. The
 * integrator tracks the largest move of a wrapped image, D; the pair list is
 * rebuilt when D + max_m |(H - H_rebuild) m| / 2 exceeds dv, so two shapes
 * touching now had overlapping enlarged boxes at the rebuild. */
#include "collide/periodic.h"

#include <stdlib.h>
#include <string.h>

#include "cg2/cg2.h"
#include "grit/cell.h" /* declares the exported functions defined here */
#include "collide/broadphase.h"
#include "collide/sort.h"
#include "core/storage.h"
#include "material/material.h"
#include "shape/shape.h"

/* a candidate partner j of particle i, with the image k of j */
typedef struct pcand {
    int32_t j;
    int8_t k[3];
} pcand;

typedef struct grit_pbp {
    grit_aabb *box;     /* enlarged boxes moved to the wrapped image (for sorting) */
    grit_aabb *pbox;    /* enlarged boxes where they are (grit_periodic_box_escaped) */
    int n_boxes;        /* particles boxed at the last rebuild */
    grit_vec3 *rc, *re; /* reduced centre wrapped into [0,1)^3, reduced half-extents */
    int32_t *range;     /* 6 per particle: lowest and highest cell per axis, unwrapped */
    int cap;
    int32_t *cell_start, *items;
    int cell_cap, items_cap;
    pcand *cand;
    int cand_cap;
    int32_t *old_start, *old_list;
    int old_cap, old_list_cap;
    int dim[3];
} grit_pbp;

void grit_pbp_destroy(grit_pbp *p)
{
    if (!p) return;
    free(p->box);
    free(p->pbox);
    free(p->rc);
    free(p->re);
    free(p->range);
    free(p->cell_start);
    free(p->items);
    free(p->cand);
    free(p->old_start);
    free(p->old_list);
    free(p);
}

static int reserve(void **ptr, int *cap, size_t elem, int need)
{
    if (need <= *cap) return 0;
    int c = need + need / 2 + 16;
    if (grit_grow(ptr, elem, c)) return -1;
    *cap = c;
    return 0;
}

static inline int wrapi(int x, int n)
{
    int r = x % n;
    return r < 0 ? r + n : r;
}

/* Reduced centre (unwrapped) and half-extents of particle i's box enlarged
 * by skin; false if the box is unbounded. */
static bool reduced_box(const grit_scene *s, int i, const grit_mat3 *Hinv, double skin, grit_vec3 *centre,
                        grit_vec3 *half)
{
    grit_aabb bb = grit_shape_classes[s->b.shape[i]]->aabb(s, i);
    if (!v3_isfinite(bb.lo) || !v3_isfinite(bb.hi)) return false;
    grit_vec3 h = v3_add(v3_scale(v3_sub(bb.hi, bb.lo), 0.5), v3(skin, skin, skin));
    *centre = m3_mul(Hinv, v3_scale(v3_add(bb.lo, bb.hi), 0.5));
    for (int a = 0; a < 3; a++) {
        grit_vec3 row = m3_row(Hinv, a);
        double e = s->b.shape[i] == GRIT_SHAPE_SPHERE ? h.x * v3_norm(row) /* ball: exact */
                                                      : fabs(row.x) * h.x + fabs(row.y) * h.y + fabs(row.z) * h.z;
        v3_set(half, a, e);
    }
    return true;
}

void grit_rspan_add(grit_rspan *sp, const grit_mat3 *Hinv, grit_vec3 x, double r)
{
    for (int a = 0; a < 3; a++) {
        const grit_vec3 row = m3_row(Hinv, a);
        const double c = v3_dot(row, x), e = r * v3_norm(row);
        sp->lo[a] = fmin(sp->lo[a], c - e);
        sp->hi[a] = fmax(sp->hi[a], c + e);
    }
}

int grit_rspan_over(const grit_rspan *sp, double limit, double *width)
{
    for (int a = 0; a < 3; a++) {
        *width = sp->hi[a] - sp->lo[a];
        if (!(*width < limit)) return a;
    }
    return -1;
}

/* The reduced span of clump c's members, each ball enlarged by skin. */
static grit_rspan clump_span(const grit_scene *s, int c, const grit_mat3 *Hinv, double skin)
{
    grit_rspan sp = grit_rspan_empty();
    const grit_clump_data *cd = &s->clumps[c];
    for (int k = 0; k < cd->n; k++) {
        const int j = s->id2idx[cd->body + 1 + k];
        grit_rspan_add(&sp, Hinv, s->b.pr[j].pos, s->b.pr[j].r + skin);
    }
    return sp;
}

int grit_periodic_check_boxes(grit_scene *s, const grit_mat3 *H, double skin, const char *who)
{
    const grit_mat3 Hinv = m3_inverse(H);
    for (int i = 0; i < s->b.n; i++) {
        const grit_shape_class *sc = grit_shape_classes[s->b.shape[i]];
        grit_vec3 c, e;
        if (sc->unbounded || !reduced_box(s, i, &Hinv, skin, &c, &e))
            return grit_fail(s, GRIT_ESTATE,
                             "%s: particle %d is a %s, an unbounded shape: walls and other unbounded shapes are not "
                             "allowed in a periodic scene",
                             who, s->b.id[i], sc->name);
        for (int a = 0; a < 3; a++)
            if (!(2.0 * v3_get(e, a) < 0.5))
                return grit_fail(s, GRIT_ESTATE,
                                 "%s: particle %d: its bounding box%s spans %.4g of the periodic cell along base "
                                 "vector %d; it must stay below 0.5 (enlarge the cell%s)",
                                 who, s->b.id[i], skin > 0 ? " with the skin" : "", 2.0 * v3_get(e, a), a,
                                 skin > 0 ? ", or reduce verlet_dist" : "");
    }
    for (int c = 0; c < s->n_clumps; c++) {
        const grit_rspan sp = clump_span(s, c, &Hinv, skin);
        double w;
        const int a = grit_rspan_over(&sp, 0.5, &w);
        if (a >= 0)
            return grit_fail(s, GRIT_ESTATE,
                             "%s: clump %d (%d members) spans %.4g of the periodic cell along base vector %d%s; it "
                             "must stay below 0.5 so that it never meets its own image (enlarge the cell%s)",
                             who, s->clumps[c].body, s->clumps[c].n, w, a, skin > 0 ? " with the skin" : "",
                             skin > 0 ? ", or reduce verlet_dist" : "");
    }
    return GRIT_OK;
}

double grit_periodic_max_skin(const grit_scene *s)
{
    const grit_mat3 Hinv = m3_inverse(&s->cell->H);
    double cap = INFINITY;
    for (int i = 0; i < s->b.n; i++) {
        grit_vec3 c, e0, e1;
        /* the half extent is affine in the skin: its value at 0 and its growth per unit */
        if (!reduced_box(s, i, &Hinv, 0.0, &c, &e0) || !reduced_box(s, i, &Hinv, 1.0, &c, &e1)) continue;
        for (int a = 0; a < 3; a++) {
            const double g = v3_get(e1, a) - v3_get(e0, a);
            if (g > 0) cap = fmin(cap, (0.225 - v3_get(e0, a)) / g);
        }
    }
    for (int c = 0; c < s->n_clumps; c++) { /* the skin widens a clump's span by 2 |row| per unit */
        const grit_rspan sp = clump_span(s, c, &Hinv, 0.0);
        for (int a = 0; a < 3; a++) {
            const grit_vec3 row = m3_row(&Hinv, a);
            cap = fmin(cap, (0.45 - (sp.hi[a] - sp.lo[a])) / (2.0 * v3_norm(row)));
        }
    }
    return cap;
}

/* Room for n particles in the per-particle arrays. */
static int reserve_boxes(grit_pbp *p, int n)
{
    if (n <= p->cap) return 0;
    int nc = n + n / 2 + 16;
    if (grit_grow((void **)&p->box, sizeof *p->box, nc) || grit_grow((void **)&p->pbox, sizeof *p->pbox, nc) ||
        grit_grow((void **)&p->rc, sizeof *p->rc, nc) || grit_grow((void **)&p->re, sizeof *p->re, nc) ||
        grit_grow((void **)&p->range, 6 * sizeof(int32_t), nc))
        return -1;
    p->cap = nc;
    return 0;
}

void grit_pbp_get_boxes(const grit_cell *c, const grit_aabb **box, int *n)
{
    *box = c->pbp ? c->pbp->pbox : NULL;
    *n = c->pbp ? c->pbp->n_boxes : 0;
}

int grit_pbp_set_boxes(grit_cell *c, const grit_aabb *box, int n)
{
    if (!c->pbp && !(c->pbp = calloc(1, sizeof *c->pbp))) return -1;
    if (reserve_boxes(c->pbp, n)) return -1;
    if (n > 0) memcpy(c->pbp->pbox, box, sizeof *box * (size_t)n);
    c->pbp->n_boxes = n;
    return 0;
}

/* Reduced boxes, periods and wrapped physical boxes of all particles. */
static int reduce_boxes(grit_scene *s, double dv)
{
    grit_cell *c = s->cell;
    grit_pbp *p = c->pbp;
    const int n = s->b.n;
    if (reserve_boxes(p, n)) return grit_fail(s, GRIT_ENOMEM, "out of memory in the periodic broad phase");
    if (reserve((void **)&c->period, &c->cap_period, sizeof *c->period, n))
        return grit_fail(s, GRIT_ENOMEM, "out of memory in the periodic broad phase");
    int rc = grit_periodic_check_boxes(s, &c->H, dv, "periodic broad phase");
    if (rc) return rc;
    for (int i = 0; i < n; i++) {
        grit_vec3 r, e;
        reduced_box(s, i, &c->Hinv, dv, &r, &e);
        grit_vec3 per = v3(floor(r.x), floor(r.y), floor(r.z));
        grit_vec3 w = v3_sub(r, per);
        for (int a = 0; a < 3; a++) /* r - floor(r) rounds to 1 for tiny negative r */
            if (v3_get(w, a) >= 1.0) {
                v3_set(&w, a, 0.0);
                v3_set(&per, a, v3_get(per, a) + 1.0);
            }
        p->rc[i] = w;
        p->re[i] = e;
        c->period[i] = per;
        grit_aabb bb = grit_shape_classes[s->b.shape[i]]->aabb(s, i);
        const grit_vec3 sh = m3_mul(&c->H, per), e3 = v3(dv, dv, dv); /* box moved to the wrapped image */
        p->pbox[i] = (grit_aabb){v3_sub(bb.lo, e3), v3_add(bb.hi, e3)};
        p->box[i] = (grit_aabb){v3_sub(p->pbox[i].lo, sh), v3_sub(p->pbox[i].hi, sh)};
    }
    c->n_period = n;
    p->n_boxes = n;
    return GRIT_OK;
}

/* Grid in reduced coordinates: cells about the mean box width (as the
 * aperiodic grid), a whole number of them per base vector. */
static void choose_grid(grit_scene *s)
{
    grit_pbp *p = s->cell->pbp;
    const int n = s->b.n;
    grit_vec3 sum = v3_zero(), mx = v3_zero();
    int cnt = 0;
    for (int pass = 0; pass < 2 && cnt == 0; pass++) /* spheres set the size; else every shape */
        for (int i = 0; i < n; i++) {
            if (pass == 0 && s->b.shape[i] != GRIT_SHAPE_SPHERE) continue;
            grit_vec3 w = v3_scale(p->re[i], 2.0);
            sum = v3_add(sum, w);
            mx = v3(fmax(mx.x, w.x), fmax(mx.y, w.y), fmax(mx.z, w.z));
            cnt++;
        }
    double limit = fmax(8.0 * n, 65536.0), d[3];
    for (int a = 0; a < 3; a++) {
        double h = cnt ? fmax(v3_get(sum, a) / cnt, v3_get(mx, a) / 4.0) : 1.0;
        d[a] = h > 0 ? fmax(1.0, floor(1.0 / h)) : 1.0;
        if (d[a] > 65536.0) d[a] = 65536.0;
    }
    while (d[0] * d[1] * d[2] > limit)
        for (int a = 0; a < 3; a++) d[a] = fmax(1.0, floor(d[a] / 1.25));
    for (int a = 0; a < 3; a++) p->dim[a] = (int)d[a];
}

/* The cells visited for a box: its range, or the whole axis when the range
 * would wrap onto itself. */
static inline void vis(const grit_pbp *p, const int32_t *r, int a, int *lo, int *hi)
{
    if (r[3 + a] - r[a] + 1 >= p->dim[a]) {
        *lo = 0;
        *hi = p->dim[a] - 1;
    } else {
        *lo = r[a];
        *hi = r[3 + a];
    }
}

#define FOR_CELLS(p, r, CELL)                                                                               \
    do {                                                                                                    \
        int lo_[3], hi_[3];                                                                                 \
        for (int a_ = 0; a_ < 3; a_++) vis(p, r, a_, &lo_[a_], &hi_[a_]);                                   \
        for (int z_ = lo_[2]; z_ <= hi_[2]; z_++)                                                           \
            for (int y_ = lo_[1]; y_ <= hi_[1]; y_++)                                                       \
                for (int x_ = lo_[0]; x_ <= hi_[0]; x_++) {                                                 \
                    const int cx = wrapi(x_, p->dim[0]), cy = wrapi(y_, p->dim[1]), cz = wrapi(z_, p->dim[2]); \
                    const int CELL = (cz * p->dim[1] + cy) * p->dim[0] + cx;                                \
                    (void)cx;                                                                               \
                    (void)cy;                                                                               \
                    (void)cz;
#define END_CELLS \
    }             \
    }             \
    while (0)

static int bin_boxes(grit_scene *s)
{
    grit_pbp *p = s->cell->pbp;
    const int n = s->b.n;
    const int ncell = p->dim[0] * p->dim[1] * p->dim[2];
    if (reserve((void **)&p->cell_start, &p->cell_cap, sizeof(int32_t), ncell + 1)) return -1;
    memset(p->cell_start, 0, sizeof(int32_t) * (size_t)(ncell + 1));
    long total = 0;
    for (int i = 0; i < n; i++) {
        int32_t *r = &p->range[6 * i];
        for (int a = 0; a < 3; a++) {
            double c = v3_get(p->rc[i], a), e = v3_get(p->re[i], a);
            r[a] = (int32_t)floor((c - e) * p->dim[a]);
            r[3 + a] = (int32_t)floor((c + e) * p->dim[a]);
        }
        FOR_CELLS(p, r, cell)
        {
            p->cell_start[cell + 1]++;
            total++;
        }
        END_CELLS;
    }
    if (total > INT32_MAX / 2 || reserve((void **)&p->items, &p->items_cap, sizeof(int32_t), (int)total)) return -1;
    for (int c = 0; c < ncell; c++) p->cell_start[c + 1] += p->cell_start[c];
    for (int i = 0; i < n; i++) {
        const int32_t *r = &p->range[6 * i];
        FOR_CELLS(p, r, cell) { p->items[p->cell_start[cell]++] = i; }
        END_CELLS;
    }
    for (int c = ncell; c > 0; c--) p->cell_start[c] = p->cell_start[c - 1];
    p->cell_start[0] = 0;
    return 0;
}

static inline bool cand_less(pcand x, pcand y)
{
    if (x.j != y.j) return x.j < y.j;
    for (int a = 0; a < 3; a++)
        if (x.k[a] != y.k[a]) return x.k[a] < y.k[a];
    return false;
}

static void sort_cands(pcand *v, int n)
{
    for (int i = 1; i < n; i++) {
        pcand x = v[i];
        int j = i - 1;
        while (j >= 0 && cand_less(x, v[j])) {
            v[j + 1] = v[j];
            j--;
        }
        v[j + 1] = x;
    }
}

static inline bool cand_is(pcand c, int j, const int8_t k[3])
{
    return c.j == j && c.k[0] == k[0] && c.k[1] == k[1] && c.k[2] == k[2];
}

static int push_cand(grit_pbp *p, int *nc, int j, const int8_t k[3])
{
    if (reserve((void **)&p->cand, &p->cand_cap, sizeof *p->cand, *nc + 1)) return -1;
    p->cand[*nc] = (pcand){j, {k[0], k[1], k[2]}};
    (*nc)++;
    return 0;
}

/* Partners j > i of particle i with their images, sorted; -1: out of
 * memory, -2: an image beyond the int8 range (error set). */
static int partners(grit_scene *s, int i)
{
    const grit_cell *C = s->cell;
    grit_pbp *p = C->pbp;
    const double skin2 = 2.0 * s->verlet_dist;
    const int32_t *ri = &p->range[6 * i];
    const grit_vec3 ci = p->rc[i], ei = p->re[i], pi = C->period[i];
    int nc = 0;
    FOR_CELLS(p, ri, cell)
    {
        const int cc[3] = {cx, cy, cz};
        for (int q = p->cell_start[cell]; q < p->cell_start[cell + 1]; q++) {
            const int j = p->items[q];
            if (j <= i) continue;
            const int32_t *rj = &p->range[6 * j];
            int m[3];
            bool ok = true;
            for (int a = 0; a < 3 && ok; a++) {
                double d = v3_get(ci, a) - v3_get(p->rc[j], a);
                m[a] = (int)lround(d);
                const int shift = m[a] * p->dim[a];
                const int corner = ri[a] > rj[a] + shift ? ri[a] : rj[a] + shift;
                ok = fabs(d - m[a]) <= v3_get(ei, a) + v3_get(p->re[j], a) && corner <= ri[3 + a] &&
                     corner <= rj[3 + a] + shift && wrapi(corner, p->dim[a]) == cc[a];
            }
            if (!ok || !grit_may_collide(s, i, j)) continue;
            const grit_vec3 kd = v3_add(v3_sub(v3(m[0], m[1], m[2]), C->period[j]), pi);
            if (fabs(kd.x) > 127 || fabs(kd.y) > 127 || fabs(kd.z) > 127) {
                grit_fail(s, GRIT_ESTATE,
                          "periodic broad phase: particles %d and %d touch across %g, %g, %g cells; images beyond "
                          "127 cells are not supported (positions are never wrapped: a particle drifted too far)",
                          s->b.id[i], s->b.id[j], kd.x, kd.y, kd.z);
                return -2;
            }
            const int8_t k[3] = {(int8_t)kd.x, (int8_t)kd.y, (int8_t)kd.z};
            if (s->b.shape[i] == GRIT_SHAPE_SPHERE && s->b.shape[j] == GRIT_SHAPE_SPHERE) {
                const grit_posr a = s->b.pr[i], b = s->b.pr[j];
                const double reach = (a.r + b.r) * s->def.interaction_radius + skin2;
                if (v3_norm2(v3_sub(v3_add(b.pos, m3_mul_k(&C->H, k)), a.pos)) > reach * reach) continue;
            }
            if (push_cand(p, &nc, j, k)) return -1;
        }
    }
    END_CELLS;
    sort_cands(p->cand, nc);
    return nc;
}

/* Index old real contacts by their lower particle index. */
static int index_old_contacts(grit_scene *s)
{
    grit_pbp *p = s->cell->pbp;
    const grit_contacts *C = &s->c;
    const int n = s->b.n;
    if (reserve((void **)&p->old_start, &p->old_cap, sizeof(int32_t), n + 1)) return -1;
    memset(p->old_start, 0, sizeof(int32_t) * (size_t)(n + 1));
    int nreal = 0;
    for (int k = 0; k < C->n; k++)
        if (C->pair[k].flags & CF_REAL) {
            p->old_start[(C->pair[k].a < C->pair[k].b ? C->pair[k].a : C->pair[k].b) + 1]++;
            nreal++;
        }
    if (reserve((void **)&p->old_list, &p->old_list_cap, sizeof(int32_t), nreal)) return -1;
    for (int i = 0; i < n; i++) p->old_start[i + 1] += p->old_start[i];
    for (int k = 0; k < C->n; k++)
        if (C->pair[k].flags & CF_REAL)
            p->old_list[p->old_start[C->pair[k].a < C->pair[k].b ? C->pair[k].a : C->pair[k].b]++] = k;
    for (int i = n; i > 0; i--) p->old_start[i] = p->old_start[i - 1];
    p->old_start[0] = 0;
    return 0;
}

/* The partner and image of an old contact seen from its particle i. */
static void old_partner(const grit_pair *op, int i, int *j, int8_t k[3])
{
    const int sg = op->a == i ? 1 : -1;
    *j = op->a == i ? op->b : op->a;
    for (int a = 0; a < 3; a++) k[a] = (int8_t)(sg * op->cell[a]);
}

/* The new candidate list, into the broad phase's (broadphase.c installs it):
 * each pair with the old real contact whose state it keeps, or -1. */
static int build_pairs(grit_scene *s)
{
    grit_pbp *p = s->cell->pbp;
    const grit_contacts *C = &s->c;
    grit_broadphase_begin(s);
    if (index_old_contacts(s)) return -1;
    for (int i = 0; i < s->b.n; i++) {
        int nc = partners(s, i);
        if (nc < 0) return nc;
        const int os = p->old_start[i], oe = p->old_start[i + 1];
        bool added = false;
        for (int q = os; q < oe; q++) { /* real contacts whose boxes no longer overlap are kept */
            int j;
            int8_t k[3];
            old_partner(&C->pair[p->old_list[q]], i, &j, k);
            bool found = false;
            for (int t = 0; t < nc && !found; t++) found = cand_is(p->cand[t], j, k);
            if (!found) {
                if (push_cand(p, &nc, j, k)) return -1;
                added = true;
            }
        }
        if (added) sort_cands(p->cand, nc);
        for (int t = 0; t < nc; t++) {
            const pcand cd = p->cand[t];
            int old = -1;
            for (int q = os; q < oe && old < 0; q++) {
                int j;
                int8_t k[3];
                old_partner(&C->pair[p->old_list[q]], i, &j, k);
                if (cand_is(cd, j, k)) old = p->old_list[q];
            }
            grit_pair np;
            const uint8_t law = grit_matpair_of(s, s->b.mat[i], s->b.mat[cd.j])->law;
            if (old >= 0) {
                np = C->pair[old];
                if (np.law != law) { /* the materials' law changed (a pair override) */
                    np.law = law;
                    np.flags |= CF_NEW_LAW;
                }
            } else {
                const grit_cg2_entry e = grit_cg2_lookup(s->b.shape[i], s->b.shape[cd.j]);
                memset(&np, 0, sizeof np);
                const bool sw = grit_pair_swapped(s, e.swap, i, cd.j);
                np.a = sw ? cd.j : i;
                np.b = sw ? i : cd.j;
                np.kind = e.kind;
                np.law = law;
                for (int a = 0; a < 3; a++) np.cell[a] = (int8_t)(sw ? -cd.k[a] : cd.k[a]);
            }
            if (grit_broadphase_push(s, &np, old)) return -1;
        }
    }
    return 0;
}

/* Morton re-sort on the wrapped boxes (neighbours across the cell stay far
 * apart in memory, but every particle is near its wrapped neighbours). */
static int sort_particles(grit_scene *s)
{
    grit_pbp *p = s->cell->pbp;
    grit_vec3 lo = v3(INFINITY, INFINITY, INFINITY);
    double h = 0;
    for (int i = 0; i < s->b.n; i++) {
        lo = v3(fmin(lo.x, p->box[i].lo.x), fmin(lo.y, p->box[i].lo.y), fmin(lo.z, p->box[i].lo.z));
        h += v3_maxabs(v3_sub(p->box[i].hi, p->box[i].lo));
    }
    h = s->b.n > 0 ? h / s->b.n : 1.0;
    return grit_sort_particles(s, lo, h > 0 ? h : 1.0, p->box);
}

int grit_rebuild_periodic(grit_scene *s)
{
    grit_cell *c = s->cell;
    if (!c->pbp && !(c->pbp = calloc(1, sizeof *c->pbp)))
        return grit_fail(s, GRIT_ENOMEM, "out of memory in the periodic broad phase");
    const double dv = grit_verlet_dist(s);
    int rc = reduce_boxes(s, dv);
    if (rc) return rc;
    if (s->def.sort_period > 0 && (s->last_sort_step < 0 || s->step - s->last_sort_step >= s->def.sort_period)) {
        if (sort_particles(s)) return grit_fail(s, GRIT_ENOMEM, "out of memory sorting particles");
        s->last_sort_step = s->step;
        s->stats.sorts++;
        if ((rc = reduce_boxes(s, dv))) return rc; /* in the new order */
    }
    choose_grid(s);
    if (bin_boxes(s)) return grit_fail(s, GRIT_ENOMEM, "out of memory in the periodic broad phase");
    rc = build_pairs(s);
    if (rc == -2) return GRIT_ESTATE;
    if (rc) return grit_fail(s, GRIT_ENOMEM, "out of memory in the periodic broad phase");
    c->H_rebuild = c->H;
    c->dH = m3_zero();
    return grit_broadphase_finish(s);
}

double grit_periodic_disp2(const grit_scene *s)
{
    const grit_mat3 *dH = &s->cell->dH;
    double g2 = 0;
    for (int m = 0; m < 27; m++) {
        const int8_t k[3] = {(int8_t)(m % 3 - 1), (int8_t)(m / 3 % 3 - 1), (int8_t)(m / 9 - 1)};
        g2 = fmax(g2, v3_norm2(m3_mul_k(dH, k)));
    }
    const double d = sqrt(s->max_disp2) + 0.5 * sqrt(g2);
    return d * d;
}

bool grit_periodic_box_escaped(const grit_scene *s, int i)
{
    const grit_pbp *p = s->cell->pbp;
    if (!p || i >= p->n_boxes) return true;
    const grit_aabb b = grit_shape_classes[s->b.shape[i]]->aabb(s, i), *e = &p->pbox[i];
    return !(b.lo.x >= e->lo.x && b.lo.y >= e->lo.y && b.lo.z >= e->lo.z && b.hi.x <= e->hi.x &&
             b.hi.y <= e->hi.y && b.hi.z <= e->hi.z);
}

/* ------------------------------------------------------------ tests */
int grit_cell_brute_force_overlaps(grit_scene *s, int *out, int cap)
{
    if (!s->cell) return grit_fail(s, GRIT_ESTATE, "grit_cell_brute_force_overlaps: the scene has no periodic cell");
    const grit_cell *C = s->cell;
    const grit_l6geom dummy = {0};
    int n = 0;
    for (int i = 0; i < s->b.n; i++)
        for (int j = i + 1; j < s->b.n; j++) {
            if (!grit_may_collide(s, i, j)) continue;
            const grit_cg2_entry e = grit_cg2_lookup(s->b.shape[i], s->b.shape[j]);
            const int a = e.swap ? j : i, b = e.swap ? i : j;
            const grit_vec3 r = m3_mul(&C->Hinv, v3_sub(s->b.pr[b].pos, s->b.pr[a].pos));
            const grit_vec3 k0 = v3(-round(r.x), -round(r.y), -round(r.z));
            for (int m = 0; m < 27; m++) {
                const int8_t k[3] = {(int8_t)(k0.x + m % 3 - 1), (int8_t)(k0.y + m / 3 % 3 - 1),
                                     (int8_t)(k0.z + m / 9 - 1)};
                grit_cg2_out o;
                if (!grit_cg2_eval(s, e.kind, a, b, m3_mul_k(&C->H, k), false, &dummy, &o) || !(o.uN < 0)) continue;
                if (n < cap) {
                    int *q = &out[5 * n];
                    q[0] = s->b.id[a];
                    q[1] = s->b.id[b];
                    q[2] = k[0];
                    q[3] = k[1];
                    q[4] = k[2];
                }
                n++;
            }
        }
    return n;
}

static void put5(const grit_scene *s, const grit_pair *p, int *q)
{
    q[0] = s->b.id[p->a];
    q[1] = s->b.id[p->b];
    q[2] = p->cell[0];
    q[3] = p->cell[1];
    q[4] = p->cell[2];
}

int grit_cell_potential_pairs(const grit_scene *s, int *out, int cap)
{
    int n = 0;
    for (int k = 0; k < s->c.n; k++, n++)
        if (n < cap) put5(s, &s->c.pair[k], &out[5 * n]);
    for (int k = 0; k < s->c.n_pot; k++) {
        if (s->c.pot[k].flags & CF_PROMOTED) continue;
        if (n < cap) put5(s, &s->c.pot[k], &out[5 * n]);
        n++;
    }
    return n;
}
