/* grit: the contact loop.
 *
 * Contacts are stored in blocks of one (geometry functor, law). For each
 * block one loop is compiled per (geometry functor, law, energy tracking
 * on/off, periodic or not) through the always-inlined run_block
 * "template", so that nothing is dispatched per contact and the plain step
 * pays nothing for energy bookkeeping. The instances are generated from the
 * registration lists GRIT_CG2_LIST (cg2/cg2.h) and GRIT_LAWS (grit/law.h). */
#include "contact/contact_loop.h"

#include "cg2/all.h"
#include "contact/adjacency.h"
#include "contact/contact_block.h"
#include "contact/ss_cpm_simd.h"
#include "contact/ss_hertz_simd.h"
#include "contact/ss_idealelpl_simd.h"
#include "contact/ss_kuhn_simd.h"
#include "core/cell_impl.h"
#include "core/clock.h"
#include "core/energy_share.h"
#include "core/storage.h"
#include "core/threads.h"

#include <stdlib.h>
#include <string.h>
#include "law2/all.h"

static const int law_ext_n[GRIT_LAW_COUNT] = {
#define EXT_N(U, l, phys, name) [GRIT_LAW_##U] = GRIT_LAW_##U##_EXT_N,
    GRIT_LAWS(EXT_N)
#undef EXT_N
};

int grit_law_ext_n(int law) { return law >= 0 && law < GRIT_LAW_COUNT ? law_ext_n[law] : 0; }

/* The state a law needs in this scene: its own, and IdealElPl's dashpot
 * share while its tangential dashpot is on. */
static int law_ext_need(const grit_scene *s, int law)
{
    if (law == GRIT_LAW_IDEALELPL && s->laws.idealelpl.ct_div_cn != 0) return GRIT_IDEALELPL_DASHPOT_EXT_N;
    return law_ext_n[law];
}

int grit_contact_prepare(grit_scene *s)
{
    /* the largest state of the laws in use (a scene without materials has
     * no contacts) */
    int n = s->c.ext_n;
    for (int k = 0; k < s->pair_table_n * s->pair_table_n; k++) {
        if (s->pair_table[k].phys == GRIT_PHYS_NONE) continue;
        int need = law_ext_need(s, s->pair_table[k].law);
        /* hertz contacts without rolling resistance keep to one cache line */
        if (s->pair_table[k].law == GRIT_LAW_HERTZ &&
            grit_hertz_rolling_of(s, k / s->pair_table_n, k % s->pair_table_n) == GRIT_ROLLING_NONE)
            need = GRIT_HERTZ_HOT_N;
        if (need > n) n = need;
    }
    if (n != s->c.ext_n && grit_contacts_set_ext_n(&s->c, n))
        return grit_fail(s, GRIT_ENOMEM, "out of memory for the per-contact state of the contact laws");
    /* IdealElPl's dashpot switched on: its contacts' ext rows may hold
     * another law's state; their dashpot share is zero */
    const bool ct_on = s->laws.idealelpl.ct_div_cn != 0;
    if (ct_on && !s->idealelpl_ct_on)
        for (int k = 0; k < s->c.n; k++)
            if (s->c.pair[k].law == GRIT_LAW_IDEALELPL)
                s->c.ext[(size_t)k * (size_t)s->c.ext_n] = s->c.ext[(size_t)k * (size_t)s->c.ext_n + 1] = 0;
    s->idealelpl_ct_on = ct_on;
    return GRIT_OK;
}

#define RUN_FLAT(CG2, LAW, CREATE, TORQUE)                                   \
    (track ? run_block(s, lo, hi, CG2, LAW, CREATE, true, TORQUE, E)          \
           : run_block(s, lo, hi, CG2, LAW, CREATE, false, TORQUE, E))
/* periodic cell: B at its image (contact_block.h) */
#define RUN_CELL(CG2, LAW, CREATE, TORQUE)                                   \
    (track ? run_block_cell(s, lo, hi, CG2, LAW, CREATE, true, TORQUE, true, E) \
           : run_block_cell(s, lo, hi, CG2, LAW, CREATE, false, TORQUE, true, E))

