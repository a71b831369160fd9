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
#include "contact/contact_block.h"
#include "contact/ss_cpm_simd.h"
#include "contact/ss_hertz_simd.h"
#include "contact/ss_idealelpl_simd.h"
#include "contact/ss_kuhn_simd.h"
#include "core/cell_impl.h"
#include "core/clock.h"
#include "core/storage.h"
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
        if (C->n == C->cap && grit_contacts_reserve(C, C->cap + C->cap / 4 + 64))
            return grit_fail(s, GRIT_ENOMEM, "out of memory adding a contact");
        int q = C->n++;
        s->gen_contacts++; /* one more row in the contact arrays (views: arrays.h) */
        C->pair[q] = *pp;
        C->pair[q].flags = 0;
        pp->flags |= CF_PROMOTED;
        C->n_promoted++;
        n_real += run_range(s, kind, law, q, q + 1, E);
    }
    return n_real;
}

int grit_contact_loop(grit_scene *s)
{
    grit_law_energy E = {0, 0, 0, 0, 0, 0, 0};
    grit_contacts *C = &s->c;
    int n_real = 0;
    if (s->laws.idealelpl.ini_eqlb) s->eqlb_used = true;
    /* each run is timed for its block (grit_functor_times): two clock reads
     * per block and step, not per contact */
    double t = grit_cpu_now(), t1;
    for (int b = 0; b < GRIT_BLOCK_COUNT; b++)
        if (C->block_start[b] < C->block_start[b + 1]) {
            n_real += run_range(s, b / GRIT_LAW_COUNT, b % GRIT_LAW_COUNT, C->block_start[b], C->block_start[b + 1], &E);
            s->time_block[b] += (t1 = grit_cpu_now()) - t;
            t = t1;
        }
    /* contacts created since the last rebuild, outside the blocks */
    const int n_old = C->n;
    for (int k = C->block_start[GRIT_BLOCK_COUNT], k2; k < n_old; k = k2) {
        /* runs of one block (promotions come block by block): the block loops apply */
        const grit_pair *p = &C->pair[k];
        for (k2 = k + 1; k2 < n_old && C->pair[k2].kind == p->kind && C->pair[k2].law == p->law; k2++) {}
        n_real += run_range(s, p->kind, p->law, k, k2, &E);
        s->time_block[p->kind * GRIT_LAW_COUNT + p->law] += (t1 = grit_cpu_now()) - t;
        t = t1;
    }
    for (int b = 0; b < GRIT_BLOCK_COUNT; b++) {
        if (C->pot_start[b] == C->pot_start[b + 1]) continue;
        int r = promote_range(s, b / GRIT_LAW_COUNT, b % GRIT_LAW_COUNT, C->pot_start[b], C->pot_start[b + 1], &E);
        if (r < 0) return r;
        n_real += r;
        s->time_block[b] += (t1 = grit_cpu_now()) - t;
        t = t1;
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
