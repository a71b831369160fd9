/* grit: tiling a periodic packing over a region and keeping the spheres
 * that lie entirely inside it.
 *
 * Copies of the cell, translated by H k for integer k, cover the region's
 * bounding box; the images are visited in lexicographic order of k and the
 * cell's spheres in their order, so that the result depends on nothing but
 * the inputs. */
#include <stdlib.h>
#include <string.h>

#include "pack/pack_impl.h"

static grit_vec3 mul(const double A[3][3], grit_vec3 v)
{
    return v3(A[0][0] * v.x + A[0][1] * v.y + A[0][2] * v.z, A[1][0] * v.x + A[1][1] * v.y + A[1][2] * v.z,
              A[2][0] * v.x + A[2][1] * v.y + A[2][2] * v.z);
}

static double inverse(const double H[3][3], double Hi[3][3])
{
    const double det = H[0][0] * (H[1][1] * H[2][2] - H[1][2] * H[2][1]) -
                       H[0][1] * (H[1][0] * H[2][2] - H[1][2] * H[2][0]) +
                       H[0][2] * (H[1][0] * H[2][1] - H[1][1] * H[2][0]);
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            const int i1 = (j + 1) % 3, i2 = (j + 2) % 3, j1 = (i + 1) % 3, j2 = (i + 2) % 3;
            Hi[i][j] = (H[i1][j1] * H[i2][j2] - H[i1][j2] * H[i2][j1]) / det;
        }
    return det;
}

typedef struct grow {
    grit_vec3 *c;
    double *r;
    int n, cap;
} grow;

static int push(grow *g, grit_vec3 c, double r)
{
    if (g->n == g->cap) {
        if (g->cap > 0x3fffffff) return -1;
        const int cap = g->cap ? 2 * g->cap : 1024;
        grit_vec3 *nc = realloc(g->c, sizeof *nc * (size_t)cap);
        if (!nc) return -1;
        g->c = nc;
        double *nr = realloc(g->r, sizeof *nr * (size_t)cap);
        if (!nr) return -1;
        g->r = nr;
        g->cap = cap;
    }
    g->c[g->n] = c;
    g->r[g->n++] = r;
    return 0;
}

int grit_packing_clip(const grit_packing *cell, const grit_region *reg, bool recentre, grit_vec3 shift,
                      grit_packing *out, char *err, size_t errlen)
{
    if (!cell->periodic || cell->n < 1)
        return pack_fail(err, errlen, GRIT_EINVAL,
                         "clip: the packing to tile must be periodic (made by grit_pack_dense or loaded from its "
                         "file with its '# cell:' line) and hold spheres");
    if (!v3_isfinite(shift)) return pack_fail(err, errlen, GRIT_EINVAL, "parameter 'tile_shift' must be finite (m)");
    double Hi[3][3];
    const double(*H)[3] = (const double(*)[3])cell->cell;
    if (!(inverse(H, Hi) > 0)) return pack_fail(err, errlen, GRIT_EINVAL, "clip: the cell's volume is not positive");
    grit_vec3 lo, hi;
    grit_region_bounds(reg, &lo, &hi);
    grit_vec3 origin = shift;
    if (recentre) origin = v3_add(origin, v3_sub(v3_scale(v3_add(lo, hi), 0.5), mul(H, v3(0.5, 0.5, 0.5))));
    double rmax = 0;
    for (int i = 0; i < cell->n; i++) rmax = fmax(rmax, cell->radius[i]);
    /* the images k whose copy of the cell can hold a centre in the box:
     * reduced coordinates of the box's corners, widened by one cell */
    double kmin[3] = {INFINITY, INFINITY, INFINITY}, kmax[3] = {-INFINITY, -INFINITY, -INFINITY};
    for (int corner = 0; corner < 8; corner++) {
        const grit_vec3 p = v3(corner & 1 ? hi.x : lo.x, corner & 2 ? hi.y : lo.y, corner & 4 ? hi.z : lo.z);
        const grit_vec3 f = mul(Hi, v3_sub(p, origin));
        const double fv[3] = {f.x, f.y, f.z};
        for (int k = 0; k < 3; k++) kmin[k] = fmin(kmin[k], fv[k]), kmax[k] = fmax(kmax[k], fv[k]);
    }
    long k0[3], k1[3];
    double images = 1;
    for (int k = 0; k < 3; k++) {
        k0[k] = (long)floor(kmin[k]) - 1;
        k1[k] = (long)ceil(kmax[k]);
        images *= (double)(k1[k] - k0[k] + 1);
    }
    if (images * cell->n > 2e9)
        return pack_fail(err, errlen, GRIT_EINVAL,
                         "clip: the region (%s) needs %.3g copies of the cell of %d spheres: too many; make the cell "
                         "larger",
                         grit_region_describe(reg), images, cell->n);
    grow g = {0};
    long tried = 0;
    for (long a = k0[0]; a <= k1[0]; a++)
        for (long b = k0[1]; b <= k1[1]; b++)
            for (long c = k0[2]; c <= k1[2]; c++) {
                const grit_vec3 t = v3_add(origin, mul(H, v3((double)a, (double)b, (double)c)));
                for (int i = 0; i < cell->n; i++) {
                    const grit_vec3 x = v3_add(cell->center[i], t);
                    const double r = cell->radius[i];
                    if (x.x - r < lo.x || x.y - r < lo.y || x.z - r < lo.z || x.x + r > hi.x || x.y + r > hi.y ||
                        x.z + r > hi.z)
                        continue;
                    tried++;
                    if (!grit_region_contains(reg, x, r)) continue;
                    if (push(&g, x, r)) {
                        free(g.c), free(g.r);
                        return pack_fail(err, errlen, GRIT_ENOMEM, "clip: out of memory after %d spheres", g.n);
                    }
                }
            }
    if (g.n == 0) {
        free(g.c), free(g.r);
        return pack_fail(err, errlen, GRIT_ESTATE,
                         "clip: no sphere of the packing (radii up to %g m) lies entirely inside the region (%s)", rmax,
                         grit_region_describe(reg));
    }
    grit_packing p = {0};
    p.n = g.n;
    p.center = g.c;
    p.radius = g.r;
    p.periodic = false;
    p.volume = grit_region_volume(reg);
    p.solid_fraction = grit_packing_sphere_volume(&p) / p.volume; /* NaN for an unknown volume */
    p.pressure = cell->pressure;
    p.unbalanced = cell->unbalanced;
    p.steps = cell->steps;
    char line[1400], o[3][32];
    pack_exact(shift.x, o[0], sizeof o[0]), pack_exact(shift.y, o[1], sizeof o[1]), pack_exact(shift.z, o[2], sizeof o[2]);
    snprintf(line, sizeof line, "clip %s recentre=%s tile_shift=%s,%s,%s kept=%d of %ld in the box, %d cell spheres",
             grit_region_describe(reg), recentre ? "true" : "false", o[0], o[1], o[2], g.n, tried, cell->n);
    if ((cell->info && pack_info_append(&p, cell->info)) || pack_info_append(&p, line)) {
        grit_packing_free(&p);
        return pack_fail(err, errlen, GRIT_ENOMEM, "clip: out of memory");
    }
    *out = p;
    return GRIT_OK;
}
