/* grit: binned-cell broad phase with a Verlet skin (see broadphase.h). */
#include "collide/broadphase.h"

#include <stdlib.h>
#include <string.h>

#include "cg2/cg2.h"
#include "contact/adjacency.h"
#include "collide/periodic.h"
#include "collide/sort.h"
#include "collide/verlet_auto.h"
#include "core/assert.h"
#include "core/clock.h"
#include "core/storage.h"
#include "material/material.h"
#include "shape/shape.h"

/* A box spanning more cells than this is tested against every particle. */
#define MAX_CELLS_PER_BOX 4096
/* The grid never has more cells than this many per binned box (or 2^16). */
#define MAX_CELLS_PER_ITEM 8

typedef struct grit_broadphase {
    grit_aabb *box; /* enlarged boxes, by internal index */
    int32_t *range; /* 6 ints per particle: cell lo xyz, hi xyz (binned ones) */
    uint8_t *special;
    int box_cap;
    int n_boxes; /* particles boxed at the last rebuild */
    int32_t *specials;
    int n_specials;
    int32_t *cell_start;
    int cell_cap;
    int32_t *items;
    int items_cap;
    int32_t *cand;
    int cand_cap;
    int32_t *old_start, *old_list;
    int old_cap, old_list_cap;
    /* the new candidate list: pairs and the old contact each keeps (-1: none) */
    grit_pair *npair;
    int32_t *nsrc, *perm;
    uint8_t *done;
    int nn, ncap, perm_cap;
    /* rotation-sensitive particles: index, rot_radius, orientation at the
     * last rebuild (spec 9.1) */
    int32_t *rot;
    double *rot_r;
    grit_quat *rot_q0;
    int n_rot, rot_cap;
    grit_vec3 origin;
    double h, inv_h;
    int dim[3];
} grit_broadphase;

grit_broadphase *grit_broadphase_create(void) { return calloc(1, sizeof(grit_broadphase)); }

void grit_broadphase_destroy(grit_broadphase *bp)
{
    if (!bp) return;
    free(bp->box);
    free(bp->range);
    free(bp->special);
    free(bp->specials);
    free(bp->cell_start);
    free(bp->items);
    free(bp->cand);
    free(bp->old_start);
    free(bp->old_list);
    free(bp->npair);
    free(bp->nsrc);
    free(bp->perm);
    free(bp->done);
    free(bp->rot);
    free(bp->rot_r);
    free(bp->rot_q0);
    free(bp);
}

double grit_verlet_dist(grit_scene *s)
{
    if (!isnan(s->verlet_dist)) return s->verlet_dist;
    double vd = s->def.verlet_dist;
    if (isnan(vd)) return s->verlet_dist = grit_verlet_auto_choose(s, NAN); /* the first automatic skin */
    if (vd >= 0) {
        s->verlet_dist = vd;
        return vd;
    }
    const double rmin = grit_min_radius(s);
    s->verlet_dist = isfinite(rmin) ? -vd * rmin : 0.0;
    return s->verlet_dist;
}

bool grit_may_collide(const grit_scene *s, int i, int j)
{
    uint32_t m = s->b.mask[i] & s->b.mask[j];
    if (m == 0 || (m & GRIT_MASK_LONE)) return false;
    /* MPI: contacts of this rank have one of its own particles (src/mpi/) */
    if ((s->b.flags[i] & (PF_GHOST | PF_SHARED)) && (s->b.flags[j] & (PF_GHOST | PF_SHARED))) return false;
    /* members of one clump never touch each other */
    if ((s->b.flags[i] & s->b.flags[j] & PF_MEMBER) && s->b.sidx[i] == s->b.sidx[j]) return false;
    return grit_cg2_lookup(s->b.shape[i], s->b.shape[j]).kind != GRIT_CG2_NONE;
}

static inline bool boxes_overlap(const grit_aabb *a, const grit_aabb *b)
{
    return a->lo.x <= b->hi.x && a->hi.x >= b->lo.x && a->lo.y <= b->hi.y && a->hi.y >= b->lo.y &&
           a->lo.z <= b->hi.z && a->hi.z >= b->lo.z;
}

static inline int cell_coord(const grit_broadphase *bp, double x, int axis)
{
    double o = axis == 0 ? bp->origin.x : (axis == 1 ? bp->origin.y : bp->origin.z);
    double c = floor((x - o) * bp->inv_h);
    /* NaN when x - o overflows and h is infinite: the first cell */
    if (!(c >= 0)) return 0;
    if (c > bp->dim[axis] - 1) return bp->dim[axis] - 1;
    return (int)c;
}

