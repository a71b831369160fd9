/* End to end: capsules and ellipsoids (and a few spheres) poured into a
 * square hopper loaded from an STL file written here, falling through its
 * opening onto a wall, damping off. The energy balance (kinetic, gravity,
 * elastic, frictional) must close; nothing may cross the hopper or the
 * floor; every kind of pair in the scene must have touched. */
#include <unistd.h>

#include "shapes_util.h"

static unsigned long long rng = 424242;
static double urand(void)
{
    rng = rng * 6364136223846793005ULL + 1442695040888963407ULL;
    return (double)(rng >> 11) * (1.0 / 9007199254740992.0);
}
static double urange(double a, double b) { return a + (b - a) * urand(); }

/* Funnel: square of half-width T at z = ZT down to half-width B at z = ZB,
 * four sides of two triangles each, ASCII STL in millimetres. */
static const double T = 0.3, B = 0.11, ZT = 0.5, ZB = 0.2;

static void write_hopper(const char *path)
{
    FILE *f = fopen(path, "w");
    fprintf(f, "solid hopper\n");
    const double cx[4] = {1, -1, -1, 1}, cy[4] = {1, 1, -1, -1};
    for (int k = 0; k < 4; k++) {
        int n = (k + 1) % 4;
        double top[2][3] = {{T * cx[k], T * cy[k], ZT}, {T * cx[n], T * cy[n], ZT}};
        double bot[2][3] = {{B * cx[k], B * cy[k], ZB}, {B * cx[n], B * cy[n], ZB}};
        const double *tri[2][3] = {{bot[0], bot[1], top[1]}, {bot[0], top[1], top[0]}};
        for (int t = 0; t < 2; t++) {
            fprintf(f, " facet normal 0 0 0\n  outer loop\n");
            for (int v = 0; v < 3; v++)
                fprintf(f, "   vertex %.6f %.6f %.6f\n", 1e3 * tri[t][v][0], 1e3 * tri[t][v][1], 1e3 * tri[t][v][2]);
            fprintf(f, "  endloop\n endfacet\n");
        }
    }
    fprintf(f, "endsolid hopper\n");
    fclose(f);
}

/* Half-width of the funnel at height z (inside the hopper's height). */
static double funnel(double z) { return B + (T - B) * (z - ZB) / (ZT - ZB); }

