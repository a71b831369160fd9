/* grit: materials of every type, per-pair overrides, and the resolved table
 * of what each pair of materials makes of a contact (physics and law). */
#include <stdlib.h>
#include <string.h>

#include "core/storage.h"
#include "cg2/cg2.h"
#include "cp2/cp2.h"
#include "law2/law2.h"
#include "material/material.h"

const grit_material_class *const grit_material_classes[GRIT_MAT_COUNT] = {
#define CLASS(U, l, name) [GRIT_MAT_##U] = &grit_##l##_material,
    GRIT_MATERIAL_TYPES(CLASS)
#undef CLASS
};

const char *grit_material_type_name(int type)
{
    return type >= 0 && type < GRIT_MAT_COUNT ? grit_material_classes[type]->name : NULL;
}
const char *grit_material_class_name(int type)
{
    return type >= 0 && type < GRIT_MAT_COUNT ? grit_material_classes[type]->class_name : NULL;
}
const grit_param_table *grit_material_param_table(int type)
{
    return type >= 0 && type < GRIT_MAT_COUNT ? grit_material_classes[type]->table : NULL;
}
int grit_material_type_find(const char *name)
{
    for (int t = 0; name && t < GRIT_MAT_COUNT; t++)
        if (!strcmp(name, grit_material_classes[t]->name) || !strcmp(name, grit_material_classes[t]->class_name))
            return t;
    return -1;
}

int grit_material_count(const grit_scene *s) { return s->n_mats; }

int grit_get_material_type(const grit_scene *s, int mat)
{
    if (mat < 0 || mat >= s->n_mats)
        return grit_fail((grit_scene *)s, GRIT_EINVAL, "material index %d out of range [0, %d)", mat, s->n_mats);
    return s->mats[mat].type;
}

int grit_get_material(const grit_scene *s, int mat, void *def, size_t size)
{
    int t = grit_get_material_type(s, mat);
    if (t < 0) return t;
    if (!def || size != grit_material_classes[t]->def_size)
        return grit_fail((grit_scene *)s, GRIT_EINVAL, "grit_get_material: material %d is a %s, its definition has %zu bytes, not %zu",
                         mat, grit_material_classes[t]->class_name, grit_material_classes[t]->def_size, size);
    memcpy(def, &s->mats[mat].u, size);
    return GRIT_OK;
}

/* The law of a pair: the override's, else the one the materials ask for
 * among those that accept the pair's physics (the first in GRIT_LAWS' order
 * when both ask and differ), else the first law that accepts it. */
static int pair_law(const grit_scene *s, int a, int b, int phys, int override)
{
    if (override >= 0 && s->overrides[override].def.law > 0) return s->overrides[override].def.law - 1;
    const grit_material *ma = &s->mats[a], *mb = &s->mats[b];
    int la = grit_material_classes[ma->type]->law(ma), lb = grit_material_classes[mb->type]->law(mb);
    if (la >= 0 && grit_law_phys(la) != phys) la = -1;
    if (lb >= 0 && grit_law_phys(lb) != phys) lb = -1;
    if (la >= 0 && lb >= 0) return la < lb ? la : lb;
    if (la >= 0 || lb >= 0) return la >= 0 ? la : lb;
    for (int l = 0; l < GRIT_LAW_COUNT; l++)
        if (grit_law_phys(l) == phys) return l;
    return 0;
}

static int rebuild_pair_table(grit_scene *s)
{
    int n = s->n_mats;
    grit_matpair *t = malloc(sizeof *t * (size_t)(n > 0 ? n * n : 1));
    if (!t) return grit_fail(s, GRIT_ENOMEM, "out of memory building the material pair table");
    for (int a = 0; a < n; a++)
        for (int b = 0; b < n; b++) {
            grit_matpair *e = &t[a * n + b];
            e->override = -1;
            e->phys = (uint8_t)grit_cp2_find(grit_cp2_table, s->mats[a].type, s->mats[b].type, NULL, 0);
        }
    for (int k = 0; k < s->n_overrides; k++) {
        const grit_pair_override *o = &s->overrides[k];
        t[o->mat_a * n + o->mat_b].override = (int16_t)k;
        t[o->mat_b * n + o->mat_a].override = (int16_t)k;
    }
    for (int a = 0; a < n; a++)
        for (int b = 0; b < n; b++) {
            grit_matpair *e = &t[a * n + b];
            e->law = (uint8_t)(e->phys == GRIT_PHYS_NONE ? 0 : pair_law(s, a, b, e->phys, e->override));
        }
    free(s->pair_table);
    s->pair_table = t;
    s->pair_table_n = n;
    /* contacts pick up a changed law at the next broad-phase rebuild */
    s->need_rebuild = true;
    s->laws_check = true;
    return GRIT_OK;
}

