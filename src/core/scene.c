/* grit: scene lifecycle, storage growth and errors. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "collide/broadphase.h"
#include "core/cell_impl.h"
#include "core/keep.h"
#include "core/storage.h"

static _Thread_local char create_err[512];

const char *grit_create_error(void) { return create_err; }
const char *grit_last_error(const grit_scene *s) { return s ? s->err : create_err; }

void grit_set_create_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(create_err, sizeof create_err, fmt, ap);
    va_end(ap);
}

int grit_fail(grit_scene *s, int code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(s->err, sizeof s->err, fmt, ap);
    va_end(ap);
    return code;
}

static int validate_def(const grit_scene_def *def, char *err, size_t len)
{
    return grit_param_validate(&grit_scene_param_table, def, err, len) ? -1 : 0;
}

grit_scene *grit_scene_create(const grit_scene_def *def)
{
    grit_scene_def d = def ? *def : grit_default_scene_def();
    create_err[0] = '\0';
    if (validate_def(&d, create_err, sizeof create_err)) return NULL;
    grit_scene *s = calloc(1, sizeof *s);
    if (!s) {
        snprintf(create_err, sizeof create_err, "out of memory creating a scene");
        return NULL;
    }
    s->def = d;
    s->laws = grit_default_law_defs();
    s->dt = d.dt;
    s->dt_prev = NAN;
    s->verlet_dist = NAN;
    s->verlet_last_rebuild = -1;
    s->need_rebuild = true;
    s->last_sort_step = -1;
    s->bp = grit_broadphase_create();
    if (!s->bp) {
        free(s);
        snprintf(create_err, sizeof create_err, "out of memory creating a scene");
        return NULL;
    }
    return s;
}

void grit_scene_destroy(grit_scene *s)
{
    if (!s) return;
    if (s->mpi_free) s->mpi_free(s->mpi);
    grit_bodies_free(&s->b);
    grit_contacts_free(&s->c);
    grit_broadphase_destroy(s->bp);
    grit_cell_free(s->cell);
    grit_keep_free(s->id2idx);
    free(s->walls);
    free(s->facets);
    free(s->capsules);
    free(s->ellipsoids);
    free(s->infcyls);
    free(s->rods);
    free(s->clumps);
    free(s->clump_loc);
    for (int k = 0; k < s->n_inlets; k++) {
        grit_region_mesh_free(&s->inlets[k].mesh);
        free(s->inlets[k].tpl_centers);
        free(s->inlets[k].tpl_radii);
    }
    for (int k = 0; k < s->n_outlets; k++) grit_region_mesh_free(&s->outlets[k].mesh);
    free(s->inlets);
    free(s->outlets);
    free(s->mats);
    free(s->overrides);
    free(s->pair_table);
    free(s->cpm_phys);
    free(s->local6);
    free(s->dyndt_k);
    free(s->scratch);
    free(s);
}

int grit_scene_set_def(grit_scene *s, const grit_scene_def *def)
{
    if (validate_def(def, s->err, sizeof s->err)) return GRIT_EINVAL;
    /* (nan, the automatic skin, equals itself here) */
    bool skin_changed = (def->verlet_dist != s->def.verlet_dist && !(isnan(def->verlet_dist) && isnan(s->def.verlet_dist))) ||
                        def->interaction_radius != s->def.interaction_radius;
    s->def = *def;
    s->dt_check = true;
    if (!isnan(def->dt)) s->dt = def->dt;
    else if (s->step == 0) s->dt = NAN;
    if (skin_changed) {
        s->verlet_dist = NAN;
        s->need_rebuild = true;
    }
    return GRIT_OK;
}

const grit_scene_def *grit_scene_get_def(const grit_scene *s) { return &s->def; }

/* ------------------------------------------------------------ growth */
int grit_grow(void **p, size_t elem, int cap)
{
    void *q = grit_keep_realloc(*p, elem * (size_t)(cap > 0 ? cap : 1));
    if (!q) return -1;
    *p = q;
    return 0;
}

#define GROW(arr, cap) grit_grow((void **)&(arr), sizeof *(arr), (cap))
#define GROW64(arr, old, cap) grit_grow_aligned((void **)&(arr), sizeof *(arr), (old), (cap))

/* Hot arrays start on a cache line, so that 64-byte records never straddle
 * two lines. */
int grit_grow_aligned(void **p, size_t elem, int old, int cap)
{
    void *q = NULL;
    if (posix_memalign(&q, 64, elem * (size_t)(cap > 0 ? cap : 1))) return -1;
    if (*p && old > 0) memcpy(q, *p, elem * (size_t)old);
    grit_keep_free(*p);
    *p = q;
    return 0;
}

