/* grit: the stress/strain controller of a periodic cell (Woo's
 * WeirdTriaxControl, Yade's PeriTriaxController; docs/periodic.md "Stress
 * control").
 *
 * The servo is proportional-integral with an affine stiffness: with the
 * error e = goal - sigma on the stress-controlled axes S, it sets the strain
 * of the next interval on those axes to
 *     d_a = (gain e_a + I_a - f_a) / D_a,   D_a = sum_{b in S} |K_ab|,
 * where K is the response of the diagonal stresses to the cell's strain if
 * every contact followed it (stress_impl.h) and f_a is the response to the
 * prescribed components of the interval (a feed-forward). D dominates K on
 * S (D - K is diagonally dominant), and the real assembly is softer than
 * the affine one, so without I the error after an interval is
 * (I - gain M) e with the eigenvalues of M in [0, 1]: every mode of the
 * error shrinks and keeps its sign.
 *
 * The integral I_a (I_a += integral gain e_a per update) removes what the
 * feed-forward gets wrong: near failure a granular assembly is a hundred
 * times softer than the affine estimate against the servo's own strain but
 * couples more strongly to the prescribed one, and a P servo then settles
 * where gain e M balances that mismatch, several per cent off (measured:
 * docs/periodic.md). It integrates only while prescribed components strain
 * the cell (without them f = 0 and there is nothing to correct, and the P
 * servo alone cannot overshoot) and not while the rate cap scales the step
 * (anti-windup). */
#include <stdio.h>

#include "contact/stress_impl.h"
#include "core/cell_impl.h"
#include "core/cellctrl.h"

grit_cell_ctrl_def grit_default_cell_ctrl_def(void)
{
    grit_cell_ctrl_def d = {0};
    for (int a = 0; a < 3; a++) d.mode[a] = GRIT_CTRL_RATE;
    d.gain = 0.5;
    d.integral = 0.5;
    d.max_rate = 1.0;
    d.stress_tol = 1e-3;
    d.every = 1;
    d.settle = 1;
    return d;
}

int grit_cell_ctrl_check(grit_scene *s, const grit_cell_ctrl_def *d, const char *who)
{
    static const char ax[] = "xyz";
    for (int a = 0; a < 3; a++) {
        if (d->mode[a] != GRIT_CTRL_RATE && d->mode[a] != GRIT_CTRL_STRESS)
            return grit_fail(s, GRIT_EINVAL, "%s: mode[%d] = %d (axis %c) is neither GRIT_CTRL_RATE (0) nor "
                                             "GRIT_CTRL_STRESS (1)",
                             who, a, d->mode[a], ax[a]);
        if (!isfinite(d->goal[a]))
            return grit_fail(s, GRIT_EINVAL, "%s: goal[%d] = %g (axis %c) must be finite", who, a, d->goal[a], ax[a]);
        for (int b = 0; b < 3; b++)
            if (a != b && !isfinite(d->grad_v[a][b]))
                return grit_fail(s, GRIT_EINVAL, "%s: grad_v[%d][%d] = %g must be finite", who, a, b, d->grad_v[a][b]);
    }
    if (!(d->gain > 0 && d->gain < 1))
        return grit_fail(s, GRIT_EINVAL,
                         "%s: gain = %g is out of range: must be in (0, 1) (1 and above overshoot an affine assembly)",
                         who, d->gain);
    if (!(d->integral >= 0 && d->integral < 1))
        return grit_fail(s, GRIT_EINVAL,
                         "%s: integral = %g is out of range: must be in [0, 1) (1 and above oscillate without damping "
                         "on an affine assembly)",
                         who, d->integral);
    if (!(d->max_rate > 0) || !isfinite(d->max_rate))
        return grit_fail(s, GRIT_EINVAL, "%s: max_rate = %g must be > 0 and finite (1/s)", who, d->max_rate);
    if (!(d->stress_tol >= 0) || !isfinite(d->stress_tol))
        return grit_fail(s, GRIT_EINVAL, "%s: stress_tol = %g must be >= 0 and finite", who, d->stress_tol);
    if (d->every < 1) return grit_fail(s, GRIT_EINVAL, "%s: every = %d must be >= 1 (steps)", who, d->every);
    if (d->settle < 1) return grit_fail(s, GRIT_EINVAL, "%s: settle = %d must be >= 1 (updates)", who, d->settle);
    return GRIT_OK;
}

