/* Direct array views (arrays.h) and reflection (reflect.h): the views read
 * what the by-id accessors read, the generations change exactly when the
 * arrays move, and the reflected defaults are the C defaults. */
#include <string.h>

#include "grit/arrays.h"
#include "grit/grit.h"
#include "grit/reflect.h"
#include "core/scene_impl.h"
#include "test.h"

static grit_scene *scene_with_spheres(int n)
{
    grit_scene_def d = grit_default_scene_def();
    d.dt = 1e-5;
    d.sort_period = 1;
    grit_scene *s = grit_scene_create(&d);
    grit_frictmat_def m = grit_default_frictmat_def();
    grit_add_frictmat(s, &m);
    for (int i = 0; i < n; i++) {
        grit_sphere_def sp = grit_default_sphere_def();
        /* ids in reverse spatial order, so that the first sort reorders them */
        sp.pos = v3(0.25 * (n - i), 0.01 * i, 0);
        sp.radius = 0.1;
        sp.vel = v3(0, 0, 0.1 * i);
        grit_add_sphere(s, &sp);
    }
    return s;
}

static grit_array_view view(grit_scene *s, int group, const char *name)
{
    grit_array_view v;
    memset(&v, 0, sizeof v);
    int i = grit_array_find(group, name);
    CHECK(i >= 0);
    CHECK(grit_array_get(s, i, &v) == GRIT_OK);
    return v;
}

static const double *row_f64(const grit_array_view *v, int row)
{
    return (const double *)((const char *)v->data + (size_t)row * (size_t)v->stride);
}

static void views_match_accessors(void)
{
    grit_scene *s = scene_with_spheres(20);
    CHECK(grit_step(s, 1) == GRIT_OK); /* sorts: rows are no longer ids */
    grit_array_view pos = view(s, GRIT_ARRAYS_PARTICLES, "pos");
    grit_array_view vel = view(s, GRIT_ARRAYS_PARTICLES, "vel");
    grit_array_view id = view(s, GRIT_ARRAYS_PARTICLES, "id");
    grit_array_view idx = view(s, GRIT_ARRAYS_PARTICLES, "index_of_id");
    CHECK(pos.count == 20 && pos.ncomp == 3 && pos.stride == (int64_t)sizeof(grit_posr) && !pos.writable);
    CHECK(vel.writable && vel.stride == (int64_t)sizeof(grit_velw));
    int moved = 0;
    for (int row = 0; row < 20; row++) {
        int pid = *(const int32_t *)((const char *)id.data + (size_t)row * (size_t)id.stride);
        moved += pid != row;
        CHECK(((const int32_t *)idx.data)[pid] == row);
        grit_vec3 p, v;
        grit_get_pos(s, pid, &p);
        grit_get_vel(s, pid, &v);
        CHECK(row_f64(&pos, row)[0] == p.x && row_f64(&pos, row)[1] == p.y && row_f64(&pos, row)[2] == p.z);
        CHECK(row_f64(&vel, row)[2] == v.z);
    }
    CHECK(moved > 0);
    /* a write through the writable view is what the engine uses */
    ((double *)((char *)vel.data + 3 * (size_t)vel.stride))[0] = 2.5;
    int pid3 = ((const int32_t *)id.data)[3];
    grit_vec3 v3w;
    grit_get_vel(s, pid3, &v3w);
    CHECK(v3w.x == 2.5);
    grit_scene_destroy(s);
}

static void generations_follow_moves(void)
{
    grit_scene *s = scene_with_spheres(4);
    uint64_t g0 = grit_array_generation(s, GRIT_ARRAYS_PARTICLES);
    uint64_t c0 = grit_array_generation(s, GRIT_ARRAYS_CONTACTS);
    CHECK(g0 == 4); /* one per particle added */
    grit_step(s, 1); /* first rebuild: sort + contact list */
    uint64_t g1 = grit_array_generation(s, GRIT_ARRAYS_PARTICLES);
    uint64_t c1 = grit_array_generation(s, GRIT_ARRAYS_CONTACTS);
    CHECK(g1 > g0 && c1 > c0);
    grit_step(s, 1); /* nothing moved far: no rebuild, no change */
    CHECK(grit_array_generation(s, GRIT_ARRAYS_PARTICLES) == g1);
    CHECK(grit_array_generation(s, GRIT_ARRAYS_CONTACTS) == c1);
    grit_sphere_def sp = grit_default_sphere_def();
    sp.radius = 0.1;
    sp.pos = v3(5, 5, 5);
    grit_add_sphere(s, &sp);
    CHECK(grit_array_generation(s, GRIT_ARRAYS_PARTICLES) > g1);
    CHECK(grit_array_generation(s, 7) == UINT64_MAX);
    grit_array_view bad;
    CHECK(grit_array_get(s, -1, &bad) == GRIT_EINVAL);
    CHECK(strstr(grit_last_error(s), "array index -1") != NULL);
    CHECK(grit_array_get(s, grit_array_count(), &bad) == GRIT_EINVAL);
    grit_scene_destroy(s);
}

