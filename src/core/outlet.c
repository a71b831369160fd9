/* grit: particle outlets (grit/outlet.h, docs/outlets.md) -- particles whose
 * node enters a region are deleted, their mass and energy recorded; a clump
 * goes whole when its centre of mass does. */
#include <stdlib.h>
#include <string.h>

#include "core/delete.h"
#include "core/storage.h"

grit_outlet_def grit_default_outlet_def(void)
{
    grit_outlet_def d;
    memset(&d, 0, sizeof d);
    d.region = GRIT_REGION_BOX;
    return d;
}

int grit_add_outlet(grit_scene *s, const grit_outlet_def *d)
{
    if (s->cell) return grit_fail(s, GRIT_ESTATE, "outlet: not available in a periodic scene");
    if (d->region == GRIT_REGION_BOX) {
        if (!v3_isfinite(d->lo) || !v3_isfinite(d->hi) || !(d->hi.x > d->lo.x) || !(d->hi.y > d->lo.y) ||
            !(d->hi.z > d->lo.z))
            return grit_fail(s, GRIT_EINVAL, "outlet: the box (%g, %g, %g)-(%g, %g, %g) must be finite and not empty",
                             d->lo.x, d->lo.y, d->lo.z, d->hi.x, d->hi.y, d->hi.z);
    } else if (d->region == GRIT_REGION_CYLINDER) {
        if (!v3_isfinite(d->center) || !(d->radius > 0) || !(d->height > 0) || !isfinite(d->radius) ||
            !isfinite(d->height))
            return grit_fail(s, GRIT_EINVAL, "outlet: the cylinder (radius %g, height %g) must have a positive, "
                                             "finite radius and height and a finite centre", d->radius, d->height);
    } else if (d->region != GRIT_REGION_MESH) {
        return grit_fail(s, GRIT_EINVAL, "outlet: region = %d is neither box (0), cylinder (1) nor mesh (2)",
                         d->region);
    }
    grit_region_mesh mesh = {0};
    if (d->region == GRIT_REGION_MESH) {
        const int rc = grit_region_mesh_make(s, "outlet", d->tri, d->n_tri, &mesh);
        if (rc) return rc;
    }
    if (s->n_outlets == s->cap_outlets) {
        int cap = s->cap_outlets ? 2 * s->cap_outlets : 4;
        if (grit_grow((void **)&s->outlets, sizeof *s->outlets, cap)) {
            grit_region_mesh_free(&mesh);
            return grit_fail(s, GRIT_ENOMEM, "out of memory adding an outlet");
        }
        s->cap_outlets = cap;
    }
    grit_outlet_state *q = &s->outlets[s->n_outlets];
    memset(q, 0, sizeof *q);
    q->def = *d;
    q->mesh = mesh;
    q->def.tri = (const grit_vec3(*)[3])mesh.tri;
    q->def.n_tri = mesh.n;
    s->outlet_rebuilds = -1; /* look at the next step */
    return s->n_outlets++;
}

int grit_outlet_count(const grit_scene *s) { return s->n_outlets; }

int grit_outlet_get(const grit_scene *s, int k, grit_outlet_def *def, grit_outlet_info *info)
{
    if (k < 0 || k >= s->n_outlets)
        return grit_fail((grit_scene *)s, GRIT_EINVAL, "outlet %d does not exist (%d outlets)", k, s->n_outlets);
    const grit_outlet_state *q = &s->outlets[k];
    if (def) *def = q->def;
    if (info) *info = (grit_outlet_info){q->mass, q->count, q->energy};
    return GRIT_OK;
}

static bool inside(const grit_outlet_state *q, grit_vec3 x)
{
    const grit_outlet_def *d = &q->def;
    if (d->region == GRIT_REGION_MESH) return grit_region_mesh_contains(&q->mesh, x, 0);
    if (d->region == GRIT_REGION_BOX)
        return x.x >= d->lo.x && x.x <= d->hi.x && x.y >= d->lo.y && x.y <= d->hi.y && x.z >= d->lo.z &&
               x.z <= d->hi.z;
    const double dx = x.x - d->center.x, dy = x.y - d->center.y;
    return dx * dx + dy * dy <= d->radius * d->radius && x.z >= d->center.z && x.z <= d->center.z + d->height;
}

int grit_outlets_run(grit_scene *s)
{
    /* once per rebuild: between rebuilds no particle moved more than the
     * Verlet distance, and the idle cost is this test */
    if (s->stats.rebuilds == s->outlet_rebuilds) return GRIT_OK;
    s->outlet_rebuilds = s->stats.rebuilds;
    const grit_bodies *b = &s->b;
    int *mark = NULL, found = 0;
    for (int i = 0; i < b->n; i++) {
        /* boundaries and imposed particles stay; a clump goes whole, by its
         * body's node (its centre of mass), never by a member's */
        if (!isfinite(b->mi[i].m) || (b->flags[i] & (PF_LOCAL6 | PF_MEMBER))) continue;
        for (int k = 0; k < s->n_outlets; k++) {
            if (!inside(&s->outlets[k], b->pr[i].pos)) continue;
            if (!mark && !(mark = calloc((size_t)b->n, sizeof *mark)))
                return grit_fail(s, GRIT_ENOMEM, "out of memory deleting particles");
            mark[i] = k + 1;
            if (b->shape[i] == GRIT_SHAPE_CLUMP) { /* its members with it */
                const grit_clump_data *cd = &s->clumps[b->sidx[i]];
                for (int m = 1; m <= cd->n; m++) mark[s->id2idx[cd->body + m]] = k + 1;
            }
            found++;
            break;
        }
    }
    if (!found) return GRIT_OK;
    double *energy = calloc((size_t)s->n_outlets, sizeof *energy);
    if (!energy) {
        free(mark);
        return grit_fail(s, GRIT_ENOMEM, "out of memory deleting particles");
    }
    for (int i = 0; i < b->n; i++)
        if (mark[i] && !(b->flags[i] & PF_MEMBER)) { /* a clump: its body's mass, counted once */
            s->outlets[mark[i] - 1].mass += b->mi[i].m;
            s->outlets[mark[i] - 1].count++;
        }
    const int rc = grit_delete_marked(s, mark, energy);
    if (rc == GRIT_OK)
        for (int k = 0; k < s->n_outlets; k++) {
            s->outlets[k].energy += energy[k];
            if (s->def.track_energy) s->energy[GRIT_E_OUTLET] += energy[k];
        }
    free(mark);
    free(energy);
    return rc;
}
