/* grit tests: clumps in a periodic cell.
 *
 * A clump's members are placed from its body in unwrapped coordinates, so
 * they may sit in different images of the cell; each member is binned by
 * the periodic broad phase on its own, and the contact's image takes care
 * of the rest. What has to hold, and is checked here:
 * - a collision across the cell's boundary is the same collision as in
 *   free space with the partner moved by one period;
 * - the energy balance closes while the cell is compressed and sheared
 *   (this needs the stress's branch vectors to start at the clumps'
 *   centres: the cell's affine field moves a clump's centre, not its
 *   members, and the gradient's work is V sigma : L);
 * - the stress controller compacts a clump assembly to its goal;
 * - a restart continues bit for bit;
 * - a clump that would span half the cell is refused (it could meet its
 *   own image, which the broad phase never pairs with it). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fixture.h"
#include "grit/grit.h"
#include "shapes_util.h"
#include "test.h"

/* A bent three-sphere template (overlapping members), centred near 0. */
static const grit_vec3 TPL_C[3] = {{-0.8e-3, 0, 0}, {0.3e-3, 0.1e-3, 0}, {0.9e-3, 0.7e-3, 0.2e-3}};
static const double TPL_R[3] = {0.7e-3, 0.6e-3, 0.5e-3};

static int add_tpl(grit_scene *s, int mat, grit_vec3 pos, grit_quat q, grit_vec3 v, grit_vec3 w)
{
    grit_clump_def d = grit_default_clump_def();
    d.n = 3;
    d.centers = TPL_C;
    d.radii = TPL_R;
    d.material = mat;
    d.pos = pos;
    d.ori = q;
    d.vel = v;
    d.angvel = w;
    return fx_must(s, grit_add_clump(s, &d), "clump");
}

/* A spinning clump straddling x = 0 of a periodic cell hits a sphere that
 * sits near x = L: the same collision as in an open scene with the sphere
 * at x - L. */
static void collision_across_boundary(void)
{
    const double L = 0.01;
    grit_vec3 xs[2], vs[2], ws[2], xc[2], vc[2], wc[2];
    for (int periodic = 0; periodic < 2; periodic++) {
        grit_scene *s = su_scene(2e-7, v3(0, 0, 0), 0);
        const int m = su_mat(s, 1e8, 2500);
        if (periodic) {
            const double H[3][3] = {{L, 0, 0}, {0, L, 0}, {0, 0, L}};
            CHECK(grit_cell_set(s, H) == GRIT_OK);
        }
        const int c = add_tpl(s, m, v3(0.0002, 0.005, 0.005), su_rot(v3(1, 2, 3), 0.7), v3(-0.4, 0.02, 0),
                              v3(30, -20, 50));
        const double xsph = periodic ? L - 0.0021 : -0.0021;
        const int b = su_sphere(s, m, v3(xsph, 0.0052, 0.0049), 0.0008, v3(0.1, 0, 0));
        CHECK(grit_step(s, 20000) == GRIT_OK);
        grit_get_pos(s, b, &xs[periodic]);
        grit_get_vel(s, b, &vs[periodic]);
        grit_get_angvel(s, b, &ws[periodic]);
        grit_get_pos(s, c, &xc[periodic]);
        grit_get_vel(s, c, &vc[periodic]);
        grit_get_angvel(s, c, &wc[periodic]);
        if (periodic) xs[1].x -= L;
        grit_scene_destroy(s);
    }
    /* they collided: the sphere's velocity turned */
    printf("  sphere velocity after the collision (%.4g, %.4g, %.4g) m/s, was (0.1, 0, 0)\n", vs[1].x, vs[1].y,
           vs[1].z);
    CHECK(vs[1].x < 0);
    CHECK(v3_norm(v3_sub(vs[0], vs[1])) < 1e-12);
    CHECK(v3_norm(v3_sub(ws[0], ws[1])) < 1e-9);
    CHECK(v3_norm(v3_sub(vc[0], vc[1])) < 1e-12);
    CHECK(v3_norm(v3_sub(wc[0], wc[1])) < 1e-9);
    printf("  open against periodic: sphere position %.2g m, clump %.2g m apart\n", v3_norm(v3_sub(xs[0], xs[1])),
           v3_norm(v3_sub(xc[0], xc[1])));
    CHECK(v3_norm(v3_sub(xs[0], xs[1])) < 1e-15 * 1e3); /* the period subtracted: rounding of x - L */
    CHECK(v3_norm(v3_sub(xc[0], xc[1])) < 1e-15 * 1e3);
}

