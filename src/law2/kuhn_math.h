/* grit internal: Kuhn's refined linear-frictional contact update, the pure
 * per-contact mathematics (spec kuhn-linear-frictional.md, section 2).
 *
 * One call advances one contact by one step from plain inputs (overlaps at
 * both ends of the step, end-of-step normal, relative movement, rotation
 * increments, stored tangential force) to plain outputs (new stored force,
 * normal force, work, energy increments, status). Nothing here knows about
 * the engine; law2/kuhn.h adapts it to the contact loop, and the tests drive
 * it directly with the spec's cases.
 *
 * The four refinements can be switched off one by one; with all of them off
 * (fresh, onset, turn false, twirl off, projection on) the update is the
 * conventional Cundall law of spec section 4, so both are one code. Every
 * switch only removes a step; none adds a different formula.
 *
 * Choices beyond the paper's text (spec 2.5), all documented in
 * docs/kuhn-law.md: V1 overlap-based normal increment; V2 corrected root
 * rule (round-off-safe quadratic); V3 exact fresh-contact work; V4 exact
 * twirl by default; V5 trapezoid sliding work by default, quadrature as an
 * option; V6 released spring energy booked as dissipation at separation; V7
 * entry clamp of the stored force; V8 no explicit angle.
 */
#ifndef GRIT_LAW2_KUHN_MATH_H
#define GRIT_LAW2_KUHN_MATH_H

#include <stdbool.h>

#include "grit/kuhn.h"
#include "grit/math.h"

/* The switches of spec section 4 (R1..R4b) and the work option (V5). */
typedef struct grit_kuhn_opt {
    bool fresh;      /* R1: discard the movement before the touch instant alpha0 */
    bool onset;      /* R2: elastic up to the slip onset alpha*, then slip */
    bool turn;       /* R3: closed-form turning of the force during slip (off: radial return) */
    bool projection; /* R4a: project the force onto the new tangent plane */
    int twirl;       /* R4b: GRIT_KUHN_TWIRL_* */
    int work;        /* GRIT_KUHN_WORK_*: sliding work by the trapezoid or by quadrature */
} grit_kuhn_opt;

static inline grit_kuhn_opt grit_kuhn_refined(void)
{
    return (grit_kuhn_opt){true, true, true, true, GRIT_KUHN_TWIRL_EXACT, GRIT_KUHN_WORK_TRAPEZOID};
}
static inline grit_kuhn_opt grit_kuhn_conventional(void)
{
    return (grit_kuhn_opt){false, false, false, true, GRIT_KUHN_TWIRL_OFF, GRIT_KUHN_WORK_TRAPEZOID};
}

/* Inputs (spec 1.2). du is the relative displacement of q's material point at
 * the contact w.r.t. p's over the step; n1 points from p to q. */
typedef struct grit_kuhn_in {
    double zeta0, zeta1;     /* overlaps at the start and end of the step (> 0: touching) */
    grit_vec3 n1;            /* unit normal at the end of the step, p -> q */
    grit_vec3 du;            /* relative contact displacement over the step */
    grit_vec3 dth_p, dth_q;  /* rotation increments of p and q */
    grit_vec3 f0;            /* stored tangential force (ignored for a fresh contact) */
    double kn, kt, mu;
    bool fresh;              /* no stored history: the contact did not touch at the start */
} grit_kuhn_in;

/* Outputs (spec 1.3). The force transmitted to q is N n1 - ft. */
typedef struct grit_kuhn_out {
    grit_vec3 ft;   /* new stored tangential force (after projection and twirl) */
    double N;       /* normal force N1 = kn zeta1 (0 when separated) */
    double Un;      /* normal elastic energy N1^2 / (2 kn) */
    double dW;      /* tangential work done on the contact in the step */
    double dU;      /* tangential elastic-energy increment */
    double dD;      /* frictional dissipation dW - dU */
    double alpha;   /* alpha0 (fresh), alpha* (slip), 1 (elastic), 0 (separated) */
    double A;       /* k_t s / (mu N*) of the sliding phase (0 if none): how much the refinements matter */
    int status;     /* grit_kuhn_status */
} grit_kuhn_out;

#define GRIT_KUHN_EPS 1e-14

