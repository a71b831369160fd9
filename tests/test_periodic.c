/* Periodic cells (spec 9.3): T28, the error paths, the homogeneous motion of
 * particles and cell, a periodic gas (energy and momentum), and the broad
 * phase against brute force over images in sheared, deforming cells. */
#include "fixture.h"

static const double UNIT[3][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};

static void set_cell(grit_scene *s, const double H[3][3]) { fx_must(s, grit_cell_set(s, H), "cell"); }

/* T28: a contact across the boundary of a unit cell. */
static void t28_periodic_contact(void)
{
    grit_scene *s = fx_scene(NULL);
    int mat = fx_mat(s, 1e7, 0.2, 0.5);
    int s0 = fx_sphere(s, mat, v3(0.05, 0.5, 0.5), 0.06, v3_zero());
    int s1 = fx_sphere(s, mat, v3(0.95, 0.5, 0.5), 0.06, v3_zero());
    set_cell(s, UNIT);
    CHECK(grit_is_periodic(s));
    CHECK(grit_step(s, 1) == GRIT_OK);
    grit_contact_info c = fx_only_contact(s);
    int k[3];
    CHECK(grit_contact_image(s, 0, k) == GRIT_OK);
    const double sg = c.id_a == s0 ? 1.0 : -1.0; /* A is the first sphere: k = (-1,0,0), n = (-1,0,0) */
    CHECK(c.id_a == s0 || c.id_a == s1);
    CHECK(k[0] == (int)(-sg) && k[1] == 0 && k[2] == 0);
    CHECK_VEC(c.normal, -sg, 0, 0, 1e-15);
    CHECK_ABS(c.uN, -0.02, 1e-15);
    CHECK_ABS(c.point.x - round(c.point.x), 0.0, 1e-15);
    CHECK_REL(c.kn, 942477.7960769379, 1e-14);
    CHECK_REL(fabs(c.force.x), 18849.555921538758, 1e-13);
    grit_vec3 f0, f1;
    grit_get_force(s, s0, &f0);
    grit_get_force(s, s1, &f1);
    CHECK_REL(f0.x, 18849.555921538758, 1e-13); /* the first sphere is pushed towards +x */
    CHECK_REL(f1.x, -18849.555921538758, 1e-13);
    CHECK_ABS(f0.y, 0, 1e-12);
    CHECK_ABS(f0.z, 0, 1e-12);
    grit_scene_destroy(s);
}

static bool has(const char *msg, const char *word) { return strstr(msg, word) != NULL; }

