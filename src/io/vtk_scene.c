/* grit: a scene as VTK XML files -- particles, contacts, boundaries.
 *
 * Read through the public API only (particles by id, contacts through
 * grit_contact_next), so that the files show what a user of the library
 * sees. */
#include <stdlib.h>
#include <string.h>

#include "core/scene_impl.h"
#include "grit/clump.h"
#include "grit/concrete.h"
#include "grit/shapes.h"
#include "io/atomic_file.h"
#include "io/vtk_xml.h"
#include "law2/cpm.h"

/* The arrays of one file, allocated together. */
typedef struct arrays {
    void *p[16];
    int n;
} arrays;

static void *take(arrays *a, size_t n, size_t size)
{
    void *p = malloc((n ? n : 1) * size);
    a->p[a->n++] = p;
    return p;
}
static bool all_taken(const arrays *a)
{
    for (int i = 0; i < a->n; i++)
        if (!a->p[i]) return false;
    return true;
}
static void release(arrays *a)
{
    for (int i = 0; i < a->n; i++) free(a->p[i]);
}

static void put3(double *d, long i, grit_vec3 v)
{
    d[3 * i] = v.x;
    d[3 * i + 1] = v.y;
    d[3 * i + 2] = v.z;
}

/* Unbounded or fixed shapes: a contact line ends at the contact point on
 * them, not at their node. */
static bool is_boundary_shape(int shape)
{
    return shape == GRIT_SHAPE_WALL || shape == GRIT_SHAPE_FACET || shape == GRIT_SHAPE_INFCYLINDER ||
           shape == GRIT_SHAPE_ROD;
}

static int oom(const grit_scene *s, const char *path)
{
    return grit_fail((grit_scene *)s, GRIT_ENOMEM, "out of memory writing '%s'", path);
}

/* One file: points, cells of one kind, and data arrays on the points or
 * on the cells. */
typedef struct data_array {
    const char *name;
    vtk_type type;
    int ncomp;
    const void *data;
} data_array;

typedef struct piece {
    long n_points, n_cells;
    vtk_cells_kind kind;
    const double *x;
    const int64_t *conn, *off;
    const char *data_tag; /* "PointData ..." or "CellData ...", with its attributes */
    data_array data[14];
} piece;

/* Write under a temporary name and rename; the error names the file. */
static int write_piece(const grit_scene *s, const char *path, grit_vtk_format fmt, const piece *p)
{
    grit_scene *sm = (grit_scene *)s; /* only for the error message */
    const int base = (int)fmt & ~(int)GRIT_VTK_FLOAT32;
    if (base != GRIT_VTK_BINARY && base != GRIT_VTK_ASCII && base != GRIT_VTK_ZLIB)
        return grit_fail(sm, GRIT_EINVAL, "VTK file '%s': format %d is none of grit_vtk_format", path, (int)fmt);
    grit_afile out;
    if (grit_afile_open(&out, path, NULL, sm->err, sizeof sm->err)) return GRIT_EIO;
    FILE *o = out.f;
    vtk_begin(o, fmt, p->n_points, p->kind, p->n_cells);
    int rc = vtk_points(o, fmt, p->x, p->n_points);
    rc |= vtk_cells(o, fmt, p->kind, p->conn, p->off, p->n_cells);
    const bool on_points = !strncmp(p->data_tag, "PointData", 9);
    fprintf(o, "<%s>\n", p->data_tag);
    for (const data_array *d = p->data; d < p->data + 14 && d->name; d++)
        rc |= vtk_array(o, fmt, d->name, d->type, d->ncomp, d->data, on_points ? p->n_points : p->n_cells);
    fprintf(o, "</%s>\n", on_points ? "PointData" : "CellData");
    vtk_end(o);
    if (rc) {
        grit_afile_abort(&out);
        return grit_fail(sm, GRIT_ENOMEM, "out of memory writing '%s'", path);
    }
    return grit_afile_commit(&out, sm->err, sizeof sm->err) ? GRIT_EIO : GRIT_OK;
}

