/* grit: triangle meshes of shape surfaces, for visualisation (the VTK
 * writer draws capsules and ellipsoids as the surfaces made here).
 *
 * Round shapes are latitude-longitude grids around a local axis; every
 * triangle is counter-clockwise seen from outside (outward normals), so a
 * closed mesh has a positive signed volume. */
#include <stdlib.h>

#include "grit/shapes.h"
#include "shape/shape.h"

typedef struct mesh_builder {
    grit_trimesh *m;
    int vcap, tcap;
    bool oom;
} mesh_builder;

static int add_v(mesh_builder *b, grit_vec3 p)
{
    grit_trimesh *m = b->m;
    if (m->nv == b->vcap) {
        int c = b->vcap ? 2 * b->vcap : 64;
        void *q = realloc(m->v, sizeof *m->v * (size_t)c);
        if (!q) {
            b->oom = true;
            return 0;
        }
        m->v = q;
        b->vcap = c;
    }
    m->v[m->nv] = p;
    return m->nv++;
}

static void add_t(mesh_builder *b, int i, int j, int k)
{
    grit_trimesh *m = b->m;
    if (m->nt == b->tcap) {
        int c = b->tcap ? 2 * b->tcap : 128;
        void *q = realloc(m->t, sizeof *m->t * (size_t)c);
        if (!q) {
            b->oom = true;
            return;
        }
        m->t = q;
        b->tcap = c;
    }
    m->t[m->nt][0] = i;
    m->t[m->nt][1] = j;
    m->t[m->nt][2] = k;
    m->nt++;
}

/* A closed surface of revolution-like grid about local x: rings at polar
 * angles th[k] (0 < th < pi, increasing from +x), each ring's centre shifted
 * along x by off[k]; poles at +x (shift off_n) and -x (shift off_s). The
 * local point (x, y, z) is mapped by centre + R (S local), S = diag(scale). */
static void latlong(mesh_builder *b, grit_vec3 centre, grit_quat R, grit_vec3 S, int nseg, const double *th,
                    const double *off, int nring, double off_n, double off_s)
{
#define MAP(lx, ly, lz) v3_add(centre, q_rotate(R, v3((lx) * S.x, (ly) * S.y, (lz) * S.z)))
    int north = add_v(b, MAP(1.0 + off_n, 0.0, 0.0));
    int first = b->m->nv;
    for (int k = 0; k < nring; k++)
        for (int j = 0; j < nseg; j++) {
            double ph = 2 * M_PI * j / nseg;
            add_v(b, MAP(cos(th[k]) + off[k], sin(th[k]) * cos(ph), sin(th[k]) * sin(ph)));
        }
    int south = add_v(b, MAP(-1.0 + off_s, 0.0, 0.0));
#undef MAP
    /* with phi increasing about +x, (north, ring j, ring j+1) faces outwards */
    for (int j = 0; j < nseg; j++) add_t(b, north, first + j, first + (j + 1) % nseg);
    for (int k = 0; k + 1 < nring; k++)
        for (int j = 0; j < nseg; j++) {
            int a = first + k * nseg + j, c = first + k * nseg + (j + 1) % nseg;
            int a2 = a + nseg, c2 = c + nseg;
            add_t(b, a, a2, c2);
            add_t(b, a, c2, c);
        }
    int last = first + (nring - 1) * nseg;
    for (int j = 0; j < nseg; j++) add_t(b, south, last + (j + 1) % nseg, last + j);
}

/* Ellipsoid-like: nring = nseg/2 - 1 rings evenly in polar angle. */
static void ellipsoid_mesh(mesh_builder *b, grit_vec3 c, grit_quat R, grit_vec3 S, int nseg)
{
    int nr = nseg / 2 - 1;
    if (nr < 1) nr = 1;
    double th[nr], off[nr];
    for (int k = 0; k < nr; k++) {
        th[k] = M_PI * (k + 1) / (nr + 1);
        off[k] = 0;
    }
    latlong(b, c, R, S, nseg, th, off, nr, 0, 0);
}

/* Capsule: two hemispheres of radius r shifted by +-h (in units of r) along
 * local x, joined by the cylinder between the two equator rings. */
static void capsule_mesh(mesh_builder *b, grit_vec3 c, grit_quat R, double r, double half, int nseg)
{
    int nh = nseg / 4; /* rings per hemisphere, equator included */
    if (nh < 1) nh = 1;
    double th[2 * nh], off[2 * nh], hs = half / r;
    for (int k = 0; k < nh; k++) {
        th[k] = 0.5 * M_PI * (k + 1) / nh; /* up to the equator */
        off[k] = hs;
        th[2 * nh - 1 - k] = M_PI - th[k];
        off[2 * nh - 1 - k] = -hs;
    }
    latlong(b, c, R, v3(r, r, r), nseg, th, off, 2 * nh, hs, -hs);
}

/* Rotation taking local x to unit vector u. */
static grit_quat rot_x_to(grit_vec3 u)
{
    grit_vec3 ex = v3(1, 0, 0), ax = v3_cross(ex, u);
    double s = v3_norm(ax), c = v3_dot(ex, u);
    if (s < 1e-15) return c > 0 ? q_identity() : q_axis_angle(v3(0, 0, 1), M_PI);
    return q_axis_angle(v3_scale(ax, 1.0 / s), atan2(s, c));
}