static int reserve_i32(int32_t **p, int *cap, int need)
{
    if (need <= *cap) return 0;
    int c = need + need / 2 + 16;
    if (grit_grow((void **)p, sizeof **p, c)) return -1;
    *cap = c;
    return 0;
}

/* Boxes of all particles, enlarged by dv; decide which are special. */
static int compute_boxes(grit_scene *s, double dv)
{
    grit_broadphase *bp = s->bp;
    int n = s->b.n;
    if (n > bp->box_cap) {
        int c = n + n / 2 + 16;
        if (grit_grow((void **)&bp->box, sizeof *bp->box, c) || grit_grow((void **)&bp->range, 6 * sizeof(int32_t), c) ||
            grit_grow((void **)&bp->special, 1, c))
            return -1;
        bp->box_cap = c;
    }
    grit_vec3 e = v3(dv, dv, dv);
    bp->n_boxes = n;
    for (int i = 0; i < n; i++) {
        grit_aabb bb = grit_shape_classes[s->b.shape[i]]->aabb(s, i);
        bp->box[i] = (grit_aabb){v3_sub(bb.lo, e), v3_add(bb.hi, e)};
    }
    return 0;
}

/* Cell size and grid extent from the finite boxes. */
static void choose_grid(grit_scene *s)
{
    grit_broadphase *bp = s->bp;
    int n = s->b.n;
    double sum = 0, maxext = 0;
    int cnt = 0;
    grit_vec3 lo = v3(INFINITY, INFINITY, INFINITY), hi = v3(-INFINITY, -INFINITY, -INFINITY);
    for (int i = 0; i < n; i++) {
        const grit_aabb *b = &bp->box[i];
        bool finite = v3_isfinite(b->lo) && v3_isfinite(b->hi);
        bp->special[i] = !finite;
        if (!finite) continue;
        lo = v3(fmin(lo.x, b->lo.x), fmin(lo.y, b->lo.y), fmin(lo.z, b->lo.z));
        hi = v3(fmax(hi.x, b->hi.x), fmax(hi.y, b->hi.y), fmax(hi.z, b->hi.z));
        if (s->b.shape[i] == GRIT_SHAPE_FACET) continue; /* meshes do not set the cell size */
        double ext = v3_maxabs(v3_sub(b->hi, b->lo));
        sum += ext;
        maxext = fmax(maxext, ext);
        cnt++;
    }
    if (cnt == 0) { /* only facets (or nothing): use their mean extent */
        for (int i = 0; i < n; i++)
            if (!bp->special[i]) {
                sum += v3_maxabs(v3_sub(bp->box[i].hi, bp->box[i].lo));
                cnt++;
            }
    }
    double h = cnt ? fmax(sum / cnt, maxext / 4.0) : 1.0;
    if (!(h > 0)) h = 1.0;
    if (!(lo.x <= hi.x)) lo = hi = v3_zero();
    /* Half the extent: finite for any finite lo and hi, where hi - lo may
     * overflow (spheres at +-1e308). With it every count below is finite or
     * h reaches infinity, so the loop ends: h grows by 1.25 per pass from at
     * least the smallest double, at most about 6400 passes. */
    const grit_vec3 half = v3_sub(v3_scale(hi, 0.5), v3_scale(lo, 0.5));
    double limit = fmax(MAX_CELLS_PER_ITEM * (double)n, 65536.0);
    if (!(h < INFINITY)) h = INFINITY;
    for (;;) {
        const double hh = 0.5 * h;
        double nx = floor(half.x / hh) + 1, ny = floor(half.y / hh) + 1, nz = floor(half.z / hh) + 1;
        if (nx * ny * nz <= limit || !(h < INFINITY)) {
            if (!(nx * ny * nz <= limit)) nx = ny = nz = 1;
            bp->dim[0] = (int)nx;
            bp->dim[1] = (int)ny;
            bp->dim[2] = (int)nz;
            break;
        }
        h *= 1.25;
    }
    bp->h = h;
    bp->inv_h = 1.0 / h;
    bp->origin = lo;
}