static void error_paths(void)
{
    grit_scene *s = fx_scene(NULL);
    int mat = fx_mat(s, 1e7, 0.2, 0.5);
    double L[3][3] = {{0}}, H[3][3], sig[3][3];
    /* no cell yet */
    CHECK(grit_cell_set_grad_v(s, L) == GRIT_ESTATE);
    CHECK(has(grit_last_error(s), "no periodic cell"));
    CHECK(grit_cell_get(s, H) == GRIT_ESTATE);
    CHECK(isnan(grit_cell_volume(s)));
    CHECK(grit_stress(s, sig) == GRIT_ESTATE);
    CHECK(has(grit_last_error(s), "grit_stress_box"));
    /* degenerate, left-handed, non-finite cells; nothing changes */
    const double flat[3][3] = {{1, 2, 0}, {0, 0, 0}, {0, 0, 1}};
    CHECK(grit_cell_set(s, flat) == GRIT_EINVAL);
    CHECK(has(grit_last_error(s), "degenerate"));
    const double left[3][3] = {{0, 1, 0}, {1, 0, 0}, {0, 0, 1}};
    CHECK(grit_cell_set(s, left) == GRIT_EINVAL);
    CHECK(has(grit_last_error(s), "right-handed"));
    double bad[3][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, NAN}};
    CHECK(grit_cell_set(s, bad) == GRIT_EINVAL);
    CHECK(has(grit_last_error(s), "H[2][2]"));
    CHECK(!grit_is_periodic(s));
    /* a wall refuses the cell, and the cell refuses walls */
    int w = fx_wall(s, mat, 2, 0.0, 1);
    CHECK(w >= 0);
    CHECK(grit_cell_set(s, UNIT) == GRIT_ESTATE);
    CHECK(has(grit_last_error(s), "Wall") && has(grit_last_error(s), "unbounded"));
    CHECK(!grit_is_periodic(s));
    grit_scene_destroy(s);

    s = fx_scene(NULL);
    mat = fx_mat(s, 1e7, 0.2, 0.5);
    set_cell(s, UNIT);
    grit_wall_def wd = grit_default_wall_def();
    wd.material = mat;
    CHECK(grit_add_wall(s, &wd) == GRIT_ESTATE);
    CHECK(has(grit_last_error(s), "periodic"));
    CHECK(grit_particle_count(s) == 0);
    /* a sphere too large for the cell: refused by the cell ... */
    fx_sphere(s, mat, v3(0.5, 0.5, 0.5), 0.3, v3_zero());
    const double small[3][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
    CHECK(grit_cell_set(s, small) == GRIT_ESTATE);
    CHECK(has(grit_last_error(s), "particle 0") && has(grit_last_error(s), "below 0.5"));
    grit_scene_destroy(s);
    /* ... and, with the skin, by the broad phase at the step */
    grit_scene_def d = grit_default_scene_def();
    d.verlet_dist = 0.02;
    s = fx_scene(&d);
    mat = fx_mat(s, 1e7, 0.2, 0.5);
    fx_sphere(s, mat, v3(0.5, 0.5, 0.5), 0.24, v3_zero());
    set_cell(s, UNIT);
    CHECK(grit_step(s, 1) == GRIT_ESTATE);
    CHECK(has(grit_last_error(s), "with the skin") && has(grit_last_error(s), "verlet_dist"));
    grit_scene_destroy(s);
    /* a gradient too large for the time step: refused before anything moves */
    s = fx_scene_dt(1e-3);
    mat = fx_mat(s, 1e7, 0.2, 0.5);
    fx_sphere(s, mat, v3(0.5, 0.5, 0.5), 0.1, v3(1, 0, 0));
    set_cell(s, UNIT);
    L[0][1] = 200.0;
    CHECK(grit_cell_set_grad_v(s, L) == GRIT_OK);
    CHECK(grit_step(s, 1) == GRIT_EINVAL);
    CHECK(has(grit_last_error(s), "velocity gradient"));
    CHECK(grit_step_count(s) == 0);
    L[0][1] = INFINITY;
    CHECK(grit_cell_set_grad_v(s, L) == GRIT_EINVAL);
    CHECK(has(grit_last_error(s), "L[0][1]"));
    grit_scene_destroy(s);
}

/* Without forces and with no fluctuation, particles follow the cell: the
 * image of a particle through k is exactly where the deformed lattice puts
 * it, x = F x0, H = F H0, also when the gradient changes between steps. */
static void affine_motion_follows_cell(void)
{
    grit_scene *s = fx_scene_dt(1e-3);
    int mat = fx_mat(s, 1e3, 0.2, 0.5);
    const double H0[3][3] = {{1.0, 0.2, -0.1}, {0.0, 0.9, 0.3}, {0.1, 0.0, 1.1}};
    grit_vec3 x0[4] = {v3(0.1, 0.2, 0.3), v3(0.8, 0.1, 0.5), v3(-2.3, 4.1, 0.7), v3(0.5, 0.5, 0.95)};
    for (int i = 0; i < 4; i++) fx_sphere(s, mat, x0[i], 0.01, v3_zero());
    set_cell(s, H0);
    const double La[3][3] = {{-0.5, 0.8, 0.0}, {0.1, 0.3, -0.2}, {0.0, 0.4, 0.2}};
    const double Lb[3][3] = {{0.3, -0.6, 0.1}, {0.0, -0.2, 0.5}, {-0.3, 0.0, 0.1}};
    fx_must(s, grit_cell_set_grad_v(s, La), "gradV");
    CHECK(grit_step(s, 150) == GRIT_OK);
    fx_must(s, grit_cell_set_grad_v(s, Lb), "gradV");
    CHECK(grit_step(s, 150) == GRIT_OK);
    double F[3][3], H[3][3], L[3][3];
    grit_cell_get_trsf(s, F);
    grit_cell_get(s, H);
    grit_cell_get_grad_v(s, L);
    CHECK(L[0][1] == Lb[0][1] && L[2][0] == Lb[2][0]);
    double herr = 0, xerr = 0;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            double fh = 0;
            for (int q = 0; q < 3; q++) fh += F[i][q] * H0[q][j];
            herr = fmax(herr, fabs(fh - H[i][j]));
        }
    for (int p = 0; p < 4; p++) {
        grit_vec3 x;
        grit_get_pos(s, p, &x);
        for (int i = 0; i < 3; i++) {
            double fx = F[i][0] * x0[p].x + F[i][1] * x0[p].y + F[i][2] * x0[p].z;
            xerr = fmax(xerr, fabs(fx - v3_get(x, i)));
        }
    }
    CHECK_ABS(herr, 0, 1e-14);
    /* exact to rounding, also across the two changes of gradient (the
     * spec's formula drifts off, see spec_formula_drifts) */
    CHECK_ABS(xerr, 0, 1e-12);
    printf("    affine: |H - F H0| = %.3g, |x - F x0| = %.3g\n", herr, xerr);
    CHECK_REL(grit_cell_volume(s), H[0][0] * (H[1][1] * H[2][2] - H[1][2] * H[2][1]) -
                                       H[0][1] * (H[1][0] * H[2][2] - H[1][2] * H[2][0]) +
                                       H[0][2] * (H[1][0] * H[2][1] - H[1][1] * H[2][0]),
              1e-14);
    grit_scene_destroy(s);
}

