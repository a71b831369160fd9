/* grit: creating particles and reading or writing their state by id. */
#include <stdlib.h>
#include <stdint.h>
#include <string.h>

#include "material/material.h"
#include "core/storage.h"
#include "shape/clump.h"
#include "shape/shape.h"

static bool finite3(grit_vec3 a) { return v3_isfinite(a); }

int grit_reserve_bodies(grit_scene *s, int more)
{
    grit_bodies *b = &s->b;
    if (more < 0 || more > INT32_MAX / 2 - b->n) return grit_fail(s, GRIT_EINVAL, "%d more particles: too many", more);
    const int need = b->n + more;
    if (need > b->cap && grit_bodies_reserve(b, need)) return grit_fail(s, GRIT_ENOMEM, "out of memory for %d particles", need);
    const int need_ids = s->next_id + more; /* ids of deleted particles are not reused */
    if (more > INT32_MAX / 2 - s->next_id) return grit_fail(s, GRIT_EINVAL, "%d more particles: too many ids", more);
    if (need_ids > s->id_cap) {
        if (grit_grow((void **)&s->id2idx, sizeof *s->id2idx, need_ids))
            return grit_fail(s, GRIT_ENOMEM, "out of memory for %d particles", need);
        for (int k = s->id_cap; k < need_ids; k++) s->id2idx[k] = -1;
        s->id_cap = need_ids;
    }
    s->gen_bodies++; /* the arrays may have moved */
    return GRIT_OK;
}

int grit_append_body(grit_scene *s, grit_shape_type shape, int sidx, int mat, uint32_t mask)
{
    grit_bodies *b = &s->b;
    if (s->cell && grit_shape_classes[shape]->unbounded)
        return grit_fail(s, GRIT_ESTATE, "%s: unbounded shapes (walls) are not allowed in a periodic scene",
                         grit_shape_classes[shape]->name);
    if (b->n == b->cap && grit_bodies_reserve(b, b->cap ? 2 * b->cap : 64))
        return grit_fail(s, GRIT_ENOMEM, "out of memory adding particle %d", b->n);
    int id = s->next_id; /* ids are never reused (outlets delete particles) */
    if (id == INT32_MAX) return grit_fail(s, GRIT_EINVAL, "particle ids exhausted (%d handed out)", id);
    if (id >= s->id_cap) {
        int cap = s->id_cap ? 2 * s->id_cap : 64;
        if (grit_grow((void **)&s->id2idx, sizeof *s->id2idx, cap))
            return grit_fail(s, GRIT_ENOMEM, "out of memory adding particle %d", id);
        for (int k = s->id_cap; k < cap; k++) s->id2idx[k] = -1; /* ids not handed out yet */
        s->id_cap = cap;
    }
    /* a relative Verlet distance resolved while no particle had a size (an
     * inlet's scene starts with walls only) is resolved again */
    if (s->verlet_dist == 0 && !(s->def.verlet_dist >= 0)) s->verlet_dist = NAN; /* (nan: automatic) */
    int i = b->n++;
    s->next_id++;
    s->gen_bodies++; /* the arrays may have moved and have one more row */
    s->id2idx[id] = i;
    b->pr[i] = (grit_posr){v3_zero(), 0.0};
    b->vw[i] = (grit_velw){v3_zero(), v3_zero(), {0, 0}};
    b->ft[i] = (grit_ft){v3_zero(), v3_zero(), {0, 0}};
    b->mi[i] = (grit_massi){INFINITY, v3(INFINITY, INFINITY, INFINITY)};
    b->ori[i] = q_identity();
    b->angmom[i] = v3(NAN, NAN, NAN);
    b->flags[i] = 0;
    b->shape[i] = (uint8_t)shape;
    b->sidx[i] = sidx;
    b->mat[i] = (uint16_t)mat;
    b->mask[i] = mask;
    b->id[i] = id;
    b->refpos[i] = v3(NAN, NAN, NAN);
    s->need_rebuild = true;
    s->dt_check = true;
    s->laws_check = true; /* another material may be in use now */
    return i;
}