/* Bin the finite boxes; boxes over MAX_CELLS_PER_BOX cells become special. */
static int bin_boxes(grit_scene *s)
{
    grit_broadphase *bp = s->bp;
    int n = s->b.n;
    int ncell = bp->dim[0] * bp->dim[1] * bp->dim[2];
    if (reserve_i32(&bp->cell_start, &bp->cell_cap, ncell + 1)) return -1;
    memset(bp->cell_start, 0, sizeof(int32_t) * (size_t)(ncell + 1));
    long total = 0;
    bp->n_specials = 0;
    for (int i = 0; i < n; i++) {
        int32_t *r = &bp->range[6 * i];
        if (bp->special[i]) continue;
        const grit_aabb *b = &bp->box[i];
        r[0] = cell_coord(bp, b->lo.x, 0);
        r[1] = cell_coord(bp, b->lo.y, 1);
        r[2] = cell_coord(bp, b->lo.z, 2);
        r[3] = cell_coord(bp, b->hi.x, 0);
        r[4] = cell_coord(bp, b->hi.y, 1);
        r[5] = cell_coord(bp, b->hi.z, 2);
        long cells = (long)(r[3] - r[0] + 1) * (r[4] - r[1] + 1) * (r[5] - r[2] + 1);
        if (cells > MAX_CELLS_PER_BOX) {
            bp->special[i] = 1;
            continue;
        }
        total += cells;
    }
    /* specials list */
    int nsp = 0;
    for (int i = 0; i < n; i++) nsp += bp->special[i];
    int32_t *sp = realloc(bp->specials, sizeof(int32_t) * (size_t)(nsp > 0 ? nsp : 1));
    if (!sp) return -1;
    bp->specials = sp;
    for (int i = 0; i < n; i++)
        if (bp->special[i]) bp->specials[bp->n_specials++] = i;
    if (total > INT32_MAX / 2) return -1;
    if (reserve_i32(&bp->items, &bp->items_cap, (int)total)) return -1;
    const int dx = bp->dim[0], dxy = bp->dim[0] * bp->dim[1];
    for (int i = 0; i < n; i++) {
        if (bp->special[i]) continue;
        const int32_t *r = &bp->range[6 * i];
        for (int z = r[2]; z <= r[5]; z++)
            for (int y = r[1]; y <= r[4]; y++)
                for (int x = r[0]; x <= r[3]; x++) bp->cell_start[z * dxy + y * dx + x + 1]++;
    }
    for (int c = 0; c < ncell; c++) bp->cell_start[c + 1] += bp->cell_start[c];
    /* fill using cell_start as cursor, then shift back */
    for (int i = 0; i < n; i++) {
        if (bp->special[i]) continue;
        const int32_t *r = &bp->range[6 * i];
        for (int z = r[2]; z <= r[5]; z++)
            for (int y = r[1]; y <= r[4]; y++)
                for (int x = r[0]; x <= r[3]; x++) bp->items[bp->cell_start[z * dxy + y * dx + x]++] = i;
    }
    for (int c = ncell; c > 0; c--) bp->cell_start[c] = bp->cell_start[c - 1];
    bp->cell_start[0] = 0;
    return 0;
}

static int cmp_i32(const void *a, const void *b)
{
    int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
    return (x > y) - (x < y);
}

static void sort_small(int32_t *v, int n)
{
    if (n > 32) {
        qsort(v, (size_t)n, sizeof *v, cmp_i32);
        return;
    }
    for (int i = 1; i < n; i++) {
        int32_t x = v[i];
        int j = i - 1;
        while (j >= 0 && v[j] > x) {
            v[j + 1] = v[j];
            j--;
        }
        v[j + 1] = x;
    }
}

/* Two spheres farther apart than r1 + r2 + 2 dv cannot touch before some
 * particle moves more than dv: no candidate pair (the box test alone lets
 * through about twice as many pairs as there are contacts in a dense bed). */
static inline bool spheres_within_skin(const grit_scene *s, int i, int j, double skin2)
{
    if (s->b.shape[i] != GRIT_SHAPE_SPHERE || s->b.shape[j] != GRIT_SHAPE_SPHERE) return true;
    const grit_posr a = s->b.pr[i], b = s->b.pr[j];
    double reach = (a.r + b.r) * s->def.interaction_radius + skin2;
    return v3_norm2(v3_sub(a.pos, b.pos)) <= reach * reach;
}

