/* grit MPI: the re-partition. At a broad-phase rebuild the slabs are cut
 * again (decomp.c) and every rank sends
 *   - each of its own particles to the rank that now owns it, and a copy to
 *     every rank whose slab it is within the halo of;
 *   - each real contact it is the sender of (it owns the contact's moving
 *     particle of lowest id) to the ranks that now own either moving end,
 *     with all its state.
 * Then each rank's particles and contacts are what it received, plus the
 * shared particles it kept; the broad phase rebuilds on that, keeping the
 * received contacts. One rank's copy of a contact that crosses two slabs is
 * dropped and the other's sent: the two are the same bytes. */
#include <stdlib.h>
#include <string.h>

#include "core/storage.h"
#include "mpi/mpi_impl.h"

/* One particle on the wire. */
typedef struct prec {
    grit_posr pr;
    grit_velw vw;
    grit_ft ft;
    grit_massi mi;
    grit_quat ori;
    grit_vec3 angmom, refpos;
    int32_t id, sidx;
    uint32_t mask;
    uint16_t flags, mat;
    uint8_t shape, ghost, pad[6];
} prec;

/* One contact on the wire: the ids of A and B, then ext_n doubles. */
typedef struct crec {
    int32_t ida, idb;
    grit_pair pair;
    grit_l6geom geom;
    grit_frictphys phys;
    grit_contact_cold cold;
} crec;

static size_t crec_size(const grit_scene *s) { return sizeof(crec) + sizeof(double) * (size_t)s->c.ext_n; }

static double coord(const struct grit_mpi *m, grit_vec3 x) { return m->axis == 0 ? x.x : m->axis == 1 ? x.y : x.z; }

/* The ranks other than `owner` that hold a copy of a particle at x. */
static int ghost_ranks(const struct grit_mpi *m, grit_vec3 x, int owner, double halo, int *out)
{
    if (m->gather) return 0;
    const double c = coord(m, x);
    int n = 0;
    for (int r = 0; r < m->size; r++)
        if (r != owner && c >= m->bounds[r] - halo && c < m->bounds[r + 1] + halo) out[n++] = r;
    return n;
}

static void pack_particle(const grit_scene *s, int i, bool ghost, prec *o)
{
    const grit_bodies *b = &s->b;
    memset(o, 0, sizeof *o);
    o->pr = b->pr[i];
    o->vw = b->vw[i];
    o->ft = b->ft[i];
    o->mi = b->mi[i];
    o->ori = b->ori[i];
    o->angmom = b->angmom[i];
    o->refpos = b->refpos[i];
    o->id = b->id[i];
    o->sidx = b->sidx[i];
    o->mask = b->mask[i];
    o->flags = (uint16_t)(b->flags[i] & ~(PF_GHOST | PF_SHARED));
    o->mat = b->mat[i];
    o->shape = b->shape[i];
    o->ghost = ghost;
}

static void unpack_particle(grit_scene *s, int i, const prec *o)
{
    grit_bodies *b = &s->b;
    b->pr[i] = o->pr;
    b->vw[i] = o->vw;
    b->ft[i] = o->ft;
    b->mi[i] = o->mi;
    b->ori[i] = o->ori;
    b->angmom[i] = o->angmom;
    b->refpos[i] = o->refpos;
    b->id[i] = o->id;
    b->sidx[i] = o->sidx;
    b->mask[i] = o->mask;
    b->flags[i] = (uint16_t)(o->flags | (o->ghost ? PF_GHOST : 0));
    b->mat[i] = o->mat;
    b->shape[i] = o->shape;
}

/* Contact k's sender: the rank that owns its moving end of lowest id. Is it
 * this rank? */
static bool sends_contact(const grit_scene *s, const grit_pair *p)
{
    const int a = p->a, b = p->b;
    const bool ma = !(s->b.flags[a] & PF_SHARED), mb = !(s->b.flags[b] & PF_SHARED);
    int e = a;
    if (!ma || (mb && s->b.id[b] < s->b.id[a])) e = b;
    return grit_mpi_mine(s, e);
}

static int exchange_counts(struct grit_mpi *m, const int *scnt, int *rcnt, int *sdispl, int *rdispl, size_t unit,
                           long *total_in)
{
    MPI_Alltoall(scnt, 1, MPI_INT, rcnt, 1, MPI_INT, m->comm);
    long so = 0, ro = 0;
    for (int r = 0; r < m->size; r++) {
        sdispl[r] = (int)so;
        rdispl[r] = (int)ro;
        so += (long)scnt[r] * (long)unit;
        ro += (long)rcnt[r] * (long)unit;
    }
    *total_in = ro;
    return so > 2147483647L || ro > 2147483647L ? -1 : 0;
}