/* The same motion with the spec's gradV2 formula (dt/4 (L+ + L-) on both
 * sides), computed here for one particle: after a change of gradient it
 * keeps a fluctuation of order dt L^2 x and drifts off the lattice, which is
 * why the engine uses the exactly fluctuation-conserving form (cell_impl.h). */
static void mat_vec(const double M[3][3], const double x[3], double y[3])
{
    for (int i = 0; i < 3; i++) y[i] = M[i][0] * x[0] + M[i][1] * x[1] + M[i][2] * x[2];
}
static void solve3(const double A[3][3], const double b[3], double x[3]) /* Cramer */
{
    double d = A[0][0] * (A[1][1] * A[2][2] - A[1][2] * A[2][1]) - A[0][1] * (A[1][0] * A[2][2] - A[1][2] * A[2][0]) +
               A[0][2] * (A[1][0] * A[2][1] - A[1][1] * A[2][0]);
    for (int c = 0; c < 3; c++) {
        double M[3][3];
        memcpy(M, A, sizeof M);
        for (int r = 0; r < 3; r++) M[r][c] = b[r];
        x[c] = (M[0][0] * (M[1][1] * M[2][2] - M[1][2] * M[2][1]) - M[0][1] * (M[1][0] * M[2][2] - M[1][2] * M[2][0]) +
                M[0][2] * (M[1][0] * M[2][1] - M[1][1] * M[2][0])) /
               d;
    }
}
static void spec_formula_drifts(void)
{
    const double dt = 1e-3, Lb[3][3] = {{-0.5, 0.8, 0.0}, {0.1, 0.3, -0.2}, {0.0, 0.4, 0.2}};
    double x[3] = {-2.3, 4.1, 0.7}, v[3] = {0, 0, 0}, xc[3] = {-2.3, 4.1, 0.7};
    for (int n = 0; n < 300; n++) {
        const double(*Lm)[3] = n == 0 ? (const double(*)[3])NULL : Lb;
        double A[3][3], P[3][3], rhs[3], t1[3], t2[3], cm[3][3];
        for (int i = 0; i < 3; i++)
            for (int j = 0; j < 3; j++) {
                double s = 0.25 * dt * (Lb[i][j] + (Lm ? Lm[i][j] : 0));
                A[i][j] = (i == j) - s;
                P[i][j] = (i == j) + s;
                cm[i][j] = (i == j) - 0.5 * dt * Lb[i][j];
            }
        double dL[3][3];
        for (int i = 0; i < 3; i++)
            for (int j = 0; j < 3; j++) dL[i][j] = Lb[i][j] - (Lm ? Lm[i][j] : 0);
        mat_vec(dL, x, t1);
        mat_vec(P, v, t2);
        for (int i = 0; i < 3; i++) rhs[i] = t1[i] + t2[i];
        solve3(A, rhs, v);
        for (int i = 0; i < 3; i++) x[i] += dt * v[i];
        /* the cell's map: (I - dt/2 L) xc+ = (I + dt/2 L) xc */
        double cp[3][3];
        for (int i = 0; i < 3; i++)
            for (int j = 0; j < 3; j++) cp[i][j] = (i == j) + 0.5 * dt * Lb[i][j];
        mat_vec(cp, xc, t1);
        solve3(cm, t1, xc);
    }
    double err = fmax(fabs(x[0] - xc[0]), fmax(fabs(x[1] - xc[1]), fabs(x[2] - xc[2])));
    printf("    spec formula: |x - F x0| = %.3g after one change of gradient\n", err);
    CHECK(err > 1e-5);
}

int main(void)
{
    RUN(t28_periodic_contact);
    RUN(error_paths);
    RUN(affine_motion_follows_cell);
    RUN(spec_formula_drifts);
    TEST_MAIN_END();
}
