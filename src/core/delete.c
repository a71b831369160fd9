/* grit: deleting particles (outlets, core/outlet.c) -- mark and compact.
 *
 * The particle arrays are compacted in place keeping the order of the
 * others, so that the contact list keeps its blocks and each remaining
 * contact its state byte for byte (only its particle indices change); the
 * broad phase's record follows, so no rebuild is needed. The deleted
 * particles' contacts go, after their force is taken back from the
 * surviving partner: the partner then moves as if the deleted particle had
 * left at the last step's instant. The energy that leaves -- the deleted
 * particles' kinetic energy, their contacts' elastic energy, and the change
 * of the partners' kinetic entry by the force taken back -- is returned per
 * mark, so that the caller books it and the balance stays closed.
 *
 * Clumps: the caller marks a body with all its members. A surviving
 * member's lost contact force is taken back from its body as well (the
 * body's accumulator already holds the members' sum, grit_clumps_gather),
 * and the kinetic entry that changes is the body's; the clump table and the
 * member rows are compacted like the particles, keeping the clumps' order. */
#include <stdlib.h>
#include <string.h>

#include "collide/broadphase.h"
#include "contact/contact_remove.h"
#include "cg2/cg2.h"
#include "core/delete.h"
#include "core/storage.h"
#include "integrate/integrate.h"

/* The particle whose motion carries particle i's: a member's body, else i. */
static int owner(const grit_scene *s, int i)
{
    return (s->b.flags[i] & PF_MEMBER) ? s->id2idx[s->clumps[s->b.sidx[i]].body] : i;
}

/* After contact k's force left member j (its accumulator was f0 before):
 * the same change on its body, the torque about the body's centre. */
static void unapply_body(grit_scene *s, int j, grit_ft f0)
{
    grit_bodies *b = &s->b;
    const int i = owner(s, j);
    if (i == j) return;
    const grit_vec3 df = v3_sub(b->ft[j].f, f0.f), dt = v3_sub(b->ft[j].t, f0.t);
    b->ft[i].f = v3_add(b->ft[i].f, df);
    b->ft[i].t = v3_add(b->ft[i].t, v3_add(dt, v3_cross(v3_sub(b->pr[j].pos, b->pr[i].pos), df)));
}

/* Drop the clumps whose body went (id2idx already renumbered), keeping the
 * others' order; their rows of clump_loc follow and their particles' sidx
 * takes the new index. */
static void compact_clumps(grit_scene *s)
{
    int w = 0, rows = 0;
    for (int c = 0; c < s->n_clumps; c++) {
        grit_clump_data d = s->clumps[c];
        if (s->id2idx[d.body] < 0) continue;
        if (rows != d.first) memmove(s->clump_loc + rows, s->clump_loc + d.first, sizeof *s->clump_loc * (size_t)d.n);
        d.first = rows;
        rows += d.n;
        for (int k = 0; k <= d.n; k++) s->b.sidx[s->id2idx[d.body + k]] = w;
        s->clumps[w++] = d;
    }
    s->n_clumps = w;
    s->n_clump_loc = rows;
}

static void compact_bodies(grit_bodies *b, const int32_t *newidx)
{
    for (int i = 0; i < b->n; i++)
        if (newidx[i] >= 0 && newidx[i] != i) grit_bodies_move(b, newidx[i], i);
}

/* Keep the pairs of `pair` (n of them, in blocks `start`) whose particles
 * both stay, renumbered; copy(k_new, k_old) moves a kept one's state. */