void grit_mpi_mark_shared(grit_scene *s)
{
    for (int i = 0; i < s->b.n; i++)
        if (s->b.shape[i] != GRIT_SHAPE_SPHERE) s->b.flags[i] |= PF_SHARED;
}

static int cmp_id(const void *x, const void *y)
{
    const int32_t a = *(const int32_t *)x, b = *(const int32_t *)y;
    return (a > b) - (a < b);
}

/* Lists of ids per rank, each sorted: n ids in buckets given by rank_of. */
static int fill_lists(grit_mpi_lists *l, int P, int n)
{
    if (n > l->cap) {
        int32_t *q = realloc(l->ids, sizeof *q * (size_t)(n > 0 ? n : 1));
        if (!q) return -1;
        l->ids = q;
        l->cap = n;
    }
    int o = 0;
    for (int r = 0; r < P; r++) {
        l->off[r] = o;
        o += l->cnt[r];
        l->cnt[r] = 0;
    }
    l->n = n;
    return 0;
}

/* The ghosts' update lists, from the new owners: each rank sends its own
 * particles' states to the ranks holding copies, and receives its copies'
 * from their owners, both sorted by id, so that the two sides agree
 * without saying more. Both sides decide from the same bytes (a copy's
 * position is its owner's). */
static int ghost_lists(grit_scene *s, double halo)
{
    struct grit_mpi *m = s->mpi;
    const grit_bodies *b = &s->b;
    const int P = m->size;
    int *dest = malloc(sizeof *dest * (size_t)P);
    if (!dest) return -1;
    grit_mpi_lists *sl = &m->send, *rl = &m->recv;
    long owned = 0;
    for (int r = 0; r < P; r++) sl->cnt[r] = rl->cnt[r] = 0;
    int ns = 0, nr = 0;
    for (int i = 0; i < b->n; i++) {
        if (b->flags[i] & PF_SHARED) continue;
        if (b->flags[i] & PF_GHOST) {
            rl->cnt[grit_mpi_owner(m, b->pr[i].pos)]++, nr++;
            continue;
        }
        owned++;
        const int ng = ghost_ranks(m, b->pr[i].pos, m->rank, halo, dest);
        for (int g = 0; g < ng; g++) sl->cnt[dest[g]]++;
        ns += ng;
    }
    if (fill_lists(sl, P, ns) || fill_lists(rl, P, nr)) {
        free(dest);
        return -1;
    }
    for (int i = 0; i < b->n; i++) {
        if (b->flags[i] & PF_SHARED) continue;
        if (b->flags[i] & PF_GHOST) {
            const int r = grit_mpi_owner(m, b->pr[i].pos);
            rl->ids[rl->off[r] + rl->cnt[r]++] = b->id[i];
            continue;
        }
        const int ng = ghost_ranks(m, b->pr[i].pos, m->rank, halo, dest);
        for (int g = 0; g < ng; g++) sl->ids[sl->off[dest[g]] + sl->cnt[dest[g]]++] = b->id[i];
    }
    for (int r = 0; r < P; r++) {
        if (sl->cnt[r] > 1) qsort(sl->ids + sl->off[r], (size_t)sl->cnt[r], sizeof(int32_t), cmp_id);
        if (rl->cnt[r] > 1) qsort(rl->ids + rl->off[r], (size_t)rl->cnt[r], sizeof(int32_t), cmp_id);
    }
    if (!m->gather) { /* (a gather's are not the run's) */
        m->st.owned = owned;
        m->st.ghosts = nr;
    }
    free(dest);
    return 0;
}