/* Partners j > i of particle i, sorted and unique, into bp->cand. */
static int partners(grit_scene *s, int i)
{
    const double skin2 = 2.0 * s->verlet_dist;
    grit_broadphase *bp = s->bp;
    int nc = 0;
    const grit_aabb *bi = &bp->box[i];
#define PUSH(j)                                                                 \
    do {                                                                        \
        if (nc == bp->cand_cap && reserve_i32(&bp->cand, &bp->cand_cap, nc + 1)) \
            return -1;                                                          \
        bp->cand[nc++] = (j);                                                   \
    } while (0)
    if (!bp->special[i]) {
        const int32_t *r = &bp->range[6 * i];
        const int dx = bp->dim[0], dxy = bp->dim[0] * bp->dim[1];
        for (int z = r[2]; z <= r[5]; z++)
            for (int y = r[1]; y <= r[4]; y++)
                for (int x = r[0]; x <= r[3]; x++) {
                    int c = z * dxy + y * dx + x;
                    for (int k = bp->cell_start[c]; k < bp->cell_start[c + 1]; k++) {
                        int j = bp->items[k];
                        if (j <= i) continue;
                        const grit_aabb *bj = &bp->box[j];
                        if (!boxes_overlap(bi, bj)) continue;
                        /* report only from the cell of the intersection's lower corner */
                        if (cell_coord(bp, fmax(bi->lo.x, bj->lo.x), 0) != x ||
                            cell_coord(bp, fmax(bi->lo.y, bj->lo.y), 1) != y ||
                            cell_coord(bp, fmax(bi->lo.z, bj->lo.z), 2) != z)
                            continue;
                        if (!grit_may_collide(s, i, j)) continue;
                        if (!spheres_within_skin(s, i, j, skin2)) continue;
                        PUSH(j);
                    }
                }
        for (int k = 0; k < bp->n_specials; k++) {
            int j = bp->specials[k];
            if (j > i && boxes_overlap(bi, &bp->box[j]) && grit_may_collide(s, i, j)) PUSH(j);
        }
    } else {
        for (int j = i + 1; j < s->b.n; j++)
            if (boxes_overlap(bi, &bp->box[j]) && grit_may_collide(s, i, j)) PUSH(j);
    }
#undef PUSH
    sort_small(bp->cand, nc);
    return nc;
}

/* Index old real contacts by their lower particle index. */
static int index_old_contacts(grit_scene *s)
{
    grit_broadphase *bp = s->bp;
    const grit_contacts *C = &s->c;
    int n = s->b.n;
    if (reserve_i32(&bp->old_start, &bp->old_cap, n + 1)) return -1;
    memset(bp->old_start, 0, sizeof(int32_t) * (size_t)(n + 1));
    int nreal = 0;
    for (int k = 0; k < C->n; k++)
        if (C->pair[k].flags & CF_REAL) {
            int lo = C->pair[k].a < C->pair[k].b ? C->pair[k].a : C->pair[k].b;
            bp->old_start[lo + 1]++;
            nreal++;
        }
    if (reserve_i32(&bp->old_list, &bp->old_list_cap, nreal)) return -1;
    for (int i = 0; i < n; i++) bp->old_start[i + 1] += bp->old_start[i];
    for (int k = 0; k < C->n; k++)
        if (C->pair[k].flags & CF_REAL) {
            int lo = C->pair[k].a < C->pair[k].b ? C->pair[k].a : C->pair[k].b;
            bp->old_list[bp->old_start[lo]++] = k;
        }
    for (int i = n; i > 0; i--) bp->old_start[i] = bp->old_start[i - 1];
    bp->old_start[0] = 0;
    return 0;
}

static int push_pair(grit_broadphase *bp)
{
    if (bp->nn == bp->ncap) {
        int c = bp->ncap ? bp->ncap + bp->ncap / 2 : 1024;
        if (grit_grow((void **)&bp->npair, sizeof *bp->npair, c) || grit_grow((void **)&bp->nsrc, sizeof *bp->nsrc, c))
            return -1;
        bp->ncap = c;
    }
    return bp->nn++;
}

/* The new candidate list (pairs, and for each the old contact whose state it
 * keeps, or -1) into bp->npair, bp->nsrc. Real contacts are always kept. */