static int compact_pairs(grit_pair *pair, int n, int *start, const int32_t *newidx, grit_contacts *C, int *real_gone,
                         int *promoted)
{
    int w = 0, q = 0;
    for (int k = 0; k < n; k++) {
        while (q <= GRIT_BLOCK_COUNT && start[q] == k) start[q++] = w;
        const int a = newidx[pair[k].a], b = newidx[pair[k].b];
        if (a < 0 || b < 0) {
            if (real_gone) *real_gone += (pair[k].flags & CF_REAL) != 0;
            continue;
        }
        if (C && w != k) grit_contacts_copy(C, w, C, k);
        else if (w != k) pair[w] = pair[k];
        pair[w].a = a;
        pair[w].b = b;
        if (promoted) *promoted += (pair[w].flags & CF_PROMOTED) != 0;
        w++;
    }
    while (q <= GRIT_BLOCK_COUNT) start[q++] = w;
    return w;
}

int grit_delete_marked(grit_scene *s, const int *mark, double *energy)
{
    grit_bodies *b = &s->b;
    grit_contacts *C = &s->c;
    const int n = b->n;
    int32_t *newidx = malloc(sizeof *newidx * (size_t)(n > 0 ? n : 1));
    int *partner = malloc(sizeof *partner * (size_t)(n > 0 ? n : 1)); /* mark whose force it loses, or 0 */
    double *ek0 = malloc(sizeof *ek0 * (size_t)(n > 0 ? n : 1));
    if (!newidx || !partner || !ek0) {
        free(newidx);
        free(partner);
        free(ek0);
        return grit_fail(s, GRIT_ENOMEM, "out of memory deleting particles");
    }
    const bool track = s->def.track_energy;
    int kept = 0;
    for (int i = 0; i < n; i++) {
        newidx[i] = mark[i] ? -1 : kept++;
        partner[i] = 0;
        if (mark[i] && track) energy[mark[i] - 1] += grit_leapfrog_kinetic(s, i);
    }
    /* the contacts that go: their energy, their partners */
    for (int k = 0; k < C->n; k++) {
        const grit_pair *p = &C->pair[k];
        if (!(p->flags & CF_REAL) || (!mark[p->a] && !mark[p->b])) continue;
        const int m = mark[p->a] ? mark[p->a] : mark[p->b];
        if (track) energy[m - 1] += grit_contact_stored_energy(s, k);
        const int other = mark[p->a] ? p->b : p->a;
        if (mark[other]) continue;
        const int o = owner(s, other); /* whose kinetic entry changes */
        if (!partner[o]) {
            partner[o] = m;
            if (track) ek0[o] = grit_leapfrog_kinetic(s, o);
        }
    }
    for (int k = 0; k < C->n; k++) {
        const grit_pair *p = &C->pair[k];
        if (!(p->flags & CF_REAL) || (mark[p->a] != 0) == (mark[p->b] != 0)) continue;
        const int a = p->a, bb = p->b;
        const grit_ft fa = b->ft[a], fb = b->ft[bb];
        grit_contact_unapply(s, k);
        if (!mark[a]) unapply_body(s, a, fa);
        if (!mark[bb]) unapply_body(s, bb, fb);
    }
    if (track)
        for (int i = 0; i < n; i++)
            if (partner[i]) energy[partner[i] - 1] += ek0[i] - grit_leapfrog_kinetic(s, i);
    /* compact: contacts (real and potential), particles, the id map, the broad phase */
    int real_gone = 0, promoted = 0;
    C->n = compact_pairs(C->pair, C->n, C->block_start, newidx, C, &real_gone, NULL);
    C->n_real = C->n_real - real_gone > 0 ? C->n_real - real_gone : 0;
    C->n_pot = compact_pairs(C->pot, C->n_pot, C->pot_start, newidx, NULL, NULL, &promoted);
    C->n_promoted = promoted;
    for (int i = 0; i < n; i++)
        if (newidx[i] < 0) s->id2idx[b->id[i]] = -1;
    compact_bodies(b, newidx);
    b->n = kept;
    for (int i = 0; i < kept; i++) s->id2idx[b->id[i]] = i;
    if (s->n_clumps) compact_clumps(s);
    grit_broadphase_compact(s, newidx, n);
    s->gen_bodies++;
    s->gen_contacts++;
    free(newidx);
    free(partner);
    free(ek0);
    return GRIT_OK;
}