int grit_check_material(grit_scene *s, const char *what, int mat)
{
    if (mat < 0 || mat >= s->n_mats)
        return grit_fail(s, GRIT_EINVAL, "%s: material %d does not exist (%d material%s defined)", what, mat,
                         s->n_mats, s->n_mats == 1 ? "" : "s");
    return 0;
}

int grit_add_sphere(grit_scene *s, const grit_sphere_def *d)
{
    if (!(d->radius > 0) || !isfinite(d->radius))
        return grit_fail(s, GRIT_EINVAL, "sphere: radius = %g must be positive and finite (m)", d->radius);
    if (!finite3(d->pos) || !finite3(d->vel) || !finite3(d->angvel))
        return grit_fail(s, GRIT_EINVAL, "sphere: position (%g, %g, %g), velocity and angular velocity must be finite",
                         d->pos.x, d->pos.y, d->pos.z);
    if (d->blocked & ~GRIT_BLOCK_ALL) return grit_fail(s, GRIT_EINVAL, "sphere: blocked = %u has unknown bits", d->blocked);
    if (grit_check_material(s, "sphere", d->material)) return GRIT_EINVAL;
    int i = grit_append_body(s, GRIT_SHAPE_SPHERE, -1, d->material, d->mask);
    if (i < 0) return i;
    grit_bodies *b = &s->b;
    double r = d->radius, rho = grit_material_frict(s, d->material).density;
    double m = 4.0 / 3.0 * M_PI * r * r * r * rho;
    double I = 0.4 * m * r * r;
    b->pr[i] = (grit_posr){d->pos, r};
    b->vw[i] = (grit_velw){d->vel, d->angvel, {0, 0}};
    b->mi[i] = (grit_massi){m, v3(I, I, I)};
    b->flags[i] = (uint16_t)d->blocked;
    return b->id[i];
}

int grit_add_wall(grit_scene *s, const grit_wall_def *d)
{
    if (d->axis < 0 || d->axis > 2) return grit_fail(s, GRIT_EINVAL, "wall: axis = %d must be 0, 1 or 2", d->axis);
    if (d->sense < -1 || d->sense > 1)
        return grit_fail(s, GRIT_EINVAL, "wall: sense = %d must be -1, 0 or +1", d->sense);
    if (!isfinite(d->coord) || !finite3(d->vel))
        return grit_fail(s, GRIT_EINVAL, "wall: coord = %g and velocity must be finite", d->coord);
    if (grit_check_material(s, "wall", d->material)) return GRIT_EINVAL;
    if (s->n_walls == s->cap_walls) {
        int cap = s->cap_walls ? 2 * s->cap_walls : 8;
        if (grit_grow((void **)&s->walls, sizeof *s->walls, cap))
            return grit_fail(s, GRIT_ENOMEM, "out of memory adding a wall");
        s->cap_walls = cap;
    }
    int i = grit_append_body(s, GRIT_SHAPE_WALL, s->n_walls, d->material, d->mask);
    if (i < 0) return i;
    s->walls[s->n_walls++] = (grit_wall_data){d->axis, d->sense};
    grit_vec3 p = v3_zero();
    v3_set(&p, d->axis, d->coord);
    s->b.pr[i].pos = p;
    s->b.vw[i].v = d->vel;
    s->b.flags[i] = GRIT_BLOCK_ALL | PF_NO_GRAVITY | PF_NO_DAMPING | PF_NO_ENERGY;
    return s->b.id[i];
}