static int build_pairs(grit_scene *s)
{
    grit_broadphase *bp = s->bp;
    const grit_contacts *C = &s->c;
    int n = s->b.n;
    bp->nn = 0;
    if (index_old_contacts(s)) return -1;
    for (int i = 0; i < n; i++) {
        int nc = partners(s, i);
        if (nc < 0) return -1;
        int os = bp->old_start[i], oe = bp->old_start[i + 1];
        /* real contacts whose boxes no longer overlap are kept too */
        for (int q = os; q < oe; q++) {
            const grit_pair *op = &C->pair[bp->old_list[q]];
            int j = op->a == i ? op->b : op->a;
            bool found = false;
            for (int t = 0; t < nc && !found; t++) found = bp->cand[t] == j;
            if (!found) {
                if (nc == bp->cand_cap && reserve_i32(&bp->cand, &bp->cand_cap, nc + 1)) return -1;
                bp->cand[nc++] = j;
            }
        }
        if (oe > os) sort_small(bp->cand, nc);
        for (int t = 0; t < nc; t++) {
            int j = bp->cand[t];
            int k = push_pair(bp);
            if (k < 0) return -1;
            int old = -1;
            for (int q = os; q < oe && old < 0; q++) {
                const grit_pair *op = &C->pair[bp->old_list[q]];
                if (op->a == j || op->b == j) old = bp->old_list[q];
            }
            bp->nsrc[k] = old;
            const uint8_t law = grit_matpair_of(s, s->b.mat[i], s->b.mat[j])->law;
            if (old >= 0) {
                bp->npair[k] = C->pair[old];
                if (bp->npair[k].law != law) { /* the materials' law changed (a pair override) */
                    bp->npair[k].law = law;
                    bp->npair[k].flags |= CF_NEW_LAW;
                }
            } else {
                grit_cg2_entry e = grit_cg2_lookup(s->b.shape[i], s->b.shape[j]);
                grit_pair *p = &bp->npair[k];
                memset(p, 0, sizeof *p);
                const bool sw = grit_pair_swapped(s, e.swap, i, j);
                p->a = sw ? j : i;
                p->b = sw ? i : j;
                p->kind = e.kind;
                p->law = law;
            }
        }
    }
    return 0;
}

/* X[k] <- X[perm[k]] for a permutation of [0, m), in place by cycles: the
 * contact state is never held twice, which keeps peak memory down. */
static void permute_in_place(void *base, size_t elem, const int32_t *perm, int m, uint8_t *done, void *tmp)
{
    char *x = base;
    if (m <= 0) return;
    memset(done, 0, (size_t)m);
    for (int k = 0; k < m; k++) {
        if (done[k]) continue;
        done[k] = 1;
        if (perm[k] == k) continue;
        memcpy(tmp, x + (size_t)k * elem, elem);
        int j = k;
        for (;;) {
            int src = perm[j];
            if (src == k) {
                memcpy(x + (size_t)j * elem, tmp, elem);
                break;
            }
            memcpy(x + (size_t)j * elem, x + (size_t)src * elem, elem);
            done[src] = 1;
            j = src;
        }
    }
}

/* Split the new list: pairs that keep a real contact's state go to the
 * contact list (by block, stable; their state moved in place), the others to
 * the potential list (by block, stable). A contact whose law changed starts
 * the new law with no state (NaN). */
