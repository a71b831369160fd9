/* grit MPI: spreading a scene, the step's exchange and the agreement on
 * errors (grit/mpi.h, docs/parallel.md).
 *
 * A step on K ranks: every rank integrates its particles (the leapfrog),
 * sends the new states of the particles other ranks hold copies of, and the
 * ranks agree whether to rebuild (any of them would: then all re-partition,
 * redistribute.c); then each runs its broad phase and contact loop alone.
 *
 * Errors: a collective call waits for every rank, so a rank that fails must
 * still meet the others. Every step has exactly one agreement that every
 * rank reaches whatever happened before it: the one opening the exchange for
 * a rank that got there, the one closing the step (grit_step) for a rank
 * that failed before. Both are the same reduction, so they match. An error
 * agreed inside the exchange makes the step's closing agreement a no-op. */
#include <stdlib.h>
#include <string.h>

#include "cg2/cg2.h"
#include "collide/broadphase.h"
#include "collide/verlet_auto.h"
#include "core/energy_share.h"
#include "mpi/mpi_impl.h"

enum { STATE_DOUBLES = 17 }; /* a ghost's update: position, radius, v, w, orientation, angular momentum */

int grit_mpi_reserve(void **p, size_t *cap, size_t bytes)
{
    if (bytes <= *cap) return 0;
    void *q = realloc(*p, bytes);
    if (!q) return -1;
    *p = q;
    *cap = bytes;
    return 0;
}

/* The agreement on comm, for a scene that may not be spread yet. */
static int agree_on(MPI_Comm comm, grit_scene *s, int rc)
{
    int rank = 0;
    MPI_Comm_rank(comm, &rank);
    int in[2] = {rc, rank}, out[2];
    MPI_Allreduce(in, out, 1, MPI_2INT, MPI_MINLOC, comm);
    if (out[0] == 0) return GRIT_OK;
    char msg[sizeof s->err];
    if (rank == out[1]) memcpy(msg, s->err, sizeof msg);
    MPI_Bcast(msg, (int)sizeof msg, MPI_CHAR, out[1], comm);
    msg[sizeof msg - 1] = 0;
    return grit_fail(s, out[0], "MPI rank %d: %s", out[1], msg);
}

int grit_mpi_agree_now(grit_scene *s, int rc) { return agree_on(s->mpi->comm, s, rc); }

/* The energy book at the step's end: the ranks' shares summed (each rank
 * booked its own particles and the contacts it books, energy_share.h), the
 * same sums on every rank. Only after the step's status is agreed, so that
 * every rank makes this call or none. */
static int sum_energy(grit_scene *s, int rc)
{
    if (rc) return grit_energy_share_close(s, NULL), rc;
    double share[GRIT_E_COUNT], sum[GRIT_E_COUNT];
    memcpy(share, s->energy, sizeof share);
    MPI_Allreduce(share, sum, GRIT_E_COUNT, MPI_DOUBLE, MPI_SUM, s->mpi->comm);
    return grit_energy_share_close(s, sum);
}

static int agree_hook(grit_scene *s, int rc)
{
    struct grit_mpi *m = s->mpi;
    if (m->skip_agree) m->skip_agree = false; /* (agreed in the exchange already) */
    else rc = grit_mpi_agree_now(s, rc);
    if (s->def.track_energy) rc = sum_energy(s, rc);
    return rc;
}

static void put_state(const grit_scene *s, int i, double *o)
{
    const grit_posr *pr = &s->b.pr[i];
    const grit_velw *vw = &s->b.vw[i];
    const grit_quat q = s->b.ori[i];
    const grit_vec3 L = s->b.angmom[i];
    const double v[STATE_DOUBLES] = {pr->pos.x, pr->pos.y, pr->pos.z, pr->r, vw->v.x, vw->v.y, vw->v.z, vw->w.x, vw->w.y,
                                     vw->w.z, q.w,      q.x,      q.y,      q.z,   L.x,     L.y,     L.z};
    memcpy(o, v, sizeof v);
}

