/* grit: reading contacts from outside the engine, and brute-force checks. */
#include <stdlib.h>

#include "cg2/cg2.h"
#include "cg2/l6geom.h"
#include "collide/broadphase.h"

static int real_index(const grit_scene *s, int i)
{
    for (int k = 0; k < s->c.n; k++)
        if (s->c.pair[k].flags & CF_REAL) {
            if (i == 0) return k;
            i--;
        }
    return -1;
}

int grit_contact_count(const grit_scene *s)
{
    int n = 0;
    for (int k = 0; k < s->c.n; k++) n += (s->c.pair[k].flags & CF_REAL) != 0;
    return n;
}

static void fill_info(const grit_scene *s, int k, grit_contact_info *in)
{
    const grit_pair *p = &s->c.pair[k];
    const grit_l6geom *g = &s->c.geom[k];
    const grit_frictphys *ph = &s->c.phys[k];
    const grit_contact_cold *c = &s->c.cold[k];
    in->id_a = s->b.id[p->a];
    in->id_b = s->b.id[p->b];
    in->normal = g->ex;
    in->ey = g->ey;
    in->ez = l6_ez(g);
    in->point = g->c;
    in->uN = g->uN;
    in->vel = g->vel;
    in->angvel = g->angvel;
    in->force = ph->f;
    in->torque = ph->t;
    in->force_global = v3_add(v3_add(v3_scale(g->ex, ph->f.x), v3_scale(g->ey, ph->f.y)), v3_scale(in->ez, ph->f.z));
    in->kn = ph->kn;
    in->kt = ph->kt;
    in->tan_phi = ph->tan_phi;
    in->cn = ph->cn;
    in->lens[0] = c->lens[0];
    in->lens[1] = c->lens[1];
    in->area = c->area;
    in->law = p->law;
}

int grit_contact_get(const grit_scene *s, int i, grit_contact_info *info)
{
    int k = real_index(s, i);
    if (k < 0) return grit_fail((grit_scene *)s, GRIT_EINVAL, "contact %d does not exist (%d real contacts)", i,
                                grit_contact_count(s));
    fill_info(s, k, info);
    return GRIT_OK;
}

int grit_contact_next(const grit_scene *s, int *cursor, grit_contact_info *info)
{
    for (int k = *cursor < 0 ? 0 : *cursor; k < s->c.n; k++)
        if (s->c.pair[k].flags & CF_REAL) {
            fill_info(s, k, info);
            *cursor = k + 1;
            return 1;
        }
    *cursor = s->c.n;
    return 0;
}

int grit_contact_find(const grit_scene *s, int id_a, int id_b)
{
    int a = grit_idx(s, id_a), b = grit_idx(s, id_b);
    if (a < 0 || b < 0) return -1;
    int i = 0;
    for (int k = 0; k < s->c.n; k++) {
        const grit_pair *p = &s->c.pair[k];
        if (!(p->flags & CF_REAL)) continue;
        if ((p->a == a && p->b == b) || (p->a == b && p->b == a)) return i;
        i++;
    }
    return -1;
}

int grit_brute_force_overlaps(grit_scene *s, int *out, int cap)
{
    int n = 0;
    grit_l6geom dummy = {0};
    for (int i = 0; i < s->b.n; i++)
        for (int j = i + 1; j < s->b.n; j++) {
            if (!grit_may_collide(s, i, j)) continue;
            grit_cg2_entry e = grit_cg2_lookup(s->b.shape[i], s->b.shape[j]);
            int a = e.swap ? j : i, b = e.swap ? i : j;
            grit_cg2_out o;
            if (!grit_cg2_eval(s, e.kind, a, b, v3_zero(), false, &dummy, &o) || !(o.uN < 0)) continue;
            if (n < cap) {
                out[2 * n] = s->b.id[a];
                out[2 * n + 1] = s->b.id[b];
            }
            n++;
        }
    return n;
}

int grit_potential_pairs(const grit_scene *s, int *out, int cap)
{
    int n = 0;
    for (int k = 0; k < s->c.n; k++, n++)
        if (n < cap) {
            out[2 * n] = s->b.id[s->c.pair[k].a];
            out[2 * n + 1] = s->b.id[s->c.pair[k].b];
        }
    for (int k = 0; k < s->c.n_pot; k++) {
        if (s->c.pot[k].flags & CF_PROMOTED) continue;
        if (n < cap) {
            out[2 * n] = s->b.id[s->c.pot[k].a];
            out[2 * n + 1] = s->b.id[s->c.pot[k].b];
        }
        n++;
    }
    return n;
}
