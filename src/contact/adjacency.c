/* grit: every particle's contacts in the blocks, in contact order (or, with
 * id_order, all its contacts in the order of their partners' ids).
 *
 * The contact loop stores each contact's force in its own record; each
 * particle then adds its contacts' records in contact order, which needs,
 * per particle, the list of its contacts. The list depends only on the
 * blocks' pairs, which change at a broad-phase rebuild, a re-sort or a
 * restart load, so it is made then, by a counting sort of the contacts'
 * two ends.
 *
 * With id_order the list covers every contact, the ones created since
 * the last rebuild too (so it is made again after a step that created one),
 * and each particle's slots are sorted by (partner id, geometry kind,
 * periodic image): a key that is the same wherever the particles and the
 * contacts sit in memory, on one process or spread over MPI ranks. */
#include "contact/adjacency.h"

#include <stdlib.h>
#include <string.h>

#include "cg2/cg2.h"

/* The key of particle i's slot e (2 k + side) of contact k. */
static uint64_t slot_key(const grit_scene *s, int32_t e)
{
    const grit_pair *p = &s->c.pair[e >> 1];
    const int other = (e & 1) ? p->a : p->b;
    /* the partner's periodic image as this particle sees it: B's from A,
     * the negated one from B */
    const int sg = (e & 1) ? -1 : 1;
    uint64_t img = 0;
    for (int d = 0; d < 3; d++) img = (img << 8) | (uint8_t)(int8_t)(sg * p->cell[d]);
    return ((uint64_t)(uint32_t)s->b.id[other] << 32) | ((uint64_t)p->kind << 24) | img;
}

typedef struct keyed {
    uint64_t key;
    int32_t e;
} keyed;

static int cmp_keyed(const void *x, const void *y)
{
    const uint64_t a = ((const keyed *)x)->key, b = ((const keyed *)y)->key;
    return (a > b) - (a < b);
}

/* Sort every particle's slots by slot_key: insertion sort for the short
 * lists of particles, qsort for the long ones of walls and facets. */
static int sort_by_id(grit_scene *s)
{
    grit_contacts *C = &s->c;
    const int np = s->b.n;
    const int32_t *st = C->adj_start;
    int32_t *adj = C->adj;
    keyed small[32], *big = NULL;
    int big_cap = 0;
    for (int i = 0; i < np; i++) {
        const int m = st[i + 1] - st[i];
        if (m < 2) continue;
        keyed *v = small;
        if (m > 32) {
            if (m > big_cap) {
                keyed *q = realloc(big, (size_t)m * sizeof *q);
                if (!q) {
                    free(big);
                    return -1;
                }
                big = q;
                big_cap = m;
            }
            v = big;
        }
        for (int t = 0; t < m; t++) v[t] = (keyed){slot_key(s, adj[st[i] + t]), adj[st[i] + t]};
        if (m > 32)
            qsort(v, (size_t)m, sizeof *v, cmp_keyed);
        else
            for (int t = 1; t < m; t++) {
                const keyed x = v[t];
                int u = t;
                for (; u > 0 && v[u - 1].key > x.key; u--) v[u] = v[u - 1];
                v[u] = x;
            }
        for (int t = 0; t < m; t++) adj[st[i] + t] = v[t].e;
    }
    free(big);
    return 0;
}

/* The contacts the lists cover: the blocks', or with id_order all. */
static int covered(const grit_scene *s)
{
    return s->def.id_order ? s->c.n : s->c.block_start[GRIT_BLOCK_COUNT];
}

static int build(grit_scene *s)
{
    grit_contacts *C = &s->c;
    const int n = covered(s), np = s->b.n;
    if (np + 1 > C->adj_start_cap) {
        int32_t *p = realloc(C->adj_start, (size_t)(np + 1) * sizeof *p);
        if (!p) return -1;
        C->adj_start = p;
        C->adj_start_cap = np + 1;
    }
    if (2 * n > C->adj_cap) {
        const int cap = 2 * n + n / 4 + 64;
        int32_t *p = realloc(C->adj, (size_t)cap * sizeof *p);
        if (!p) return -1;
        C->adj = p;
        C->adj_cap = cap;
    }
    int32_t *st = C->adj_start, *adj = C->adj;
    memset(st, 0, (size_t)(np + 1) * sizeof *st);
    for (int k = 0; k < n; k++) {
        st[C->pair[k].a + 1]++;
        st[C->pair[k].b + 1]++;
    }
    for (int i = 0; i < np; i++) st[i + 1] += st[i];
    /* filled from the ends backwards: every particle's slots stay in
     * ascending contact order without a second cursor array */
    for (int k = n - 1; k >= 0; k--) {
        adj[--st[C->pair[k].a + 1]] = 2 * k;
        adj[--st[C->pair[k].b + 1]] = 2 * k + 1;
    }
    /* st[i + 1] is now particle i's start; shift back */
    for (int i = 0; i < np; i++) st[i] = st[i + 1];
    st[np] = 2 * n;
    if (s->def.id_order && sort_by_id(s)) return -1;
    C->adj_n = n;
    C->adj_np = np;
    C->adj_order = s->def.id_order;
    C->adj_ok = true;
    return 0;
}

int grit_adjacency_update(grit_scene *s)
{
    const grit_contacts *C = &s->c;
    if (C->adj_ok && C->adj_n == covered(s) && C->adj_np == s->b.n && C->adj_order == s->def.id_order) return 0;
    return build(s);
}
