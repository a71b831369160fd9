/* grit: particle inlets (grit/inlet.h, docs/inlets.md) -- spheres, clumps,
 * capsules or ellipsoids inserted into a region at a mass rate, each where
 * it overlaps nothing. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/storage.h"
#include "grit/clump.h"
#include "grit/shapes.h"
#include "material/material.h"
#include "shape/shape.h"

grit_inlet_def grit_default_inlet_def(void)
{
    grit_inlet_def d;
    memset(&d, 0, sizeof d);
    d.region = GRIT_REGION_BOX;
    d.max_mass = INFINITY;
    d.t_start = NAN;
    d.r_min = d.r_max = NAN;
    d.seed = 1;
    d.max_attempts = 50;
    return d;
}

/* splitmix64: a small, well-mixed stream whose whole state is one word, so
 * that a restart file can hold it */
static double uniform(uint64_t *state)
{
    uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    return (double)(z >> 11) * 0x1p-53;
}

/* the per-template arrays of grit_inlet_state serve either kind */
_Static_assert(GRIT_INLET_MAX_SHAPES <= GRIT_INLET_MAX_CLUMPS, "shape templates fit the template arrays");

static double largest_radius(const grit_inlet_def *d)
{
    if (d->n_sizes == 0) return d->r_max;
    double r = 0;
    for (int k = 0; k < d->n_sizes; k++) r = fmax(r, d->sizes[k]);
    return r;
}

/* The clump templates of d: members, radii and centres (their mass
 * fractions: check_fractions), each error naming the template, the member
 * and the value. */
static int check_templates(grit_scene *s, const grit_inlet_def *d)
{
    for (int k = 0; k < d->n_clumps; k++) {
        const grit_inlet_clump *c = &d->clumps[k];
        if (c->n < 1 || c->n > GRIT_CLUMP_MAX_MEMBERS)
            return grit_fail(s, GRIT_EINVAL, "inlet: clump template %d: n = %d members must be 1 to %d", k, c->n,
                             GRIT_CLUMP_MAX_MEMBERS);
        if (!c->centers || !c->radii)
            return grit_fail(s, GRIT_EINVAL, "inlet: clump template %d: centers and radii must be given", k);
        for (int j = 0; j < c->n; j++) {
            if (!(c->radii[j] > 0) || !isfinite(c->radii[j]))
                return grit_fail(s, GRIT_EINVAL,
                                 "inlet: clump template %d: member %d: radius = %g must be positive and finite (m)", k,
                                 j, c->radii[j]);
            if (!v3_isfinite(c->centers[j]))
                return grit_fail(s, GRIT_EINVAL, "inlet: clump template %d: member %d: centre (%g, %g, %g) must be "
                                                 "finite", k, j, c->centers[j].x, c->centers[j].y, c->centers[j].z);
        }
    }
    return GRIT_OK;
}

/* An inlet inserts from its clump templates or from its shape templates
 * (never both): how many it has, and template k's mass fraction. */
static int n_templates(const grit_inlet_def *d) { return d->n_clumps ? d->n_clumps : d->n_shapes; }
static double template_frac(const grit_inlet_def *d, int k)
{
    return d->n_clumps ? d->clumps[k].mass_frac : d->shapes[k].mass_frac;
}

/* Whether the inlet draws a scale factor for each particle: shape
 * templates always (scale 1 when no distribution is given, see
 * grit_add_inlet), clump templates when a distribution is given. */
static bool draws_scale(const grit_inlet_def *d)
{
    return d->n_shapes > 0 || (d->n_clumps > 0 && (d->n_sizes > 0 || !isnan(d->r_min) || !isnan(d->r_max)));
}

/* The templates' mass fractions: each non-negative and finite, their sum
 * above 0. */