int grit_add_facet(grit_scene *s, const grit_facet_def *d)
{
    for (int k = 0; k < 3; k++)
        if (!finite3(d->v[k]))
            return grit_fail(s, GRIT_EINVAL, "facet: vertex %d (%g, %g, %g) must be finite", k, d->v[k].x, d->v[k].y,
                             d->v[k].z);
    grit_vec3 nrm = v3_cross(v3_sub(d->v[1], d->v[0]), v3_sub(d->v[2], d->v[0]));
    double scale = fmax(v3_norm2(v3_sub(d->v[1], d->v[0])), v3_norm2(v3_sub(d->v[2], d->v[0])));
    if (!(v3_norm(nrm) > 1e-12 * scale) || scale == 0)
        return grit_fail(s, GRIT_EINVAL, "facet: vertices (%g,%g,%g) (%g,%g,%g) (%g,%g,%g) are collinear (zero area)",
                         d->v[0].x, d->v[0].y, d->v[0].z, d->v[1].x, d->v[1].y, d->v[1].z, d->v[2].x, d->v[2].y,
                         d->v[2].z);
    if (!(d->half_thick >= 0) || !isfinite(d->half_thick))
        return grit_fail(s, GRIT_EINVAL, "facet: half_thick = %g must be >= 0 and finite (m)", d->half_thick);
    if (!finite3(d->vel)) return grit_fail(s, GRIT_EINVAL, "facet: velocity must be finite");
    if (grit_check_material(s, "facet", d->material)) return GRIT_EINVAL;
    if (s->n_facets == s->cap_facets) {
        int cap = s->cap_facets ? 2 * s->cap_facets : 16;
        if (grit_grow((void **)&s->facets, sizeof *s->facets, cap))
            return grit_fail(s, GRIT_ENOMEM, "out of memory adding a facet");
        s->cap_facets = cap;
    }
    int i = grit_append_body(s, GRIT_SHAPE_FACET, s->n_facets, d->material, d->mask);
    if (i < 0) return i;
    grit_facet_data *f = &s->facets[s->n_facets++];
    grit_vec3 cen = v3_scale(v3_add(v3_add(d->v[0], d->v[1]), d->v[2]), 1.0 / 3.0);
    for (int k = 0; k < 3; k++) {
        f->v[k] = d->v[k];
        f->vloc[k] = v3_sub(d->v[k], cen);
    }
    f->normal = v3_normalized(nrm);
    f->half_thick = d->half_thick;
    s->b.pr[i].pos = cen;
    s->b.vw[i].v = d->vel;
    s->b.flags[i] = GRIT_BLOCK_ALL | PF_NO_GRAVITY | PF_NO_DAMPING | PF_NO_ENERGY;
    if (v3_norm2(d->vel) > 0) s->b.flags[i] |= PF_MOVES_SHAPE;
    return s->b.id[i];
}

int grit_particle_count(const grit_scene *s) { return s->b.n; }
int grit_particle_id_end(const grit_scene *s) { return s->next_id; }

/* ---------------------------------------------------------------- access */
#define LOOKUP(s, id, i)                                                                     \
    int i = grit_idx(s, id);                                                                 \
    if (i < 0) return grit_fail((grit_scene *)(s), GRIT_EINVAL, "particle id %d does not exist", id)

int grit_get_pos(const grit_scene *s, int id, grit_vec3 *out)
{
    LOOKUP(s, id, i);
    *out = s->b.pr[i].pos;
    return GRIT_OK;
}
int grit_get_vel(const grit_scene *s, int id, grit_vec3 *out)
{
    LOOKUP(s, id, i);
    *out = s->b.vw[i].v;
    return GRIT_OK;
}
int grit_get_angvel(const grit_scene *s, int id, grit_vec3 *out)
{
    LOOKUP(s, id, i);
    *out = s->b.vw[i].w;
    return GRIT_OK;
}
int grit_get_force(const grit_scene *s, int id, grit_vec3 *out)
{
    LOOKUP(s, id, i);
    *out = s->b.ft[i].f;
    return GRIT_OK;
}
int grit_get_torque(const grit_scene *s, int id, grit_vec3 *out)
{
    LOOKUP(s, id, i);
    *out = s->b.ft[i].t;
    return GRIT_OK;
}
int grit_get_ori(const grit_scene *s, int id, grit_quat *out)
{
    LOOKUP(s, id, i);
    *out = s->b.ori[i];
    return GRIT_OK;
}
int grit_get_mass(const grit_scene *s, int id, double *mass, grit_vec3 *inertia)
{
    LOOKUP(s, id, i);
    if (mass) *mass = s->b.mi[i].m;
    if (inertia) *inertia = s->b.mi[i].inertia;
    return GRIT_OK;
}
int grit_get_radius(const grit_scene *s, int id, double *out)
{
    LOOKUP(s, id, i);
    *out = s->b.pr[i].r;
    return GRIT_OK;
}
int grit_get_shape(const grit_scene *s, int id)
{
    LOOKUP(s, id, i);
    return s->b.shape[i];
}

