/* grit: which geometry functor handles which pair of shapes, and in which
 * order it wants them -- generated from GRIT_CG2_LIST (cg2.h). */
#include <stdio.h>

#include "cg2/all.h"
#include "grit/shapes.h"

/* Both orders of every pair; for a pair of equal shapes the forward entry,
 * written last, wins (hence the overridden initialisers). */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Woverride-init"
const uint8_t grit_cg2_table[GRIT_SHAPE_COUNT][GRIT_SHAPE_COUNT] = {
#define REV(K, fn, A, B, name) [GRIT_SHAPE_##B][GRIT_SHAPE_##A] = (uint8_t)((GRIT_CG2_##K + 1) | 128),
#define FWD(K, fn, A, B, name) [GRIT_SHAPE_##A][GRIT_SHAPE_##B] = (uint8_t)(GRIT_CG2_##K + 1),
    GRIT_CG2_LIST(REV) GRIT_CG2_LIST(FWD)
#undef REV
#undef FWD
};
#pragma GCC diagnostic pop

const char *const grit_cg2_names[GRIT_CG2_KIND_COUNT] = {
#define NAME(K, fn, A, B, name) [GRIT_CG2_##K] = name,
    GRIT_CG2_LIST(NAME)
#undef NAME
};

bool grit_cg2_eval(const grit_scene *s, int kind, int a, int b, grit_vec3 shift, bool real,
                   const grit_l6geom *prev, grit_cg2_out *o)
{
    switch (kind) {
#define CASE(K, fn, A, B, name) \
    case GRIT_CG2_##K: return fn(s, a, b, shift, real, prev, o);
        GRIT_CG2_LIST(CASE)
#undef CASE
    default: return false;
    }
}

/* Flat: a wall, or a facet without thickness. */
static bool is_flat(const grit_scene *s, int i)
{
    int sh = s->b.shape[i];
    return sh == GRIT_SHAPE_WALL || (sh == GRIT_SHAPE_FACET && !(s->facets[s->b.sidx[i]].half_thick > 0));
}

static int flat_pair_error(grit_scene *s, int i, int j)
{
    const char *ti = s->b.shape[i] == GRIT_SHAPE_FACET ? " with half_thick 0" : "";
    const char *tj = s->b.shape[j] == GRIT_SHAPE_FACET ? " with half_thick 0" : "";
    return grit_fail(s, GRIT_EINVAL,
                     "particles %d (%s%s, mask %u) and %d (%s%s, mask %u) may collide but are both flat: their "
                     "effective lengths are undefined (a flat body takes the other body's length; docs/shapes.md); "
                     "give the facet a half_thick > 0 or masks sharing the lone bit %u",
                     s->b.id[j], grit_shape_name(s->b.shape[j]), tj, s->b.mask[j], s->b.id[i],
                     grit_shape_name(s->b.shape[i]), ti, s->b.mask[i], (unsigned)GRIT_MASK_LONE);
}

static bool pair_allowed(const grit_scene *s, int i, int j)
{
    uint32_t m = s->b.mask[i] & s->b.mask[j];
    return m != 0 && !(m & GRIT_MASK_LONE) &&
           grit_cg2_lookup(s->b.shape[i], s->b.shape[j]).kind != GRIT_CG2_NONE;
}

int grit_cg2_check_flat_pairs(grit_scene *s)
{
    /* one representative per (shape, mask) of the flat particles -- meshes
     * share a mask, so there are few -- and whether it has a twin */
    enum { MAXR = 64 };
    int rep[MAXR], nrep = 0;
    bool twin[MAXR];
    for (int i = 0; i < s->b.n; i++) {
        if (!is_flat(s, i)) continue;
        int k = 0;
        while (k < nrep && !(s->b.shape[rep[k]] == s->b.shape[i] && s->b.mask[rep[k]] == s->b.mask[i])) k++;
        if (k < nrep) {
            if (!twin[k] && pair_allowed(s, rep[k], i)) return flat_pair_error(s, i, rep[k]);
            twin[k] = true;
            continue;
        }
        for (k = 0; k < nrep; k++)
            if (pair_allowed(s, rep[k], i)) return flat_pair_error(s, i, rep[k]);
        if (nrep < MAXR) {
            twin[nrep] = false;
            rep[nrep++] = i;
        }
    }
    return 0;
}
