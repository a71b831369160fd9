/* Clumps (grit/clump.h, docs/clumps.md): mass properties against closed
 * forms, a free tumbling clump, a clump dropped on a wall, the collider's
 * exclusion of a clump's own members, refused input. */
#include "shapes_util.h"

static grit_clump_def clump_def(int m, int n, const grit_vec3 *c, const double *r)
{
    grit_clump_def d = grit_default_clump_def();
    d.n = n;
    d.centers = c;
    d.radii = r;
    d.material = m;
    return d;
}

/* Two disjoint spheres: exact. */
static void two_spheres_disjoint(void)
{
    grit_scene *s = su_scene(1e-5, v3(0, 0, 0), 0);
    const double rho = 2000, r = 0.1, a = 0.15;
    int m = su_mat(s, 1e7, rho);
    const grit_vec3 c[2] = {v3(1 - a, 2, 3), v3(1 + a, 2, 3)};
    const double rr[2] = {r, r};
    grit_clump_def d = clump_def(m, 2, c, rr);
    grit_clump_props p;
    CHECK(grit_get_clump_properties(s, &d, &p) == GRIT_OK);
    const double m1 = 4.0 / 3.0 * M_PI * r * r * r * rho;
    CHECK(p.exact);
    CHECK_REL(p.mass, 2 * m1, 1e-14);
    CHECK_VEC(p.center, 1, 2, 3, 1e-15);
    CHECK_REL(p.inertia.x, 2 * 0.4 * m1 * r * r, 1e-13);
    CHECK_REL(p.inertia.y, 2 * (0.4 * m1 * r * r + m1 * a * a), 1e-13);
    CHECK_REL(p.inertia.z, 2 * (0.4 * m1 * r * r + m1 * a * a), 1e-13);
    /* body x, the smallest moment, lies along the line of the centres */
    grit_vec3 ex = q_rotate(p.ori, v3(1, 0, 0));
    CHECK_ABS(fabs(ex.x), 1, 1e-12);
    /* the clump made from it: body and members */
    int id = grit_add_clump(s, &d);
    CHECK(id >= 0);
    double mass;
    grit_vec3 I, x;
    grit_get_mass(s, id, &mass, &I);
    CHECK_REL(mass, 2 * m1, 1e-14);
    CHECK(grit_get_shape(s, id) == GRIT_SHAPE_CLUMP);
    CHECK(grit_get_shape(s, id + 1) == GRIT_SHAPE_SPHERE);
    int body = -1, n = 0;
    CHECK(grit_get_clump(s, id + 2, &body, &n) == GRIT_OK);
    CHECK(body == id && n == 2);
    grit_get_pos(s, id + 1, &x);
    CHECK_VEC(x, c[0].x, c[0].y, c[0].z, 1e-15);
    grit_get_pos(s, id + 2, &x);
    CHECK_VEC(x, c[1].x, c[1].y, c[1].z, 1e-15);
    CHECK(grit_get_clump_count(s) == 1);
    grit_scene_destroy(s);
}

/* Moments of the part of a sphere (radius r, centre x = -a) with x <= 0,
 * about the origin, per unit density: volume, the axial moment and the
 * transverse one. The integrands are polynomials of degree 4 in x: 3-point
 * Gauss-Legendre is exact. */
static void half_lens_moments(double r, double a, double *V, double *Ix, double *Iy)
{
    const double lo = -a - r, hi = 0, mid = 0.5 * (lo + hi), half = 0.5 * (hi - lo);
    const double xg[3] = {-sqrt(0.6), 0, sqrt(0.6)}, wg[3] = {5.0 / 9, 8.0 / 9, 5.0 / 9};
    *V = *Ix = *Iy = 0;
    for (int k = 0; k < 3; k++) {
        const double x = mid + half * xg[k], u = x + a, p2 = r * r - u * u, w = half * wg[k];
        *V += w * M_PI * p2;
        *Ix += w * 0.5 * M_PI * p2 * p2;
        *Iy += w * (M_PI * p2 * x * x + 0.25 * M_PI * p2 * p2);
    }
}

/* Two overlapping equal spheres (distance = one radius): the grid
 * integration against the closed form; the figures are docs/clumps.md's. */
