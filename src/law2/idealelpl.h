/* grit internal: Law2_L6Geom_FrictPhys_IdealElPl -- the linear elastic,
 * perfectly plastic (Cundall) law (spec section 5), with an optional linear
 * normal dashpot (cn of a pair override).
 *
 * Decisions (docs/linear-model.md):
 * - plastic dissipation of a slipping step (plast_book): by default the
 *   trapezoidal work of the tangential force on the step's tangential
 *   movement minus the change of the stored tangential energy, so that the
 *   discrete balance closes to second order; `return` books the spec's
 *   fy (|Ft_trial| - fy) / kt (5.4), exact for the continuous path at a
 *   constant fy but first order in dt when the normal force changes
 *   (docs/linear-model.md (b));
 * - with a dashpot the normal force kn uN + cn vel_x is clipped to no
 *   attraction (unless no_break), the Coulomb limit uses the clipped total,
 *   the stored elastic energy only the spring part, and the dashpot work is
 *   booked as `visc`;
 * - a broken contact books its last tangential elastic energy plus the
 *   half step of work to the breaking instant, 1/2 dt f . vel, as `broken`
 *   (Woo books it only with no_slip), so that the balance closes; no normal
 *   term: 1/2 kn u^2 with u > 0 is not energy the contact ever held, and
 *   booking it made the balance of a bouncing sphere drift. */
#ifndef GRIT_LAW2_IDEALELPL_H
#define GRIT_LAW2_IDEALELPL_H

#include "law2/law2.h"

enum { GRIT_LAW_IDEALELPL_EXT_N = 0 };
#define GRIT_LAW_IDEALELPL_TORQUE false

static inline void create_idealelpl(const grit_scene *s, int a, int b, const grit_cg2_out *o, grit_contact_cold *cold,
                                    grit_frictphys *p, double *ext)
{
    grit_create_frictphys(s, a, b, o, cold, p, ext);
}

static inline bool law_idealelpl(const grit_law_ctx *L, grit_l6geom *g, grit_frictphys *p,
                                 grit_contact_cold *cold, bool fresh, bool track, grit_law_energy *E,
                                 const grit_cg2_out *o, double *ext)
{
    (void)o;
    (void)ext;
    double u = g->uN;
    if (L->ini_eqlb && fresh) cold->uN0 = u;
    if (!isnan(cold->uN0)) u -= cold->uN0;
    const double kn = p->kn, kt = p->kt;
    if (u > 0 && !L->no_break) {
        /* only the tangential spring's energy is lost: the normal one, for
         * u > 0, is not stored (Woo's 1/2 kn u^2 of noSlip is not booked) */
        if (track && kt != 0)
            E->broken += 0.5 * (sq(p->f.y) + sq(p->f.z)) / kt + 0.5 * L->dt * (p->f.y * g->vel.y + p->f.z * g->vel.z);
        return false;
    }
    double fel = kn * u;
    double fx = fel;
    if (p->cn != 0) {
        fx += p->cn * g->vel.x;
        if (fx > 0 && !L->no_break) fx = 0; /* a dashpot never pulls */
        if (track) E->visc += (fx - fel) * g->vel.x * L->dt;
    }
    double fy = 0, fz = 0;
    if (!(L->no_frict || p->tan_phi == 0)) {
        fy = p->f.y + L->dt * kt * g->vel.y;
        fz = p->f.z + L->dt * kt * g->vel.z;
        double fmax = fabs(fx) * p->tan_phi;
        double ft2 = fy * fy + fz * fz;
        if (ft2 > fmax * fmax && !L->no_slip) {
            double ft = sqrt(ft2);
            double ratio = ft > 0 ? fmax / ft : 0.0;
            fy *= ratio;
            fz *= ratio;
            if (track && kt != 0 && L->plast_return) E->plast += fmax * (ft - fmax) / kt;
            else if (track && kt != 0) {
                const double W = 0.5 * L->dt * ((p->f.y + fy) * g->vel.y + (p->f.z + fz) * g->vel.z);
                const double dU = 0.5 * ((fy * fy + fz * fz) - (sq(p->f.y) + sq(p->f.z))) / kt;
                E->plast += W - dU;
            }
        }
    }
    p->f = v3(fx, fy, fz);
    if (track) E->elast += 0.5 * kn * u * u + (kt != 0 ? 0.5 * (fy * fy + fz * fz) / kt : 0.0);
    return true;
}

#endif
