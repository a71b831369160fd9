/* A contact that opens (u > 0) stores no normal elastic energy: the law
 * never pulls, so breaking must not book 0.5 kn u^2 as `broken`, only the
 * tangential elastic energy that disappears with the contact. Found with
 * `grit run deposit`: a frictionless bouncing sphere showed a balance error
 * of 50-70 %, all of it in `broken`. */
#include "grit/grit.h"
#include "test.h"

/* A sphere (r = 0.1 m, E = 1e9 Pa) bounces three times on a floor without
 * friction and damping; the total energy stays near its initial value and
 * nothing is booked as broken. */
static void bounce_conserves_energy(void)
{
    grit_scene_def d = grit_default_scene_def();
    d.dt = 5e-5; /* about 10 steps per contact: coarse, as in a deposit */
    d.track_energy = true;
    d.gravity = v3(0, 0, -9.81);
    grit_scene *s = grit_scene_create(&d);
    grit_frictmat_def m = grit_default_frictmat_def();
    m.young = 1e9;
    m.tan_phi = 0;
    int mat = grit_add_frictmat(s, &m);
    grit_wall_def w = grit_default_wall_def();
    w.material = mat;
    grit_add_wall(s, &w);
    grit_sphere_def sp = grit_default_sphere_def();
    sp.material = mat;
    sp.radius = 0.1;
    sp.pos = v3(0, 0, 0.1005);
    sp.vel = v3(0, 0, -1);
    int id = grit_add_sphere(s, &sp);
    int contacts = 0;
    bool was = false;
    double ek_max = 0;
    for (int k = 0; k < 12000; k++) {
        CHECK(grit_step(s, 1) == GRIT_OK);
        bool is = grit_contact_count(s) > 0;
        contacts += is && !was;
        was = is;
        ek_max = fmax(ek_max, grit_energy(s, GRIT_E_KINETIC));
    }
    grit_vec3 x;
    grit_get_pos(s, id, &x);
    CHECK(grit_energy(s, GRIT_E_BROKEN) == 0);
    CHECK(contacts == 3);
    /* with ~10 steps per contact, entering and leaving between two steps
     * changes the energy by ~0.3 % per bounce (measured: -0.88 % after 3);
     * booking 0.5 kn u^2 at each break made it +5.5 % */
    CHECK_ABS(grit_energy_total(s) - grit_energy_initial(s), 0, 1e-2 * ek_max);
    grit_scene_destroy(s);
}

int main(void)
{
    RUN(bounce_conserves_energy);
    TEST_MAIN_END();
}
