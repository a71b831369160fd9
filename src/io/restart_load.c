/* grit: reading restart files (layout in restart_format.h, docs/restart.md).
 *
 * Order of checks: the header (magic, version, byte order, type sizes,
 * length against the file's size), then the CRC over the whole file, then
 * the section table, then each section, every length and count checked
 * against the bytes present before anything is copied, and every index that
 * the engine will follow (shape, material, particle, contact kind) checked
 * against its range. Any failure frees what was built and returns NULL with
 * a one-line message. */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cg2/cg2.h"
#include "collide/broadphase.h"
#include "collide/periodic.h"
#include "core/storage.h"
#include "core/text.h"
#include "grit/clump.h"
#include "grit/reflect.h"
#include "material/material.h"
#include "integrate/local6.h"
#include "core/cellctrl.h"
#include "io/restart_format.h"
#include "shape/shape.h"

typedef struct loader {
    const char *path;
    FILE *f;
    grit_scene *s; /* created by the SCEN section */
    uint64_t total;
    uint32_t version;
    /* files before version 3 kept the law and its parameters in the scene */
    grit_law_defs legacy_laws;
    int legacy_law;
    char msg[480];
    /* the section being parsed */
    const char *tag;
    const uint8_t *p;
    size_t n, pos;
} loader;