void grit_cell_ctrl_command(const grit_scene *s, const grit_cell_ctrl_def *d, double dt, const double integ[3],
                            double L[3][3], grit_cell_ctrl_state *st, double integ_next[3])
{
    double sig[3][3], K[3][6];
    grit_contact_stress_stiffness(s, sig, K);
    const double T = d->every * dt;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) L[i][j] = i == j ? 0 : d->grad_v[i][j];
    /* the prescribed strain of the interval, as the components of K */
    double presc[6] = {0, 0, 0, 0.5 * (L[0][1] + L[1][0]) * T, 0.5 * (L[0][2] + L[2][0]) * T,
                       0.5 * (L[1][2] + L[2][1]) * T};
    bool stress[3];
    double scale = 0;
    for (int a = 0; a < 3; a++) {
        stress[a] = d->mode[a] == GRIT_CTRL_STRESS;
        if (!stress[a]) presc[a] = d->goal[a] * T, L[a][a] = d->goal[a];
        scale = fmax(scale, fmax(fabs(sig[a][a]), stress[a] ? fabs(d->goal[a]) : 0));
    }
    double err[3] = {0}, D[3], x[3] = {0}, I[3] = {0}, worst = 0, over = 1;
    bool moving = false; /* prescribed components strain the stress axes (a feed-forward) */
    const double cap = d->max_rate * T;
    for (int a = 0; a < 3; a++) {
        D[a] = 0;
        if (!stress[a]) {
            D[a] = K[a][a];
            continue;
        }
        err[a] = d->goal[a] - sig[a][a];
        double f = 0;
        for (int q = 0; q < 6; q++)
            if (q >= 3 || !stress[q]) f += K[a][q] * presc[q];
        moving |= f != 0;
        I[a] = integ ? integ[a] : 0;
        for (int b = 0; b < 3; b++)
            if (stress[b]) D[a] += fabs(K[a][b]);
        /* without contacts the cell moves at the cap towards the goal */
        x[a] = D[a] > 0 ? (d->gain * err[a] + I[a] - f) / D[a] : (err[a] > 0 ? cap : err[a] < 0 ? -cap : 0);
        over = fmax(over, fabs(x[a]) / cap);
        worst = fmax(worst, fabs(err[a]));
    }
    /* one factor for all axes: the direction of the step is kept */
    for (int a = 0; a < 3; a++)
        if (stress[a]) L[a][a] = x[a] / over / T;
    /* the integral: frozen at the cap (anti-windup) and without prescribed
     * strain; gone on an axis without contacts (a gas has no stress to
     * hold, and the term would drive its first contacts) */
    if (integ_next)
        for (int a = 0; a < 3; a++)
            integ_next[a] = D[a] > 0 ? I[a] + (moving && over == 1 ? d->integral * d->gain * err[a] : 0) : 0;
    if (!st) return;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) st->stress[i][j] = sig[i][j];
    for (int a = 0; a < 3; a++) st->error[a] = err[a], st->stiffness[a] = D[a], st->integral[a] = I[a];
    st->scale = scale;
    st->rel_error = scale > 0 ? worst / scale : 0;
}

static int no_cell(const grit_scene *s, const char *who)
{
    return grit_fail((grit_scene *)s, GRIT_ESTATE, "%s: the scene has no periodic cell (call grit_cell_set first)",
                     who);
}

int grit_cell_ctrl_set(grit_scene *s, const grit_cell_ctrl_def *def)
{
    static const char *who = "grit_cell_ctrl_set";
    if (!s->cell) return no_cell(s, who);
    if (!def) return grit_fail(s, GRIT_EINVAL, "%s: def is NULL", who);
    int rc = grit_cell_ctrl_check(s, def, who);
    if (rc) return rc;
    grit_cell *c = s->cell;
    c->ctrl = *def;
    c->ctrl_on = true;
    c->ctrl_countdown = 0;
    c->ctrl_held = 0;
    c->ctrl_updates = 0;
    for (int a = 0; a < 3; a++) c->ctrl_integ[a] = 0;
    return GRIT_OK;
}