static void two_spheres_overlapping(void)
{
    grit_scene *s = su_scene(1e-5, v3(0, 0, 0), 0);
    const double rho = 1000, r = 0.02, a = 0.5 * r;
    int m = su_mat(s, 1e7, rho);
    /* along a skew direction, so that the grid is not aligned with the axis */
    const grit_vec3 u = v3_normalized(v3(1, 2, 2));
    const grit_vec3 c[2] = {v3_scale(u, -a), v3_scale(u, a)};
    const double rr[2] = {r, r};
    double V, Ix, Iy;
    half_lens_moments(r, a, &V, &Ix, &Iy);
    V *= 2, Ix *= 2, Iy *= 2;
    const int cells[3] = {16, 48, 128};
    const double tol[3][2] = {{2e-3, 4e-3}, {3e-4, 6e-4}, {6e-5, 1.2e-4}};
    for (int q = 0; q < 3; q++) {
        grit_clump_def d = clump_def(m, 2, c, rr);
        d.cells_per_radius = cells[q];
        grit_clump_props p;
        CHECK(grit_get_clump_properties(s, &d, &p) == GRIT_OK);
        CHECK(!p.exact);
        const double ev = p.volume / V - 1, ex = p.inertia.x / (rho * Ix) - 1, ey = p.inertia.y / (rho * Iy) - 1;
        printf("  cells/radius %4d: volume %+.2e, axial inertia %+.2e, transverse %+.2e, centre %.1e\n", cells[q],
               ev, ex, ey, v3_norm(p.center) / r);
        CHECK_ABS(ev, 0, tol[q][0]);
        CHECK_ABS(ex, 0, tol[q][1]);
        CHECK_ABS(ey, 0, tol[q][1]);
        CHECK_ABS(p.inertia.z / p.inertia.y - 1, 0, tol[q][1]);
        CHECK_ABS(v3_norm(p.center), 0, 1e-6 * r);
        grit_vec3 ax = q_rotate(p.ori, v3(1, 0, 0));
        CHECK_ABS(fabs(v3_dot(ax, u)), 1, 1e-6);
    }
    grit_scene_destroy(s);
}

/* An asymmetric clump of three overlapping spheres tumbling freely for
 * 50000 steps (about 4 turns, flipping twice): the energy book and the angular momentum of
 * the body's state. The state's angular velocity is a mid-step value, its
 * orientation on-step: L read from them is the true L turned by half a
 * step's rotation, |dL| <= |L| |w| dt / 2 (test_aspherical.c). */
static void tumbling_clump(void)
{
    const double dt = 2e-5;
    grit_scene *s = su_scene(dt, v3(0, 0, 0), 0);
    int m = su_mat(s, 1e7, 2500);
    const grit_vec3 c[3] = {v3(0, 0, 0), v3(0.012, 0, 0), v3(0.004, 0.009, 0.003)};
    const double rr[3] = {0.008, 0.006, 0.005};
    grit_clump_def d = clump_def(m, 3, c, rr);
    d.pos = v3(1, 1, 1);
    int id = su_check(s, grit_add_clump(s, &d), "clump");
    grit_quat q0;
    grit_get_ori(s, id, &q0);
    grit_vec3 I;
    grit_get_mass(s, id, NULL, &I);
    CHECK(I.x < I.y && I.y < I.z);
    const grit_vec3 wb0 = v3(2, 25, 3); /* mostly about the intermediate axis: it flips */
    grit_set_angvel(s, id, q_rotate(q0, wb0));
    const grit_vec3 L0 = q_rotate(q0, v3(I.x * wb0.x, I.y * wb0.y, I.z * wb0.z));
    const double wmax = v3_norm(wb0);
    grit_vec3 x0;
    grit_get_pos(s, id, &x0);
    double rel[3];
    for (int k = 0; k < 3; k++) {
        grit_vec3 xm;
        grit_get_pos(s, id + 1 + k, &xm);
        rel[k] = v3_norm(v3_sub(xm, x0));
    }
    CHECK(grit_step(s, 1) == GRIT_OK);
    const double E0 = grit_energy(s, GRIT_E_KINETIC);
    double max_e = 0, max_l = 0, max_rel = 0, wb_y_min = 1e9;
    for (int k = 0; k < 50000; k++) {
        CHECK(grit_step(s, 1) == GRIT_OK);
        max_e = fmax(max_e, fabs(grit_energy(s, GRIT_E_KINETIC) / E0 - 1));
        grit_quat q;
        grit_vec3 w, x;
        grit_get_ori(s, id, &q);
        grit_get_angvel(s, id, &w);
        const grit_vec3 wb = q_unrotate(q, w);
        wb_y_min = fmin(wb_y_min, wb.y);
        const grit_vec3 L = q_rotate(q, v3(I.x * wb.x, I.y * wb.y, I.z * wb.z));
        max_l = fmax(max_l, v3_norm(v3_sub(L, L0)) / v3_norm(L0));
        grit_get_pos(s, id, &x);
        for (int j = 0; j < 3; j++) {
            grit_vec3 xm, vm;
            grit_get_pos(s, id + 1 + j, &xm);
            grit_get_vel(s, id + 1 + j, &vm);
            max_rel = fmax(max_rel, fabs(v3_norm(v3_sub(xm, x)) - rel[j]));
            /* the member moves with the body: v = w x (xm - x) */
            max_rel = fmax(max_rel, v3_norm(v3_sub(vm, v3_cross(w, v3_sub(xm, x)))) * dt);
        }
    }
    printf("  kinetic energy within %.2e, |L - L0| / |L0| %.2e (bound %.2e), flipped: w_y down to %.1f\n", max_e,
           max_l, 0.5 * wmax * dt, wb_y_min);
    CHECK(wb_y_min < 0); /* it did tumble */
    CHECK(max_e < 1e-6);
    CHECK(max_l <= 0.5 * wmax * dt);
    CHECK(max_rel < 1e-15);
    CHECK(grit_contact_count(s) == 0); /* its members overlap but never touch each other */
    CHECK(grit_brute_force_overlaps(s, NULL, 0) == 0);
    grit_scene_destroy(s);
}

