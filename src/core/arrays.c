/* grit: direct views of the packed particle and contact arrays (arrays.h).
 *
 * Each view is one member of one packed record stream of scene_impl.h, so the
 * table below says, per view, which stream (the pointer field of grit_bodies
 * or grit_contacts), where the member sits in the record and how long the
 * record is. The few views that are not plain members (the id -> row map,
 * the law's variable-width state) are special-cased in grit_array_get. */
#include "grit/arrays.h"

#include <stddef.h>
#include <string.h>

#include "core/keep.h"
#include "core/scene_impl.h"

typedef struct entry {
    grit_array_info info;
    size_t stream; /* offsetof the stream pointer in grit_bodies / grit_contacts */
    size_t member; /* offsetof the member in the record */
    size_t stride; /* sizeof the record */
} entry;

#define P GRIT_ARRAYS_PARTICLES
#define C GRIT_ARRAYS_CONTACTS
/* particle view: stream of grit_bodies, record type, member */
#define PV(name, stream, T, member, ts, esz, ncomp, rw, unit, doc)                                                  \
    {{#name, P, ts, esz, ncomp, rw, unit, doc}, offsetof(grit_bodies, stream), offsetof(T, member), sizeof(T)},
/* particle view whose record is the whole element */
#define PW(name, stream, T, ts, esz, ncomp, rw, unit, doc)                                                          \
    {{#name, P, ts, esz, ncomp, rw, unit, doc}, offsetof(grit_bodies, stream), 0, sizeof(T)},
#define CV(name, stream, T, member, ts, esz, ncomp, unit, doc)                                                      \
    {{#name, C, ts, esz, ncomp, 0, unit, doc}, offsetof(grit_contacts, stream), offsetof(T, member), sizeof(T)},

enum { SPECIAL_INDEX_OF_ID = 0, SPECIAL_EXT = 1 };

static const entry table[] = {
    /* ---- particles, in internal order ---- */
    PV(pos, pr, grit_posr, pos, "f8", 8, 3, 0, "m", "position of the particle's node")
    PV(radius, pr, grit_posr, r, "f8", 8, 1, 0, "m", "sphere radius (0 for shapes without one)")
    PV(vel, vw, grit_velw, v, "f8", 8, 3, 1, "m/s",
       "velocity at mid-step; writable: the next step starts from what is written (block the DoFs to impose it; "
       "for facets use impose_vel so that the vertices follow)")
    PV(angvel, vw, grit_velw, w, "f8", 8, 3, 0, "rad/s", "angular velocity at mid-step, global axes")
    PV(force, ft, grit_ft, f, "f8", 8, 3, 0, "N", "force accumulated in the last step (contacts and gravity)")
    PV(torque, ft, grit_ft, t, "f8", 8, 3, 0, "N m", "torque accumulated in the last step")
    PV(mass, mi, grit_massi, m, "f8", 8, 1, 0, "kg", "mass (inf for boundaries)")
    PV(inertia, mi, grit_massi, inertia, "f8", 8, 3, 0, "kg m^2", "principal moments of inertia (inf for boundaries)")
    PW(ori, ori, grit_quat, "f8", 8, 4, 0, "-", "orientation quaternion (w, x, y, z)")
    PW(flags, flags, uint16_t, "u2", 2, 1, 0, "-", "bits 0-5: blocked DoFs x y z rx ry rz (GRIT_BLOCK_*); higher bits internal")
    PW(shape, shape, uint8_t, "u1", 1, 1, 0, "-", "shape type (grit_shape_type)")
    PW(material, mat, uint16_t, "u2", 2, 1, 0, "-", "material index")
    PW(mask, mask, uint32_t, "u4", 4, 1, 0, "-", "collision mask")
    PW(id, id, int32_t, "i4", 4, 1, 0, "-", "stable id of the particle in this row")
    /* indexed by id, not by row: see grit_array_get */
    {{"index_of_id", P, "i4", 4, 1, 0, "-", "row of the particle with this id (indexed by id; -1: deleted by an outlet)"}, SPECIAL_INDEX_OF_ID, 0, 0},
    /* ---- contacts: candidate pairs, in the broad phase's order ---- */
    CV(row_a, pair, grit_pair, a, "i4", 4, 1, "-", "row (particle view index) of particle A")
    CV(row_b, pair, grit_pair, b, "i4", 4, 1, "-", "row of particle B")
    CV(kind, pair, grit_pair, kind, "u1", 1, 1, "-", "geometry functor (shape pair) of the contact")
    CV(law, pair, grit_pair, law, "u1", 1, 1, "-", "contact law (grit_law), from the two materials")
    CV(flags, pair, grit_pair, flags, "u1", 1, 1, "-", "bit 0 (GRIT_CONTACT_REAL): a real contact; else only potential")
    CV(image, pair, grit_pair, cell, "i1", 1, 3, "-",
       "periodic image k of B: B is seen at its position + H k (grit/cell.h); 0 in an aperiodic scene")
    CV(normal, geom, grit_l6geom, ex, "f8", 8, 3, "-", "contact normal, A -> B (local x axis); valid for real contacts")
    CV(ey, geom, grit_l6geom, ey, "f8", 8, 3, "-", "local y axis (local z = normal x ey)")
    CV(point, geom, grit_l6geom, c, "f8", 8, 3, "m", "contact point")
    CV(uN, geom, grit_l6geom, uN, "f8", 8, 1, "m", "normal gap (< 0: overlap)")
    CV(vel, geom, grit_l6geom, vel, "f8", 8, 3, "m/s", "relative velocity of B w.r.t. A, local axes")
    CV(angvel, geom, grit_l6geom, angvel, "f8", 8, 3, "rad/s", "relative angular velocity, local axes")
    CV(force, phys, grit_frictphys, f, "f8", 8, 3, "N", "force on A, local axes (x normal)")
    CV(torque, phys, grit_frictphys, t, "f8", 8, 3, "N m", "torque on A, local axes")
    CV(kn, phys, grit_frictphys, kn, "f8", 8, 1, "N/m", "normal stiffness")
    CV(kt, phys, grit_frictphys, kt, "f8", 8, 1, "N/m", "tangential stiffness")
    CV(tan_phi, phys, grit_frictphys, tan_phi, "f8", 8, 1, "-", "friction coefficient")
    CV(cn, phys, grit_frictphys, cn, "f8", 8, 1, "N s/m", "normal dashpot coefficient")
    CV(lens, cold, grit_contact_cold, lens, "f8", 8, 2, "m", "effective lengths of A and B")
    CV(area, cold, grit_contact_cold, area, "f8", 8, 1, "m^2", "contact area")
    CV(uN0, cold, grit_contact_cold, uN0, "f8", 8, 1, "m", "gap at creation (law state, NaN if unused)")
    CV(step_created, cold, grit_contact_cold, step_created, "i8", 8, 1, "steps", "step at which the contact became real")
    {{"ext", C, "f8", 8, 0, 0, "-", "law-specific state, a variable number of doubles per contact"}, SPECIAL_EXT, 0, 0},
};
#undef P
#undef C

enum { N_ARRAYS = (int)(sizeof table / sizeof table[0]) };

int grit_array_count(void) { return N_ARRAYS; }

const grit_array_info *grit_array_info_at(int i) { return i >= 0 && i < N_ARRAYS ? &table[i].info : NULL; }

int grit_array_find(int group, const char *name)
{
    for (int i = 0; name && i < N_ARRAYS; i++)
        if (table[i].info.group == group && strcmp(table[i].info.name, name) == 0) return i;
    return -1;
}

uint64_t grit_array_generation(const grit_scene *s, int group)
{
    if (group == GRIT_ARRAYS_PARTICLES) return s->gen_bodies;
    if (group == GRIT_ARRAYS_CONTACTS) return s->gen_contacts;
    return UINT64_MAX;
}

/* The view of array i, and the block it lies in with the block's size in
 * bytes (NULL, 0 when there is nothing to view). */
static int locate(grit_scene *s, int i, grit_array_view *out, void **block, size_t *size)
{
    if (i < 0 || i >= N_ARRAYS)
        return grit_fail(s, GRIT_EINVAL, "array index %d does not exist (%d arrays)", i, N_ARRAYS);
    const entry *e = &table[i];
    const bool particles = e->info.group == GRIT_ARRAYS_PARTICLES;
    char *base;
    int64_t stride = (int64_t)e->stride, count = particles ? s->b.n : s->c.n;
    int ncomp = e->info.ncomp;
    size_t rows = (size_t)(particles ? s->b.cap : s->c.cap);
    if (e->stride == 0 && particles) { /* index_of_id: every id handed out (-1: deleted) */
        count = s->next_id;
        base = (char *)s->id2idx;
        stride = sizeof *s->id2idx;
        rows = (size_t)s->id_cap;
    } else if (e->stride == 0) { /* ext: ext_n doubles per contact */
        ncomp = s->c.ext_n;
        base = ncomp > 0 ? (char *)s->c.ext : NULL;
        stride = (int64_t)sizeof(double) * ncomp;
    } else {
        const char *owner = particles ? (const char *)&s->b : (const char *)&s->c;
        memcpy(&base, owner + e->stream, sizeof base);
    }
    if (count == 0) base = NULL;
    *block = base;
    *size = base ? rows * (size_t)stride : 0;
    if (base) base += e->member;
    *out = (grit_array_view){base, count, stride, ncomp, e->info.writable,
                             grit_array_generation(s, e->info.group)};
    return GRIT_OK;
}

int grit_array_get(grit_scene *s, int i, grit_array_view *out)
{
    void *block = NULL;
    size_t size = 0;
    return locate(s, i, out, &block, &size);
}

int grit_array_retain(grit_scene *s, int i, grit_array_view *out, void **token)
{
    void *block = NULL;
    size_t size = 0;
    *token = NULL;
    int rc = locate(s, i, out, &block, &size);
    if (rc < 0 || !block) return rc;
    if (grit_keep_retain(block, size)) return grit_fail(s, GRIT_ENOMEM, "out of memory keeping a view");
    *token = block;
    return GRIT_OK;
}
