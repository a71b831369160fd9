/* grit: writing restart files (layout in restart_format.h, docs/restart.md).
 *
 * Every section is written twice over the same code: once into a sink that
 * only counts bytes (so that its length can precede it, and the header can
 * hold the total length), then for real, streamed to the file with a running
 * CRC. Nothing is copied into an intermediate buffer. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cg2/cg2.h"
#include "collide/broadphase.h"
#include "collide/periodic.h"
#include "integrate/local6.h"
#include "io/restart_format.h"
#include "material/material.h"

/* CRC-32 four bits at a time: a 16-entry table is short enough to be
 * written out and runs at a few hundred MB/s. */
uint32_t grit_crc32(uint32_t crc, const void *data, size_t len)
{
    static const uint32_t T[16] = {0x00000000u, 0x1DB71064u, 0x3B6E20C8u, 0x26D930ACu, 0x76DC4190u, 0x6B6B51F4u,
                                   0x4DB26158u, 0x5005713Cu, 0xEDB88320u, 0xF00F9344u, 0xD6D6A3E8u, 0xCB61B38Cu,
                                   0x9B64C2B0u, 0x86D3D2D4u, 0xA00AE278u, 0xBDBDF21Cu};
    const uint8_t *p = data;
    crc = ~crc;
    for (size_t i = 0; i < len; i++) {
        crc ^= p[i];
        crc = (crc >> 4) ^ T[crc & 15u];
        crc = (crc >> 4) ^ T[crc & 15u];
    }
    return ~crc;
}

typedef struct sink {
    FILE *f; /* NULL: count only */
    uint32_t crc;
    uint64_t n;
    bool failed;
} sink;

static void put(sink *k, const void *p, size_t len)
{
    k->n += len;
    if (!k->f || k->failed || len == 0) return;
    if (fwrite(p, 1, len, k->f) != len) k->failed = true;
    k->crc = grit_crc32(k->crc, p, len);
}
static void put_u8(sink *k, uint8_t v) { put(k, &v, 1); }
static void put_u32(sink *k, uint32_t v) { put(k, &v, 4); }
static void put_i32(sink *k, int32_t v) { put(k, &v, 4); }
static void put_i64(sink *k, int64_t v) { put(k, &v, 8); }
static void put_f64(sink *k, double v) { put(k, &v, 8); }

/* Every parameter of a definition, by name (so that parameters added later
 * keep their defaults when an older file is read). */
static void put_params(sink *k, const grit_param_table *t, const void *def)
{
    put_u32(k, (uint32_t)t->count);
    for (int i = 0; i < t->count; i++) {
        const grit_param_info *p = &t->params[i];
        size_t len = strlen(p->name);
        put_u8(k, (uint8_t)len);
        put(k, p->name, len);
        put_u8(k, (uint8_t)p->type);
        if (p->type == GRIT_PT_vec3) {
            grit_vec3 v = grit_param_get_vec3(p, def);
            put_u8(k, 3);
            put_f64(k, v.x);
            put_f64(k, v.y);
            put_f64(k, v.z);
        } else {
            put_u8(k, 1);
            put_f64(k, grit_param_get_double(p, def));
        }
    }
}

static void put_array_head(sink *k, const char *name, size_t elem, size_t count)
{
    if (strlen(name) > 8) k->failed = true; /* names are 8 bytes in the file */
    char nm[8] = {0};
    memcpy(nm, name, strlen(name) < 8 ? strlen(name) : 8);
    put(k, nm, 8);
    put_u32(k, (uint32_t)elem);
    put_u32(k, (uint32_t)count);
}
static void put_array(sink *k, const char *name, size_t elem, size_t count, const void *data)
{
    put_array_head(k, name, elem, count);
    put(k, data, elem * count);
}
#define PUT_ARRAY(k, name, arr, count) put_array(k, name, sizeof *(arr), (size_t)(count), arr)

/* ---------------------------------------------------------------- sections */
static void sec_scene(sink *k, const grit_scene *s) { put_params(k, &grit_scene_param_table, &s->def); }

static void put_name(sink *k, const char *name)
{
    put_u8(k, (uint8_t)strlen(name));
    put(k, name, strlen(name));
}

/* per material: its type's name, then its parameters */
static void sec_materials(sink *k, const grit_scene *s)
{
    put_u32(k, (uint32_t)s->n_mats);
    for (int m = 0; m < s->n_mats; m++) {
        put_name(k, grit_material_type_name(s->mats[m].type));
        put_params(k, grit_material_param_table(s->mats[m].type), &s->mats[m].u);
    }
}

