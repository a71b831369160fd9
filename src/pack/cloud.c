/* grit: the radii of a packing and its initial loose cloud.
 *
 * The cloud is made by random sequential addition: each sphere, largest
 * first, gets uniformly random positions in the periodic cube until one
 * overlaps nothing placed before. Largest first because a big sphere finds a
 * hole much more easily before the small ones are spread everywhere. Below a
 * solid fraction of about 0.3 a few tries per sphere suffice (random
 * sequential addition of equal spheres saturates near 0.38). */
#include <stdlib.h>
#include <string.h>

#include "pack/pack_impl.h"

enum { MAX_TRIES = 100000 };

static int by_radius_desc(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x < y) - (x > y);
}

int pack_radii(const grit_pack_def *def, const grit_psd *psd, double *r, int *counts, char *err, size_t errlen)
{
    uint64_t rng = (uint64_t)def->seed * 0x2545f4914f6cdd1du + 1; /* the cloud uses another stream */
    if (!psd) {
        for (int i = 0; i < def->n; i++) r[i] = def->radius * (1 + def->spread * (2 * pack_uniform(&rng) - 1));
        qsort(r, (size_t)def->n, sizeof *r, by_radius_desc);
        return GRIT_OK;
    }
    /* number of each size: proportional to its volume share over its
     * sphere volume, rounded by largest remainders so that they add to n */
    const int m = psd->n;
    double qsum = 0;
    double *q = malloc(sizeof *q * (size_t)m);
    if (!q) return pack_fail(err, errlen, GRIT_ENOMEM, "psd: out of memory for %d sizes", m);
    for (int k = 0; k < m; k++) {
        q[k] = psd->mass_fraction[k] / (psd->radius[k] * psd->radius[k] * psd->radius[k]);
        qsum += q[k];
    }
    int given = 0;
    for (int k = 0; k < m; k++) {
        q[k] = def->n * q[k] / qsum;
        counts[k] = (int)floor(q[k]);
        q[k] -= counts[k];
        given += counts[k];
    }
    for (; given < def->n; given++) { /* the largest remainder first; the first size on ties */
        int best = 0;
        for (int k = 1; k < m; k++)
            if (q[k] > q[best]) best = k;
        counts[best]++;
        q[best] = -1;
    }
    free(q);
    int i = 0;
    for (int k = 0; k < m; k++)
        for (int c = 0; c < counts[k]; c++) r[i++] = psd->radius[k];
    qsort(r, (size_t)def->n, sizeof *r, by_radius_desc);
    return GRIT_OK;
}

/* The periodic distance squared between a and b in the cube of edge a. */
static double dist2_periodic(grit_vec3 p, grit_vec3 q, double edge)
{
    double d[3] = {p.x - q.x, p.y - q.y, p.z - q.z}, s = 0;
    for (int k = 0; k < 3; k++) {
        d[k] -= edge * nearbyint(d[k] / edge);
        s += d[k] * d[k];
    }
    return s;
}

int pack_cloud(const double *r, int n, double phi0, uint64_t seed, grit_vec3 *pos, double *edge_out, char *err,
               size_t errlen)
{
    double vol = 0, rmax = 0;
    for (int i = 0; i < n; i++) {
        vol += 4.0 / 3.0 * M_PI * r[i] * r[i] * r[i];
        rmax = fmax(rmax, r[i]);
    }
    const double edge = cbrt(vol / phi0);
    /* bins of at least the largest diameter: a sphere can only overlap those
     * of its own and the 26 neighbouring bins; fewer than 3 bins per edge
     * would visit a bin twice, so then one bin holds all */
    int m = (int)floor(edge / (2 * rmax));
    if (m < 3) m = 1;
    if (m > 1024) m = 1024;
    const size_t nb = (size_t)m * m * m;
    int *head = malloc(sizeof *head * nb), *next = malloc(sizeof *next * (size_t)n);
    if (!head || !next) {
        free(head), free(next);
        return pack_fail(err, errlen, GRIT_ENOMEM, "pack: out of memory for the initial cloud of %d spheres", n);
    }
    for (size_t b = 0; b < nb; b++) head[b] = -1;
    uint64_t rng = seed;
    const double bin = edge / m;
    for (int i = 0; i < n; i++) {
        int tries = 0;
        for (;; tries++) {
            if (tries == MAX_TRIES) {
                free(head), free(next);
                return pack_fail(err, errlen, GRIT_EINVAL,
                                 "parameter 'phi0' = %g: sphere %d of %d (radius %g m) found no place without overlap "
                                 "in %d random tries; lower phi0",
                                 phi0, i + 1, n, r[i], MAX_TRIES);
            }
            /* one draw per statement, z first: the order of a call's arguments
             * is unspecified (GCC evaluates the last first, Clang the first),
             * so three draws inside v3() made other clouds with Clang; z, y, x
             * is the order GCC's builds drew, kept so their packings stay */
            const double cz = edge * pack_uniform(&rng), cy = edge * pack_uniform(&rng), cx = edge * pack_uniform(&rng);
            grit_vec3 c = v3(cx, cy, cz);
            int b[3] = {(int)(c.x / bin), (int)(c.y / bin), (int)(c.z / bin)};
            bool free_spot = true;
            for (int dx = m > 1 ? -1 : 0; dx <= (m > 1 ? 1 : 0) && free_spot; dx++)
                for (int dy = m > 1 ? -1 : 0; dy <= (m > 1 ? 1 : 0) && free_spot; dy++)
                    for (int dz = m > 1 ? -1 : 0; dz <= (m > 1 ? 1 : 0) && free_spot; dz++) {
                        const int x = (b[0] + dx + m) % m, y = (b[1] + dy + m) % m, z = (b[2] + dz + m) % m;
                        for (int j = head[((size_t)x * m + y) * m + z]; j >= 0; j = next[j])
                            if (dist2_periodic(c, pos[j], edge) < (r[i] + r[j]) * (r[i] + r[j])) {
                                free_spot = false;
                                break;
                            }
                    }
            if (!free_spot) continue;
            pos[i] = c;
            const size_t k = ((size_t)(b[0] % m) * m + b[1] % m) * m + b[2] % m;
            next[i] = head[k];
            head[k] = i;
            break;
        }
    }
    free(head), free(next);
    *edge_out = edge;
    return GRIT_OK;
}
