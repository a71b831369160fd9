/* grit: the law tester (spec 10.2): stages of prescribed local motion on two
 * particles, applied through local-axes impositions, and the contact's
 * response in the tester frame. */
#include <stdlib.h>
#include <string.h>

#include "cg2/l6geom.h"
#include "core/storage.h"
#include "tester/tester_impl.h"

grit_tester_def grit_default_tester_def(void) { return (grit_tester_def){GRIT_TESTER_PARAMS(GRIT_PARAM_DEFAULT)}; }

#define TESTER_INFO(...) GRIT_PARAM_INFO(grit_tester_def, __VA_ARGS__)
static const grit_param_info tester_params[] = {GRIT_TESTER_PARAMS(TESTER_INFO)};
const grit_param_table grit_tester_param_table = {"tester", tester_params,
                                                  (int)(sizeof tester_params / sizeof tester_params[0])};

grit_tester_stage grit_default_tester_stage(void)
{
    return (grit_tester_stage){.whats = "......", .until = {GRIT_TQ_NONE, 0, GRIT_OP_LT, 0.0}, .until_every = 1};
}

/* six letters of "vif." */
static bool whats_ok(const char *w) { return strnlen(w, 7) == 6 && strspn(w, "vif.") == 6; }
#define WHATS_RULE "must be 6 letters of v (velocity), i (initial velocity), f (force), . (free)"

int grit_tester_stage_parse(grit_tester_stage *st, const char *values, const char *whats, const char *until,
                            char *err, size_t errlen)
{
    char dummy[8];
    if (!err) err = dummy, errlen = sizeof dummy;
    grit_tester_stage n = *st;
    if (values) {
        const char *p = values;
        for (int j = 0; j < 6; j++) {
            char *end;
            n.values[j] = strtod(p, &end);
            if (end == p || !isfinite(n.values[j])) {
                snprintf(err, errlen, "tester stage: values '%s': item %d is not a finite number", values, j);
                return -1;
            }
            p = end;
            while (*p == ' ') p++;
            if (j < 5 && *p++ != ',') {
                snprintf(err, errlen, "tester stage: values '%s' must be 6 numbers separated by commas", values);
                return -1;
            }
        }
        if (*p) {
            snprintf(err, errlen, "tester stage: values '%s' has more than 6 numbers", values);
            return -1;
        }
    }
    if (whats) {
        if (!whats_ok(whats)) {
            snprintf(err, errlen, "tester stage: whats '%s' " WHATS_RULE, whats);
            return -1;
        }
        memcpy(n.whats, whats, 7);
    }
    if (until && grit_tester_cond_parse(until, &n.until, err, errlen)) return -1;
    *st = n;
    return 0;
}

static void state_nan(grit_tester_state *st)
{
    double *vecs[] = {st->f,         st->v,         st->u,         st->k,         st->smoo_f,
                      st->smoo_u,    st->smoo_v,    st->f_err_rel, st->f_err_abs, st->u_err_rel,
                      st->u_err_abs, st->v_err_rel, st->v_err_abs};
    for (size_t a = 0; a < sizeof vecs / sizeof vecs[0]; a++)
        for (int j = 0; j < 6; j++) vecs[a][j] = NAN;
    st->work = NAN;
}

grit_tester *grit_tester_create(grit_scene *s, int id_a, int id_b, const grit_tester_def *def)
{
    grit_tester_def d = def ? *def : grit_default_tester_def();
    if (grit_param_validate(&grit_tester_param_table, &d, s->err, sizeof s->err)) return NULL;
    if (grit_idx(s, id_a) < 0 || grit_idx(s, id_b) < 0 || id_a == id_b) {
        grit_fail(s, GRIT_EINVAL, "tester: ids (%d, %d) must be two different existing particles", id_a, id_b);
        return NULL;
    }
    grit_tester *t = calloc(1, sizeof *t);
    if (!t) {
        grit_fail(s, GRIT_ENOMEM, "tester: out of memory");
        return NULL;
    }
    t->s = s;
    t->ids[0] = id_a;
    t->ids[1] = id_b;
    t->def = d;
    t->stage_t0 = -1;
    t->cols = grit_tester_record_columns(t);
    state_nan(&t->st);
    t->st.time_c0 = NAN;
    t->st.dist = NAN;
    return t;
}

