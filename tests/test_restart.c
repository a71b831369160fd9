/* Save and restart: a run continued from a restart file is bitwise identical
 * to one that never stopped; a bad file is a clear error, never a crash. */
#include <stdint.h>
#include <unistd.h>

#include "core/scene_impl.h"
#include "grit/cell.h"
#include "grit/grit.h"
#include "grit/restart.h"
#include "fixture.h"
#include "test.h"

static unsigned long long rng = 88172645463325252ull;
static double rnd(void) { return fx_rand(&rng); }

/* a deposit in a box of 0.27 m with frictional contacts, rebuilds and
 * re-sorts */
static grit_scene *pile_n(int law, int n)
{
    const fx_pile_def p = {law, n, 10, 0.026, 0.27, 0.2, false, false};
    return fx_pile(&p);
}
static grit_scene *pile(int law) { return pile_n(law, 400); }

static int count_real(const grit_scene *s)
{
    int n = 0;
    for (int k = 0; k < s->c.n; k++) n += (s->c.pair[k].flags & CF_REAL) != 0;
    return n;
}

static void check_same_state(const grit_scene *a, const grit_scene *b) { CHECK(fx_state_diff(a, b, "restart") == 0); }

static long file_size(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) return -1;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fclose(f);
    return n;
}

static unsigned char *slurp(const char *path, long *n)
{
    *n = file_size(path);
    unsigned char *buf = malloc((size_t)(*n > 0 ? *n : 1));
    FILE *f = fopen(path, "rb");
    if (!f || fread(buf, 1, (size_t)*n, f) != (size_t)*n) *n = -1;
    if (f) fclose(f);
    return buf;
}

static void spit(const char *path, const unsigned char *buf, long n)
{
    FILE *f = fopen(path, "wb");
    fwrite(buf, 1, (size_t)n, f);
    fclose(f);
}

static bool same_file(const char *p, const char *q)
{
    long n1, n2;
    unsigned char *a = slurp(p, &n1), *b = slurp(q, &n2);
    bool same = n1 == n2 && n1 > 0 && memcmp(a, b, (size_t)n1) == 0;
    free(a);
    free(b);
    return same;
}

/* Load `path` (saved from the straight run `a` at some step), run it to
 * a's step and compare: the state bit for bit, and the bytes of the two
 * final states' restart files. */
static void continue_and_compare(const char *path, grit_scene *a, const char *what)
{
    grit_scene *b = grit_scene_load(path);
    if (!b) {
        fprintf(stderr, "load: %s\n", grit_create_error());
        CHECK(b != NULL);
        return;
    }
    /* the loaded scene saves back to the same bytes: every field restored */
    CHECK(grit_save(b, "test_restart_b.grit") == GRIT_OK);
    CHECK(same_file(path, "test_restart_b.grit"));
    long at = grit_step_count(b);
    CHECK(grit_step(b, grit_step_count(a) - at) == GRIT_OK);
    check_same_state(a, b);
    CHECK(grit_save(a, "test_restart_a.grit") == GRIT_OK);
    CHECK(grit_save(b, "test_restart_b.grit") == GRIT_OK);
    CHECK(same_file("test_restart_a.grit", "test_restart_b.grit"));
    printf("  continued from step %ld (%s) to %ld: %d real contacts, identical\n", at, what, grit_step_count(a),
           count_real(a));
    remove("test_restart_a.grit");
    remove("test_restart_b.grit");
    grit_scene_destroy(b);
}

/* N steps, save, destroy, load, N steps against 2N straight. */
static void n_save_load_n(grit_scene *a, grit_scene *b, long N)
{
    CHECK(grit_step(a, 2 * N) == GRIT_OK);
    CHECK(grit_step(b, N) == GRIT_OK);
    CHECK(grit_save(b, "test_restart_n.grit") == GRIT_OK);
    grit_scene_destroy(b); /* nothing survives but the file */
    continue_and_compare("test_restart_n.grit", a, "N + save + load + N");
    remove("test_restart_n.grit");
}

/* The pile: 2N straight against N + save + load + N, and continuations
 * from saves made around broad-phase events: the step of a re-sort, the
 * step just before a rebuild, a step with no rebuild before or after. */
static void bitwise_restart(void)
{
    enum { N = 800, T = 2 * N, W0 = 1200, W = 12 };
    grit_scene *a = pile(GRIT_LAW_IDEALELPL);
    bool rebuilt[T + 2] = {false};
    long sort_at = -1;
    grit_stats prev, cur;
    grit_get_stats(a, &prev);
    char name[64];
    for (long k = 1; k <= T; k++) {
        CHECK(grit_step(a, 1) == GRIT_OK);
        grit_get_stats(a, &cur);
        rebuilt[k] = cur.rebuilds > prev.rebuilds;
        if (cur.sorts > prev.sorts && k >= 900 && sort_at < 0) {
            sort_at = k;
            CHECK(grit_save(a, "test_restart_sort.grit") == GRIT_OK);
        }
        if (k >= W0 && k < W0 + W) {
            snprintf(name, sizeof name, "test_restart_%ld.grit", k);
            CHECK(grit_save(a, name) == GRIT_OK);
        }
        prev = cur;
    }
    CHECK(count_real(a) > 150);
    CHECK(cur.rebuilds > 100 && cur.sorts > 10);
    long before_rebuild = -1, quiet = -1;
    for (long k = W0; k < W0 + W; k++) {
        if (rebuilt[k + 1] && before_rebuild < 0) before_rebuild = k;
        if (!rebuilt[k] && !rebuilt[k + 1] && quiet < 0) quiet = k;
    }
    CHECK(sort_at > 0 && before_rebuild > 0 && quiet > 0);
    if (sort_at > 0) continue_and_compare("test_restart_sort.grit", a, "saved right after a re-sort");
    snprintf(name, sizeof name, "test_restart_%ld.grit", before_rebuild);
    if (before_rebuild > 0) continue_and_compare(name, a, "the next step rebuilds the pair list");
    snprintf(name, sizeof name, "test_restart_%ld.grit", quiet);
    if (quiet > 0) continue_and_compare(name, a, "no rebuild around it");
    remove("test_restart_sort.grit");
    for (long k = W0; k < W0 + W; k++) {
        snprintf(name, sizeof name, "test_restart_%ld.grit", k);
        remove(name);
    }
    grit_scene_destroy(a);
    a = pile(GRIT_LAW_IDEALELPL);
    n_save_load_n(a, pile(GRIT_LAW_IDEALELPL), N);
    grit_scene_destroy(a);
}

/* The pile with the automatic Verlet distance: continued bitwise from a
 * save made just before a rebuild that changes the skin (the choice needs
 * the step of the last rebuild, section VRLT) and from one right after it. */
static grit_scene *pile_auto(void)
{
    grit_scene *s = pile(GRIT_LAW_IDEALELPL);
    grit_scene_def d = *grit_scene_get_def(s);
    d.verlet_dist = NAN;
    CHECK(grit_scene_set_def(s, &d) == GRIT_OK);
    return s;
}