/* every law's parameters, by law name */
static void sec_laws(sink *k, const grit_scene *s)
{
    put_u32(k, GRIT_LAW_COUNT);
#define LAW(U, l, phys, name)                             \
    put_name(k, #l);                                      \
    put_params(k, grit_law_param_table(GRIT_LAW_##U), &s->laws.l);
    GRIT_LAWS(LAW)
#undef LAW
}

static void sec_pairs(sink *k, const grit_scene *s)
{
    put_u32(k, (uint32_t)s->n_overrides);
    for (int i = 0; i < s->n_overrides; i++) {
        put_i32(k, s->overrides[i].mat_a);
        put_i32(k, s->overrides[i].mat_b);
        put_params(k, &grit_pair_param_table, &s->overrides[i].def);
    }
}

static void sec_step(sink *k, const grit_scene *s)
{
    put_i64(k, s->step);
    put_f64(k, s->time);
    put_f64(k, s->dt);
}

/* the adaptive step's state beyond STEP's dt: the last step's dt */
static void sec_dyndt(sink *k, const grit_scene *s) { put_f64(k, s->dt_prev); }

static void sec_energy(sink *k, const grit_scene *s)
{
    put_u32(k, GRIT_E_COUNT);
    for (int e = 0; e < GRIT_E_COUNT; e++) {
        put_name(k, grit_energy_name(e));
        put_f64(k, s->energy[e]);
    }
    put_f64(k, s->energy_initial);
    put_u8(k, s->energy_initial_set);
}

static void sec_broadphase(sink *k, const grit_scene *s)
{
    put_f64(k, s->verlet_dist);
    put_u8(k, s->need_rebuild);
    put_i64(k, s->last_sort_step);
    put_f64(k, s->max_disp2);
    put_i64(k, s->stats.rebuilds);
    put_i64(k, s->stats.sorts);
}

/* the automatic Verlet distance's state (version 8 on): the step of the
 * last rebuild, whose interval gives the displacement per step */
static void sec_verlet(sink *k, const grit_scene *s) { put_i64(k, s->verlet_last_rebuild); }

static void sec_shapes(sink *k, const grit_scene *s)
{
    PUT_ARRAY(k, "walls", s->walls, s->n_walls);
    PUT_ARRAY(k, "facets", s->facets, s->n_facets);
    PUT_ARRAY(k, "capsules", s->capsules, s->n_capsules);
    PUT_ARRAY(k, "ellipsds", s->ellipsoids, s->n_ellipsoids);
    PUT_ARRAY(k, "infcyls", s->infcyls, s->n_infcyls);
    PUT_ARRAY(k, "rods", s->rods, s->n_rods);
}

static void sec_bodies(sink *k, const grit_scene *s)
{
    const grit_bodies *b = &s->b;
    put_u32(k, (uint32_t)b->n);
    PUT_ARRAY(k, "pr", b->pr, b->n);
    PUT_ARRAY(k, "vw", b->vw, b->n);
    PUT_ARRAY(k, "ft", b->ft, b->n);
    PUT_ARRAY(k, "mi", b->mi, b->n);
    PUT_ARRAY(k, "ori", b->ori, b->n);
    PUT_ARRAY(k, "angmom", b->angmom, b->n);
    PUT_ARRAY(k, "flags", b->flags, b->n);
    PUT_ARRAY(k, "shape", b->shape, b->n);
    PUT_ARRAY(k, "sidx", b->sidx, b->n);
    PUT_ARRAY(k, "mat", b->mat, b->n);
    PUT_ARRAY(k, "mask", b->mask, b->n);
    PUT_ARRAY(k, "id", b->id, b->n);
    PUT_ARRAY(k, "refpos", b->refpos, b->n);
    PUT_ARRAY(k, "id2idx", s->id2idx, s->id_cap);
}

/* A per-contact array whose entries for potential (not real) contacts were
 * never written by the engine: those are saved as zeros, so that the file
 * is a function of the state alone. Runs of real contacts go out at once. */
static void put_real_only(sink *k, const char *name, size_t elem, const void *data, const grit_contacts *c)
{
    static const uint8_t zeros[256];
    put_array_head(k, name, elem, (size_t)c->n);
    const uint8_t *p = data;
    for (int i = 0; i < c->n;) {
        bool real = c->pair[i].flags & CF_REAL;
        int j = i;
        while (j < c->n && (bool)(c->pair[j].flags & CF_REAL) == real) j++;
        size_t bytes = elem * (size_t)(j - i);
        if (real) put(k, p + elem * (size_t)i, bytes);
        else
            for (size_t z = 0; z < bytes; z += sizeof zeros) put(k, zeros, bytes - z < sizeof zeros ? bytes - z : sizeof zeros);
        i = j;
    }
}

static void sec_contacts(sink *k, const grit_scene *s)
{
    const grit_contacts *c = &s->c;
    put_u32(k, (uint32_t)c->n);
    put_u32(k, (uint32_t)c->ext_n);
    put_u32(k, (uint32_t)c->n_real);
    PUT_ARRAY(k, "pair", c->pair, c->n);
    const uint32_t nlaws = GRIT_LAW_COUNT; /* the blocks are (kind, law), kind * nlaws + law */
    PUT_ARRAY(k, "nlaws", &nlaws, 1);
    PUT_ARRAY(k, "blockst", c->block_start, GRIT_BLOCK_COUNT + 1);
    PUT_ARRAY(k, "pot", c->pot, c->n_pot);
    PUT_ARRAY(k, "potblkst", c->pot_start, GRIT_BLOCK_COUNT + 1);
    put_real_only(k, "geom", sizeof *c->geom, c->geom, c);
    put_real_only(k, "phys", sizeof *c->phys, c->phys, c);
    put_real_only(k, "cold", sizeof *c->cold, c->cold, c);
    put_real_only(k, "ext", sizeof(double) * (size_t)c->ext_n, c->ext, c);
    const int64_t broken = s->cpm_broken;
    PUT_ARRAY(k, "cpmbrk", &broken, 1);
}

static void sec_local6(sink *k, const grit_scene *s) { PUT_ARRAY(k, "local6", s->local6, s->n_local6); }

/* the broad phase's record of its last rebuild (collide/broadphase.h) */
static void sec_bpstate(sink *k, const grit_scene *s)
{
    grit_broadphase_state b;
    grit_broadphase_get_state(s, &b);
    PUT_ARRAY(k, "box", b.box, b.n_boxes);
    PUT_ARRAY(k, "rot", b.rot, b.n_rot);
    PUT_ARRAY(k, "rot_r", b.rot_r, b.n_rot);
    PUT_ARRAY(k, "rot_q0", b.rot_q0, b.n_rot);
}

/* The periodic cell (core/cell_impl.h): a flag, then every field a later
 * step reads as named records -- matrices as 9 doubles by rows, the derived
 * ones too, so that the loaded cell is the saved one bit for bit. */
static void put_mat(sink *k, const char *name, const grit_mat3 *m)
{
    double r[9];
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) r[3 * i + j] = m3_at(m, i, j);
    put_array(k, name, sizeof(double), 9, r);
}

static void sec_cell(sink *k, const grit_scene *s)
{
    const grit_cell *c = s->cell;
    put_u8(k, c != NULL);
    if (!c) return;
    for (int q = 0; q < RST_CELL_NMAT; q++) put_mat(k, rst_cell_mats[q].name, rst_cell_mat(c, q));
    const double spin[6] = {c->spin_prev.x, c->spin_prev.y, c->spin_prev.z, c->dspin.x, c->dspin.y, c->dspin.z};
    put_array(k, "spin", sizeof(double), 6, spin);
    const uint8_t flags[3] = {c->grad_changed, c->spin_changed, c->virial_prev_set};
    put_array(k, "flags", 1, 3, flags);
    PUT_ARRAY(k, "period", c->period, c->n_period);
    const grit_aabb *box;
    int nb;
    grit_pbp_get_boxes(c, &box, &nb);
    PUT_ARRAY(k, "pbox", box, nb);
}

/* A mesh region's triangles: u32 count, 9 f64 each. Only a mesh region has
 * them, so files with box and cylinder regions are as before. */
static void put_mesh(sink *k, int region, const grit_region_mesh *m)
{
    if (region != GRIT_REGION_MESH) return;
    put_u32(k, (uint32_t)m->n);
    for (int t = 0; t < m->n; t++)
        for (int v = 0; v < 3; v++) {
            put_f64(k, m->tri[t][v].x);
            put_f64(k, m->tri[t][v].y);
            put_f64(k, m->tri[t][v].z);
        }
}

/* The inlets (grit/inlet.h): definition, record, random stream, the radius
 * drawn for the particle still to place (version 4 on); the clump
 * templates after max_attempts and the template drawn for the clump still
 * to place at the end (version 9 on); the shape templates after the clump
 * templates (version 10 on: then the drawn template may be a shape's, and
 * the radius drawn its scale); the particles' angular velocity at the end
 * (version 12 on; from then on the size fields of an inlet with clump
 * templates are their scales, and were unused before). */
static void sec_inlets(sink *k, const grit_scene *s)
{
    put_u32(k, (uint32_t)s->n_inlets);
    for (int i = 0; i < s->n_inlets; i++) {
        const grit_inlet_state *q = &s->inlets[i];
        const grit_inlet_def *d = &q->def;
        put_i32(k, d->region);
        const double v[] = {d->lo.x,     d->lo.y,     d->lo.z,     d->hi.x,      d->hi.y,      d->hi.z,
                            d->center.x, d->center.y, d->center.z, d->radius,    d->height,    d->mass_rate,
                            d->max_mass, d->t_start,  d->r_min,    d->r_max,     d->vel.x,     d->vel.y,
                            d->vel.z};
        for (size_t j = 0; j < sizeof v / sizeof v[0]; j++) put_f64(k, v[j]);
        put_i32(k, d->n_sizes);
        for (int j = 0; j < GRIT_INLET_MAX_SIZES; j++) put_f64(k, d->sizes[j]);
        for (int j = 0; j < GRIT_INLET_MAX_SIZES; j++) put_f64(k, d->mass_frac[j]);
        put_i32(k, d->material);
        put_i64(k, (int64_t)d->seed);
        put_i32(k, d->max_attempts);
        put_i32(k, d->n_clumps);
        for (int c = 0; c < d->n_clumps; c++) {
            const grit_inlet_clump *t = &d->clumps[c];
            put_i32(k, t->n);
            put_f64(k, t->mass_frac);
            for (int j = 0; j < t->n; j++) {
                put_f64(k, t->centers[j].x);
                put_f64(k, t->centers[j].y);
                put_f64(k, t->centers[j].z);
                put_f64(k, t->radii[j]);
            }
        }
        put_i32(k, d->n_shapes);
        for (int c = 0; c < d->n_shapes; c++) {
            const grit_inlet_shape *t = &d->shapes[c];
            const double f[] = {t->mass_frac, t->radius, t->shaft, t->semi_axes.x, t->semi_axes.y, t->semi_axes.z};
            put_i32(k, t->shape);
            for (size_t j = 0; j < sizeof f / sizeof f[0]; j++) put_f64(k, f[j]);
        }
        put_mesh(k, d->region, &q->mesh);
        put_f64(k, q->mass);
        put_f64(k, q->energy);
        put_i64(k, q->count);
        put_i64(k, q->failed);
        put_i64(k, (int64_t)q->rng);
        put_f64(k, q->next_r);
        put_u8(k, (uint8_t)q->waiting);
        put_i32(k, q->next_tpl);
        put_f64(k, d->angvel.x);
        put_f64(k, d->angvel.y);
        put_f64(k, d->angvel.z);
    }
}

/* The cell's stress/strain controller (core/cellctrl.c; version 5 on): a
 * flag, then its definition and counters; version 7 on, then its integral
 * gain and terms. */
static void sec_ctrl(sink *k, const grit_scene *s)
{
    const grit_cell *c = s->cell;
    put_u8(k, c && c->ctrl_on);
    if (!c || !c->ctrl_on) return;
    const grit_cell_ctrl_def *d = &c->ctrl;
    for (int a = 0; a < 3; a++) put_i32(k, d->mode[a]);
    for (int a = 0; a < 3; a++) put_f64(k, d->goal[a]);
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) put_f64(k, d->grad_v[i][j]);
    put_f64(k, d->gain);
    put_f64(k, d->max_rate);
    put_f64(k, d->stress_tol);
    put_i32(k, d->every);
    put_i32(k, d->settle);
    put_i32(k, c->ctrl_countdown);
    put_i32(k, c->ctrl_held);
    put_i64(k, c->ctrl_updates);
    put_f64(k, d->integral);
    for (int a = 0; a < 3; a++) put_f64(k, c->ctrl_integ[a]);
}

/* The clumps (shape/clump.c, version 5 on): per clump its body id, member
 * count and first row of `clumploc`, the members' centres in the body's
 * principal frame. Bodies and members are particles of BODY. */
static void sec_clumps(sink *k, const grit_scene *s)
{
    PUT_ARRAY(k, "clumps", s->clumps, s->n_clumps);
    PUT_ARRAY(k, "clumploc", s->clump_loc, s->n_clump_loc);
}

/* The outlets (grit/outlet.h) and the id counter (version 6 on): the next
 * id, the rebuild count the outlets last looked after, then per outlet its
 * definition and record. */
static void sec_outlets(sink *k, const grit_scene *s)
{
    put_i32(k, s->next_id);
    put_i64(k, s->outlet_rebuilds);
    put_u32(k, (uint32_t)s->n_outlets);
    for (int i = 0; i < s->n_outlets; i++) {
        const grit_outlet_state *q = &s->outlets[i];
        const grit_outlet_def *d = &q->def;
        put_i32(k, d->region);
        const double v[] = {d->lo.x,     d->lo.y,     d->lo.z,  d->hi.x,   d->hi.y, d->hi.z,
                            d->center.x, d->center.y, d->center.z, d->radius, d->height};
        for (size_t j = 0; j < sizeof v / sizeof v[0]; j++) put_f64(k, v[j]);
        put_mesh(k, d->region, &q->mesh);
        put_f64(k, q->mass);
        put_f64(k, q->energy);
        put_i64(k, q->count);
    }
}

static const struct {
    char tag[5];
    void (*write)(sink *, const grit_scene *);
} sections[] = {
    {"SCEN", sec_scene},  {"MATS", sec_materials}, {"PAIR", sec_pairs},    {"LAWS", sec_laws}, {"STEP", sec_step},
    {"ENER", sec_energy}, {"BPHS", sec_broadphase}, {"SHAP", sec_shapes},  {"BODY", sec_bodies},
    {"CONT", sec_contacts}, {"LOC6", sec_local6}, {"BPST", sec_bpstate}, {"CELL", sec_cell},
    {"INLT", sec_inlets},
    {"DYDT", sec_dyndt},
    {"CTRL", sec_ctrl},
    {"CLMP", sec_clumps},
    {"VRLT", sec_verlet}, /* (before OUTL, the last section since version 6) */
    {"OUTL", sec_outlets},
};
enum { N_SECTIONS = sizeof sections / sizeof sections[0] };

static int write_all(FILE *f, const grit_scene *s)
{
    uint64_t len[N_SECTIONS], total = RST_HEADER + RST_TRAILER;
    for (int i = 0; i < N_SECTIONS; i++) {
        sink count = {0};
        sections[i].write(&count, s);
        len[i] = count.n;
        total += RST_SECTION_HEAD + len[i];
    }
    sink k = {.f = f};
    uint8_t sizes[8];
    rst_sizes(sizes);
    put(&k, RST_MAGIC, 8);
    put_u32(&k, GRIT_RESTART_VERSION);
    put_u32(&k, RST_BOM);
    put(&k, sizes, 8);
    put(&k, &total, 8);
    put_f64(&k, RST_PROBE);
    for (int i = 0; i < N_SECTIONS; i++) {
        put(&k, sections[i].tag, 4);
        put_u32(&k, 0);
        put(&k, &len[i], 8);
        sections[i].write(&k, s);
    }
    put(&k, "END!", 4);
    uint32_t crc = k.crc;
    put_u32(&k, crc);
    return k.failed || k.n != total ? -1 : 0;
}

int grit_save(const grit_scene *s, const char *path)
{
    grit_scene *ms = (grit_scene *)s; /* for the error message only */
    if (s->mpi_partial)
        return grit_fail(ms, GRIT_ESTATE,
                         "save: this MPI rank holds only its part of the scene; call grit_mpi_gather on every rank "
                         "and save on rank 0");
    char tmp[4096];
    if (snprintf(tmp, sizeof tmp, "%s.tmp%ld", path, (long)getpid()) >= (int)sizeof tmp)
        return grit_fail(ms, GRIT_EIO, "save: path '%s' is too long", path);
    FILE *f = fopen(tmp, "wb");
    if (!f) return grit_fail(ms, GRIT_EIO, "save: cannot create '%s': %s", tmp, strerror(errno));
    int bad = write_all(f, s);
    int err = errno;
    if (fflush(f) != 0 || fsync(fileno(f)) != 0) bad = -1, err = errno;
    if (fclose(f) != 0 && !bad) bad = -1, err = errno;
    if (bad) {
        remove(tmp);
        return grit_fail(ms, GRIT_EIO, "save: error writing '%s': %s", tmp, strerror(err));
    }
    if (rename(tmp, path) != 0) {
        err = errno;
        remove(tmp);
        return grit_fail(ms, GRIT_EIO, "save: cannot rename '%s' to '%s': %s", tmp, path, strerror(err));
    }
    return GRIT_OK;
}
