/* The automatic thread count (core/threads_tune.c) on made-up machines: fed
 * the wall time a step would take with each count, it must find the fastest
 * count, spend few steps on losing probes, and follow a machine whose load
 * changes. Pure bookkeeping: no threads run here. */
#include "core/threads_tune.h"
#include "test.h"

/* a machine: wall seconds of one step with n threads */
typedef double (*machine)(int n);

/* `steps` steps on machine m from a fresh tuner with at most max threads;
 * counts[n]: steps run with n threads */
static void run(grit_tune *t, machine m, long steps, long counts[65])
{
    for (long k = 0; k < steps; k++) {
        const int n = grit_tune_count(t);
        CHECK(n >= 1 && n <= t->max);
        counts[n]++;
        grit_tune_step(t, m(n));
    }
}

static double idle_two_cores(int n) { return n == 1 ? 1e-3 : 0.55e-3; }  /* 2 threads 1.8x */
static double loaded_two_cores(int n) { return n == 1 ? 1e-3 : 4e-3; }   /* 2 threads 4x slower */
static double marginal(int n) { return n == 1 ? 1e-3 : 0.95e-3; }        /* within the 10 % margin */
static double best_at_four(int n) { return 1e-3 * (n == 4 ? 0.3 : n == 2 ? 0.5 : n == 8 ? 0.6 : 1.0); }

static void stays_parallel_on_free_cores(void)
{
    grit_tune t;
    grit_tune_init(&t, 2);
    long c[65] = {0};
    run(&t, idle_two_cores, 100000, c);
    fprintf(stderr, "idle: %ld steps at 2, %ld at 1\n", c[2], c[1]);
    CHECK(grit_tune_count(&t) == 2 || t.probe == 1);
    CHECK(c[2] > 0.95 * 100000); /* the probes of 1 thread grow rare */
}

static void drops_to_one_under_load(void)
{
    grit_tune t;
    grit_tune_init(&t, 2);
    long c[65] = {0};
    run(&t, loaded_two_cores, 200000, c);
    fprintf(stderr, "loaded: %ld steps at 1, %ld at 2\n", c[1], c[2]);
    CHECK(t.cur == 1);
    /* what the probes cost: each window at 2 threads costs 4x, and they come
     * every 64 windows once settled; all told well under 10 % of the time */
    const double wall = (double)c[1] * 1e-3 + (double)c[2] * 4e-3, best = 200000 * 1e-3;
    fprintf(stderr, "loaded: wall %.3g s against %.3g s at the best count\n", wall, best);
    CHECK(wall < 1.10 * best);
}

static void keeps_its_count_within_the_margin(void)
{
    grit_tune t;
    grit_tune_init(&t, 2);
    long c[65] = {0};
    run(&t, marginal, 50000, c);
    CHECK(t.cur == 2); /* 5 % is inside the 10 % margin: no move */
}

static void finds_the_best_of_several(void)
{
    grit_tune t;
    grit_tune_init(&t, 8);
    long c[65] = {0};
    run(&t, best_at_four, 200000, c);
    fprintf(stderr, "eight cores: %ld steps at 4, now %d\n", c[4], t.cur);
    CHECK(t.cur == 4);
    CHECK(c[4] > 0.8 * 200000);
}

static int phase;
static double changing(int n) { return phase ? idle_two_cores(n) : loaded_two_cores(n); }

static void follows_a_changing_load(void)
{
    grit_tune t;
    grit_tune_init(&t, 2);
    long c[65] = {0};
    phase = 0;
    run(&t, changing, 100000, c);
    CHECK(t.cur == 1);
    /* the other jobs end: back to 2 threads within the longest probe gap
     * (64 windows of at least 0.05 s: 3.2 s, plus one window) */
    phase = 1;
    long steps = 0;
    while (t.cur != 2 && steps < 1000000) {
        long d[65] = {0};
        run(&t, changing, 100, d);
        steps += 100;
    }
    fprintf(stderr, "load gone: back to 2 threads after %ld steps\n", steps);
    CHECK(t.cur == 2);
    CHECK(steps * 1e-3 < 66 * GRIT_TUNE_WINDOW_S * 4); /* windows sized under load last longer */
}

static void one_core(void)
{
    grit_tune t;
    grit_tune_init(&t, 1);
    long c[65] = {0};
    run(&t, idle_two_cores, 10000, c);
    CHECK(c[1] == 10000);
    grit_tune_init(&t, 0); /* nonsense max: one thread */
    CHECK(t.max == 1 && grit_tune_count(&t) == 1);
}

int main(void)
{
    RUN(stays_parallel_on_free_cores);
    RUN(drops_to_one_under_load);
    RUN(keeps_its_count_within_the_margin);
    RUN(finds_the_best_of_several);
    RUN(follows_a_changing_load);
    RUN(one_core);
    return test_failures ? 1 : 0;
}
