/* grit tests: building blocks for scenes with the shapes of grit/shapes.h,
 * on top of fixture.h (spheres, walls and facets come from there; a refused
 * shape here counts as a test failure instead of aborting, so that one bad
 * case does not hide the others). */
#ifndef GRIT_TEST_SHAPES_UTIL_H
#define GRIT_TEST_SHAPES_UTIL_H

#include "fixture.h"

static grit_scene *su_scene(double dt, grit_vec3 g, double damping)
{
    grit_scene_def d = grit_default_scene_def();
    d.dt = dt;
    d.gravity = g;
    d.damping = damping;
    d.track_energy = true;
    return fx_scene(&d);
}

static int su_mat(grit_scene *s, double E, double density)
{
    grit_frictmat_def m = grit_default_frictmat_def();
    m.young = E;
    m.density = density;
    int k = grit_add_frictmat(s, &m);
    if (k < 0) fprintf(stderr, "material: %s\n", grit_last_error(s));
    return k;
}

static int su_check(grit_scene *s, int id, const char *what)
{
    if (id < 0) {
        fprintf(stderr, "%s: add %s: %s\n", test_current, what, grit_last_error(s));
        test_failures++;
    }
    return id;
}

static int su_sphere(grit_scene *s, int m, grit_vec3 p, double r, grit_vec3 v) { return fx_sphere(s, m, p, r, v); }
static int su_wall(grit_scene *s, int m, int axis, double coord, int sense) { return fx_wall(s, m, axis, coord, sense); }
static int su_facet(grit_scene *s, int m, grit_vec3 a, grit_vec3 b, grit_vec3 c, double h)
{
    return fx_facet(s, m, a, b, c, h);
}

static int su_capsule(grit_scene *s, int m, grit_vec3 p, grit_quat q, double r, double L, grit_vec3 v)
{
    grit_capsule_def d = grit_default_capsule_def();
    d.pos = p;
    d.ori = q;
    d.radius = r;
    d.shaft = L;
    d.vel = v;
    d.material = m;
    return su_check(s, grit_add_capsule(s, &d), "capsule");
}

static int su_ellipsoid(grit_scene *s, int m, grit_vec3 p, grit_quat q, grit_vec3 a, grit_vec3 v)
{
    grit_ellipsoid_def d = grit_default_ellipsoid_def();
    d.pos = p;
    d.ori = q;
    d.semi_axes = a;
    d.vel = v;
    d.material = m;
    return su_check(s, grit_add_ellipsoid(s, &d), "ellipsoid");
}

static int su_infcyl(grit_scene *s, int m, grit_vec3 p, int axis, double R)
{
    grit_infcylinder_def d = grit_default_infcylinder_def();
    d.pos = p;
    d.axis = axis;
    d.radius = R;
    d.material = m;
    return su_check(s, grit_add_infcylinder(s, &d), "infinite cylinder");
}

static int su_rod(grit_scene *s, int m, grit_vec3 p0, grit_vec3 p1, double R)
{
    grit_rod_def d = grit_default_rod_def();
    d.p[0] = p0;
    d.p[1] = p1;
    d.radius = R;
    d.material = m;
    return su_check(s, grit_add_rod(s, &d), "rod");
}

/* The real contact between two ids after one step; checks it exists and is
 * stored in the functor's order (A = a). */
static bool su_contact(grit_scene *s, int a, int b, grit_contact_info *c)
{
    int k = grit_contact_find(s, a, b);
    if (k < 0) {
        fprintf(stderr, "%s: no contact between %d and %d\n", test_current, a, b);
        test_failures++;
        return false;
    }
    grit_contact_get(s, k, c);
    /* same shapes: the order is the broad phase's; report it from a's side */
    if (c->id_a == b && c->id_b == a && grit_get_shape(s, a) == grit_get_shape(s, b)) {
        c->id_a = a;
        c->id_b = b;
        c->normal = v3_neg(c->normal);
        c->ey = v3_neg(c->ey);
        c->force = v3_neg(c->force);
        c->force_global = v3_neg(c->force_global);
        double l = c->lens[0];
        c->lens[0] = c->lens[1];
        c->lens[1] = l;
    }
    if (c->id_a != a || c->id_b != b) {
        fprintf(stderr, "%s: contact stored as (%d, %d), expected (%d, %d)\n", test_current, c->id_a, c->id_b, a, b);
        test_failures++;
    }
    return true;
}

static grit_quat su_rot(grit_vec3 axis, double angle) { return q_axis_angle(v3_normalized(axis), angle); }

#endif
