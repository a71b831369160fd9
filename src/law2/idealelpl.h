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
 *   booked as `visc` by the trapezoidal rule, the mean of this step's and
 *   the last step's dashpot force times vel_x dt (the last one is the total
 *   normal force it transmitted less the spring's at u - vel_x dt; none on
 *   a fresh contact), plus its half step to the breaking instant when the
 *   contact breaks. Booking this step's force alone (first order) left 4 %
 *   of the dashpot's work out of the balance in a silo discharge at 15
 *   steps per collision (docs/silo.md);
 * - a broken contact books its last tangential elastic energy plus the
 *   half step of work to the breaking instant, 1/2 dt f . vel, as `broken`
 *   (Woo books it only with no_slip), so that the balance closes; no normal
 *   term: 1/2 kn u^2 with u > 0 is not energy the contact ever held, and
 *   booking it made the balance of a bouncing sphere drift;
 * - a tangential dashpot (ct = ct_div_cn cn) adds ct vel_t to the transmitted
 *   tangential force, as much of it as the Coulomb limit leaves room for
 *   (grit_dashpot_share); the spring force stays the history. Since the
 *   frame carries the transmitted force, the contact's ext holds the
 *   dashpot's share of it (2 doubles, only while ct_div_cn != 0), which the
 *   next step takes off again. Its work ct_applied |vel_t|^2 dt is booked as
 *   `visc`. */
#ifndef GRIT_LAW2_IDEALELPL_H
#define GRIT_LAW2_IDEALELPL_H

#include "law2/law2.h"

/* no state of its own; 2 doubles (the dashpot's local force y, z) while the
 * tangential dashpot is on (grit_law_ext_need) */
enum { GRIT_LAW_IDEALELPL_EXT_N = 0, GRIT_IDEALELPL_DASHPOT_EXT_N = 2 };
#define GRIT_LAW_IDEALELPL_TORQUE false

static inline void create_idealelpl(const grit_scene *s, int a, int b, const grit_cg2_out *o, grit_contact_cold *cold,
                                    grit_frictphys *p, double *ext)
{
    grit_create_frictphys(s, a, b, o, cold, p, ext);
    if (s->laws.idealelpl.ct_div_cn != 0) ext[0] = ext[1] = 0;
}

static inline bool law_idealelpl(const grit_law_ctx *L, grit_l6geom *g, grit_frictphys *p,
                                 grit_contact_cold *cold, bool fresh, bool track, grit_law_energy *E,
                                 const grit_cg2_out *o, double *ext)
{
    (void)o;
    /* the spring's force (history): the transmitted one less the dashpot's
     * share of the last step */
    grit_vec3 f0 = p->f;
    if (L->ct_div_cn != 0 && isfinite(ext[0]) && isfinite(ext[1])) {
        f0.y -= ext[0];
        f0.z -= ext[1];
    }
    double u = g->uN;
    if (L->ini_eqlb && fresh) cold->uN0 = u;
    if (!isnan(cold->uN0)) u -= cold->uN0;
    const double kn = p->kn, kt = p->kt;
    /* the dashpot's force of the last step (trapezoidal booking) */
    const double fd0 = track && p->cn != 0 && !fresh ? f0.x - kn * (u - g->vel.x * L->dt) : 0.0;
    if (u > 0 && !L->no_break) {
        /* only the tangential spring's energy is lost: the normal one, for
         * u > 0, is not stored (Woo's 1/2 kn u^2 of noSlip is not booked) */
        if (track && kt != 0)
            E->broken += 0.5 * (sq(f0.y) + sq(f0.z)) / kt + 0.5 * L->dt * (f0.y * g->vel.y + f0.z * g->vel.z);
        if (track && p->cn != 0) E->visc += 0.5 * L->dt * fd0 * g->vel.x;
        return false;
    }
    double fel = kn * u;
    double fx = fel;
    if (p->cn != 0) {
        fx += p->cn * g->vel.x;
        if (fx > 0 && !L->no_break) fx = 0; /* a dashpot never pulls */
        if (track) E->visc += 0.5 * ((fx - fel) + fd0) * g->vel.x * L->dt;
    }
    double fy = 0, fz = 0;
    if (!(L->no_frict || p->tan_phi == 0)) {
        fy = f0.y + L->dt * kt * g->vel.y;
        fz = f0.z + L->dt * kt * g->vel.z;
        double fmax = fabs(fx) * p->tan_phi;
        double ft2 = fy * fy + fz * fz;
        if (ft2 > fmax * fmax && !L->no_slip) {
            double ft = sqrt(ft2);
            double ratio = ft > 0 ? fmax / ft : 0.0;
            fy *= ratio;
            fz *= ratio;
            if (track && kt != 0 && L->plast_return) E->plast += fmax * (ft - fmax) / kt;
            else if (track && kt != 0) {
                const double W = 0.5 * L->dt * ((f0.y + fy) * g->vel.y + (f0.z + fz) * g->vel.z);
                const double dU = 0.5 * ((fy * fy + fz * fz) - (sq(f0.y) + sq(f0.z))) / kt;
                E->plast += W - dU;
            }
        }
    }
    double ty = fy, tz = fz; /* transmitted */
    if (L->ct_div_cn != 0) {
        const double ct = L->ct_div_cn * p->cn;
        double dy = 0, dz = 0;
        if (ct != 0 && !(L->no_frict || p->tan_phi == 0)) {
            const grit_vec3 fd = v3(0, ct * g->vel.y, ct * g->vel.z);
            const double lam =
                L->no_slip ? 1.0 : grit_dashpot_share(v3(0, fy, fz), fd, fabs(fx) * p->tan_phi);
            dy = lam * fd.y;
            dz = lam * fd.z;
            if (track) E->visc += (dy * g->vel.y + dz * g->vel.z) * L->dt;
        }
        ty += dy;
        tz += dz;
        ext[0] = dy;
        ext[1] = dz;
    }
    p->f = v3(fx, ty, tz);
    if (track) E->elast += 0.5 * kn * u * u + (kt != 0 ? 0.5 * (fy * fy + fz * fz) / kt : 0.0);
    return true;
}

#endif