int grit_vtk_write_particles(const grit_scene *s, const char *path, grit_vtk_format fmt)
{
    const int np = grit_particle_id_end(s); /* ids, deleted ones included */
    long n = 0;
    for (int id = 0; id < np; id++) n += grit_live_shape(s, id) == GRIT_SHAPE_SPHERE;
    arrays a = {0};
    double *x = take(&a, 3 * (size_t)n, sizeof *x), *r = take(&a, (size_t)n, sizeof *r);
    double *v = take(&a, 3 * (size_t)n, sizeof *v), *w = take(&a, 3 * (size_t)n, sizeof *w);
    double *f = take(&a, 3 * (size_t)n, sizeof *f), *t = take(&a, 3 * (size_t)n, sizeof *t);
    int64_t *ids = take(&a, (size_t)n, sizeof *ids), *conn = take(&a, (size_t)n, sizeof *conn);
    int64_t *off = take(&a, (size_t)n, sizeof *off), *clump = take(&a, (size_t)n, sizeof *clump);
    if (!all_taken(&a)) {
        release(&a);
        return oom(s, path);
    }
    long k = 0;
    for (int id = 0; id < np; id++) {
        if (grit_live_shape(s, id) != GRIT_SHAPE_SPHERE) continue;
        grit_vec3 q;
        grit_get_pos(s, id, &q), put3(x, k, q);
        grit_get_vel(s, id, &q), put3(v, k, q);
        grit_get_angvel(s, id, &q), put3(w, k, q);
        grit_get_force(s, id, &q), put3(f, k, q);
        grit_get_torque(s, id, &q), put3(t, k, q);
        grit_get_radius(s, id, &r[k]);
        int body = -1; /* a clump member: its body's id */
        if (s->b.flags[grit_idx(s, id)] & PF_MEMBER) grit_get_clump(s, id, &body, NULL);
        clump[k] = body;
        ids[k] = id;
        conn[k] = k;
        off[k] = k + 1;
        k++;
    }
    const piece p = {n, n, VTK_VERTS, x, conn, off, "PointData Scalars=\"radius\" Vectors=\"velocity\"",
                     {{"id", VTK_I64, 1, ids},
                      {"radius", VTK_F64, 1, r},
                      {"velocity", VTK_F64, 3, v},
                      {"angular_velocity", VTK_F64, 3, w},
                      {"force", VTK_F64, 3, f},
                      {"torque", VTK_F64, 3, t},
                      {"clump", VTK_I64, 1, clump}}};
    const int rc = write_piece(s, path, fmt, &p);
    release(&a);
    return rc;
}

int grit_vtk_write_contacts(const grit_scene *s, const char *path, grit_vtk_format fmt)
{
    const long n = grit_contact_count(s);
    arrays a = {0};
    double *x = take(&a, 6 * (size_t)n, sizeof *x);
    int64_t *ida = take(&a, (size_t)n, sizeof *ida), *idb = take(&a, (size_t)n, sizeof *idb);
    double *fn = take(&a, (size_t)n, sizeof *fn), *ft = take(&a, (size_t)n, sizeof *ft);
    double *force = take(&a, 3 * (size_t)n, sizeof *force), *normal = take(&a, 3 * (size_t)n, sizeof *normal);
    double *overlap = take(&a, (size_t)n, sizeof *overlap);
    uint8_t *bnd = take(&a, (size_t)n, 1), *law = take(&a, (size_t)n, 1), *cohesive = take(&a, (size_t)n, 1);
    double *sn = take(&a, (size_t)n, sizeof *sn), *st = take(&a, (size_t)n, sizeof *st);
    double *damage = take(&a, (size_t)n, sizeof *damage);
    int64_t *conn = take(&a, 2 * (size_t)n, sizeof *conn), *off = take(&a, (size_t)n, sizeof *off);
    if (!all_taken(&a)) {
        release(&a);
        return oom(s, path);
    }
    grit_contact_info c;
    long k = 0;
    for (int cur = 0; k < n && grit_contact_next(s, &cur, &c); k++) {
        /* a line between the centres; a boundary's end is the contact point */
        grit_vec3 pa = c.point, pb = c.point;
        const bool ba = is_boundary_shape(grit_live_shape(s, c.id_a)),
                   bb = is_boundary_shape(grit_live_shape(s, c.id_b));
        if (!ba) grit_get_pos(s, c.id_a, &pa);
        if (!bb) grit_get_pos(s, c.id_b, &pb);
        put3(x, 2 * k, pa);
        put3(x, 2 * k + 1, pb);
        ida[k] = c.id_a;
        idb[k] = c.id_b;
        fn[k] = -c.force.x; /* the law's normal force on A is negative in compression */
        ft[k] = hypot(c.force.y, c.force.z);
        put3(force, k, c.force_global);
        put3(normal, k, c.normal);
        overlap[k] = -c.uN;
        bnd[k] = ba || bb;
        /* stresses on the contact area (tension positive); the concrete law's damage (0 for the others) */
        law[k] = (uint8_t)c.law;
        sn[k] = c.area > 0 ? c.force.x / c.area : 0.0;
        st[k] = c.area > 0 ? ft[k] / c.area : 0.0;
        damage[k] = 0.0;
        cohesive[k] = 0;
        if (c.law == GRIT_LAW_CPM) {
            grit_concrete_state cs;
            grit_concrete_state_at(s, cur - 1, &cs); /* cur: one past the contact's internal index */
            damage[k] = cs.omega;
            cohesive[k] = cs.cohesive;
        }
        conn[2 * k] = 2 * k;
        conn[2 * k + 1] = 2 * k + 1;
        off[k] = 2 * k + 2;
    }
    const piece p = {2 * k, k, VTK_LINES, x, conn, off, "CellData Scalars=\"fn\" Vectors=\"force\"",
                     {{"id_a", VTK_I64, 1, ida},
                      {"id_b", VTK_I64, 1, idb},
                      {"fn", VTK_F64, 1, fn},
                      {"ft", VTK_F64, 1, ft},
                      {"force", VTK_F64, 3, force},
                      {"normal", VTK_F64, 3, normal},
                      {"overlap", VTK_F64, 1, overlap},
                      {"boundary", VTK_U8, 1, bnd},
                      {"law", VTK_U8, 1, law},
                      {"sigma_n", VTK_F64, 1, sn},
                      {"sigma_t", VTK_F64, 1, st},
                      {"damage", VTK_F64, 1, damage},
                      {"cohesive", VTK_U8, 1, cohesive}}};
    const int rc = write_piece(s, path, fmt, &p);
    release(&a);
    return rc;
}

