/* grit: small-vector and quaternion arithmetic used everywhere in the engine.
 *
 * Every helper is prefixed grit_ (the engine's sources use short names, see
 * GRIT_SHORT_NAMES at the end) and static inline, so that the contact
 * kernels, which are compiled once per (geometry, law) pair, see through
 * every operation. */
#ifndef GRIT_MATH_H
#define GRIT_MATH_H

#include <math.h>
#include <stdbool.h>

#include "grit/export.h"

GRIT_BEGIN_DECLS

typedef struct grit_vec3 {
    double x, y, z;
} grit_vec3;

/* Unit quaternion w + xi + yj + zk; maps body (local) coordinates to global. */
typedef struct grit_quat {
    double w, x, y, z;
} grit_quat;

/* 3x3 matrix stored by columns: c[0], c[1], c[2]. */
typedef struct grit_mat3 {
    grit_vec3 c[3];
} grit_mat3;

static inline grit_vec3 grit_v3(double x, double y, double z) { return (grit_vec3){x, y, z}; }
static inline grit_vec3 grit_v3_zero(void) { return (grit_vec3){0.0, 0.0, 0.0}; }
static inline grit_vec3 grit_v3_add(grit_vec3 a, grit_vec3 b) { return grit_v3(a.x + b.x, a.y + b.y, a.z + b.z); }
static inline grit_vec3 grit_v3_sub(grit_vec3 a, grit_vec3 b) { return grit_v3(a.x - b.x, a.y - b.y, a.z - b.z); }
static inline grit_vec3 grit_v3_neg(grit_vec3 a) { return grit_v3(-a.x, -a.y, -a.z); }
static inline grit_vec3 grit_v3_scale(grit_vec3 a, double s) { return grit_v3(a.x * s, a.y * s, a.z * s); }
/* a + s*b */
static inline grit_vec3 grit_v3_madd(grit_vec3 a, double s, grit_vec3 b) { return grit_v3(a.x + s * b.x, a.y + s * b.y, a.z + s * b.z); }
static inline double grit_v3_dot(grit_vec3 a, grit_vec3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
static inline double grit_v3_norm2(grit_vec3 a) { return grit_v3_dot(a, a); }
static inline double grit_v3_norm(grit_vec3 a) { return sqrt(grit_v3_dot(a, a)); }
static inline grit_vec3 grit_v3_cross(grit_vec3 a, grit_vec3 b)
{
    return grit_v3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x);
}
static inline grit_vec3 grit_v3_normalized(grit_vec3 a) { return grit_v3_scale(a, 1.0 / grit_v3_norm(a)); }
static inline double grit_v3_get(grit_vec3 a, int i) { return i == 0 ? a.x : (i == 1 ? a.y : a.z); }
static inline void grit_v3_set(grit_vec3 *a, int i, double s)
{
    if (i == 0) a->x = s;
    else if (i == 1) a->y = s;
    else a->z = s;
}
static inline grit_vec3 grit_v3_unit(int axis) { return axis == 0 ? grit_v3(1, 0, 0) : (axis == 1 ? grit_v3(0, 1, 0) : grit_v3(0, 0, 1)); }
static inline bool grit_v3_isfinite(grit_vec3 a) { return isfinite(a.x) && isfinite(a.y) && isfinite(a.z); }
static inline double grit_v3_maxabs(grit_vec3 a) { return fmax(fabs(a.x), fmax(fabs(a.y), fabs(a.z))); }

/* ---- 3x3 matrices (columns) ---- */
static inline grit_vec3 grit_m3_mul(const grit_mat3 *m, grit_vec3 a)
{
    return grit_v3_add(grit_v3_add(grit_v3_scale(m->c[0], a.x), grit_v3_scale(m->c[1], a.y)), grit_v3_scale(m->c[2], a.z));
}
/* m^T a: the components of a along the three columns. */
static inline grit_vec3 grit_m3_tmul(const grit_mat3 *m, grit_vec3 a)
{
    return grit_v3(grit_v3_dot(m->c[0], a), grit_v3_dot(m->c[1], a), grit_v3_dot(m->c[2], a));
}

