/* Surface meshes of every shape (for the VTK writer): closed meshes with
 * outward triangles, vertices on the true surface, volumes converging to
 * the shape's. */
#include "shapes_util.h"

/* Signed volume (divergence theorem) and whether every triangle faces away
 * from `inside` (true for convex shapes). */
static double volume(const grit_trimesh *m, grit_vec3 inside, bool *outward)
{
    double V = 0;
    *outward = true;
    for (int k = 0; k < m->nt; k++) {
        grit_vec3 a = m->v[m->t[k][0]], b = m->v[m->t[k][1]], c = m->v[m->t[k][2]];
        V += v3_dot(a, v3_cross(b, c)) / 6.0;
        grit_vec3 n = v3_cross(v3_sub(b, a), v3_sub(c, a));
        grit_vec3 g = v3_scale(v3_add(v3_add(a, b), c), 1.0 / 3.0);
        if (!(v3_dot(n, v3_sub(g, inside)) > 0)) *outward = false;
    }
    return V;
}

/* Every edge used by exactly two triangles, in opposite directions. */
static bool closed(const grit_trimesh *m)
{
    for (int k = 0; k < m->nt; k++)
        for (int e = 0; e < 3; e++) {
            int a = m->t[k][e], b = m->t[k][(e + 1) % 3], twins = 0;
            for (int q = 0; q < m->nt; q++)
                for (int f = 0; f < 3; f++) twins += m->t[q][f] == b && m->t[q][(f + 1) % 3] == a;
            if (twins != 1) return false;
        }
    return true;
}

static void round_shapes(void)
{
    grit_scene *s = su_scene(1e-5, v3(0, 0, 0), 0);
    int m = su_mat(s, 1e7, 1000);
    grit_quat q = su_rot(v3(1, 2, 3), 0.8);
    int sp = su_sphere(s, m, v3(1, 2, 3), 0.2, v3(0, 0, 0));
    int el = su_ellipsoid(s, m, v3(-1, 0, 2), q, v3(0.3, 0.2, 0.1), v3(0, 0, 0));
    int ca = su_capsule(s, m, v3(0, 5, 0), q, 0.1, 0.6, v3(0, 0, 0));
    int ro = su_rod(s, m, v3(0, 0, 0), v3(1, 1, 1), 0.05);
    const int ids[4] = {sp, el, ca, ro};
    const double Vexact[4] = {4.0 / 3.0 * M_PI * 0.008, 4.0 / 3.0 * M_PI * 0.006,
                              4.0 / 3.0 * M_PI * 1e-3 + M_PI * 0.01 * 0.6,
                              4.0 / 3.0 * M_PI * 1.25e-4 + M_PI * 0.0025 * sqrt(3.0)};
    const grit_vec3 centre[4] = {v3(1, 2, 3), v3(-1, 0, 2), v3(0, 5, 0), v3(0.5, 0.5, 0.5)};
    for (int k = 0; k < 4; k++) {
        double err_prev = INFINITY;
        for (int res = 16; res <= 64; res *= 2) {
            grit_trimesh tm;
            CHECK(grit_shape_tessellate(s, ids[k], res, 0, &tm) == GRIT_OK);
            bool out;
            double V = volume(&tm, centre[k], &out);
            CHECK(out);
            CHECK(V > 0 && V < Vexact[k]); /* inscribed polyhedron */
            double err = 1 - V / Vexact[k];
            CHECK(err < err_prev / 3); /* converges (second order) */
            err_prev = err;
            if (res == 16) CHECK(closed(&tm));
            /* vertices on the surface */
            double worst = 0;
            for (int v = 0; v < tm.nv; v++) {
                grit_vec3 p = tm.v[v];
                double dev = 0;
                if (k == 0) dev = v3_norm(v3_sub(p, centre[0])) - 0.2;
                if (k == 1) {
                    grit_vec3 l = q_unrotate(q, v3_sub(p, centre[1]));
                    dev = sqrt(sq(l.x / 0.3) + sq(l.y / 0.2) + sq(l.z / 0.1)) - 1;
                }
                if (k == 2 || k == 3) {
                    grit_vec3 a, b;
                    double r;
                    if (k == 2) {
                        grit_vec3 u = q_rotate(q, v3(0.3, 0, 0));
                        a = v3_sub(centre[2], u);
                        b = v3_add(centre[2], u);
                        r = 0.1;
                    } else {
                        a = v3(0, 0, 0);
                        b = v3(1, 1, 1);
                        r = 0.05;
                    }
                    grit_vec3 d = v3_sub(b, a);
                    double t = clamp(v3_dot(v3_sub(p, a), d) / v3_norm2(d), 0, 1);
                    dev = v3_norm(v3_sub(p, v3_madd(a, t, d))) - r;
                }
                worst = fmax(worst, fabs(dev));
            }
            CHECK(worst < 1e-12);
            if (res == 64) CHECK(err < 0.01);
            grit_trimesh_free(&tm);
        }
    }
    grit_scene_destroy(s);
}

