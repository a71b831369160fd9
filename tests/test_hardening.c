/* Issue 15 regressions at the library level: inputs at the edges of the
 * double range, counts that overflow, crafted files. Each case once made grit
 * hang, crash or go on with a wrong result; each must now either work or fail
 * with one line naming the problem, leaving the scene unchanged. */
#include <signal.h>
#include <unistd.h>

#include "fixture.h"

/* A hang must fail the test, not the CI's time budget. */
static void on_alarm(int sig)
{
    (void)sig;
    static const char m[] = "test_hardening: timed out (a loop that never ends)\n";
    if (write(2, m, sizeof m - 1) < 0) _exit(3);
    _exit(3);
}

/* Spheres at +-1e308: the extent of the scene overflows to inf, which made
 * the grid sizing of the broad phase loop for ever. */
static void huge_extent_steps(void)
{
    const double far[][2] = {{1e308, -1e308}, {1.7e308, -1.7e308}, {1e308, 1e308 * 0.999}};
    for (int c = 0; c < 3; c++) {
        grit_scene *s = fx_scene_dt(1e-4);
        int m = fx_mat(s, 1e7, 0.2, 0.5);
        fx_sphere(s, m, v3(far[c][0], 0, 0), 0.01, v3_zero());
        fx_sphere(s, m, v3(far[c][1], 0, 0), 0.01, v3_zero());
        fx_sphere(s, m, v3(0, 0, 0), 0.01, v3_zero());
        fx_sphere(s, m, v3(0.015, 0, 0), 0.01, v3_zero());
        alarm(20);
        int rc = grit_step(s, 5);
        alarm(0);
        CHECK(rc == GRIT_OK || strchr(grit_last_error(s), '\n') == NULL);
        grit_scene_destroy(s);
    }
}

int main(void)
{
    signal(SIGALRM, on_alarm);
    RUN(huge_extent_steps);
    TEST_MAIN_END();
}