static int fail(loader *L, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int fail(loader *L, const char *fmt, ...)
{
    if (L->msg[0]) return -1; /* keep the first message */
    va_list ap;
    va_start(ap, fmt);
    char raw[sizeof L->msg];
    vsnprintf(raw, sizeof raw, fmt, ap);
    va_end(ap);
    /* names and tags come from the file: its raw bytes (a newline, escape
     * sequences) must not reach the one-line message (found by fuzz_restart) */
    grit_text_quote(raw, sizeof raw, L->msg, sizeof L->msg);
    return -1;
}

/* ------------------------------------------------------- reading a section */
static int get(loader *L, void *out, size_t len)
{
    if (len > L->n - L->pos) {
        memset(out, 0, len);
        return fail(L, "section %s is shorter than its contents (needs %zu more bytes at offset %zu of %zu)", L->tag,
                    len, L->pos, L->n);
    }
    memcpy(out, L->p + L->pos, len);
    L->pos += len;
    return 0;
}
static uint8_t get_u8(loader *L)
{
    uint8_t v;
    get(L, &v, 1);
    return v;
}
static uint32_t get_u32(loader *L)
{
    uint32_t v;
    get(L, &v, 4);
    return v;
}
static int64_t get_i64(loader *L)
{
    int64_t v;
    get(L, &v, 8);
    return v;
}
static double get_f64(loader *L)
{
    double v;
    get(L, &v, 8);
    return v;
}

/* A parameter of a law that a file before version 3 kept among the scene's:
 * its entry in the law's table, *def pointed at the law's definition. */
static const grit_param_info *legacy_param(loader *L, const char *name, void **def)
{
    for (int law = 0; law < GRIT_LAW_COUNT; law++) {
        const grit_param_info *p = grit_param_find(grit_law_param_table(law), name);
        if (!p) continue;
        const size_t offsets[GRIT_LAW_COUNT] = {
#define OFF(U, l, phys, wname) [GRIT_LAW_##U] = offsetof(grit_law_defs, l),
            GRIT_LAWS(OFF)
#undef OFF
        };
        *def = (char *)&L->legacy_laws + offsets[law];
        return p;
    }
    return NULL;
}

/* A parameter block into `def` (which holds the defaults): every parameter
 * must be known with the same type; its value must be in range. */
static int get_params(loader *L, const grit_param_table *t, void *def0, const char *what)
{
    uint32_t count = get_u32(L);
    for (uint32_t i = 0; i < count && !L->msg[0]; i++) {
        char name[256];
        uint8_t len = get_u8(L);
        get(L, name, len);
        name[len] = '\0';
        uint8_t type = get_u8(L), ncomp = get_u8(L);
        double v[3] = {0, 0, 0};
        if (ncomp != 1 && ncomp != 3) return fail(L, "%s parameter '%s': %u components", what, name, ncomp);
        for (int c = 0; c < ncomp; c++) v[c] = get_f64(L);
        if (L->msg[0]) break;
        void *def = def0;
        const grit_param_info *p = grit_param_find(t, name);
        if (!p && L->version < 3 && t == &grit_scene_param_table) { /* a law's parameter, then in the scene */
            p = legacy_param(L, name, &def);
            if (!p && !strcmp(name, "law") && ncomp == 1 && v[0] >= 0 && v[0] < GRIT_LAW_COUNT) {
                L->legacy_law = (int)v[0];
                continue;
            }
        }
        if (!p) return fail(L, "%s parameter '%s' is unknown to this build of grit", what, name);
        if (p->type != type || ncomp != (p->type == GRIT_PT_vec3 ? 3 : 1))
            return fail(L, "%s parameter '%s' has type %u in the file, %u in this build", what, name, type, p->type);
        char err[300];
        for (int c = 0; c < ncomp; c++)
            if (grit_param_check(p, v[c], err, sizeof err)) return fail(L, "%s: %s", what, err);
        char *base = (char *)def + p->offset;
        switch (p->type) {
        case GRIT_PT_double: *(double *)base = v[0]; break;
        case GRIT_PT_int:
        case GRIT_PT_choice: *(int *)base = (int)v[0]; break;
        case GRIT_PT_flag: *(bool *)base = v[0] != 0.0; break;
        case GRIT_PT_vec3: *(grit_vec3 *)base = v3(v[0], v[1], v[2]); break;
        }
    }
    return L->msg[0] ? -1 : 0;
}

/* The array records of the rest of a section, indexed by name. */
typedef struct array_rec {
    char name[9];
    uint32_t elem, count;
    const uint8_t *data;
    bool used;
} array_rec;
enum { MAX_ARRAYS = 32 };

static int index_arrays(loader *L, array_rec *a, int *na)
{
    *na = 0;
    while (L->pos < L->n && !L->msg[0]) {
        if (*na == MAX_ARRAYS) return fail(L, "section %s has more than %d arrays", L->tag, MAX_ARRAYS);
        array_rec *r = &a[(*na)++];
        memset(r, 0, sizeof *r);
        get(L, r->name, 8);
        r->elem = get_u32(L);
        r->count = get_u32(L);
        if (L->msg[0]) break;
        uint64_t bytes = (uint64_t)r->elem * r->count;
        if (bytes > L->n - L->pos)
            return fail(L, "section %s: array '%s' (%u x %u bytes) runs past the end of the section", L->tag, r->name,
                        r->count, r->elem);
        r->data = L->p + L->pos;
        L->pos += (size_t)bytes;
    }
    return L->msg[0] ? -1 : 0;
}

/* Copy the array `name` (element size `elem`, `count` elements) into dst. */
static int take_array(loader *L, array_rec *a, int na, const char *name, size_t elem, size_t count, void *dst)
{
    for (int i = 0; i < na; i++) {
        if (strcmp(a[i].name, name) != 0) continue;
        if (a[i].used) return fail(L, "section %s: array '%s' appears twice", L->tag, name);
        a[i].used = true;
        if (a[i].elem != elem)
            return fail(L, "section %s: array '%s' has %u-byte elements, this build uses %zu (another data layout)",
                        L->tag, name, a[i].elem, elem);
        if (a[i].count != count)
            return fail(L, "section %s: array '%s' has %u elements, expected %zu", L->tag, name, a[i].count, count);
        if (count && elem) memcpy(dst, a[i].data, elem * count);
        return 0;
    }
    return fail(L, "section %s: array '%s' is missing", L->tag, name);
}
#define TAKE(L, a, na, name, arr, count) take_array(L, a, na, name, sizeof *(arr), (size_t)(count), arr)

static int no_extra_arrays(loader *L, const array_rec *a, int na)
{
    for (int i = 0; i < na; i++)
        if (!a[i].used) return fail(L, "section %s: array '%s' is unknown to this build of grit", L->tag, a[i].name);
    return 0;
}

/* Element count read from the file: within what the engine's int indices hold. */
static int count_ok(loader *L, uint32_t n, const char *what)
{
    if (n > (uint32_t)INT32_MAX / 2) return fail(L, "section %s: %s = %u is too large", L->tag, what, n);
    return 0;
}

/* A count read before its arrays: each element takes at least `bytes` of the
 * section, so a count that the rest of the section cannot hold is refused
 * before anything is reserved for it (a crafted 55 KB file reserved 10 GB). */
static int count_fits(loader *L, uint32_t n, size_t bytes, const char *what)
{
    if (count_ok(L, n, what)) return -1;
    if ((uint64_t)n * bytes > L->n - L->pos)
        return fail(L, "section %s: %s = %u needs at least %llu bytes, the section has %zu left", L->tag, what, n,
                    (unsigned long long)n * bytes, L->n - L->pos);
    return 0;
}

/* lo <= hi on every axis (infinite bounds allowed, NaN not): an inverted box
 * gave the broad phase a negative cell count. */
static bool box_ok(const grit_aabb *b)
{
    return b->lo.x <= b->hi.x && b->lo.y <= b->hi.y && b->lo.z <= b->hi.z;
}

static bool v3_finite(grit_vec3 v) { return isfinite(v.x) && isfinite(v.y) && isfinite(v.z); }

/* The physical state of particle i, as the API would have accepted it. */
static int particle_ok(loader *L, int i)
{
    const grit_bodies *b = &L->s->b;
    if (!v3_finite(b->pr[i].pos))
        return fail(L, "particle %d: position (%g, %g, %g) is not finite", i, b->pr[i].pos.x, b->pr[i].pos.y,
                    b->pr[i].pos.z);
    const double r = b->pr[i].r;
    if (b->shape[i] == GRIT_SHAPE_SPHERE ? !(r > 0 && isfinite(r)) : !(r >= 0))
        return fail(L, "particle %d: radius %g is not %s", i, r,
                    b->shape[i] == GRIT_SHAPE_SPHERE ? "positive and finite" : ">= 0");
    const grit_massi *m = &b->mi[i];
    if (!(m->m > 0) || !(m->inertia.x > 0) || !(m->inertia.y > 0) || !(m->inertia.z > 0))
        return fail(L, "particle %d: mass %g, inertia (%g, %g, %g) must be positive", i, m->m, m->inertia.x,
                    m->inertia.y, m->inertia.z);
    if (!v3_finite(b->vw[i].v) || !v3_finite(b->vw[i].w))
        return fail(L, "particle %d: velocity is not finite", i);
    /* a fixed particle's accumulators hold m g = inf * g, and spheres leave
     * their angular momentum NaN: neither is read */
    if (isfinite(m->m) && (!v3_finite(b->ft[i].f) || !v3_finite(b->ft[i].t)))
        return fail(L, "particle %d: force (%g, %g, %g) or torque is not finite", i, b->ft[i].f.x, b->ft[i].f.y,
                    b->ft[i].f.z);
    const grit_quat q = b->ori[i];
    const double qn = q.w * q.w + q.x * q.x + q.y * q.y + q.z * q.z;
    if (!(fabs(qn - 1) < 1e-6)) return fail(L, "particle %d: orientation is not a unit quaternion (norm^2 %g)", i, qn);
    return 0;
}

/* ---------------------------------------------------------------- sections */
static int load_materials(loader *L)
{
    grit_scene *s = L->s;
    uint32_t n = get_u32(L);
    for (uint32_t m = 0; m < n && !L->msg[0]; m++) {
        int type = GRIT_MAT_FRICTMAT; /* the only type before version 3 */
        if (L->version >= 3) {
            char name[256];
            uint8_t len = get_u8(L);
            get(L, name, len);
            name[len] = '\0';
            if (L->msg[0]) break;
            type = grit_material_type_find(name);
            if (type < 0) return fail(L, "material %u: type '%s' is unknown to this build of grit", m, name);
        }
        const grit_param_table *t = grit_material_param_table(type);
        union {
#define U_FIELD(U, l, name) grit_##l##_def l;
            GRIT_MATERIAL_TYPES(U_FIELD)
#undef U_FIELD
        } d;
        grit_reflect_def_default(t, &d, grit_reflect_def_size(t));
        if (L->version < 3) d.frictmat.law = L->legacy_law;
        char what[48];
        snprintf(what, sizeof what, "material %u (%s)", m, grit_material_class_name(type));
        if (get_params(L, t, &d, what)) break;
        if (grit_add_material(s, type, &d) < 0) return fail(L, "%s: %s", what, grit_last_error(s));
    }
    return L->msg[0] ? -1 : 0;
}

/* Every law's parameters, by law name. */
static int load_laws(loader *L)
{
    grit_scene *s = L->s;
    uint32_t n = get_u32(L);
    for (uint32_t i = 0; i < n && !L->msg[0]; i++) {
        char name[256];
        uint8_t len = get_u8(L);
        get(L, name, len);
        name[len] = '\0';
        if (L->msg[0]) break;
        const int law = grit_law_find(name);
        if (law < 0) return fail(L, "section LAWS: law '%s' is unknown to this build of grit", name);
        grit_law_defs d = s->laws;
        const size_t offsets[GRIT_LAW_COUNT] = {
#define OFF(U, l, phys, wname) [GRIT_LAW_##U] = offsetof(grit_law_defs, l),
            GRIT_LAWS(OFF)
#undef OFF
        };
        void *def = (char *)&d + offsets[law];
        char what[48];
        snprintf(what, sizeof what, "law %s", grit_law_name(law));
        if (get_params(L, grit_law_param_table(law), def, what)) break;
        const size_t size = grit_reflect_def_size(grit_law_param_table(law));
        if (grit_set_law_def(s, law, def, size)) return fail(L, "%s: %s", what, grit_last_error(s));
    }
    return L->msg[0] ? -1 : 0;
}

static int load_pairs(loader *L)
{
    grit_scene *s = L->s;
    uint32_t n = get_u32(L);
    for (uint32_t i = 0; i < n && !L->msg[0]; i++) {
        int32_t a, b;
        get(L, &a, 4);
        get(L, &b, 4);
        grit_pair_def d = grit_default_pair_def();
        if (get_params(L, &grit_pair_param_table, &d, "pair override")) break;
        if (grit_set_pair(s, a, b, &d) != GRIT_OK) return fail(L, "pair override %u: %s", i, grit_last_error(s));
    }
    return L->msg[0] ? -1 : 0;
}

static int load_step(loader *L)
{
    grit_scene *s = L->s;
    int64_t step = get_i64(L);
    s->step = (long)step;
    s->time = get_f64(L);
    s->dt = get_f64(L);
    if (L->msg[0]) return -1;
    if (step < 0 || !isfinite(s->time) || !(isnan(s->dt) || s->dt > 0))
        return fail(L, "section STEP: step %lld, time %g, dt %g are not a valid state", (long long)step, s->time,
                    s->dt);
    return 0;
}

static int load_verlet(loader *L)
{
    const int64_t v = get_i64(L);
    if (!L->msg[0] && (v < -1 || v > L->s->step))
        return fail(L, "the last rebuild's step %lld is not between -1 and the step %ld", (long long)v, L->s->step);
    L->s->verlet_last_rebuild = (long)v;
    return L->msg[0] ? -1 : 0;
}

static int load_dyndt(loader *L)
{
    L->s->dt_prev = get_f64(L);
    return L->msg[0] ? -1 : 0;
}

static int load_energy(loader *L)
{
    grit_scene *s = L->s;
    uint32_t n = get_u32(L);
    for (uint32_t i = 0; i < n && !L->msg[0]; i++) {
        char name[256];
        uint8_t len = get_u8(L);
        get(L, name, len);
        name[len] = '\0';
        double v = get_f64(L);
        int k = -1;
        for (int e = 0; e < GRIT_E_COUNT; e++)
            if (strcmp(name, grit_energy_name(e)) == 0) k = e;
        if (L->msg[0]) break;
        if (k < 0) return fail(L, "energy entry '%s' is unknown to this build of grit", name);
        s->energy[k] = v;
    }
    s->energy_initial = get_f64(L);
    s->energy_initial_set = get_u8(L) != 0;
    return L->msg[0] ? -1 : 0;
}

static int load_broadphase(loader *L)
{
    grit_scene *s = L->s;
    s->verlet_dist = get_f64(L);
    s->need_rebuild = get_u8(L) != 0;
    s->last_sort_step = (long)get_i64(L);
    s->max_disp2 = get_f64(L);
    s->stats.rebuilds = (long)get_i64(L);
    s->stats.sorts = (long)get_i64(L);
    return L->msg[0] ? -1 : 0;
}

/* The element count of array `name`, which must be present. */
static int array_count(loader *L, const array_rec *a, int na, const char *name, int *n)
{
    for (int i = 0; i < na; i++)
        if (!strcmp(a[i].name, name)) {
            if (count_ok(L, a[i].count, name)) return -1;
            *n = (int)a[i].count;
            return 0;
        }
    return fail(L, "section %s: array '%s' is missing", L->tag, name);
}

/* An array the scene owns with a count and a capacity (shape data,
 * impositions): allocated to its count, copied. */
static int take_owned_array(loader *L, array_rec *a, int na, const char *name, size_t elem, void **arr, int *n,
                           int *cap)
{
    if (array_count(L, a, na, name, n)) return -1;
    if (grit_grow(arr, elem, *n)) return fail(L, "out of memory for %d %s", *n, name);
    *cap = *n > 0 ? *n : 1;
    return take_array(L, a, na, name, elem, (size_t)*n, *arr);
}

static int load_shapes(loader *L)
{
    grit_scene *s = L->s;
    array_rec a[MAX_ARRAYS];
    int na;
    if (index_arrays(L, a, &na) ||
        take_owned_array(L, a, na, "walls", sizeof *s->walls, (void **)&s->walls, &s->n_walls, &s->cap_walls) ||
        take_owned_array(L, a, na, "facets", sizeof *s->facets, (void **)&s->facets, &s->n_facets, &s->cap_facets) ||
        take_owned_array(L, a, na, "capsules", sizeof *s->capsules, (void **)&s->capsules, &s->n_capsules,
                         &s->cap_capsules) ||
        take_owned_array(L, a, na, "ellipsds", sizeof *s->ellipsoids, (void **)&s->ellipsoids, &s->n_ellipsoids,
                         &s->cap_ellipsoids) ||
        take_owned_array(L, a, na, "infcyls", sizeof *s->infcyls, (void **)&s->infcyls, &s->n_infcyls,
                         &s->cap_infcyls) ||
        take_owned_array(L, a, na, "rods", sizeof *s->rods, (void **)&s->rods, &s->n_rods, &s->cap_rods) ||
        no_extra_arrays(L, a, na))
        return -1;
    for (int i = 0; i < s->n_walls; i++)
        if (s->walls[i].axis < 0 || s->walls[i].axis > 2 || s->walls[i].sense < -1 || s->walls[i].sense > 1)
            return fail(L, "section SHAP: wall %d has axis %d, sense %d", i, s->walls[i].axis, s->walls[i].sense);
    for (int i = 0; i < s->n_infcyls; i++)
        if (s->infcyls[i].axis < 0 || s->infcyls[i].axis > 2)
            return fail(L, "section SHAP: infinite cylinder %d has axis %d", i, s->infcyls[i].axis);
    return 0;
}

static int load_bodies(loader *L)
{
    grit_scene *s = L->s;
    uint32_t n = get_u32(L);
    array_rec a[MAX_ARRAYS];
    int na;
    if (L->msg[0] || count_fits(L, n, sizeof(grit_posr), "particle count") || index_arrays(L, a, &na)) return -1;
    grit_bodies *b = &s->b;
    if (grit_bodies_reserve(b, n > 0 ? (int)n : 1)) return fail(L, "out of memory for %u particles", n);
    if (TAKE(L, a, na, "pr", b->pr, n) || TAKE(L, a, na, "vw", b->vw, n) || TAKE(L, a, na, "ft", b->ft, n) ||
        TAKE(L, a, na, "mi", b->mi, n) || TAKE(L, a, na, "ori", b->ori, n) ||
        TAKE(L, a, na, "angmom", b->angmom, n) || TAKE(L, a, na, "flags", b->flags, n) ||
        TAKE(L, a, na, "shape", b->shape, n) || TAKE(L, a, na, "sidx", b->sidx, n) ||
        TAKE(L, a, na, "mat", b->mat, n) || TAKE(L, a, na, "mask", b->mask, n) || TAKE(L, a, na, "id", b->id, n) ||
        TAKE(L, a, na, "refpos", b->refpos, n))
        return -1;
    b->n = (int)n;
    s->next_id = (int)n; /* before version 6, ids were the count; section OUTL has the counter */
    /* the id map: its own length */
    int cap = 0;
    if (array_count(L, a, na, "id2idx", &cap)) return -1;
    if (cap > 0 && grit_grow((void **)&s->id2idx, sizeof *s->id2idx, cap)) return fail(L, "out of memory");
    s->id_cap = cap;
    if (TAKE(L, a, na, "id2idx", s->id2idx, cap) || no_extra_arrays(L, a, na)) return -1;
    /* every index the engine follows */
    for (int i = 0; i < b->n; i++) {
        int sh = b->shape[i], si = b->sidx[i];
        if (sh >= GRIT_SHAPE_COUNT) return fail(L, "particle %d: shape %d unknown", i, sh);
        const int ndata[GRIT_SHAPE_COUNT] = {
            [GRIT_SHAPE_SPHERE] = -1,          [GRIT_SHAPE_WALL] = s->n_walls,
            [GRIT_SHAPE_FACET] = s->n_facets,  [GRIT_SHAPE_INFCYLINDER] = s->n_infcyls,
            [GRIT_SHAPE_CAPSULE] = s->n_capsules, [GRIT_SHAPE_ELLIPSOID] = s->n_ellipsoids,
            [GRIT_SHAPE_ROD] = s->n_rods,      [GRIT_SHAPE_CLUMP] = -1 /* checked by CLMP */};
        if (ndata[sh] >= 0 && (si < 0 || si >= ndata[sh]))
            return fail(L, "particle %d: shape data index %d out of range", i, si);
        if (b->mat[i] >= s->n_mats) return fail(L, "particle %d: material %d does not exist", i, b->mat[i]);
        if ((b->flags[i] & PF_MOVES_SHAPE) && !grit_shape_classes[sh]->follow_node)
            return fail(L, "particle %d: flagged as moving shape data its shape does not have", i);
        if (b->id[i] < 0 || b->id[i] >= s->id_cap || s->id2idx[b->id[i]] != i)
            return fail(L, "particle %d: id %d does not map back to it", i, b->id[i]);
        if (particle_ok(L, i)) return -1;
    }
    for (int id = 0; id < s->id_cap; id++)
        if (s->id2idx[id] < -1 || s->id2idx[id] >= b->n || (s->id2idx[id] >= 0 && b->id[s->id2idx[id]] != id))
            return fail(L, "id %d maps to index %d, not back to itself", id, s->id2idx[id]);
    return 0;
}

/* Block boundaries of the contact and the potential lists. A file may
 * come from a build with fewer laws or geometry functors (both lists only
 * grow at their ends): its blocks, in (kind, law) order, map onto ours in
 * the same order. Before version 3 the blocks were by kind only, all of one
 * law (the scene's, now the materials'). */
static int load_blocks(loader *L, array_rec *a, int na)
{
    grit_contacts *c = &L->s->c;
    const char *names[2][2] = {{"kindst", "potst"}, {"blockst", "potblkst"}};
    const int v3 = L->version >= 3;
    uint32_t nlaws = 1;
    if (v3 && take_array(L, a, na, "nlaws", sizeof nlaws, 1, &nlaws)) return -1;
    int legacy_law = L->version < 3 ? L->legacy_law : 0;
    for (int list = 0; list < 2; list++) {
        int cnt = 0;
        if (array_count(L, a, na, names[v3][list], &cnt)) return -1;
        if (nlaws < 1 || nlaws > 64 || cnt < 1 || cnt > 64 * 64 || (cnt - 1) % (int)nlaws)
            return fail(L, "section CONT: %d block boundaries for %u laws", cnt, nlaws);
        const int nkinds = (cnt - 1) / (int)nlaws;
        if (nkinds > GRIT_CG2_KIND_COUNT || (int)nlaws > GRIT_LAW_COUNT)
            return fail(L, "section CONT: blocks of %d geometry functors and %u laws, this build has %d and %d", nkinds,
                        nlaws, GRIT_CG2_KIND_COUNT, GRIT_LAW_COUNT);
        int *fs = malloc(sizeof *fs * (size_t)cnt);
        if (!fs) return fail(L, "out of memory");
        if (take_array(L, a, na, names[v3][list], sizeof *fs, (size_t)cnt, fs)) {
            free(fs);
            return -1;
        }
        int *st = list ? c->pot_start : c->block_start;
        const int total = list ? c->n_pot : c->n;
        for (int q = 0; q < cnt; q++)
            if (fs[q] < (q ? fs[q - 1] : 0) || fs[q] > total) {
                free(fs);
                return fail(L, "section CONT: block boundary %d out of order", q);
            }
        if (list && fs[cnt - 1] != total) {
            free(fs);
            return fail(L, "section CONT: potential pairs outside the blocks");
        }
        /* our block (k, l) starts where the file's first block at or after it does */
        for (int k = 0; k < GRIT_CG2_KIND_COUNT; k++)
            for (int l = 0; l < GRIT_LAW_COUNT; l++) {
                int fk = k, fl = v3 ? l : (l <= legacy_law ? 0 : 1);
                if (fl >= (int)nlaws) fk++, fl = 0;
                st[grit_block_of(k, l)] = fk >= nkinds ? fs[cnt - 1] : fs[fk * (int)nlaws + fl];
            }
        st[GRIT_BLOCK_COUNT] = fs[cnt - 1];
        free(fs);
    }
    return 0;
}

static int load_contacts(loader *L)
{
    grit_scene *s = L->s;
    uint32_t n = get_u32(L), ext_n = get_u32(L), n_real = get_u32(L);
    array_rec a[MAX_ARRAYS];
    int na;
    if (L->msg[0] || count_fits(L, n, sizeof(grit_pair), "contact count") || index_arrays(L, a, &na)) return -1;
    if (n_real > n) return fail(L, "section CONT: %u real contacts of %u", n_real, n);
    if (ext_n > 1024) return fail(L, "section CONT: %u law-state doubles per contact", ext_n);
    grit_contacts *c = &s->c;
    c->ext_n = (int)ext_n;
    if (grit_contacts_reserve(c, n > 0 ? (int)n : 1)) return fail(L, "out of memory for %u contacts", n);
    if (TAKE(L, a, na, "pair", c->pair, n) || TAKE(L, a, na, "geom", c->geom, n) ||
        TAKE(L, a, na, "phys", c->phys, n) || TAKE(L, a, na, "cold", c->cold, n) ||
        take_array(L, a, na, "ext", sizeof(double) * ext_n, n, c->ext))
        return -1;
    c->n = (int)n;
    c->adj_ok = false;
    c->n_real = (int)n_real;
    /* the blocks, then the contacts created since the last rebuild */
    int npot = 0;
    if (array_count(L, a, na, "pot", &npot)) return -1;
    if (npot > c->cap_pot) {
        if (grit_grow((void **)&c->pot, sizeof *c->pot, npot)) return fail(L, "out of memory for %d pairs", npot);
        c->cap_pot = npot;
    }
    if (TAKE(L, a, na, "pot", c->pot, npot)) return -1;
    if (L->version >= 3) {
        int64_t broken;
        if (take_array(L, a, na, "cpmbrk", sizeof broken, 1, &broken)) return -1;
        if (broken < 0) return fail(L, "section CONT: %lld broken concrete contacts", (long long)broken);
        s->cpm_broken = (long)broken;
    }
    c->n_pot = npot;
    if (load_blocks(L, a, na) || no_extra_arrays(L, a, na)) return -1;
    c->n_promoted = 0;
    for (int list = 0; list < 2; list++) {
        grit_pair *pairs = list ? c->pot : c->pair;
        const int *start = list ? c->pot_start : c->block_start;
        const int cnt = list ? npot : c->n;
        for (int k = 0; k < cnt; k++) {
            grit_pair *p = &pairs[k];
            if (p->a < 0 || p->a >= s->b.n || p->b < 0 || p->b >= s->b.n || p->a == p->b)
                return fail(L, "%s %d: particles (%d, %d) out of range", list ? "pair" : "contact", k, p->a, p->b);
            grit_cg2_entry e = grit_cg2_lookup(s->b.shape[p->a], s->b.shape[p->b]);
            if (p->kind >= GRIT_CG2_KIND_COUNT || e.kind != p->kind || e.swap)
                return fail(L, "%s %d: kind %d does not match the shapes of its particles", list ? "pair" : "contact",
                            k, p->kind);
            const int law = grit_matpair_of(s, s->b.mat[p->a], s->b.mat[p->b])->law;
            if (L->version < 3) p->law = (uint8_t)law; /* one law per scene then */
            if (p->law != law)
                return fail(L, "%s %d: law %d is not the law %d of its materials", list ? "pair" : "contact", k,
                            p->law, law);
            const int b = grit_block_of(p->kind, p->law);
            if (k < start[GRIT_BLOCK_COUNT] && (k < start[b] || k >= start[b + 1]))
                return fail(L, "%s %d: outside its block (geometry %d, law %d)", list ? "pair" : "contact", k, p->kind,
                            p->law);
            if (list && (p->flags & CF_PROMOTED)) c->n_promoted++;
        }
    }
    return 0;
}

/* The broad phase's record of its last rebuild. */
static int load_bpstate(loader *L)
{
    grit_scene *s = L->s;
    array_rec a[MAX_ARRAYS];
    int na, nb = 0, nr = 0;
    if (index_arrays(L, a, &na) || array_count(L, a, na, "box", &nb) || array_count(L, a, na, "rot", &nr))
        return -1;
    if (nb > s->b.n) return fail(L, "section BPST: %d boxes for %d particles", nb, s->b.n);
    grit_aabb *box = malloc(sizeof *box * (size_t)(nb > 0 ? nb : 1));
    int32_t *rot = malloc(sizeof *rot * (size_t)(nr > 0 ? nr : 1));
    double *rot_r = malloc(sizeof *rot_r * (size_t)(nr > 0 ? nr : 1));
    grit_quat *rot_q0 = malloc(sizeof *rot_q0 * (size_t)(nr > 0 ? nr : 1));
    int rc = 0;
    if (!box || !rot || !rot_r || !rot_q0) rc = fail(L, "out of memory");
    if (!rc && (TAKE(L, a, na, "box", box, nb) || TAKE(L, a, na, "rot", rot, nr) ||
                TAKE(L, a, na, "rot_r", rot_r, nr) || TAKE(L, a, na, "rot_q0", rot_q0, nr) ||
                no_extra_arrays(L, a, na)))
        rc = -1;
    for (int k = 0; !rc && k < nr; k++)
        if (rot[k] < 0 || rot[k] >= s->b.n) rc = fail(L, "section BPST: particle index %d out of range", rot[k]);
    for (int k = 0; !rc && k < nb; k++)
        if (!box_ok(&box[k])) rc = fail(L, "section BPST: box %d is inverted or NaN", k);
    for (int k = 0; !rc && k < nr; k++)
        if (!(rot_r[k] >= 0)) rc = fail(L, "section BPST: reach %g of particle %d is negative or NaN", rot_r[k], rot[k]);
    grit_broadphase_state st = {box, nb, rot, rot_r, rot_q0, nr};
    if (!rc && grit_broadphase_set_state(s, &st)) rc = fail(L, "out of memory");
    free(box);
    free(rot);
    free(rot_r);
    free(rot_q0);
    return rc;
}

static int load_local6(loader *L)
{
    grit_scene *s = L->s;
    array_rec a[MAX_ARRAYS];
    int na;
    if (index_arrays(L, a, &na)) return -1;
    if (take_owned_array(L, a, na, "local6", sizeof *s->local6, (void **)&s->local6, &s->n_local6, &s->cap_local6) ||
        no_extra_arrays(L, a, na))
        return -1;
    for (int k = 0; k < s->n_local6; k++) {
        const grit_local6 *l6 = &s->local6[k];
        if (grit_idx(s, l6->id) < 0) return fail(L, "imposition %d: particle id %d does not exist", k, l6->id);
        for (int j = 0; j < 6; j++)
            if (l6->what[j] > GRIT_IMPOSE_FORCE) return fail(L, "imposition %d: mode %u unknown", k, l6->what[j]);
    }
    return 0;
}

/* The periodic cell: absent (flag 0) or every field of grit_cell a later
 * step reads. Checked: finite matrices, a right-handed non-degenerate H, no
 * unbounded shapes, the per-particle arrays within the particle count; an
 * aperiodic scene has no contact across a boundary. */
static int take_mat(loader *L, array_rec *a, int na, const char *name, grit_mat3 *m)
{
    double r[9];
    if (take_array(L, a, na, name, sizeof(double), 9, r)) return -1;
    for (int q = 0; q < 9; q++)
        if (!isfinite(r[q])) return fail(L, "section CELL: %s[%d][%d] = %g is not finite", name, q / 3, q % 3, r[q]);
    for (int j = 0; j < 3; j++) m->c[j] = v3(r[j], r[3 + j], r[6 + j]);
    return 0;
}

static int cell_images_zero(loader *L)
{
    const grit_contacts *c = &L->s->c;
    for (int list = 0; list < 2; list++) {
        const grit_pair *pairs = list ? c->pot : c->pair;
        for (int k = 0; k < (list ? c->n_pot : c->n); k++)
            if (pairs[k].cell[0] | pairs[k].cell[1] | pairs[k].cell[2])
                return fail(L, "%s %d: periodic image (%d, %d, %d) in a file without a periodic cell",
                            list ? "pair" : "contact", k, pairs[k].cell[0], pairs[k].cell[1], pairs[k].cell[2]);
    }
    return 0;
}

static int load_cell(loader *L)
{
    grit_scene *s = L->s;
    uint8_t periodic = get_u8(L);
    if (L->msg[0]) return -1;
    if (periodic > 1) return fail(L, "section CELL: flag %u is neither 0 (aperiodic) nor 1 (periodic)", periodic);
    if (!periodic) return cell_images_zero(L);
    for (int i = 0; i < s->b.n; i++)
        if (grit_shape_classes[s->b.shape[i]]->unbounded)
            return fail(L, "section CELL: particle %d is a %s, an unbounded shape, in a periodic scene", i,
                        grit_shape_classes[s->b.shape[i]]->name);
    grit_cell *c = calloc(1, sizeof *c);
    if (!c) return fail(L, "out of memory");
    s->cell = c; /* freed with the scene on failure */
    array_rec a[MAX_ARRAYS];
    int na, np = 0, nb = 0;
    if (index_arrays(L, a, &na)) return -1;
    for (int q = 0; q < RST_CELL_NMAT; q++)
        if (take_mat(L, a, na, rst_cell_mats[q].name, rst_cell_mat(c, q))) return -1;
    double spin[6];
    uint8_t flags[3];
    if (take_array(L, a, na, "spin", sizeof(double), 6, spin) || take_array(L, a, na, "flags", 1, 3, flags) ||
        array_count(L, a, na, "period", &np) || array_count(L, a, na, "pbox", &nb))
        return -1;
    for (int q = 0; q < 6; q++)
        if (!isfinite(spin[q])) return fail(L, "section CELL: spin[%d] = %g is not finite", q, spin[q]);
    for (int q = 0; q < 3; q++)
        if (flags[q] > 1) return fail(L, "section CELL: flag %d = %u is not 0 or 1", q, flags[q]);
    c->spin_prev = v3(spin[0], spin[1], spin[2]);
    c->dspin = v3(spin[3], spin[4], spin[5]);
    c->grad_changed = flags[0];
    c->spin_changed = flags[1];
    c->virial_prev_set = flags[2];
    const double det = m3_det(&c->H), scale = v3_norm(c->H.c[0]) * v3_norm(c->H.c[1]) * v3_norm(c->H.c[2]);
    if (!(det > 1e-9 * scale) || !isfinite(det))
        return fail(L, "section CELL: the cell H has det %g for |a||b||c| = %g: degenerate or left-handed", det,
                    scale);
    if (np > s->b.n || nb > s->b.n)
        return fail(L, "section CELL: %d periods and %d boxes for %d particles", np, nb, s->b.n);
    if (grit_grow((void **)&c->period, sizeof *c->period, np > 0 ? np : 1)) return fail(L, "out of memory");
    c->cap_period = np > 0 ? np : 1;
    c->n_period = np;
    grit_aabb *box = malloc(sizeof *box * (size_t)(nb > 0 ? nb : 1));
    if (!box) return fail(L, "out of memory");
    int rc = TAKE(L, a, na, "period", c->period, np) || TAKE(L, a, na, "pbox", box, nb) || no_extra_arrays(L, a, na);
    for (int i = 0; !rc && i < np; i++) {
        const grit_vec3 p = c->period[i];
        if (!(fabs(p.x) < 1e9 && fabs(p.y) < 1e9 && fabs(p.z) < 1e9) || p.x != floor(p.x) || p.y != floor(p.y) ||
            p.z != floor(p.z))
            rc = fail(L, "section CELL: particle %d has period (%g, %g, %g), not whole numbers", i, p.x, p.y, p.z);
    }
    for (int i = 0; !rc && i < nb; i++)
        if (!box_ok(&box[i])) rc = fail(L, "section CELL: box %d is inverted or NaN", i);
    if (!rc && nb > 0 && grit_pbp_set_boxes(c, box, nb)) rc = fail(L, "out of memory");
    free(box);
    return rc ? -1 : 0;
}

static int load_scene(loader *L)
{
    grit_scene_def d = grit_default_scene_def();
    L->legacy_laws = grit_default_law_defs();
    if (get_params(L, &grit_scene_param_table, &d, "scene")) return -1;
    L->s = grit_scene_create(&d);
    if (L->s && L->version < 3) L->s->laws = L->legacy_laws;
    return L->s ? 0 : fail(L, "%s", grit_create_error());
}

/* A mesh region's triangles (restart.c put_mesh) into a buffer the caller
 * frees; each takes 72 bytes of the section, so a count beyond what is left
 * is refused before anything is allocated. */
static grit_vec3 (*get_mesh(loader *L, const char *what, uint32_t i, int *n))[3]
{
    const uint32_t m = get_u32(L);
    if (L->msg[0]) return NULL;
    if (m < 4 || m > (L->n - L->pos) / 72) {
        fail(L, "section %s: %s %u: %u mesh triangles (%zu bytes left)", L->tag, what, i, m, L->n - L->pos);
        return NULL;
    }
    grit_vec3(*t)[3] = malloc(sizeof *t * m);
    if (!t) {
        fail(L, "section %s: out of memory for %u triangles", L->tag, m);
        return NULL;
    }
    for (uint32_t k = 0; k < m; k++)
        for (int v = 0; v < 3; v++) {
            const double x = get_f64(L), y = get_f64(L), z = get_f64(L);
            t[k][v] = v3(x, y, z);
        }
    *n = (int)m;
    return t;
}

/* An inlet's clump templates into d, their members in two arrays the
 * caller frees; the counts are checked before anything is allocated. */
static int get_templates(loader *L, uint32_t i, grit_inlet_def *d, grit_vec3 **tc, double **tr)
{
    const int32_t n = (int32_t)get_u32(L);
    if (L->msg[0]) return -1;
    if (n < 0 || n > GRIT_INLET_MAX_CLUMPS)
        return fail(L, "section INLT: inlet %u: %d clump templates (at most %d)", i, n, GRIT_INLET_MAX_CLUMPS);
    d->n_clumps = n;
    const size_t start = L->pos;
    long total = 0; /* members, from a first pass over the counts */
    for (int c = 0; c < n; c++) {
        const int32_t m = (int32_t)get_u32(L);
        if (L->msg[0]) return -1;
        if (m < 1 || m > GRIT_CLUMP_MAX_MEMBERS || (size_t)m * 32 + 8 > L->n - L->pos)
            return fail(L, "section INLT: inlet %u: clump template %d: %d members (%zu bytes left)", i, c, m,
                        L->n - L->pos);
        L->pos += 8 + (size_t)m * 32;
        total += m;
    }
    L->pos = start;
    if (total && (!(*tc = malloc(sizeof **tc * (size_t)total)) || !(*tr = malloc(sizeof **tr * (size_t)total)))) {
        free(*tc);
        *tc = NULL;
        return fail(L, "section INLT: out of memory for %ld clump members", total);
    }
    for (int c = 0, row = 0; c < n; c++) {
        grit_inlet_clump *t = &d->clumps[c];
        t->n = (int32_t)get_u32(L);
        t->mass_frac = get_f64(L);
        for (int j = 0; j < t->n; j++, row++) {
            const double x = get_f64(L), y = get_f64(L), z = get_f64(L);
            (*tc)[row] = v3(x, y, z);
            (*tr)[row] = get_f64(L);
        }
        t->centers = *tc + (row - t->n);
        t->radii = *tr + (row - t->n);
    }
    if (L->msg[0]) {
        free(*tc);
        free(*tr);
        *tc = NULL, *tr = NULL;
        return -1;
    }
    return 0;
}

/* An inlet's shape templates into d (version 10 on). */
static int get_shapes(loader *L, uint32_t i, grit_inlet_def *d)
{
    const int32_t n = (int32_t)get_u32(L);
    if (L->msg[0]) return -1;
    if (n < 0 || n > GRIT_INLET_MAX_SHAPES)
        return fail(L, "section INLT: inlet %u: %d shape templates (at most %d)", i, n, GRIT_INLET_MAX_SHAPES);
    d->n_shapes = n;
    for (int c = 0; c < n; c++) {
        grit_inlet_shape *t = &d->shapes[c];
        t->shape = (int32_t)get_u32(L);
        t->mass_frac = get_f64(L);
        t->radius = get_f64(L);
        t->shaft = get_f64(L);
        const double x = get_f64(L), y = get_f64(L), z = get_f64(L);
        t->semi_axes = v3(x, y, z);
    }
    return L->msg[0] ? -1 : 0;
}

static int load_inlets(loader *L)
{
    grit_scene *s = L->s;
    const uint32_t n = get_u32(L);
    if (n > 1u << 16) return fail(L, "section INLT: %u inlets", n);
    for (uint32_t i = 0; i < n && !L->msg[0]; i++) {
        grit_inlet_def d = grit_default_inlet_def();
        d.region = (int32_t)get_u32(L);
        double v[19];
        for (int j = 0; j < 19; j++) v[j] = get_f64(L);
        d.lo = v3(v[0], v[1], v[2]);
        d.hi = v3(v[3], v[4], v[5]);
        d.center = v3(v[6], v[7], v[8]);
        d.radius = v[9];
        d.height = v[10];
        d.mass_rate = v[11];
        d.max_mass = v[12];
        d.t_start = v[13];
        d.r_min = v[14];
        d.r_max = v[15];
        d.vel = v3(v[16], v[17], v[18]);
        d.n_sizes = (int32_t)get_u32(L);
        for (int j = 0; j < GRIT_INLET_MAX_SIZES; j++) d.sizes[j] = get_f64(L);
        for (int j = 0; j < GRIT_INLET_MAX_SIZES; j++) d.mass_frac[j] = get_f64(L);
        d.material = (int32_t)get_u32(L);
        d.seed = (uint64_t)get_i64(L);
        d.max_attempts = (int32_t)get_u32(L);
        grit_vec3 *tc = NULL; /* the clump templates (version 9 on), members in a row */
        double *tr = NULL;
        if (L->version >= 9 && get_templates(L, i, &d, &tc, &tr)) break;
        if (L->msg[0]) break;
        if (L->version >= 10 && get_shapes(L, i, &d)) {
            free(tc);
            free(tr);
            break;
        }
        grit_vec3(*tri)[3] = NULL;
        if (d.region == GRIT_REGION_MESH && !(tri = get_mesh(L, "inlet", i, &d.n_tri))) {
            free(tc);
            free(tr);
            break;
        }
        d.tri = (const grit_vec3(*)[3])tri;
        if (L->version < 12 && d.n_clumps > 0) { /* the size fields were unused: not scaled */
            d.n_sizes = 0;
            d.r_min = d.r_max = NAN;
        }
        const int k = grit_add_inlet(s, &d);
        free(tri);
        free(tc);
        free(tr);
        if (k < 0) return fail(L, "section INLT: inlet %u: %s", i, grit_last_error(s));
        grit_inlet_state *q = &s->inlets[k];
        q->mass = get_f64(L);
        q->energy = get_f64(L);
        q->count = get_i64(L);
        q->failed = get_i64(L);
        q->rng = (uint64_t)get_i64(L);
        q->next_r = get_f64(L);
        q->waiting = get_u8(L);
        if (L->version >= 9) {
            const int32_t nc = (int32_t)get_u32(L), nt = d.n_clumps ? d.n_clumps : d.n_shapes;
            if (!L->msg[0] && (nc < 0 || nc > nt))
                return fail(L, "section INLT: inlet %u: %s template %d drawn of %d", i, d.n_clumps ? "clump" : "shape",
                            nc - 1, nt);
            q->next_tpl = nc;
        }
        if (L->version >= 12) {
            grit_vec3 w; /* one read per statement: the order of initialisers is unspecified */
            w.x = get_f64(L);
            w.y = get_f64(L);
            w.z = get_f64(L);
            if (!L->msg[0] && !v3_isfinite(w))
                return fail(L, "section INLT: inlet %u: angvel (%g, %g, %g) is not finite", i, w.x, w.y, w.z);
            q->def.angvel = w;
        }
    }
    return L->msg[0] ? -1 : 0;
}

/* after CELL: the controller of a periodic cell */
static int load_ctrl(loader *L)
{
    grit_scene *s = L->s;
    const uint8_t on = get_u8(L);
    if (L->msg[0]) return -1;
    if (on > 1) return fail(L, "section CTRL: flag %u is neither 0 (no controller) nor 1", on);
    if (!on) return 0;
    if (!s->cell) return fail(L, "section CTRL: a controller in a file without a periodic cell");
    grit_cell_ctrl_def d = grit_default_cell_ctrl_def();
    for (int a = 0; a < 3; a++) d.mode[a] = (int32_t)get_u32(L);
    for (int a = 0; a < 3; a++) d.goal[a] = get_f64(L);
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) d.grad_v[i][j] = get_f64(L);
    d.gain = get_f64(L);
    d.max_rate = get_f64(L);
    d.stress_tol = get_f64(L);
    d.every = (int32_t)get_u32(L);
    d.settle = (int32_t)get_u32(L);
    const int32_t countdown = (int32_t)get_u32(L), held = (int32_t)get_u32(L);
    const int64_t updates = get_i64(L);
    /* before version 7 the servo was proportional only: it continues so */
    d.integral = 0;
    double integ[3] = {0, 0, 0};
    if (L->version >= 7) {
        d.integral = get_f64(L);
        for (int a = 0; a < 3; a++) integ[a] = get_f64(L);
    }
    if (L->msg[0]) return -1;
    if (grit_cell_ctrl_check(s, &d, "section CTRL")) return fail(L, "%s", grit_last_error(s));
    if (countdown < 0 || countdown >= d.every || held < 0 || updates < 0)
        return fail(L, "section CTRL: countdown %d (every %d), held %d, updates %lld are not a valid state", countdown,
                    d.every, held, (long long)updates);
    for (int a = 0; a < 3; a++)
        if (!isfinite(integ[a])) return fail(L, "section CTRL: integral term %d = %g must be finite", a, integ[a]);
    grit_cell *c = s->cell;
    c->ctrl = d;
    c->ctrl_on = true;
    c->ctrl_countdown = countdown;
    c->ctrl_held = held;
    c->ctrl_updates = (long)updates;
    for (int a = 0; a < 3; a++) c->ctrl_integ[a] = integ[a];
    return 0;
}

