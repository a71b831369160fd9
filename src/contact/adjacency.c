/* grit: every particle's contacts in the blocks, in contact order.
 *
 * The contact loop stores each contact's force in its own record; each
 * particle then adds its contacts' records in contact order, which needs,
 * per particle, the list of its contacts. The list depends only on the
 * blocks' pairs, which change at a broad-phase rebuild, a re-sort or a
 * restart load, so it is made then, by a counting sort of the contacts'
 * two ends. */
#include "contact/adjacency.h"

#include <stdlib.h>
#include <string.h>

#include "cg2/cg2.h"

static int build(grit_scene *s)
{
    grit_contacts *C = &s->c;
    const int n = C->block_start[GRIT_BLOCK_COUNT], np = s->b.n;
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
    C->adj_n = n;
    C->adj_np = np;
    C->adj_ok = true;
    return 0;
}

int grit_adjacency_update(grit_scene *s)
{
    const grit_contacts *C = &s->c;
    if (C->adj_ok && C->adj_n == C->block_start[GRIT_BLOCK_COUNT] && C->adj_np == s->b.n) return 0;
    return build(s);
}
