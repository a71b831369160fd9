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

/* Slots by particle, then key (both sorts below). */
static int cmp_slot(const void *x, const void *y)
{
    const grit_adj_extra *a = x, *b = y;
    if (a->p != b->p) return (a->p > b->p) - (a->p < b->p);
    return (a->key > b->key) - (a->key < b->key);
}

/* Sort every particle's slots by grit_adjacency_key: insertion sort for the short
 * lists of particles, qsort for the long ones of walls and facets. */
static int sort_by_id(grit_scene *s)
{
    grit_contacts *C = &s->c;
    const int np = s->b.n;
    const int32_t *st = C->adj_start;
    int32_t *adj = C->adj;
    grit_adj_extra small[32], *big = NULL;
    int big_cap = 0;
    for (int i = 0; i < np; i++) {
        const int m = st[i + 1] - st[i];
        if (m < 2) continue;
        grit_adj_extra *v = small;
        if (m > 32) {
            if (m > big_cap) {
                grit_adj_extra *q = realloc(big, (size_t)m * sizeof *q);
                if (!q) {
                    free(big);
                    return -1;
                }
                big = q;
                big_cap = m;
            }
            v = big;
        }
        for (int t = 0; t < m; t++) v[t] = (grit_adj_extra){grit_adjacency_key(s, adj[st[i] + t]), adj[st[i] + t], i};
        if (m > 32)
            qsort(v, (size_t)m, sizeof *v, cmp_slot);
        else
            for (int t = 1; t < m; t++) {
                const grit_adj_extra x = v[t];
                int u = t;
                for (; u > 0 && v[u - 1].key > x.key; u--) v[u] = v[u - 1];
                v[u] = x;
            }
        for (int t = 0; t < m; t++) adj[st[i] + t] = v[t].e;
    }
    free(big);
    return 0;
}

/* The contacts the lists cover: the blocks', or with id_order all (at the
 * time they are made: later ones are the extras, grit_adjacency_extras). */
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
    const bool same = C->adj_ok && C->adj_np == s->b.n && C->adj_order == s->def.id_order;
    if (same && (s->def.id_order ? C->adj_n <= C->n : C->adj_n == covered(s))) return 0;
    return build(s);
}

int grit_adjacency_extras(grit_scene *s)
{
    grit_contacts *C = &s->c;
    const int n0 = C->adj_n, n = C->n, np = s->b.n;
    C->n_extra = 0;
    if (n <= n0) return 0;
    const int m = 2 * (n - n0);
    if (m > C->extra_cap) {
        grit_adj_extra *q = realloc(C->extra, (size_t)m * sizeof *q);
        if (!q) return -1;
        C->extra = q;
        C->extra_cap = m;
    }
    if (np > C->extra_first_cap) {
        int32_t *q = realloc(C->extra_first, (size_t)np * sizeof *q);
        if (!q) return -1;
        C->extra_first = q;
        C->extra_first_cap = np;
    }
    int w = 0;
    for (int k = n0; k < n; k++)
        for (int side = 0; side < 2; side++) {
            const int32_t e = 2 * k + side;
            C->extra[w++] = (grit_adj_extra){grit_adjacency_key(s, e), e, side ? C->pair[k].b : C->pair[k].a};
        }
    qsort(C->extra, (size_t)m, sizeof *C->extra, cmp_slot);
    memset(C->extra_first, 0xff, (size_t)np * sizeof *C->extra_first); /* -1 */
    for (int x = m - 1; x >= 0; x--) C->extra_first[C->extra[x].p] = x;
    C->n_extra = m;
    return 0;
}
