/* grit command line: the rate and the ETA of a run's progress line.
 *
 * A run slows down as contacts form (the deposit: spheres in free fall step
 * about twice as fast as the bed they make), so the rate of the whole run so
 * far, or an average that remembers its start, runs ahead of the steps still
 * to come and the ETA falls short (by half, 2 s into the deposit). The rate
 * is measured over a window of the recent past: a quarter of the time the
 * run has gone, at least ETA_MIN_WINDOW, long enough to average out a shared
 * machine's jitter and short enough to forget the first phase once it is
 * over. Pure functions of the samples given (time, step), so that
 * tests/test_eta.c can pin them on a synthetic cost history. */
#ifndef GRIT_ETA_H
#define GRIT_ETA_H

#define ETA_SLOTS 64          /* samples kept: spaced a 32nd of the window, they span two windows */
#define ETA_MIN_WINDOW 0.5    /* s */
#define ETA_WINDOW_FRACTION 0.25
#define ETA_SHOW_AFTER 2.0    /* s: no ETA before the run has gone that long */

typedef struct eta_clock {
    double start;                      /* when the run began (s, any clock) */
    double now_t;                      /* the newest sample */
    long now_k;
    double t[ETA_SLOTS];               /* the samples kept, a ring; head is the newest */
    long k[ETA_SLOTS];
    int n, head;
} eta_clock;

/* A clock for a run beginning at time t (s) and step k. */
void eta_init(eta_clock *e, double t, long k);
/* The run is at step k at time t (t not before the previous sample). */
void eta_sample(eta_clock *e, double t, long k);
/* The window over which eta_rate measures now (s). */
double eta_window(const eta_clock *e);
/* Steps per second over the window ending at the newest sample (over what there is, early on); 0 when no
 * step was made or no time went by. */
double eta_rate(const eta_clock *e);
/* Seconds until step end at eta_rate; -1 before the run has gone ETA_SHOW_AFTER or while the rate is 0. */
double eta_seconds(const eta_clock *e, long end);

#endif