/* Exact sliding work of spec S13/D5 by composite Gauss-Legendre quadrature
 * (kuhn_math.c): mu N* s int_0^1 (1 + B b) tanh(y* + A ln(1 + B b) / B) db. */
double grit_kuhn_exact_slide_work(double muNs, double s, double A, double B, double c0, double s0);

/* The small-argument series below are written with multiplications by
 * constant reciprocals (a division by a literal is a real division in C). */

/* ln(1 + x) / x, continuous at 0 (spec S13). DEM steps change the normal
 * force by far less than 1% in a step: there the series (truncation error
 * below x^8/9 < 1.2e-17) replaces log1p and a division. */
static inline double grit_kuhn_L(double x)
{
    if (fabs(x) < 0.01)
        return 1.0 + x * (-0.5 + x * ((1.0 / 3) + x * (-0.25 + x * (0.2 + x * ((-1.0 / 6) + x * ((1.0 / 7) - 0.125 * x))))));
    return log1p(x) / x;
}

/* exp(-x) for x >= 0; the Taylor series below 1/16 (truncation error below
 * x^10/10! < 2.5e-19). The sliding step's x = A L(B) is small in DEM. */
static inline double grit_kuhn_expm(double x)
{
    if (x < 0.0625)
        return 1.0 + x * (-1.0 + x * (0.5 + x * ((-1.0 / 6) + x * ((1.0 / 24) + x * ((-1.0 / 120) + x * ((1.0 / 720) +
               x * ((-1.0 / 5040) + x * ((1.0 / 40320) + x * (-1.0 / 362880)))))))));
    return exp(-x);
}

/* cos and sin of the twirl angle: DEM steps turn a contact by 1e-6..1e-3
 * rad; the truncated series are exact to round-off for |w| < 0.05. */
static inline void grit_kuhn_sincos(double w, double *c, double *s)
{
    if (fabs(w) < 1e-3) { /* truncation below w^7/5040 and w^6/720 */
        const double w2 = w * w;
        *s = w * (1.0 + w2 * ((-1.0 / 6) + w2 * (1.0 / 120)));
        *c = 1.0 + w2 * (-0.5 + w2 * (1.0 / 24));
    } else if (fabs(w) < 0.05) {
        const double w2 = w * w;
        *s = w * (1.0 + w2 * ((-1.0 / 6) + w2 * ((1.0 / 120) + w2 * (-1.0 / 5040))));
        *c = 1.0 + w2 * (-0.5 + w2 * ((1.0 / 24) + w2 * ((-1.0 / 720) + w2 * (1.0 / 40320))));
    } else {
        *s = sin(w);
        *c = cos(w);
    }
}

/* Slip onset alpha* (spec S9): the root of a al^2 + b al + c = 0 with
 * c <= 0 < a + b + c, evaluated without cancellation and without dividing
 * by a vanishing a. */
static inline double grit_kuhn_onset(double a, double b, double c)
{
    double disc = fmax(b * b - 4.0 * a * c, 0.0);
    double al;
    if (b >= 0) {
        double den = -b - sqrt(disc);
        al = den == 0 ? 0.0 : 2.0 * c / den;
    } else {
        al = (-b + sqrt(disc)) / (2.0 * a);
    }
    return al > 0 ? (al < 1 ? al : 1.0) : 0.0;
}

/* The sliding phase (spec S12-S13): force F* on the limit mu N* at the
 * onset, remaining movement du1 (tangent plane of n1), remaining normal-force
 * increment dN1 = N1 - N*. Returns the final force (on mu N1, N1 passed
 * as such: N* + dN1 can lose digits when N falls nearly to 0); *W the
 * sliding work.
 *
 * The reference form of S13, with the direction cosines left unnormalised:
 * with ct = F*.du1 = s r c0 and st = F*.(n1 x du1) = s r s0 (r the in-plane
 * magnitude of F*), P = 1 + c0 and M = s0^2/P become s r P and s r M, and
 * cos(theta1) = (P^2 - k^2 st^2) / (P^2 + k^2 st^2),
 * sin(theta1) = 2 k st P / (P^2 + k^2 st^2) (c0 >= 0; with M for c0 < 0),
 * so that the step needs two square roots and two divisions. */
