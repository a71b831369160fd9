/* grit internal: the automatic thread count (core/threads_tune.c).
 *
 * Results never depend on the thread count (core/threads.h), so the count
 * may follow what the machine gives: when no count was asked for (threads =
 * 0 and no OMP_NUM_THREADS), the step is timed by the wall clock in windows
 * of steps, and now and then one window runs with a neighbouring count
 * (half or double, within 1 .. the cores the process may use). A count that
 * was 10 % faster is kept. On two free cores that is two threads; on a
 * machine whose other jobs take the cores, where every barrier of a parallel
 * loop waits for a descheduled thread, it is one (docs/performance.md,
 * "Threads"). Probes that lose are made rarer (every 2, 4, ... 64 windows),
 * so a slow neighbour costs little. */
#ifndef GRIT_CORE_THREADS_TUNE_H
#define GRIT_CORE_THREADS_TUNE_H

#include <stdbool.h>

typedef struct grit_tune {
    int max;          /* the most threads it may use (>= 1) */
    int cur;          /* the count of the exploiting windows */
    int probe;        /* the count of the window running now when probing, else 0 */
    int gap;          /* exploiting windows between two probes: 1 .. GRIT_TUNE_GAP_MAX */
    int since;        /* exploiting windows since the last probe */
    bool probe_up;    /* the next probe tries double (else half) when both exist */
    long window;      /* steps per window (grows until a window lasts min_seconds) */
    double min_seconds; /* wall seconds a window should last at least (GRIT_TUNE_WINDOW_S; tests: 0) */
    long steps;       /* steps timed in the running window */
    double seconds;   /* their wall time */
    double per_step;  /* the exploiting count's last wall time per step, <= 0: none yet */
    long steps_by[2]; /* steps run at the exploiting count / at probes (statistics) */
    double thread_steps; /* sum over the timed steps of the count used (its mean: / steps) */
} grit_tune;

enum { GRIT_TUNE_GAP_MAX = 64 };
#define GRIT_TUNE_WINDOW_S 0.05 /* wall seconds a window should last at least */
#define GRIT_TUNE_GAIN 0.9      /* a probe wins when its time per step is below this times the current */

/* start with `max` threads */
void grit_tune_init(grit_tune *t, int max);
/* the count the next step runs with */
static inline int grit_tune_count(const grit_tune *t) { return t->probe ? t->probe : t->cur; }
/* book one step that took `seconds` of wall time; ends the window when it is
 * full and picks the next window's count. Returns that count. */
int grit_tune_step(grit_tune *t, double seconds);

#endif