static void get_state(grit_scene *s, int i, const double *o)
{
    s->b.pr[i] = (grit_posr){{o[0], o[1], o[2]}, o[3]};
    s->b.vw[i].v = (grit_vec3){o[4], o[5], o[6]};
    s->b.vw[i].w = (grit_vec3){o[7], o[8], o[9]};
    s->b.ori[i] = (grit_quat){o[10], o[11], o[12], o[13]};
    s->b.angmom[i] = (grit_vec3){o[14], o[15], o[16]};
}

/* The ghosts get their owners' states of now. */
static int update_ghosts(grit_scene *s)
{
    struct grit_mpi *m = s->mpi;
    const int P = m->size;
    int ok = !grit_mpi_reserve((void **)&m->sbuf, &m->sbuf_cap, sizeof(double) * STATE_DOUBLES * (size_t)(m->send.n + 1)) &&
             !grit_mpi_reserve((void **)&m->rbuf, &m->rbuf_cap, sizeof(double) * STATE_DOUBLES * (size_t)(m->recv.n + 1));
    int all_ok;
    MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_MIN, m->comm);
    if (!all_ok) return grit_fail(s, GRIT_ENOMEM, "out of memory for the MPI ghosts' update");
    int so = 0, ro = 0;
    double sent = 0;
    for (int r = 0; r < P; r++) {
        m->scnt[r] = m->send.cnt[r] * STATE_DOUBLES;
        m->rcnt[r] = m->recv.cnt[r] * STATE_DOUBLES;
        m->sdispl[r] = so;
        m->rdispl[r] = ro;
        for (int t = 0; t < m->send.cnt[r]; t++) {
            const int i = grit_idx(s, m->send.ids[m->send.off[r] + t]);
            put_state(s, i, m->sbuf + so + STATE_DOUBLES * t);
        }
        so += m->scnt[r];
        ro += m->rcnt[r];
        if (r != m->rank) sent += sizeof(double) * (double)m->scnt[r];
    }
    MPI_Alltoallv(m->sbuf, m->scnt, m->sdispl, MPI_DOUBLE, m->rbuf, m->rcnt, m->rdispl, MPI_DOUBLE, m->comm);
    for (int r = 0; r < P; r++)
        for (int t = 0; t < m->recv.cnt[r]; t++)
            get_state(s, grit_idx(s, m->recv.ids[m->recv.off[r] + t]), m->rbuf + m->rdispl[r] + STATE_DOUBLES * t);
    m->st.bytes_sent += sent;
    m->st.bytes_sent_per_step = sent;
    return GRIT_OK;
}

/* The automatic Verlet distance (verlet_dist=nan): the choice one process
 * makes at a rebuild, from the same figures of the whole scene. The largest
 * displacement since the last rebuild is the largest over the ranks of
 * their own particles' (the leapfrog's of a ghost moved it with the part of
 * its forces this rank knows; its owner's is the one-process value), kept
 * at every step; a maximum, so the same bits in any order. */
static void exact_disp2(grit_scene *s)
{
    struct grit_mpi *m = s->mpi;
    const grit_bodies *b = &s->b;
    double d2 = m->disp2;
    for (int i = 0; i < b->n; i++) {
        if (b->flags[i] & PF_GHOST) continue;
        const double w = v3_norm2(v3_sub(b->pr[i].pos, b->refpos[i])); /* (the leapfrog's sum) */
        if (w > d2) d2 = w;
    }
    m->disp2 = d2;
    MPI_Allreduce(&d2, &s->max_disp2, 1, MPI_DOUBLE, MPI_MAX, m->comm);
}

/* The skin for the next interval, before the re-partition (whose halo is
 * as wide as it needs): the census summed over the ranks (particles and
 * candidate pairs each counted by one rank: pairs by the rule of the energy
 * book, shared walls by rank 0), the same on every rank. */