int grit_bodies_reserve(grit_bodies *b, int cap)
{
    if (cap <= b->cap) return 0;
    if (GROW64(b->pr, b->n, cap) || GROW64(b->vw, b->n, cap) || GROW64(b->ft, b->n, cap) || GROW(b->mi, cap) || GROW(b->ori, cap) ||
        GROW(b->angmom, cap) || GROW(b->flags, cap) || GROW(b->shape, cap) || GROW(b->sidx, cap) ||
        GROW(b->mat, cap) || GROW(b->mask, cap) || GROW(b->id, cap) || GROW(b->refpos, cap))
        return -1;
    b->cap = cap;
    return 0;
}

void grit_bodies_move(grit_bodies *b, int to, int from)
{
#define MOVE(arr) b->arr[to] = b->arr[from]
    MOVE(pr);
    MOVE(vw);
    MOVE(ft);
    MOVE(mi);
    MOVE(ori);
    MOVE(angmom);
    MOVE(flags);
    MOVE(shape);
    MOVE(sidx);
    MOVE(mat);
    MOVE(mask);
    MOVE(id);
    MOVE(refpos);
#undef MOVE
}

void grit_bodies_free(grit_bodies *b)
{
    grit_keep_free(b->pr);
    grit_keep_free(b->vw);
    grit_keep_free(b->ft);
    grit_keep_free(b->mi);
    grit_keep_free(b->ori);
    grit_keep_free(b->angmom);
    grit_keep_free(b->flags);
    grit_keep_free(b->shape);
    grit_keep_free(b->sidx);
    grit_keep_free(b->mat);
    grit_keep_free(b->mask);
    grit_keep_free(b->id);
    grit_keep_free(b->refpos);
    memset(b, 0, sizeof *b);
}

int grit_contacts_reserve(grit_contacts *c, int cap)
{
    if (cap <= c->cap) return 0;
    if (GROW(c->pair, cap) || GROW64(c->geom, c->n, cap) || GROW64(c->phys, c->n, cap) || GROW(c->cold, cap))
        return -1;
    /* on a cache line: a law's hot state (hertz: 8 doubles) is then one line */
    if (c->ext_n > 0 && grit_grow_aligned((void **)&c->ext, sizeof(double) * (size_t)c->ext_n, c->n, cap)) return -1;
    c->cap = cap;
    return 0;
}

int grit_contacts_set_ext_n(grit_contacts *c, int n)
{
    double *e = NULL;
    if (n > 0 && c->cap > 0) {
        void *mem = NULL;
        if (posix_memalign(&mem, 64, sizeof(double) * (size_t)n * (size_t)c->cap)) return -1;
        e = mem;
        const int keep = c->ext && c->ext_n < n ? c->ext_n : (c->ext ? n : 0);
        for (size_t i = 0; i < (size_t)c->cap; i++)
            for (int q = 0; q < n; q++) e[i * (size_t)n + (size_t)q] = q < keep ? c->ext[i * (size_t)c->ext_n + (size_t)q] : NAN;
    }
    grit_keep_free(c->ext);
    c->ext = e;
    c->ext_n = n;
    return 0;
}

void grit_contacts_free(grit_contacts *c)
{
    grit_keep_free(c->pair);
    grit_keep_free(c->geom);
    grit_keep_free(c->phys);
    grit_keep_free(c->cold);
    grit_keep_free(c->ext);
    grit_keep_free(c->pot);
    free(c->cf);
    free(c->fon);
    free(c->adj);
    free(c->adj_start);
    free(c->extra);
    free(c->extra_first);
    memset(c, 0, sizeof *c);
}

void grit_contacts_copy(grit_contacts *dst, int i, const grit_contacts *src, int j)
{
    dst->pair[i] = src->pair[j];
    dst->geom[i] = src->geom[j];
    dst->phys[i] = src->phys[j];
    dst->cold[i] = src->cold[j];
    if (src->ext_n > 0)
        memcpy(dst->ext + (size_t)i * (size_t)src->ext_n, src->ext + (size_t)j * (size_t)src->ext_n,
               sizeof(double) * (size_t)src->ext_n);
}

void grit_get_stats(const grit_scene *s, grit_stats *out)
{
    *out = s->stats;
    out->potential_pairs = s->c.n + s->c.n_pot - s->c.n_promoted;
    out->real_contacts = s->c.n_real;
    out->verlet_dist = s->verlet_dist;
    const long timed = s->tune_on > 0 ? s->tune.steps_by[0] + s->tune.steps_by[1] : 0;
    out->threads_steps = timed;
    out->threads_mean = timed ? s->tune.thread_steps / (double)timed : 0;
}