static int clear_impositions(grit_tester *t);

void grit_tester_destroy(grit_tester *t)
{
    if (!t) return;
    if (t->installed) clear_impositions(t); /* a tester stopped half-way leaves no motion behind */
    free(t->stages);
    free(t->rec);
    free(t);
}

int grit_tester_add_stage(grit_tester *t, const grit_tester_stage *st)
{
    grit_scene *s = t->s;
    if (!whats_ok(st->whats))
        return grit_fail(s, GRIT_EINVAL, "tester stage %d: whats '%.7s' " WHATS_RULE, t->n_stages, st->whats);
    for (int j = 0; j < 6; j++) {
        if (!isfinite(st->values[j]))
            return grit_fail(s, GRIT_EINVAL, "tester stage %d: values[%d] = %g is not finite", t->n_stages, j,
                             st->values[j]);
    }
    if (grit_tester_cond_check(&st->until, s->err, sizeof s->err)) return GRIT_EINVAL;
    if (st->until.quantity == GRIT_TQ_NONE && !st->until_fn)
        return grit_fail(s, GRIT_EINVAL, "tester stage %d: no end condition (until or until_fn)", t->n_stages);
    if (st->until_every < 1)
        return grit_fail(s, GRIT_EINVAL, "tester stage %d: until_every = %ld must be >= 1", t->n_stages,
                         st->until_every);
    if (st->reset_energy >> GRIT_E_COUNT)
        return grit_fail(s, GRIT_EINVAL, "tester stage %d: reset_energy = %#x names entries beyond %d", t->n_stages,
                         st->reset_energy, GRIT_E_COUNT - 1);
    if (t->n_stages == t->cap_stages) {
        int cap = t->cap_stages ? 2 * t->cap_stages : 8;
        if (grit_grow((void **)&t->stages, sizeof *t->stages, cap)) return grit_fail(s, GRIT_ENOMEM, "tester: out of memory");
        t->cap_stages = cap;
    }
    t->stages[t->n_stages++] = *st;
    return GRIT_OK;
}

int grit_tester_stage_count(const grit_tester *t) { return t->n_stages; }
bool grit_tester_done(const grit_tester *t) { return t->st.stage >= t->n_stages; }
const grit_tester_state *grit_tester_get_state(const grit_tester *t) { return &t->st; }

/* The real contact between internal indices a and b, or -1. */
static int find_contact(const grit_scene *s, int a, int b)
{
    for (int k = 0; k < s->c.n; k++) {
        const grit_pair *p = &s->c.pair[k];
        if ((p->flags & CF_REAL) && ((p->a == a && p->b == b) || (p->a == b && p->b == a))) return k;
    }
    return -1;
}

/* The tester frame (spec 10.2 step 3, used as global -> local throughout):
 * the contact's, turned by pi about its z axis when the contact is stored
 * as (B, A) so that x points from A to B; without contact the frame of
 * spec 1.2 for <x_B - x_A>. */
static int tester_frame(grit_tester *t, int k, int ia, int ib)
{
    grit_scene *s = t->s;
    grit_tester_state *st = &t->st;
    if (k >= 0) {
        const grit_l6geom *g = &s->c.geom[k];
        st->flipped = s->c.pair[k].a != ia;
        double sg = st->flipped ? -1.0 : 1.0;
        st->axes[0] = v3_scale(g->ex, sg);
        st->axes[1] = v3_scale(g->ey, sg);
        st->axes[2] = l6_ez(g);
        return GRIT_OK;
    }
    grit_vec3 d = v3_sub(s->b.pr[ib].pos, s->b.pr[ia].pos);
    double len = v3_norm(d);
    if (!(len > 0))
        return grit_fail(s, GRIT_ESTATE, "tester: particles %d and %d are at the same position, no normal", t->ids[0],
                         t->ids[1]);
    grit_vec3 n = v3_scale(d, 1.0 / len);
    st->flipped = false;
    st->axes[0] = n;
    st->axes[1] = l6_initial_ey(n);
    st->axes[2] = v3_cross(n, st->axes[1]);
    return GRIT_OK;
}

