/* The vectorised sphere-sphere / IdealElPl kernel against the scalar
 * reference path: the same dense, frictional, damped pile run both ways must
 * agree to rounding (the two differ only in the order of floating-point
 * operations, so the trajectories drift apart slowly; 100 steps keep the
 * difference at round-off level). */
#include "grit/grit.h"
#include "test.h"

static grit_scene *pile(bool simd, bool track, bool no_break, double young)
{
    grit_scene_def d = grit_default_scene_def();
    d.dt = 2e-6;
    d.gravity = v3(0, 0, -9.81);
    d.simd = simd;
    d.track_energy = track;
    grit_scene *s = grit_scene_create(&d);
    grit_idealelpl_def ie = grit_default_idealelpl_def();
    ie.no_break = no_break;
    grit_set_law_def(s, GRIT_LAW_IDEALELPL, &ie, sizeof ie);
    grit_frictmat_def m = grit_default_frictmat_def();
    m.density = 2600;
    m.young = young;
    m.tan_phi = 0.4;
    int mat = grit_add_frictmat(s, &m);
    grit_pair_def p = grit_default_pair_def();
    p.cn = 0.05;
    grit_set_pair(s, mat, mat, &p);
    grit_wall_def w = grit_default_wall_def();
    w.material = mat;
    w.axis = 2;
    grit_add_wall(s, &w);
    /* a compressed, jittered cubic packing: every sphere overlaps several */
    unsigned seed = 12345;
    for (int i = 0; i < 6; i++)
        for (int j = 0; j < 6; j++)
            for (int k = 0; k < 8; k++) {
                seed = seed * 1103515245u + 12345u;
                double jx = ((seed >> 8) % 1000) * 1e-7, jy = ((seed >> 12) % 1000) * 1e-7;
                grit_sphere_def sd = grit_default_sphere_def();
                sd.radius = 1e-3 * (0.9 + 0.2 * ((seed >> 4) % 100) / 100.0);
                sd.pos = v3(1.8e-3 * i + jx, 1.8e-3 * j + jy, 1e-3 + 1.8e-3 * k);
                sd.vel = v3(0.01 * ((int)(seed % 7) - 3), 0.01 * ((int)(seed % 5) - 2), -0.05);
                sd.angvel = v3(1.0 * ((int)(seed % 3) - 1), 0, 2.0);
                sd.material = mat;
                grit_add_sphere(s, &sd);
            }
    return s;
}

static void compare(bool track, bool no_break, double young, int min_contacts)
{
    grit_scene *a = pile(true, track, no_break, young), *b = pile(false, track, no_break, young);
    CHECK(grit_step(a, 100) == GRIT_OK);
    CHECK(grit_step(b, 100) == GRIT_OK);
    CHECK(grit_contact_count(a) == grit_contact_count(b));
    CHECK(grit_contact_count(a) > min_contacts);
    double fbig = 0, dpos = 0, dforce = 0;
    for (int id = 0; id < grit_particle_count(a); id++) {
        grit_vec3 pa, pb, fa, fb;
        grit_get_pos(a, id, &pa);
        grit_get_pos(b, id, &pb);
        grit_get_force(a, id, &fa);
        grit_get_force(b, id, &fb);
        fbig = fmax(fbig, v3_norm(fa));
        dpos = fmax(dpos, v3_norm(v3_sub(pa, pb)));
        dforce = fmax(dforce, v3_norm(v3_sub(fa, fb)));
    }
    printf("    contacts %d, max position difference %.3g m, max force difference %.3g of %.3g N\n", grit_contact_count(a), dpos, dforce, fbig);
    CHECK(dpos <= 1e-15);
    CHECK(dforce <= 1e-9 * fbig);
    if (track)
        for (int e = 0; e < GRIT_E_COUNT; e++)
            CHECK_ABS(grit_energy(a, e), grit_energy(b, e), 1e-9 * fabs(grit_energy(b, GRIT_E_GRAV)) + 1e-18);
    grit_scene_destroy(a);
    grit_scene_destroy(b);
}

static void simd_matches_scalar(void) { compare(false, false, 1e5, 200); }
static void simd_matches_scalar_with_energy(void) { compare(true, false, 1e5, 200); }
static void simd_matches_scalar_no_break(void) { compare(true, true, 1e5, 200); }
/* stiff and overlapping: the pile bursts and most contacts break */
static void simd_matches_scalar_breaking(void)
{
    compare(true, false, 1e7, 50);
    grit_scene *a = pile(true, true, false, 1e7);
    grit_step(a, 1);
    int n0 = grit_contact_count(a);
    grit_step(a, 99);
    CHECK(grit_contact_count(a) < n0 / 4);
    grit_scene_destroy(a);
}

int main(void)
{
    RUN(simd_matches_scalar);
    RUN(simd_matches_scalar_with_energy);
    RUN(simd_matches_scalar_no_break);
    RUN(simd_matches_scalar_breaking);
    TEST_MAIN_END();
}