static void auto_skin(grit_scene *s)
{
    struct grit_mpi *m = s->mpi;
    const grit_bodies *b = &s->b;
    const grit_contacts *C = &s->c;
    grit_verlet_census mine = {INFINITY, 0, 0, 0}, c;
    double cnt[2] = {0, 0}, sum[2];
    for (int i = 0; i < b->n; i++) {
        grit_verlet_census_add(s, i, &mine);
        if (!(b->flags[i] & (m->rank == 0 ? PF_GHOST : PF_GHOST | PF_SHARED))) cnt[0]++;
    }
    for (int k = 0; k < C->block_start[GRIT_BLOCK_COUNT]; k++) cnt[1] += grit_energy_books_contact(s, &C->pair[k]);
    for (int k = 0; k < C->n_pot; k++) cnt[1] += grit_energy_books_contact(s, &C->pot[k]);
    MPI_Allreduce(&mine.rmin, &c.rmin, 1, MPI_DOUBLE, MPI_MIN, m->comm);
    MPI_Allreduce(&mine.v2, &c.v2, 1, MPI_DOUBLE, MPI_MAX, m->comm);
    MPI_Allreduce(cnt, sum, 2, MPI_DOUBLE, MPI_SUM, m->comm); /* (whole numbers: exact in any order) */
    c.n = (int)sum[0];
    c.pairs = sum[1];
    s->verlet_dist = grit_verlet_auto_pick(s, s->max_disp2, &c);
}

static int exchange_hook(grit_scene *s, int rc)
{
    struct grit_mpi *m = s->mpi;
    rc = grit_mpi_agree_now(s, rc);
    if (rc == GRIT_OK) rc = update_ghosts(s);
    if (rc == GRIT_OK) {
        const bool autov = isnan(s->def.verlet_dist);
        if (autov) exact_disp2(s);
        int due = grit_collide_due(s), any;
        MPI_Allreduce(&due, &any, 1, MPI_INT, MPI_MAX, m->comm);
        /* (the rebuild that spreads a gathered scene again is not one that
         * one process makes: the skin stays; its census would count no
         * pairs, the gather having dropped them) */
        if (any && autov && s->verlet_dist > 0 && !m->keep_skin) auto_skin(s);
        if (any) {
            m->keep_skin = false;
            rc = grit_mpi_agree_now(s, grit_mpi_redistribute(s));
        }
    }
    if (rc) m->skip_agree = true;
    return rc;
}

static void free_mpi(struct grit_mpi *m)
{
    if (!m) return;
    free(m->bounds);
    free(m->send.ids), free(m->send.cnt), free(m->send.off);
    free(m->recv.ids), free(m->recv.cnt), free(m->recv.off);
    free(m->sbuf), free(m->rbuf);
    free(m->scnt), free(m->sdispl), free(m->rcnt), free(m->rdispl);
    free(m);
}

int grit_mpi_rank(void)
{
    int init = 0, r = 0;
    MPI_Initialized(&init);
    if (init) MPI_Comm_rank(MPI_COMM_WORLD, &r);
    return r;
}

int grit_mpi_size(void)
{
    int init = 0, n = 1;
    MPI_Initialized(&init);
    if (init) MPI_Comm_size(MPI_COMM_WORLD, &n);
    return n;
}

/* What cannot be spread yet, or GRIT_OK (the same on every rank: they
 * hold the same scene). */
static int check_spreadable(grit_scene *s)
{
    if (s->cell) return grit_fail(s, GRIT_ESTATE, "MPI: periodic cells are not spread over ranks yet");
    if (s->n_clumps) return grit_fail(s, GRIT_ESTATE, "MPI: clumps are not spread over ranks yet");
    if (s->n_inlets || s->n_outlets)
        return grit_fail(s, GRIT_ESTATE, "MPI: inlets and outlets are not spread over ranks yet");
    if (s->n_local6) return grit_fail(s, GRIT_ESTATE, "MPI: local-axes impositions (the law tester) run on one process");
    if (s->def.dyn_dt) return grit_fail(s, GRIT_ESTATE, "MPI: the adaptive step (dyn_dt) is not spread over ranks yet");
    for (int i = 0; i < s->b.n; i++) {
        if (s->b.shape[i] == GRIT_SHAPE_SPHERE) continue;
        if ((s->b.flags[i] & GRIT_BLOCK_ALL) != GRIT_BLOCK_ALL)
            return grit_fail(s, GRIT_ESTATE,
                             "MPI: particle %d is not a sphere and moves freely; only spheres move in a scene spread "
                             "over ranks yet (other shapes must have all six degrees of freedom blocked)",
                             s->b.id[i]);
    }
    return GRIT_OK;
}

