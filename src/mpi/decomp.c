/* grit MPI: the slabs. The scene's moving particles are cut into as many
 * slabs as ranks along the axis of their largest extent, each slab holding
 * the same number of particles (to the resolution of a histogram), made
 * again at every re-partition, so that the load follows a flow. The cut
 * depends only on the particles' positions, not on which rank held what. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "mpi/mpi_impl.h"

double grit_mpi_halo(const grit_scene *s)
{
    /* a candidate pair is at most (r_a + r_b) interaction_radius + 2 skin
     * apart at the rebuild (collide/broadphase.c): a particle that close to
     * a slab is a ghost there. The 1e-9 margin covers rounding. */
    const struct grit_mpi *m = s->mpi;
    const double h = 2.0 * m->rmax * s->def.interaction_radius + 2.0 * s->verlet_dist;
    return h * (1 + 1e-9) + 1e-12;
}

int grit_mpi_owner(const struct grit_mpi *m, grit_vec3 x)
{
    if (m->gather) return 0;
    const double c = m->axis == 0 ? x.x : m->axis == 1 ? x.y : x.z;
    int lo = 0, hi = m->size - 1; /* the last r with bounds[r] <= c */
    while (lo < hi) {
        const int mid = (lo + hi + 1) / 2;
        if (m->bounds[mid] <= c)
            lo = mid;
        else
            hi = mid - 1;
    }
    return lo;
}

int grit_mpi_partition(grit_scene *s)
{
    struct grit_mpi *m = s->mpi;
    const int P = m->size;
    m->bounds[0] = -INFINITY;
    m->bounds[P] = INFINITY;
    if (m->gather || P == 1) {
        for (int r = 1; r < P; r++) m->bounds[r] = INFINITY;
        return GRIT_OK;
    }
    /* the moving particles' box: one reduction of -min and max */
    double ext[6] = {-INFINITY, -INFINITY, -INFINITY, -INFINITY, -INFINITY, -INFINITY};
    for (int i = 0; i < s->b.n; i++) {
        if (!grit_mpi_mine(s, i)) continue;
        const grit_vec3 x = s->b.pr[i].pos;
        const double c[3] = {x.x, x.y, x.z};
        for (int d = 0; d < 3; d++) {
            if (-c[d] > ext[d]) ext[d] = -c[d];
            if (c[d] > ext[3 + d]) ext[3 + d] = c[d];
        }
    }
    double g[6];
    MPI_Allreduce(ext, g, 6, MPI_DOUBLE, MPI_MAX, m->comm);
    int axis = 0;
    double best = -1;
    for (int d = 0; d < 3; d++) {
        const double e = g[3 + d] + g[d];
        if (e > best) best = e, axis = d;
    }
    m->axis = axis;
    const double lo = -g[axis], hi = g[3 + axis];
    if (!(best > 0) || !isfinite(lo) || !isfinite(hi)) { /* no moving particle, or all in one plane */
        for (int r = 1; r < P; r++) m->bounds[r] = isfinite(hi) ? hi : INFINITY;
        return GRIT_OK;
    }
    /* the count per bin along the axis, summed over the ranks */
    const int B = 256 * P;
    long long *h = calloc((size_t)B, sizeof *h), *H = malloc((size_t)B * sizeof *H);
    int ok = h && H;
    if (ok)
        for (int i = 0; i < s->b.n; i++) {
            if (!grit_mpi_mine(s, i)) continue;
            const grit_vec3 x = s->b.pr[i].pos;
            const double c = axis == 0 ? x.x : axis == 1 ? x.y : x.z;
            int k = (int)((c - lo) / (hi - lo) * B);
            h[k < 0 ? 0 : k >= B ? B - 1 : k]++;
        }
    int all_ok;
    MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_MIN, m->comm);
    if (!all_ok) {
        free(h);
        free(H);
        return grit_fail(s, GRIT_ENOMEM, "out of memory for the MPI partition's histogram");
    }
    MPI_Allreduce(h, H, B, MPI_LONG_LONG, MPI_SUM, m->comm);
    long long total = 0;
    for (int k = 0; k < B; k++) total += H[k];
    /* slab r starts at the first bin edge where r / P of the particles lie below */
    long long below = 0;
    int r = 1;
    for (int k = 0; k < B && r < P; k++) {
        below += H[k];
        while (r < P && below * P >= total * r) m->bounds[r++] = lo + (hi - lo) * (k + 1) / B;
    }
    while (r < P) m->bounds[r++] = hi;
    free(h);
    free(H);
    return GRIT_OK;
}