static void bitwise_restart_auto(void)
{
    enum { T = 1600 };
    grit_scene *a = pile_auto();
    grit_stats prev, cur;
    CHECK(grit_step(a, 1) == GRIT_OK);
    grit_get_stats(a, &prev);
    long before = -1, after = -1;
    int changes = 0;
    for (long k = 2; k <= T; k++) {
        if (before < 0) CHECK(grit_save(a, "test_restart_va.grit") == GRIT_OK); /* the state of step k - 1 */
        CHECK(grit_step(a, 1) == GRIT_OK);
        grit_get_stats(a, &cur);
        if (cur.verlet_dist != prev.verlet_dist) {
            changes++;
            if (before < 0 && k > 200) {
                before = k - 1;
                CHECK(grit_save(a, "test_restart_vb.grit") == GRIT_OK);
                after = k;
            }
        }
        prev = cur;
    }
    printf("  automatic skin: %d changes in %d steps, %ld rebuilds, skin now %.3g m\n", changes, T, cur.rebuilds,
           cur.verlet_dist);
    CHECK(changes >= 1 && before > 0);
    if (before > 0) {
        continue_and_compare("test_restart_va.grit", a, "the next step rebuilds with another skin");
        continue_and_compare("test_restart_vb.grit", a, "right after the skin changed");
    }
    CHECK(after == before + 1);
    remove("test_restart_va.grit");
    remove("test_restart_vb.grit");
    grit_scene_destroy(a);
    a = pile_auto();
    n_save_load_n(a, pile_auto(), 800);
    grit_scene_destroy(a);
}

/* The pile with 60 of its spheres replaced by clumps of three overlapping
 * members in random orientations (docs/clumps.md): bodies integrated,
 * members placed and summed, the collider skipping a clump's own pairs. */
static grit_scene *clump_pile(void)
{
    grit_scene *s = pile_n(GRIT_LAW_IDEALELPL, 100);
    rng = 88172645463325252ull; /* two calls, the same clumps */
    const grit_vec3 c[3] = {v3(0, 0, 0), v3(0.009, 0, 0), v3(0.003, 0.007, 0.002)};
    const double r[3] = {0.006, 0.005, 0.004};
    for (int i = 0; i < 60; i++) {
        grit_clump_def d = grit_default_clump_def();
        d.n = 3;
        d.centers = c;
        d.radii = r;
        d.material = i % 2;
        d.pos = v3(0.02 + 0.026 * (i % 10), 0.02 + 0.026 * ((i / 10) % 10), 0.04 + 0.026 * (i / 10 % 2));
        d.ori = q_normalized((grit_quat){rnd() - 0.5, rnd() - 0.5, rnd() - 0.5, rnd() - 0.5});
        d.vel = v3(0.2 * (rnd() - 0.5), 0.2 * (rnd() - 0.5), -0.2 * rnd());
        d.angvel = v3(10 * rnd(), 0, 0);
        CHECK(grit_add_clump(s, &d) >= 0);
    }
    return s;
}

static void bitwise_restart_clumps(void)
{
    grit_scene *a = clump_pile();
    n_save_load_n(a, clump_pile(), 2500);
    int touching = 0; /* clump members in contact with anything */
    for (int k = 0; k < a->c.n; k++)
        if (a->c.pair[k].flags & CF_REAL)
            touching += ((a->b.flags[a->c.pair[k].a] | a->b.flags[a->c.pair[k].b]) & PF_MEMBER) != 0;
    printf("  %d real contacts with clump members\n", touching);
    CHECK(touching > 50);
    grit_scene_destroy(a);
}

/* LinEl6 (torques) with a law tester's kind of imposition (velocity,
 * force, angular velocity along local axes) active across the save. */
static void bitwise_restart_linel6_imposed(void)
{
    grit_scene *a = pile(GRIT_LAW_LINEL6), *b = pile(GRIT_LAW_LINEL6);
    grit_mat3 ax = {{v3(0, 0, 1), v3(1, 0, 0), v3(0, 1, 0)}};
    const double val[6] = {-0.05, 0.01, 0, 2.0, 0, 0};
    const uint8_t what[6] = {GRIT_IMPOSE_VEL, GRIT_IMPOSE_FORCE, 0, GRIT_IMPOSE_VEL, 0, 0};
    CHECK(grit_impose_local(a, 100, &ax, val, what) == GRIT_OK);
    CHECK(grit_impose_local(b, 100, &ax, val, what) == GRIT_OK);
    n_save_load_n(a, b, 400);
    grit_scene_destroy(a);
}

/* Saved before the first step: the time step is still automatic. */
static void bitwise_restart_step0(void)
{
    grit_scene *a = pile_n(GRIT_LAW_IDEALELPL, 30), *b = pile_n(GRIT_LAW_IDEALELPL, 30);
    CHECK(isnan(grit_dt(b)));
    CHECK(grit_save(b, "test_restart_0.grit") == GRIT_OK);
    grit_scene_destroy(b);
    CHECK(grit_step(a, 300) == GRIT_OK);
    continue_and_compare("test_restart_0.grit", a, "before the first step");
    remove("test_restart_0.grit");
    grit_scene_destroy(a);
}

/* Law state (`ext` doubles per contact: Kuhn's law keeps 8) goes through
 * the file unchanged, and the run continues bit for bit. */
static void ext_state_roundtrip(void)
{
    grit_scene *s = pile(GRIT_LAW_KUHN);
    CHECK(grit_step(s, 1200) == GRIT_OK);
    CHECK(s->c.ext_n == 8);
    CHECK(grit_save(s, "test_restart_ext.grit") == GRIT_OK);
    grit_scene *t = grit_scene_load("test_restart_ext.grit");
    CHECK(t != NULL);
    if (t) {
        CHECK(t->c.ext_n == s->c.ext_n && t->c.n == s->c.n);
        for (int k = 0; k < s->c.n; k++)
            if (s->c.pair[k].flags & CF_REAL)
                CHECK(memcmp(t->c.ext + 8 * k, s->c.ext + 8 * k, sizeof(double) * 8) == 0);
        check_same_state(s, t);
        grit_scene_destroy(t);
    }
    remove("test_restart_ext.grit");
    grit_scene_destroy(s);
}

/* ------------------------------------------------------------ periodic */
/* 216 spheres on a jittered lattice in a sheared cell, frictional, damped,
 * with a gradient schedule that compresses the gas until it jams, shears it
 * (simple shear, with its spin) and then shears it across z while squeezing
 * y: contacts across the boundary, changes of gradient, rebuilds driven by
 * the cell's deformation, re-sorts. */
enum { P_T1 = 1500, P_T2 = 2100, P_T = 2700 };

static grit_scene *periodic_gas(int law) { return fx_periodic_gas(law, 6, 0.3); }

/* The gradient of the schedule, set at the steps where it changes (before
 * stepping from there). */
static void periodic_schedule(grit_scene *s, long k)
{
    static const double L1[3][3] = {{-1, 0, 0}, {0, -1, 0}, {0, 0, -1}};
    static const double L2[3][3] = {{0, 0.8, 0}, {0, 0, 0}, {0, 0, 0}};
    static const double L3[3][3] = {{0, 0, 0.5}, {0, -0.2, 0}, {0, 0, 0}};
    if (k == 0) CHECK(grit_cell_set_grad_v(s, L1) == GRIT_OK);
    if (k == P_T1) CHECK(grit_cell_set_grad_v(s, L2) == GRIT_OK);
    if (k == P_T2) CHECK(grit_cell_set_grad_v(s, L3) == GRIT_OK);
}

/* Step to `to`; the schedule of the first step is skipped for a scene
 * loaded from a file saved after it (the pending gradient must come from
 * the file). */
static void periodic_run(grit_scene *s, long to, bool loaded)
{
    for (long k = grit_step_count(s), k0 = k; k < to; k++) {
        if (!(loaded && k == k0)) periodic_schedule(s, k);
        CHECK(grit_step(s, 1) == GRIT_OK);
    }
}

static int count_across(const grit_scene *s)
{
    int n = 0;
    for (int k = 0; k < s->c.n; k++)
        n += (s->c.pair[k].flags & CF_REAL) && (s->c.pair[k].cell[0] | s->c.pair[k].cell[1] | s->c.pair[k].cell[2]);
    return n;
}