int grit_cell_ctrl_clear(grit_scene *s)
{
    if (s->cell) s->cell->ctrl_on = false;
    return GRIT_OK;
}

int grit_cell_ctrl_get(const grit_scene *s, grit_cell_ctrl_def *def)
{
    if (!s->cell) return no_cell(s, "grit_cell_ctrl_get");
    if (!s->cell->ctrl_on)
        return grit_fail((grit_scene *)s, GRIT_ESTATE, "grit_cell_ctrl_get: no controller is installed");
    *def = s->cell->ctrl;
    return GRIT_OK;
}

int grit_cell_ctrl_get_state(const grit_scene *s, grit_cell_ctrl_state *st)
{
    if (!s->cell) return no_cell(s, "grit_cell_ctrl_get_state");
    const grit_cell *c = s->cell;
    grit_cell_ctrl_state r = {0};
    double L[3][3];
    const grit_cell_ctrl_def d = c->ctrl_on ? c->ctrl : grit_default_cell_ctrl_def();
    grit_cell_ctrl_command(s, &d, isfinite(s->dt) && s->dt > 0 ? s->dt : 1.0, c->ctrl_on ? c->ctrl_integ : NULL, L,
                           &r, NULL);
    r.active = c->ctrl_on;
    if (c->ctrl_on) {
        r.held = c->ctrl_held;
        r.converged = c->ctrl_held >= d.settle;
        r.updates = c->ctrl_updates;
    }
    *st = r;
    return GRIT_OK;
}

void grit_cell_ctrl_update(grit_scene *s)
{
    grit_cell *c = s->cell;
    if (!c->ctrl_on) return;
    if (c->ctrl_countdown > 0) {
        c->ctrl_countdown--;
        return;
    }
    double L[3][3];
    grit_cell_ctrl_state st;
    grit_cell_ctrl_command(s, &c->ctrl, s->dt, c->ctrl_integ, L, &st, c->ctrl_integ);
    c->ctrl_held = st.rel_error <= c->ctrl.stress_tol ? c->ctrl_held + 1 : 0;
    c->ctrl_updates++;
    c->ctrl_countdown = c->ctrl.every - 1;
    for (int j = 0; j < 3; j++) c->next_L.c[j] = v3(L[0][j], L[1][j], L[2][j]);
}

int grit_cell_ctrl_run(grit_scene *s, long max_steps, long *steps)
{
    static const char *who = "grit_cell_ctrl_run";
    if (steps) *steps = 0;
    if (!s->cell) return no_cell(s, who);
    if (!s->cell->ctrl_on) return grit_fail(s, GRIT_ESTATE, "%s: no controller is installed (grit_cell_ctrl_set)", who);
    if (max_steps < 0) return grit_fail(s, GRIT_EINVAL, "%s: max_steps = %ld must be >= 0", who, max_steps);
    const grit_cell *c = s->cell;
    long done = 0;
    while (c->ctrl_held < c->ctrl.settle && done < max_steps) {
        /* up to and including the step that starts with the next update */
        const long n = c->ctrl_countdown + 1 < max_steps - done ? c->ctrl_countdown + 1 : max_steps - done;
        int rc = grit_step(s, n);
        if (rc) return rc;
        done += n;
        if (steps) *steps = done;
    }
    if (c->ctrl_held >= c->ctrl.settle) return GRIT_OK;
    grit_cell_ctrl_state st;
    grit_cell_ctrl_get_state(s, &st);
    return grit_fail(s, GRIT_ESTATE,
                     "%s: not converged after %ld steps: relative stress error %.3g (stress_tol %g), %d of %d updates "
                     "in a row within tolerance",
                     who, done, st.rel_error, c->ctrl.stress_tol, c->ctrl_held, c->ctrl.settle);
}
