/* The C twin of python/tests/test_twin.py: the same small scene built and run
 * through the C API, so that the Python package can be checked to give the
 * same numbers bit for bit.
 *
 *   test_python_twin          (ctest) run the scene twice: the two runs are
 *                             bitwise identical, the spheres stay in the box
 *                             and the energy balance closes
 *   test_python_twin FILE     run it once and write the final state to FILE
 *                             (hex floats), for the Python test to compare
 *
 * The scene: a box of five walls with a facet ramp, 27 spheres of two
 * materials in a lattice with a pair override (dashpot), gravity, damping,
 * energy tracking; 3000 steps. Every number is exactly representable, so
 * both languages build exactly the same scene. */
#include <string.h>

#include "grit/grit.h"
#include "test.h"

enum { STEPS = 3000, NSIDE = 3 };

static grit_scene *build(void)
{
    grit_scene_def d = grit_default_scene_def();
    d.dt = 1.0 / 4096;
    d.gravity = v3(0, 0, -9.8125);
    d.damping = 0.125;
    d.track_energy = true;
    grit_scene *s = grit_scene_create(&d);
    if (!s) {
        fprintf(stderr, "create: %s\n", grit_create_error());
        exit(2);
    }
    grit_frictmat_def m = grit_default_frictmat_def();
    m.density = 2500;
    m.young = 1e7;
    int soft = grit_add_frictmat(s, &m);
    m.young = 4e7;
    m.tan_phi = 0.25;
    int hard = grit_add_frictmat(s, &m);
    grit_pair_def p = grit_default_pair_def();
    p.cn = 8;
    grit_set_pair(s, soft, hard, &p);
    static const double walls[5][3] = {{0, 2, 1}, {0, 0, 1}, {1, 0, -1}, {0, 1, 1}, {1, 1, -1}}; /* coord, axis, sense */
    for (int k = 0; k < 5; k++) {
        grit_wall_def w = grit_default_wall_def();
        w.coord = walls[k][0];
        w.axis = (int)walls[k][1];
        w.sense = (int)walls[k][2];
        w.material = hard;
        grit_add_wall(s, &w);
    }
    grit_facet_def f = grit_default_facet_def();
    f.v[0] = v3(0, 0, 0.25);
    f.v[1] = v3(1, 0, 0.0625);
    f.v[2] = v3(0, 1, 0.25);
    f.material = hard;
    grit_add_facet(s, &f);
    for (int i = 0; i < NSIDE; i++)
        for (int j = 0; j < NSIDE; j++)
            for (int k = 0; k < NSIDE; k++) {
                grit_sphere_def sp = grit_default_sphere_def();
                sp.pos = v3(0.25 + 0.25 * i + 0.015625 * k, 0.25 + 0.25 * j, 0.375 + 0.125 * k);
                sp.radius = 0.0625 - 0.0078125 * ((i + j + k) % 2);
                sp.vel = v3(0.5 * (j - 1), 0.25 * (i - 1), 0);
                sp.material = (i + k) % 2 ? hard : soft;
                if (grit_add_sphere(s, &sp) < 0) {
                    fprintf(stderr, "sphere: %s\n", grit_last_error(s));
                    exit(2);
                }
            }
    if (grit_step(s, STEPS) != GRIT_OK) {
        fprintf(stderr, "step: %s\n", grit_last_error(s));
        exit(2);
    }
    return s;
}

/* The final state as text: one line per particle id, then the energies. */
static char *dump(grit_scene *s)
{
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap);
    for (int id = 0; id < grit_particle_count(s); id++) {
        grit_vec3 p, v, w;
        grit_get_pos(s, id, &p);
        grit_get_vel(s, id, &v);
        grit_get_angvel(s, id, &w);
        n += (size_t)snprintf(buf + n, cap - n, "particle %d %a %a %a %a %a %a %a %a %a\n", id, p.x, p.y, p.z, v.x,
                              v.y, v.z, w.x, w.y, w.z);
    }
    for (int k = 0; k < GRIT_E_COUNT; k++)
        n += (size_t)snprintf(buf + n, cap - n, "energy %s %a\n", grit_energy_name(k), grit_energy(s, k));
    n += (size_t)snprintf(buf + n, cap - n, "contacts %d\nstep %ld\n", grit_contact_count(s), grit_step_count(s));
    CHECK(n < cap);
    return buf;
}

static void deterministic_and_sane(void)
{
    grit_scene *a = build(), *b = build();
    char *da = dump(a), *db = dump(b);
    CHECK(strcmp(da, db) == 0);
    CHECK(grit_contact_count(a) > 0);
    for (int id = 6; id < grit_particle_count(a); id++) {
        grit_vec3 p;
        grit_get_pos(a, id, &p);
        CHECK(p.x > 0 && p.x < 1 && p.y > 0 && p.y < 1 && p.z > 0 && p.z < 1);
    }
    /* about ten steps per impact: the balance closes to a few percent only */
    CHECK(fabs(grit_energy_rel_error(a)) < 5e-2);
    free(da);
    free(db);
    grit_scene_destroy(a);
    grit_scene_destroy(b);
}

int main(int argc, char **argv)
{
    if (argc > 1) {
        grit_scene *s = build();
        char *d = dump(s);
        FILE *f = fopen(argv[1], "w");
        if (!f || fputs(d, f) < 0 || fclose(f)) {
            fprintf(stderr, "%s: cannot write\n", argv[1]);
            return 2;
        }
        free(d);
        grit_scene_destroy(s);
        return 0;
    }
    RUN(deterministic_and_sane);
    TEST_MAIN_END();
}
