/* grit: spatial re-sorting of the particle arrays. */
#include "collide/sort.h"

#include <stdlib.h>
#include <string.h>

#include "core/assert.h"

static uint32_t spread3(uint32_t x)
{
    x &= 0x3ff;
    x = (x | (x << 16)) & 0x030000ff;
    x = (x | (x << 8)) & 0x0300f00f;
    x = (x | (x << 4)) & 0x030c30c3;
    x = (x | (x << 2)) & 0x09249249;
    return x;
}

static int permute(void *arr, size_t elem, const int32_t *perm, int n, void *tmp)
{
    _Static_assert(sizeof(grit_velw) <= 64 && sizeof(grit_ft) <= 64 && sizeof(grit_aabb) <= 64,
                   "the permutation buffer holds 64-byte elements");
    char *a = arr, *t = tmp;
    for (int i = 0; i < n; i++) memcpy(t + (size_t)i * elem, a + (size_t)perm[i] * elem, elem);
    memcpy(a, t, elem * (size_t)n);
    return 0;
}

int grit_sort_particles(grit_scene *s, grit_vec3 origin, double h, grit_aabb *boxes)
{
    int n = s->b.n;
    if (n < 2) return 0;
    uint64_t *key = malloc(sizeof *key * (size_t)n);
    uint64_t *key2 = malloc(sizeof *key2 * (size_t)n);
    int32_t *perm = malloc(sizeof *perm * (size_t)n);
    int32_t *inv = malloc(sizeof *inv * (size_t)n);
    void *tmp = malloc(64 * (size_t)n); /* the largest element (grit_velw, grit_ft) */
    if (!key || !key2 || !perm || !inv || !tmp) {
        free(key);
        free(key2);
        free(perm);
        free(inv);
        free(tmp);
        return -1;
    }
    /* cells coarser than 2^10 per axis share Morton codes: only locality matters */
    double ih = 1.0 / h;
    for (int i = 0; i < n; i++) {
        const grit_aabb *b = &boxes[i];
        uint32_t code = 0xffffffffu;
        if (v3_isfinite(b->lo) && v3_isfinite(b->hi)) {
            grit_vec3 c = v3_scale(v3_add(b->lo, b->hi), 0.5);
            double q[3] = {(c.x - origin.x) * ih, (c.y - origin.y) * ih, (c.z - origin.z) * ih};
            uint32_t u[3];
            for (int k = 0; k < 3; k++) u[k] = !(q[k] > 0) ? 0u : /* NaN: overflowed extents */ (q[k] >= 1023 ? 1023u : (uint32_t)q[k]);
            code = spread3(u[0]) | (spread3(u[1]) << 1) | (spread3(u[2]) << 2);
        }
        key[i] = ((uint64_t)code << 32) | (uint32_t)i; /* index breaks ties: stable */
    }
    /* LSD radix sort on the high 32 bits, 8 bits per pass */
    uint64_t *src = key, *dst = key2;
    for (int shift = 32; shift < 64; shift += 8) {
        int cnt[257] = {0};
        for (int i = 0; i < n; i++) cnt[((src[i] >> shift) & 0xff) + 1]++;
        for (int d = 0; d < 256; d++) cnt[d + 1] += cnt[d];
        for (int i = 0; i < n; i++) dst[cnt[(src[i] >> shift) & 0xff]++] = src[i];
        uint64_t *t = src;
        src = dst;
        dst = t;
    }
    for (int i = 0; i < n; i++) {
        GRIT_ASSERT(i == 0 || src[i - 1] < src[i], "sort: keys %d and %d out of order", i - 1, i);
        GRIT_ASSERT((uint32_t)src[i] < (uint32_t)n, "sort: row %u of %d", (unsigned)(uint32_t)src[i], n);
        perm[i] = (int32_t)(uint32_t)src[i]; /* new i <- old perm[i] */
        inv[perm[i]] = i;
    }
    grit_bodies *b = &s->b;
    permute(b->pr, sizeof *b->pr, perm, n, tmp);
    permute(b->vw, sizeof *b->vw, perm, n, tmp);
    permute(b->ft, sizeof *b->ft, perm, n, tmp);
    permute(b->mi, sizeof *b->mi, perm, n, tmp);
    permute(b->ori, sizeof *b->ori, perm, n, tmp);
    permute(b->angmom, sizeof *b->angmom, perm, n, tmp);
    permute(b->flags, sizeof *b->flags, perm, n, tmp);
    permute(b->shape, sizeof *b->shape, perm, n, tmp);
    permute(b->sidx, sizeof *b->sidx, perm, n, tmp);
    permute(b->mat, sizeof *b->mat, perm, n, tmp);
    permute(b->mask, sizeof *b->mask, perm, n, tmp);
    permute(b->id, sizeof *b->id, perm, n, tmp);
    permute(b->refpos, sizeof *b->refpos, perm, n, tmp);
    permute(boxes, sizeof *boxes, perm, n, tmp);
    for (int i = 0; i < n; i++) s->id2idx[b->id[i]] = i;
    for (int k = 0; k < s->c.n; k++) {
        s->c.pair[k].a = inv[s->c.pair[k].a];
        s->c.pair[k].b = inv[s->c.pair[k].b];
    }
    for (int k = 0; k < s->c.n_pot; k++) {
        s->c.pot[k].a = inv[s->c.pot[k].a];
        s->c.pot[k].b = inv[s->c.pot[k].b];
    }
    s->c.adj_ok = false; /* the particles' contact lists (contact_loop.c) */
    free(key);
    free(key2);
    free(perm);
    free(inv);
    free(tmp);
    return 0;
}