/* A three-sphere clump dropped on a floor comes to rest on it; the floor
 * then carries its weight, and its members are where the body says. */
static void dropped_clump_rests(void)
{
    grit_scene_def sd = grit_default_scene_def();
    sd.gravity = v3(0, 0, -9.81);
    sd.damping = 0.4;
    sd.track_energy = true;
    grit_scene *s = fx_scene(&sd);
    int m = su_mat(s, 1e7, 2600);
    int floor = su_wall(s, m, 2, 0.0, 1);
    const grit_vec3 c[3] = {v3(0, 0, 0), v3(0.015, 0, 0.002), v3(0.006, 0.012, -0.001)};
    const double rr[3] = {0.01, 0.008, 0.007};
    grit_clump_def d = clump_def(m, 3, c, rr);
    d.pos = v3(0, 0, 0.02);
    d.ori = q_axis_angle(v3_normalized(v3(1, 1, 0)), 0.4);
    d.angvel = v3(0, 3, 1);
    int id = su_check(s, grit_add_clump(s, &d), "clump");
    double mass;
    grit_get_mass(s, id, &mass, NULL);
    grit_vec3 v, w, F;
    int steps = 0;
    do {
        CHECK(grit_step(s, 1000) == GRIT_OK);
        steps += 1000;
        grit_get_vel(s, id, &v);
        grit_get_angvel(s, id, &w);
    } while ((v3_norm(v) > 1e-12 || v3_norm(w) > 1e-10) && steps < 400000);
    grit_get_force(s, floor, &F);
    grit_vec3 x;
    grit_get_pos(s, id, &x);
    int touching = 0;
    for (int k = 0; k < 3; k++) touching += grit_contact_find(s, floor, id + 1 + k) >= 0;
    printf("  at rest after %d steps, %d members on the floor; floor load / weight - 1 = %.1e\n", steps, touching,
           -F.z / (mass * 9.81) - 1);
    CHECK(steps < 400000);
    CHECK(touching >= 2);
    CHECK_REL(-F.z, mass * 9.81, 1e-10);
    CHECK_ABS(F.x, 0, 1e-10 * mass * 9.81);
    CHECK_ABS(F.y, 0, 1e-10 * mass * 9.81);
    CHECK(x.z > 0 && x.z < 0.02);
    /* at rest: the body's net force is zero, the members' contact forces do not count */
    CHECK(grit_unbalanced_force(s) < 1e-9);
    grit_scene_destroy(s);
}

