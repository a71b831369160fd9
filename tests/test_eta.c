/* The ETA of grit run's progress line (app/eta.c) on synthetic cost
 * histories: a run whose steps cost c1 each until step k1 and c2 after (the
 * deposit: spheres in free fall, then a bed about twice as slow to step),
 * with, for a shared machine, every other 0.1 s sample jit slower and the
 * next jit faster, sampled every 0.1 s as the program does. The ETA is
 * compared with the time the history actually has left. */
#include <math.h>

#include "eta.h"
#include "test.h"

typedef struct history {
    long k1, end;
    double c1, c2, jit;
} history;

typedef struct replay_result {
    double first;     /* the fraction of the steps done at the first ETA shown */
    double err[3];    /* the ETA's relative error at 25, 50, 75 % of the steps */
    double worst;     /* the largest |error| from time `from` on, while more than 1 s is left */
    double at2, at3;  /* the error at 2 s and at 3 s (the first samples from then on) */
} replay_result;

/* One sample interval: the steps made in 0.1 s (or to the end) and the time they took. */
static double advance(const history *h, long *k, int sample)
{
    const double f = 1 + (sample % 2 ? -1 : 1) * h->jit;
    double spent = 0;
    while (*k < h->end && spent < 0.1) spent += ((*k)++ < h->k1 ? h->c1 : h->c2) * f;
    return spent;
}

static replay_result replay(const history *h, double from)
{
    replay_result r = {.first = -1, .at2 = NAN, .at3 = NAN};
    long k = 0;
    double total = 0;
    for (int n = 0; k < h->end; n++) total += advance(h, &k, n); /* the run's length */
    eta_clock e;
    eta_init(&e, 100.0, 0); /* any clock: this one begins at 100 s */
    double t = 100.0;
    k = 0;
    int mark = 0;
    for (int n = 0; k < h->end; n++) {
        t += advance(h, &k, n);
        eta_sample(&e, t, k);
        const double eta = eta_seconds(&e, h->end), left = total - (t - 100.0), gone = t - 100.0;
        if (eta < 0) {
            CHECK(gone < ETA_SHOW_AFTER || k == h->end);
            continue;
        }
        CHECK(gone >= ETA_SHOW_AFTER);
        const double rel = eta / left - 1, done = (double)k / (double)h->end;
        if (r.first < 0) r.first = done, r.at2 = rel;
        if (isnan(r.at3) && gone >= 3.0) r.at3 = rel;
        if (gone >= from && left > 1.0) r.worst = fmax(r.worst, fabs(rel));
        while (mark < 3 && done >= 0.25 * (mark + 1)) r.err[mark++] = rel;
    }
    return r;
}

static void test_constant_cost(void)
{
    /* every step 1 ms: the ETA is the time left from the first one shown, after 2 s */
    const replay_result r = replay(&(history){.end = 20000, .c1 = 1e-3, .c2 = 1e-3}, 0);
    CHECK(r.worst < 0.01);
    CHECK_ABS(r.first, 0.1, 0.01);
}

static void test_deposit(void)
{
    /* the deposit (docs/cli.md measures it): 1.5 s of free fall at 0.5 ms per step (3000 steps), then the
     * bed at 1 ms (13000 steps). The window, a quarter of the time gone, has left the fall at 2 s, when
     * the first ETA is shown. A rate averaged since the start (at a quarter of the run, 2.5 s in: 4000
     * steps in 1.5 s fast and 1 s slow, 1.6x the bed's rate) would make the ETA 37 % short */
    const replay_result r = replay(&(history){.k1 = 3000, .end = 16000, .c1 = 5e-4, .c2 = 1e-3}, 0);
    printf("deposit: first ETA at %.0f %% of the steps; error at 25/50/75 %%: %+.1f %% %+.1f %% %+.1f %%, "
           "worst %.1f %%\n", 100 * r.first, 100 * r.err[0], 100 * r.err[1], 100 * r.err[2], 100 * r.worst);
    CHECK(r.first > 0.15 && r.first < 0.25);
    CHECK(r.worst < 0.02);
    for (int i = 0; i < 3; i++) CHECK(fabs(r.err[i]) < 0.02);
}

static void test_late_change(void)
{
    /* the fall lasts 2.5 s (5000 steps), past the first ETA: at 2 s the window sees only the fall and the
     * ETA is short by what it cannot know (the bed is twice as slow), at 3 s the window (0.75 s) is a third
     * fall and two thirds bed, from 3.33 s on (0.25 t <= t - 2.5) it is all bed */
    const replay_result r = replay(&(history){.k1 = 5000, .end = 17000, .c1 = 5e-4, .c2 = 1e-3}, 3.4);
    printf("late change: error at 2 s %+.1f %%, at 3 s %+.1f %%, from 3.4 s on at most %.1f %%\n", 100 * r.at2,
           100 * r.at3, 100 * r.worst);
    CHECK(r.at2 < -0.3);
    CHECK(r.at3 < -0.1 && r.at3 > -0.35);
    CHECK(r.worst < 0.02);
}

static void test_jitter(void)
{
    /* a shared machine: every other sample 25 % slower, every other 25 % faster; the window (0.5 s and
     * more: 5 samples or more) averages it out */
    const replay_result r = replay(&(history){.end = 30000, .c1 = 1e-3, .c2 = 1e-3, .jit = 0.25}, 0);
    printf("jitter of 25 %%: worst error %.1f %%\n", 100 * r.worst);
    CHECK(r.worst < 0.06);
}

static void test_long_run(void)
{
    /* 2 hours (72000 samples): the ring of ETA_SLOTS samples still spans the window (a quarter of the time
     * gone). Steps of 10 ms, 20 ms from 1 h on (two thirds of the steps): before, the ETA cannot know of
     * it (at 25 %: 4050 s said, 5850 s left), once the window has left it (0.75 t >= 1 h) it is right again */
    const replay_result r = replay(&(history){.k1 = 360000, .end = 540000, .c1 = 1e-2, .c2 = 2e-2}, 4800.0);
    CHECK_ABS(r.err[0], 4050.0 / 5850.0 - 1, 0.002);
    CHECK(r.worst < 0.02);
}

static void test_window_and_rate(void)
{
    eta_clock e;
    eta_init(&e, 0, 0);
    CHECK(eta_rate(&e) == 0); /* no time gone */
    CHECK(eta_seconds(&e, 10) < 0);
    CHECK_ABS(eta_window(&e), ETA_MIN_WINDOW, 0);
    eta_sample(&e, 1, 0);
    CHECK(eta_rate(&e) == 0); /* no step made: no rate, no ETA */
    eta_sample(&e, 2, 0);
    CHECK(eta_seconds(&e, 10) < 0);
    for (int i = 1; i <= 100; i++) eta_sample(&e, 2 + 0.1 * i, 50 * i); /* 500 steps/s from 2 s to 12 s */
    CHECK_ABS(eta_window(&e), 3.0, 1e-9);
    CHECK_REL(eta_rate(&e), 500, 1e-9);
    CHECK_REL(eta_seconds(&e, 6000), 2.0, 1e-9);
    CHECK(eta_seconds(&e, 5000) == 0); /* at the end (or past it) */
    eta_sample(&e, 11, 6000);           /* a clock going back is ignored */
    CHECK_REL(eta_rate(&e), 500, 1e-9);
}

int main(void)
{
    RUN(test_constant_cost);
    RUN(test_deposit);
    RUN(test_late_change);
    RUN(test_jitter);
    RUN(test_long_run);
    RUN(test_window_and_rate);
    TEST_MAIN_END();
}