/* Stage entry (spec 10.2 step 4): what each particle gets on each DoF. */
static int enter_stage(grit_tester *t, int ia, int ib)
{
    grit_scene *s = t->s;
    const grit_tester_stage *sg = &t->stages[t->st.stage];
    grit_tester_state *st = &t->st;
    st->stage_step = 0;
    st->stage_time = 0;
    st->has_contact = st->had_contact = false;
    st->time_c0 = NAN;
    st->bounces = 0;
    t->stage_t0 = s->time;
    const int idx[2] = {ia, ib};
    const double sign[2] = {-1.0, 1.0};
    const double weight[2] = {1.0 - t->def.ab_weight, t->def.ab_weight};
    const int fpart = t->def.ab_weight < 0.5 ? 0 : 1; /* who receives imposed forces */
    for (int j = 0; j < 6; j++) {
        char w = sg->whats[j];
        if ((w == 'v' || w == 'i') && j >= 4)
            for (int p = 0; p < 2; p++)
                if (s->b.shape[idx[p]] != GRIT_SHAPE_SPHERE)
                    return grit_fail(s, GRIT_EINVAL,
                                     "tester stage %d: bending velocity (DoF %d) needs two spheres; particle %d is not "
                                     "one",
                                     st->stage, j, t->ids[p]);
        if (w == 'f' && (s->b.flags[idx[fpart]] & GRIT_BLOCK_ALL))
            return grit_fail(s, GRIT_EINVAL,
                             "tester stage %d: force on DoF %d goes to particle %d (ab_weight %g), which has blocked "
                             "DoFs",
                             st->stage, j, t->ids[fpart], t->def.ab_weight);
        for (int p = 0; p < 2; p++) {
            double wt = weight[p];
            if (j >= 4) {
                /* bending: each sphere turns in proportion to the other's radius
                 * (Woo reads both radii from A; here each from its own sphere) */
                double ra = s->b.pr[ia].r, rb = s->b.pr[ib].r;
                wt = 1.0 - s->b.pr[idx[p]].r / (ra + rb);
            }
            uint8_t *what = &t->what[p][j];
            double *val = &t->value[p][j];
            switch (w) {
            case 'v':
            case 'i':
                *what = GRIT_IMPOSE_VEL;
                *val = wt * sign[p] * sg->values[j];
                break;
            case 'f':
                *what = p == fpart ? GRIT_IMPOSE_FORCE : GRIT_IMPOSE_VEL;
                *val = p == fpart ? sign[p] * sg->values[j] : 0.0;
                break;
            default:
                *what = GRIT_IMPOSE_FREE;
                *val = 0.0;
            }
        }
    }
    return GRIT_OK;
}

static void smooth_err(double *e, double enew, double se) { *e = isnan(*e) ? enew : (1.0 - se) * *e + se * enew; }

