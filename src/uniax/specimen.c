/* grit: a concrete specimen between two supports (docs/concrete.md, "The set-up"):
 * its scene, the bonding step, the supports found by distance from the ends
 * of the load axis, the reference spheres of the strain, the cross-section,
 * and the straining imposed on the supports. */
#include <stdlib.h>
#include <string.h>

#include "uniax/uniax_impl.h"

/* What the packing alone decides. */
typedef struct geometry {
    int axis;
    double lo[3], hi[3];
    int *neg, *pos, n_neg, n_pos;
    double area;
} geometry;

static void geometry_free(geometry *g) { free(g->neg), free(g->pos), g->neg = g->pos = NULL; }

static bool cut_to_cuboid(const grit_packing *p) { return p->info && strstr(p->info, "clip shape=cuboid"); }

static int find_geometry(const grit_uniax_specimen *spec, const grit_uniax_def *def, geometry *g, char *err,
                         size_t errlen)
{
    const grit_packing *p = spec->packing;
    memset(g, 0, sizeof *g);
    if (!p) return uniax_fail(err, errlen, GRIT_EINVAL, "uniax: no packing given");
    if (p->periodic)
        return uniax_fail(err, errlen, GRIT_EINVAL,
                          "uniax: the packing is a periodic cell: cut it to a specimen first (grit_packing_clip), or "
                          "strain the cell itself (grit_uniax_periodic_run)");
    if (p->n < 2) return uniax_fail(err, errlen, GRIT_EINVAL, "uniax: the packing has %d sphere(s); a specimen needs more", p->n);
    for (int k = 0; k < 3; k++) g->lo[k] = INFINITY, g->hi[k] = -INFINITY;
    for (int i = 0; i < p->n; i++) {
        if (!(p->radius[i] > 0) || !isfinite(p->radius[i]) || !isfinite(p->center[i].x) ||
            !isfinite(p->center[i].y) || !isfinite(p->center[i].z))
            return uniax_fail(err, errlen, GRIT_EINVAL,
                              "uniax: sphere %d of the packing has centre (%g, %g, %g) and radius %g: give finite "
                              "centres and positive radii",
                              i, p->center[i].x, p->center[i].y, p->center[i].z, p->radius[i]);
        for (int k = 0; k < 3; k++) {
            g->lo[k] = fmin(g->lo[k], v3_axis(p->center[i], k) - p->radius[i]);
            g->hi[k] = fmax(g->hi[k], v3_axis(p->center[i], k) + p->radius[i]);
        }
    }
    g->axis = def->load_axis - 1;
    if (def->load_axis == GRIT_UNIAX_AXIS_AUTO) {
        g->axis = 0;
        for (int k = 1; k < 3; k++)
            if (g->hi[k] - g->lo[k] > g->hi[g->axis] - g->lo[g->axis]) g->axis = k;
    }
    const int a = g->axis;
    g->neg = malloc(sizeof *g->neg * (size_t)p->n);
    g->pos = malloc(sizeof *g->pos * (size_t)p->n);
    if (!g->neg || !g->pos) {
        geometry_free(g);
        return uniax_fail(err, errlen, GRIT_ENOMEM, "uniax: out of memory for %d spheres", p->n);
    }
    for (int i = 0; i < p->n; i++) {
        const double x = v3_axis(p->center[i], a), f = def->support_factor * p->radius[i];
        const bool lo = x - f <= g->lo[a], hi = x + f >= g->hi[a];
        if (lo && hi) {
            geometry_free(g);
            return uniax_fail(err, errlen, GRIT_EINVAL,
                              "uniax: sphere %d belongs to both supports: the specimen is %g m long along %c, too "
                              "short for support_factor = %g (lower it)",
                              i, g->hi[a] - g->lo[a], "xyz"[a], def->support_factor);
        }
        if (lo) g->neg[g->n_neg++] = i;
        if (hi) g->pos[g->n_pos++] = i;
    }
    if (!g->n_neg || !g->n_pos) {
        geometry_free(g);
        return uniax_fail(err, errlen, GRIT_EINVAL,
                          "uniax: no sphere in the %s support (centre %s %g radii %s the %s extent %g m along %c); "
                          "raise support_factor = %g",
                          g->n_neg ? "upper" : "lower", g->n_neg ? "+" : "-", def->support_factor,
                          g->n_neg ? "at or above" : "at or below", g->n_neg ? "highest" : "lowest",
                          g->n_neg ? g->hi[a] : g->lo[a], "xyz"[a], def->support_factor);
    }
    int section = def->section;
    if (section == GRIT_UNIAX_SECTION_AUTO) section = cut_to_cuboid(p) ? GRIT_UNIAX_SECTION_BOX : GRIT_UNIAX_SECTION_HULL;
    if (section == GRIT_UNIAX_SECTION_BOX) {
        g->area = (g->hi[(a + 1) % 3] - g->lo[(a + 1) % 3]) * (g->hi[(a + 2) % 3] - g->lo[(a + 2) % 3]);
    } else {
        const int rc = grit_uniax_hull_section(p->center, p->radius, p->n, a, g->lo[a], g->hi[a], def->section_planes,
                                               section == GRIT_UNIAX_SECTION_YADE, &g->area, NULL, err, errlen);
        if (rc) {
            geometry_free(g);
            return rc;
        }
    }
    return GRIT_OK;
}

