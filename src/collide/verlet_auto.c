/* grit: the Verlet distance chosen automatically (see verlet_auto.h). */
#include "collide/verlet_auto.h"

#include <math.h>

#include "cg2/cg2.h"
#include "collide/periodic.h"
#include "shape/shape.h"

/* The cost model's constants, in nanoseconds of one core, from grit's own
 * timers on box-20000, dense and loose (docs/broad-phase.md, "Automatic
 * Verlet distance"): a rebuild costs C_PARTICLE per particle and C_PAIR per
 * candidate pair it finds; the contact loop checks every potential pair at
 * every step for C_POTENTIAL. Only their ratios matter. */
#define C_PARTICLE 500.0
#define C_PAIR 200.0
#define C_POTENTIAL 7.0
/* Candidate pairs grow with the skin s as C0 + K ((1 + s/r)^3 - 1): C0 the
 * pairs in contact or nearly so, K the density of neighbours farther out,
 * 4 phi n for n spheres at solid fraction phi. Measured on box-20000, dense
 * and as a loose cloud of solid fraction 0.3, K was 1.4-1.6 n at skins from
 * 0.02 to 1 r; K_DENSE bounds it. */
#define K_DENSE 1.6
/* A new skin must promise a step this much cheaper than the current one:
 * the measured displacement jitters from one interval to the next, and a
 * skin that followed it would change at every rebuild. */
#define HYSTERESIS 1.1
/* The candidate skins: GRIT_VERLET_AUTO_MIN r_min times powers of 2^(1/4). */
#define GRID_STEP 1.189207115002721

double grit_min_radius(const grit_scene *s)
{
    double rmin = INFINITY;
    for (int i = 0; i < s->b.n; i++) {
        double r = grit_shape_classes[s->b.shape[i]]->equiv_radius(s, i);
        if (r > 0 && r < rmin) rmin = r;
    }
    return rmin;
}

/* The volume of the shell of candidate neighbours beyond contact, in units
 * of the sphere's: a neighbour is a candidate while its centre is within
 * r1 + r2 + 2 s. */
static double shell(double skin, double rmin)
{
    const double x = 1.0 + skin / rmin;
    return x * x * x - 1.0;
}

double grit_verlet_auto_cost(double skin, int n, double pairs0, double skin0, double rmin, double d)
{
    /* K from the count at the current skin when that is lower (a sparse
     * scene), C0 the rest of that count */
    double k = K_DENSE * n;
    if (skin0 > 0 && pairs0 / shell(skin0, rmin) < k) k = pairs0 / shell(skin0, rmin);
    const double c0 = skin0 > 0 ? fmax(pairs0 - k * shell(skin0, rmin), 0.0) : 0.0;
    const double far = k * shell(skin, rmin); /* the pairs a wider skin adds are potential pairs */
    const double per_rebuild = C_PARTICLE * n + C_PAIR * (c0 + far);
    return C_POTENTIAL * far + (d > 0 ? per_rebuild * d / skin : 0.0);
}

/* The largest displacement per step: measured over the interval since the
 * last rebuild when there was one, else from the velocities now. */
static double displacement_rate(const grit_scene *s, double disp2, double v2)
{
    const long steps = s->step - s->verlet_last_rebuild;
    if (s->verlet_last_rebuild >= 0 && steps >= 1 && isfinite(disp2)) return sqrt(disp2) / (double)steps;
    const double dt = isfinite(s->dt) && s->dt > 0 ? s->dt : 0.0;
    return sqrt(v2) * dt;
}

/* One particle's share of a census (halo.c sums them over the ranks). */
void grit_verlet_census_add(const grit_scene *s, int i, grit_verlet_census *c)
{
    const double r = grit_shape_classes[s->b.shape[i]]->equiv_radius(s, i);
    if (r > 0 && r < c->rmin) c->rmin = r;
    const double w = v3_norm2(s->b.vw[i].v);
    if (w > c->v2) c->v2 = w;
}

void grit_verlet_census_of(const grit_scene *s, grit_verlet_census *c)
{
    *c = (grit_verlet_census){INFINITY, 0, (double)s->c.block_start[GRIT_BLOCK_COUNT] + s->c.n_pot, s->b.n};
    for (int i = 0; i < s->b.n; i++) grit_verlet_census_add(s, i, c);
}

double grit_verlet_auto_choose(grit_scene *s, double disp2)
{
    grit_verlet_census c;
    grit_verlet_census_of(s, &c);
    return grit_verlet_auto_pick(s, disp2, &c);
}

double grit_verlet_auto_pick(const grit_scene *s, double disp2, const grit_verlet_census *c)
{
    const double rmin = c->rmin;
    if (!isfinite(rmin)) return 0.0; /* no particle with a size: resolved again when one comes */
    double lo = GRIT_VERLET_AUTO_MIN * rmin, hi = GRIT_VERLET_AUTO_MAX * rmin;
    if (s->cell) { /* a periodic cell allows boxes up to half its width */
        const double cap = fmax(grit_periodic_max_skin(s), 0.0);
        if (cap < hi) hi = cap;
        if (cap < lo) lo = cap; /* a cell too small for any: the largest skin it takes */
    }
    const double d = displacement_rate(s, disp2, c->v2);
    const double cur = s->verlet_dist;
    /* the candidate pairs of the last rebuild: its real contacts and potential pairs */
    const double pairs0 = c->pairs;
    const double skin0 = isfinite(cur) && cur > 0 ? cur : 0.0;
    double best = lo, tbest = INFINITY;
    for (double sk = lo; sk <= hi * (1 + 1e-12) && sk > 0; sk *= GRID_STEP) {
        const double t = grit_verlet_auto_cost(sk, c->n, pairs0, skin0, rmin, d);
        if (t < tbest) {
            tbest = t;
            best = sk;
        }
    }
    /* keep the current skin unless the new one is clearly cheaper (and the
     * current one is within the bounds now) */
    if (skin0 >= lo && skin0 <= hi &&
        grit_verlet_auto_cost(skin0, c->n, pairs0, skin0, rmin, d) <= HYSTERESIS * tbest)
        return skin0;
    return best;
}