static void pour(double tan_phi, int steps, double tol)
{
    grit_scene_def sd = grit_default_scene_def();
    sd.gravity = v3(0, 0, -9.81);
    sd.track_energy = true;
    /* with the p-wave step x 0.9 these 3-4 m/s impacts (capsule tips,
     * ellipsoid ends) gain a few % of energy per run; 0.05 x p-wave keeps
     * the balance to about 1e-4 (docs/shapes.md, "time step") */
    sd.dt_safety = 0.05;
    grit_scene *s = grit_scene_create(&sd);
    grit_frictmat_def md = grit_default_frictmat_def();
    md.young = 1e7;
    md.tan_phi = tan_phi;
    int m = grit_add_frictmat(s, &md);
    char path[256];
    snprintf(path, sizeof path, "/tmp/grit_test_hopper_%d.stl", (int)getpid());
    write_hopper(path);
    grit_stl_def st = grit_default_stl_def();
    st.material = m;
    st.scale = 1e-3;
    st.half_thick = 0.005;
    grit_stl_info info;
    CHECK(grit_load_stl(s, path, &st, &info) == 8);
    unlink(path);
    CHECK(info.binary == 0 && strcmp(info.name, "hopper") == 0);
    int floor = su_wall(s, m, 2, 0.0, 1);
    /* particles above the hopper, at random places and orientations */
    grit_vec3 pos[100];
    double rad[100];
    int n = 0, tries = 0;
    while (n < 36 && tries++ < 100000) {
        int kind = n % 9 == 8 ? 2 : n % 2; /* capsules, ellipsoids, a few spheres */
        double r = urange(0.025, 0.035), L = urange(0.03, 0.08);
        /* draws in GCC's order, last argument first (fixture.h, fx_rand) */
        const double az = urange(0.025, 0.03), ay = urange(0.03, 0.04);
        grit_vec3 a = v3(urange(0.04, 0.06), ay, az);
        double R = kind == 0 ? r + L / 2 : (kind == 1 ? a.x : r);
        const double pz = urange(0.55, 0.85), py = urange(-0.22, 0.22);
        grit_vec3 p = v3(urange(-0.22, 0.22), py, pz);
        bool ok = true;
        for (int k = 0; k < n && ok; k++) ok = v3_norm(v3_sub(p, pos[k])) > R + rad[k] + 0.005;
        if (!ok) continue;
        const double angle = urange(0, M_PI), uz = urange(-1, 1), uy = urange(-1, 1);
        grit_quat q = su_rot(v3(urange(-1, 1), uy, uz), angle);
        if (kind == 0) su_capsule(s, m, p, q, r, L, v3(0, 0, 0));
        else if (kind == 1) su_ellipsoid(s, m, p, q, a, v3(0, 0, 0));
        else su_sphere(s, m, p, r, v3(0, 0, 0));
        pos[n] = p;
        rad[n++] = R;
    }
    CHECK(n == 36);
    /* which pairs of shapes touched */
    int seen[GRIT_SHAPE_COUNT][GRIT_SHAPE_COUNT] = {{0}};
    double worst = 0; /* largest |energy sum - initial| */
    int leaks = 0;
    bool exited[64] = {false}; /* fell out of the opening: may bounce anywhere */
    for (int k = 0; k < steps; k++) {
        int rc = grit_step(s, 1);
        CHECK(rc == GRIT_OK);
        if (rc) {
            fprintf(stderr, "%s\n", grit_last_error(s));
            break;
        }
        worst = fmax(worst, fabs(grit_energy_total(s) - grit_energy_initial(s)));
        if (getenv("GRIT_DEBUG") && k % 500 == 0) {
            printf("%6d", k);
            for (int e = 0; e < GRIT_E_COUNT; e++) printf(" %s %.4g", grit_energy_name(e), grit_energy(s, e));
            printf(" rel %.2e\n", grit_energy_rel_error(s));
        }
        if (k % 10) continue;
        for (int c = 0; c < grit_contact_count(s); c++) {
            grit_contact_info ci;
            grit_contact_get(s, c, &ci);
            int sa = grit_get_shape(s, ci.id_a), sb = grit_get_shape(s, ci.id_b);
            seen[sa][sb] = seen[sb][sa] = 1;
        }
        /* nothing leaks through the hopper or the floor */
        for (int id = 0; id < grit_particle_count(s); id++) {
            int sh = grit_get_shape(s, id);
            if (sh == GRIT_SHAPE_FACET || sh == GRIT_SHAPE_WALL) continue;
            grit_vec3 x;
            grit_get_pos(s, id, &x);
            if (x.z < ZB - 0.01) exited[id] = true;
            bool out = x.z < 0 || (!exited[id] && x.z > ZB + 0.02 && x.z < ZT - 0.02 && fmax(fabs(x.x), fabs(x.y)) > funnel(x.z));
            if (out && leaks++ == 0)
                fprintf(stderr, "%s: step %d: particle %d (%s) at (%g, %g, %g) is outside the hopper\n", test_current,
                        k, id, grit_shape_name(sh), x.x, x.y, x.z);
        }
    }
    int on_floor = 0;
    for (int id = 0; id < grit_particle_count(s); id++) {
        grit_vec3 x;
        grit_get_pos(s, id, &x);
        int sh = grit_get_shape(s, id);
        if (sh != GRIT_SHAPE_FACET && sh != GRIT_SHAPE_WALL && x.z < ZB - 0.05) on_floor++;
    }
    grit_stats stats;
    grit_get_stats(s, &stats);
    /* relative to the potential energy released. During an impact the sum
     * swings by the leapfrog's second-order error at the kink of the contact
     * force (docs/linear-model.md, "when the entries are booked"); the
     * balance is judged at the end, the swing only reported. */
    double rel = fabs(grit_energy_total(s) - grit_energy_initial(s)) / fabs(grit_energy(s, GRIT_E_GRAV));
    worst /= fabs(grit_energy(s, GRIT_E_GRAV));
    printf("  tan_phi %.1f: %ld steps (%.3f s), %d of %d below the hopper, %d contacts, energy balance %.2e of the "
           "%.3g J released (largest swing %.2e; plast %.3g J, broken %.3g J)\n",
           tan_phi, grit_step_count(s), grit_time(s), on_floor, n, grit_contact_count(s), rel,
           -grit_energy(s, GRIT_E_GRAV), worst, grit_energy(s, GRIT_E_PLAST), grit_energy(s, GRIT_E_BROKEN));
    CHECK(leaks == 0);
    CHECK(on_floor >= 5);
    CHECK(rel < tol);
    const int C = GRIT_SHAPE_CAPSULE, E = GRIT_SHAPE_ELLIPSOID, F = GRIT_SHAPE_FACET, W = GRIT_SHAPE_WALL;
    CHECK(seen[F][C] && seen[F][E] && seen[W][C] && seen[W][E]);
    CHECK(seen[C][C] && seen[E][E] && seen[C][E]);
    (void)floor;
    grit_scene_destroy(s);
}

/* Frictionless: 2.5e-4 of the released energy at the end (1.0e-3 when the
 * kinetic energy was booked a step before the elastic one). Impacts at this
 * step are resolved in few steps and tip contacts of capsules and ellipsoids are stiff
 * for the automatic step (docs/shapes.md); a broken contact books only its
 * tangential energy (booking 1/2 kn u^2 for the gap u > 0 at separation, as
 * an earlier version did, happened to cancel most of it here, 2.9e-5, but
 * made an isolated bounce worse). */
static void hopper_frictionless(void) { pour(0.0, 40000, 2e-3); }
/* With friction: measured 1.7e-4 with the trapezoidal friction book (1.5e-2
 * with plast_book=return, first order in dt; docs/linear-model.md (b)). */
static void hopper_with_friction(void) { pour(0.5, 40000, 1e-3); }

int main(void)
{
    RUN(hopper_frictionless);
    RUN(hopper_with_friction);
    TEST_MAIN_END();
}