static int check_fractions(grit_scene *s, const grit_inlet_def *d)
{
    const char *kind = d->n_clumps ? "clump" : "shape";
    double sum = 0;
    for (int k = 0; k < n_templates(d); k++) {
        const double f = template_frac(d, k);
        if (!(f >= 0) || !isfinite(f))
            return grit_fail(s, GRIT_EINVAL, "inlet: %s template %d: mass_frac = %g must be non-negative and finite",
                             kind, k, f);
        sum += f;
    }
    if (!(sum > 0))
        return grit_fail(s, GRIT_EINVAL, "inlet: the %s templates' mass fractions add up to %g, not above 0", kind,
                         sum);
    return GRIT_OK;
}

/* The shape templates of d: a capsule's radius and shaft, an ellipsoid's
 * semi-axes, each error naming the template and the value. */
static int check_shapes(grit_scene *s, const grit_inlet_def *d)
{
    for (int k = 0; k < d->n_shapes; k++) {
        const grit_inlet_shape *t = &d->shapes[k];
        const grit_vec3 a = t->semi_axes;
        if (t->shape == GRIT_SHAPE_CAPSULE) {
            if (!(t->radius > 0) || !isfinite(t->radius) || !(t->shaft >= 0) || !isfinite(t->shaft))
                return grit_fail(s, GRIT_EINVAL,
                                 "inlet: shape template %d: capsule radius = %g must be positive and shaft = %g "
                                 "non-negative, both finite (m)", k, t->radius, t->shaft);
        } else if (t->shape == GRIT_SHAPE_ELLIPSOID) {
            if (!(a.x > 0 && a.y > 0 && a.z > 0) || !v3_isfinite(a))
                return grit_fail(s, GRIT_EINVAL,
                                 "inlet: shape template %d: ellipsoid semi_axes = (%g, %g, %g) must be positive and "
                                 "finite (m)", k, a.x, a.y, a.z);
        } else {
            return grit_fail(s, GRIT_EINVAL,
                             "inlet: shape template %d: shape = %d is neither a capsule (%d) nor an ellipsoid (%d)", k,
                             t->shape, GRIT_SHAPE_CAPSULE, GRIT_SHAPE_ELLIPSOID);
        }
    }
    return GRIT_OK;
}

/* The mass of shape template t at the given scale: the arithmetic of
 * grit_add_capsule and grit_add_ellipsoid, so that the inlet knows the mass
 * of a particle before adding it (max_mass). */
static double shape_mass(const grit_inlet_shape *t, double scale, double rho)
{
    if (t->shape == GRIT_SHAPE_CAPSULE) {
        const double r = t->radius * scale, L = t->shaft * scale;
        return 4.0 / 3.0 * M_PI * r * r * r * rho + M_PI * r * r * L * rho;
    }
    const grit_vec3 a = v3_scale(t->semi_axes, scale);
    return 4.0 / 3.0 * M_PI * a.x * a.y * a.z * rho;
}

/* The radius of the sphere about its centre that holds shape template t
 * at scale 1 (its bounding sphere: the insertion's conservative test). */
static double shape_reach(const grit_inlet_shape *t)
{
    if (t->shape == GRIT_SHAPE_CAPSULE) return t->radius + 0.5 * t->shaft;
    return fmax(t->semi_axes.x, fmax(t->semi_axes.y, t->semi_axes.z));
}

/* Template k's mass (the clump grit_add_clump makes of it), centre of mass
 * in its frame, and how far its members reach from that centre. */
static int template_props(grit_scene *s, const grit_inlet_def *d, int k, double *mass, grit_vec3 *com, double *reach)
{
    const grit_inlet_clump *c = &d->clumps[k];
    grit_clump_def cd = grit_default_clump_def();
    cd.n = c->n;
    cd.centers = c->centers;
    cd.radii = c->radii;
    cd.material = d->material;
    grit_clump_props p;
    const int rc = grit_get_clump_properties(s, &cd, &p);
    if (rc) return rc;
    *mass = p.mass;
    *com = p.center;
    *reach = 0;
    for (int j = 0; j < c->n; j++) *reach = fmax(*reach, v3_norm(v3_sub(c->centers[j], p.center)) + c->radii[j]);
    return GRIT_OK;
}

