/* Mesh regions of inlets and outlets (GRIT_REGION_MESH, grit/inlet.h): a
 * regular octahedron |x| + |y| + |z| <= a, whose inside and distance to the
 * surface are known in closed form. An inlet fills it with spheres that lie
 * entirely inside (distance of the centre to the faces (a - |x|_1)/sqrt 3 at
 * least the radius) and overlap nothing; an outlet deletes exactly the
 * lattice particles whose centre is inside; a restart while the inlet pours
 * continues bitwise; an open or degenerate mesh is refused, naming it, and
 * adds nothing. */
#include <string.h>

#include "core/scene_impl.h"
#include "fixture.h"
#include "grit/outlet.h"
#include "grit/restart.h"

static const double A = 0.02, R = 1e-3;
static const grit_vec3 C = {0.05, 0.05, 0.05};

/* the 8 faces, oriented outwards */
static void octahedron(grit_vec3 tri[8][3])
{
    int k = 0;
    for (int sx = -1; sx <= 1; sx += 2)
        for (int sy = -1; sy <= 1; sy += 2)
            for (int sz = -1; sz <= 1; sz += 2) {
                const grit_vec3 x = v3_add(C, v3(sx * A, 0, 0)), y = v3_add(C, v3(0, sy * A, 0)),
                                z = v3_add(C, v3(0, 0, sz * A));
                tri[k][0] = x;
                tri[k][1] = sx * sy * sz > 0 ? y : z;
                tri[k][2] = sx * sy * sz > 0 ? z : y;
                k++;
            }
}

static double l1(grit_vec3 x) { return fabs(x.x - C.x) + fabs(x.y - C.y) + fabs(x.z - C.z); }

static grit_scene *scene(grit_vec3 gravity)
{
    grit_scene_def d = grit_default_scene_def();
    d.dt = 1e-5;
    d.gravity = gravity;
    d.track_energy = true;
    return fx_scene(&d);
}

static int material(grit_scene *s)
{
    grit_frictmat_def m = grit_default_frictmat_def();
    m.density = 2500;
    m.young = 1e7;
    return fx_must(s, grit_add_frictmat(s, &m), "FrictMat");
}

static grit_inlet_def mesh_inlet(int mat, const grit_vec3 tri[8][3])
{
    grit_inlet_def d = grit_default_inlet_def();
    d.region = GRIT_REGION_MESH;
    d.tri = (const grit_vec3(*)[3])tri;
    d.n_tri = 8;
    d.r_min = 0.8 * R;
    d.r_max = R;
    d.mass_rate = 5;
    d.max_mass = 0.004;
    d.material = mat;
    d.seed = 11;
    return d;
}

static void inlet_fills_the_solid(void)
{
    grit_vec3 tri[8][3];
    octahedron(tri);
    grit_scene *s = scene(v3_zero()); /* nothing moves: the places are as drawn */
    const grit_inlet_def d = mesh_inlet(material(s), tri);
    CHECK(grit_add_inlet(s, &d) == 0);
    tri[0][0] = v3(NAN, 0, 0); /* the inlet keeps its own copy */
    CHECK(grit_step(s, 400) == GRIT_OK);
    grit_inlet_info info;
    CHECK(grit_inlet_get(s, 0, NULL, &info) == GRIT_OK);
    const int n = grit_particle_count(s);
    int outside = 0, overlaps = 0;
    double closest = INFINITY;
    for (int i = 0; i < s->b.n; i++) {
        const grit_vec3 x = s->b.pr[i].pos;
        const double r = s->b.pr[i].r, gap = (A - l1(x)) / sqrt(3.0) - r;
        outside += gap < -1e-12;
        closest = fmin(closest, gap);
        for (int j = 0; j < i; j++) overlaps += v3_norm(v3_sub(s->b.pr[j].pos, x)) < r + s->b.pr[j].r - 1e-12;
    }
    printf("  %d spheres (%.4g kg of 0.004) in the octahedron (volume %.3g m^3), %ld places refused; the closest lies "
           "%.3g m inside the surface\n",
           n, info.mass, 4.0 / 3.0 * A * A * A, info.failed, closest);
    CHECK(n == info.count && n > 400);
    CHECK(outside == 0 && overlaps == 0);
    CHECK(info.mass <= 0.004 && info.mass > 0.004 - 2500 * 4.0 / 3.0 * M_PI * R * R * R);
    grit_inlet_def back;
    CHECK(grit_inlet_get(s, 0, &back, NULL) == GRIT_OK && back.region == GRIT_REGION_MESH && back.n_tri == 8 &&
          back.tri != NULL && isfinite(back.tri[0][0].x));
    grit_scene_destroy(s);
}

