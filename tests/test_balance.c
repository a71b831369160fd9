/* grit_unbalanced_force: the ratio of the mean net force on the free
 * particles to the mean contact force, with numbers a hand computation
 * gives. */
#include <math.h>

#include "fixture.h"

/* one sphere pressed into a wall without gravity: its net force is the one
 * contact's force, ratio 1 exactly; with nothing touching: NaN */
static void one_contact_ratio_is_one(void)
{
    grit_scene *s = fx_scene_dt(1e-5);
    const int m = fx_mat(s, 1e7, 0.2, 0.5);
    fx_wall(s, m, 2, 0.0, 0);
    fx_sphere(s, m, v3(0, 0, 0.099), 0.1, v3(0, 0, 0));
    CHECK(grit_step(s, 1) == GRIT_OK);
    CHECK(grit_contact_count(s) == 1);
    CHECK_REL(grit_unbalanced_force(s), 1.0, 1e-14);
    grit_scene_destroy(s);

    s = fx_scene_dt(1e-5);
    fx_sphere(s, fx_mat(s, 1e7, 0.2, 0.5), v3(0, 0, 1), 0.1, v3(0, 0, 0));
    CHECK(grit_step(s, 1) == GRIT_OK);
    CHECK(isnan(grit_unbalanced_force(s)));
    grit_scene_destroy(s);
}

/* a sphere under gravity settled on a floor with damping: the contact
 * carries m g, the net force vanishes */
static void settled_sphere_ratio_vanishes(void)
{
    grit_scene_def d = grit_default_scene_def();
    d.dt = 1e-5;
    d.gravity = v3(0, 0, -9.81);
    d.damping = 0.3;
    grit_scene *s = fx_scene(&d);
    const int m = fx_mat(s, 1e7, 0.2, 0.5);
    fx_wall(s, m, 2, 0.0, 0);
    fx_sphere(s, m, v3(0, 0, 0.1), 0.1, v3(0, 0, 0));
    CHECK(grit_step(s, 2) == GRIT_OK);
    const double early = grit_unbalanced_force(s);
    CHECK(grit_step(s, 20000) == GRIT_OK);
    const double late = grit_unbalanced_force(s);
    printf("unbalanced: %.3g after 2 steps, %.3g after 20002\n", early, late);
    CHECK(early > 0.5);
    CHECK(late < 1e-4);
    grit_contact_info c = fx_only_contact(s);
    double mass;
    grit_vec3 inertia;
    grit_get_mass(s, 1, &mass, &inertia);
    CHECK_REL(fabs(c.force_global.z), mass * 9.81, 1e-4);
    grit_scene_destroy(s);
}

int main(void)
{
    RUN(one_contact_ratio_is_one);
    RUN(settled_sphere_ratio_vanishes);
    TEST_MAIN_END();
}