int grit_add_inlet(grit_scene *s, const grit_inlet_def *d0)
{
    /* shape templates without a scale distribution: scale 1 */
    grit_inlet_def dd = *d0;
    if (dd.n_shapes > 0 && dd.n_sizes == 0 && isnan(dd.r_min) && isnan(dd.r_max)) dd.r_min = dd.r_max = 1;
    const grit_inlet_def *d = &dd;
    if (s->cell) return grit_fail(s, GRIT_ESTATE, "inlet: not available in a periodic scene");
    if (d->region != GRIT_REGION_BOX && d->region != GRIT_REGION_CYLINDER && d->region != GRIT_REGION_MESH)
        return grit_fail(s, GRIT_EINVAL, "inlet: region = %d is neither box (0), cylinder (1) nor mesh (2)", d->region);
    if (!(d->mass_rate > 0) || !isfinite(d->mass_rate))
        return grit_fail(s, GRIT_EINVAL, "inlet: mass_rate = %g must be positive and finite (kg/s)", d->mass_rate);
    if (!(d->max_mass > 0)) return grit_fail(s, GRIT_EINVAL, "inlet: max_mass = %g must be positive (kg)", d->max_mass);
    if (!isnan(d->t_start) && !isfinite(d->t_start))
        return grit_fail(s, GRIT_EINVAL, "inlet: t_start = %g must be finite or NaN (s)", d->t_start);
    if (d->n_clumps < 0 || d->n_clumps > GRIT_INLET_MAX_CLUMPS)
        return grit_fail(s, GRIT_EINVAL, "inlet: n_clumps = %d must be 0 to %d", d->n_clumps, GRIT_INLET_MAX_CLUMPS);
    if (d->n_shapes < 0 || d->n_shapes > GRIT_INLET_MAX_SHAPES)
        return grit_fail(s, GRIT_EINVAL, "inlet: n_shapes = %d must be 0 to %d", d->n_shapes, GRIT_INLET_MAX_SHAPES);
    if (d->n_clumps > 0 && d->n_shapes > 0)
        return grit_fail(s, GRIT_EINVAL, "inlet: give clump templates or shape templates, not both (n_clumps = %d, "
                                         "n_shapes = %d)", d->n_clumps, d->n_shapes);
    /* with shape templates (and clump templates that are scaled) the size
     * fields are scale factors */
    const bool scales = draws_scale(d);
    const char *size = scales ? "scale" : "radius", *unit = scales ? "" : " (m)";
    if (d->n_clumps > 0 || d->n_shapes > 0) {
        int rc = d->n_clumps ? check_templates(s, d) : check_shapes(s, d);
        if (rc || (rc = check_fractions(s, d))) return rc;
    }
    if (d->n_clumps > 0 && !scales) {
        /* clumps without a scale distribution: the size fields are unused */
    } else if (d->n_sizes < 0 || d->n_sizes > GRIT_INLET_MAX_SIZES) {
        return grit_fail(s, GRIT_EINVAL, "inlet: n_sizes = %d must be 0 to %d", d->n_sizes, GRIT_INLET_MAX_SIZES);
    } else if (d->n_sizes == 0) {
        if (!(d->r_min > 0) || !(d->r_max >= d->r_min) || !isfinite(d->r_max))
            return grit_fail(s, GRIT_EINVAL, "inlet: %s [r_min, r_max] = [%g, %g] must be positive and finite%s",
                             scales ? "scales" : "radii", d->r_min, d->r_max, unit);
    } else {
        double sum = 0;
        for (int k = 0; k < d->n_sizes; k++) {
            if (!(d->sizes[k] > 0) || !isfinite(d->sizes[k]) || !(d->mass_frac[k] >= 0) || !isfinite(d->mass_frac[k]))
                return grit_fail(s, GRIT_EINVAL,
                                 "inlet: size %d: %s %g must be positive, its mass fraction %g non-negative", k, size,
                                 d->sizes[k], d->mass_frac[k]);
            sum += d->mass_frac[k];
        }
        if (!(sum > 0)) return grit_fail(s, GRIT_EINVAL, "inlet: the mass fractions add up to %g, not above 0", sum);
    }
    if (!v3_isfinite(d->vel)) return grit_fail(s, GRIT_EINVAL, "inlet: vel must be finite");
    if (!v3_isfinite(d->angvel))
        return grit_fail(s, GRIT_EINVAL, "inlet: angvel = (%g, %g, %g) must be finite (rad/s)", d->angvel.x,
                         d->angvel.y, d->angvel.z);
    if (d->max_attempts < 1)
        return grit_fail(s, GRIT_EINVAL, "inlet: max_attempts = %d must be at least 1", d->max_attempts);
    if (grit_check_material(s, "inlet", d->material)) return GRIT_EINVAL;
    /* the largest particle must fit: a clump template by the sphere about
     * its centre of mass that holds its members, a shape template by its
     * bounding sphere, both at their largest scale */
    double tpl_mass[GRIT_INLET_MAX_CLUMPS], tpl_reach[GRIT_INLET_MAX_CLUMPS];
    grit_vec3 tpl_com[GRIT_INLET_MAX_CLUMPS] = {{0, 0, 0}};
    int big = -1; /* the template that reaches farthest */
    const double rho = grit_material_frict(s, d->material).density;
    for (int k = 0; k < n_templates(d); k++) {
        if (d->n_clumps) {
            const int rc = template_props(s, d, k, &tpl_mass[k], &tpl_com[k], &tpl_reach[k]);
            if (rc) return rc;
        } else {
            tpl_mass[k] = shape_mass(&d->shapes[k], 1.0, rho);
            tpl_reach[k] = shape_reach(&d->shapes[k]);
        }
        if (big < 0 || tpl_reach[k] > tpl_reach[big]) big = k;
    }
    const double r = n_templates(d) ? tpl_reach[big] * (scales ? largest_radius(d) : 1.0) : largest_radius(d);
    char what[128];
    if (d->n_clumps) snprintf(what, sizeof what, "clump template %d (its members reach %g m from its centre of mass%s)",
                              big, r, scales ? " at its largest scale" : "");
    else if (d->n_shapes) snprintf(what, sizeof what, "shape template %d (it reaches %g m from its centre at its "
                                   "largest scale)", big, r);
    else snprintf(what, sizeof what, "sphere of radius %g", r);
    if (d->region == GRIT_REGION_BOX) {
        if (!v3_isfinite(d->lo) || !v3_isfinite(d->hi) || d->hi.x - d->lo.x < 2 * r || d->hi.y - d->lo.y < 2 * r ||
            d->hi.z - d->lo.z < 2 * r)
            return grit_fail(s, GRIT_EINVAL, "inlet: the box (%g, %g, %g)-(%g, %g, %g) must be finite and hold a %s",
                             d->lo.x, d->lo.y, d->lo.z, d->hi.x, d->hi.y, d->hi.z, what);
    } else if (d->region == GRIT_REGION_CYLINDER &&
               (!v3_isfinite(d->center) || !(d->radius >= r) || !(d->height >= 2 * r) || !isfinite(d->radius) ||
                !isfinite(d->height))) {
        return grit_fail(s, GRIT_EINVAL, "inlet: the cylinder (radius %g, height %g) must be finite and hold a %s",
                         d->radius, d->height, what);
    }
    grit_region_mesh mesh = {0};
    if (d->region == GRIT_REGION_MESH) {
        const int rc = grit_region_mesh_make(s, "inlet", d->tri, d->n_tri, &mesh);
        if (rc) return rc;
        grit_vec3 lo, hi;
        grit_region_mesh_bounds(&mesh, &lo, &hi);
        if (hi.x - lo.x < 2 * r || hi.y - lo.y < 2 * r || hi.z - lo.z < 2 * r) {
            grit_region_mesh_free(&mesh);
            return grit_fail(s, GRIT_EINVAL, "inlet: the mesh (%g x %g x %g m) cannot hold a %s", hi.x - lo.x,
                             hi.y - lo.y, hi.z - lo.z, what);
        }
    }
    /* the templates' own copies, then room for the largest one scaled */
    int members = 0, widest = 0;
    for (int k = 0; k < d->n_clumps; k++) {
        members += d->clumps[k].n;
        if (d->clumps[k].n > widest) widest = d->clumps[k].n;
    }
    grit_vec3 *centers = NULL;
    double *radii = NULL;
    if (members && (!(centers = malloc(sizeof *centers * (size_t)(members + widest))) ||
                    !(radii = malloc(sizeof *radii * (size_t)(members + widest))))) {
        free(centers);
        grit_region_mesh_free(&mesh);
        return grit_fail(s, GRIT_ENOMEM, "out of memory adding an inlet");
    }
    if (s->n_inlets == s->cap_inlets) {
        int cap = s->cap_inlets ? 2 * s->cap_inlets : 4;
        if (grit_grow((void **)&s->inlets, sizeof *s->inlets, cap)) {
            grit_region_mesh_free(&mesh);
            free(centers);
            free(radii);
            return grit_fail(s, GRIT_ENOMEM, "out of memory adding an inlet");
        }
        s->cap_inlets = cap;
    }
    grit_inlet_state *q = &s->inlets[s->n_inlets];
    memset(q, 0, sizeof *q);
    q->def = *d;
    q->mesh = mesh;
    q->def.tri = (const grit_vec3(*)[3])mesh.tri;
    q->def.n_tri = mesh.n;
    q->tpl_centers = centers;
    q->tpl_radii = radii;
    q->tpl_members = members;
    for (int k = 0, row = 0; k < d->n_clumps; k++) {
        const int n = d->clumps[k].n;
        memcpy(centers + row, d->clumps[k].centers, sizeof *centers * (size_t)n);
        memcpy(radii + row, d->clumps[k].radii, sizeof *radii * (size_t)n);
        q->def.clumps[k].centers = centers + row;
        q->def.clumps[k].radii = radii + row;
        q->tpl_mass[k] = tpl_mass[k];
        q->tpl_com[k] = tpl_com[k];
        q->tpl_reach[k] = tpl_reach[k];
        row += n;
    }
    for (int k = d->n_clumps; k < GRIT_INLET_MAX_CLUMPS; k++) q->def.clumps[k] = (grit_inlet_clump){0, NULL, NULL, 0};
    for (int k = 0; k < d->n_shapes; k++) {
        q->tpl_mass[k] = tpl_mass[k];
        q->tpl_reach[k] = tpl_reach[k];
    }
    for (int k = d->n_shapes; k < GRIT_INLET_MAX_SHAPES; k++) memset(&q->def.shapes[k], 0, sizeof q->def.shapes[k]);
    if (isnan(q->def.t_start)) q->def.t_start = s->time;
    q->rng = d->seed;
    return s->n_inlets++;
}