static int install_pairs(grit_scene *s)
{
    grit_broadphase *bp = s->bp;
    grit_contacts *C = &s->c;
    const int nn = bp->nn, m = C->n;
    if (reserve_i32(&bp->perm, &bp->perm_cap, m) || grit_grow((void **)&bp->done, 1, m > 0 ? m : 1))
        return -1;
    int creal[GRIT_BLOCK_COUNT + 1] = {0}, cpot[GRIT_BLOCK_COUNT + 1] = {0};
#define BLOCK(p) grit_block_of((p).kind, (p).law)
    for (int k = 0; k < nn; k++) {
        if (bp->nsrc[k] >= 0) creal[BLOCK(bp->npair[k]) + 1]++;
        else cpot[BLOCK(bp->npair[k]) + 1]++;
    }
    for (int q = 0; q < GRIT_BLOCK_COUNT; q++) {
        creal[q + 1] += creal[q];
        cpot[q + 1] += cpot[q];
    }
    const int nreal = creal[GRIT_BLOCK_COUNT], npot = cpot[GRIT_BLOCK_COUNT];
    /* room for every potential pair to become a contact: untouched pages of
     * a large allocation cost no memory, and promotion never reallocates */
    if (nreal + npot > C->cap) {
        int c = nreal + npot;
        if (grit_contacts_reserve(C, c + c / 8 + 64)) return -1;
    }
    if (npot > C->cap_pot) {
        int c = npot + npot / 4 + 64;
        if (grit_grow((void **)&C->pot, sizeof *C->pot, c)) return -1;
        C->cap_pot = c;
    }
    for (int q = 0; q <= GRIT_BLOCK_COUNT; q++) {
        C->block_start[q] = creal[q];
        C->pot_start[q] = cpot[q];
    }
    /* the contact list: new position -> old slot, completed to a permutation */
    uint8_t *used = bp->done;
    if (m > 0) memset(used, 0, (size_t)m);
    for (int k = 0; k < nn; k++) {
        GRIT_ASSERT(bp->npair[k].a >= 0 && bp->npair[k].a < s->b.n && bp->npair[k].b >= 0 && bp->npair[k].b < s->b.n &&
                        bp->npair[k].a != bp->npair[k].b && bp->npair[k].kind < GRIT_CG2_KIND_COUNT,
                    "new pair %d: particles %d and %d of %d, kind %d", k, bp->npair[k].a, bp->npair[k].b, s->b.n,
                    bp->npair[k].kind);
        if (bp->nsrc[k] < 0) {
            C->pot[cpot[BLOCK(bp->npair[k])]++] = bp->npair[k];
            continue;
        }
        GRIT_ASSERT(bp->nsrc[k] < m && !used[bp->nsrc[k]], "pair %d keeps contact %d of %d, %s", k, bp->nsrc[k], m,
                    bp->nsrc[k] < m ? "claimed twice" : "out of range");
        int pos = creal[BLOCK(bp->npair[k])]++;
        C->pair[pos] = bp->npair[k]; /* the old pairs are not read any more */
        bp->perm[pos] = bp->nsrc[k];
        used[bp->nsrc[k]] = 1;
    }
    int freeslot = 0;
    for (int k = nreal; k < m; k++) {
        while (used[freeslot]) freeslot++;
        GRIT_ASSERT(freeslot < m, "contact slot %d of %d: the old contacts do not complete a permutation", freeslot, m);
        bp->perm[k] = freeslot++;
    }
    size_t emax = sizeof(grit_l6geom);
    if ((size_t)C->ext_n * sizeof(double) > emax) emax = (size_t)C->ext_n * sizeof(double);
    void *tmp = malloc(emax);
    if (!tmp) return -1;
    permute_in_place(C->geom, sizeof *C->geom, bp->perm, m, bp->done, tmp);
    permute_in_place(C->phys, sizeof *C->phys, bp->perm, m, bp->done, tmp);
    permute_in_place(C->cold, sizeof *C->cold, bp->perm, m, bp->done, tmp);
    if (C->ext_n > 0) permute_in_place(C->ext, sizeof(double) * (size_t)C->ext_n, bp->perm, m, bp->done, tmp);
    free(tmp);
#undef BLOCK
    for (int k = 0; k < nreal; k++)
        if (C->pair[k].flags & CF_NEW_LAW) {
            C->pair[k].flags &= (uint8_t)~CF_NEW_LAW;
            for (int q = 0; q < C->ext_n; q++) C->ext[(size_t)k * (size_t)C->ext_n + (size_t)q] = NAN;
        }
    C->n = nreal;
    C->n_pot = npot;
    C->n_promoted = 0;
    C->adj_ok = false; /* the particles' contact lists (contact_loop.c) */
    return 0;
}

/* Remember the orientation of every particle whose box depends on it:
 * capsules and ellipsoids, and facets or rods that move. */
static int record_rotations(grit_scene *s)
{
    grit_broadphase *bp = s->bp;
    bp->n_rot = 0;
    for (int i = 0; i < s->b.n; i++) {
        const grit_shape_class *sc = grit_shape_classes[s->b.shape[i]];
        if (!sc->rot_radius || (sc->follow_node && !(s->b.flags[i] & PF_MOVES_SHAPE))) continue;
        if (bp->n_rot == bp->rot_cap) {
            int c = bp->rot_cap ? 2 * bp->rot_cap : 64;
            if (grit_grow((void **)&bp->rot, sizeof *bp->rot, c) || grit_grow((void **)&bp->rot_r, sizeof *bp->rot_r, c) ||
                grit_grow((void **)&bp->rot_q0, sizeof *bp->rot_q0, c))
                return -1;
            bp->rot_cap = c;
        }
        bp->rot[bp->n_rot] = i;
        bp->rot_r[bp->n_rot] = sc->rot_radius(s, i);
        bp->rot_q0[bp->n_rot++] = s->b.ori[i];
    }
    return 0;
}

/* Has a rotation-sensitive particle's surface possibly moved by more than
 * dv? A point at distance rho from the node moves by at most |dx| + rho
 * theta (theta: rotation angle since the rebuild). Stricter than Woo's
 * |dx|^2 + (e theta)^2 with e the half box edge, which can miss (a rotated
 * capsule's half box edge is less than its half length). */