/* The clumps: every body and member the particles name belongs to a clump
 * that names it back; without the section (a file before version 5) there
 * are none. */
static int load_clumps(loader *L)
{
    grit_scene *s = L->s;
    array_rec a[MAX_ARRAYS];
    int na;
    if (index_arrays(L, a, &na) ||
        take_owned_array(L, a, na, "clumps", sizeof *s->clumps, (void **)&s->clumps, &s->n_clumps, &s->cap_clumps) ||
        take_owned_array(L, a, na, "clumploc", sizeof *s->clump_loc, (void **)&s->clump_loc, &s->n_clump_loc,
                         &s->cap_clump_loc) ||
        no_extra_arrays(L, a, na))
        return -1;
    const grit_bodies *b = &s->b;
    long rows = 0;
    for (int c = 0; c < s->n_clumps; c++) {
        const grit_clump_data *d = &s->clumps[c];
        if (d->n < 1 || d->first != rows || d->body < 0 || (long)d->body + d->n >= s->id_cap ||
            rows + d->n > s->n_clump_loc)
            return fail(L, "section CLMP: clump %d (body %d, %d members from row %d) does not fit", c, d->body, d->n,
                        d->first);
        rows += d->n;
        for (int k = 0; k <= d->n; k++) {
            const int i = s->id2idx[d->body + k];
            const bool ok = i >= 0 && b->sidx[i] == c &&
                            (k == 0 ? b->shape[i] == GRIT_SHAPE_CLUMP && !(b->flags[i] & PF_MEMBER)
                                    : b->shape[i] == GRIT_SHAPE_SPHERE && (b->flags[i] & PF_MEMBER));
            if (!ok) return fail(L, "section CLMP: clump %d: particle id %d is not its %s", c, d->body + k,
                                 k ? "member" : "body");
        }
    }
    if (rows != s->n_clump_loc) return fail(L, "section CLMP: %d member rows for %ld members", s->n_clump_loc, rows);
    for (int i = 0; i < b->n; i++)
        if ((b->shape[i] == GRIT_SHAPE_CLUMP || (b->flags[i] & PF_MEMBER)) &&
            (b->sidx[i] < 0 || b->sidx[i] >= s->n_clumps))
            return fail(L, "particle %d: clump %d does not exist", i, b->sidx[i]);
    return 0;
}