/* A shape whose data follows its node (facet vertices) must be refreshed by
 * the integrator once its node is given a velocity, or its vertices would stay
 * behind while the contact kinematics use the node's motion. */
static void mark_moving_shape(grit_scene *s, int i)
{
    if (grit_shape_classes[s->b.shape[i]]->follow_node) s->b.flags[i] |= PF_MOVES_SHAPE;
    if (s->b.shape[i] == GRIT_SHAPE_CLUMP) grit_clump_place_one(s, s->b.sidx[i]); /* members follow the body */
}

int grit_set_vel(grit_scene *s, int id, grit_vec3 v)
{
    LOOKUP(s, id, i);
    if (grit_clump_member_check(s, i, "velocity")) return GRIT_EINVAL;
    if (!finite3(v)) return grit_fail(s, GRIT_EINVAL, "particle %d: velocity must be finite", id);
    s->b.vw[i].v = v;
    mark_moving_shape(s, i);
    return GRIT_OK;
}
int grit_set_angvel(grit_scene *s, int id, grit_vec3 w)
{
    LOOKUP(s, id, i);
    if (grit_clump_member_check(s, i, "angular velocity")) return GRIT_EINVAL;
    if (!finite3(w)) return grit_fail(s, GRIT_EINVAL, "particle %d: angular velocity must be finite", id);
    int rc = grit_shape_check_angvel(s, i, w);
    if (rc) return rc;
    s->b.vw[i].w = w;
    s->b.angmom[i] = v3(NAN, NAN, NAN); /* re-derived from w by the aspherical integrator */
    mark_moving_shape(s, i);
    return GRIT_OK;
}
int grit_set_pos(grit_scene *s, int id, grit_vec3 p)
{
    LOOKUP(s, id, i);
    if (grit_clump_member_check(s, i, "position")) return GRIT_EINVAL;
    if (!finite3(p)) return grit_fail(s, GRIT_EINVAL, "particle %d: position must be finite", id);
    s->b.pr[i].pos = p;
    const grit_shape_class *sc = grit_shape_classes[s->b.shape[i]];
    if (sc->follow_node) sc->follow_node(s, i);
    if (s->b.shape[i] == GRIT_SHAPE_CLUMP) grit_clump_place_one(s, s->b.sidx[i]);
    s->need_rebuild = true;
    return GRIT_OK;
}
int grit_set_blocked(grit_scene *s, int id, unsigned blocked)
{
    LOOKUP(s, id, i);
    if (grit_clump_member_check(s, i, "blocked")) return GRIT_EINVAL;
    if (blocked & ~GRIT_BLOCK_ALL) return grit_fail(s, GRIT_EINVAL, "particle %d: blocked = %u has unknown bits", id, blocked);
    s->b.flags[i] = (uint16_t)((s->b.flags[i] & ~GRIT_BLOCK_ALL) | blocked);
    return GRIT_OK;
}
int grit_impose_vel(grit_scene *s, int id, grit_vec3 v, unsigned which)
{
    LOOKUP(s, id, i);
    if (grit_clump_member_check(s, i, "imposed velocity")) return GRIT_EINVAL;
    if (!finite3(v)) return grit_fail(s, GRIT_EINVAL, "particle %d: imposed velocity must be finite", id);
    if (which & ~7u) return grit_fail(s, GRIT_EINVAL, "particle %d: impose mask %u has bits beyond x,y,z", id, which);
    for (int k = 0; k < 3; k++)
        if (which & (1u << k)) v3_set(&s->b.vw[i].v, k, v3_get(v, k));
    s->b.flags[i] |= (uint16_t)which;
    mark_moving_shape(s, i);
    return GRIT_OK;
}
