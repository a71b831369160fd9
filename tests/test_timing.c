/* Per-functor timing: the contact loop's CPU time by (geometry kind, law)
 * and the broad phase's by rebuild and re-sort (grit_stats,
 * grit_functor_times). The entries name the functors that ran and add up to
 * the contact loop's time; rebuilds and re-sorts are parts of the broad
 * phase's. */
#include "fixture.h"

static void breakdown_adds_up(void)
{
    grit_scene_def d = grit_default_scene_def();
    d.gravity = v3(0, 0, -9.81);
    d.sort_period = 50;
    grit_scene *s = fx_scene(&d);
    int m = fx_mat(s, 1e7, 0.2, 0.5);
    grit_pair_def p = grit_default_pair_def();
    p.law = 3; /* auto|idealelpl|linel6|kuhn */
    int k = fx_mat(s, 1e7, 0.2, 0.5);
    fx_must(s, grit_set_pair(s, k, k, &p), "pair");
    fx_wall(s, m, 2, 0.0, 0);
    unsigned long long rng = 9;
    for (int i = 0; i < 200; i++)
        fx_sphere(s, i % 2 ? m : k, v3(0.21 * (i % 10) + 0.01 * fx_rand(&rng), 0.21 * (i / 10 % 5), 0.1 + 0.21 * (i / 50)),
                  0.1, v3_zero());
    CHECK(grit_step(s, 3000) == GRIT_OK);
    grit_stats st;
    grit_get_stats(s, &st);
    grit_functor_time ft[16];
    const int n = grit_functor_times(s, ft, 16);
    double sum = 0;
    bool ss_ie = false, ss_ku = false, ws = false;
    for (int i = 0; i < n && i < 16; i++) {
        printf("    %-40s %.4f s\n", ft[i].name, ft[i].seconds);
        sum += ft[i].seconds;
        ss_ie |= strstr(ft[i].name, "Sphere_Sphere") && strstr(ft[i].name, "/idealelpl");
        ss_ku |= strstr(ft[i].name, "Sphere_Sphere") && strstr(ft[i].name, "/kuhn");
        ws |= strstr(ft[i].name, "Wall_Sphere") != NULL;
    }
    printf("    functors %.4f s of the contact loop's %.4f s; broad phase %.4f s: rebuilds %.4f s, re-sorts %.4f s "
           "(%ld, %ld)\n",
           sum, st.time_contacts, st.time_collide, st.time_rebuild, st.time_sort, st.rebuilds, st.sorts);
    CHECK(n >= 3 && ss_ie && ss_ku && ws);
    CHECK(sum <= st.time_contacts * (1 + 1e-9));
    CHECK(sum >= 0.8 * st.time_contacts);
    CHECK(st.time_rebuild > 0 && st.time_sort > 0 && st.sorts > 1);
    CHECK(st.time_rebuild + st.time_sort <= st.time_collide * (1 + 1e-9));
    CHECK(grit_functor_times(s, NULL, 0) == n);
    grit_scene_destroy(s);
}

int main(void)
{
    RUN(breakdown_adds_up);
    TEST_MAIN_END();
}
