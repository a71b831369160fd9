/* grit C quickstart: 100 spheres fall onto a floor and settle (docs/c-api.md). */
#include <grit/grit.h>
#include <stdio.h>

int main(void)
{
    grit_scene_def def = grit_default_scene_def();
    def.gravity = (grit_vec3){0, 0, -9.81};
    def.damping = 0.3;
    def.track_energy = true;
    grit_scene *s = grit_scene_create(&def);
    if (!s) return fprintf(stderr, "%s\n", grit_create_error()), 1;
    grit_frictmat_def sand = grit_default_frictmat_def(); /* density 2600 kg/m^3, ... */
    sand.young = 1e7;
    grit_wall_def floor = grit_default_wall_def(); /* the plane z = 0, spheres above */
    floor.material = grit_add_frictmat(s, &sand), floor.axis = 2, floor.sense = 1;
    grit_sphere_def ball = grit_default_sphere_def();
    ball.material = floor.material, ball.radius = 0.004;
    for (int i = 0; i < 100; i++) {
        ball.pos = (grit_vec3){0.01 * (i % 5), 0.01 * (i / 5 % 5), 0.01 + 0.01 * (i / 25)};
        if (grit_add_sphere(s, &ball) < 0) return fprintf(stderr, "%s\n", grit_last_error(s)), 1;
    }
    if (grit_add_wall(s, &floor) < 0 || grit_step(s, 20000) < 0)
        return fprintf(stderr, "%s\n", grit_last_error(s)), 1;
    grit_vec3 p;
    grit_get_pos(s, 0, &p);
    printf("t = %.3f s: sphere 0 at z = %.4f m, %d contacts, energy balance error %.1e\n", grit_time(s), p.z,
           grit_contact_count(s), grit_energy_rel_error(s));
    grit_scene_destroy(s);
    return 0;
}