/* Load a file saved from the straight run `a`, continue it with the
 * schedule to a's step, compare state, cell and stress bit for bit and the
 * bytes of both final restart files. */
static void periodic_continue(const char *path, grit_scene *a, const char *what)
{
    grit_scene *b = grit_scene_load(path);
    if (!b) {
        fprintf(stderr, "load: %s\n", grit_create_error());
        CHECK(b != NULL);
        return;
    }
    CHECK(grit_is_periodic(b));
    CHECK(grit_save(b, "test_restart_b.grit") == GRIT_OK);
    CHECK(same_file(path, "test_restart_b.grit"));
    long at = grit_step_count(b);
    periodic_run(b, grit_step_count(a), true);
    check_same_state(a, b);
    double Ha[3][3], Hb[3][3], Fa[3][3], Fb[3][3], Sa[3][3], Sb[3][3];
    CHECK(grit_cell_get(a, Ha) == GRIT_OK && grit_cell_get(b, Hb) == GRIT_OK);
    CHECK(grit_cell_get_trsf(a, Fa) == GRIT_OK && grit_cell_get_trsf(b, Fb) == GRIT_OK);
    CHECK(grit_stress(a, Sa) == GRIT_OK && grit_stress(b, Sb) == GRIT_OK);
    CHECK(memcmp(Ha, Hb, sizeof Ha) == 0 && memcmp(Fa, Fb, sizeof Fa) == 0 && memcmp(Sa, Sb, sizeof Sa) == 0);
    CHECK(grit_save(a, "test_restart_a.grit") == GRIT_OK);
    CHECK(grit_save(b, "test_restart_b.grit") == GRIT_OK);
    CHECK(same_file("test_restart_a.grit", "test_restart_b.grit"));
    printf("  continued from step %ld (%s) to %ld: %d real contacts (%d across the boundary), sigma_xy %.6g Pa, "
           "identical\n",
           at, what, grit_step_count(a), count_real(a), count_across(a), Sa[0][1]);
    remove("test_restart_a.grit");
    remove("test_restart_b.grit");
    grit_scene_destroy(b);
}

/* Saves at the changes of gradient (the new one pending), right after a
 * re-sort, just before a rebuild and in a quiet stretch; every continuation
 * equals the straight run bit for bit. */
static void bitwise_restart_periodic(int law, const char *name)
{
    grit_scene *a = periodic_gas(law);
    bool rebuilt[P_T + 2] = {false};
    long sort_at = -1;
    grit_stats prev, cur;
    grit_get_stats(a, &prev);
    char fn[80];
    int across_max = 0;
    for (long k = 0; k < P_T; k++) {
        periodic_schedule(a, k);
        if (k == P_T1 || k == P_T2 || (k >= P_T1 + 300 && k < P_T1 + 312)) {
            snprintf(fn, sizeof fn, "test_restart_p%ld.grit", k);
            CHECK(grit_save(a, fn) == GRIT_OK);
        }
        CHECK(grit_step(a, 1) == GRIT_OK);
        grit_get_stats(a, &cur);
        rebuilt[k + 1] = cur.rebuilds > prev.rebuilds;
        if (cur.sorts > prev.sorts && k + 1 > P_T1 && sort_at < 0) {
            sort_at = k + 1;
            CHECK(grit_save(a, "test_restart_psort.grit") == GRIT_OK);
        }
        if (count_across(a) > across_max) across_max = count_across(a);
        prev = cur;
    }
    double sig[3][3];
    CHECK(grit_stress(a, sig) == GRIT_OK);
    printf("  %s: %d real contacts, up to %d across the boundary, %ld rebuilds, %ld sorts, pressure %.4g Pa\n", name,
           count_real(a), across_max, cur.rebuilds, cur.sorts, -(sig[0][0] + sig[1][1] + sig[2][2]) / 3);
    CHECK(count_real(a) > 300 && across_max > 20);
    CHECK(cur.rebuilds > 20 && cur.sorts > 5);
    CHECK(-(sig[0][0] + sig[1][1] + sig[2][2]) > 0);
    long before_rebuild = -1, quiet = -1;
    for (long k = P_T1 + 300; k < P_T1 + 312; k++) {
        if (rebuilt[k + 1] && before_rebuild < 0) before_rebuild = k;
        if (!rebuilt[k] && !rebuilt[k + 1] && quiet < 0) quiet = k;
    }
    CHECK(sort_at > 0 && before_rebuild > 0 && quiet > 0);
    periodic_continue("test_restart_p1500.grit", a, "the shear gradient pending");
    periodic_continue("test_restart_p2100.grit", a, "the third gradient pending");
    if (sort_at > 0) periodic_continue("test_restart_psort.grit", a, "right after a re-sort");
    snprintf(fn, sizeof fn, "test_restart_p%ld.grit", before_rebuild);
    if (before_rebuild > 0) periodic_continue(fn, a, "the next step rebuilds the pair list");
    snprintf(fn, sizeof fn, "test_restart_p%ld.grit", quiet);
    if (quiet > 0) periodic_continue(fn, a, "no rebuild around it");
    remove("test_restart_psort.grit");
    remove("test_restart_p1500.grit");
    remove("test_restart_p2100.grit");
    for (long k = P_T1 + 300; k < P_T1 + 312; k++) {
        snprintf(fn, sizeof fn, "test_restart_p%ld.grit", k);
        remove(fn);
    }
    grit_scene_destroy(a);
}

static void bitwise_restart_periodic_idealelpl(void) { bitwise_restart_periodic(GRIT_LAW_IDEALELPL, "IdealElPl"); }
static void bitwise_restart_periodic_kuhn(void) { bitwise_restart_periodic(GRIT_LAW_KUHN, "Kuhn"); }

/* Saved before the first step, right after grit_cell_set. */
static void bitwise_restart_periodic_step0(void)
{
    grit_scene *a = periodic_gas(GRIT_LAW_IDEALELPL);
    periodic_schedule(a, 0);
    CHECK(grit_save(a, "test_restart_p0.grit") == GRIT_OK);
    periodic_run(a, 400, false);
    periodic_continue("test_restart_p0.grit", a, "before the first step");
    remove("test_restart_p0.grit");
    grit_scene_destroy(a);
}

static void crc_check_value(void)
{
    CHECK(grit_crc32(0, "123456789", 9) == 0xCBF43926u); /* the standard check value */
    CHECK(grit_crc32(grit_crc32(0, "1234", 4), "56789", 5) == 0xCBF43926u);
    CHECK(grit_crc32(0, "", 0) == 0);
}

/* ------------------------------------------------------------ bad files */
static const char *GOOD = "test_restart_good.grit", *BAD = "test_restart_bad.grit";

static void fix_crc(unsigned char *buf, long n)
{
    uint32_t crc = grit_crc32(0, buf, (size_t)n - 4);
    memcpy(buf + n - 4, &crc, 4);
}

/* offset of section `tag`'s payload (and its length) */
static long section_at(const unsigned char *buf, long n, const char *tag, uint64_t *len)
{
    long pos = 40;
    while (pos + 16 <= n - 8) {
        memcpy(len, buf + pos + 8, 8);
        if (!memcmp(buf + pos, tag, 4)) return pos + 16;
        pos += 16 + (long)*len;
    }
    return -1;
}

/* offset of array record `name` inside a section payload after `skip` bytes */
static long array_at(const unsigned char *buf, long sec, uint64_t len, long skip, const char *name)
{
    long pos = sec + skip;
    while (pos + 16 <= sec + (long)len) {
        uint32_t elem, count;
        memcpy(&elem, buf + pos + 8, 4);
        memcpy(&count, buf + pos + 12, 4);
        if (!strncmp((const char *)buf + pos, name, 8)) return pos;
        pos += 16 + (long)elem * count;
    }
    return -1;
}

