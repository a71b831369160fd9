/* grit: the exact sliding work of Kuhn's law (spec S13, D5), the optional
 * `kuhn_work = exact`. Kept out of line: it is a cold path (energy studies).
 *
 * On the friction circle the force angle obeys y(b) = y* + A ln(1 + B b)/B
 * with cos(theta) = tanh(y), so the work rate mu N s cos(theta) integrates
 * to the integral below. For B != 0 it is not elementary; composite 16-point
 * Gauss-Legendre with ceil(A) panels gives <= 1.1e-12 relative error for
 * A <= 30, -0.9 <= B <= 2 (spec 3, measured). */
#include "law2/kuhn_math.h"

/* Gauss-Legendre, 16 points on [-1, 1]: positive nodes and their weights
 * (roots of P16, computed with numpy.polynomial.legendre.leggauss). */
static const double gl16[8][2] = {
    {0.095012509837637454, 0.18945061045506859}, {0.28160355077925892, 0.18260341504492361},
    {0.45801677765722737, 0.16915651939500262},  {0.61787624440264377, 0.14959598881657676},
    {0.755404408355003, 0.12462897125553403},    {0.86563120238783176, 0.095158511682492591},
    {0.9445750230732326, 0.062253523938647706},  {0.98940093499164994, 0.027152459411754037},
};

static double integrand(double beta, double ystar, double A, double B)
{
    const double x = B * beta;
    return (1.0 + x) * tanh(ystar + A * beta * grit_kuhn_L(x));
}

double grit_kuhn_exact_slide_work(double muNs, double s, double A, double B, double c0, double s0)
{
    if (s0 == 0) return (c0 >= 0 ? 1.0 : -1.0) * muNs * s * (1.0 + 0.5 * B); /* theta stays 0 or pi */
    const double as0 = fabs(s0);
    /* y* = artanh(c0) without cancellation near c0 = +-1 */
    const double ystar = c0 >= 0 ? log((1.0 + c0) / as0) : log(as0 / (1.0 - c0));
    int np = (int)ceil(A);
    if (np < 1) np = 1;
    if (np > 4096) np = 4096; /* beyond A ~ 30 the force has long aligned with the movement */
    const double h = 1.0 / np;
    double sum = 0;
    for (int j = 0; j < np; j++) {
        const double mid = (j + 0.5) * h, half = 0.5 * h;
        double ps = 0;
        for (int q = 0; q < 8; q++) {
            const double d = half * gl16[q][0];
            ps += gl16[q][1] * (integrand(mid - d, ystar, A, B) + integrand(mid + d, ystar, A, B));
        }
        sum += half * ps;
    }
    return muNs * s * sum;
}