int grit_inlet_count(const grit_scene *s) { return s->n_inlets; }

int grit_inlet_get(const grit_scene *s, int k, grit_inlet_def *def, grit_inlet_info *info)
{
    if (k < 0 || k >= s->n_inlets)
        return grit_fail((grit_scene *)s, GRIT_EINVAL, "inlet %d does not exist (%d inlets)", k, s->n_inlets);
    const grit_inlet_state *q = &s->inlets[k];
    if (def) *def = q->def;
    if (info) *info = (grit_inlet_info){q->mass, q->count, q->failed, q->energy, q->waiting};
    return GRIT_OK;
}

/* A radius of the distribution: by number, each size with the probability
 * its mass fraction gives (f_i / r_i^3, normalised). */
static double draw_radius(grit_inlet_state *q)
{
    const grit_inlet_def *d = &q->def;
    const double u = uniform(&q->rng);
    if (d->n_sizes == 0) return d->r_min + u * (d->r_max - d->r_min);
    double w[GRIT_INLET_MAX_SIZES], sum = 0;
    for (int k = 0; k < d->n_sizes; k++) sum += w[k] = d->mass_frac[k] / (d->sizes[k] * d->sizes[k] * d->sizes[k]);
    double acc = 0;
    for (int k = 0; k < d->n_sizes; k++) {
        acc += w[k] / sum;
        if (u < acc) return d->sizes[k];
    }
    for (int k = d->n_sizes - 1; k >= 0; k--) /* rounding: the last size with a share */
        if (w[k] > 0) return d->sizes[k];
    return d->sizes[0];
}

