/* grit internal: the contact-local frame with six DoFs (L6Geom), its
 * creation and its per-step update (spec sections 1.2-1.7).
 *
 * The frame T = [ex ey ez] is stored as ex, ey; ez = ex x ey is exact by
 * construction (step 6 of the update defines it so). The law keeps its force
 * in local coordinates; because ey, ez are carried by the rigid rotation of
 * the contact (normal rolling + mean twist), the tangential force rotates
 * with the contact without being touched. */
#ifndef GRIT_L6GEOM_H
#define GRIT_L6GEOM_H

#include "cg2/cg2.h"

static inline grit_vec3 l6_ez(const grit_l6geom *g) { return v3_cross(g->ex, g->ey); }

/* Initial tangential axis for a normal n (spec 1.2). */
static inline grit_vec3 l6_initial_ey(grit_vec3 n)
{
    grit_vec3 a = fabs(n.y) < fabs(n.z) ? v3(0, 1, 0) : v3(0, 0, 1);
    grit_vec3 yt = v3_cross(n, a);
    return v3_normalized(v3_madd(yt, -v3_dot(n, yt), n));
}

/* Contact creation: frame, lengths, area; vel and angvel stay zero. */
static inline void l6geom_create(grit_l6geom *g, grit_contact_cold *cold, const grit_cg2_out *o, bool lens_touch)
{
    g->ex = o->n;
    g->ey = l6_initial_ey(o->n);
    g->c = o->c;
    g->uN = o->uN;
    g->vel = v3_zero();
    g->angvel = v3_zero();
    double r1 = o->r1, r2 = o->r2;
    double rho = (r1 > 0 && r2 > 0) ? fmin(r1, r2) : (r1 > 0 ? r1 : r2);
    if (lens_touch) {
        cold->lens[0] = fabs(r1);
        cold->lens[1] = fabs(r2);
        cold->area = M_PI * rho * rho;
    } else {
        /* legacy lengths (radii minus half the initial overlap); the area is
         * built from the same reduced length so that eq. 2 and 3 agree */
        double l1 = fabs(r1) + 0.5 * o->uN, l2 = fabs(r2) + 0.5 * o->uN;
        if (l1 < 0) l1 = l2;
        if (l2 < 0) l2 = l1;
        cold->lens[0] = l1;
        cold->lens[1] = l2;
        double rr = rho + 0.5 * o->uN;
        cold->area = M_PI * rr * rr;
    }
}

/* Update of an existing contact (spec 1.6). dvs: periodic velocity shift. */
static inline __attribute__((always_inline)) void l6geom_update(grit_l6geom *g, const grit_cg2_out *o, double dt, bool renorm, grit_vec3 dvs)
{
    grit_vec3 nprev = g->ex, yprev = g->ey, n = o->n;
    grit_vec3 r = v3_cross(nprev, n);
    grit_vec3 nbar = v3_scale(v3_add(nprev, n), 0.5);
    double nb = v3_norm(nbar);
    nbar = nb == 0 ? n : v3_scale(nbar, 1.0 / nb);
    grit_vec3 tau = v3_scale(nbar, 0.5 * dt * v3_dot(nbar, v3_add(o->w1, o->w2)));
    grit_vec3 rho = v3_add(r, tau);
    /* mid-step frame */
    grit_vec3 xm = nbar;
    grit_vec3 ym = v3_madd(yprev, -0.5, v3_cross(yprev, rho));
    grit_vec3 zm = v3_cross(xm, ym);
    /* new frame */
    grit_vec3 ex = n;
    grit_vec3 ey = v3_sub(yprev, v3_cross(ym, rho));
    if (renorm) {
        ex = v3_normalized(ex);
        ey = v3_normalized(v3_madd(ey, -v3_dot(ex, ey), ex));
    }
    /* mid-step branch vectors and relative velocity */
    grit_vec3 cm = v3_scale(v3_add(g->c, o->c), 0.5);
    grit_vec3 x1m = v3_madd(o->x1, -0.5 * dt, o->v1);
    grit_vec3 v2 = v3_add(o->v2, dvs);
    grit_vec3 x2m = v3_madd(o->x2, -0.5 * dt, v2);
    grit_vec3 b1 = v3_sub(cm, x1m), b2 = v3_sub(cm, x2m);
    grit_vec3 vrel = v3_sub(v3_add(v2, v3_cross(o->w2, b2)), v3_add(o->v1, v3_cross(o->w1, b1)));
    grit_vec3 dw = v3_sub(o->w2, o->w1);
    g->vel = v3(v3_dot(xm, vrel), v3_dot(ym, vrel), v3_dot(zm, vrel));
    g->angvel = v3(v3_dot(xm, dw), v3_dot(ym, dw), v3_dot(zm, dw));
    g->ex = ex;
    g->ey = ey;
    g->c = o->c;
    g->uN = o->uN;
}

#endif
