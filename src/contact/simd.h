/* grit internal: 4-wide double vectors (GCC vector extensions) for the
 * vectorised contact kernels. With AVX these are ymm registers; without,
 * GCC lowers them to scalar or SSE code, so the kernels stay portable. */
#ifndef GRIT_SIMD_H
#define GRIT_SIMD_H

#include <math.h>
#include <stdint.h>
#include <string.h>
#ifdef __AVX__
#include <immintrin.h>
#endif

#define W4 4
typedef double v4d __attribute__((vector_size(32), aligned(32)));
typedef int64_t v4l __attribute__((vector_size(32), aligned(32))); /* lane masks: -1 true, 0 false */

typedef struct v4vec {
    v4d x, y, z;
} v4vec;

static inline v4d v4_set1(double a) { return (v4d){a, a, a, a}; }
static inline v4d v4_sqrt(v4d a)
{
#ifdef __AVX__
    return (v4d)_mm256_sqrt_pd((__m256d)a);
#else
    return (v4d){sqrt(a[0]), sqrt(a[1]), sqrt(a[2]), sqrt(a[3])};
#endif
}
/* m ? a : b, lane by lane */
static inline v4d v4_sel(v4l m, v4d a, v4d b) { return (v4d)(((v4l)a & m) | ((v4l)b & ~m)); }
static inline v4d v4_abs(v4d a) { return (v4d)((v4l)a & (v4l){INT64_MAX, INT64_MAX, INT64_MAX, INT64_MAX}); }
static inline v4d v4_min(v4d a, v4d b) { return v4_sel(a < b, a, b); }
static inline bool v4_any(v4l m) { return (m[0] | m[1] | m[2] | m[3]) != 0; }
static inline bool v4_all(v4l m) { return (m[0] & m[1] & m[2] & m[3]) != 0; }
static inline double v4_hsum(v4d a) { return (a[0] + a[1]) + (a[2] + a[3]); }

/* Unaligned load and store of 4 doubles (one vmovupd with AVX). */
static inline v4d v4_load(const void *p)
{
    v4d r;
    memcpy(&r, p, sizeof r);
    return r;
}
static inline void v4_store(void *p, v4d a) { memcpy(p, &a, sizeof a); }

/* In-place 4x4 transpose: rows r[0..3] become columns. Records of four
 * doubles (x, y, z, r; the rows of a contact record) become one vector per
 * field, and back, in 8 shuffles instead of 16 scalar moves. */
/* GCC spells a two-vector shuffle with a mask vector, Clang with constant
 * indices: the same permutation either way. */
#if defined(__clang__)
#define V4_SHUF(a, b, i0, i1, i2, i3) __builtin_shufflevector(a, b, i0, i1, i2, i3)
#else
#define V4_SHUF(a, b, i0, i1, i2, i3) __builtin_shuffle(a, b, (v4l){i0, i1, i2, i3})
#endif
static inline void v4_transpose(v4d r[4])
{
    const v4d t0 = V4_SHUF(r[0], r[1], 0, 4, 2, 6), t1 = V4_SHUF(r[0], r[1], 1, 5, 3, 7);
    const v4d t2 = V4_SHUF(r[2], r[3], 0, 4, 2, 6), t3 = V4_SHUF(r[2], r[3], 1, 5, 3, 7);
    r[0] = V4_SHUF(t0, t2, 0, 1, 4, 5);
    r[1] = V4_SHUF(t1, t3, 0, 1, 4, 5);
    r[2] = V4_SHUF(t0, t2, 2, 3, 6, 7);
    r[3] = V4_SHUF(t1, t3, 2, 3, 6, 7);
}

static inline v4vec vv_add(v4vec a, v4vec b) { return (v4vec){a.x + b.x, a.y + b.y, a.z + b.z}; }
static inline v4vec vv_sub(v4vec a, v4vec b) { return (v4vec){a.x - b.x, a.y - b.y, a.z - b.z}; }
static inline v4vec vv_scale(v4vec a, v4d s) { return (v4vec){a.x * s, a.y * s, a.z * s}; }
static inline v4vec vv_madd(v4vec a, v4d s, v4vec b) { return (v4vec){a.x + s * b.x, a.y + s * b.y, a.z + s * b.z}; }
static inline v4d vv_dot(v4vec a, v4vec b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
static inline v4vec vv_cross(v4vec a, v4vec b)
{
    return (v4vec){a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}

#endif