static inline grit_vec3 grit_kuhn_slide(grit_vec3 Fs, double Ns, double dN1, double N1, grit_vec3 du1, grit_vec3 n1,
                                        double kt, double mu, int work, double *W, double *Aout)
{
    const double muNs = mu * Ns, muN1 = mu * N1;
    const double s2 = v3_norm2(du1);
    if (kt * kt * s2 <= GRIT_KUHN_EPS * GRIT_KUHN_EPS * muNs * muNs) {
        /* no movement left: the direction cannot change */
        const double Fn = v3_norm(Fs);
        *W = 0;
        *Aout = 0;
        return Fn > 0 ? v3_scale(Fs, muN1 / Fn) : v3_zero();
    }
    const double s = sqrt(s2);
    const grit_vec3 wv = v3_cross(n1, du1); /* s w */
    /* the in-plane part only: a component along n1 inherited from the old
     * tangent plane is dropped */
    const double ct = v3_dot(Fs, du1), st = v3_dot(Fs, wv);
    const double r = sqrt(ct * ct + st * st);
    const double inv = 1.0 / muNs;
    const double A = kt * s * inv, B = dN1 * mu * inv;
    const double k = grit_kuhn_expm(A * grit_kuhn_L(B));
    double cn, sn, den; /* cos, sin of theta1 times den */
    if (r == 0) {       /* no in-plane force: it slides along the movement */
        cn = den = 1.0;
        sn = 0.0;
    } else if (ct >= 0) {
        const double P = r + ct, P2 = P * P, k2s2 = k * k * st * st;
        cn = P2 - k2s2;
        sn = 2.0 * k * st * P;
        den = P2 + k2s2;
    } else {
        const double M = r - ct, st2 = st * st, k2M2 = k * k * M * M;
        cn = st2 - k2M2;
        sn = 2.0 * k * st * M;
        den = st2 + k2M2;
    }
    grit_vec3 f1;
    if (den > 0) {
        const double id = muN1 / (s * den);
        f1 = v3_add(v3_scale(du1, cn * id), v3_scale(wv, sn * id));
    } else { /* theta* = pi with k underflowed: the force stays opposite */
        f1 = v3_scale(du1, -muN1 / s);
    }
    *Aout = A;
    if (work == GRIT_KUHN_WORK_EXACT) {
        const double c0 = r > 0 ? ct / r : 1.0, s0 = r > 0 ? st / r : 0.0;
        *W = grit_kuhn_exact_slide_work(muNs, s, A, B, c0, s0);
    } else {
        *W = 0.5 * v3_dot(v3_add(Fs, f1), du1);
    }
    return f1;
}