static void grow_box(grit_vec3 *lo, grit_vec3 *hi, grit_vec3 p, double r)
{
    *lo = v3(fmin(lo->x, p.x - r), fmin(lo->y, p.y - r), fmin(lo->z, p.z - r));
    *hi = v3(fmax(hi->x, p.x + r), fmax(hi->y, p.y + r), fmax(hi->z, p.z + r));
}

/* Box around everything bounded (spheres, the meshes of the other finite
 * shapes), stretched to the walls' planes along their axes, padded by 5 %:
 * the walls' quads and the infinite cylinders are cut to it. */
static void scene_box(const grit_scene *s, const grit_trimesh *mesh, grit_vec3 *lo, grit_vec3 *hi)
{
    *lo = v3(INFINITY, INFINITY, INFINITY);
    *hi = v3(-INFINITY, -INFINITY, -INFINITY);
    const int np = grit_particle_id_end(s); /* ids, deleted ones included */
    for (int id = 0; id < np; id++) {
        const int shape = grit_live_shape(s, id);
        grit_vec3 p;
        if (shape == GRIT_SHAPE_WALL) {
            int axis, sense;
            grit_get_wall(s, id, &axis, &sense);
            grit_get_pos(s, id, &p);
            v3_set(lo, axis, fmin(v3_get(*lo, axis), v3_get(p, axis)));
            v3_set(hi, axis, fmax(v3_get(*hi, axis), v3_get(p, axis)));
        } else if (shape == GRIT_SHAPE_SPHERE) {
            double r;
            grit_get_pos(s, id, &p);
            grit_get_radius(s, id, &r);
            grow_box(lo, hi, p, r);
        } else
            for (int k = 0; k < mesh[id].nv; k++) grow_box(lo, hi, mesh[id].v[k], 0.0);
    }
    double size = 0;
    for (int ax = 0; ax < 3; ax++)
        if (v3_get(*hi, ax) >= v3_get(*lo, ax)) size = fmax(size, v3_get(*hi, ax) - v3_get(*lo, ax));
    if (!(size > 0)) size = 1.0; /* nothing with an extent: a 1 m frame */
    for (int ax = 0; ax < 3; ax++) {
        double l = v3_get(*lo, ax), h = v3_get(*hi, ax);
        if (!(h >= l)) l = h = 0.0;
        v3_set(lo, ax, l - 0.05 * size);
        v3_set(hi, ax, h + 0.05 * size);
    }
}

/* A wall as the quad of its plane inside the box. */
static void wall_quad(const grit_scene *s, int id, grit_vec3 lo, grit_vec3 hi, grit_vec3 q[4])
{
    int axis, sense;
    grit_vec3 node;
    grit_get_wall(s, id, &axis, &sense);
    grit_get_pos(s, id, &node);
    const int a1 = (axis + 1) % 3, a2 = (axis + 2) % 3;
    const double u[4] = {v3_get(lo, a1), v3_get(hi, a1), v3_get(hi, a1), v3_get(lo, a1)};
    const double v[4] = {v3_get(lo, a2), v3_get(lo, a2), v3_get(hi, a2), v3_get(hi, a2)};
    for (int c = 0; c < 4; c++) {
        q[c] = v3_zero();
        v3_set(&q[c], axis, v3_get(node, axis));
        v3_set(&q[c], a1, u[c]);
        v3_set(&q[c], a2, v[c]);
    }
}