/* A centre for a sphere of radius r that keeps it inside the region; for a
 * mesh, a point of its bounding box that the caller tests. */
static grit_vec3 draw_point(grit_inlet_state *q, double r)
{
    const grit_inlet_def *d = &q->def;
    const double u1 = uniform(&q->rng), u2 = uniform(&q->rng), u3 = uniform(&q->rng);
    if (d->region == GRIT_REGION_MESH) {
        grit_vec3 lo, hi;
        grit_region_mesh_bounds(&q->mesh, &lo, &hi);
        return v3(lo.x + r + u1 * (hi.x - lo.x - 2 * r), lo.y + r + u2 * (hi.y - lo.y - 2 * r),
                  lo.z + r + u3 * (hi.z - lo.z - 2 * r));
    }
    if (d->region == GRIT_REGION_BOX)
        return v3(d->lo.x + r + u1 * (d->hi.x - d->lo.x - 2 * r), d->lo.y + r + u2 * (d->hi.y - d->lo.y - 2 * r),
                  d->lo.z + r + u3 * (d->hi.z - d->lo.z - 2 * r));
    const double rho = (d->radius - r) * sqrt(u1), phi = 2 * M_PI * u2; /* uniform over the disc */
    return v3(d->center.x + rho * cos(phi), d->center.y + rho * sin(phi), d->center.z + r + u3 * (d->height - 2 * r));
}

