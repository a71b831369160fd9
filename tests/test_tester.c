/* The law tester (spec 10): T29, the frame orientation by ids, the
 * condition parser, the stage bookkeeping and the record. */
#include "grit/grit.h"
#include "test.h"

static const double KN = 7853981.633974483; /* E pi r / 2 for r = 0.5, E = 1e7 */

static grit_scene *two_spheres(double dt, grit_vec3 pa, grit_vec3 pb, double tan_phi)
{
    grit_scene_def d = grit_default_scene_def();
    d.dt = dt;
    d.track_energy = true;
    grit_scene *s = grit_scene_create(&d);
    grit_frictmat_def m = grit_default_frictmat_def();
    m.young = 1e7;
    m.density = 1000;
    m.kt_div_kn = 0.2;
    m.tan_phi = tan_phi;
    CHECK(grit_add_frictmat(s, &m) == 0);
    grit_sphere_def sd = grit_default_sphere_def();
    sd.radius = 0.5;
    sd.pos = pa;
    CHECK(grit_add_sphere(s, &sd) == 0);
    sd.pos = pb;
    CHECK(grit_add_sphere(s, &sd) == 1);
    return s;
}

static grit_tester_stage stage(const char *values, const char *whats, const char *until)
{
    grit_tester_stage st = grit_default_tester_stage();
    char err[256];
    if (grit_tester_stage_parse(&st, values, whats, until, err, sizeof err)) {
        fprintf(stderr, "stage: %s\n", err);
        exit(2);
    }
    return st;
}

/* T29: A = ids[0], B = ids[1]; `flip` makes A the sphere at x = 1, so that
 * the contact is stored as (B, A) (the broad phase orders the pair by the
 * spatial sort) and the tester must turn its frame. */
static void t29(bool flip)
{
    grit_vec3 p0 = v3(0, 0, 0), p1 = v3(1, 0, 0);
    grit_scene *s = two_spheres(1e-3, p0, p1, 0.5);
    grit_tester_def td = grit_default_tester_def();
    td.ab_weight = 0.3;
    grit_tester *t = grit_tester_create(s, flip ? 1 : 0, flip ? 0 : 1, &td);
    CHECK(t != NULL);
    CHECK(grit_tester_add_stage(t, &(grit_tester_stage){0}) == GRIT_EINVAL); /* no end condition */
    CHECK(grit_tester_add_stage(t, &(grit_tester_stage[]){stage("-0.01,0,0,0,0,0", "vvvvvv", "uN < -0.00505")}[0]) == 0);
    const int ida = flip ? 1 : 0, idb = flip ? 0 : 1;
    const double dir = flip ? -1.0 : 1.0; /* the normal A -> B along global x */
    const grit_tester_state *st = grit_tester_get_state(t);
    double maxerr_x = 0, maxerr_u = 0, maxerr_f = 0, max_other = 0;
    long steps = 0;
    while (!grit_tester_done(t) && steps < 2000) {
        CHECK(grit_tester_step(t, 1) == GRIT_OK);
        steps++;
        if (steps == 1) {
            CHECK(st->has_contact);
            CHECK(st->stage_step == 0);
            CHECK(st->u[0] == 0.0);
            CHECK(st->flipped == flip);
            CHECK_VEC(st->axes[0], dir, 0, 0, 0);
        }
        const long k = st->stage_step;
        grit_vec3 xa, xb;
        grit_get_pos(s, ida, &xa);
        grit_get_pos(s, idb, &xb);
        const double xa0 = flip ? 1.0 : 0.0, xb0 = flip ? 0.0 : 1.0;
        maxerr_x = fmax(maxerr_x, fabs(xa.x - (xa0 + dir * 0.007 * k * 1e-3)));
        maxerr_x = fmax(maxerr_x, fabs(xb.x - (xb0 - dir * 0.003 * k * 1e-3)));
        maxerr_u = fmax(maxerr_u, fabs(st->u[0] + 1e-5 * k));
        maxerr_f = fmax(maxerr_f, fabs(st->f[0] - KN * st->u[0]));
        for (int j = 1; j < 6; j++) max_other = fmax(max_other, fabs(st->u[j]) + fabs(st->f[j]));
        max_other = fmax(max_other, fabs(xa.y) + fabs(xa.z) + fabs(xb.y) + fabs(xb.z));
    }
    CHECK(grit_tester_done(t));
    CHECK_ABS((double)st->stage_step, 506, 1);
    CHECK_ABS(maxerr_x, 0, 1e-13);
    CHECK_ABS(maxerr_u, 0, 1e-13);
    CHECK_ABS(maxerr_f, 0, 1e-6);
    CHECK(max_other == 0.0);
    CHECK_REL(st->u[0], -5.06e-3, 2e-3);
    CHECK_REL(st->f[0], -39741.15, 2e-3);
    CHECK_REL(st->k[0], KN, 1e-14);
    CHECK_REL(st->k[1], 0.2 * KN, 1e-14);
    CHECK_REL(st->k[2], 0.2 * KN, 1e-14);
    CHECK(st->k[3] == 0 && st->k[4] == 0 && st->k[5] == 0);
    CHECK(st->bounces == 0);
    printf("  T29%s: stage ended at stage step %ld, uN = %.9g, f_x = %.9g N\n", flip ? " (ids reversed)" : "",
           st->stage_step, st->u[0], st->f[0]);
    grit_tester_destroy(t);
    grit_scene_destroy(s);
}

static void t29_kinematics(void) { t29(false); }
static void t29_ids_reversed(void) { t29(true); }

int main(void)
{
    RUN(t29_kinematics);
    RUN(t29_ids_reversed);
    TEST_MAIN_END();
}