int grit_add_material(grit_scene *s, int type, const void *def)
{
    if (type < 0 || type >= GRIT_MAT_COUNT)
        return grit_fail(s, GRIT_EINVAL, "material type %d out of range [0, %d)", type, GRIT_MAT_COUNT);
    const grit_material_class *mc = grit_material_classes[type];
    if (!def) return grit_fail(s, GRIT_EINVAL, "grit_add_material: no %s definition given", mc->class_name);
    if (grit_param_validate(mc->table, def, s->err, sizeof s->err)) return GRIT_EINVAL;
    if (mc->check && mc->check(def, s->err, sizeof s->err)) return GRIT_EINVAL;
    if (s->n_mats >= 32767) return grit_fail(s, GRIT_EINVAL, "too many materials (at most 32767)");
    if (s->n_mats == s->cap_mats) {
        int cap = s->cap_mats ? 2 * s->cap_mats : 8;
        if (grit_grow((void **)&s->mats, sizeof *s->mats, cap))
            return grit_fail(s, GRIT_ENOMEM, "out of memory adding a material");
        s->cap_mats = cap;
    }
    grit_material *m = &s->mats[s->n_mats];
    memset(m, 0, sizeof *m);
    m->type = type;
    memcpy(&m->u, def, mc->def_size);
    s->n_mats++;
    int rc = rebuild_pair_table(s);
    if (rc == GRIT_OK) rc = grit_cp2_prepare(s);
    if (rc != GRIT_OK) { /* as it was; the message of the failure stays */
        char msg[sizeof s->err];
        memcpy(msg, s->err, sizeof msg);
        s->n_mats--;
        rebuild_pair_table(s);
        grit_cp2_prepare(s);
        memcpy(s->err, msg, sizeof msg);
        return rc;
    }
    return s->n_mats - 1;
}

int grit_add_frictmat(grit_scene *s, const grit_frictmat_def *def)
{
    return grit_add_material(s, GRIT_MAT_FRICTMAT, def);
}

int grit_add_concretemat(grit_scene *s, const grit_concretemat_def *def)
{
    return grit_add_material(s, GRIT_MAT_CONCRETEMAT, def);
}

int grit_add_hertzmat(grit_scene *s, const grit_hertzmat_def *def)
{
    return grit_add_material(s, GRIT_MAT_HERTZMAT, def);
}