/* Load BAD; it must fail with a message containing `want`. */
static void expect_fail(const char *want)
{
    grit_scene *s = grit_scene_load(BAD);
    CHECK(s == NULL);
    grit_scene_destroy(s);
    const char *e = grit_create_error();
    if (!strstr(e, want) || !strstr(e, BAD)) {
        fprintf(stderr, "  expected an error with '%s', got: %s\n", want, e);
        CHECK(strstr(e, want) && strstr(e, BAD));
    }
}

static void small_scene_file(void)
{
    grit_scene *s = pile_n(GRIT_LAW_IDEALELPL, 30);
    CHECK(grit_step(s, 2500) == GRIT_OK);
    CHECK(count_real(s) > 20);
    grit_mat3 ax = {{v3(1, 0, 0), v3(0, 1, 0), v3(0, 0, 1)}};
    const double val[6] = {0, 0, 0.1, 0, 0, 0};
    const uint8_t what[6] = {0, 0, GRIT_IMPOSE_VEL, 0, 0, 0};
    CHECK(grit_impose_local(s, 10, &ax, val, what) == GRIT_OK);
    CHECK(grit_save(s, GOOD) == GRIT_OK);
    grit_scene_destroy(s);
}

static void truncated_files(void)
{
    long n;
    unsigned char *buf = slurp(GOOD, &n);
    CHECK(n > 5000);
    /* every length: all header-sized prefixes, then a stride through the rest */
    for (long len = 0; len < n; len += len < 200 ? 1 : 61) {
        spit(BAD, buf, len);
        expect_fail(len < 48 ? "too short" : "truncated");
    }
    spit(BAD, buf, n - 1);
    expect_fail("truncated");
    /* trailing bytes */
    unsigned char *big = malloc((size_t)n + 3);
    memcpy(big, buf, (size_t)n);
    memset(big + n, 0, 3);
    spit(BAD, big, n + 3);
    expect_fail("after the end");
    free(big);
    free(buf);
}

static void header_errors(void)
{
    long n;
    unsigned char *buf = slurp(GOOD, &n), *b = malloc((size_t)n);
    uint32_t u;
#define FRESH() memcpy(b, buf, (size_t)n)
    FRESH();
    b[0] = 'X';
    spit(BAD, b, n);
    expect_fail("not a grit restart file");
    FRESH();
    u = GRIT_RESTART_VERSION + 1;
    memcpy(b + 8, &u, 4); /* a future version: refused before the checksum is even looked at */
    spit(BAD, b, n);
    char newer[64];
    snprintf(newer, sizeof newer, "newer grit (format version %d", GRIT_RESTART_VERSION + 1);
    expect_fail(newer);
    FRESH();
    u = 0;
    memcpy(b + 8, &u, 4);
    fix_crc(b, n);
    spit(BAD, b, n);
    expect_fail("version 0");
    FRESH();
    u = 0x04030201u;
    memcpy(b + 12, &u, 4);
    spit(BAD, b, n);
    expect_fail("other byte order");
    FRESH();
    b[16 + 2] = 4; /* sizeof(long) */
    fix_crc(b, n);
    spit(BAD, b, n);
    expect_fail("sizeof(long) = 4");
    FRESH();
    b[16] = 4; /* sizeof(double) */
    spit(BAD, b, n);
    expect_fail("sizeof(double) = 4");
    FRESH();
    double probe = 1.5;
    memcpy(b + 32, &probe, 8);
    fix_crc(b, n);
    spit(BAD, b, n);
    expect_fail("doubles stored");
    FRESH();
    uint64_t total = (uint64_t)n + 16; /* the total length field says more than there is */
    memcpy(b + 24, &total, 8);
    spit(BAD, b, n);
    expect_fail("truncated");
    FRESH();
    total = (uint64_t)n - 16;
    memcpy(b + 24, &total, 8);
    spit(BAD, b, n);
    expect_fail("after the end");
    CHECK(grit_scene_load("/nonexistent-dir/none.grit") == NULL);
    CHECK(strstr(grit_create_error(), "cannot open") != NULL);
#undef FRESH
    free(b);
    free(buf);
}

/* One flipped bit anywhere: a clear error (the checksum, or the header
 * checks for header bytes), never a crash, never a scene. */
static void flipped_bits(void)
{
    long n;
    unsigned char *buf = slurp(GOOD, &n);
    int caught_by_crc = 0, tried = 0;
    for (long pos = 0; pos < n; pos += pos < 64 ? 1 : 31) {
        buf[pos] ^= 0x10;
        spit(BAD, buf, n);
        grit_scene *s = grit_scene_load(BAD);
        CHECK(s == NULL);
        grit_scene_destroy(s);
        CHECK(strstr(grit_create_error(), BAD) != NULL);
        caught_by_crc += strstr(grit_create_error(), "checksum") != NULL;
        tried++;
        buf[pos] ^= 0x10;
    }
    CHECK(caught_by_crc > tried - 48);
    spit(BAD, buf, n);
    grit_scene *s = grit_scene_load(BAD); /* the unflipped copy loads */
    CHECK(s != NULL);
    grit_scene_destroy(s);
    free(buf);
}

/* Structure that passes the checksum (rewritten) but is inconsistent:
 * lengths, counts, element sizes, indices. */
static void inconsistent_sizes(void)
{
    long n;
    unsigned char *buf = slurp(GOOD, &n), *b = malloc((size_t)n);
    uint64_t len, body_len, cont_len;
    long body = section_at(buf, n, "BODY", &body_len), cont = section_at(buf, n, "CONT", &cont_len);
    CHECK(body > 0 && cont > 0);
    long pr = array_at(buf, body, body_len, 4, "pr"), mat = array_at(buf, body, body_len, 4, "mat");
    long geom = array_at(buf, cont, cont_len, 12, "geom"), pair = array_at(buf, cont, cont_len, 12, "pair");
    CHECK(pr > 0 && mat > 0 && geom > 0 && pair > 0);
    uint32_t u;
    uint64_t v;
#define EDIT(off, val)                 \
    do {                               \
        memcpy(b, buf, (size_t)n);     \
        memcpy(b + (off), &val, sizeof val); \
        fix_crc(b, n);                 \
        spit(BAD, b, n);               \
    } while (0)
    uint64_t last_len;
    long last = section_at(buf, n, "OUTL", &last_len); /* the last section (version 6 on) */
    v = last_len + 8; /* the last section longer than the file has room for */
    EDIT(last - 8, v);
    expect_fail("remain");
    v = body_len + 8; /* a section running into the next one */
    EDIT(body - 8, v);
    expect_fail("unknown");
    v = body_len - 8; /* shorter: the next section header is read from its last bytes */
    EDIT(body - 8, v);
    expect_fail("unknown");
    uint32_t np;
    memcpy(&np, buf + body, 4);
    uint32_t pr_es_cnt[2] = {16, 2 * np}; /* 'pr' as 2n elements of 16 bytes: same bytes, another layout */
    EDIT(pr + 8, pr_es_cnt);
    expect_fail("array 'pr' has 16-byte elements, this build uses 32 (another data layout)");
    u = 3; /* the count of 'pr': the records after it no longer line up */
    EDIT(pr + 12, u);
    expect_fail("section BODY");
    u = 0xffffffffu; /* a huge count: must not allocate or read past the end */
    EDIT(pr + 12, u);
    expect_fail("runs past the end");
    u = np + 1; /* particle count in the BODY header */
    EDIT(body, u);
    expect_fail("array 'pr' has");
    u = 0x7fffffff;
    EDIT(body, u);
    expect_fail("too large");
    uint16_t m = 99; /* the first particle's material */
    EDIT(mat + 16, m);
    expect_fail("material 99 does not exist");
    int32_t big = 1 << 20; /* the first contact's particle a */
    EDIT(pair + 16, big);
    expect_fail("out of range");
    u = 0x7777;
    EDIT(geom + 8, u);
    expect_fail("section CONT");
    memcpy(b, buf, (size_t)n); /* an unknown section tag */
    memcpy(b + body - 16, "BOGY", 4);
    fix_crc(b, n);
    spit(BAD, b, n);
    expect_fail("section 'BOGY' is unknown");
    memcpy(b, buf, (size_t)n); /* a duplicated section */
    long scen = section_at(buf, n, "SCEN", &len);
    memcpy(b + section_at(buf, n, "MATS", &len) - 16, "SCEN", 4);
    fix_crc(b, n);
    spit(BAD, b, n);
    expect_fail("appears twice");
    CHECK(scen == 56);
#undef EDIT
    free(b);
    free(buf);
}

