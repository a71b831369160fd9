/* grit tests: a minimal harness. Each test program defines test functions
 * and lists them in main() with RUN(name). A failed check prints file, line,
 * expression and values, and the program exits non-zero. */
#ifndef GRIT_TEST_H
#define GRIT_TEST_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int test_failures = 0;
static const char *test_current = "";

#define CHECK(cond)                                                                                   \
    do {                                                                                              \
        if (!(cond)) {                                                                                \
            fprintf(stderr, "%s:%d: [%s] check failed: %s\n", __FILE__, __LINE__, test_current, #cond); \
            test_failures++;                                                                          \
        }                                                                                             \
    } while (0)

/* |a - b| <= tol */
#define CHECK_ABS(a, b, tol)                                                                                \
    do {                                                                                                    \
        double a_ = (a), b_ = (b), t_ = (tol);                                                              \
        if (!(fabs(a_ - b_) <= t_)) {                                                                       \
            fprintf(stderr, "%s:%d: [%s] %s = %.17g, expected %.17g (abs tol %g, diff %g)\n", __FILE__,      \
                    __LINE__, test_current, #a, a_, b_, t_, fabs(a_ - b_));                                 \
            test_failures++;                                                                                \
        }                                                                                                   \
    } while (0)

/* |a - b| <= tol |b| */
#define CHECK_REL(a, b, tol)                                                                                \
    do {                                                                                                    \
        double a_ = (a), b_ = (b), t_ = (tol);                                                              \
        if (!(fabs(a_ - b_) <= t_ * fabs(b_))) {                                                            \
            fprintf(stderr, "%s:%d: [%s] %s = %.17g, expected %.17g (rel tol %g, rel diff %g)\n", __FILE__,  \
                    __LINE__, test_current, #a, a_, b_, t_, fabs(a_ - b_) / fabs(b_));                     \
            test_failures++;                                                                                \
        }                                                                                                   \
    } while (0)

#define CHECK_VEC(v, X, Y, Z, tol)     \
    do {                               \
        CHECK_ABS((v).x, (X), (tol));  \
        CHECK_ABS((v).y, (Y), (tol));  \
        CHECK_ABS((v).z, (Z), (tol));  \
    } while (0)

#define RUN(fn)                                   \
    do {                                          \
        test_current = #fn;                       \
        int before_ = test_failures;              \
        fn();                                     \
        printf("%s %s\n", test_failures == before_ ? "ok  " : "FAIL", #fn); \
    } while (0)

#define TEST_MAIN_END() return test_failures ? 1 : 0

#endif