static void flat_and_unbounded(void)
{
    grit_scene *s = su_scene(1e-5, v3(0, 0, 0), 0);
    int m = su_mat(s, 1e7, 1000);
    int thin = su_facet(s, m, v3(0, 0, 0), v3(1, 0, 0), v3(0, 1, 0), 0);
    int thick = su_facet(s, m, v3(0, 0, 1), v3(1, 0, 1), v3(0, 1, 1), 0.05);
    int w = su_wall(s, m, 1, 2.0, -1);
    int cy = su_infcyl(s, m, v3(0, 3, 4), 2, 0.5);
    grit_trimesh tm;
    CHECK(grit_shape_tessellate(s, thin, 8, 0, &tm) == GRIT_OK);
    CHECK(tm.nv == 3 && tm.nt == 1);
    CHECK_VEC(tm.v[tm.t[0][1]], 1, 0, 0, 0);
    grit_trimesh_free(&tm);
    CHECK(grit_shape_tessellate(s, thick, 8, 0, &tm) == GRIT_OK);
    bool out;
    CHECK(closed(&tm));
    CHECK_ABS(volume(&tm, v3(1.0 / 3, 1.0 / 3, 1), &out), 0.5 * 0.1, 1e-15); /* area x 2h */
    CHECK(out);
    grit_trimesh_free(&tm);
    CHECK(grit_shape_tessellate(s, w, 8, 3.0, &tm) == GRIT_OK);
    CHECK(tm.nt == 2);
    for (int k = 0; k < tm.nv; k++) CHECK(tm.v[k].y == 2.0 && fabs(tm.v[k].x) == 3.0);
    grit_vec3 n = v3_cross(v3_sub(tm.v[tm.t[0][1]], tm.v[tm.t[0][0]]), v3_sub(tm.v[tm.t[0][2]], tm.v[tm.t[0][0]]));
    CHECK(n.y < 0); /* faces the active side (sense -1) */
    grit_trimesh_free(&tm);
    CHECK(grit_shape_tessellate(s, cy, 16, 2.0, &tm) == GRIT_OK);
    CHECK(tm.nv == 32 && tm.nt == 32);
    double zmin = 1e9, zmax = -1e9;
    for (int k = 0; k < tm.nv; k++) {
        CHECK_ABS(hypot(tm.v[k].x, tm.v[k].y - 3), 0.5, 1e-15);
        zmin = fmin(zmin, tm.v[k].z);
        zmax = fmax(zmax, tm.v[k].z);
    }
    CHECK(zmin == 2.0 && zmax == 6.0);
    volume(&tm, v3(0, 3, 4), &out);
    CHECK(out);
    grit_trimesh_free(&tm);
    /* bad arguments */
    CHECK(grit_shape_tessellate(s, w, 8, 0.0, &tm) == GRIT_EINVAL);
    CHECK(strstr(grit_last_error(s), "extent") != NULL);
    CHECK(grit_shape_tessellate(s, thin, 3, 0, &tm) == GRIT_EINVAL);
    CHECK(grit_shape_tessellate(s, 99, 8, 0, &tm) == GRIT_EINVAL);
    grit_scene_destroy(s);
}

/* The mesh follows the particle as it moves and turns. */
static void follows_motion(void)
{
    grit_scene *s = su_scene(1e-3, v3(0, 0, 0), 0);
    int m = su_mat(s, 1e7, 1000);
    int c = su_capsule(s, m, v3(0, 0, 0), q_identity(), 0.1, 0.4, v3(1, 0, 0));
    grit_set_angvel(s, c, v3(0, 0, 2));
    grit_step(s, 100);
    grit_trimesh tm;
    grit_shape_tessellate(s, c, 16, 0, &tm);
    grit_vec3 x;
    grit_quat q;
    grit_get_pos(s, c, &x);
    grit_get_ori(s, c, &q);
    grit_vec3 tip = v3_add(x, q_rotate(q, v3(0.3, 0, 0)));
    double best = INFINITY;
    for (int k = 0; k < tm.nv; k++) best = fmin(best, v3_norm(v3_sub(tm.v[k], tip)));
    CHECK(best < 1e-12); /* the pole of the +x cap */
    CHECK(x.x > 0.09);
    grit_trimesh_free(&tm);
    grit_scene_destroy(s);
}

int main(void)
{
    RUN(round_shapes);
    RUN(flat_and_unbounded);
    RUN(follows_motion);
    TEST_MAIN_END();
}