/* 300 clumps (1200 particles: several of the integrator's chunks) falling
 * into a heap: 1 and 3 threads give the same bits (the members' sum on the
 * bodies is serial, in member order). */
static grit_scene *heap(int threads)
{
    grit_scene_def sd = grit_default_scene_def();
    sd.gravity = v3(0, 0, -9.81);
    sd.damping = 0.6;
    sd.track_energy = true;
    grit_scene *s = fx_scene(&sd);
    CHECK(grit_set_threads(s, threads) == GRIT_OK);
    int m = su_mat(s, 1e7, 2600);
    su_wall(s, m, 2, 0.0, 1);
    const grit_vec3 c[3] = {v3(0, 0, 0), v3(0.009, 0, 0), v3(0.003, 0.007, 0.002)};
    const double rr[3] = {0.006, 0.005, 0.004};
    for (int i = 0; i < 300; i++) {
        grit_clump_def d = clump_def(m, 3, c, rr);
        d.pos = v3(0.025 * (i % 10), 0.025 * (i / 10 % 10), 0.02 + 0.025 * (i / 100));
        d.ori = q_axis_angle(v3_normalized(v3(1, i % 7, 2)), 0.3 * i);
        su_check(s, grit_add_clump(s, &d), "clump");
    }
    CHECK(grit_step(s, 4000) == GRIT_OK);
    return s;
}

static void threads_same_bits(void)
{
    grit_scene *a = heap(1), *b = heap(3);
    const int n = grit_particle_count(a);
    int same = 0;
    for (int id = 0; id < n; id++) {
        grit_vec3 x, y, v, w;
        grit_get_pos(a, id, &x), grit_get_pos(b, id, &y);
        grit_get_vel(a, id, &v), grit_get_vel(b, id, &w);
        same += !memcmp(&x, &y, sizeof x) && !memcmp(&v, &w, sizeof v);
    }
    printf("  %d particles, %d real contacts: %d identical with 1 and 3 threads\n", n, grit_contact_count(a), same);
    CHECK(same == n && grit_contact_count(a) > 100);
    CHECK(grit_energy_total(a) == grit_energy_total(b));
    grit_scene_destroy(a);
    grit_scene_destroy(b);
}

/* VTK: members are drawn as spheres with their body's id in `clump`
 * (-1 for a free sphere); the body itself is not a sphere. */
static void vtk_members(void)
{
    grit_scene *s = su_scene(1e-5, v3(0, 0, 0), 0);
    int m = su_mat(s, 1e7, 2000);
    su_sphere(s, m, v3(1, 0, 0), 0.01, v3(0, 0, 0));
    const grit_vec3 c[2] = {v3(0, 0, 0), v3(0.01, 0, 0)};
    const double rr[2] = {0.01, 0.008};
    grit_clump_def d = clump_def(m, 2, c, rr);
    int id = su_check(s, grit_add_clump(s, &d), "clump");
    const char *path = "test_clump_particles.vtp";
    CHECK(grit_vtk_write_particles(s, path, GRIT_VTK_ASCII) == GRIT_OK);
    CHECK(grit_vtk_write_shapes(s, "test_clump_shapes.vtp", GRIT_VTK_ASCII) == GRIT_OK);
    FILE *f = fopen(path, "r");
    static char doc[1 << 16];
    size_t n = f ? fread(doc, 1, sizeof doc - 1, f) : 0;
    if (f) fclose(f);
    doc[n] = 0;
    CHECK(strstr(doc, "NumberOfPoints=\"3\"") != NULL);
    const char *a = strstr(doc, "Name=\"clump\"");
    CHECK(a != NULL);
    long v[3] = {0, 0, 0};
    if (a && (a = strchr(a, '>'))) {
        char *e;
        for (int k = 0; k < 3; k++, a = e) v[k] = strtol(a + 1, &e, 10);
    }
    CHECK(v[0] == -1 && v[1] == id && v[2] == id);
    remove(path);
    remove("test_clump_shapes.vtp");
    grit_scene_destroy(s);
}