/* Whether a sphere at x of radius r would touch no particle: spheres
 * exactly, walls by their plane, other shapes by their bounding box. A
 * linear scan: inlets insert rarely compared with the steps. */
static bool clear_at(const grit_scene *s, grit_vec3 x, double r)
{
    const grit_bodies *b = &s->b;
    for (int j = 0; j < b->n; j++) {
        const int sh = b->shape[j];
        if (sh == GRIT_SHAPE_SPHERE) {
            const double rr = r + b->pr[j].r;
            if (v3_norm2(v3_sub(b->pr[j].pos, x)) < rr * rr) return false;
        } else if (sh == GRIT_SHAPE_WALL) {
            const int ax = s->walls[b->sidx[j]].axis;
            const double dist = ax == 0 ? x.x - b->pr[j].pos.x : ax == 1 ? x.y - b->pr[j].pos.y : x.z - b->pr[j].pos.z;
            if (fabs(dist) < r) return false;
        } else {
            const grit_aabb a = grit_shape_classes[sh]->aabb(s, j);
            if (x.x + r > a.lo.x && x.x - r < a.hi.x && x.y + r > a.lo.y && x.y - r < a.hi.y && x.z + r > a.lo.z &&
                x.z - r < a.hi.z)
                return false;
        }
    }
    return true;
}

/* A template (a clump's or a shape's) by number, each with the probability
 * its mass fraction gives (f_k / m_k, normalised), as draw_radius. A shape's
 * scale is drawn apart, by the scales' own fractions: the two draws are
 * independent, so each template keeps its share of the mass whatever the
 * scales, and each scale its share. */
static int draw_template(grit_inlet_state *q)
{
    const grit_inlet_def *d = &q->def;
    const int n = n_templates(d);
    const double u = uniform(&q->rng);
    double w[GRIT_INLET_MAX_CLUMPS], sum = 0;
    for (int k = 0; k < n; k++) sum += w[k] = template_frac(d, k) / q->tpl_mass[k];
    double acc = 0;
    for (int k = 0; k < n; k++) {
        acc += w[k] / sum;
        if (u < acc) return k;
    }
    for (int k = n - 1; k >= 0; k--)
        if (w[k] > 0) return k;
    return 0;
}

/* A rotation uniform over SO(3) (Shoemake's construction from three
 * uniforms). */