/* One geometry functor under every law: inlined once per functor, so that
 * each (functor, law) gets its own loop. */
static inline __attribute__((always_inline)) int run_laws(grit_scene *s, int law, int lo, int hi, cg2_fn cg2,
                                                          grit_law_energy *E)
{
    const bool track = s->def.track_energy;
    switch (law) {
#define CASE(U, l, phys, name)                                                                         \
    case GRIT_LAW_##U:                                                                                 \
        return s->cell ? RUN_CELL(cg2, law_##l, create_##l, GRIT_LAW_##U##_TORQUE)                     \
                       : RUN_FLAT(cg2, law_##l, create_##l, GRIT_LAW_##U##_TORQUE);
        GRIT_LAWS(CASE)
#undef CASE
    default: return 0;
    }
}

/* Contacts [lo, hi) of one block; returns how many are real afterwards. */
static int run_range(grit_scene *s, int kind, int law, int lo, int hi, grit_law_energy *E)
{
    if (kind == GRIT_CG2_SPHERE_SPHERE && s->def.simd) { /* the vectorised kernels */
        const bool track = s->def.track_energy;
        /* (the tangential dashpots take the scalar path) */
        if (law == GRIT_LAW_IDEALELPL && !s->eqlb_used && s->laws.idealelpl.ct_div_cn == 0)
            return grit_ss_idealelpl_simd(s, lo, hi, track, E);
        if (law == GRIT_LAW_KUHN && s->laws.kuhn.kuhn_ct_div_cn == 0) return grit_ss_kuhn_simd(s, lo, hi, track, E);
        if (law == GRIT_LAW_CPM) return grit_ss_cpm_simd(s, lo, hi, track, E);
        if (law == GRIT_LAW_HERTZ) return grit_ss_hertz_simd(s, lo, hi, track, E);
    }
    switch (kind) {
#define CASE(K, fn, A, B, name) \
    case GRIT_CG2_##K: return run_laws(s, law, lo, hi, fn, E);
        GRIT_CG2_LIST(CASE)
#undef CASE
    default: return 0;
    }
}

/* Room for the force records of contacts [0, n). */
static int cf_reserve(grit_contacts *C, int n)
{
    if (n <= C->cf_cap) return 0;
    const int cap = n + n / 4 + 64;
    grit_cforce *cf = realloc(C->cf, (size_t)cap * sizeof *cf);
    if (!cf) return -1;
    C->cf = cf;
    uint8_t *fon = realloc(C->fon, (size_t)cap);
    if (!fon) return -1;
    C->fon = fon;
    C->cf_cap = cap;
    return 0;
}

/* Contact k's force on particle i (its A or B). */
static inline void cforce_add(grit_ft *ft, const grit_cforce *cf, bool is_b)
{
    if (is_b) {
        ft->f = v3_sub(ft->f, cf->f);
        ft->t = v3_add(ft->t, cf->tb);
    } else {
        ft->f = v3_add(ft->f, cf->f);
        ft->t = v3_add(ft->t, cf->ta);
    }
}

/* The contacts [lo, hi) that applied a force, added to their particles in
 * contact order (one thread). */
static void scatter_range(grit_scene *s, int lo, int hi)
{
    const grit_contacts *C = &s->c;
    grit_ft *ft = s->b.ft;
    for (int k = lo; k < hi; k++)
        if (C->fon[k]) {
            cforce_add(&ft[C->pair[k].a], &C->cf[k], false);
            cforce_add(&ft[C->pair[k].b], &C->cf[k], true);
        }
}

/* Every particle gets the forces of its contacts in the blocks, in contact
 * order; particles are independent, so the threads share them freely.
 * id_order: the lists are in key order, and the contacts created since they
 * were made (extras) are merged in by key. */
static void gather_forces(grit_scene *s, int nt)
{
    const grit_contacts *C = &s->c;
    const int32_t *st = C->adj_start, *adj = C->adj;
    const grit_cforce *cf = C->cf;
    const uint8_t *fon = C->fon;
    grit_ft *ft = s->b.ft;
    const int np = s->b.n;
    const grit_adj_extra *xs = C->n_extra ? C->extra : NULL;
    const int32_t *xfirst = C->extra_first;
    const int nx = C->n_extra;
#pragma omp parallel for schedule(static, 256) num_threads(nt) if (grit_par(s, np))
    for (int i = 0; i < np; i++) {
        grit_ft acc = ft[i];
        if (xs && xfirst[i] >= 0) {
            int e = st[i], x = xfirst[i];
            const int e_end = st[i + 1];
            while (e < e_end || (x < nx && xs[x].p == i)) {
                int32_t slot;
                if (x < nx && xs[x].p == i && (e == e_end || xs[x].key < grit_adjacency_key(s, adj[e])))
                    slot = xs[x++].e;
                else
                    slot = adj[e++];
                const int k = slot >> 1;
                if (fon[k]) cforce_add(&acc, &cf[k], slot & 1);
            }
        } else {
            for (int e = st[i]; e < st[i + 1]; e++) {
                const int k = adj[e] >> 1;
                if (fon[k]) cforce_add(&acc, &cf[k], adj[e] & 1);
            }
        }
        ft[i].f = acc.f;
        ft[i].t = acc.t;
    }
}

/* `book`: with the energy (MPI: not that of the contacts another rank books) */
static void add_energy(grit_law_energy *to, const grit_law_energy *e, bool book)
{
    if (book) {
        to->elast += e->elast;
        to->plast += e->plast;
        to->visc += e->visc;
        to->broken += e->broken;
        to->damage += e->damage;
    }
    to->cohesive_broken += e->cohesive_broken;
    to->failed += e->failed;
}

/* Potential pairs of one block: a pair whose shapes touch is appended to the
 * contact list, where it is created and gets its first force at once. */
static int promote_range(grit_scene *s, int kind, int law, int lo, int hi, grit_law_energy *E)
{
    grit_contacts *C = &s->c;
    int n_real = 0;
    for (int k = lo; k < hi; k++) {
        grit_pair *pp = &C->pot[k];
        if (pp->flags & CF_PROMOTED) continue;
        grit_cg2_out o;
        const grit_vec3 shift = s->cell ? m3_mul_k(&s->cell->H, pp->cell) : v3_zero(); /* periodic image */
        if (!grit_cg2_eval(s, kind, pp->a, pp->b, shift, false, NULL, &o)) continue;
        if ((C->n == C->cap && grit_contacts_reserve(C, C->cap + C->cap / 4 + 64)) || cf_reserve(C, C->n + 1))
            return grit_fail(s, GRIT_ENOMEM, "out of memory adding a contact");
        int q = C->n++;
        s->gen_contacts++; /* one more row in the contact arrays (views: arrays.h) */
        C->pair[q] = *pp;
        C->pair[q].flags = 0;
        pp->flags |= CF_PROMOTED;
        C->n_promoted++;
        C->fon[q] = 0;
        if (grit_energy_books_contact(s, &C->pair[q])) {
            n_real += run_range(s, kind, law, q, q + 1, E);
        } else { /* (MPI: its energy is another rank's share) */
            grit_law_energy e = {0, 0, 0, 0, 0, 0, 0};
            n_real += run_range(s, kind, law, q, q + 1, &e);
            add_energy(E, &e, false);
        }
        /* after every older contact: contact order (by id: in the gather) */
        if (!s->def.id_order) scatter_range(s, q, q + 1);
    }
    return n_real;
}

/* One piece of the contact list for one thread: contacts [lo, hi) of one
 * (kind, law), at most GRIT_CCHUNK; what it sums stays in it until the
 * pieces are added in order. */
typedef struct chunk {
    int kind, law, lo, hi;
    int n_real;
    double time;
    grit_law_energy E;
    bool book; /* MPI: its energy is this rank's share (energy_share.h) */
} chunk;

/* The pieces of [lo, hi), one (kind, law); with ch NULL, only how many.
 * On MPI ranks with track_energy, a piece holds contacts this rank books or
 * contacts it does not, never both. */
static int split(const grit_scene *s, chunk *ch, int n, int kind, int law, int lo, int hi)
{
    const bool by_book = s->mpi && s->def.track_energy;
    for (int a = lo, b; a < hi; a = b) {
        b = a + GRIT_CCHUNK < hi ? a + GRIT_CCHUNK : hi;
        bool book = true;
        if (by_book) {
            book = grit_energy_books_contact(s, &s->c.pair[a]);
            for (int k = a + 1; k < b; k++)
                if (grit_energy_books_contact(s, &s->c.pair[k]) != book) {
                    b = k;
                    break;
                }
        }
        if (ch) ch[n] = (chunk){kind, law, a, b, 0, 0, {0, 0, 0, 0, 0, 0, 0}, book};
        n++;
    }
    return n;
}

/* Time the blocks share, booked to the pieces by their contacts. */
static void share_time(grit_scene *s, const chunk *ch, int n_ch, int n_old, double shared)
{
    if (n_old > 0)
        for (int c = 0; c < n_ch; c++)
            s->time_block[grit_block_of(ch[c].kind, ch[c].law)] += shared * (double)(ch[c].hi - ch[c].lo) / n_old;
}

int grit_contact_loop(grit_scene *s)
{
    /* The loop's time is booked to its blocks (grit_functor_times) without a
     * gap on the calling thread: each piece from the thread's previous clock
     * read, and the work the blocks share (setting up the pieces, adding
     * their sums, the gather) by their contacts. Two clock reads per piece
     * and step, not per contact. */
    const double t_start = grit_cpu_now();
    grit_law_energy E = {0, 0, 0, 0, 0, 0, 0};
    grit_contacts *C = &s->c;
    int n_real = 0;
    if (s->laws.idealelpl.ini_eqlb) s->eqlb_used = true;
    const int n_blk = C->block_start[GRIT_BLOCK_COUNT], n_old = C->n;
    /* (the broad phase has made the particles' contact lists; this only
     * catches a caller that ran the loop without it) */
    const bool by_id = s->def.id_order; /* (whose lists are made after the promotions) */
    if (cf_reserve(C, n_old + 1) || (!by_id && grit_adjacency_update(s)))
        return grit_fail(s, GRIT_ENOMEM, "out of memory for the contact loop's force records");
    /* the pieces: every block, then the contacts created since the last
     * rebuild (runs of one block: promotions come block by block) */
    int n_ch = 0;
    if (s->mpi && s->def.track_energy) /* (more pieces: split also where the booking changes) */
        for (int b = 0; b < GRIT_BLOCK_COUNT; b++)
            n_ch = split(s, NULL, n_ch, b / GRIT_LAW_COUNT, b % GRIT_LAW_COUNT, C->block_start[b], C->block_start[b + 1]);
    else
        for (int b = 0; b < GRIT_BLOCK_COUNT; b++)
            n_ch += grit_chunks(C->block_start[b + 1] - C->block_start[b], GRIT_CCHUNK);
    n_ch += n_old - n_blk; /* at most one piece per contact */
    chunk *ch = grit_scratch(s, (size_t)(n_ch > 0 ? n_ch : 1) * sizeof *ch);
    if (!ch) return grit_fail(s, GRIT_ENOMEM, "out of memory for the contact loop's pieces");
    n_ch = 0;
    for (int b = 0; b < GRIT_BLOCK_COUNT; b++)
        n_ch = split(s, ch, n_ch, b / GRIT_LAW_COUNT, b % GRIT_LAW_COUNT, C->block_start[b], C->block_start[b + 1]);
    for (int k = n_blk, k2; k < n_old; k = k2) {
        const grit_pair *p = &C->pair[k];
        for (k2 = k + 1; k2 < n_old && C->pair[k2].kind == p->kind && C->pair[k2].law == p->law; k2++) {}
        n_ch = split(s, ch, n_ch, p->kind, p->law, k, k2);
    }
    const int nt = grit_nthreads(s);
    const double t_pieces = grit_cpu_now();
    double t_last = t_pieces; /* the calling thread's last clock read in the pieces */
#pragma omp parallel num_threads(nt) if (n_ch > 1 && grit_par(s, n_old))
    {
        const bool caller = grit_thread_num() == 0;
        double t0 = caller ? t_pieces : grit_cpu_now();
#pragma omp for schedule(dynamic, 1)
        for (int c = 0; c < n_ch; c++) {
            chunk *q = &ch[c];
            memset(C->fon + q->lo, 0, (size_t)(q->hi - q->lo));
            q->n_real = run_range(s, q->kind, q->law, q->lo, q->hi, &q->E);
            const double t1 = grit_cpu_now();
            q->time = t1 - t0;
            t0 = t1;
        }
        if (caller) t_last = t0;
    }
    for (int c = 0; c < n_ch; c++) {
        n_real += ch[c].n_real;
        add_energy(&E, &ch[c].E, ch[c].book);
        s->time_block[grit_block_of(ch[c].kind, ch[c].law)] += ch[c].time;
    }
    /* the forces: each particle sums its block contacts' (in parallel), then
     * the newer contacts and the promotions follow, in contact order; by
     * id, every contact at once after the promotions */
    if (!by_id) {
        C->n_extra = 0;
        gather_forces(s, nt);
        scatter_range(s, n_blk, n_old);
    }
    double t = grit_cpu_now(), t1;
    share_time(s, ch, n_ch, n_old, (t_pieces - t_start) + (t - t_last));
    for (int b = 0; b < GRIT_BLOCK_COUNT; b++) {
        if (C->pot_start[b] == C->pot_start[b + 1]) continue;
        int r = promote_range(s, b / GRIT_LAW_COUNT, b % GRIT_LAW_COUNT, C->pot_start[b], C->pot_start[b + 1], &E);
        if (r < 0) return r;
        n_real += r;
        s->time_block[b] += (t1 = grit_cpu_now()) - t;
        t = t1;
    }
    if (by_id) {
        if (grit_adjacency_update(s) || grit_adjacency_extras(s))
            return grit_fail(s, GRIT_ENOMEM, "out of memory for the particles' contact lists");
        gather_forces(s, nt);
        share_time(s, ch, n_ch, n_old, grit_cpu_now() - t);
    }
    s->c.n_real = n_real;
    s->cpm_broken += E.cohesive_broken;
    if (E.failed)
        return grit_fail(s, GRIT_ENUMERIC,
                         "step %ld: the concrete law's scalar solver did not converge on %d contact%s (visco-damage or "
                         "visco-plasticity parameters out of its reach: dmg_tau, dmg_rate_exp, pl_tau, pl_rate_exp)",
                         s->step, E.failed, E.failed == 1 ? "" : "s");
    if (s->def.track_energy) {
        s->energy[GRIT_E_ELAST] += E.elast;
        s->energy[GRIT_E_PLAST] += E.plast;
        s->energy[GRIT_E_VISC] += E.visc;
        s->energy[GRIT_E_BROKEN] += E.broken;
        s->energy[GRIT_E_DAMAGE] += E.damage;
    }
    return GRIT_OK;
}

int grit_functor_times(const grit_scene *s, grit_functor_time *out, int cap)
{
    int n = 0;
    for (int b = 0; b < GRIT_BLOCK_COUNT; b++) {
        if (!(s->time_block[b] > 0)) continue;
        if (n < cap && out) {
            snprintf(out[n].name, sizeof out[n].name, "%s/%s", grit_cg2_names[b / GRIT_LAW_COUNT],
                     grit_law_name(b % GRIT_LAW_COUNT));
            out[n].seconds = s->time_block[b];
        }
        n++;
    }
    return n;
}