static void facet_mesh(mesh_builder *b, const grit_facet_data *f)
{
    if (!(f->half_thick > 0)) {
        int a = add_v(b, f->v[0]), c = add_v(b, f->v[1]), d = add_v(b, f->v[2]);
        add_t(b, a, c, d);
        return;
    }
    /* prism: top (+h n) counter-clockwise about n, bottom reversed, sides */
    grit_vec3 o = v3_scale(f->normal, f->half_thick);
    int top[3], bot[3];
    for (int k = 0; k < 3; k++) {
        top[k] = add_v(b, v3_add(f->v[k], o));
        bot[k] = add_v(b, v3_sub(f->v[k], o));
    }
    add_t(b, top[0], top[1], top[2]);
    add_t(b, bot[0], bot[2], bot[1]);
    for (int k = 0; k < 3; k++) {
        int n = (k + 1) % 3;
        add_t(b, bot[k], bot[n], top[n]);
        add_t(b, bot[k], top[n], top[k]);
    }
}

static void infcyl_mesh(mesh_builder *b, grit_vec3 x, int ax, double R, double extent, int nseg)
{
    int a1 = (ax + 1) % 3, a2 = (ax + 2) % 3;
    int first = b->m->nv;
    for (int e = 0; e < 2; e++)
        for (int j = 0; j < nseg; j++) {
            double ph = 2 * M_PI * j / nseg;
            grit_vec3 p = x;
            v3_set(&p, ax, v3_get(x, ax) + (e ? extent : -extent));
            v3_set(&p, a1, v3_get(x, a1) + R * cos(ph));
            v3_set(&p, a2, v3_get(x, a2) + R * sin(ph));
            add_v(b, p);
        }
    for (int j = 0; j < nseg; j++) { /* open tube, outward */
        int p = first + j, q = first + (j + 1) % nseg;
        add_t(b, p, q, q + nseg);
        add_t(b, p, q + nseg, p + nseg);
    }
}

static void wall_mesh(mesh_builder *b, grit_vec3 x, int ax, int sense, double extent)
{
    int a1 = (ax + 1) % 3, a2 = (ax + 2) % 3;
    int q[4];
    const double sx[4] = {-1, 1, 1, -1}, sy[4] = {-1, -1, 1, 1};
    for (int k = 0; k < 4; k++) {
        grit_vec3 p = v3_zero();
        v3_set(&p, ax, v3_get(x, ax));
        v3_set(&p, a1, sx[k] * extent);
        v3_set(&p, a2, sy[k] * extent);
        q[k] = add_v(b, p);
    }
    /* (a1, a2) counter-clockwise faces +axis */
    if (sense >= 0) {
        add_t(b, q[0], q[1], q[2]);
        add_t(b, q[0], q[2], q[3]);
    } else {
        add_t(b, q[0], q[2], q[1]);
        add_t(b, q[0], q[3], q[2]);
    }
}

int grit_shape_tessellate(const grit_scene *s, int id, int resolution, double extent, grit_trimesh *out)
{
    grit_scene *sm = (grit_scene *)s; /* for error messages only */
    int i = grit_idx(s, id);
    if (i < 0) return grit_fail(sm, GRIT_EINVAL, "tessellate: particle id %d does not exist", id);
    if (resolution < 4 || resolution > 4096)
        return grit_fail(sm, GRIT_EINVAL, "tessellate: resolution = %d must be in [4, 4096]", resolution);
    int shape = s->b.shape[i];
    if ((shape == GRIT_SHAPE_WALL || shape == GRIT_SHAPE_INFCYLINDER) && (!(extent > 0) || !isfinite(extent)))
        return grit_fail(sm, GRIT_EINVAL, "tessellate: extent = %g must be positive and finite for an unbounded %s",
                         extent, grit_shape_name(shape));
    *out = (grit_trimesh){0, 0, NULL, NULL};
    mesh_builder b = {out, 0, 0, false};
    const grit_vec3 x = s->b.pr[i].pos;
    const double r = s->b.pr[i].r;
    switch (shape) {
    case GRIT_SHAPE_SPHERE: ellipsoid_mesh(&b, x, s->b.ori[i], v3(r, r, r), resolution); break;
    case GRIT_SHAPE_ELLIPSOID:
        ellipsoid_mesh(&b, x, s->b.ori[i], s->ellipsoids[s->b.sidx[i]].semi, resolution);
        break;
    case GRIT_SHAPE_CAPSULE: capsule_mesh(&b, x, s->b.ori[i], r, grit_capsule_half(s, i), resolution); break;
    case GRIT_SHAPE_ROD: {
        const grit_rod_data *d = &s->rods[s->b.sidx[i]];
        grit_vec3 ax = v3_sub(d->p[1], d->p[0]);
        double len = v3_norm(ax);
        grit_quat R = len > 0 ? rot_x_to(v3_scale(ax, 1.0 / len)) : q_identity();
        capsule_mesh(&b, v3_scale(v3_add(d->p[0], d->p[1]), 0.5), R, r, 0.5 * len, resolution);
        break;
    }
    case GRIT_SHAPE_FACET: facet_mesh(&b, &s->facets[s->b.sidx[i]]); break;
    case GRIT_SHAPE_INFCYLINDER:
        infcyl_mesh(&b, x, s->infcyls[s->b.sidx[i]].axis, r, extent, resolution);
        break;
    case GRIT_SHAPE_WALL: {
        const grit_wall_data *w = &s->walls[s->b.sidx[i]];
        wall_mesh(&b, x, w->axis, w->sense, extent);
        break;
    }
    default: break;
    }
    if (b.oom) {
        grit_trimesh_free(out);
        return grit_fail(sm, GRIT_ENOMEM, "tessellate: out of memory (particle %d)", id);
    }
    return GRIT_OK;
}

void grit_trimesh_free(grit_trimesh *m)
{
    free(m->v);
    free(m->t);
    *m = (grit_trimesh){0, 0, NULL, NULL};
}