/* n clumps and n spheres at random in an L-cube, random orientations, no
 * two bounding balls overlapping (nearest image). */
static grit_scene *clump_gas(int n, double L, double damping, unsigned seed, int *mat)
{
    grit_scene_def sd = grit_default_scene_def();
    sd.dt = 1e-6;
    sd.track_energy = true;
    sd.damping = damping;
    grit_scene *s = fx_scene(&sd);
    grit_frictmat_def md = grit_default_frictmat_def();
    md.young = 5e7;
    md.density = 2500;
    md.tan_phi = 0.5;
    const int m = fx_must(s, grit_add_frictmat(s, &md), "material");
    const double H[3][3] = {{L, 0, 0}, {0, L, 0}, {0, 0, L}};
    CHECK(grit_cell_set(s, H) == GRIT_OK);
    srand(seed);
    grit_vec3 *placed = malloc(sizeof *placed * (size_t)(2 * n));
    const double rb[2] = {1.7e-3, 0.6e-3}; /* bounding radius of the template about its origin; the sphere's */
    for (int k = 0; k < 2 * n;) {
        double u[7];
        for (int a = 0; a < 7; a++) u[a] = rand() / (RAND_MAX + 1.0);
        const grit_vec3 x = v3(u[0] * L, u[1] * L, u[2] * L);
        bool free_spot = true;
        for (int j = 0; j < k && free_spot; j++) {
            grit_vec3 d = v3_sub(x, placed[j]);
            d = v3(d.x - L * round(d.x / L), d.y - L * round(d.y / L), d.z - L * round(d.z / L));
            free_spot = v3_norm(d) > rb[k % 2] + rb[j % 2];
        }
        if (!free_spot) continue;
        placed[k] = x;
        const grit_vec3 v = v3(u[3] - 0.5, u[4] - 0.5, u[5] - 0.5);
        if (k % 2 == 0) add_tpl(s, m, x, su_rot(v3(u[4], u[5] + 0.1, u[6]), 6.0 * u[6]), v, v3(0, 0, 0));
        else su_sphere(s, m, x, 0.6e-3, v);
        k++;
    }
    free(placed);
    *mat = m;
    return s;
}

static void set_grad(grit_scene *s, double xx, double yy, double zz, double xy)
{
    double Lg[3][3] = {{xx, xy, 0}, {0, yy, 0}, {0, 0, zz}};
    CHECK(grit_cell_set_grad_v(s, Lg) == GRIT_OK);
}

/* A gas of clumps and spheres compressed into contact and sheared: the
 * energy balance closes at every sample, the gradient's work is what
 * loads it. Overlapping members and members in different images are
 * common here (the cell is 8 clump lengths wide). */
static void energy_under_compression_and_shear(void)
{
    int m;
    grit_scene *s = clump_gas(100, 0.02, 0.0, 7, &m);
    set_grad(s, -30, -30, -30, 0);
    double worst = 0;
    for (int k = 0; k < 40; k++) {
        if (k == 28) set_grad(s, 0, 0, 0, 10); /* simple shear */
        CHECK(grit_step(s, 1000) == GRIT_OK);
        const double e = grit_energy_rel_error(s);
        if (fabs(e) > worst) worst = fabs(e);
    }
    double sg[3][3];
    CHECK(grit_stress(s, sg) == GRIT_OK);
    const double gradv = grit_energy(s, GRIT_E_GRADV), plast = grit_energy(s, GRIT_E_PLAST);
    printf("  %d contacts, p = %.4g Pa, sigma_xy = %.4g Pa, work of the gradient %.4g J, friction %.4g J, "
           "worst balance error %.2g\n",
           grit_contact_count(s), -(sg[0][0] + sg[1][1] + sg[2][2]) / 3, sg[0][1], gradv, plast, worst);
    CHECK(grit_contact_count(s) > 150);
    CHECK(plast > 0);
    CHECK(fabs(gradv) > 0.1 * grit_energy_initial(s)); /* the cell did work worth checking */
    CHECK(worst < 2e-3);
    grit_scene_destroy(s);
}

