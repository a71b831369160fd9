/* grit: the automatic thread count (core/threads_tune.h). Pure bookkeeping
 * over measured times, so that tests can feed it any machine. */
#include "core/threads_tune.h"

void grit_tune_init(grit_tune *t, int max)
{
    *t = (grit_tune){0};
    t->max = max > 0 ? max : 1;
    t->cur = t->max;
    t->gap = 1;
    t->window = 8;
    t->min_seconds = GRIT_TUNE_WINDOW_S;
}

/* the count a probe from cur tries: half or double, alternating when both exist */
static int neighbour(grit_tune *t)
{
    const int down = t->cur > 1 ? t->cur / 2 : 0;
    const int up = t->cur < t->max ? (t->cur * 2 < t->max ? t->cur * 2 : t->max) : 0;
    if (down && up) {
        t->probe_up = !t->probe_up;
        return t->probe_up ? up : down;
    }
    return down ? down : up;
}

int grit_tune_step(grit_tune *t, double seconds)
{
    const int used = grit_tune_count(t);
    t->steps++;
    t->seconds += seconds > 0 ? seconds : 0;
    t->steps_by[t->probe ? 1 : 0]++;
    t->thread_steps += used;
    if (t->steps < t->window) return used;
    const double per_step = t->seconds / (double)t->steps;
    /* the first windows also size the window: long enough that the clock's
     * and the scheduler's noise (a millisecond) does not decide */
    if (t->seconds < t->min_seconds && t->window < (1L << 20) && !t->probe) {
        t->window *= 2;
        t->steps = 0, t->seconds = 0;
        return used;
    }
    t->steps = 0, t->seconds = 0;
    if (t->probe) {
        if (t->per_step > 0 && per_step < GRIT_TUNE_GAIN * t->per_step) {
            t->cur = t->probe;     /* the neighbour is faster: move there */
            t->per_step = per_step;
            t->gap = 1;
        } else if (t->gap < GRIT_TUNE_GAP_MAX) {
            t->gap *= 2;           /* it lost: ask again later */
        }
        t->probe = 0;
        t->since = 0;
        return t->cur;
    }
    t->per_step = per_step;
    if (t->max > 1 && ++t->since >= t->gap) t->probe = neighbour(t);
    return grit_tune_count(t);
}