int grit_uniax_check(const grit_uniax_specimen *spec, const grit_uniax_def *def, char *err, size_t errlen)
{
    int rc = uniax_check_common(spec, def, NULL, err, errlen);
    if (rc || !spec->packing) return rc;
    geometry g;
    if ((rc = find_geometry(spec, def, &g, err, errlen))) return rc;
    geometry_free(&g);
    return GRIT_OK;
}

grit_scene *uniax_scene(const grit_uniax_specimen *spec, const grit_uniax_def *def, int *mat, char *err,
                        size_t errlen)
{
    grit_scene_def sd = grit_default_scene_def();
    sd.damping = def->damping;
    sd.dt_safety = def->dt_safety;
    sd.interaction_radius = def->bond_radius;
    grit_scene *s = grit_scene_create(&sd);
    if (!s) {
        uniax_fail(err, errlen, GRIT_ENOMEM, "uniax: %s", grit_create_error());
        return NULL;
    }
    const grit_cpm_def law = spec->law ? *spec->law : grit_default_cpm_def();
    if (grit_set_law_def(s, GRIT_LAW_CPM, &law, sizeof law) || (*mat = grit_add_material(s, spec->mat_type, spec->mat)) < 0) {
        uniax_fail(err, errlen, GRIT_EINVAL, "uniax: %s", grit_last_error(s));
        grit_scene_destroy(s);
        return NULL;
    }
    return s;
}

int uniax_bond(grit_scene *s, char *err, size_t errlen)
{
    if (grit_step(s, 1)) return uniax_fail(err, errlen, GRIT_ESTATE, "uniax: bonding step: %s", grit_last_error(s));
    grit_scene_def sd = *grit_scene_get_def(s);
    sd.interaction_radius = 1.0;
    if (grit_scene_set_def(s, &sd)) return uniax_fail(err, errlen, GRIT_ESTATE, "uniax: %s", grit_last_error(s));
    return GRIT_OK;
}

/* Interior: the sphere's whole bond neighbourhood (every centre within
 * reach, and that sphere) lies inside the specimen, so it has no missing
 * neighbours. */
static bool interior(const grit_uniax_specimen *spec, const double lo[3], const double hi[3], grit_vec3 c, double reach)
{
    if (spec->region) return grit_region_contains(spec->region, c, reach);
    for (int k = 0; k < 3; k++)
        if (v3_axis(c, k) - reach < lo[k] || v3_axis(c, k) + reach > hi[k]) return false;
    return true;
}