static void free_meshes(grit_trimesh *mesh, int n)
{
    for (int i = 0; i < n; i++) grit_trimesh_free(&mesh[i]);
    free(mesh);
}

enum { SHAPE_RESOLUTION = 16 }; /* segments around a circle */

int grit_vtk_write_shapes(const grit_scene *s, const char *path, grit_vtk_format fmt)
{
    const int np = grit_particle_id_end(s); /* ids, deleted ones included */
    grit_trimesh *mesh = calloc((size_t)(np > 0 ? np : 1), sizeof *mesh);
    if (!mesh) return oom(s, path);
    /* the bounded shapes first: the box of the unbounded ones needs them */
    int rc = GRIT_OK;
    for (int id = 0; id < np && !rc; id++) {
        const int shape = grit_live_shape(s, id);
        if (shape >= 0 && shape != GRIT_SHAPE_SPHERE && shape != GRIT_SHAPE_WALL && shape != GRIT_SHAPE_INFCYLINDER)
            rc = grit_shape_tessellate(s, id, SHAPE_RESOLUTION, 1.0, &mesh[id]);
    }
    grit_vec3 lo = v3_zero(), hi = v3_zero();
    if (!rc) scene_box(s, mesh, &lo, &hi);
    const grit_vec3 mid = v3_scale(v3_add(lo, hi), 0.5);
    for (int id = 0; id < np && !rc; id++)
        if (grit_live_shape(s, id) == GRIT_SHAPE_INFCYLINDER) {
            grit_vec3 node;
            grit_get_pos(s, id, &node); /* a piece centred at the node that spans the box */
            rc = grit_shape_tessellate(s, id, SHAPE_RESOLUTION, v3_norm(v3_sub(node, mid)) + 0.5 * v3_norm(v3_sub(hi, lo)),
                                       &mesh[id]);
        }
    if (rc) {
        free_meshes(mesh, np);
        return rc;
    }
    long n = 0, npts = 0, nconn = 0;
    for (int id = 0; id < np; id++) {
        const bool wall = grit_live_shape(s, id) == GRIT_SHAPE_WALL;
        n += wall ? 1 : mesh[id].nt;
        npts += wall ? 4 : mesh[id].nv;
        nconn += wall ? 4 : 3 * mesh[id].nt;
    }
    arrays a = {0};
    double *x = take(&a, 3 * (size_t)npts, sizeof *x);
    int64_t *ids = take(&a, (size_t)n, sizeof *ids), *conn = take(&a, (size_t)nconn, sizeof *conn);
    int64_t *off = take(&a, (size_t)n, sizeof *off);
    uint8_t *shapes = take(&a, (size_t)n, 1);
    double *force = take(&a, 3 * (size_t)n, sizeof *force), *vel = take(&a, 3 * (size_t)n, sizeof *vel);
    if (!all_taken(&a)) {
        release(&a);
        free_meshes(mesh, np);
        return oom(s, path);
    }
    long k = 0, q = 0, c = 0; /* cells, points, connectivity entries */
    for (int id = 0; id < np; id++) {
        const int shape = grit_live_shape(s, id);
        if (shape < 0) continue;
        const long first = k;
        if (shape == GRIT_SHAPE_WALL) {
            grit_vec3 quad[4];
            wall_quad(s, id, lo, hi, quad);
            for (int j = 0; j < 4; j++) {
                put3(x, q + j, quad[j]);
                conn[c++] = q + j;
            }
            off[k++] = c;
            q += 4;
        } else {
            const grit_trimesh *m = &mesh[id];
            for (int j = 0; j < m->nv; j++) put3(x, q + j, m->v[j]);
            for (int t = 0; t < m->nt; t++) {
                for (int j = 0; j < 3; j++) conn[c++] = q + m->t[t][j];
                off[k++] = c;
            }
            q += m->nv;
        }
        grit_vec3 f, v;
        grit_get_force(s, id, &f);
        grit_get_vel(s, id, &v);
        for (long j = first; j < k; j++) {
            ids[j] = id;
            shapes[j] = (uint8_t)shape;
            put3(force, j, f);
            put3(vel, j, v);
        }
    }
    free_meshes(mesh, np);
    const piece p = {q, k, VTK_POLYS, x, conn, off, "CellData Scalars=\"shape\" Vectors=\"force\"",
                     {{"id", VTK_I64, 1, ids},
                      {"shape", VTK_U8, 1, shapes},
                      {"force", VTK_F64, 3, force},
                      {"velocity", VTK_F64, 3, vel}}};
    rc = write_piece(s, path, fmt, &p);
    release(&a);
    return rc;
}