static void contact_views(void)
{
    grit_scene_def d = grit_default_scene_def();
    d.dt = 1e-6;
    grit_scene *s = grit_scene_create(&d);
    grit_frictmat_def m = grit_default_frictmat_def();
    grit_add_frictmat(s, &m);
    grit_sphere_def a = grit_default_sphere_def(), b = a;
    a.radius = 0.1;
    b.radius = 0.2;
    b.pos = v3(0.29, 0, 0);
    grit_add_sphere(s, &a);
    grit_add_sphere(s, &b);
    grit_array_view empty = view(s, GRIT_ARRAYS_CONTACTS, "kn");
    CHECK(empty.count == 0 && empty.data == NULL);
    grit_step(s, 1);
    grit_array_view kn = view(s, GRIT_ARRAYS_CONTACTS, "kn");
    grit_array_view flags = view(s, GRIT_ARRAYS_CONTACTS, "flags");
    grit_array_view ext = view(s, GRIT_ARRAYS_CONTACTS, "ext");
    CHECK(kn.count == 1 && flags.count == 1);
    CHECK((*(const uint8_t *)flags.data & GRIT_CONTACT_REAL) != 0);
    grit_contact_info c;
    grit_contact_get(s, 0, &c);
    CHECK(*(const double *)kn.data == c.kn);
    CHECK(ext.ncomp == 0 && ext.data == NULL && ext.count == 1);
    grit_scene_destroy(s);
}

static void reflection(void)
{
    CHECK(grit_reflect_group_count() >= 3);
    CHECK(grit_reflect_group_find("scene") == &grit_scene_param_table);
    CHECK(grit_reflect_group_find("frictmat") == &grit_frictmat_param_table);
    CHECK(grit_reflect_group_find("kuhn") == &grit_kuhn_param_table);
    CHECK(grit_reflect_group_find("pair") == &grit_pair_param_table);
    CHECK(grit_reflect_group_find("nope") == NULL);
    CHECK(grit_reflect_group(-1) == NULL && grit_reflect_group(grit_reflect_group_count()) == NULL);
    CHECK(grit_reflect_def_size(&grit_scene_param_table) == sizeof(grit_scene_def));
    grit_scene_def d, ref = grit_default_scene_def();
    memset(&d, 0xff, sizeof d);
    CHECK(grit_reflect_def_default(&grit_scene_param_table, &d, sizeof d) == 0);
    CHECK(d.dt_safety == ref.dt_safety && d.sort_period == ref.sort_period && isnan(d.dt));
    CHECK(grit_reflect_def_default(&grit_scene_param_table, &d, sizeof d - 1) == -1);
    CHECK(grit_reflect_param(&grit_pair_param_table, 0) == &grit_pair_param_table.params[0]);
    CHECK(grit_reflect_param(&grit_pair_param_table, grit_pair_param_table.count) == NULL);
    CHECK(grit_reflect_sizeof("grit_sphere_def") == sizeof(grit_sphere_def));
    CHECK(grit_reflect_sizeof("grit_nothing") == 0);
    int found = 0;
    for (int i = 0; i < grit_reflect_constant_count(); i++)
        if (strcmp(grit_reflect_constant_name(i), "GRIT_SHAPE_FACET") == 0)
            found = grit_reflect_constant_value(i) == GRIT_SHAPE_FACET;
    CHECK(found);
    char r[128];
    grit_param_range_text(grit_param_find(&grit_scene_param_table, "damping"), r, sizeof r);
    CHECK(strcmp(r, "[0, 1)") == 0);
}

int main(void)
{
    RUN(views_match_accessors);
    RUN(generations_follow_moves);
    RUN(contact_views);
    RUN(reflection);
    TEST_MAIN_END();
}