static void refused(void)
{
    grit_scene *s = su_scene(1e-5, v3(0, 0, 0), 0);
    int m = su_mat(s, 1e7, 2000);
    const grit_vec3 c[2] = {v3(0, 0, 0), v3(0.01, 0, 0)};
    double rr[2] = {0.01, 0.01};
    grit_clump_def d = clump_def(m, 0, c, rr);
    CHECK(grit_add_clump(s, &d) == GRIT_EINVAL);
    CHECK(strstr(grit_last_error(s), "n = 0") != NULL);
    d.n = 2;
    rr[1] = -1;
    CHECK(grit_add_clump(s, &d) == GRIT_EINVAL);
    CHECK(strstr(grit_last_error(s), "member 1: radius = -1") != NULL);
    rr[1] = 0.01;
    d.material = 3;
    CHECK(grit_add_clump(s, &d) == GRIT_EINVAL);
    d.material = m;
    d.cells_per_radius = 2;
    CHECK(grit_add_clump(s, &d) == GRIT_EINVAL);
    CHECK(strstr(grit_last_error(s), "cells_per_radius = 2") != NULL);
    CHECK(grit_particle_count(s) == 0);
    d.cells_per_radius = 48;
    /* overlapping members of radii 1e4 apart: the mass grid would need
     * (2 0.01 / 1e-6 * 48)^2 = 9e11 cells; refused, nothing added (the
     * restart fuzzer found the int overflow this used to be) */
    rr[1] = 1e-6;
    const grit_vec3 c_in[2] = {v3(0, 0, 0), v3(0.001, 0, 0)};
    d.centers = c_in;
    CHECK(grit_add_clump(s, &d) == GRIT_EINVAL);
    CHECK(strstr(grit_last_error(s), "cells of the mass grid") != NULL);
    CHECK(grit_particle_count(s) == 0);
    d.centers = c;
    rr[1] = 0.01;
    int id = grit_add_clump(s, &d);
    CHECK(id == 0);
    CHECK(grit_set_vel(s, id + 1, v3(1, 0, 0)) == GRIT_EINVAL);
    CHECK(strstr(grit_last_error(s), "member of clump 0") != NULL);
    CHECK(grit_set_pos(s, id + 2, v3(1, 0, 0)) == GRIT_EINVAL);
    /* the body's state moves its members at once */
    CHECK(grit_set_pos(s, id, v3(1, 0, 0)) == GRIT_OK);
    grit_vec3 x;
    grit_get_pos(s, id + 2, &x);
    CHECK_VEC(x, 1.005, 0, 0, 1e-12);
    CHECK(grit_set_angvel(s, id, v3(0, 0, 2)) == GRIT_OK);
    grit_get_vel(s, id + 2, &x);
    CHECK_VEC(x, 0, 0.01, 0, 1e-12);
    /* a cell in which the clump (members 0.01 apart, radii 0.01) would
     * span more than half the cell: refused, naming the clump */
    const double Hs[3][3] = {{0.05, 0, 0}, {0, 1, 0}, {0, 0, 1}};
    CHECK(grit_cell_set(s, Hs) == GRIT_ESTATE);
    CHECK(strstr(grit_last_error(s), "clump 0 (2 members) spans 0.6 of the periodic cell along base vector 0") != NULL);
    const double H[3][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
    CHECK(grit_cell_set(s, H) == GRIT_OK); /* clumps live in periodic cells (test_clump_periodic.c) */
    CHECK(grit_get_clump(s, 99, NULL, NULL) == GRIT_EINVAL);
    grit_scene_destroy(s);
    /* and in a periodic scene */
    s = su_scene(1e-5, v3(0, 0, 0), 0);
    m = su_mat(s, 1e7, 2000);
    CHECK(grit_cell_set(s, Hs) == GRIT_OK);
    d.material = m;
    CHECK(grit_add_clump(s, &d) == GRIT_EINVAL); /* too wide for the cell: nothing added */
    CHECK(strstr(grit_last_error(s), "span 0.6 of the periodic cell along base vector 0") != NULL);
    CHECK(grit_particle_count(s) == 0);
    CHECK(grit_cell_set(s, H) == GRIT_OK);
    CHECK(grit_add_clump(s, &d) == 0);
    CHECK(grit_particle_count(s) == 3);
    grit_scene_destroy(s);
}

int main(void)
{
    RUN(two_spheres_disjoint);
    RUN(two_spheres_overlapping);
    RUN(tumbling_clump);
    RUN(dropped_clump_rests);
    RUN(threads_same_bits);
    RUN(vtk_members);
    RUN(refused);
    TEST_MAIN_END();
}