static int no_clumps(loader *L)
{
    const grit_bodies *b = &L->s->b;
    for (int i = 0; i < b->n; i++)
        if (b->shape[i] == GRIT_SHAPE_CLUMP || (b->flags[i] & PF_MEMBER))
            return fail(L, "particle %d: a clump body or member in a file without clumps (section CLMP)", i);
    return 0;
}

/* Absent (version < 6): ids were the particle count (load_bodies's default). */
static int load_outlets(loader *L)
{
    grit_scene *s = L->s;
    const int next = (int32_t)get_u32(L);
    const long rebuilds = (long)get_i64(L);
    const uint32_t n = get_u32(L);
    if (L->msg[0]) return -1;
    if (next < 0 || next > s->id_cap) return fail(L, "section OUTL: next id %d for %d ids", next, s->id_cap);
    for (int i = 0; i < s->b.n; i++)
        if (s->b.id[i] >= next) return fail(L, "section OUTL: next id %d, but particle %d has id %d", next, i, s->b.id[i]);
    s->next_id = next;
    if (n > 1u << 16) return fail(L, "section OUTL: %u outlets", n);
    for (uint32_t i = 0; i < n && !L->msg[0]; i++) {
        grit_outlet_def d = grit_default_outlet_def();
        d.region = (int32_t)get_u32(L);
        double v[11];
        for (int j = 0; j < 11; j++) v[j] = get_f64(L);
        d.lo = v3(v[0], v[1], v[2]);
        d.hi = v3(v[3], v[4], v[5]);
        d.center = v3(v[6], v[7], v[8]);
        d.radius = v[9];
        d.height = v[10];
        if (L->msg[0]) break;
        grit_vec3(*tri)[3] = NULL;
        if (d.region == GRIT_REGION_MESH && !(tri = get_mesh(L, "outlet", i, &d.n_tri))) break;
        d.tri = (const grit_vec3(*)[3])tri;
        const int k = grit_add_outlet(s, &d);
        free(tri);
        if (k < 0) return fail(L, "section OUTL: outlet %u: %s", i, grit_last_error(s));
        grit_outlet_state *q = &s->outlets[k];
        q->mass = get_f64(L);
        q->energy = get_f64(L);
        q->count = get_i64(L);
    }
    s->outlet_rebuilds = rebuilds; /* (grit_add_outlet set it to look at the next step) */
    return L->msg[0] ? -1 : 0;
}

