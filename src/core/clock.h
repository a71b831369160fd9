/* grit internal: the clocks of the step's timings. */
#ifndef GRIT_CORE_CLOCK_H
#define GRIT_CORE_CLOCK_H

#include <time.h>

/* CPU time of this thread in seconds: robust on a shared machine */
static inline double grit_cpu_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* monotonic wall time in seconds: what the automatic thread count
 * (core/threads_tune.c) minimises, waits for descheduled threads included */
static inline double grit_wall_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

#endif