/* Random bytes rewritten with a valid checksum (a file written wrongly, or
 * crafted): loading either fails with a message or gives a scene that
 * steps; under ASan/UBSan, never an invalid access. */
static void crafted_bytes(void)
{
    long n;
    unsigned char *buf = slurp(GOOD, &n), *b = malloc((size_t)n);
    int loaded = 0, refused = 0;
    rng = 12345;
    for (int it = 0; it < 400; it++) {
        memcpy(b, buf, (size_t)n);
        for (int k = 0; k < 1 + it % 3; k++) b[40 + (long)(rnd() * (double)(n - 48))] = (unsigned char)(rnd() * 256);
        fix_crc(b, n);
        spit(BAD, b, n);
        grit_scene *s = grit_scene_load(BAD);
        if (s) {
            loaded++;
            grit_step(s, 5); /* may fail (a NaN from a rewritten double), must not crash */
            grit_scene_destroy(s);
        } else {
            refused++;
            CHECK(strstr(grit_create_error(), BAD) != NULL);
        }
    }
    printf("  400 crafted files: %d refused, %d loaded (bytes inside doubles)\n", refused, loaded);
    CHECK(refused > 0 && loaded > 0);
    free(b);
    free(buf);
}

/* ------------------------------------------------------------ the CELL section */
/* buf without the `del` bytes at `at` (inside section `tag`, or the whole
 * section when del is its full size with the head), with the header's total,
 * the section's length (unless removed) and the CRC fixed; returns the new
 * length. */
static long cut(const unsigned char *buf, long n, const char *tag, long at, long del, unsigned char *out)
{
    uint64_t len = 0;
    long sec = section_at(buf, n, tag, &len);
    memcpy(out, buf, (size_t)at);
    memcpy(out + at, buf + at + del, (size_t)(n - at - del));
    long m = n - del;
    uint64_t total = (uint64_t)m;
    memcpy(out + 24, &total, 8);
    if (at >= sec) {
        len -= (uint64_t)del;
        memcpy(out + sec - 8, &len, 8);
    }
    fix_crc(out, m);
    return m;
}

static void set_version(unsigned char *b, long n, uint32_t v)
{
    memcpy(b + 8, &v, 4);
    fix_crc(b, n);
}

/* Continue `steps` steps and compare with the state an older build wrote
 * after the same steps from the same file (tests/data/<name>-300.txt:
 * positions, velocities, angular velocities as hex floats, then the
 * energy entries): the arithmetic is unchanged, so the states agree to the
 * bit in builds of the same kind; across kinds (the Release build wrote the
 * reference, the sanitizer build has other optimisations) to 1e-12. */
static void continue_like_old_build(grit_scene *s, const char *ref)
{
    CHECK(grit_step(s, 300) == GRIT_OK);
    char path[512];
    snprintf(path, sizeof path, "%s/%s", GRIT_TEST_DATA, ref);
    FILE *f = fopen(path, "r");
    CHECK(f != NULL);
    if (!f) return;
    char line[1024];
    double worst = 0;
    int rows = 0;
    while (fgets(line, sizeof line, f)) {
        int id;
        double v[9];
        if (sscanf(line, "%d %la %la %la %la %la %la %la %la %la", &id, v, v + 1, v + 2, v + 3, v + 4, v + 5, v + 6,
                   v + 7, v + 8) != 10)
            continue;
        grit_vec3 x[3];
        grit_get_pos(s, id, &x[0]);
        grit_get_vel(s, id, &x[1]);
        grit_get_angvel(s, id, &x[2]);
        for (int q = 0; q < 9; q++) {
            const double a = v3_get(x[q / 3], q % 3), b = v[q];
            worst = fmax(worst, fabs(a - b) / fmax(fabs(b), q < 3 ? 1.0 : 1e-3));
        }
        rows++;
    }
    fclose(f);
    CHECK(rows == grit_particle_count(s));
    printf("  %s: %d particles after 300 steps, largest relative difference to the old build %.2g\n", ref, rows,
           worst);
    CHECK(worst <= 1e-12);
}

/* A version-4 file from a current one: without the sections versions 5
 * to 7 added (CTRL, CLMP, OUTL, VRLT); `out` holds n bytes, the new length
 * is returned. */
static long cut_v5(const unsigned char *buf, long n, unsigned char *out)
{
    static const char *const added[] = {"CTRL", "CLMP", "OUTL", "VRLT"};
    unsigned char *tmp = malloc((size_t)n);
    memcpy(tmp, buf, (size_t)n);
    long m = n;
    for (int k = 0; k < 4; k++) {
        uint64_t len = 0;
        const long at = section_at(tmp, m, added[k], &len);
        if (at <= 0 && !strcmp(added[k], "VRLT")) continue; /* already cut (a version-7 file) */
        CHECK(at > 0);
        m = cut(tmp, m, added[k], at - 16, 16 + (long)len, out);
        memcpy(tmp, out, (size_t)m);
    }
    free(tmp);
    return m;
}

/* Files of format version 2 (an older build: one law per scene, no LAWS
 * section, contacts in blocks by geometry only) load and continue as that
 * build did; the scene's law becomes the law of its materials. A version-1
 * file is a version-2 file without the CELL section: it loads as an
 * aperiodic scene. */