static bool rotation_stale(const grit_scene *s, double dv)
{
    const grit_broadphase *bp = s->bp;
    for (int k = 0; k < bp->n_rot; k++) {
        int i = bp->rot[k];
        grit_quat d = q_mul(s->b.ori[i], q_conj(bp->rot_q0[k]));
        double th = 2.0 * atan2(sqrt(d.x * d.x + d.y * d.y + d.z * d.z), fabs(d.w)); /* accurate when small */
        if (v3_norm(v3_sub(s->b.pr[i].pos, s->b.refpos[i])) + bp->rot_r[k] * th > dv) return true;
    }
    return false;
}

/* The largest move of a rotation-sensitive particle's surface since the
 * last rebuild, by the bound of rotation_stale: for the automatic skin,
 * whose displacement per step must see what triggers the rebuilds. */
static double rotation_disp(const grit_scene *s)
{
    const grit_broadphase *bp = s->bp;
    double m = 0;
    for (int k = 0; k < bp->n_rot; k++) {
        int i = bp->rot[k];
        grit_quat d = q_mul(s->b.ori[i], q_conj(bp->rot_q0[k]));
        double th = 2.0 * atan2(sqrt(d.x * d.x + d.y * d.y + d.z * d.z), fabs(d.w));
        m = fmax(m, v3_norm(v3_sub(s->b.pr[i].pos, s->b.refpos[i])) + bp->rot_r[k] * th);
    }
    return m;
}

int grit_broadphase_rebuild(grit_scene *s)
{
    if (s->cell) return grit_rebuild_periodic(s);
    double dv = grit_verlet_dist(s);
    if (compute_boxes(s, dv)) return grit_fail(s, GRIT_ENOMEM, "out of memory in the broad phase");
    choose_grid(s);
    s->gen_contacts++; /* the contact list is rebuilt (and may move) even if this fails */
    if (s->def.sort_period > 0 && (s->last_sort_step < 0 || s->step - s->last_sort_step >= s->def.sort_period)) {
        s->gen_bodies++;
        const double t = grit_cpu_now();
        if (grit_sort_particles(s, s->bp->origin, s->bp->h, s->bp->box))
            return grit_fail(s, GRIT_ENOMEM, "out of memory sorting particles");
        s->last_sort_step = s->step;
        s->stats.sorts++;
        choose_grid(s); /* recompute the special flags in the new order */
        s->stats.time_sort += grit_cpu_now() - t;
    }
    if (bin_boxes(s) || build_pairs(s)) return grit_fail(s, GRIT_ENOMEM, "out of memory in the broad phase");
    return grit_broadphase_finish(s);
}

/* The periodic broad phase (collide/periodic.c) fills the same list. */
void grit_broadphase_begin(grit_scene *s) { s->bp->nn = 0; }

int grit_broadphase_push(grit_scene *s, const grit_pair *p, int src)
{
    int k = push_pair(s->bp);
    if (k < 0) return -1;
    s->bp->npair[k] = *p;
    s->bp->nsrc[k] = src;
    return 0;
}

int grit_broadphase_finish(grit_scene *s)
{
    if (install_pairs(s) || record_rotations(s)) return grit_fail(s, GRIT_ENOMEM, "out of memory in the broad phase");
    for (int i = 0; i < s->b.n; i++) s->b.refpos[i] = s->b.pr[i].pos;
    s->max_disp2 = 0;
    s->verlet_last_rebuild = s->step;
    s->need_rebuild = false;
    s->stats.rebuilds++;
    return GRIT_OK;
}

void grit_broadphase_get_state(const grit_scene *s, grit_broadphase_state *out)
{
    const grit_broadphase *bp = s->bp;
    *out = (grit_broadphase_state){bp->box, bp->n_boxes, bp->rot, bp->rot_r, bp->rot_q0, bp->n_rot};
}

