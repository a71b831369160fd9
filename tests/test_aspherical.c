/* Rotation of aspherical particles: spec T30 and a free tumbling ellipsoid
 * (quaternion leapfrog, spec 8.3). */
#include "shapes_util.h"

/* Global angular momentum and rotational energy from the observable state
 * (orientation and angular velocity). */
static void state_L_E(grit_scene *s, int id, grit_vec3 *L, double *E)
{
    grit_quat q;
    grit_vec3 w, I;
    grit_get_ori(s, id, &q);
    grit_get_angvel(s, id, &w);
    grit_get_mass(s, id, NULL, &I);
    grit_vec3 wb = q_unrotate(q, w);
    grit_vec3 lb = v3(I.x * wb.x, I.y * wb.y, I.z * wb.z);
    *L = q_rotate(q, lb);
    *E = 0.5 * v3_dot(wb, lb);
}

static void t30_rotation_integrators(void)
{
    grit_scene *s = su_scene(1e-3, v3(0, 0, 0), 0);
    /* T30 gives no stiffness (nothing touches); with E = 1e7 its step would
     * be the spec's p-wave step r sqrt(rho/E) of the sphere, above the
     * ellipsoid's (0.75 of its smallest semi-axis, docs/shapes.md) */
    int m = su_mat(s, 1e6, 1000);
    grit_sphere_def sd = grit_default_sphere_def();
    sd.radius = 0.1;
    sd.angvel = v3(0, 0, 1);
    sd.material = m;
    int sp = grit_add_sphere(s, &sd);
    int el = su_ellipsoid(s, m, v3(3, 0, 0), q_identity(), v3(0.2, 0.1, 0.1), v3(0, 0, 0));
    grit_set_angvel(s, el, v3(0, 0, 2));
    grit_vec3 L0;
    double E0;
    state_L_E(s, el, &L0, &E0);
    CHECK(grit_step(s, 1000) == GRIT_OK);
    grit_quat q;
    grit_get_ori(s, sp, &q);
    CHECK_ABS(2 * atan2(q.z, q.w), 1.0, 1e-12);
    CHECK_ABS(q.x, 0, 1e-15);
    grit_get_ori(s, el, &q);
    CHECK_ABS(2 * atan2(q.z, q.w), 2.0000003, 1e-6);
    CHECK_ABS(q.x, 0, 1e-15);
    CHECK_ABS(q.y, 0, 1e-15);
    grit_vec3 w, L;
    double E;
    grit_get_angvel(s, el, &w);
    CHECK_VEC(w, 0, 0, 2, 1e-12);
    state_L_E(s, el, &L, &E);
    CHECK_VEC(L, L0.x, L0.y, L0.z, 1e-14);
    CHECK_REL(E, E0, 1e-12);
    grit_scene_destroy(s);
}

/* Ellipsoid with three different moments spinning mostly about the
 * intermediate axis (unstable: it flips over and over), no torque, for
 * 40000 steps. The stored momentum is constant by construction; what is
 * checked is the momentum and energy seen through (orientation, angular
 * velocity). The angular velocity is a mid-step value while the orientation
 * is on-step, so the state's L is L turned by half a step's rotation: an
 * O(|w| dt) offset that must not grow. */
static void free_tumbling_ellipsoid(void)
{
    const double dt = 1e-4;
    grit_scene *s = su_scene(dt, v3(0, 0, 0), 0);
    int m = su_mat(s, 1e7, 1000);
    grit_quat q0 = su_rot(v3(1, -2, 0.5), 0.8);
    int el = su_ellipsoid(s, m, v3(0, 0, 0), q0, v3(0.3, 0.2, 0.1), v3(0, 0, 0));
    grit_vec3 wb0 = v3(0.05, 6.0, 0.08); /* body axes: about the intermediate axis */
    grit_set_angvel(s, el, q_rotate(q0, wb0));
    grit_vec3 L0;
    double E0;
    state_L_E(s, el, &L0, &E0);
    double wmax = v3_norm(wb0);
    double max_dir = 0, max_norm = 0, max_e = 0, max_e_late = 0;
    double wb_y_min = 1e9;
    for (int k = 0; k < 40000; k++) {
        CHECK(grit_step(s, 1) == GRIT_OK);
        grit_vec3 L;
        double E;
        state_L_E(s, el, &L, &E);
        max_dir = fmax(max_dir, v3_norm(v3_sub(L, L0)) / v3_norm(L0));
        max_norm = fmax(max_norm, fabs(v3_norm(L) / v3_norm(L0) - 1));
        max_e = fmax(max_e, fabs(E / E0 - 1));
        if (k >= 30000) max_e_late = fmax(max_e_late, fabs(E / E0 - 1));
        grit_quat q;
        grit_vec3 w;
        grit_get_ori(s, el, &q);
        grit_get_angvel(s, el, &w);
        wb_y_min = fmin(wb_y_min, q_unrotate(q, w).y);
    }
    printf("  tumbling: |dL|/|L| <= %.2e (w dt = %.1e), ||L|-|L0||/|L0| <= %.1e, |dE|/E <= %.2e (last quarter %.2e)\n",
           max_dir, wmax * dt, max_norm, max_e, max_e_late);
    CHECK(wb_y_min < -5.0);                  /* it did flip: the motion is not a trivial spin */
    CHECK(max_dir < 0.5 * wmax * dt * 1.01); /* half a step's rotation, no drift */
    CHECK(max_norm < 1e-12);                 /* |L| exact: only a rotation of L */
    CHECK(max_e < 2e-3);
    CHECK(max_e_late < 2e-3);
    /* the stored momentum is exact */
    grit_scene_destroy(s);
}

/* Contact torques change the global angular momentum by their impulse
 * (spec 8.3 step 3): a tilted capsule dropped on a wall lands on one end
 * and bounces off spinning; its final L equals the summed torque impulse. */
static void torque_impulse(void)
{
    const double dt = 1e-5;
    grit_scene *s = su_scene(dt, v3(0, 0, 0), 0);
    int m = su_mat(s, 1e7, 1000);
    su_wall(s, m, 2, 0.0, 0);
    int c = su_capsule(s, m, v3(0, 0, 0.25), su_rot(v3(0, 1, 0), -0.5), 0.1, 0.5, v3(0, 0, -1));
    grit_vec3 H = v3_zero(); /* angular impulse on the capsule */
    int contact_steps = 0;
    for (int k = 0; k < 8000; k++) {
        grit_vec3 t;
        grit_get_torque(s, c, &t); /* applied in the coming step */
        H = v3_madd(H, dt, t);
        CHECK(grit_step(s, 1) == GRIT_OK);
        contact_steps += grit_contact_count(s);
    }
    CHECK(contact_steps > 100);
    CHECK(grit_contact_count(s) == 0);
    grit_vec3 L, w;
    double E;
    state_L_E(s, c, &L, &E);
    grit_get_angvel(s, c, &w);
    CHECK(v3_norm(w) > 1.0); /* it bounced off one end and spins */
    /* the state's L lags by half a step's rotation, |w| dt / 2 */
    CHECK_VEC(L, H.x, H.y, H.z, v3_norm(H) * v3_norm(w) * dt);
    grit_scene_destroy(s);
}

int main(void)
{
    RUN(t30_rotation_integrators);
    RUN(free_tumbling_ellipsoid);
    RUN(torque_impulse);
    TEST_MAIN_END();
}
