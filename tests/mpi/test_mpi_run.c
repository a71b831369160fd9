/* MPI: a scene spread over K ranks gives the same bits as one process
 * running it with id_order (run under mpiexec -n K; ctest runs K = 1..4).
 *
 * The scene: spheres of two materials thrown sideways into a box of walls
 * with a facet for a floor, so that particles cross the slabs' borders with
 * their contacts, and the slabs move as the pile spreads. Every rank builds
 * it, spreads it, steps; the ranks gather it on rank 0, which runs the same
 * scene on one process and compares particle by particle and contact by
 * contact. Then: continued after the gather (the scene spreads again), and
 * saved on rank 0 and loaded by every rank (a restart written by K ranks,
 * continued by K). The energy book is tracked and summed over the ranks:
 * every rank's, spread and after the gathers, is compared with one
 * process's term by term. */
#include <float.h>
#include <mpi.h>
#include <unistd.h>

#include "by_id.h"
#include "fixture.h"
#include "grit/grit.h"
#include "grit/mpi.h"
#include "grit/restart.h"
#include "test.h"

static int rank, size;

static grit_scene *make(int law)
{
    const fx_pile_def p = {law, 432, 12, 0.0245, 0.3, 0.1, false, false};
    grit_scene *s = fx_pile(&p);
    s->def.track_energy = true; /* (the fixture's default: summed over the ranks) */
    s->def.id_order = true;
    /* a sideways throw: the pile spreads along x over the slabs */
    for (int i = 0; i < s->b.n; i++)
        if (s->b.shape[i] == GRIT_SHAPE_SPHERE) s->b.vw[i].v.x += 0.6 * (s->b.pr[i].pos.y > 0.15 ? 1 : -1);
    return s;
}

