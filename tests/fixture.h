/* grit tests: shorthand for building small scenes. Every helper aborts the
 * test program (exit 2) when the engine refuses the input, because the
 * scenes built here are meant to be valid; error paths are tested with the
 * API directly (test_api_errors.c). */
#ifndef GRIT_TEST_FIXTURE_H
#define GRIT_TEST_FIXTURE_H

#include "grit/grit.h"
#include "test.h"

static grit_scene *fx_scene(const grit_scene_def *d)
{
    grit_scene *s = grit_scene_create(d);
    if (!s) {
        fprintf(stderr, "grit_scene_create: %s\n", grit_create_error());
        exit(2);
    }
    return s;
}

/* Default scene with a fixed time step and energy tracking. */
static grit_scene *fx_scene_dt(double dt)
{
    grit_scene_def d = grit_default_scene_def();
    d.dt = dt;
    d.track_energy = true;
    return fx_scene(&d);
}

static int fx_must(grit_scene *s, int rc, const char *what)
{
    if (rc < 0) {
        fprintf(stderr, "%s: %s\n", what, grit_last_error(s));
        exit(2);
    }
    return rc;
}

static int fx_mat(grit_scene *s, double young, double kt_div_kn, double tan_phi)
{
    grit_frictmat_def m = grit_default_frictmat_def();
    m.young = young;
    m.kt_div_kn = kt_div_kn;
    m.tan_phi = tan_phi;
    return fx_must(s, grit_add_frictmat(s, &m), "add material");
}

static int fx_sphere(grit_scene *s, int mat, grit_vec3 pos, double r, grit_vec3 vel)
{
    grit_sphere_def d = grit_default_sphere_def();
    d.pos = pos;
    d.radius = r;
    d.vel = vel;
    d.material = mat;
    return fx_must(s, grit_add_sphere(s, &d), "add sphere");
}

static int fx_wall(grit_scene *s, int mat, int axis, double coord, int sense)
{
    grit_wall_def w = grit_default_wall_def();
    w.axis = axis;
    w.coord = coord;
    w.sense = sense;
    w.material = mat;
    return fx_must(s, grit_add_wall(s, &w), "add wall");
}

static int fx_facet(grit_scene *s, int mat, grit_vec3 a, grit_vec3 b, grit_vec3 c, double half_thick)
{
    grit_facet_def f = grit_default_facet_def();
    f.v[0] = a;
    f.v[1] = b;
    f.v[2] = c;
    f.half_thick = half_thick;
    f.material = mat;
    return fx_must(s, grit_add_facet(s, &f), "add facet");
}

/* The single real contact of a scene (fails the test if there is not exactly one). */
static grit_contact_info fx_only_contact(grit_scene *s)
{
    grit_contact_info c;
    memset(&c, 0, sizeof c);
    int n = grit_contact_count(s);
    CHECK(n == 1);
    if (n >= 1) grit_contact_get(s, 0, &c);
    return c;
}

/* Deterministic pseudo-random numbers (xorshift64*), uniform in [0, 1). */
static double fx_rand(unsigned long long *state)
{
    unsigned long long x = *state;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    *state = x;
    return (double)((x * 2685821657736338717ULL) >> 11) * (1.0 / 9007199254740992.0);
}

#endif
