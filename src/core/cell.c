/* grit: the periodic cell -- its API, and the per-step update of the cell
 * and of the gradV2 leapfrog coefficients (spec 9.3).
 *
 * One deviation from Woo's order, on purpose: Woo moves the cell with gradV
 * at the start of a step and copies nextGradV to gradV at its end, while the
 * leapfrog already moves the particles with nextGradV, so after every change
 * of the gradient the cell lags one step behind the particles and every
 * contact across the boundary keeps a spurious offset dt (L+ - L-) H k.
 * Here nextGradV becomes gradV at the start of the step and both the cell
 * and the particles move with it (the same Cayley map, see cell_impl.h). */
#include <stdlib.h>

#include "collide/periodic.h"
#include "contact/stress_impl.h"
#include "core/cell_impl.h"
#include "grit/cell.h"

static grit_mat3 from_rows(const double m[3][3])
{
    return (grit_mat3){{v3(m[0][0], m[1][0], m[2][0]), v3(m[0][1], m[1][1], m[2][1]), v3(m[0][2], m[1][2], m[2][2])}};
}

static void to_rows(const grit_mat3 *a, double m[3][3])
{
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) m[i][j] = m3_at(a, i, j);
}

static int check_finite(grit_scene *s, const char *who, const char *name, const double m[3][3])
{
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            if (!isfinite(m[i][j]))
                return grit_fail(s, GRIT_EINVAL, "%s: %s[%d][%d] = %g must be finite", who, name, i, j, m[i][j]);
    return GRIT_OK;
}

void grit_cell_free(grit_cell *c)
{
    if (!c) return;
    grit_pbp_destroy(c->pbp);
    free(c->period);
    free(c);
}

int grit_cell_set(grit_scene *s, const double Hm[3][3])
{
    static const char *who = "grit_cell_set";
    if (check_finite(s, who, "H", Hm)) return GRIT_EINVAL;
    const grit_mat3 H = from_rows(Hm);
    const double det = m3_det(&H), scale = v3_norm(H.c[0]) * v3_norm(H.c[1]) * v3_norm(H.c[2]);
    if (!(scale > 0) || !(fabs(det) > 1e-9 * scale))
        return grit_fail(s, GRIT_EINVAL,
                         "%s: the base vectors (columns of H) are degenerate: det H = %g for |a||b||c| = %g", who, det,
                         scale);
    if (det < 0)
        return grit_fail(s, GRIT_EINVAL, "%s: det H = %g < 0: the base vectors (columns of H) must be right-handed",
                         who, det);
    int rc = grit_periodic_check_boxes(s, &H, 0.0, who);
    if (rc) return rc;
    grit_cell *c = s->cell;
    if (!c) {
        if (!(c = calloc(1, sizeof *c))) return grit_fail(s, GRIT_ENOMEM, "%s: out of memory", who);
        c->L = c->L_prev = c->next_L = m3_zero();
        c->virial_prev = m3_zero();
        c->virial_prev_set = false; /* taken from the contacts by the first prologue that needs it */
        s->cell = c;
    }
    c->H = c->H_half = c->H_rebuild = H;
    c->Hinv = m3_inverse(&H);
    c->trsf = m3_identity();
    c->dH = m3_zero();
    c->LH = m3_mmul(&c->L, &c->H_half);
    s->need_rebuild = true;
    return GRIT_OK;
}

bool grit_is_periodic(const grit_scene *s) { return s->cell != NULL; }

static int no_cell(const grit_scene *s, const char *who)
{
    return grit_fail((grit_scene *)s, GRIT_ESTATE, "%s: the scene has no periodic cell (call grit_cell_set first)",
                     who);
}

int grit_cell_get(const grit_scene *s, double H[3][3])
{
    if (!s->cell) return no_cell(s, "grit_cell_get");
    to_rows(&s->cell->H, H);
    return GRIT_OK;
}

double grit_cell_volume(const grit_scene *s) { return s->cell ? m3_det(&s->cell->H) : NAN; }

int grit_cell_get_trsf(const grit_scene *s, double F[3][3])
{
    if (!s->cell) return no_cell(s, "grit_cell_get_trsf");
    to_rows(&s->cell->trsf, F);
    return GRIT_OK;
}

int grit_cell_set_grad_v(grit_scene *s, const double L[3][3])
{
    if (!s->cell) return no_cell(s, "grit_cell_set_grad_v");
    if (check_finite(s, "grit_cell_set_grad_v", "L", L)) return GRIT_EINVAL;
    s->cell->next_L = from_rows(L);
    return GRIT_OK;
}

int grit_cell_get_grad_v(const grit_scene *s, double L[3][3])
{
    if (!s->cell) return no_cell(s, "grit_cell_get_grad_v");
    to_rows(&s->cell->L, L);
    return GRIT_OK;
}