static grit_quat random_rotation(grit_inlet_state *q)
{
    const double u1 = uniform(&q->rng), u2 = uniform(&q->rng), u3 = uniform(&q->rng);
    const double a = sqrt(1 - u1), b = sqrt(u1);
    return (grit_quat){b * cos(2 * M_PI * u3), a * sin(2 * M_PI * u2), a * cos(2 * M_PI * u2), b * sin(2 * M_PI * u3)};
}

/* One try at placing template k at the given scale: a rotation, a centre
 * of mass, every member inside the region and clear of everything; *id the
 * body's id, or -1 when the place was taken. */
static int try_clump(grit_scene *s, grit_inlet_state *q, int k, double scale, int *id)
{
    const grit_inlet_def *d = &q->def;
    const grit_inlet_clump *c = &d->clumps[k];
    const grit_quat ori = random_rotation(q);
    const grit_vec3 x = draw_point(q, q->tpl_reach[k] * scale);
    *id = -1;
    /* the members at this scale, in the room after the templates' copies
     * (scale 1: the template itself, so that unscaled clumps are placed
     * from the very numbers they were given) */
    const grit_vec3 *mc = c->centers;
    const double *mr = c->radii;
    if (scale != 1.0) {
        grit_vec3 *sc = q->tpl_centers + q->tpl_members;
        double *sr = q->tpl_radii + q->tpl_members;
        for (int j = 0; j < c->n; j++) {
            sc[j] = v3_scale(c->centers[j], scale);
            sr[j] = c->radii[j] * scale;
        }
        mc = sc, mr = sr;
    }
    const grit_vec3 com = v3_scale(q->tpl_com[k], scale);
    for (int j = 0; j < c->n; j++) {
        const grit_vec3 xj = v3_add(x, q_rotate(ori, v3_sub(mc[j], com)));
        /* a margin for the rounding by which the clump's placement of its
         * members differs from this one */
        const double rj = mr[j] * (1 + 1e-9);
        if ((d->region == GRIT_REGION_MESH && !grit_region_mesh_contains(&q->mesh, xj, rj)) || !clear_at(s, xj, rj))
            return GRIT_OK;
    }
    grit_clump_def cd = grit_default_clump_def();
    cd.n = c->n;
    cd.centers = mc;
    cd.radii = mr;
    cd.material = d->material;
    cd.ori = ori;
    cd.vel = d->vel;
    cd.angvel = d->angvel;
    cd.pos = v3_sub(x, q_rotate(ori, com)); /* the centre of mass at x */
    const int rc = grit_add_clump(s, &cd);
    if (rc < 0) return rc;
    *id = rc;
    return GRIT_OK;
}

/* One try at placing shape template k at the given scale: a rotation, a
 * centre where its bounding sphere lies inside the region and clear of
 * everything (conservative: the body is inside that sphere); *id the new
 * particle's id, or -1 when the place was taken. */
static int try_shape(grit_scene *s, grit_inlet_state *q, int k, double scale, int *id)
{
    const grit_inlet_def *d = &q->def;
    const grit_inlet_shape *t = &d->shapes[k];
    const grit_quat ori = random_rotation(q);
    const double reach = q->tpl_reach[k] * scale;
    const grit_vec3 x = draw_point(q, reach);
    *id = -1;
    const double rr = reach * (1 + 1e-9); /* a margin for the rounding of the body's own extent */
    if ((d->region == GRIT_REGION_MESH && !grit_region_mesh_contains(&q->mesh, x, rr)) || !clear_at(s, x, rr))
        return GRIT_OK;
    int rc;
    if (t->shape == GRIT_SHAPE_CAPSULE) {
        grit_capsule_def cd = grit_default_capsule_def();
        cd.pos = x, cd.vel = d->vel, cd.angvel = d->angvel, cd.ori = ori, cd.material = d->material;
        cd.radius = t->radius * scale;
        cd.shaft = t->shaft * scale;
        rc = grit_add_capsule(s, &cd);
    } else {
        grit_ellipsoid_def ed = grit_default_ellipsoid_def();
        ed.pos = x, ed.vel = d->vel, ed.angvel = d->angvel, ed.ori = ori, ed.material = d->material;
        ed.semi_axes = v3_scale(t->semi_axes, scale);
        rc = grit_add_ellipsoid(s, &ed);
    }
    if (rc < 0) return rc;
    *id = rc;
    return GRIT_OK;
}