int grit_uniax_create(const grit_uniax_specimen *spec, const grit_uniax_def *def, grit_uniax **out, char *err,
                      size_t errlen)
{
    grit_concretemat_def cm;
    int rc = uniax_check_common(spec, def, &cm, err, errlen);
    if (rc) return rc;
    geometry g;
    if ((rc = find_geometry(spec, def, &g, err, errlen))) return rc;
    const grit_packing *p = spec->packing;
    grit_uniax *u = calloc(1, sizeof *u);
    int *count = calloc((size_t)p->n, sizeof *count);
    if (!u || !count || !(u->x0 = malloc(sizeof *u->x0 * (size_t)p->n))) {
        rc = uniax_fail(err, errlen, GRIT_ENOMEM, "uniax: out of memory for %d spheres", p->n);
        goto fail;
    }
    u->def = *def;
    u->axis = g.axis;
    u->n = p->n;
    u->neg = g.neg, u->pos = g.pos, u->n_neg = g.n_neg, u->n_pos = g.n_pos;
    g.neg = g.pos = NULL;
    memcpy(u->lo, g.lo, sizeof u->lo);
    memcpy(u->hi, g.hi, sizeof u->hi);
    u->area = g.area;
    u->confinement = cm.iso_prestress;
    u->kn = cm.young;
    u->ref_neg = u->neg[0], u->ref_pos = u->pos[0];
    u->l0 = v3_axis(p->center[u->ref_pos], u->axis) - v3_axis(p->center[u->ref_neg], u->axis);
    int mat;
    if (!(u->s = uniax_scene(spec, def, &mat, err, errlen))) {
        rc = GRIT_EINVAL;
        goto fail;
    }
    grit_sphere_def d = grit_default_sphere_def();
    d.material = mat;
    for (int i = 0; i < p->n; i++) {
        d.pos = p->center[i];
        d.radius = p->radius[i];
        if (grit_add_sphere(u->s, &d) != i) {
            rc = uniax_fail(err, errlen, GRIT_EINVAL, "uniax: sphere %d: %s", i, grit_last_error(u->s));
            goto fail;
        }
    }
    if ((rc = uniax_bond(u->s, err, errlen))) goto fail;
    double rmax = 0;
    for (int i = 0; i < p->n; i++) rmax = fmax(rmax, p->radius[i]);
    int cursor = 0;
    grit_contact_info c;
    while (grit_contact_next(u->s, &cursor, &c)) {
        count[c.id_a]++, count[c.id_b]++;
        u->bonds++;
    }
    for (int i = 0; i < p->n; i++) {
        grit_get_pos(u->s, i, &u->x0[i]);
        if (interior(spec, u->lo, u->hi, p->center[i], def->bond_radius * (p->radius[i] + rmax) + rmax)) {
            u->interior++;
            u->interior_bonds += count[i];
        }
    }
    free(count);
    u->step0 = grit_step_count(u->s);
    *out = u;
    return GRIT_OK;
fail:
    geometry_free(&g);
    free(count);
    grit_uniax_destroy(u);
    return rc;
}

void grit_uniax_destroy(grit_uniax *u)
{
    if (!u) return;
    grit_scene_destroy(u->s);
    free(u->neg), free(u->pos), free(u->x0);
    free(u);
}

grit_scene *grit_uniax_scene(grit_uniax *u) { return u->s; }
int grit_uniax_axis(const grit_uniax *u) { return u->axis; }
double grit_uniax_length(const grit_uniax *u) { return u->l0; }
double grit_uniax_area(const grit_uniax *u) { return u->area; }

int grit_uniax_supports(const grit_uniax *u, int side, const int **ids)
{
    if (ids) *ids = side < 0 ? u->neg : u->pos;
    return side < 0 ? u->n_neg : u->n_pos;
}

void grit_uniax_reference(const grit_uniax *u, int *neg, int *pos)
{
    if (neg) *neg = u->ref_neg;
    if (pos) *pos = u->ref_pos;
}