int grit_cell_get_next_grad_v(const grit_scene *s, double L[3][3])
{
    if (!s->cell) return no_cell(s, "grit_cell_get_next_grad_v");
    to_rows(&s->cell->next_L, L);
    return GRIT_OK;
}

int grit_contact_image(const grit_scene *s, int i, int k[3])
{
    int n = 0;
    for (int q = 0; q < s->c.n; q++) {
        const grit_pair *p = &s->c.pair[q];
        if (!(p->flags & CF_REAL)) continue;
        if (n++ < i) continue;
        for (int a = 0; a < 3; a++) k[a] = s->cell ? p->cell[a] : 0;
        return GRIT_OK;
    }
    return grit_fail((grit_scene *)s, GRIT_EINVAL, "grit_contact_image: contact %d does not exist (%d real contacts)",
                     i, n);
}

/* ------------------------------------------------------------ the step */
static double maxabs(const grit_mat3 *m)
{
    double r = 0;
    for (int j = 0; j < 3; j++) r = fmax(r, v3_maxabs(m->c[j]));
    return r;
}

int grit_cell_prologue(grit_scene *s)
{
    grit_cell *c = s->cell;
    const double dt = s->dt;
    const grit_mat3 Lp = c->next_L, Lm = c->L, I = m3_identity();
    /* the Cayley map and the gradV2 matrices must stay far from singular;
     * any realistic strain rate is many orders of magnitude below this */
    const double lmax = fmax(maxabs(&Lp), maxabs(&Lm));
    if (!(dt * lmax <= 0.1))
        return grit_fail(s, GRIT_EINVAL,
                         "periodic cell: velocity gradient entry %g 1/s times the time step %g s = %g exceeds 0.1; "
                         "reduce the gradient or the time step",
                         lmax, dt, dt * lmax);
    /* the virial before this step, for the gradV energy of a new gradient */
    if (s->def.track_energy && !c->virial_prev_set && !m3_is_zero(&Lp)) {
        grit_contact_virial(s, NULL, NULL, &c->virial_prev);
        c->virial_prev_set = true;
    }
    const grit_mat3 Am = m3_lin(1, &I, -0.5 * dt, &Lp), Ap = m3_lin(1, &I, 0.5 * dt, &Lp);
    const grit_mat3 Ami = m3_inverse(&Am), Cy = m3_mmul(&Ami, &Ap);
    const grit_mat3 Hold = c->H;
    c->L_prev = Lm;
    c->L = Lp;
    c->H = m3_mmul(&Cy, &Hold);
    c->trsf = m3_mmul(&Cy, &c->trsf);
    c->Hinv = m3_inverse(&c->H);
    c->H_half = m3_lin(0.5, &Hold, 0.5, &c->H);
    c->LH = m3_mmul(&c->L, &c->H_half);
    c->dH = m3_lin(1, &c->H, -1, &c->H_rebuild);
    /* gradV2 leapfrog (see cell_impl.h): M = I - dt/2 L+, P = I + dt/2 L- */
    const grit_mat3 M = m3_lin(1, &I, -0.5 * dt, &Lp), P = m3_lin(1, &I, 0.5 * dt, &Lm), dL = m3_lin(1, &Lp, -1, &Lm);
    const grit_mat3 Mi = m3_inverse(&M);
    c->lf_A = m3_mmul(&Mi, &P);
    c->lf_B = m3_mmul(&Mi, &dL);
    c->lf_Mdt = m3_lin(dt, &Mi, 0, &Mi);
    c->grad_changed = !m3_is_zero(&dL);
    c->spin_prev = m3_spin(&Lm);
    const grit_vec3 sp = m3_spin(&Lp);
    c->dspin = v3_sub(sp, c->spin_prev);
    c->spin_changed = c->dspin.x != 0 || c->dspin.y != 0 || c->dspin.z != 0;
    return GRIT_OK;
}

/* gradV (spec 7.2 epilogue, 8.7): the work of the homogeneous field on the
 * contacts, -dt L : (W_prev + W)/2 with W = sum F (x) l = V sigma. Only the
 * symmetric part of L works (the spin part rotates the contacts rigidly,
 * and the particles spin with it), hence the symmetrised virial. */
void grit_cell_epilogue(grit_scene *s)
{
    grit_cell *c = s->cell;
    if (!s->def.track_energy || m3_is_zero(&c->L)) {
        c->virial_prev_set = false;
        return;
    }
    grit_mat3 W;
    grit_contact_virial(s, NULL, NULL, &W);
    if (!c->virial_prev_set) c->virial_prev = W;
    double p = 0;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) p += m3_at(&c->L, i, j) * 0.5 * (m3_at(&W, i, j) + m3_at(&c->virial_prev, i, j));
    s->energy[GRIT_E_GRADV] -= s->dt * p;
    c->virial_prev = W;
    c->virial_prev_set = true;
}