/* Sum of a count over the ranks, on every rank. */
static long all_sum(long x)
{
    long y = 0;
    MPI_Allreduce(&x, &y, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
    return y;
}

/* The energy book every rank holds for s against the one-process run's
 * (`ref`, on rank 0): each term within 1e-12 of its value, the total, the
 * initial total and the balance error within 1e-12 of the sum of the terms'
 * magnitudes (the scale the balance is judged on: the total is a small
 * remainder of large terms, and the ranks add the same terms in another
 * order). The number of misses, the same on every rank. */
static int energy_same(const grit_scene *s, const grit_scene *ref, const char *what)
{
    enum { N = GRIT_E_COUNT + 3 };
    double r[N] = {0}, m[N];
    if (rank == 0) {
        for (int k = 0; k < GRIT_E_COUNT; k++) r[k] = grit_energy(ref, k);
        r[GRIT_E_COUNT] = grit_energy_total(ref);
        r[GRIT_E_COUNT + 1] = grit_energy_initial(ref);
        r[GRIT_E_COUNT + 2] = grit_energy_rel_error(ref);
    }
    MPI_Bcast(r, N, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    for (int k = 0; k < GRIT_E_COUNT; k++) m[k] = grit_energy(s, k);
    m[GRIT_E_COUNT] = grit_energy_total(s);
    m[GRIT_E_COUNT + 1] = grit_energy_initial(s);
    m[GRIT_E_COUNT + 2] = grit_energy_rel_error(s);
    double scale = 0, worst = 0;
    for (int k = 0; k < GRIT_E_COUNT; k++) scale += fabs(r[k]);
    int bad = 0;
    for (int k = 0; k < N; k++) {
        const double d = fabs(m[k] - r[k]);
        const double of = k < GRIT_E_COUNT ? fabs(r[k]) : k == GRIT_E_COUNT + 2 ? 1.0 : scale;
        if (!(d <= 1e-12 * of)) {
            bad++;
            fprintf(stderr, "%s, rank %d of %d: %s = %.17g, one process %.17g\n", what, rank, size,
                    k < GRIT_E_COUNT ? grit_energy_name(k) : k == GRIT_E_COUNT ? "total" : k == GRIT_E_COUNT + 1 ? "initial" : "balance error",
                    m[k], r[k]);
        }
        if (k < GRIT_E_COUNT && d > 0) worst = fmax(worst, d / fabs(r[k]));
    }
    double worst_all = 0;
    MPI_Reduce(&worst, &worst_all, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    if (rank == 0)
        fprintf(stderr, "%s, %d ranks, energy at step %ld: the largest relative difference of a term %.3g, of the "
                        "balance error %.3g (balance error %.3g)\n",
                what, size, s->step, worst_all, fabs(m[GRIT_E_COUNT + 2] - r[GRIT_E_COUNT + 2]), r[GRIT_E_COUNT + 2]);
    return (int)all_sum(bad);
}

/* Gather on rank 0 and compare with the one-process run `ref` there (NULL
 * elsewhere); every rank returns the same verdict. */
static int gathered_same(grit_scene *s, const grit_scene *ref, const char *what)
{
    int rc = grit_mpi_gather(s);
    CHECK(rc == GRIT_OK);
    if (rc) fprintf(stderr, "%s\n", grit_last_error(s));
    int bad = 0;
    if (rank == 0) {
        bad = byid_diff(ref, s, what);
        if (bad) fprintf(stderr, "%s: %d ranks differ from one process in %d items\n", what, size, bad);
    }
    MPI_Bcast(&bad, 1, MPI_INT, 0, MPI_COMM_WORLD);
    return bad + energy_same(s, ref, what);
}

static void same_as_one_process(int law, const char *what)
{
    grit_scene *s = make(law);
    int rc = grit_mpi_distribute(s);
    if (rc) fprintf(stderr, "distribute: %s\n", grit_last_error(s));
    CHECK(rc == GRIT_OK);
    grit_scene *ref = rank == 0 ? make(law) : NULL;
    const long n1 = 800, n2 = 400;
    CHECK(grit_step(s, n1) == GRIT_OK);
    if (ref) CHECK(grit_step(ref, n1) == GRIT_OK);
    grit_mpi_stats st;
    CHECK(grit_mpi_get_stats(s, &st) == GRIT_OK);
    const long migrated = all_sum(st.migrated), cmig = all_sum(st.contacts_migrated);
    CHECK(energy_same(s, ref, what) == 0); /* every rank's, spread */
    CHECK(gathered_same(s, ref, what) == 0);
    /* on after the gather: the next step spreads it again */
    CHECK(grit_step(s, n2) == GRIT_OK);
    if (ref) CHECK(grit_step(ref, n2) == GRIT_OK);
    CHECK(energy_same(s, ref, what) == 0);
    CHECK(gathered_same(s, ref, what) == 0);
    if (rank == 0) {
        int real = 0;
        for (int k = 0; k < ref->c.n; k++) real += (ref->c.pair[k].flags & CF_REAL) != 0;
        fprintf(stderr, "%s, %d ranks: %d particles, %d real contacts; %ld particles and %ld contacts changed rank by step %ld\n",
                what, size, ref->b.n, real, migrated, cmig, n1);
        CHECK(real > 200);
    }
    if (size > 1) CHECK(migrated > 100 && cmig > 20); /* the test moved history across ranks */
    grit_scene_destroy(s);
    grit_scene_destroy(ref);
}

static void idealelpl(void) { same_as_one_process(GRIT_LAW_IDEALELPL, "idealelpl"); }
static void kuhn(void) { same_as_one_process(GRIT_LAW_KUHN, "kuhn"); }

/* Saved on rank 0 after a gather, loaded by every rank and spread again:
 * the run goes on as the one that never stopped. */
static void restart(void)
{
    const char *path = "test_mpi_run.grit";
    grit_scene *s = make(GRIT_LAW_IDEALELPL);
    CHECK(grit_mpi_distribute(s) == GRIT_OK);
    CHECK(grit_step(s, 500) == GRIT_OK);
    CHECK(grit_save(s, path) != GRIT_OK || size == 1); /* a part is not saved */
    CHECK(grit_mpi_gather(s) == GRIT_OK);
    int rc = rank == 0 ? grit_save(s, path) : GRIT_OK;
    MPI_Bcast(&rc, 1, MPI_INT, 0, MPI_COMM_WORLD);
    CHECK(rc == GRIT_OK);
    grit_scene_destroy(s);
    grit_scene *b = grit_scene_load(path);
    CHECK(b != NULL);
    if (!b) return;
    CHECK(grit_mpi_distribute(b) == GRIT_OK);
    CHECK(grit_step(b, 300) == GRIT_OK);
    grit_scene *ref = NULL;
    if (rank == 0) {
        ref = make(GRIT_LAW_IDEALELPL);
        CHECK(grit_step(ref, 800) == GRIT_OK);
    }
    CHECK(energy_same(b, ref, "restart") == 0);
    CHECK(gathered_same(b, ref, "restart") == 0);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) unlink(path);
    grit_scene_destroy(b);
    grit_scene_destroy(ref);
}

/* The automatic Verlet distance (verlet_dist=nan): at every rebuild the
 * ranks choose the skin one process chooses, from the whole scene's
 * figures, and rebuild at the same steps. */
static void verlet_auto(void)
{
    grit_scene *s = make(GRIT_LAW_IDEALELPL);
    s->def.verlet_dist = NAN;
    const int rc = grit_mpi_distribute(s);
    if (rc) fprintf(stderr, "distribute: %s\n", grit_last_error(s));
    CHECK(rc == GRIT_OK);
    grit_scene *ref = NULL;
    if (rank == 0) {
        ref = make(GRIT_LAW_IDEALELPL);
        ref->def.verlet_dist = NAN;
    }
    int skins = 0;
    double last = 0;
    for (int part = 0; part < 8; part++) {
        CHECK(grit_step(s, 100) == GRIT_OK);
        if (ref) CHECK(grit_step(ref, 100) == GRIT_OK);
        double r[2] = {ref ? ref->verlet_dist : 0, ref ? (double)ref->stats.rebuilds : 0};
        MPI_Bcast(r, 2, MPI_DOUBLE, 0, MPI_COMM_WORLD);
        if (s->verlet_dist != r[0] || (double)s->stats.rebuilds != r[1])
            fprintf(stderr, "verlet_auto, rank %d of %d, step %ld: skin %.17g, %ld rebuilds; one process %.17g, %g\n",
                    rank, size, s->step, s->verlet_dist, s->stats.rebuilds, r[0], r[1]);
        CHECK(s->verlet_dist == r[0]);
        CHECK((double)s->stats.rebuilds == r[1]);
        skins += r[0] != last;
        last = r[0];
    }
    if (ref)
        fprintf(stderr, "verlet_auto, %d ranks: %d skins chosen (the last %.3g m), %ld rebuilds in 800 steps, as one process\n",
                size, skins, ref->verlet_dist, ref->stats.rebuilds);
    CHECK(gathered_same(s, ref, "verlet_auto") == 0);
    grit_scene_destroy(s);
    grit_scene_destroy(ref);
}

/* What cannot be spread yet is refused on every rank, naming it. */
static void refused(void)
{
    grit_scene *s = make(GRIT_LAW_IDEALELPL);
    s->def.dyn_dt = true;
    CHECK(grit_mpi_distribute(s) == GRIT_ESTATE);
    CHECK(strstr(grit_last_error(s), "dyn_dt") != NULL);
    s->def.dyn_dt = false;
    CHECK(grit_mpi_distribute(s) == GRIT_OK); /* and nothing changed */
    grit_scene_destroy(s);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    CHECK(grit_mpi_rank() == rank && grit_mpi_size() == size);
    RUN(idealelpl);
    RUN(kuhn);
    RUN(restart);
    RUN(verlet_auto);
    RUN(refused);
    int failed = all_sum(test_failures) > 0;
    MPI_Finalize();
    return failed;
}
