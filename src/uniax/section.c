/* grit: the cross-section of a non-prismatic specimen: the smallest, over
 * interior planes across the load axis, of the area of the convex hull of
 * the discs in which the plane cuts the spheres (the thesis' measure for the
 * dog bone, whose waist carries the stress). Each disc enters the hull as
 * a regular polygon circumscribing it, so the area is an upper bound that
 * converges as 1/SIDES^2 (at most 0.25 % too large with 64 sides, the excess
 * of one polygon over its disc). Yade's figure (section=yade) puts six
 * points around every sphere that the plane crosses, whatever the depth of
 * the cut, at (+-r, 0) and (+-r/2, +-sqrt(3) r): up to 1.8 radii out along
 * the second axis, which overstates the section (17 % on the example
 * specimen); it is there to compare stresses with Yade's. */
#include <stdlib.h>

#include "uniax/uniax_impl.h"

enum { SIDES = 64 };

typedef struct pt {
    double u, v;
} pt;

static int by_uv(const void *a, const void *b)
{
    const pt *p = a, *q = b;
    if (p->u != q->u) return p->u < q->u ? -1 : 1;
    return (p->v > q->v) - (p->v < q->v);
}

static double cross(pt o, pt a, pt b) { return (a.u - o.u) * (b.v - o.v) - (a.v - o.v) * (b.u - o.u); }

/* Andrew's monotone chain; the hull's area by the shoelace formula. */
static double hull_area(pt *p, int n, pt *h)
{
    qsort(p, (size_t)n, sizeof *p, by_uv);
    int k = 0;
    for (int i = 0; i < n; i++) {
        while (k >= 2 && cross(h[k - 2], h[k - 1], p[i]) <= 0) k--;
        h[k++] = p[i];
    }
    for (int i = n - 2, t = k + 1; i >= 0; i--) {
        while (k >= t && cross(h[k - 2], h[k - 1], p[i]) <= 0) k--;
        h[k++] = p[i];
    }
    double a = 0;
    for (int i = 0; i + 1 < k; i++) a += h[i].u * h[i + 1].v - h[i + 1].u * h[i].v;
    return 0.5 * fabs(a);
}

int grit_uniax_hull_section(const grit_vec3 *center, const double *radius, int n, int axis, double lo, double hi,
                            int planes, bool yade, double *area, double *at, char *err, size_t errlen)
{
    if (axis < 0 || axis > 2) return uniax_fail(err, errlen, GRIT_EINVAL, "section: axis %d is not 0, 1 or 2", axis);
    if (planes < 1) return uniax_fail(err, errlen, GRIT_EINVAL, "section: %d planes; give at least 1", planes);
    if (!(lo < hi)) return uniax_fail(err, errlen, GRIT_EINVAL, "section: the ends %g and %g are not in order (m)", lo, hi);
    pt *p = malloc(sizeof *p * ((size_t)n * SIDES + 1)), *h = malloc(sizeof *h * (2 * (size_t)n * SIDES + 2));
    if (!p || !h) {
        free(p), free(h);
        return uniax_fail(err, errlen, GRIT_ENOMEM, "section: out of memory for %d spheres", n);
    }
    const int b = (axis + 1) % 3, c = (axis + 2) % 3;
    /* circumscribed polygon: vertices at R / cos(pi / SIDES) */
    const double grow = 1.0 / cos(M_PI / SIDES);
    double best = INFINITY, best_at = NAN;
    int rc = GRIT_OK;
    for (int k = 1; k <= planes; k++) {
        const double x = lo + k * (hi - lo) / (planes + 1);
        int m = 0;
        for (int i = 0; i < n; i++) {
            const double d = v3_axis(center[i], axis) - x, r2 = radius[i] * radius[i] - d * d;
            if (!(r2 > 0)) continue;
            const double u = v3_axis(center[i], b), v = v3_axis(center[i], c);
            if (yade) {
                const double r = radius[i], w = sqrt(3.0) * r;
                const pt six[6] = {{u + r, v}, {u - r, v}, {u + r / 2, v + w}, {u + r / 2, v - w}, {u - r / 2, v + w},
                                   {u - r / 2, v - w}};
                for (int j = 0; j < 6; j++) p[m++] = six[j];
                continue;
            }
            const double rho = sqrt(r2) * grow;
            for (int j = 0; j < SIDES; j++) {
                const double t = 2 * M_PI * j / SIDES;
                p[m++] = (pt){u + rho * cos(t), v + rho * sin(t)};
            }
        }
        if (m == 0) {
            rc = uniax_fail(err, errlen, GRIT_ESTATE, "section: the plane %c = %g m cuts no sphere", "xyz"[axis], x);
            break;
        }
        const double a = hull_area(p, m, h);
        if (a < best) best = a, best_at = x;
    }
    free(p), free(h);
    if (rc) return rc;
    *area = best;
    if (at) *at = best_at;
    return GRIT_OK;
}