static void older_versions_load(void)
{
    char path[512];
    for (int law = 0; law < 2; law++) {
        snprintf(path, sizeof path, "%s/restart-v2-%s.grit", GRIT_TEST_DATA, law ? "kuhn" : "pile");
        grit_scene *s = grit_scene_load(path);
        CHECK(s != NULL);
        if (!s) {
            fprintf(stderr, "  %s\n", grit_create_error());
            continue;
        }
        CHECK(grit_material_count(s) == 2);
        grit_frictmat_def m;
        CHECK(grit_get_material(s, 1, &m, sizeof m) == GRIT_OK);
        CHECK(m.law == (law ? GRIT_LAW_KUHN : GRIT_LAW_IDEALELPL));
        CHECK(grit_pair_law(s, 0, 1) == m.law);
        continue_like_old_build(s, law ? "restart-v2-kuhn-300.txt" : "restart-v2-pile-300.txt");
        grit_scene_destroy(s);
    }
    snprintf(path, sizeof path, "%s/restart-v2-pile.grit", GRIT_TEST_DATA);
    long n;
    unsigned char *buf = slurp(path, &n), *b = malloc((size_t)n);
    uint64_t len;
    long cell = section_at(buf, n, "CELL", &len);
    CHECK(cell > 0 && len == 1 && buf[cell] == 0);
    long m = cut(buf, n, "CELL", cell - 16, 16 + (long)len, b);
    set_version(b, m, 1);
    spit(BAD, b, m);
    grit_scene *s = grit_scene_load(BAD);
    CHECK(s != NULL && !grit_is_periodic(s));
    if (s) {
        continue_like_old_build(s, "restart-v2-pile-300.txt");
        grit_scene_destroy(s);
    }
    set_version(b, m, 2); /* the same bytes as version 2: CELL must be there */
    spit(BAD, b, m);
    expect_fail("section CELL is missing");
    free(b);
    free(buf);
    /* a version-7 file (no VRLT) loads: the automatic skin's next choice
     * takes the displacement per step from the velocities; VRLT in it is refused */
    buf = slurp(GOOD, &n);
    b = malloc((size_t)n);
    long vrlt = section_at(buf, n, "VRLT", &len);
    CHECK(vrlt > 0 && len == 8);
    m = cut(buf, n, "VRLT", vrlt - 16, 16 + (long)len, b);
    set_version(b, m, 7);
    spit(BAD, b, m);
    s = grit_scene_load(BAD);
    CHECK(s != NULL && s->verlet_last_rebuild == -1);
    if (s) {
        CHECK(grit_step(s, 5) == GRIT_OK);
        grit_scene_destroy(s);
    }
    set_version(b, m, 8);
    spit(BAD, b, m);
    expect_fail("section VRLT is missing");
    set_version(buf, n, 7);
    spit(BAD, buf, n);
    expect_fail("section VRLT in a file of format version 7");
    /* a version-5 file (no OUTL) loads; its ids were its particle count */
    memcpy(buf, b, (size_t)m);
    n = m;
    long outl = section_at(buf, n, "OUTL", &len);
    CHECK(outl > 0);
    m = cut(buf, n, "OUTL", outl - 16, 16 + (long)len, b);
    set_version(b, m, 5);
    spit(BAD, b, m);
    s = grit_scene_load(BAD);
    CHECK(s != NULL);
    if (s) {
        CHECK(grit_outlet_count(s) == 0);
        CHECK(grit_particle_id_end(s) == grit_particle_count(s) && grit_particle_count(s) > 0);
        grit_sphere_def sd = grit_default_sphere_def();
        sd.pos = v3(10, 10, 10);
        sd.radius = 1e-3;
        CHECK(grit_add_sphere(s, &sd) == grit_particle_count(s) - 1); /* the next id */
        grit_scene_destroy(s);
    }
    set_version(b, m, 6);
    spit(BAD, b, m);
    expect_fail("section OUTL is missing");
    free(b);
    set_version(buf, n, 5);
    spit(BAD, buf, n);
    expect_fail("section OUTL in a file of format version 5");
    free(buf);
    /* a version-4 file: a current one without CTRL and CLMP; they are refused in it, and
     * clump particles without it */
    grit_scene *s4 = pile_n(GRIT_LAW_IDEALELPL, 30);
    CHECK(grit_step(s4, 50) == GRIT_OK);
    CHECK(grit_save(s4, GOOD) == GRIT_OK);
    buf = slurp(GOOD, &n);
    b = malloc((size_t)n);
    m = cut_v5(buf, n, b);
    set_version(b, m, 4);
    spit(BAD, b, m);
    grit_scene *t4 = grit_scene_load(BAD);
    CHECK(t4 != NULL);
    if (t4) {
        CHECK(grit_step(s4, 50) == GRIT_OK && grit_step(t4, 50) == GRIT_OK);
        check_same_state(s4, t4);
        grit_scene_destroy(t4);
    }
    set_version(buf, n, 4);
    spit(BAD, buf, n);
    expect_fail("in a file of format version 4 (it came with version 5)");
    free(b);
    free(buf);
    grit_scene_destroy(s4);
    s4 = clump_pile();
    CHECK(grit_save(s4, GOOD) == GRIT_OK);
    grit_scene_destroy(s4);
    buf = slurp(GOOD, &n);
    b = malloc((size_t)n);
    long clmp = section_at(buf, n, "CLMP", &len);
    m = cut_v5(buf, n, b);
    set_version(b, m, 4);
    spit(BAD, b, m);
    expect_fail("a clump body or member in a file without clumps");
    /* a clump naming a particle that is not its member */
    memcpy(b, buf, (size_t)n);
    long rec = array_at(buf, clmp, len, 0, "clumps");
    CHECK(rec > 0);
    int32_t body;
    memcpy(&body, b + rec + 16, 4);
    body += 1;
    memcpy(b + rec + 16, &body, 4);
    fix_crc(b, n);
    spit(BAD, b, n);
    expect_fail("section CLMP: clump 0: particle id");
    free(b);
    free(buf);
    /* a current file cannot claim an older version: it has the newer sections */
    buf = slurp(GOOD, &n);
    for (uint32_t v = 1; v <= 2; v++) {
        set_version(buf, n, v);
        spit(BAD, buf, n);
        expect_fail(v == 1 ? "section LAWS in a file of format version 1" : "section LAWS in a file of format version 2");
    }
    free(buf);
}

/* Version 9 added the inlets' clump templates to INLT, version 10 their
 * shape templates, version 12 the angular velocity at the end: a version-8
 * file (a current one without the template counts after each inlet's
 * max_attempts, the drawn template and the angular velocity at its end), a
 * version-9 file (without the shape template count and the angular
 * velocity) and a version-10 file (without the angular velocity) load,
 * their inlet inserts spheres, and they continue as the current file does;
 * template counts out of range in a current file are refused. */
static void inlet_v8_loads(void)
{
    grit_scene_def d = grit_default_scene_def();
    d.dt = 2e-6;
    d.gravity = v3(0, 0, -9.81);
    grit_scene *a = fx_scene(&d);
    const int m = fx_mat(a, 1e7, 0.2, 0.5);
    fx_wall(a, m, 2, 0.0, 1);
    grit_inlet_def in = grit_default_inlet_def();
    in.lo = v3(0, 0, 0.004);
    in.hi = v3(0.01, 0.01, 0.012);
    in.mass_rate = 0.2;
    in.r_min = 0.5e-3;
    in.r_max = 0.8e-3;
    in.material = m;
    in.seed = 3;
    CHECK(grit_add_inlet(a, &in) == 0);
    CHECK(grit_step(a, 300) == GRIT_OK);
    CHECK(grit_save(a, GOOD) == GRIT_OK);
    grit_scene_destroy(a);
    long n;
    unsigned char *buf = slurp(GOOD, &n), *b1 = malloc((size_t)n), *b2 = malloc((size_t)n);
    uint64_t len;
    const long inlt = section_at(buf, n, "INLT", &len);
    /* u32 count; i32 region, 19 f64, i32 n_sizes, 8 + 8 f64, i32 material, i64 seed, i32 attempts */
    const long at_count = inlt + 4 + 4 + 19 * 8 + 4 + 16 * 8 + 4 + 8 + 4;
    int32_t nc = -1, ns = -1, drawn = -1;
    memcpy(&nc, buf + at_count, 4);
    memcpy(&ns, buf + at_count + 4, 4);
    const long at_w = inlt + (long)len - 24; /* the angular velocity, 3 f64 */
    memcpy(&drawn, buf + at_w - 4, 4);
    CHECK(inlt > 0 && nc == 0 && ns == 0 && drawn == 0);
    for (int v = 8; v <= 10; v++) {
        long m2;
        if (v == 8) { /* both counts, the drawn template and the angular velocity out */
            const long m1 = cut(buf, n, "INLT", at_w - 4, 28, b1);
            m2 = cut(b1, m1, "INLT", at_count, 8, b2);
        } else if (v == 9) { /* the shape template count and the angular velocity out */
            const long m1 = cut(buf, n, "INLT", at_w, 24, b1);
            m2 = cut(b1, m1, "INLT", at_count + 4, 4, b2);
        } else { /* the angular velocity out */
            m2 = cut(buf, n, "INLT", at_w, 24, b2);
        }
        set_version(b2, m2, (uint32_t)v);
        spit(BAD, b2, m2);
        grit_scene *s7 = grit_scene_load(BAD), *s8 = grit_scene_load(GOOD); /* s7: the older file */
        CHECK(s7 != NULL && s8 != NULL);
        if (s7 && s8) {
            grit_inlet_def back;
            CHECK(grit_inlet_get(s7, 0, &back, NULL) == GRIT_OK && back.n_clumps == 0 && back.n_shapes == 0 &&
                  back.r_max == in.r_max);
            CHECK(grit_step(s7, 500) == GRIT_OK && grit_step(s8, 500) == GRIT_OK);
            check_same_state(s7, s8);
            grit_inlet_info i7, i8;
            grit_inlet_get(s7, 0, NULL, &i7);
            grit_inlet_get(s8, 0, NULL, &i8);
            printf("  a version-%d inlet file: %ld spheres after 500 more steps, as from the version-%d file: %s\n", v,
                   i7.count, GRIT_RESTART_VERSION, i7.count == i8.count && i7.mass == i8.mass ? "yes" : "no");
            CHECK(i7.count == i8.count && i7.mass == i8.mass && i7.count > 20);
        }
        grit_scene_destroy(s7);
        grit_scene_destroy(s8);
        /* the same bytes as the next version that changed INLT: the records no longer line up */
        set_version(b2, m2, (uint32_t)(v == 10 ? 12 : v + 1));
        spit(BAD, b2, m2);
        expect_fail("section INLT");
    }
    memcpy(b1, buf, (size_t)n);
    nc = 9;
    memcpy(b1 + at_count, &nc, 4);
    fix_crc(b1, n);
    spit(BAD, b1, n);
    expect_fail("inlet 0: 9 clump templates (at most 8)");
    memcpy(b1, buf, (size_t)n);
    ns = 9;
    memcpy(b1 + at_count + 4, &ns, 4);
    fix_crc(b1, n);
    spit(BAD, b1, n);
    expect_fail("inlet 0: 9 shape templates (at most 8)");
    free(buf);
    free(b1);
    free(b2);
}

