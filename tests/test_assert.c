/* GRIT_ASSERT (core/assert.h): in Debug and sanitizer builds a broken
 * invariant of the contact loop aborts with the file, line and condition;
 * in Release the assertions compile to nothing and do not even evaluate
 * their condition. */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/assert.h"
#include "core/scene_impl.h"
#include "fixture.h"

static void release_evaluates_nothing(void)
{
    int calls = 0;
    GRIT_ASSERT(++calls > 0, "counted %d", calls);
    CHECK(calls == GRIT_ASSERTS);
}

/* A contact whose particle index is out of range (memory corruption, or a
 * broken broad phase) is caught where the contact loop is about to use it. */
static void contact_index_out_of_range(void)
{
    if (!GRIT_ASSERTS) {
        printf("     (Release build: assertions compiled out)\n");
        return;
    }
    fflush(stdout);
    pid_t pid = fork();
    CHECK(pid >= 0);
    if (pid == 0) {
        FILE *quiet = freopen("/dev/null", "w", stderr);
        (void)quiet;
        grit_scene *s = fx_scene_dt(1e-5);
        int m = fx_mat(s, 1e7, 0.2, 0.5);
        fx_wall(s, m, 2, 0.0, 0);
        fx_sphere(s, m, v3(0, 0, 0.0099), 0.01, v3(0, 0, 0));
        if (grit_step(s, 1) != GRIT_OK || s->c.n != 1) _exit(3);
        s->c.pair[0].b = 7; /* no such particle */
        grit_step(s, 1);
        _exit(4); /* not caught */
    }
    int status = 0;
    CHECK(waitpid(pid, &status, 0) == pid);
    CHECK(WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT);
}

int main(void)
{
    RUN(release_evaluates_nothing);
    RUN(contact_index_out_of_range);
    TEST_MAIN_END();
}