static grit_vec3 along(int axis, double v) { return axis == 0 ? v3(v, 0, 0) : axis == 1 ? v3(0, v, 0) : v3(0, 0, v); }

int grit_uniax_start(grit_uniax *u, double rate, char *err, size_t errlen)
{
    if (!isfinite(rate) || rate == 0)
        return uniax_fail(err, errlen, GRIT_EINVAL, "uniax: strain rate %g 1/s: give a finite, non-zero rate", rate);
    const double v = rate * u->l0;
    const unsigned which = 1u << u->axis;
    for (int k = 0; k < u->n_neg; k++) grit_impose_vel(u->s, u->neg[k], along(u->axis, -0.5 * v), which);
    for (int k = 0; k < u->n_pos; k++) grit_impose_vel(u->s, u->pos[k], along(u->axis, 0.5 * v), which);
    if (u->def.initial_velocity) {
        grit_vec3 q;
        grit_get_pos(u->s, u->ref_neg, &q);
        const double xq = v3_axis(q, u->axis);
        for (int i = 0; i < u->n; i++) {
            grit_vec3 x, w;
            grit_get_pos(u->s, i, &x);
            grit_get_vel(u->s, i, &w);
            const double va = -0.5 * v + v * (v3_axis(x, u->axis) - xq) / u->l0;
            if (u->axis == 0) w.x = va;
            else if (u->axis == 1) w.y = va;
            else w.z = va;
            /* the supports' imposed components are not touched by this: same value on their axis */
            bool support = false;
            for (int k = 0; k < u->n_neg && !support; k++) support = u->neg[k] == i;
            for (int k = 0; k < u->n_pos && !support; k++) support = u->pos[k] == i;
            if (!support) grit_set_vel(u->s, i, w);
        }
    }
    u->rate = rate;
    u->step0 = grit_step_count(u->s);
    return GRIT_OK;
}

double grit_uniax_strain(const grit_uniax *u)
{
    grit_vec3 p, q;
    grit_get_pos(u->s, u->ref_pos, &p);
    grit_get_pos(u->s, u->ref_neg, &q);
    return (v3_axis(p, u->axis) - v3_axis(q, u->axis)) / u->l0 - 1;
}

double grit_uniax_stress(const grit_uniax *u)
{
    double fneg = 0, fpos = 0;
    grit_vec3 f;
    for (int k = 0; k < u->n_neg; k++) grit_get_force(u->s, u->neg[k], &f), fneg += v3_axis(f, u->axis);
    for (int k = 0; k < u->n_pos; k++) grit_get_force(u->s, u->pos[k], &f), fpos -= v3_axis(f, u->axis);
    /* contact forces leave the confinement out (docs/concrete.md): add it back */
    return (fpos + fneg) / (2 * u->area) + u->confinement;
}

int grit_uniax_poisson_now(const grit_uniax *u, double *nu, double eps[3], char *err, size_t errlen)
{
    grit_vec3 *x = malloc(sizeof *x * (size_t)u->n);
    if (!x) return uniax_fail(err, errlen, GRIT_ENOMEM, "uniax: out of memory for %d spheres", u->n);
    for (int i = 0; i < u->n; i++) grit_get_pos(u->s, i, &x[i]);
    const double f = 0.5 * u->def.poisson_box;
    grit_vec3 lo, hi;
    double l[3], h[3];
    for (int k = 0; k < 3; k++) {
        const double c = 0.5 * (u->lo[k] + u->hi[k]), w = u->hi[k] - u->lo[k];
        l[k] = c - f * w, h[k] = c + f * w;
    }
    lo = v3(l[0], l[1], l[2]), hi = v3(h[0], h[1], h[2]);
    const int rc = grit_uniax_poisson(u->x0, x, u->n, u->axis, lo, hi, nu, eps, err, errlen);
    free(x);
    return rc;
}
