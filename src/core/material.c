/* grit: materials and per-pair overrides of the contact parameters. */
#include <stdlib.h>
#include <string.h>

#include "core/storage.h"

int grit_material_count(const grit_scene *s) { return s->n_mats; }

static int rebuild_pair_table(grit_scene *s)
{
    int n = s->n_mats;
    int16_t *t = malloc(sizeof *t * (size_t)(n > 0 ? n * n : 1));
    if (!t) return grit_fail(s, GRIT_ENOMEM, "out of memory building the material pair table");
    for (int i = 0; i < n * n; i++) t[i] = -1;
    for (int k = 0; k < s->n_overrides; k++) {
        const grit_pair_override *o = &s->overrides[k];
        t[o->mat_a * n + o->mat_b] = (int16_t)k;
        t[o->mat_b * n + o->mat_a] = (int16_t)k;
    }
    free(s->pair_table);
    s->pair_table = t;
    s->pair_table_n = n;
    return GRIT_OK;
}

int grit_add_frictmat(grit_scene *s, const grit_frictmat_def *def)
{
    if (grit_param_validate(&grit_frictmat_param_table, def, s->err, sizeof s->err)) return GRIT_EINVAL;
    if (s->n_mats >= 32767) return grit_fail(s, GRIT_EINVAL, "too many materials (at most 32767)");
    if (s->n_mats == s->cap_mats) {
        int cap = s->cap_mats ? 2 * s->cap_mats : 8;
        if (grit_grow((void **)&s->mats, sizeof *s->mats, cap))
            return grit_fail(s, GRIT_ENOMEM, "out of memory adding a material");
        s->cap_mats = cap;
    }
    s->mats[s->n_mats].fm = *def;
    s->n_mats++;
    int rc = rebuild_pair_table(s);
    if (rc) {
        s->n_mats--;
        return rc;
    }
    return s->n_mats - 1;
}

int grit_set_pair(grit_scene *s, int mat_a, int mat_b, const grit_pair_def *def)
{
    if (mat_a < 0 || mat_a >= s->n_mats || mat_b < 0 || mat_b >= s->n_mats)
        return grit_fail(s, GRIT_EINVAL, "pair override: material index (%d, %d) out of range [0, %d)", mat_a, mat_b,
                         s->n_mats);
    if (grit_param_validate(&grit_pair_param_table, def, s->err, sizeof s->err)) return GRIT_EINVAL;
    for (int k = 0; k < s->n_overrides; k++) {
        grit_pair_override *o = &s->overrides[k];
        if ((o->mat_a == mat_a && o->mat_b == mat_b) || (o->mat_a == mat_b && o->mat_b == mat_a)) {
            o->def = *def;
            s->dt_check = true; /* an overridden kn changes the critical step */
            return GRIT_OK;
        }
    }
    if (s->n_overrides >= 32767) return grit_fail(s, GRIT_EINVAL, "too many pair overrides");
    if (s->n_overrides == s->cap_overrides) {
        int cap = s->cap_overrides ? 2 * s->cap_overrides : 8;
        if (grit_grow((void **)&s->overrides, sizeof *s->overrides, cap))
            return grit_fail(s, GRIT_ENOMEM, "out of memory adding a pair override");
        s->cap_overrides = cap;
    }
    s->overrides[s->n_overrides++] = (grit_pair_override){mat_a, mat_b, *def};
    int rc = rebuild_pair_table(s);
    if (rc) s->n_overrides--;
    else s->dt_check = true;
    return rc;
}