int grit_mpi_distribute(grit_scene *s)
{
    int init = 0;
    MPI_Initialized(&init);
    if (!init) return grit_fail(s, GRIT_ESTATE, "grit_mpi_distribute: MPI_Init has not been called");
    if (s->mpi) { /* spread already, or gathered: spread again */
        s->mpi->gather = false;
        return grit_mpi_agree_now(s, grit_mpi_redistribute(s));
    }
    int rc = check_spreadable(s);
    double dt = 0;
    if (rc == GRIT_OK) rc = grit_check_dt(s, &dt);
    struct grit_mpi *m = NULL;
    if (rc == GRIT_OK) {
        m = calloc(1, sizeof *m);
        int P = 1;
        MPI_Comm_size(MPI_COMM_WORLD, &P);
        const size_t n = (size_t)P;
        if (m) {
            m->bounds = calloc(n + 1, sizeof(double));
            m->send.cnt = calloc(n, sizeof(int)), m->send.off = calloc(n, sizeof(int));
            m->recv.cnt = calloc(n, sizeof(int)), m->recv.off = calloc(n, sizeof(int));
            m->scnt = calloc(n, sizeof(int)), m->sdispl = calloc(n, sizeof(int));
            m->rcnt = calloc(n, sizeof(int)), m->rdispl = calloc(n, sizeof(int));
        }
        if (!m || !m->bounds || !m->send.cnt || !m->send.off || !m->recv.cnt || !m->recv.off || !m->scnt ||
            !m->sdispl || !m->rcnt || !m->rdispl) {
            free_mpi(m);
            m = NULL;
            rc = grit_fail(s, GRIT_ENOMEM, "out of memory for the MPI state");
        } else {
            m->comm = MPI_COMM_WORLD;
            m->size = P;
            MPI_Comm_rank(m->comm, &m->rank);
        }
    }
    /* the decisions one process makes from the whole scene, made once here
     * from the whole scene, so that the ranks' parts cannot change them */
    if (rc == GRIT_OK) {
        s->def.dt = s->dt = dt; /* (the critical step of a part is never smaller than the whole's) */
        /* (the automatic one is chosen again at every rebuild, from the
         * whole scene: exchange_hook) */
        const double vd = grit_verlet_dist(s);
        if (!isnan(s->def.verlet_dist)) s->def.verlet_dist = vd;
        s->def.id_order = true;
        for (int i = 0; i < s->b.n; i++)
            if (s->b.shape[i] == GRIT_SHAPE_SPHERE && s->b.pr[i].r > m->rmax) m->rmax = s->b.pr[i].r;
        grit_mpi_mark_shared(s);
        /* rank 0 hands everything out */
        if (m->rank != 0)
            for (int i = 0; i < s->b.n; i++)
                if (!(s->b.flags[i] & PF_SHARED)) s->b.flags[i] |= PF_GHOST;
        /* the energy book: ghosts are their owner's, shared walls rank 0's */
        s->energy_skip = (uint16_t)(m->rank == 0 ? PF_GHOST : PF_GHOST | PF_SHARED);
        s->mpi = m;
        s->mpi_free = free_mpi;
        s->mpi_exchange = exchange_hook;
        s->mpi_agree = agree_hook;
        rc = grit_mpi_redistribute(s);
    }
    /* (every rank got here: the checks above are the same on all) */
    return agree_on(MPI_COMM_WORLD, s, rc);
}

int grit_mpi_gather(grit_scene *s)
{
    struct grit_mpi *m = s->mpi;
    if (!m) return grit_fail(s, GRIT_ESTATE, "grit_mpi_gather: the scene was not spread (grit_mpi_distribute)");
    m->gather = true;
    int rc = grit_mpi_agree_now(s, grit_mpi_redistribute(s));
    m->gather = false;
    m->keep_skin = true;
    if (rc == GRIT_OK && m->rank == 0) /* a whole scene again, as one process holds it */
        for (int i = 0; i < s->b.n; i++) s->b.flags[i] &= (uint16_t)~PF_SHARED;
    return rc;
}

int grit_mpi_get_stats(const grit_scene *s, grit_mpi_stats *out)
{
    if (!out) return GRIT_EINVAL;
    if (!s->mpi) {
        memset(out, 0, sizeof *out);
        return GRIT_OK;
    }
    *out = s->mpi->st;
    return GRIT_OK;
}