static void outlet_deletes_inside(void)
{
    grit_vec3 tri[8][3];
    octahedron(tri);
    grit_scene *s = scene(v3_zero());
    const int m = material(s);
    int expect = 0, n = 0;
    for (int i = 0; i < 12; i++)
        for (int j = 0; j < 12; j++)
            for (int k = 0; k < 12; k++) {
                /* a lattice of spacing 4 mm around the centre, shifted off
                 * the faces' planes */
                const grit_vec3 x = v3_add(C, v3(-0.0237 + 4e-3 * i, -0.0231 + 4e-3 * j, -0.0229 + 4e-3 * k));
                fx_sphere(s, m, x, R, v3_zero());
                expect += l1(x) <= A;
                n++;
            }
    grit_outlet_def o = grit_default_outlet_def();
    o.region = GRIT_REGION_MESH;
    o.tri = (const grit_vec3(*)[3])tri;
    o.n_tri = 8;
    CHECK(grit_add_outlet(s, &o) == 0);
    CHECK(grit_step(s, 1) == GRIT_OK);
    grit_outlet_info info;
    CHECK(grit_outlet_get(s, 0, NULL, &info) == GRIT_OK);
    int left_inside = 0;
    for (int i = 0; i < s->b.n; i++) left_inside += l1(s->b.pr[i].pos) <= A;
    printf("  outlet: %ld of %d lattice spheres deleted, %d have their centre inside the octahedron\n", info.count, n,
           expect);
    CHECK(info.count == expect && expect > 100 && left_inside == 0 && grit_particle_count(s) == n - expect);
    grit_scene_destroy(s);
}

static void restart_bitwise(void)
{
    grit_vec3 tri[8][3];
    octahedron(tri);
    grit_scene *a = scene(v3(0, 0, -9.81));
    const int m = material(a);
    fx_wall(a, m, 2, C.z - A, 1);
    grit_inlet_def d = mesh_inlet(m, tri);
    d.mass_rate = 0.5;
    CHECK(grit_add_inlet(a, &d) == 0);
    grit_outlet_def o = grit_default_outlet_def();
    o.region = GRIT_REGION_MESH;
    for (int t = 0; t < 8; t++)
        for (int v = 0; v < 3; v++) tri[t][v] = v3_add(tri[t][v], v3(0.1, 0, 0)); /* somewhere else: idle */
    o.tri = (const grit_vec3(*)[3])tri;
    o.n_tri = 8;
    CHECK(grit_add_outlet(a, &o) == 0);
    CHECK(grit_step(a, 500) == GRIT_OK);
    CHECK(grit_save(a, "test_regions.grit") == GRIT_OK);
    grit_scene *b = grit_scene_load("test_regions.grit");
    CHECK(b != NULL);
    if (!b) return;
    CHECK(grit_step(a, 1500) == GRIT_OK && grit_step(b, 1500) == GRIT_OK);
    const int n = grit_particle_count(a);
    bool same = n == grit_particle_count(b);
    for (int id = 0; same && id < n; id++) {
        grit_vec3 xa, xb;
        grit_get_pos(a, id, &xa);
        grit_get_pos(b, id, &xb);
        same = memcmp(&xa, &xb, sizeof xa) == 0;
    }
    grit_outlet_def ob;
    CHECK(grit_outlet_get(b, 0, &ob, NULL) == GRIT_OK && ob.region == GRIT_REGION_MESH && ob.n_tri == 8 &&
          memcmp(ob.tri, tri, sizeof tri) == 0);
    printf("  restart after 500 steps, 1500 more: %d particles, identical: %s\n", n, same ? "yes" : "no");
    CHECK(same && n > 20);
    grit_scene_destroy(a);
    grit_scene_destroy(b);
    remove("test_regions.grit");
}

static void errors(void)
{
    grit_vec3 tri[8][3];
    octahedron(tri);
    grit_scene *s = scene(v3_zero());
    grit_inlet_def d = mesh_inlet(material(s), tri);
    d.n_tri = 7; /* a face missing: open */
    CHECK(grit_add_inlet(s, &d) == GRIT_EINVAL);
    printf("  open: %s\n", grit_last_error(s));
    CHECK(strstr(grit_last_error(s), "inlet: the mesh") != NULL);
    d.n_tri = 2;
    CHECK(grit_add_inlet(s, &d) == GRIT_EINVAL && strstr(grit_last_error(s), "closed surface (n_tri = 2)"));
    d.n_tri = 8;
    d.tri = NULL;
    CHECK(grit_add_inlet(s, &d) == GRIT_EINVAL);
    d.tri = (const grit_vec3(*)[3])tri;
    d.r_min = d.r_max = 1.5 * A; /* too large */
    CHECK(grit_add_inlet(s, &d) == GRIT_EINVAL && strstr(grit_last_error(s), "cannot hold a sphere"));
    tri[3][1].y = INFINITY;
    grit_outlet_def o = grit_default_outlet_def();
    o.region = GRIT_REGION_MESH;
    o.tri = (const grit_vec3(*)[3])tri;
    o.n_tri = 8;
    CHECK(grit_add_outlet(s, &o) == GRIT_EINVAL && strstr(grit_last_error(s), "outlet: triangle 3, vertex 1"));
    tri[3][1].y = C.y;
    tri[3][0] = tri[3][1]; /* degenerate and no longer closed */
    CHECK(grit_add_outlet(s, &o) == GRIT_EINVAL);
    o.region = 3;
    CHECK(grit_add_outlet(s, &o) == GRIT_EINVAL && strstr(grit_last_error(s), "region = 3"));
    CHECK(grit_inlet_count(s) == 0 && grit_outlet_count(s) == 0);
    grit_scene_destroy(s);
}

int main(void)
{
    RUN(inlet_fills_the_solid);
    RUN(outlet_deletes_inside);
    RUN(restart_bitwise);
    RUN(errors);
    TEST_MAIN_END();
}