int grit_mpi_redistribute(grit_scene *s)
{
    struct grit_mpi *m = s->mpi;
    const int P = m->size;
    grit_mpi_mark_shared(s); /* (a gathered scene has none) */
    int rc = grit_mpi_partition(s);
    if (rc) return rc;
    const double halo = grit_mpi_halo(s);
    grit_bodies *b = &s->b;
    grit_contacts *C = &s->c;
    int *pcnt = calloc((size_t)P, sizeof(int)), *ccnt = calloc((size_t)P, sizeof(int));
    int *pdest = malloc((size_t)P * sizeof(int)), *pcur = calloc((size_t)P, sizeof(int));
    int *ccur = calloc((size_t)P, sizeof(int));
    int *rp = malloc((size_t)P * sizeof(int)), *rc_ = malloc((size_t)P * sizeof(int));
    int *sd = malloc((size_t)P * sizeof(int)), *rd = malloc((size_t)P * sizeof(int));
    prec *psend = NULL, *precv = NULL;
    char *csend = NULL, *crecv = NULL;
    int32_t *owner = NULL;
    int ok = pcnt && ccnt && pdest && pcur && ccur && rp && rc_ && sd && rd;
    /* every local particle's new owner (ghosts' too: their contacts follow them) */
    if (ok) ok = (owner = malloc(sizeof *owner * (size_t)(b->n > 0 ? b->n : 1))) != NULL;
    if (ok)
        for (int i = 0; i < b->n; i++) owner[i] = (b->flags[i] & PF_SHARED) ? -1 : grit_mpi_owner(m, b->pr[i].pos);
    /* count */
    long n_psend = 0, n_csend = 0;
    if (ok) {
        for (int i = 0; i < b->n; i++) {
            if (!grit_mpi_mine(s, i)) continue;
            pcnt[owner[i]]++;
            const int ng = ghost_ranks(m, b->pr[i].pos, owner[i], halo, pdest);
            for (int g = 0; g < ng; g++) pcnt[pdest[g]]++;
            n_psend += 1 + ng;
        }
        for (int k = 0; k < C->n; k++) {
            const grit_pair *p = &C->pair[k];
            if (!(p->flags & CF_REAL) || !sends_contact(s, p)) continue;
            const int oa = owner[p->a], ob = owner[p->b];
            if (oa >= 0) ccnt[oa]++, n_csend++;
            if (ob >= 0 && ob != oa) ccnt[ob]++, n_csend++;
        }
        ok = (psend = malloc(sizeof *psend * (size_t)(n_psend > 0 ? n_psend : 1))) != NULL &&
             (csend = malloc(crec_size(s) * (size_t)(n_csend > 0 ? n_csend : 1))) != NULL;
    }
    if (ok) {
        /* fill, in local order, per destination */
        long o = 0;
        for (int r = 0; r < P; r++) {
            pcur[r] = (int)o;
            o += pcnt[r];
        }
        long migrated = 0;
        for (int i = 0; i < b->n; i++) {
            if (!grit_mpi_mine(s, i)) continue;
            pack_particle(s, i, false, &psend[pcur[owner[i]]++]);
            if (owner[i] != m->rank) migrated++;
            const int ng = ghost_ranks(m, b->pr[i].pos, owner[i], halo, pdest);
            for (int g = 0; g < ng; g++) pack_particle(s, i, true, &psend[pcur[pdest[g]]++]);
        }
        m->st.migrated += migrated;
        const size_t cs = crec_size(s);
        o = 0;
        for (int r = 0; r < P; r++) {
            ccur[r] = (int)o;
            o += ccnt[r];
        }
        long cmig = 0;
        for (int k = 0; k < C->n; k++) {
            const grit_pair *p = &C->pair[k];
            if (!(p->flags & CF_REAL) || !sends_contact(s, p)) continue;
            const int oa = owner[p->a], ob = owner[p->b];
            for (int side = 0; side < 2; side++) {
                const int r = side ? ob : oa;
                if (r < 0 || (side && r == oa)) continue;
                crec *c = (crec *)(csend + cs * (size_t)ccur[r]++);
                memset(c, 0, sizeof *c);
                c->ida = b->id[p->a];
                c->idb = b->id[p->b];
                c->pair = *p;
                c->geom = C->geom[k];
                c->phys = C->phys[k];
                c->cold = C->cold[k];
                if (C->ext_n) memcpy(c + 1, C->ext + (size_t)k * (size_t)C->ext_n, sizeof(double) * (size_t)C->ext_n);
                if (r != m->rank) cmig++;
            }
        }
        m->st.contacts_migrated += cmig;
    }
    int all_ok;
    MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_MIN, m->comm);
    if (!all_ok) {
        rc = grit_fail(s, GRIT_ENOMEM, "out of memory packing particles for the MPI re-partition");
        goto done;
    }
    /* particles */
    long pin = 0, cin = 0;
    int big = exchange_counts(m, pcnt, rp, sd, rd, sizeof(prec), &pin);
    const size_t cs = crec_size(s);
    big |= exchange_counts(m, ccnt, rc_, ccur, pcur, cs, &cin); /* (ccur, pcur reused as displacements) */
    int bad = big || !(precv = malloc((size_t)(pin > 0 ? pin : 1))) || !(crecv = malloc((size_t)(cin > 0 ? cin : 1)));
    int any_bad;
    MPI_Allreduce(&bad, &any_bad, 1, MPI_INT, MPI_MAX, m->comm);
    if (any_bad) {
        rc = grit_fail(s, big ? GRIT_EINVAL : GRIT_ENOMEM,
                       big ? "MPI re-partition: more than 2 GiB to send at once (use more ranks)"
                           : "out of memory receiving particles for the MPI re-partition");
        goto done;
    }
    {
        int *sb = malloc((size_t)P * sizeof(int)), *rb = malloc((size_t)P * sizeof(int));
        int mem_ok = sb && rb, all_mem;
        MPI_Allreduce(&mem_ok, &all_mem, 1, MPI_INT, MPI_MIN, m->comm);
        if (!all_mem) {
            free(sb), free(rb);
            rc = grit_fail(s, GRIT_ENOMEM, "out of memory in the MPI re-partition");
            goto done;
        }
        for (int r = 0; r < P; r++) {
            sb[r] = pcnt[r] * (int)sizeof(prec);
            rb[r] = rp[r] * (int)sizeof(prec);
        }
        MPI_Alltoallv(psend, sb, sd, MPI_BYTE, precv, rb, rd, MPI_BYTE, m->comm);
        for (int r = 0; r < P; r++) {
            sb[r] = ccnt[r] * (int)cs;
            rb[r] = rc_[r] * (int)cs;
        }
        MPI_Alltoallv(csend, sb, ccur, MPI_BYTE, crecv, rb, pcur, MPI_BYTE, m->comm);
        double sent = 0;
        for (int r = 0; r < P; r++)
            if (r != m->rank) sent += (double)pcnt[r] * sizeof(prec) + (double)ccnt[r] * (double)cs;
        m->st.bytes_sent += sent;
        free(sb), free(rb);
    }
    /* the new local scene: shared particles kept, in their order, then what came */
    const long np_in = pin / (long)sizeof(prec), nc_in = cin / (long)cs;
    int w = 0;
    for (int i = 0; i < b->n; i++) {
        if (b->flags[i] & PF_SHARED) {
            if (w != i) grit_bodies_move(b, w, i);
            s->id2idx[b->id[w]] = w;
            w++;
        } else {
            s->id2idx[b->id[i]] = -1;
        }
    }
    b->n = w;
    if (np_in > 0 && b->n + np_in > b->cap && grit_bodies_reserve(b, (int)(b->n + np_in))) bad = 1;
    if (!bad && nc_in > C->cap && grit_contacts_reserve(C, (int)nc_in)) bad = 1;
    MPI_Allreduce(&bad, &any_bad, 1, MPI_INT, MPI_MAX, m->comm);
    if (any_bad) {
        /* the scene lost its moving particles: it cannot go on */
        rc = grit_fail(s, GRIT_ENOMEM, "out of memory installing the MPI re-partition (the scene is lost)");
        goto done;
    }
    for (long k = 0; k < np_in; k++) {
        const prec *o = &precv[k];
        if (o->id < 0 || o->id >= s->id_cap) {
            rc = grit_fail(s, GRIT_ESTATE, "MPI re-partition: particle id %d out of range", o->id);
            goto done;
        }
        const int i = b->n++;
        unpack_particle(s, i, o);
        s->id2idx[o->id] = i;
    }
    if (ghost_lists(s, halo)) {
        rc = grit_fail(s, GRIT_ENOMEM, "out of memory for the MPI ghost lists");
        goto done;
    }
    /* contacts */
    C->n = 0;
    for (long k = 0; k < nc_in; k++) {
        const crec *c = (const crec *)(crecv + cs * (size_t)k);
        const int a = grit_idx(s, c->ida), bb = grit_idx(s, c->idb);
        if (a < 0 || bb < 0) {
            rc = grit_fail(s, GRIT_ESTATE, "MPI re-partition: contact %d-%d arrived without its particles (halo %g m)",
                           c->ida, c->idb, halo);
            goto done;
        }
        const int q = C->n++;
        C->pair[q] = c->pair;
        C->pair[q].a = a;
        C->pair[q].b = bb;
        C->geom[q] = c->geom;
        C->phys[q] = c->phys;
        C->cold[q] = c->cold;
        if (C->ext_n) memcpy(C->ext + (size_t)q * (size_t)C->ext_n, c + 1, sizeof(double) * (size_t)C->ext_n);
    }
    for (int k = 0; k <= GRIT_BLOCK_MAX; k++) C->block_start[k] = 0, C->pot_start[k] = 0;
    C->n_pot = 0;
    C->n_promoted = 0;
    C->adj_ok = false;
    s->gen_bodies++;
    s->gen_contacts++;
    s->need_rebuild = true;
    s->max_disp2 = 0;
    m->disp2 = 0;
    s->mpi_partial = !(m->gather && m->rank == 0);
    m->st.redistributions++;
    rc = GRIT_OK;
done:
    free(pcnt), free(ccnt), free(pdest), free(pcur), free(ccur), free(rp), free(rc_), free(sd), free(rd);
    free(psend), free(precv), free(csend), free(crecv), free(owner);
    return rc;
}