/* ------------------------------------------------------------------ driver */
typedef struct section {
    char tag[5];
    int (*load)(loader *);
    uint64_t offset, len; /* of the payload; len UINT64_MAX: absent */
    uint32_t since;       /* the format version that added it (0: the first) */
} section;

/* Read [offset, offset+len) of the file into a buffer owned by the caller. */
static uint8_t *read_range(loader *L, uint64_t offset, uint64_t len)
{
    uint8_t *buf = malloc(len > 0 ? (size_t)len : 1);
    if (!buf) {
        fail(L, "out of memory reading %llu bytes", (unsigned long long)len);
        return NULL;
    }
    if (fseeko(L->f, (off_t)offset, SEEK_SET) != 0 || fread(buf, 1, (size_t)len, L->f) != len) {
        free(buf);
        fail(L, "read error at offset %llu", (unsigned long long)offset);
        return NULL;
    }
    return buf;
}

static int check_header(loader *L, uint64_t size)
{
    uint8_t h[RST_HEADER];
    if (size < RST_HEADER + RST_TRAILER)
        return fail(L, "too short (%llu bytes) to be a grit restart file", (unsigned long long)size);
    if (fseeko(L->f, 0, SEEK_SET) != 0 || fread(h, 1, RST_HEADER, L->f) != RST_HEADER) return fail(L, "read error");
    if (memcmp(h, RST_MAGIC, 8) != 0) return fail(L, "not a grit restart file (no GRITSAVE magic)");
    uint32_t version, bom;
    memcpy(&version, h + 8, 4);
    L->version = version;
    memcpy(&bom, h + 12, 4);
    if (bom == 0x04030201u) return fail(L, "written on a machine with the other byte order");
    if (bom != RST_BOM) return fail(L, "corrupt header (byte-order mark %#x)", bom);
    if (version > GRIT_RESTART_VERSION)
        return fail(L, "written by a newer grit (format version %u; this build reads versions 1 to %d)", version,
                    GRIT_RESTART_VERSION);
    if (version == 0) return fail(L, "format version 0 does not exist");
    uint8_t sizes[8];
    rst_sizes(sizes);
    static const char *const names[5] = {"double", "int", "long", "int64_t", "bool"};
    for (int k = 0; k < 8; k++)
        if (h[16 + k] != sizes[k])
            return fail(L, "written where sizeof(%s) = %u; this build has %u", k < 5 ? names[k] : "reserved",
                        h[16 + k], sizes[k]);
    double probe;
    memcpy(&L->total, h + 24, 8);
    memcpy(&probe, h + 32, 8);
    if (probe != RST_PROBE) return fail(L, "doubles stored in a format this machine does not use");
    if (size < L->total)
        return fail(L, "truncated: its header says %llu bytes, the file has %llu", (unsigned long long)L->total,
                    (unsigned long long)size);
    if (size > L->total)
        return fail(L, "%llu bytes after the end given in its header (%llu)",
                    (unsigned long long)(size - L->total), (unsigned long long)L->total);
    return 0;
}