static const char *GOOD_P = "test_restart_periodic.grit";

/* Damaged CELL sections of a periodic file: each a one-line error naming
 * the problem, never a crash. */
static void cell_section_errors(void)
{
    grit_scene *s = periodic_gas(GRIT_LAW_IDEALELPL);
    periodic_run(s, P_T1 + 100, false);
    CHECK(count_across(s) > 20);
    CHECK(grit_save(s, GOOD_P) == GRIT_OK);
    grit_scene_destroy(s);
    long n;
    unsigned char *buf = slurp(GOOD_P, &n), *b = malloc((size_t)n);
    uint64_t len;
    long cell = section_at(buf, n, "CELL", &len), m;
    CHECK(cell > 0 && buf[cell] == 1);
    long H = array_at(buf, cell, len, 1, "H"), per = array_at(buf, cell, len, 1, "period");
    CHECK(H > 0 && per > 0);
#define FRESH() memcpy(b, buf, (size_t)n)
    /* without its cell (the flag 0: an aperiodic scene), a periodic scene's
     * contacts across the boundary are an error */
    m = cut(buf, n, "CELL", cell + 1, (long)len - 1, b);
    b[cell] = 0;
    fix_crc(b, m);
    spit(BAD, b, m);
    expect_fail("periodic image");
    /* values */
    FRESH();
    double v = NAN;
    memcpy(b + H + 16, &v, 8);
    fix_crc(b, n);
    spit(BAD, b, n);
    expect_fail("section CELL: H[0][0] = nan is not finite");
    FRESH();
    memcpy(&v, b + H + 16, 8);
    v = -v; /* a left-handed cell */
    memcpy(b + H + 16, &v, 8);
    fix_crc(b, n);
    spit(BAD, b, n);
    expect_fail("degenerate or left-handed");
    FRESH();
    b[cell] = 2;
    fix_crc(b, n);
    spit(BAD, b, n);
    expect_fail("section CELL: flag 2 is neither 0");
    FRESH();
    v = 0.5;
    memcpy(b + per + 16, &v, 8);
    fix_crc(b, n);
    spit(BAD, b, n);
    expect_fail("not whole numbers");
    FRESH();
    uint32_t u = 1u << 30; /* the count of 'period' */
    memcpy(b + per + 12, &u, 4);
    fix_crc(b, n);
    spit(BAD, b, n);
    expect_fail("section CELL: array 'period'");
    /* a cut section: its last bytes, then everything after the flag */
    m = cut(buf, n, "CELL", cell + (long)len - 24, 24, b);
    spit(BAD, b, m);
    expect_fail("section CELL");
    m = cut(buf, n, "CELL", cell + 1, (long)len - 1, b);
    spit(BAD, b, m);
    expect_fail("section CELL: array 'H' is missing");
    m = cut(buf, n, "CELL", cell, (long)len, b);
    spit(BAD, b, m);
    expect_fail("section CELL is shorter than its contents");
    /* the file truncated anywhere in the section */
    for (long k = cell; k < n; k += 97) {
        spit(BAD, buf, k);
        expect_fail("truncated");
    }
    /* random bytes of the section rewritten under a valid checksum */
    int loaded = 0, refused = 0;
    rng = 4242;
    for (int it = 0; it < 300; it++) {
        FRESH();
        for (int k = 0; k < 1 + it % 3; k++) b[cell + (long)(rnd() * (double)len)] = (unsigned char)(rnd() * 256);
        fix_crc(b, n);
        spit(BAD, b, n);
        grit_scene *t = grit_scene_load(BAD);
        if (t) {
            loaded++;
            grit_step(t, 5); /* may fail, must not crash */
            grit_scene_destroy(t);
        } else {
            refused++;
            CHECK(strstr(grit_create_error(), "section CELL") != NULL);
        }
    }
    printf("  300 crafted CELL sections: %d refused, %d loaded (bytes inside doubles)\n", refused, loaded);
    CHECK(refused > 0 && loaded > 0);
    FRESH();
    spit(BAD, b, n);
    s = grit_scene_load(BAD); /* the intact copy loads */
    CHECK(s != NULL && grit_is_periodic(s));
    grit_scene_destroy(s);
#undef FRESH
    remove(GOOD_P);
    free(b);
    free(buf);
}

/* The cell's stress/strain controller continues from a restart file: saved
 * between two updates (every = 3) and right before one, under mixed control
 * (x and z at a stress, y at a rate, xy sheared); the continuation equals
 * the straight run bit for bit, the controller's counters included. */
