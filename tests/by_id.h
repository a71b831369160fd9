/* Test helper: two scenes compared particle by particle and contact by
 * contact through the particles' ids, whatever their places in memory
 * (id_order runs with other rebuilds and sorts, MPI runs gathered). */
#ifndef GRIT_TEST_BY_ID_H
#define GRIT_TEST_BY_ID_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/scene_impl.h"

/* Real contact of ids (ia, ib) in s (either order), or -1. */
static int byid_contact(const grit_scene *s, int ia, int ib)
{
    for (int k = 0; k < s->c.n; k++) {
        const grit_pair *p = &s->c.pair[k];
        if (!(p->flags & CF_REAL)) continue;
        const int x = s->b.id[p->a], y = s->b.id[p->b];
        if ((x == ia && y == ib) || (x == ib && y == ia)) return k;
    }
    return -1;
}

/* The number of differing items (printed, the first few), 0 if the two
 * scenes hold the same particles, bit for bit, and the same real contacts
 * with the same state. Contacts are matched by a quadratic search: small
 * scenes only. */
static int byid_diff(const grit_scene *a, const grit_scene *b, const char *what)
{
    int bad = 0;
    if (a->step != b->step || a->b.n != b->b.n) {
        fprintf(stderr, "%s: step %ld/%ld, %d/%d particles\n", what, a->step, b->step, a->b.n, b->b.n);
        return 1;
    }
    for (int i = 0; i < a->b.n; i++) {
        const int id = a->b.id[i], j = grit_idx(b, id);
        if (j < 0) {
            if (bad++ < 5) fprintf(stderr, "%s: particle %d missing\n", what, id);
            continue;
        }
        const bool same = memcmp(&a->b.pr[i], &b->b.pr[j], sizeof a->b.pr[i]) == 0 &&
                          memcmp(&a->b.vw[i].v, &b->b.vw[j].v, sizeof(grit_vec3)) == 0 &&
                          memcmp(&a->b.vw[i].w, &b->b.vw[j].w, sizeof(grit_vec3)) == 0 &&
                          memcmp(&a->b.ori[i], &b->b.ori[j], sizeof a->b.ori[i]) == 0;
        if (!same && bad++ < 5)
            fprintf(stderr, "%s: particle %d differs: x %.17g/%.17g v %.17g/%.17g\n", what, id, a->b.pr[i].pos.x,
                    b->b.pr[j].pos.x, a->b.vw[i].v.z, b->b.vw[j].v.z);
    }
    int na = 0, nb = 0;
    for (int k = 0; k < b->c.n; k++) nb += (b->c.pair[k].flags & CF_REAL) != 0;
    for (int k = 0; k < a->c.n; k++) {
        const grit_pair *p = &a->c.pair[k];
        if (!(p->flags & CF_REAL)) continue;
        na++;
        const int ia = a->b.id[p->a], ib = a->b.id[p->b], q = byid_contact(b, ia, ib);
        if (q < 0) {
            if (bad++ < 5) fprintf(stderr, "%s: contact %d-%d missing\n", what, ia, ib);
            continue;
        }
        const bool same = b->b.id[b->c.pair[q].a] == ia &&
                          memcmp(&a->c.phys[k], &b->c.phys[q], sizeof a->c.phys[k]) == 0 &&
                          memcmp(&a->c.geom[k], &b->c.geom[q], sizeof a->c.geom[k]) == 0 &&
                          (a->c.ext_n != b->c.ext_n || a->c.ext_n == 0 ||
                           memcmp(a->c.ext + (size_t)k * (size_t)a->c.ext_n, b->c.ext + (size_t)q * (size_t)b->c.ext_n,
                                  sizeof(double) * (size_t)a->c.ext_n) == 0);
        if (!same && bad++ < 5) fprintf(stderr, "%s: contact %d-%d differs\n", what, ia, ib);
    }
    for (int k = 0; k < b->c.n; k++) {
        const grit_pair *p = &b->c.pair[k];
        if ((p->flags & CF_REAL) && byid_contact(a, b->b.id[p->a], b->b.id[p->b]) < 0 && bad++ < 10)
            fprintf(stderr, "%s: contact %d-%d only in the second (uN %g, created at step %ld)\n", what, b->b.id[p->a],
                    b->b.id[p->b], b->c.geom[k].uN, (long)b->c.cold[k].step_created);
    }
    if (na != nb) {
        fprintf(stderr, "%s: %d/%d real contacts\n", what, na, nb);
        bad++;
    }
    return bad;
}

#endif