/* ---- quaternions ---- */
static inline grit_quat grit_q_identity(void) { return (grit_quat){1.0, 0.0, 0.0, 0.0}; }
static inline grit_quat grit_q_mul(grit_quat a, grit_quat b)
{
    return (grit_quat){a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z,
                       a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y,
                       a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
                       a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w};
}
static inline grit_quat grit_q_conj(grit_quat a) { return (grit_quat){a.w, -a.x, -a.y, -a.z}; }
static inline double grit_q_norm(grit_quat a) { return sqrt(a.w * a.w + a.x * a.x + a.y * a.y + a.z * a.z); }
static inline grit_quat grit_q_normalized(grit_quat a)
{
    double s = 1.0 / grit_q_norm(a);
    return (grit_quat){a.w * s, a.x * s, a.y * s, a.z * s};
}
/* Rotation by `angle` about the unit vector `axis`. */
static inline grit_quat grit_q_axis_angle(grit_vec3 axis, double angle)
{
    double s = sin(0.5 * angle);
    return (grit_quat){cos(0.5 * angle), axis.x * s, axis.y * s, axis.z * s};
}
/* Rotation by the rotation vector th (angle |th| about th/|th|). Exact to
 * double precision; small angles use series instead of sin/cos. */
static inline grit_quat grit_q_rotvec(grit_vec3 th)
{
    double h2 = 0.25 * grit_v3_norm2(th); /* (angle/2)^2 */
    double c, sinc;                  /* cos(h), sin(h)/h */
    if (h2 < 1e-4) {
        c = 1.0 - h2 * (1.0 / 2 - h2 * (1.0 / 24 - h2 * (1.0 / 720 - h2 * (1.0 / 40320))));
        sinc = 1.0 - h2 * (1.0 / 6 - h2 * (1.0 / 120 - h2 * (1.0 / 5040 - h2 * (1.0 / 362880))));
    } else {
        double h = sqrt(h2);
        c = cos(h);
        sinc = sin(h) / h;
    }
    double k = 0.5 * sinc;
    return (grit_quat){c, th.x * k, th.y * k, th.z * k};
}
/* Renormalise a quaternion whose norm is 1 to within round-off (one Newton
 * step for 1/sqrt, no division). */
static inline grit_quat grit_q_renorm(grit_quat q)
{
    double k = 0.5 * (3.0 - (q.w * q.w + q.x * q.x + q.y * q.y + q.z * q.z));
    return (grit_quat){q.w * k, q.x * k, q.y * k, q.z * k};
}
/* Rotate vector a by unit quaternion q (local -> global). */
static inline grit_vec3 grit_q_rotate(grit_quat q, grit_vec3 a)
{
    grit_vec3 u = grit_v3(q.x, q.y, q.z);
    grit_vec3 t = grit_v3_scale(grit_v3_cross(u, a), 2.0);
    return grit_v3_add(grit_v3_add(a, grit_v3_scale(t, q.w)), grit_v3_cross(u, t));
}
static inline grit_vec3 grit_q_unrotate(grit_quat q, grit_vec3 a) { return grit_q_rotate(grit_q_conj(q), a); }
static inline grit_mat3 grit_q_to_mat3(grit_quat q)
{
    grit_mat3 m;
    m.c[0] = grit_q_rotate(q, grit_v3(1, 0, 0));
    m.c[1] = grit_q_rotate(q, grit_v3(0, 1, 0));
    m.c[2] = grit_q_rotate(q, grit_v3(0, 0, 1));
    return m;
}
/* Quaternion of a proper orthonormal matrix (columns = rotated axes). */
static inline grit_quat grit_q_from_mat3(const grit_mat3 *m)
{
    double m00 = m->c[0].x, m11 = m->c[1].y, m22 = m->c[2].z;
    double m01 = m->c[1].x, m02 = m->c[2].x, m10 = m->c[0].y, m12 = m->c[2].y, m20 = m->c[0].z, m21 = m->c[1].z;
    double tr = m00 + m11 + m22;
    grit_quat q;
    if (tr > 0) {
        double s = sqrt(tr + 1.0) * 2;
        q = (grit_quat){0.25 * s, (m21 - m12) / s, (m02 - m20) / s, (m10 - m01) / s};
    } else if (m00 > m11 && m00 > m22) {
        double s = sqrt(1.0 + m00 - m11 - m22) * 2;
        q = (grit_quat){(m21 - m12) / s, 0.25 * s, (m01 + m10) / s, (m02 + m20) / s};
    } else if (m11 > m22) {
        double s = sqrt(1.0 + m11 - m00 - m22) * 2;
        q = (grit_quat){(m02 - m20) / s, (m01 + m10) / s, 0.25 * s, (m12 + m21) / s};
    } else {
        double s = sqrt(1.0 + m22 - m00 - m11) * 2;
        q = (grit_quat){(m10 - m01) / s, (m02 + m20) / s, (m12 + m21) / s, 0.25 * s};
    }
    return grit_q_normalized(q);
}
/* Rotation angle of a unit quaternion, in [0, pi]. */
static inline double grit_q_angle(grit_quat q)
{
    double w = fabs(q.w);
    if (w > 1.0) w = 1.0;
    return 2.0 * acos(w);
}