/* The stress controller compacts a clump gas to 20 kPa; a restart saved on
 * the way continues bit for bit. */
static void controller_and_restart(void)
{
    int m;
    grit_scene *a = clump_gas(100, 0.02, 0.4, 11, &m);
    grit_cell_ctrl_def d = grit_default_cell_ctrl_def();
    for (int i = 0; i < 3; i++) {
        d.mode[i] = GRIT_CTRL_STRESS;
        d.goal[i] = -2e4;
    }
    d.max_rate = 30;
    d.stress_tol = 2e-2;
    d.settle = 20;
    d.every = 5;
    CHECK(grit_cell_ctrl_set(a, &d) == GRIT_OK);
    CHECK(grit_step(a, 6000) == GRIT_OK);
    grit_scene *b = fx_reload(a, "test_clump_periodic.grit");
    long steps = 0;
    const int rc = grit_cell_ctrl_run(a, 200000, &steps);
    CHECK(grit_step(b, steps) == GRIT_OK);
    grit_cell_ctrl_state st;
    CHECK(grit_cell_ctrl_get_state(a, &st) == GRIT_OK);
    printf("  converged: %s after %ld + 6000 steps, sigma = (%.5g, %.5g, %.5g) Pa, %d contacts\n",
           rc == GRIT_OK && st.converged ? "yes" : "no", steps, st.stress[0][0], st.stress[1][1], st.stress[2][2],
           grit_contact_count(a));
    CHECK(rc == GRIT_OK);
    for (int i = 0; i < 3; i++) CHECK(fabs(st.stress[i][i] + 2e4) < 0.03 * 2e4);
    /* the continued run is the same to the bit */
    const int n = grit_particle_count(a);
    int diff = 0;
    for (int id = 0; id < n; id++) {
        grit_vec3 xa, xb, wa, wb;
        grit_get_pos(a, id, &xa);
        grit_get_pos(b, id, &xb);
        grit_get_angvel(a, id, &wa);
        grit_get_angvel(b, id, &wb);
        if (memcmp(&xa, &xb, sizeof xa) || memcmp(&wa, &wb, sizeof wa)) diff++;
    }
    printf("  restart: %d of %d particles differ\n", diff, n);
    CHECK(diff == 0);
    grit_scene_destroy(a);
    grit_scene_destroy(b);
}

/* A cell shrunk under a clump until the clump spans half of it: the step
 * stops with a message naming the clump. */
static void too_wide_for_the_cell(void)
{
    grit_scene *s = su_scene(1e-6, v3(0, 0, 0), 0);
    const int m = su_mat(s, 1e8, 2500);
    const double H[3][3] = {{0.008, 0, 0}, {0, 0.008, 0}, {0, 0, 0.008}};
    CHECK(grit_cell_set(s, H) == GRIT_OK);
    const int c = add_tpl(s, m, v3(0.004, 0.004, 0.004), q_identity(), v3(0, 0, 0), v3(0, 0, 0));
    set_grad(s, -100, 0, 0, 0);
    int rc = GRIT_OK;
    for (int k = 0; k < 2000 && rc == GRIT_OK; k++) rc = grit_step(s, 10);
    printf("  %s\n", grit_last_error(s));
    CHECK(rc == GRIT_ESTATE);
    char want[64];
    snprintf(want, sizeof want, "clump %d (3 members) spans", c);
    CHECK(strstr(grit_last_error(s), want) != NULL);
    grit_scene_destroy(s);
}

int main(void)
{
    RUN(collision_across_boundary);
    RUN(energy_under_compression_and_shear);
    RUN(controller_and_restart);
    RUN(too_wide_for_the_cell);
    TEST_MAIN_END();
}