static void bitwise_restart_periodic_ctrl(void)
{
    grit_scene *a = periodic_gas(GRIT_LAW_IDEALELPL);
    grit_cell_ctrl_def d = grit_default_cell_ctrl_def();
    d.mode[0] = d.mode[2] = GRIT_CTRL_STRESS;
    d.goal[0] = -200, d.goal[2] = -400, d.goal[1] = -0.5;
    d.grad_v[0][1] = 0.3;
    d.every = 3;
    d.settle = 4;
    d.max_rate = 2.0;
    CHECK(grit_cell_ctrl_set(a, &d) == GRIT_OK);
    CHECK(grit_step(a, 900) == GRIT_OK);
    CHECK(grit_save(a, "test_restart_c1.grit") == GRIT_OK); /* the next step updates */
    CHECK(grit_step(a, 2) == GRIT_OK);
    CHECK(grit_save(a, "test_restart_c2.grit") == GRIT_OK); /* one step before the next update */
    CHECK(grit_step(a, 400) == GRIT_OK);
    grit_cell_ctrl_state sa, sb;
    CHECK(grit_cell_ctrl_get_state(a, &sa) == GRIT_OK);
    CHECK(sa.updates == 434 && count_real(a) > 50);
    for (int f = 1; f <= 2; f++) {
        char fn[40];
        snprintf(fn, sizeof fn, "test_restart_c%d.grit", f);
        periodic_continue(fn, a, f == 1 ? "the controller updates next" : "between two updates");
        grit_scene *b = grit_scene_load(fn);
        CHECK(b != NULL);
        if (!b) continue;
        grit_cell_ctrl_def db;
        CHECK(grit_cell_ctrl_get(b, &db) == GRIT_OK && memcmp(&db, &d, sizeof d) == 0);
        CHECK(grit_step(b, grit_step_count(a) - grit_step_count(b)) == GRIT_OK);
        CHECK(grit_cell_ctrl_get_state(b, &sb) == GRIT_OK);
        CHECK(memcmp(&sa, &sb, sizeof sa) == 0);
        grit_scene_destroy(b);
    }
    printf("  controller: sigma_xx %.6g Pa (goal -200), sigma_zz %.6g Pa (goal -400), %ld updates, %d in a row "
           "within tolerance, integral terms %.6g, %.6g Pa\n",
           sa.stress[0][0], sa.stress[2][2], sa.updates, sa.held, sa.integral[0], sa.integral[2]);
    CHECK(sa.integral[0] != 0 && sa.integral[2] != 0); /* the continued state includes them */
    /* a version-4 file has no CTRL (nor CLMP) section and loads without a controller;
     * a file of version 4 with the section is refused */
    long n;
    unsigned char *buf = slurp("test_restart_c1.grit", &n), *b = malloc((size_t)n);
    uint64_t len;
    { /* the versions below are made from a version-7 file: without VRLT (version 8 on) */
        const long vrlt = section_at(buf, n, "VRLT", &len);
        CHECK(vrlt > 0);
        n = cut(buf, n, "VRLT", vrlt - 16, 16 + (long)len, b);
        set_version(b, n, 7);
        memcpy(buf, b, (size_t)n);
    }
    const long ctrl = section_at(buf, n, "CTRL", &len);
    CHECK(ctrl > 0 && buf[ctrl] == 1);
    long m = cut_v5(buf, n, b);
    set_version(b, m, 4);
    spit(BAD, b, m);
    grit_scene *v4 = grit_scene_load(BAD);
    CHECK(v4 != NULL && grit_is_periodic(v4));
    if (v4) {
        grit_cell_ctrl_def dv;
        CHECK(grit_cell_ctrl_get(v4, &dv) == GRIT_ESTATE);
        CHECK(grit_step(v4, 10) == GRIT_OK);
        grit_scene_destroy(v4);
    }
    set_version(b, m, 5);
    spit(BAD, b, m);
    expect_fail("section CTRL is missing");
    memcpy(b, buf, (size_t)n);
    set_version(b, n, 4);
    spit(BAD, b, n);
    expect_fail("section CTRL in a file of format version 4");
    /* a version-6 file: CTRL without the integral gain and terms (32 bytes
     * at its end) loads as the proportional servo it ran; a version-7 file
     * without them is refused */
    m = cut(buf, n, "CTRL", ctrl + (long)len - 32, 32, b);
    set_version(b, m, 6);
    spit(BAD, b, m);
    grit_scene *v6 = grit_scene_load(BAD);
    CHECK(v6 != NULL);
    if (v6) {
        grit_cell_ctrl_def dv;
        grit_cell_ctrl_state sv;
        CHECK(grit_cell_ctrl_get(v6, &dv) == GRIT_OK && dv.integral == 0 && dv.gain == d.gain && dv.every == 3);
        CHECK(grit_cell_ctrl_get_state(v6, &sv) == GRIT_OK && sv.integral[0] == 0 && sv.integral[2] == 0);
        CHECK(grit_step(v6, 10) == GRIT_OK);
        CHECK(grit_cell_ctrl_get_state(v6, &sv) == GRIT_OK && sv.integral[0] == 0 && sv.integral[2] == 0);
        grit_scene_destroy(v6);
    }
    set_version(b, m, 7);
    spit(BAD, b, m);
    expect_fail("section CTRL");
    /* damaged sections: the flag, a definition the API refuses, the counters,
     * the integral gain and terms */
    memcpy(b, buf, (size_t)n);
    double ig = 1.5;
    memcpy(b + ctrl + (long)len - 32, &ig, 8);
    fix_crc(b, n);
    spit(BAD, b, n);
    expect_fail("section CTRL: integral = 1.5 is out of range");
    memcpy(b, buf, (size_t)n);
    ig = NAN;
    memcpy(b + ctrl + (long)len - 8, &ig, 8);
    fix_crc(b, n);
    spit(BAD, b, n);
    expect_fail("section CTRL: integral term 2 = nan must be finite");
    memcpy(b, buf, (size_t)n);
    b[ctrl] = 2;
    fix_crc(b, n);
    spit(BAD, b, n);
    expect_fail("section CTRL: flag 2");
    memcpy(b, buf, (size_t)n);
    double g = 1.5; /* gain: after the flag, 3 modes, 3 goals, 9 gradient entries */
    memcpy(b + ctrl + 1 + 12 + 24 + 72, &g, 8);
    fix_crc(b, n);
    spit(BAD, b, n);
    expect_fail("section CTRL: gain = 1.5 is out of range");
    memcpy(b, buf, (size_t)n);
    int32_t cd = 3; /* countdown = every */
    memcpy(b + ctrl + 1 + 12 + 24 + 72 + 24 + 8, &cd, 4);
    fix_crc(b, n);
    spit(BAD, b, n);
    expect_fail("section CTRL: countdown 3 (every 3)");
    free(b);
    free(buf);
    remove("test_restart_c1.grit");
    remove("test_restart_c2.grit");
    grit_scene_destroy(a);
}

/* grit_save never leaves a partial file at its destination. */
static void save_errors(void)
{
    grit_scene *s = pile(GRIT_LAW_IDEALELPL);
    CHECK(grit_save(s, "/nonexistent-dir/x.grit") == GRIT_EIO);
    CHECK(strstr(grit_last_error(s), "/nonexistent-dir/x.grit") != NULL);
    CHECK(grit_save(s, GOOD) == GRIT_OK);
    CHECK(file_size(GOOD) > 0);
    char tmp[256];
    snprintf(tmp, sizeof tmp, "%s.tmp%ld", GOOD, (long)getpid());
    CHECK(file_size(tmp) < 0); /* renamed away */
    grit_scene_destroy(s);
}

int main(void)
{
    RUN(crc_check_value);
    RUN(bitwise_restart);
    RUN(bitwise_restart_auto);
    RUN(bitwise_restart_linel6_imposed);
    RUN(bitwise_restart_step0);
    RUN(bitwise_restart_clumps);
    RUN(bitwise_restart_periodic_idealelpl);
    RUN(bitwise_restart_periodic_kuhn);
    RUN(bitwise_restart_periodic_step0);
    RUN(ext_state_roundtrip);
    RUN(small_scene_file);
    RUN(truncated_files);
    RUN(header_errors);
    RUN(flipped_bits);
    RUN(inconsistent_sizes);
    RUN(crafted_bytes);
    RUN(older_versions_load);
    RUN(inlet_v8_loads);
    RUN(cell_section_errors);
    RUN(bitwise_restart_periodic_ctrl);
    RUN(save_errors);
    remove(GOOD);
    remove(BAD);
    TEST_MAIN_END();
}