/* Spec 10.2 step 5. */
static void record(grit_tester *t, int k)
{
    grit_scene *s = t->s;
    grit_tester_state *st = &t->st;
    if (k < 0) {
        st->has_contact = false;
        state_nan(st);
        return;
    }
    const grit_l6geom *g = &s->c.geom[k];
    const grit_frictphys *ph = &s->c.phys[k];
    /* turning the frame by pi about z and taking the reactions on B instead
     * of the actions on A leaves x and y components and negates z */
    const double z = st->flipped ? -1.0 : 1.0;
    const double f[6] = {ph->f.x, ph->f.y, z * ph->f.z, ph->t.x, ph->t.y, z * ph->t.z};
    const double v[6] = {g->vel.x, g->vel.y, z * g->vel.z, g->angvel.x, g->angvel.y, z * g->angvel.z};
    double kr = 0.0, kb = 0.0;
    if (s->c.pair[k].law == GRIT_LAW_LINEL6) {
        kr = ph->kn / s->laws.linel6.char_len;
        kb = ph->kt / s->laws.linel6.char_len;
    }
    const double kk[6] = {ph->kn, ph->kt, ph->kt, kr, kb, kb};
    if (st->stage_step > 0 && st->v[0] * v[0] < 0) st->bounces++;
    if (s->c.cold[k].step_created == s->step - 1) st->time_c0 = st->stage_time;
    st->has_contact = st->had_contact = true;
    const double s1 = t->def.smooth, se = t->def.smooth_err > 0 ? t->def.smooth_err : s1;
    if (isnan(st->smoo_f[0])) {
        for (int j = 0; j < 6; j++) {
            st->u[j] = j == 0 ? g->uN : 0.0;
            st->smoo_f[j] = f[j];
            st->smoo_u[j] = st->u[j];
            st->smoo_v[j] = v[j];
            st->f_err_rel[j] = st->f_err_abs[j] = st->u_err_rel[j] = st->u_err_abs[j] = NAN;
            st->v_err_rel[j] = st->v_err_abs[j] = NAN;
        }
        st->work = 0.0;
    } else {
        for (int j = 0; j < 6; j++) {
            double u = j == 0 ? g->uN : st->u[j] + v[j] * s->dt;
            st->work += 0.5 * (st->f[j] + f[j]) * (u - st->u[j]);
            st->u[j] = u;
        }
        const double *x[3] = {f, st->u, v};
        double *bar[3] = {st->smoo_f, st->smoo_u, st->smoo_v};
        double *erel[3] = {st->f_err_rel, st->u_err_rel, st->v_err_rel};
        double *eabs[3] = {st->f_err_abs, st->u_err_abs, st->v_err_abs};
        for (int a = 0; a < 3; a++)
            for (int j = 0; j < 6; j++) {
                bar[a][j] = (1.0 - s1) * bar[a][j] + s1 * x[a][j];
                double d = fabs(x[a][j] - bar[a][j]);
                smooth_err(&erel[a][j], d / fabs(bar[a][j]), se);
                smooth_err(&eabs[a][j], d, se);
            }
    }
    memcpy(st->f, f, sizeof f);
    memcpy(st->v, v, sizeof v);
    memcpy(st->k, kk, sizeof kk);
}

static int clear_impositions(grit_tester *t)
{
    t->installed = false;
    for (int p = 0; p < 2; p++) {
        int rc = grit_impose_local_clear(t->s, t->ids[p]);
        if (rc) return rc;
    }
    return GRIT_OK;
}

/* Install the current impositions on both particles with the current frame
 * (creating them if someone removed them). */
static int install(grit_tester *t)
{
    const grit_tester_state *st = &t->st;
    const grit_mat3 axes = {{st->axes[0], st->axes[1], st->axes[2]}};
    t->installed = true;
    for (int p = 0; p < 2; p++) {
        int rc = grit_impose_local(t->s, t->ids[p], &axes, t->value[p], t->what[p]);
        if (rc) return rc;
    }
    return GRIT_OK;
}

/* Spec 10.2 step 6: the end of a stage. The next stage is entered at once,
 * so that its impositions drive the very next step (Woo installs them one
 * call later, so the old stage's motion goes on for one step after its
 * condition held; see docs/law-tester.md). */
static int end_stage(grit_tester *t, int ia, int ib)
{
    grit_scene *s = t->s;
    grit_tester_stage *sg = &t->stages[t->st.stage];
    for (int e = 0; e < GRIT_E_COUNT; e++)
        if (sg->reset_energy & (1u << e)) s->energy[e] = 0.0;
    if (sg->done_fn && sg->done_fn(s, t, t->st.stage, sg->done_data) < 0) {
        if (!s->err[0]) grit_fail(s, GRIT_ESTATE, "tester stage %d: its done action failed", t->st.stage);
        return GRIT_ESTATE;
    }
    t->st.stage++;
    if (t->st.stage == t->n_stages) return clear_impositions(t);
    bool contact = t->st.has_contact;
    int rc = enter_stage(t, ia, ib);
    if (rc) return rc;
    t->st.has_contact = t->st.had_contact = contact;
    return install(t);
}