static int check_crc(loader *L)
{
    enum { CHUNK = 1 << 20 };
    uint8_t *buf = malloc(CHUNK);
    if (!buf) return fail(L, "out of memory");
    uint32_t crc = 0;
    uint64_t left = L->total - 4;
    int rc = 0;
    if (fseeko(L->f, 0, SEEK_SET) != 0) rc = fail(L, "read error");
    while (!rc && left > 0) {
        size_t len = left < CHUNK ? (size_t)left : CHUNK;
        if (fread(buf, 1, len, L->f) != len) rc = fail(L, "read error");
        crc = grit_crc32(crc, buf, len);
        left -= len;
    }
    uint32_t stored = 0;
    if (!rc && fread(&stored, 1, 4, L->f) != 4) rc = fail(L, "read error");
    free(buf);
    if (!rc && crc != stored)
        rc = fail(L, "corrupt: checksum %08x does not match the stored %08x", (unsigned)crc, (unsigned)stored);
    return rc;
}

static section *find_section(section *secs, int n, const char *tag)
{
    for (int i = 0; i < n; i++)
        if (!memcmp(secs[i].tag, tag, 4)) return &secs[i];
    return NULL;
}

/* The section table: every tag known, none twice, none missing, the lengths
 * adding up to the file. */
static int index_sections(loader *L, section *secs, int n)
{
    uint64_t pos = RST_HEADER, end = L->total - RST_TRAILER;
    while (pos < end) {
        uint8_t head[RST_SECTION_HEAD];
        if (end - pos < RST_SECTION_HEAD) return fail(L, "section header cut at offset %llu", (unsigned long long)pos);
        if (fseeko(L->f, (off_t)pos, SEEK_SET) != 0 || fread(head, 1, sizeof head, L->f) != sizeof head)
            return fail(L, "read error");
        uint64_t len;
        memcpy(&len, head + 8, 8);
        char tag[5] = {0};
        memcpy(tag, head, 4);
        for (int k = 0; k < 4; k++)
            if (tag[k] < 32 || tag[k] > 126) tag[k] = '?';
        section *sec = find_section(secs, n, tag);
        if (!sec) return fail(L, "section '%s' is unknown to this build of grit", tag);
        if (sec->len != UINT64_MAX) return fail(L, "section %s appears twice", tag);
        if (len > end - pos - RST_SECTION_HEAD)
            return fail(L, "section %s claims %llu bytes, only %llu remain", tag, (unsigned long long)len,
                        (unsigned long long)(end - pos - RST_SECTION_HEAD));
        sec->offset = pos + RST_SECTION_HEAD;
        sec->len = len;
        pos += RST_SECTION_HEAD + len;
    }
    for (int i = 0; i < n; i++)
        if (secs[i].len == UINT64_MAX && L->version >= secs[i].since)
            return fail(L, "section %s is missing", secs[i].tag);
        else if (secs[i].len != UINT64_MAX && L->version < secs[i].since)
            return fail(L, "section %s in a file of format version %u (it came with version %u)", secs[i].tag,
                        L->version, secs[i].since);
    char trailer[4];
    if (fseeko(L->f, (off_t)end, SEEK_SET) != 0 || fread(trailer, 1, 4, L->f) != 4 || memcmp(trailer, "END!", 4))
        return fail(L, "no END! trailer after the sections");
    return 0;
}