/* the record and the energy book of a particle (a sphere, a clump's body, a
 * capsule or an ellipsoid) the inlet has just added with its velocity and
 * angular velocity: 1/2 m v^2 + 1/2 w.I w, I in the body's principal axes */
static void book_inserted(grit_scene *s, grit_inlet_state *q, int id)
{
    const int i = s->id2idx[id];
    const grit_massi mi = s->b.mi[i];
    const double mass = mi.m;
    const grit_vec3 wb = q_unrotate(s->b.ori[i], q->def.angvel);
    const double e = 0.5 * mass * v3_norm2(q->def.vel) +
                     0.5 * (mi.inertia.x * wb.x * wb.x + mi.inertia.y * wb.y * wb.y + mi.inertia.z * wb.z * wb.z);
    q->mass += mass;
    q->energy += e;
    q->count++;
    if (s->def.track_energy) s->energy[GRIT_E_INLET] -= e;
}

int grit_inlets_run(grit_scene *s)
{
    for (int k = 0; k < s->n_inlets; k++) {
        grit_inlet_state *q = &s->inlets[k];
        const grit_inlet_def *d = &q->def;
        q->waiting = 0;
        if (s->time < d->t_start) continue;
        /* what the rate asks for by now; the debt carries over, so the mean
         * rate is exact and the inserted mass lags by less than a particle */
        const double target = fmin(d->max_mass, d->mass_rate * (s->time - d->t_start));
        const double rho = grit_material_frict(s, d->material).density;
        while (q->mass < target) {
            if (d->n_clumps || d->n_shapes) {
                /* a clump, capsule or ellipsoid: the template (and a shape's
                 * scale) drawn once, places tried until it fits */
                if (!q->next_tpl) q->next_tpl = draw_template(q) + 1;
                const int tk = q->next_tpl - 1;
                if (draws_scale(d) && !(q->next_r > 0)) q->next_r = draw_radius(q);
                const double sc = draws_scale(d) ? q->next_r : 1.0;
                const double mass =
                    d->n_clumps ? q->tpl_mass[tk] * sc * sc * sc : shape_mass(&d->shapes[tk], sc, rho);
                if (q->mass + mass > d->max_mass) break;
                int id = -1;
                for (int a = 0; a < d->max_attempts && id < 0; a++) {
                    const int rc = d->n_clumps ? try_clump(s, q, tk, sc, &id) : try_shape(s, q, tk, sc, &id);
                    if (rc) return rc;
                    q->failed += id < 0;
                }
                if (id < 0) {
                    q->waiting = 1;
                    break;
                }
                book_inserted(s, q, id);
                q->next_tpl = 0;
                q->next_r = 0;
                continue;
            }
            if (!(q->next_r > 0)) q->next_r = draw_radius(q);
            const double r = q->next_r, m = 4.0 / 3.0 * M_PI * r * r * r * rho;
            if (q->mass + m > d->max_mass) break; /* the last one would overshoot: done */
            bool placed = false;
            for (int a = 0; a < d->max_attempts && !placed; a++) {
                const grit_vec3 x = draw_point(q, r);
                if ((d->region == GRIT_REGION_MESH && !grit_region_mesh_contains(&q->mesh, x, r)) ||
                    !clear_at(s, x, r)) {
                    q->failed++;
                    continue;
                }
                grit_sphere_def sd = grit_default_sphere_def();
                sd.pos = x;
                sd.vel = d->vel;
                sd.angvel = d->angvel;
                sd.radius = r;
                sd.material = d->material;
                const int id = grit_add_sphere(s, &sd);
                if (id < 0) return id;
                book_inserted(s, q, id);
                q->next_r = 0;
                placed = true;
            }
            if (!placed) { /* too full this step: the same particle tries again next step */
                q->waiting = 1;
                break;
            }
        }
    }
    return GRIT_OK;
}