static inline double grit_clamp(double x, double lo, double hi) { return x < lo ? lo : (x > hi ? hi : x); }
static inline double grit_sq(double x) { return x * x; }

GRIT_END_DECLS

/* The engine's own sources call these helpers by their short names (v3_add for
 * grit_v3_add, sq for grit_sq, ...): the CMake build defines GRIT_SHORT_NAMES
 * for its targets. A program using grit gets only the grit_ names unless it
 * asks for the short ones too. */
#ifdef GRIT_SHORT_NAMES
#define v3(...) grit_v3(__VA_ARGS__)
#define v3_zero(...) grit_v3_zero(__VA_ARGS__)
#define v3_add(...) grit_v3_add(__VA_ARGS__)
#define v3_sub(...) grit_v3_sub(__VA_ARGS__)
#define v3_neg(...) grit_v3_neg(__VA_ARGS__)
#define v3_scale(...) grit_v3_scale(__VA_ARGS__)
#define v3_madd(...) grit_v3_madd(__VA_ARGS__)
#define v3_dot(...) grit_v3_dot(__VA_ARGS__)
#define v3_norm2(...) grit_v3_norm2(__VA_ARGS__)
#define v3_norm(...) grit_v3_norm(__VA_ARGS__)
#define v3_cross(...) grit_v3_cross(__VA_ARGS__)
#define v3_normalized(...) grit_v3_normalized(__VA_ARGS__)
#define v3_get(...) grit_v3_get(__VA_ARGS__)
#define v3_set(...) grit_v3_set(__VA_ARGS__)
#define v3_unit(...) grit_v3_unit(__VA_ARGS__)
#define v3_isfinite(...) grit_v3_isfinite(__VA_ARGS__)
#define v3_maxabs(...) grit_v3_maxabs(__VA_ARGS__)
#define m3_mul(...) grit_m3_mul(__VA_ARGS__)
#define m3_tmul(...) grit_m3_tmul(__VA_ARGS__)
#define q_identity(...) grit_q_identity(__VA_ARGS__)
#define q_mul(...) grit_q_mul(__VA_ARGS__)
#define q_conj(...) grit_q_conj(__VA_ARGS__)
#define q_norm(...) grit_q_norm(__VA_ARGS__)
#define q_normalized(...) grit_q_normalized(__VA_ARGS__)
#define q_axis_angle(...) grit_q_axis_angle(__VA_ARGS__)
#define q_rotvec(...) grit_q_rotvec(__VA_ARGS__)
#define q_renorm(...) grit_q_renorm(__VA_ARGS__)
#define q_rotate(...) grit_q_rotate(__VA_ARGS__)
#define q_unrotate(...) grit_q_unrotate(__VA_ARGS__)
#define q_to_mat3(...) grit_q_to_mat3(__VA_ARGS__)
#define q_from_mat3(...) grit_q_from_mat3(__VA_ARGS__)
#define q_angle(...) grit_q_angle(__VA_ARGS__)
#define clamp(...) grit_clamp(__VA_ARGS__)
#define sq(...) grit_sq(__VA_ARGS__)
#endif

#endif