static int parse(loader *L, section *sec)
{
    uint8_t *buf = read_range(L, sec->offset, sec->len);
    if (!buf) return -1;
    L->tag = sec->tag;
    L->p = buf;
    L->n = (size_t)sec->len;
    L->pos = 0;
    int rc = sec->load(L);
    if (!rc && !L->msg[0] && L->pos != L->n) rc = fail(L, "section %s has %zu bytes left over", sec->tag, L->n - L->pos);
    free(buf);
    return rc || L->msg[0] ? -1 : 0;
}

grit_scene *grit_scene_load(const char *path)
{
    loader L = {.path = path};
    /* in this order: the scene is created from SCEN, later sections refer
     * to what earlier ones made (materials, shape data, particles) */
    section secs[] = {
        {"SCEN", load_scene, 0, UINT64_MAX, 0},      {"MATS", load_materials, 0, UINT64_MAX, 0},
        {"PAIR", load_pairs, 0, UINT64_MAX, 0},      {"LAWS", load_laws, 0, UINT64_MAX, 3},
        {"STEP", load_step, 0, UINT64_MAX, 0},
        {"ENER", load_energy, 0, UINT64_MAX, 0},     {"BPHS", load_broadphase, 0, UINT64_MAX, 0},
        {"SHAP", load_shapes, 0, UINT64_MAX, 0},     {"BODY", load_bodies, 0, UINT64_MAX, 0},
        {"CONT", load_contacts, 0, UINT64_MAX, 0},   {"LOC6", load_local6, 0, UINT64_MAX, 0},
        {"BPST", load_bpstate, 0, UINT64_MAX, 0},    {"CELL", load_cell, 0, UINT64_MAX, 2},
        {"INLT", load_inlets, 0, UINT64_MAX, 4},
        {"DYDT", load_dyndt, 0, UINT64_MAX, 4},
        {"CTRL", load_ctrl, 0, UINT64_MAX, 5},
        {"CLMP", load_clumps, 0, UINT64_MAX, 5},
        {"OUTL", load_outlets, 0, UINT64_MAX, 6},
        {"VRLT", load_verlet, 0, UINT64_MAX, 8},
    };
    const int nsec = (int)(sizeof secs / sizeof secs[0]);
    L.f = fopen(path, "rb");
    if (!L.f) {
        grit_set_create_error("restart file '%s': cannot open: %s", path, strerror(errno));
        return NULL;
    }
    uint64_t size = 0;
    if (fseeko(L.f, 0, SEEK_END) == 0) size = (uint64_t)ftello(L.f);
    if (!check_header(&L, size) && !check_crc(&L) && !index_sections(&L, secs, nsec))
        for (int i = 0; i < nsec; i++) {
            if (secs[i].len == UINT64_MAX) { /* absent from an older version: its default */
                if (!strcmp(secs[i].tag, "CELL") && cell_images_zero(&L)) break;
                if (!strcmp(secs[i].tag, "CLMP") && no_clumps(&L)) break;
                continue;
            }
            if (parse(&L, &secs[i])) break;
        }
    fclose(L.f);
    if (L.msg[0]) {
        grit_scene_destroy(L.s);
        grit_set_create_error("restart file '%s': %s", path, L.msg);
        return NULL;
    }
    /* the contacts' ext rows hold IdealElPl's dashpot shares already */
    L.s->idealelpl_ct_on = L.s->laws.idealelpl.ct_div_cn != 0;
    return L.s;
}