/* Does the current stage end now? 1 yes, 0 no, < 0 error. */
static int stage_ends(grit_tester *t)
{
    grit_scene *s = t->s;
    const grit_tester_state *st = &t->st;
    const grit_tester_stage *sg = &t->stages[st->stage];
    if (st->stage_step % sg->until_every != 0) return 0;
    if (sg->until.quantity != GRIT_TQ_NONE && grit_tester_cond_eval(s, st, &sg->until)) return 1;
    if (!sg->until_fn) return 0;
    s->err[0] = '\0';
    int r = sg->until_fn(s, t, st, sg->until_data);
    if (r < 0) {
        if (!s->err[0]) grit_fail(s, GRIT_ESTATE, "tester stage %d: its until callback failed", st->stage);
        return GRIT_ESTATE;
    }
    return r > 0;
}

/* Everything the tester does after one scene step. */
static int tester_update(grit_tester *t)
{
    grit_scene *s = t->s;
    grit_tester_state *st = &t->st;
    const int ia = grit_idx(s, t->ids[0]), ib = grit_idx(s, t->ids[1]);
    if (ia < 0 || ib < 0) return grit_fail(s, GRIT_ESTATE, "tester: particle %d or %d is gone", t->ids[0], t->ids[1]);
    const int k = find_contact(s, ia, ib);
    int rc = tester_frame(t, k, ia, ib);
    if (rc) return rc;
    if (t->stage_t0 < 0) { /* the first call: the first stage begins */
        rc = enter_stage(t, ia, ib);
        if (rc) return rc;
    } else {
        st->stage_step++;
        st->stage_time = s->time - t->stage_t0;
        const grit_tester_stage *sg = &t->stages[st->stage];
        for (int j = 0; j < 6; j++)
            if (sg->whats[j] == 'i') t->what[0][j] = t->what[1][j] = GRIT_IMPOSE_FREE;
    }
    rc = install(t); /* the frame follows the contact */
    if (rc) return rc;
    st->dist = v3_norm(v3_sub(s->b.pr[ib].pos, s->b.pr[ia].pos));
    record(t, k);
    if (t->def.record_every > 0 && s->step % t->def.record_every == 0) {
        rc = grit_tester_record_row(t);
        if (rc) return rc;
    }
    /* a stage entered here whose condition already holds ends at once */
    while (!grit_tester_done(t) && (rc = stage_ends(t)) != 0) {
        if (rc < 0) return rc;
        rc = end_stage(t, ia, ib);
        if (rc) return rc;
    }
    return GRIT_OK;
}

int grit_tester_step(grit_tester *t, long n)
{
    if (n < 0) return grit_fail(t->s, GRIT_EINVAL, "tester: number of steps %ld must be >= 0", n);
    for (long i = 0; i < n; i++) {
        int rc = grit_step(t->s, 1);
        if (rc) return rc;
        if (grit_tester_done(t)) continue;
        rc = tester_update(t);
        if (rc) return rc;
    }
    return GRIT_OK;
}

long grit_tester_run(grit_tester *t, long max_steps)
{
    if (max_steps < 0) return grit_fail(t->s, GRIT_EINVAL, "tester: max_steps %ld must be >= 0", max_steps);
    long n = 0;
    while (!grit_tester_done(t)) {
        if (n == max_steps)
            return grit_fail(t->s, GRIT_ESTATE, "tester: stage %d did not end within %ld steps", t->st.stage,
                             max_steps);
        int rc = grit_tester_step(t, 1);
        if (rc) return rc;
        n++;
    }
    return n;
}