int grit_set_pair(grit_scene *s, int mat_a, int mat_b, const grit_pair_def *def)
{
    if (mat_a < 0 || mat_a >= s->n_mats || mat_b < 0 || mat_b >= s->n_mats)
        return grit_fail(s, GRIT_EINVAL, "pair override: material index (%d, %d) out of range [0, %d)", mat_a, mat_b,
                         s->n_mats);
    if (grit_param_validate(&grit_pair_param_table, def, s->err, sizeof s->err)) return GRIT_EINVAL;
    const int phys = grit_matpair_of(s, mat_a, mat_b)->phys;
    if (phys != GRIT_PHYS_FRICTPHYS && phys != GRIT_PHYS_HERTZPHYS)
        return grit_fail(s, GRIT_EINVAL,
                         "pair override of materials %d (%s) and %d (%s): their contacts are %s, overrides apply to "
                         "FrictPhys and HertzPhys contacts",
                         mat_a, grit_material_class_name(s->mats[mat_a].type), mat_b,
                         grit_material_class_name(s->mats[mat_b].type),
                         phys == GRIT_PHYS_NONE ? "impossible (no physics functor)" : grit_phys_name(phys));
    /* a parameter the pair's physics has no use for is an error, not ignored */
    const char *unused = NULL;
    double value = 0;
    if (phys == GRIT_PHYS_HERTZPHYS) {
        if (!isnan(def->kn)) unused = "kn", value = def->kn;
        else if (!isnan(def->kt)) unused = "kt", value = def->kt;
        else if (def->cn != 0) unused = "cn", value = def->cn;
        else if (def->law != 0) unused = "law", value = def->law;
    } else if (!isnan(def->restitution)) {
        unused = "restitution", value = def->restitution;
    } else if (def->rolling != 0) {
        unused = "rolling", value = def->rolling;
    } else if (!isnan(def->mu_roll)) {
        unused = "mu_roll", value = def->mu_roll;
    } else if (!isnan(def->eta_roll)) {
        unused = "eta_roll", value = def->eta_roll;
    }
    if (unused)
        return grit_fail(s, GRIT_EINVAL,
                         "pair override of materials %d (%s) and %d (%s): parameter '%s' = %g does not apply to their "
                         "%s contacts (%s)",
                         mat_a, grit_material_class_name(s->mats[mat_a].type), mat_b,
                         grit_material_class_name(s->mats[mat_b].type), unused, value, grit_phys_name(phys),
                         phys == GRIT_PHYS_HERTZPHYS ? "HertzPhys takes tan_phi, restitution and rolling resistance"
                                                     : "restitution and rolling resistance are for HertzPhys contacts");
    for (int k = 0; k < s->n_overrides; k++) {
        grit_pair_override *o = &s->overrides[k];
        if ((o->mat_a == mat_a && o->mat_b == mat_b) || (o->mat_a == mat_b && o->mat_b == mat_a)) {
            o->def = *def;
            s->dt_check = true; /* an overridden kn changes the critical step */
            return rebuild_pair_table(s);
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

int grit_pair_law(const grit_scene *s, int mat_a, int mat_b)
{
    if (mat_a < 0 || mat_a >= s->n_mats || mat_b < 0 || mat_b >= s->n_mats)
        return grit_fail((grit_scene *)s, GRIT_EINVAL, "material index (%d, %d) out of range [0, %d)", mat_a, mat_b,
                         s->n_mats);
    const grit_matpair *e = grit_matpair_of(s, mat_a, mat_b);
    if (e->phys == GRIT_PHYS_NONE)
        return grit_fail((grit_scene *)s, GRIT_EINVAL, "materials %d (%s) and %d (%s) have no physics functor", mat_a,
                         grit_material_class_name(s->mats[mat_a].type), mat_b,
                         grit_material_class_name(s->mats[mat_b].type));
    return e->law;
}

/* Up to MAXR distinct (shape, mask) of the particles of each material:
 * whether two materials' particles can meet at all. */
enum { MAXR = 16 };
typedef struct reps {
    int n; /* > MAXR: too many to tell, assume they meet */
    uint8_t shape[MAXR];
    uint32_t mask[MAXR];
} reps;

static bool may_meet(const reps *ra, const reps *rb)
{
    if (ra->n > MAXR || rb->n > MAXR) return true;
    for (int i = 0; i < ra->n; i++)
        for (int j = 0; j < rb->n; j++) {
            uint32_t m = ra->mask[i] & rb->mask[j];
            if (m && !(m & GRIT_MASK_LONE) && grit_cg2_table[ra->shape[i]][rb->shape[j]]) return true;
        }
    return false;
}

int grit_materials_check(grit_scene *s)
{
    if (!s->laws_check) return GRIT_OK;
    const int n = s->n_mats;
    reps *r = calloc((size_t)(n > 0 ? n : 1), sizeof *r);
    if (!r) return grit_fail(s, GRIT_ENOMEM, "out of memory checking the materials");
    for (int i = 0; i < s->b.n; i++) {
        reps *q = &r[s->b.mat[i]];
        int k = 0;
        while (k < q->n && k < MAXR && !(q->shape[k] == s->b.shape[i] && q->mask[k] == s->b.mask[i])) k++;
        if (k < q->n || q->n > MAXR) continue;
        if (q->n == MAXR) {
            q->n++;
            continue;
        }
        q->shape[k] = s->b.shape[i];
        q->mask[k] = s->b.mask[i];
        q->n++;
    }
    int rc = GRIT_OK;
    for (int a = 0; a < n && rc == GRIT_OK; a++)
        for (int b = a; b < n && rc == GRIT_OK; b++) {
            if (!r[a].n || !r[b].n || !may_meet(&r[a], &r[b])) continue;
            const grit_matpair *e = grit_matpair_of(s, a, b);
            if (e->phys == GRIT_PHYS_NONE) {
                char msg[256];
                grit_cp2_find(grit_cp2_table, s->mats[a].type, s->mats[b].type, msg, sizeof msg);
                rc = grit_fail(s, GRIT_EINVAL,
                               "materials %d and %d: %s, but particles of both may collide (give them masks that "
                               "do not meet)",
                               a, b, msg);
            } else if (e->law == GRIT_LAW_CPM) { /* the pair's constants with the law's parameters */
                char msg[400];
                const grit_cpm_opts o = grit_cpm_opts_from(&s->laws.cpm);
                if (grit_cpm_check(&s->cpm_phys[a * n + b], &o, msg, sizeof msg))
                    rc = grit_fail(s, GRIT_EINVAL, "ConcreteMats %d and %d with the law cpm: %s", a, b, msg);
            } else if (e->law == GRIT_LAW_LINEL6 && !(s->laws.linel6.char_len > 0)) {
                rc = grit_fail(s, GRIT_EINVAL,
                               "parameter 'char_len' = %g is out of range: the linel6 law (materials %d and %d) needs "
                               "char_len > 0 (m)",
                               s->laws.linel6.char_len, a, b);
            }
        }
    free(r);
    if (rc == GRIT_OK) s->laws_check = false;
    return rc;
}