/* One step of one contact (spec S1-S17, with the switches of section 4). */
static inline void grit_kuhn_update(const grit_kuhn_in *in, const grit_kuhn_opt *opt, grit_kuhn_out *out)
{
    const double kn = in->kn, kt = in->kt, mu = in->mu;
    const double z0 = in->zeta0, z1 = in->zeta1;
    const grit_vec3 n1 = in->n1;
    const bool fresh = in->fresh || z0 <= 0;
    const double f0sq = fresh ? 0.0 : v3_norm2(in->f0);
    const double ikt2 = kt > 0 ? 0.5 / kt : 0.0; /* kt = 0: no tangential spring, no tangential energy */
    out->A = 0;
    if (z1 <= 0) { /* S2: separation; the released spring energy is dissipated (V6) */
        out->ft = v3_zero();
        out->N = out->Un = out->dW = 0;
        out->dU = -f0sq * ikt2;
        out->dD = -out->dU;
        out->alpha = 0;
        out->status = GRIT_KUHN_SEPARATED;
        return;
    }
    const double N1 = kn * z1, muN1 = mu * N1; /* S3 */
    grit_vec3 dut = v3_madd(in->du, -v3_dot(in->du, n1), n1); /* S4 */
    grit_vec3 f1;
    double W;
    if (kt <= 0 || muN1 <= 0) { /* no tangential force can exist */
        f1 = v3_zero();
        W = 0;
        out->alpha = 1;
        out->status = fresh ? GRIT_KUHN_FRESH_SLIDING : GRIT_KUHN_SLIP;
    } else if (fresh) { /* S5-S6 */
        double a0 = 0;
        if (opt->fresh && z0 < 0) {
            a0 = -z0 / (z1 - z0);
            dut = v3_scale(dut, 1.0 - a0);
        }
        const grit_vec3 tr = v3_scale(dut, kt);
        const double t2 = v3_norm2(tr);
        if (t2 <= muN1 * muN1) {
            f1 = tr;
            out->status = GRIT_KUHN_FRESH_ELASTIC;
        } else { /* force and limit grow in proportion: it slides from the touch on */
            f1 = v3_scale(tr, muN1 / sqrt(t2));
            out->status = GRIT_KUHN_FRESH_SLIDING;
        }
        W = 0.5 * v3_dot(f1, dut); /* exact in both cases (D2) */
        out->alpha = a0;
    } else { /* S7 */
        const double N0 = kn * z0, dN = N1 - N0, muN0 = mu * N0;
        grit_vec3 F0 = in->f0;
        if ((opt->onset || opt->turn) && f0sq > muN0 * muN0) F0 = v3_scale(F0, muN0 / sqrt(f0sq)); /* V7 */
        const grit_vec3 D = v3_scale(dut, kt);
        const grit_vec3 tr = v3_add(F0, D);
        const double t2 = v3_norm2(tr), F0sq = v3_norm2(F0);
        if (t2 <= muN1 * muN1) { /* S8: elastic over the whole step */
            f1 = tr;
            W = (t2 - F0sq) * ikt2;
            out->alpha = 1;
            out->status = GRIT_KUHN_ELASTIC;
        } else {
            double as = 0, W1 = 0, W2;
            grit_vec3 Fs = F0;
            if (opt->onset) { /* S9-S10 */
                const double a = v3_norm2(D) - mu * mu * dN * dN;
                const double b = 2.0 * (v3_dot(F0, D) - mu * mu * N0 * dN);
                const double c = F0sq - muN0 * muN0;
                /* sliding on: the force is on the limit (to round-off) and does
                 * not move inwards; the root is 0 to 1e-14 (the paper's "at the
                 * limit already", line 25, corrected) -- the common case,
                 * without the square root and the division */
                if (!(b >= 0 && c >= -GRIT_KUHN_EPS * muN0 * muN0)) {
                    as = grit_kuhn_onset(a, b, c);
                    Fs = v3_madd(F0, as, D);
                    W1 = (v3_norm2(Fs) - F0sq) * ikt2;
                }
            }
            const double Ns = N0 + as * dN;
            const grit_vec3 du1 = v3_scale(dut, 1.0 - as); /* S11 */
            if (opt->turn) {
                f1 = grit_kuhn_slide(Fs, Ns, (1.0 - as) * dN, N1, du1, n1, kt, mu, opt->work, &W2, &out->A);
            } else { /* radial return of the trial force (conventional K4) */
                f1 = v3_scale(tr, muN1 / sqrt(t2));
                W2 = 0.5 * v3_dot(v3_add(Fs, f1), du1);
                const double s = v3_norm(du1);
                out->A = Ns > 0 ? kt * s / (mu * Ns) : 0;
            }
            W = W1 + W2;
            out->alpha = as;
            out->status = GRIT_KUHN_SLIP;
        }
    }
    if (opt->projection) f1 = v3_madd(f1, -v3_dot(f1, n1), n1); /* S14 */
    if (opt->twirl != GRIT_KUHN_TWIRL_OFF) {                     /* S15 */
        const double om = 0.5 * v3_dot(v3_add(in->dth_p, in->dth_q), n1);
        const grit_vec3 nf = v3_cross(n1, f1);
        if (opt->twirl == GRIT_KUHN_TWIRL_EXACT) {
            double co, si;
            grit_kuhn_sincos(om, &co, &si);
            const grit_vec3 r = v3_add(v3_scale(f1, co), v3_scale(nf, si));
            /* Rodrigues' last term keeps a force off the plane (projection off) rotating rigidly */
            f1 = opt->projection ? r : v3_madd(r, (1.0 - co) * v3_dot(n1, f1), n1);
        } else {
            f1 = v3_madd(f1, om, nf);
        }
    }
    out->ft = f1; /* S17 */
    out->N = N1;
    out->Un = 0.5 * N1 * z1; /* N1^2 / (2 kn) */
    out->dW = W;
    out->dU = (v3_norm2(f1) - f0sq) * ikt2;
    out->dD = W - out->dU;
}

#endif