int grit_broadphase_set_state(grit_scene *s, const grit_broadphase_state *in)
{
    grit_broadphase *bp = s->bp;
    int nb = in->n_boxes, nr = in->n_rot;
    if (nb > bp->box_cap) {
        if (grit_grow((void **)&bp->box, sizeof *bp->box, nb) || grit_grow((void **)&bp->range, 6 * sizeof(int32_t), nb) ||
            grit_grow((void **)&bp->special, 1, nb))
            return -1;
        bp->box_cap = nb;
    }
    if (nr > bp->rot_cap) {
        if (grit_grow((void **)&bp->rot, sizeof *bp->rot, nr) || grit_grow((void **)&bp->rot_r, sizeof *bp->rot_r, nr) ||
            grit_grow((void **)&bp->rot_q0, sizeof *bp->rot_q0, nr))
            return -1;
        bp->rot_cap = nr;
    }
    if (nb > 0) memcpy(bp->box, in->box, sizeof *bp->box * (size_t)nb);
    if (nr > 0) {
        memcpy(bp->rot, in->rot, sizeof *bp->rot * (size_t)nr);
        memcpy(bp->rot_r, in->rot_r, sizeof *bp->rot_r * (size_t)nr);
        memcpy(bp->rot_q0, in->rot_q0, sizeof *bp->rot_q0 * (size_t)nr);
    }
    bp->n_boxes = nb;
    bp->n_rot = nr;
    return 0;
}

void grit_broadphase_compact(grit_scene *s, const int32_t *newidx, int n_old)
{
    grit_broadphase *bp = s->bp;
    int w = 0;
    for (int i = 0; i < bp->n_boxes && i < n_old; i++)
        if (newidx[i] >= 0) bp->box[w++] = bp->box[i];
    bp->n_boxes = w;
    w = 0;
    for (int k = 0; k < bp->n_rot; k++) {
        const int j = bp->rot[k] < n_old ? newidx[bp->rot[k]] : -1;
        if (j < 0) continue;
        bp->rot[w] = j;
        bp->rot_r[w] = bp->rot_r[k];
        bp->rot_q0[w++] = bp->rot_q0[k];
    }
    bp->n_rot = w;
}

bool grit_broadphase_box_escaped(const grit_scene *s, int i)
{
    const grit_broadphase *bp = s->bp;
    if (s->need_rebuild) return false; /* rebuilt anyway */
    if (s->cell) return grit_periodic_box_escaped(s, i);
    if (i >= bp->n_boxes) return true;
    const grit_aabb b = grit_shape_classes[s->b.shape[i]]->aabb(s, i);
    const grit_aabb *e = &bp->box[i];
    return !(b.lo.x >= e->lo.x && b.lo.y >= e->lo.y && b.lo.z >= e->lo.z && b.hi.x <= e->hi.x &&
             b.hi.y <= e->hi.y && b.hi.z <= e->hi.z);
}

/* The particles' contact lists for the contact loop's gather, made again
 * after the rebuild or re-sort that changed the pairs */
static int adjacency(grit_scene *s)
{
    if (grit_adjacency_update(s)) return grit_fail(s, GRIT_ENOMEM, "out of memory for the particles' contact lists");
    return GRIT_OK;
}

bool grit_collide_due(grit_scene *s)
{
    const double dv = grit_verlet_dist(s);
    /* most contacts were created since the last rebuild, outside the blocks
     * and out of space order: rebuild to put them in place */
    const grit_contacts *C = &s->c;
    const int fresh = C->n - C->block_start[GRIT_BLOCK_COUNT];
    const bool reblock = fresh > 1024 && fresh > C->n / 2;
    /* periodic: the wrapped images' moves and the deformation of the cell */
    const double disp2 = s->cell ? grit_periodic_disp2(s) : s->max_disp2;
    return s->need_rebuild || dv == 0 || disp2 > dv * dv || reblock || rotation_stale(s, dv);
}

int grit_collide(grit_scene *s)
{
    double dv = grit_verlet_dist(s);
    if (grit_collide_due(s)) {
        const double disp2 = s->cell ? grit_periodic_disp2(s) : s->max_disp2;
        /* timed apart from the check above (grit_stats: rebuilds, re-sorts) */
        const double t = grit_cpu_now(), sort0 = s->stats.time_sort;
        /* the automatic skin for the next interval, from the one that ends */
        /* (spread over MPI ranks: made from the whole scene before the
         * re-partition, whose halo depends on it: src/mpi/halo.c) */
        if (isnan(s->def.verlet_dist) && dv > 0 && !s->mpi) {
            const double rd = rotation_disp(s);
            s->verlet_dist = grit_verlet_auto_choose(s, fmax(disp2, rd * rd));
        }
        int rc = grit_broadphase_rebuild(s);
        if (!rc) rc = adjacency(s);
        s->stats.time_rebuild += grit_cpu_now() - t - (s->stats.time_sort - sort0);
        return rc;
    }
    return adjacency(s); /* (stale without a rebuild only after a restart load) */
}
