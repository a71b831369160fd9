/* Dense random packings (include/grit/pack.h): the compaction reaches its
 * target and is reproducible; clipping keeps exactly the spheres that lie
 * entirely inside each shape (checked against independent geometry);
 * files round-trip; every bad input is refused with a message and leaves
 * the output untouched. Small cells (60-200 spheres) keep it fast under
 * the sanitizers. */
#include <unistd.h>

#include "grit/grit.h"
#include "grit/io.h"
#include "grit/pack.h"
#include "test.h"

static char dir[256];
static char err[1024];

static const char *path_of(const char *name)
{
    static char p[4][512];
    static int k = 0;
    k = (k + 1) % 4;
    snprintf(p[k], sizeof p[k], "%s/%s", dir, name);
    return p[k];
}

static bool same_file(const char *a, const char *b)
{
    FILE *f = fopen(a, "rb"), *g = fopen(b, "rb");
    bool same = f && g;
    while (same) {
        int x = fgetc(f), y = fgetc(g);
        if (x != y) same = false;
        if (x == EOF || y == EOF) break;
    }
    if (f) fclose(f);
    if (g) fclose(g);
    return same;
}

/* The packing all clipping tests tile: 200 spheres at the defaults (the
 * seed of a quick one: this is the test's largest cost under ASan). */
static grit_packing cell200;

static grit_pack_def small_def(int n)
{
    grit_pack_def d = grit_default_pack_def();
    d.n = n;
    d.radius = 0.002;
    return d;
}

/* ---- the compaction ------------------------------------------------------- */
static void reaches_pressure(void)
{
    grit_pack_def d = small_def(200);
    d.seed = 3;
    CHECK(grit_pack_dense(&d, NULL, &cell200, err, sizeof err) == GRIT_OK);
    if (cell200.n != 200) {
        fprintf(stderr, "  %s\n", err);
        exit(1);
    }
    const grit_packing *p = &cell200;
    CHECK(p->periodic);
    CHECK_REL(p->pressure, d.pressure, d.tolerance);
    CHECK(p->unbalanced <= d.unbalanced);
    CHECK(p->steps > 0 && p->steps < d.max_steps);
    /* a cube, every centre in it, radii all the mean (monodisperse) */
    const double a = p->cell[0][0];
    CHECK(p->cell[1][1] == a && p->cell[2][2] == a && p->cell[0][1] == 0 && p->cell[2][0] == 0);
    CHECK_REL(p->volume, a * a * a, 1e-12);
    bool inside = true, mono = true;
    for (int i = 0; i < p->n; i++) {
        const grit_vec3 c = p->center[i];
        inside = inside && c.x >= 0 && c.x < a && c.y >= 0 && c.y < a && c.z >= 0 && c.z < a;
        mono = mono && p->radius[i] == d.radius;
    }
    CHECK(inside && mono);
    CHECK_REL(p->solid_fraction, grit_packing_sphere_volume(p) / p->volume, 1e-12);
    /* frictionless monodisperse compaction: random close packing, about
     * 0.64 for large cells, a little less for small ones and fast ones */
    CHECK(p->solid_fraction > 0.62 && p->solid_fraction < 0.645);
    /* pressure / young = 1e-3: overlaps of about a percent of the radius */
    const double ov = grit_packing_max_overlap(p, NULL, NULL);
    CHECK(ov > 0 && ov < 0.03);
    CHECK(p->info && strstr(p->info, "pack n=200 radius=0.002 spread=0 target=pressure pressure=100000") == p->info);
    printf("  200 spheres: solid fraction %.4f, pressure %.4g Pa, unbalanced %.3g, %ld steps, max overlap %.3g r\n",
           p->solid_fraction, p->pressure, p->unbalanced, p->steps, ov);
}

static void relaxes(void)
{
    grit_pack_def d = small_def(100);
    d.relax_pressure = 1e4;
    grit_packing p;
    CHECK(grit_pack_dense(&d, NULL, &p, err, sizeof err) == GRIT_OK);
    CHECK_REL(p.pressure, 1e4, d.tolerance);
    CHECK(p.unbalanced <= d.unbalanced);
    const double ov = grit_packing_max_overlap(&p, NULL, NULL);
    CHECK(ov < 0.003); /* ten times less pressure, ten times smaller overlaps */
    grit_packing_free(&p);
}

static void reaches_solid_fraction(void)
{
    grit_pack_def d = small_def(100);
    d.target = GRIT_PACK_SOLID_FRACTION;
    const double targets[2] = {0.58, 0.62}; /* below jamming: the packing unloads */
    for (int k = 0; k < 2; k++) {
        d.solid_fraction = targets[k];
        grit_packing p;
        CHECK(grit_pack_dense(&d, NULL, &p, err, sizeof err) == GRIT_OK);
        CHECK(fabs(p.solid_fraction - targets[k]) <= d.tolerance * targets[k]);
        CHECK(p.unbalanced <= d.unbalanced || p.pressure <= 1e-3 * d.pressure);
        CHECK(grit_packing_max_overlap(&p, NULL, NULL) < 0.01);
        grit_packing_free(&p);
    }
    /* above what `pressure` allows: refused with where it stopped */
    d.n = 60;
    d.unbalanced = 0.1;
    d.solid_fraction = 0.7;
    grit_packing keep = {.n = -7};
    CHECK(grit_pack_dense(&d, NULL, &keep, err, sizeof err) == GRIT_ESTATE);
    CHECK(strstr(err, "target solid_fraction = 0.7 is not reached") && strstr(err, "raise pressure"));
    CHECK(keep.n == -7);
}

static void reproducible(void)
{
    grit_pack_def d = small_def(60);
    d.unbalanced = 0.1; /* the point is the bytes, not the quality */
    grit_packing a, b, c;
    CHECK(grit_pack_dense(&d, NULL, &a, err, sizeof err) == GRIT_OK);
    CHECK(grit_pack_dense(&d, NULL, &b, err, sizeof err) == GRIT_OK);
    d.seed = 2;
    CHECK(grit_pack_dense(&d, NULL, &c, err, sizeof err) == GRIT_OK);
    CHECK(grit_packing_save(&a, path_of("a.csv"), err, sizeof err) == GRIT_OK);
    CHECK(grit_packing_save(&b, path_of("b.csv"), err, sizeof err) == GRIT_OK);
    CHECK(grit_packing_save(&c, path_of("c.csv"), err, sizeof err) == GRIT_OK);
    CHECK(same_file(path_of("a.csv"), path_of("b.csv")));
    CHECK(!same_file(path_of("a.csv"), path_of("c.csv")));
    CHECK(a.n == b.n && memcmp(a.center, b.center, sizeof *a.center * (size_t)a.n) == 0);
    CHECK(a.center[0].x != c.center[0].x);
    grit_packing_free(&a), grit_packing_free(&b), grit_packing_free(&c);
}

static void size_distributions(void)
{
    /* uniform spread */
    grit_pack_def d = small_def(60);
    d.spread = 0.3;
    d.unbalanced = 0.1;
    grit_packing p;
    CHECK(grit_pack_dense(&d, NULL, &p, err, sizeof err) == GRIT_OK);
    double lo = INFINITY, hi = 0, mean = 0;
    for (int i = 0; i < p.n; i++) lo = fmin(lo, p.radius[i]), hi = fmax(hi, p.radius[i]), mean += p.radius[i] / p.n;
    CHECK(lo >= 0.7 * d.radius && hi <= 1.3 * d.radius && hi - lo > 0.4 * d.radius);
    CHECK(fabs(mean - d.radius) < 0.1 * d.radius);
    CHECK(fabs(p.pressure - d.pressure) <= d.tolerance * d.pressure);
    grit_packing_free(&p);
    /* two sizes, half the volume each: 8 small ones for each large one */
    const double r[2] = {0.002, 0.004}, w[2] = {1, 1};
    const grit_psd psd = {2, r, w};
    grit_pack_opts o = grit_default_pack_opts();
    o.psd = &psd;
    d = small_def(136);
    d.unbalanced = 0.1;
    CHECK(grit_pack_dense(&d, &o, &p, err, sizeof err) == GRIT_OK);
    int small = 0, large = 0;
    for (int i = 0; i < p.n; i++) small += p.radius[i] == r[0], large += p.radius[i] == r[1];
    CHECK(small == 121 && large == 15); /* 120.9 and 15.1 rounded */
    CHECK(p.info && strstr(p.info, " psd=0.002:1,0.004:1 psd_counts=121,15"));
    CHECK(fabs(p.pressure - d.pressure) <= d.tolerance * d.pressure);
    /* bidisperse packings are denser than monodisperse ones */
    CHECK(p.solid_fraction > 0.62 && p.solid_fraction < 0.7);
    grit_packing_free(&p);
}

static int stop_at(const grit_pack_state *st, void *data)
{
    int *calls = data;
    ++*calls;
    CHECK(st->scene != NULL && st->solid_fraction > 0);
    return st->step >= 200;
}

static int count_calls(const grit_pack_state *st, void *data)
{
    (void)st;
    ++*(int *)data;
    return 0;
}

static void monitor_and_cap(void)
{
    grit_pack_def d = small_def(60);
    grit_pack_opts o = grit_default_pack_opts();
    int calls = 0;
    o.monitor = stop_at;
    o.monitor_data = &calls;
    o.monitor_every = 100;
    grit_packing keep = {.n = -7};
    CHECK(grit_pack_dense(&d, &o, &keep, err, sizeof err) == GRIT_ESTATE);
    CHECK(strstr(err, "stopped by the monitor at step 200 while compressing") != NULL);
    CHECK(calls == 3 && keep.n == -7);
    /* the cap: an error that says where it stopped */
    d.max_steps = 300;
    CHECK(grit_pack_dense(&d, NULL, &keep, err, sizeof err) == GRIT_ESTATE);
    CHECK(strstr(err, "max_steps = 300 reached while compressing: pressure") && strstr(err, "raise max_steps"));
    CHECK(keep.n == -7);
    /* the scene of a failed compaction is handed over in its last state */
    grit_pack_opts ko = grit_default_pack_opts();
    grit_scene *failed = NULL;
    ko.keep_scene = &failed;
    CHECK(grit_pack_dense(&d, &ko, &keep, err, sizeof err) == GRIT_ESTATE);
    CHECK(failed && grit_step_count(failed) == 300 && keep.n == -7);
    grit_scene_destroy(failed);
    /* a monitor that never stops is called every `every` steps and at the end;
     * the scene can be kept */
    d = small_def(60);
    d.unbalanced = 0.1;
    calls = 0;
    o.monitor = count_calls;
    o.monitor_every = 500;
    grit_scene *s = NULL;
    o.keep_scene = &s;
    grit_packing p;
    CHECK(grit_pack_dense(&d, &o, &p, err, sizeof err) == GRIT_OK);
    CHECK(calls == (int)((p.steps - 1) / 500 + 2));
    CHECK(s && grit_is_periodic(s) && grit_particle_count(s) == 60 && grit_step_count(s) == p.steps);
    grit_scene_destroy(s);
    grit_packing_free(&p);
}

static void expect_refused(grit_pack_def d, const grit_pack_opts *o, int code, const char *want)
{
    grit_packing keep = {.n = -7};
    err[0] = '\0';
    const int rc = grit_pack_dense(&d, o, &keep, err, sizeof err);
    CHECK(rc == code);
    CHECK(keep.n == -7);
    CHECK(strchr(err, '\n') == NULL);
    if (!strstr(err, want)) {
        fprintf(stderr, "  [%s] message '%s' lacks '%s'\n", test_current, err, want);
        test_failures++;
    }
    /* grit_pack_check refuses it alike, before any work */
    char again[sizeof err];
    CHECK(grit_pack_check(&d, o ? o->psd : NULL, again, sizeof again) == code && strcmp(again, err) == 0);
}

static void bad_parameters(void)
{
    const grit_pack_def ok = small_def(60);
    CHECK(grit_pack_check(&ok, NULL, err, sizeof err) == GRIT_OK);
    grit_pack_def d = small_def(60);
    d.radius = -1;
    expect_refused(d, NULL, GRIT_EINVAL, "parameter 'radius' = -1 is out of range");
    d = small_def(20);
    expect_refused(d, NULL, GRIT_EINVAL, "parameter 'n' = 20 is too small for these radii");
    d = small_def(60);
    d.spread = 1;
    expect_refused(d, NULL, GRIT_EINVAL, "parameter 'spread' = 1 is out of range");
    d = small_def(60);
    d.relax_pressure = 2e5;
    expect_refused(d, NULL, GRIT_EINVAL, "parameter 'relax_pressure' = 200000 is out of range: must be below pressure");
    d = small_def(60);
    d.target = GRIT_PACK_SOLID_FRACTION;
    d.solid_fraction = 0.2;
    expect_refused(d, NULL, GRIT_EINVAL, "parameter 'solid_fraction' = 0.2 is out of range: must be above phi0");
    d.relax_pressure = 1e3;
    expect_refused(d, NULL, GRIT_EINVAL, "parameter 'relax_pressure' = 1000: relaxing applies to target=pressure only");
    d = small_def(60);
    d.target = 5;
    expect_refused(d, NULL, GRIT_EINVAL, "parameter 'target' = 5 is out of range");
    d = small_def(60);
    d.max_steps = 0;
    expect_refused(d, NULL, GRIT_EINVAL, "parameter 'max_steps' = 0 is out of range");
    /* size distributions */
    d = small_def(60);
    const double r[2] = {0.002, 0}, w[2] = {1, 1}, wneg[2] = {1, -1}, wzero[2] = {0, 0}, rok[2] = {0.002, 0.003};
    grit_pack_opts o = grit_default_pack_opts();
    grit_psd psd = {2, r, w};
    o.psd = &psd;
    expect_refused(d, &o, GRIT_EINVAL, "psd: radius[1] = 0 must be positive");
    psd = (grit_psd){2, rok, wneg};
    expect_refused(d, &o, GRIT_EINVAL, "psd: mass_fraction[1] = -1 must be >= 0");
    psd = (grit_psd){2, rok, wzero};
    expect_refused(d, &o, GRIT_EINVAL, "psd: the mass fractions add up to 0");
    psd = (grit_psd){0, rok, w};
    expect_refused(d, &o, GRIT_EINVAL, "psd: 0 sizes");
}

/* ---- files ------------------------------------------------------------------ */
static void save_and_load(void)
{
    const char *p = path_of("cell.csv");
    CHECK(grit_packing_save(&cell200, p, err, sizeof err) == GRIT_OK);
    grit_packing q;
    CHECK(grit_packing_load(p, &q, err, sizeof err) == GRIT_OK);
    CHECK(q.n == 200 && q.periodic);
    CHECK(memcmp(q.cell, cell200.cell, sizeof q.cell) == 0);
    CHECK(memcmp(q.center, cell200.center, sizeof *q.center * 200) == 0);
    CHECK(memcmp(q.radius, cell200.radius, sizeof *q.radius * 200) == 0);
    CHECK(q.volume == cell200.volume && q.pressure == cell200.pressure && q.unbalanced == cell200.unbalanced &&
          q.steps == cell200.steps);
    CHECK_REL(q.solid_fraction, cell200.solid_fraction, 1e-15);
    CHECK(q.info && strcmp(q.info, cell200.info) == 0);
    /* saved again: the same bytes */
    CHECK(grit_packing_save(&q, path_of("again.csv"), err, sizeof err) == GRIT_OK);
    CHECK(same_file(p, path_of("again.csv")));
    grit_packing_free(&q);
    /* any scene reads it as spheres */
    grit_scene *s = grit_scene_create(NULL);
    grit_frictmat_def m = grit_default_frictmat_def();
    const int mat = grit_add_frictmat(s, &m);
    int n = 0;
    CHECK(grit_io_load_spheres_csv(s, p, mat, NULL, &n) == GRIT_OK && n == 200);
    grit_vec3 x;
    grit_get_pos(s, 17, &x);
    CHECK(x.x == cell200.center[17].x && x.z == cell200.center[17].z);
    /* a plain spheres CSV is a packing of unknown origin */
    CHECK(grit_io_save_spheres_csv(s, path_of("plain.csv")) == GRIT_OK);
    grit_scene_destroy(s);
    CHECK(grit_packing_load(path_of("plain.csv"), &q, err, sizeof err) == GRIT_OK);
    CHECK(q.n == 200 && !q.periodic && isnan(q.volume) && isnan(q.solid_fraction) && q.info == NULL);
    grit_packing_free(&q);
    /* errors: the reader's messages; nothing returned */
    grit_packing keep = {.n = -7};
    CHECK(grit_packing_load(path_of("missing.csv"), &keep, err, sizeof err) == GRIT_EIO);
    CHECK(strstr(err, "missing.csv") && keep.n == -7);
    FILE *f = fopen(path_of("badcell.csv"), "w");
    fputs("# cell: 1 0 0 0 1 0 0 0\nx,y,z,r\n0,0,0,0.1\n", f);
    fclose(f);
    CHECK(grit_packing_load(path_of("badcell.csv"), &keep, err, sizeof err) == GRIT_EFORMAT);
    CHECK(strstr(err, "badcell.csv:1: '# cell:' needs 9 finite numbers") && keep.n == -7);
    f = fopen(path_of("flat.csv"), "w");
    fputs("# cell: 1 0 0 0 1 0 0 0 0\nx,y,z,r\n0,0,0,0.1\n", f);
    fclose(f);
    CHECK(grit_packing_load(path_of("flat.csv"), &keep, err, sizeof err) == GRIT_EFORMAT);
    CHECK(strstr(err, "det H = 0 is not positive") && keep.n == -7);
    f = fopen(path_of("badrow.csv"), "w");
    fputs("# cell: 1 0 0 0 1 0 0 0 1\nx,y,z,r\n0,0,0,0.1\n1,2,x,0.1\n", f);
    fclose(f);
    CHECK(grit_packing_load(path_of("badrow.csv"), &keep, err, sizeof err) == GRIT_EFORMAT);
    CHECK(strstr(err, "badrow.csv:4: field 'z' (column 3) = 'x' is not a number") && keep.n == -7);
    /* the figures' line: a value that is not a number, a step count that is not one */
    f = fopen(path_of("badfig.csv"), "w");
    fputs("# made by: hand\n# figures: volume=1 solid_fraction=0.6x pressure=nan\nx,y,z,r\n0,0,0,0.1\n", f);
    fclose(f);
    CHECK(grit_packing_load(path_of("badfig.csv"), &keep, err, sizeof err) == GRIT_EFORMAT);
    CHECK(strstr(err, "badfig.csv:2: '# figures:' field solid_fraction = '0.6x' is not a number") && keep.n == -7);
    f = fopen(path_of("badsteps.csv"), "w");
    fputs("# figures: volume=1 steps=-3\nx,y,z,r\n0,0,0,0.1\n", f);
    fclose(f);
    CHECK(grit_packing_load(path_of("badsteps.csv"), &keep, err, sizeof err) == GRIT_EFORMAT);
    CHECK(strstr(err, "badsteps.csv:1: '# figures:' steps = -3 is not a count of steps") && keep.n == -7);
    f = fopen(path_of("nanfig.csv"), "w"); /* nan: a figure not measured, as grit_packing_save writes it */
    fputs("# figures: volume=nan solid_fraction=nan pressure=5e4 unbalanced=nan steps=12\nx,y,z,r\n0,0,0,0.1\n", f);
    fclose(f);
    CHECK(grit_packing_load(path_of("nanfig.csv"), &q, err, sizeof err) == GRIT_OK);
    CHECK(q.n == 1 && q.pressure == 5e4 && q.steps == 12 && isnan(q.volume));
    grit_packing_free(&q);
    grit_packing empty = {0};
    CHECK(grit_packing_save(&empty, path_of("e.csv"), err, sizeof err) == GRIT_EINVAL);
    CHECK(grit_packing_save(&cell200, path_of("no/such/dir.csv"), err, sizeof err) == GRIT_EIO);
}

static void overlaps(void)
{
    /* the grid against all pairs over the images, on the real packing and
     * on a squeezed copy */
    grit_packing p = cell200;
    double *r = malloc(sizeof *r * (size_t)p.n);
    for (int i = 0; i < p.n; i++) r[i] = p.radius[i] * (i % 7 == 0 ? 1.2 : 1.0);
    p.radius = r;
    int a, b;
    const double grid = grit_packing_max_overlap(&p, &a, &b);
    double worst = 0;
    for (int i = 0; i < p.n; i++)
        for (int j = i + 1; j < p.n; j++)
            for (int k = 0; k < 27; k++) {
                const double L = p.cell[0][0];
                const grit_vec3 d = v3(p.center[j].x - p.center[i].x + L * (k % 3 - 1),
                                       p.center[j].y - p.center[i].y + L * (k / 3 % 3 - 1),
                                       p.center[j].z - p.center[i].z + L * (k / 9 - 1));
                const double s = r[i] + r[j], ov = (s - v3_norm(d)) / fmin(r[i], r[j]);
                worst = fmax(worst, ov);
            }
    CHECK(grid == worst && grid > 0.1);
    CHECK(a >= 0 && b > a && (a % 7 == 0 || b % 7 == 0));
    free(r);
}

/* ---- regions ---------------------------------------------------------------- */
static grit_packing one_cell(int n, const grit_vec3 *c, const double *r)
{
    grit_packing p = {0};
    p.n = n;
    p.center = malloc(sizeof *p.center * (size_t)n);
    p.radius = malloc(sizeof *p.radius * (size_t)n);
    memcpy(p.center, c, sizeof *c * (size_t)n);
    memcpy(p.radius, r, sizeof *r * (size_t)n);
    p.periodic = true;
    p.cell[0][0] = p.cell[1][1] = p.cell[2][2] = 100; /* one image reaches the region */
    p.volume = 1e6;
    return p;
}

/* Spheres given in pairs (kept, dropped) clipped without recentring: the
 * result must be exactly the kept ones, in order. */
static void boundary_pairs(grit_region *g, const grit_vec3 *c, const double *r, int n, const char *what)
{
    grit_packing cell = one_cell(n, c, r), out;
    CHECK(grit_packing_clip(&cell, g, false, v3(0, 0, 0), &out, err, sizeof err) == GRIT_OK);
    bool ok = out.n == n / 2;
    for (int i = 0; ok && i < out.n; i++) ok = out.center[i].x == c[2 * i].x && out.radius[i] == r[2 * i];
    if (!ok) {
        fprintf(stderr, "  [%s] %s: kept %d of %d spheres:", test_current, what, out.n, n);
        for (int i = 0; i < n; i++) fprintf(stderr, " %d", grit_region_contains(g, c[i], r[i]));
        fputc('\n', stderr);
        test_failures++;
    }
    grit_packing_free(&out);
    grit_packing_free(&cell);
}

static grit_region *region(grit_clip_def d, const char *stl)
{
    grit_region *g = NULL;
    const int rc = grit_region_create(&d, stl, &g, err, sizeof err);
    if (rc) fprintf(stderr, "  [%s] %s\n", test_current, err);
    CHECK(rc == GRIT_OK && g != NULL);
    return g;
}

/* A region refused: the status, the message, and *out untouched. */
static bool refused(int rc, int code, grit_region *g, const char *want)
{
    const bool ok = rc == code && g == NULL && strstr(err, want) && !strchr(err, '\n');
    if (!ok) fprintf(stderr, "  [%s] status %d (expected %d), message '%s' (expected '%s')\n", test_current, rc, code, err,
                     want);
    return ok;
}

static const double EPS = 1e-9;

static void boundaries_cuboid_cylinder(void)
{
    grit_clip_def d = grit_default_clip_def();
    d.shape = GRIT_CLIP_CUBOID;
    d.lo = v3(0, 0, 0);
    d.hi = v3(1, 2, 3);
    grit_region *g = region(d, NULL);
    CHECK_REL(grit_region_volume(g), 6, 1e-15);
    const grit_vec3 cc[6] = {v3(0.5, 1, 2.9), v3(0.5, 1.1, 2.9), v3(0.2, 0.3, 0.4), v3(0.2, 0.3, 0.4),
                             v3(0.5, 1.0, 1.5), v3(0.5, 1.0, 1.5)};
    const double rc[6] = {0.1 - EPS, 0.1 + EPS, 0.2 - EPS, 0.2 + EPS, 0.5, 0.5 + EPS};
    boundary_pairs(g, cc, rc, 6, "cuboid");
    grit_region_destroy(g);
    /* a cylinder along a tilted axis */
    d = grit_default_clip_def();
    d.shape = GRIT_CLIP_CYLINDER;
    d.center = v3(1, 2, 3);
    d.axis = v3(1, 1, 0);
    d.length = 2;
    d.outer_radius = 1;
    g = region(d, NULL);
    CHECK_REL(grit_region_volume(g), 2 * M_PI, 1e-15);
    const grit_vec3 u = v3(M_SQRT1_2, M_SQRT1_2, 0), side = v3(0, 0, 1);
    const grit_vec3 yc[6] = {v3_madd(d.center, 0.5, side), v3_madd(d.center, 0.5, side),
                             v3_madd(v3_madd(d.center, 0.6, u), -0.2, side),
                             v3_madd(v3_madd(d.center, 0.6, u), -0.2, side), v3_madd(d.center, -0.9, u),
                             v3_madd(d.center, -0.9, u)};
    const double ry[6] = {0.5 - EPS, 0.5 + EPS, 0.4 - EPS, 0.4 + EPS, 0.1 - EPS, 0.1 + EPS};
    boundary_pairs(g, yc, ry, 6, "cylinder");
    grit_region_destroy(g);
}

/* Distance from (t, rho) to the profile rho(z) = sqrt(a^2 + k2 z^2), by
 * sampling and golden-section refinement (independent of the library). */
static double profile_distance(double a, double k2, double t, double rho)
{
    double best = INFINITY, zb = 0;
    for (int i = -20000; i <= 20000; i++) {
        const double z = t + 2.0 * i / 20000, h = sqrt(a * a + k2 * z * z);
        const double f = (z - t) * (z - t) + (h - rho) * (h - rho);
        if (f < best) best = f, zb = z;
    }
    double lo = zb - 2e-4, hi = zb + 2e-4;
    const double g = (sqrt(5) - 1) / 2;
    for (int it = 0; it < 200; it++) {
        const double z1 = hi - g * (hi - lo), z2 = lo + g * (hi - lo);
        const double h1 = sqrt(a * a + k2 * z1 * z1), h2 = sqrt(a * a + k2 * z2 * z2);
        const double f1 = (z1 - t) * (z1 - t) + (h1 - rho) * (h1 - rho);
        const double f2 = (z2 - t) * (z2 - t) + (h2 - rho) * (h2 - rho);
        if (f1 < f2) hi = z2;
        else lo = z1;
    }
    const double z = 0.5 * (lo + hi), h = sqrt(a * a + k2 * z * z);
    return sqrt((z - t) * (z - t) + (h - rho) * (h - rho));
}

static void boundaries_hyperboloid(void)
{
    grit_clip_def d = grit_default_clip_def();
    d.shape = GRIT_CLIP_HYPERBOLOID;
    d.center = v3(0, 0, 0);
    d.axis = v3(0, 0, 2);
    d.length = 2;
    d.outer_radius = 1;
    d.waist_radius = 0.5;
    grit_region *g = region(d, NULL);
    const double a = 0.5, k2 = 0.75; /* (R^2 - a^2) (2 / L)^2 */
    CHECK_REL(grit_region_volume(g), M_PI * 2 * (0.25 + 0.75 / 3), 1e-15);
    /* on the axis: d^2 = a^2 + t^2 k2 / (1 + k2); off the axis: sampled */
    const double t = 0.3, da = sqrt(a * a + t * t * k2 / (1 + k2));
    const double db = profile_distance(a, k2, 0.5, 0.3), dc = profile_distance(a, k2, -0.7, 0.6);
    CHECK_REL(da, profile_distance(a, k2, t, 0), 1e-9);
    const grit_vec3 c[10] = {v3(0, 0, 0),        v3(0, 0, 0),       v3(0, 0, t),      v3(0, 0, t),
                             v3(0.3, 0, 0.5),    v3(0.3, 0, 0.5),   v3(0, -0.6, -0.7), v3(0, -0.6, -0.7),
                             v3(0, 0, 1 - 0.2), v3(0, 0, 1 - 0.2)};
    const double r[10] = {a - EPS, a + EPS, da - EPS, da + EPS, db * (1 - 1e-7), db * (1 + 1e-7), dc * (1 - 1e-7),
                          dc * (1 + 1e-7), 0.2 - EPS, 0.2 + EPS};
    boundary_pairs(g, c, r, 10, "hyperboloid");
    grit_region_destroy(g);
    /* equal radii: a cylinder */
    d.waist_radius = d.outer_radius;
    g = region(d, NULL);
    const grit_vec3 cy[2] = {v3(0.5, 0, 0.5), v3(0.5, 0, 0.5)};
    const double ry[2] = {0.5 - EPS, 0.5 + EPS};
    boundary_pairs(g, cy, ry, 2, "hyperboloid with a = R");
    grit_region_destroy(g);
}

/* A solid made of unit cubes (cells), scaled: the outer faces of the
 * union, two triangles each, facing out; written as ASCII STL. Every
 * edge joins exactly two faces, so the mesh is closed. `flip` turns one
 * triangle around, `drop` leaves one out (-1: none). */
static void voxel_stl(const char *path, const int (*cells)[3], int n, double s, int flip, int drop)
{
    FILE *f = fopen(path, "w");
    fprintf(f, "solid voxels\n");
    int tri = 0;
    for (int i = 0; i < n; i++)
        for (int face = 0; face < 6; face++) {
            const int ax = face / 2, sense = face % 2 ? 1 : -1;
            int nb[3] = {cells[i][0], cells[i][1], cells[i][2]};
            nb[ax] += sense;
            bool covered = false;
            for (int j = 0; j < n; j++)
                covered = covered || (cells[j][0] == nb[0] && cells[j][1] == nb[1] && cells[j][2] == nb[2]);
            if (covered) continue;
            /* the face's corners in counter-clockwise order seen from outside */
            const int b = (ax + 1) % 3, c = (ax + 2) % 3;
            double q[4][3];
            const int uv[4][2] = {{0, 0}, {1, 0}, {1, 1}, {0, 1}};
            for (int k = 0; k < 4; k++) {
                const int kk = sense > 0 ? k : 3 - k;
                q[k][ax] = cells[i][ax] + (sense > 0 ? 1 : 0);
                q[k][b] = cells[i][b] + uv[kk][0];
                q[k][c] = cells[i][c] + uv[kk][1];
            }
            const int t2[2][3] = {{0, 1, 2}, {0, 2, 3}};
            for (int h = 0; h < 2; h++, tri++) {
                if (tri == drop) continue;
                fprintf(f, "facet normal 0 0 0\nouter loop\n");
                for (int k = 0; k < 3; k++) {
                    const int v = t2[h][tri == flip ? 2 - k : k];
                    fprintf(f, "vertex %.17g %.17g %.17g\n", s * q[v][0], s * q[v][1], s * q[v][2]);
                }
                fprintf(f, "endloop\nendfacet\n");
            }
        }
    fprintf(f, "endsolid voxels\n");
    fclose(f);
}

static const int CUBE[1][3] = {{0, 0, 0}};
static const int ELL[3][3] = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}}; /* an L: the cell (1, 1, 0) is missing */

static void boundaries_stl(void)
{
    grit_clip_def d = grit_default_clip_def();
    d.shape = GRIT_CLIP_STL;
    voxel_stl(path_of("cube.stl"), CUBE, 1, 1, -1, -1);
    grit_region *g = region(d, path_of("cube.stl"));
    CHECK_REL(grit_region_volume(g), 1, 1e-15);
    const grit_vec3 c[6] = {v3(0.5, 0.5, 0.5), v3(0.5, 0.5, 0.5), v3(0.2, 0.3, 0.25), v3(0.2, 0.3, 0.25),
                            v3(0.9, 0.5, 0.5), v3(0.9, 0.5, 0.5)};
    const double r[6] = {0.5 - EPS, 0.5 + EPS, 0.2 - EPS, 0.2 + EPS, 0.1 - EPS, 0.1 + EPS};
    boundary_pairs(g, c, r, 6, "STL cube");
    grit_region_destroy(g);
    /* scaled by 2 (a file in other units) and shifted */
    d.stl_scale = 2;
    d.stl_shift = v3(10, 0, 0);
    g = region(d, path_of("cube.stl"));
    CHECK_REL(grit_region_volume(g), 8, 1e-15);
    const grit_vec3 cs[2] = {v3(11, 1, 1), v3(11, 1, 1)};
    const double rs[2] = {1 - EPS, 1 + EPS};
    boundary_pairs(g, cs, rs, 2, "scaled STL cube");
    grit_region_destroy(g);
    /* a non-convex solid: the notch (1..2, 1..2) is outside although it
     * lies in the bounding box, and the re-entrant edge (1, 1) counts */
    d = grit_default_clip_def();
    d.shape = GRIT_CLIP_STL;
    voxel_stl(path_of("ell.stl"), ELL, 3, 1, -1, -1);
    g = region(d, path_of("ell.stl"));
    CHECK_REL(grit_region_volume(g), 3, 1e-15);
    const double de = sqrt(0.08); /* from (0.8, 0.8) to the edge (1, 1) */
    const grit_vec3 e[8] = {v3(0.8, 0.8, 0.5), v3(0.8, 0.8, 0.5), v3(1.5, 0.5, 0.5), v3(1.5, 0.5, 0.5),
                            v3(0.5, 1.5, 0.5), v3(0.5, 1.5, 0.5), v3(1.2, 1.5, 0.5), v3(1.5, 1.5, 0.5)};
    const double re[8] = {de - EPS, de + EPS, 0.5 - EPS, 0.5 + EPS, 0.3, 0.5 + EPS, 0.1, 0.2};
    /* pairs: (kept, dropped); the last pair: two spheres in the notch,
     * which are both outside: checked on their own below */
    boundary_pairs(g, e, re, 6, "STL L-shape");
    CHECK(!grit_region_contains(g, e[6], re[6]) && !grit_region_contains(g, e[7], re[7]));
    CHECK(grit_region_contains(g, v3(0.5, 1.5, 0.5), 0.5 - EPS));
    grit_region_destroy(g);
    /* a hollow cube: 3 x 3 x 3 cells without the middle one; the cavity's
     * walls face into it, so it is outside (winding 1 - 1 = 0) */
    int shell[26][3], k = 0;
    for (int i = 0; i < 27; i++)
        if (i != 13) shell[k][0] = i % 3, shell[k][1] = i / 3 % 3, shell[k][2] = i / 9, k++;
    voxel_stl(path_of("shell.stl"), (const int(*)[3])shell, 26, 1, -1, -1);
    g = region(d, path_of("shell.stl"));
    CHECK_REL(grit_region_volume(g), 26, 1e-15);
    const grit_vec3 h[6] = {v3(0.5, 0.5, 0.5), v3(0.5, 0.5, 0.5), v3(2.5, 1.5, 1.5), v3(2.5, 1.5, 1.5),
                            v3(0.45, 1.5, 2.6), v3(0.45, 1.5, 2.6)};
    const double rh[6] = {0.5 - EPS, 0.5 + EPS, 0.5 - EPS, 0.5 + EPS, 0.4 - EPS, 0.4 + EPS};
    boundary_pairs(g, h, rh, 6, "hollow STL cube");
    CHECK(!grit_region_contains(g, v3(1.5, 1.5, 1.5), 0.1) && !grit_region_contains(g, v3(1.5, 1.5, 1.5), 0.5 - EPS));
    CHECK(!grit_region_contains(g, v3(1.2, 1.7, 1.5), 0.15));
    grit_region_destroy(g);
}

/* The same mesh with its triangles facing in: still a solid. */
static void stl_inward_and_errors(void)
{
    grit_clip_def d = grit_default_clip_def();
    d.shape = GRIT_CLIP_STL;
    FILE *f = fopen(path_of("cube.stl"), "r"), *o = fopen(path_of("inward.stl"), "w");
    char line[256], v[3][256];
    int k = 0;
    while (fgets(line, sizeof line, f)) {
        if (strncmp(line, "vertex", 6) == 0) {
            snprintf(v[k++], sizeof v[0], "%s", line);
            if (k == 3) fprintf(o, "%s%s%s", v[2], v[1], v[0]), k = 0;
        } else fputs(line, o);
    }
    fclose(f), fclose(o);
    grit_region *g = region(d, path_of("inward.stl"));
    CHECK(grit_region_contains(g, v3(0.5, 0.5, 0.5), 0.4) && !grit_region_contains(g, v3(0.5, 0.5, 0.5), 0.6));
    grit_region_destroy(g);
    /* a hole, a flipped triangle, too few triangles, no file */
    voxel_stl(path_of("hole.stl"), CUBE, 1, 1, -1, 5);
    g = NULL;
    CHECK(refused(grit_region_create(&d, path_of("hole.stl"), &g, err, sizeof err), GRIT_EFORMAT, g,
                  "hole.stl is not a closed solid: the edge") &&
          strstr(err, "(a hole)"));
    voxel_stl(path_of("flip.stl"), ELL, 3, 1, 7, -1);
    CHECK(refused(grit_region_create(&d, path_of("flip.stl"), &g, err, sizeof err), GRIT_EFORMAT, g,
                  "flip.stl is not a closed, consistently oriented solid") &&
          strstr(err, "in the same direction"));
    FILE *t = fopen(path_of("one.stl"), "w");
    fputs("solid one\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 1 0 0\nvertex 0 1 0\nendloop\nendfacet\n"
          "endsolid\n",
          t);
    fclose(t);
    CHECK(refused(grit_region_create(&d, path_of("one.stl"), &g, err, sizeof err), GRIT_EFORMAT, g,
                  "one.stl has 1 triangles: a closed solid needs at least 4"));
    CHECK(refused(grit_region_create(&d, path_of("none.stl"), &g, err, sizeof err), GRIT_EIO, g,
                  "none.stl: cannot open STL file"));
    FILE *flat = fopen(path_of("flat.stl"), "w");
    fputs("solid flat\n", flat);
    const char *tris[4] = {"0 0 0  1 0 0  0 1 0", "0 0 0  0 1 0  1 0 0", "1 0 0  2 0 0  1 1 0", "1 0 0  1 1 0  2 0 0"};
    for (int i = 0; i < 4; i++) {
        double x[9];
        sscanf(tris[i], "%lf %lf %lf %lf %lf %lf %lf %lf %lf", x, x + 1, x + 2, x + 3, x + 4, x + 5, x + 6, x + 7, x + 8);
        fprintf(flat, "facet normal 0 0 1 outer loop vertex %g %g %g vertex %g %g %g vertex %g %g %g endloop endfacet\n",
                x[0], x[1], x[2], x[3], x[4], x[5], x[6], x[7], x[8]);
    }
    fputs("endsolid\n", flat);
    fclose(flat);
    CHECK(refused(grit_region_create(&d, path_of("flat.stl"), &g, err, sizeof err), GRIT_EFORMAT, g,
                  "flat.stl encloses no volume"));
    CHECK(refused(grit_region_create(&d, NULL, &g, err, sizeof err), GRIT_EINVAL, g, "shape=stl needs the STL file"));
}

/* Tiling the 200-sphere cell: every kept sphere is inside by independent
 * geometry, and every image of every sphere that is inside is kept (the
 * candidates are enumerated here over a wide range of images). */
typedef struct indep {
    int shape;
    grit_clip_def d;
} indep;

static bool inside_indep(const indep *s, grit_vec3 c, double r)
{
    const grit_clip_def *d = &s->d;
    if (d->shape == GRIT_CLIP_CUBOID)
        return c.x - r >= d->lo.x && c.y - r >= d->lo.y && c.z - r >= d->lo.z && c.x + r <= d->hi.x &&
               c.y + r <= d->hi.y && c.z + r <= d->hi.z;
    const grit_vec3 u = v3_normalized(d->axis), x = v3_sub(c, d->center);
    const double t = v3_dot(x, u), rho = v3_norm(v3_madd(x, -t, u));
    if (fabs(t) + r > d->length / 2) return false;
    if (d->shape == GRIT_CLIP_CYLINDER) return rho + r <= d->outer_radius;
    const double a = d->waist_radius, R = d->outer_radius, k2 = (R * R - a * a) * 4 / (d->length * d->length);
    if (rho >= sqrt(a * a + k2 * t * t)) return false;
    return profile_distance(a, k2, t, rho) >= r;
}

static double distance_to_boundary_estimate(const indep *s, grit_vec3 c, double r)
{
    /* how far the sphere is from being decided the other way: used to skip
     * spheres within 1e-9 of the boundary, where the sampled profile
     * distance and the library may honestly differ */
    const grit_clip_def *d = &s->d;
    if (d->shape != GRIT_CLIP_HYPERBOLOID) return INFINITY;
    const grit_vec3 u = v3_normalized(d->axis), x = v3_sub(c, d->center);
    const double t = v3_dot(x, u), rho = v3_norm(v3_madd(x, -t, u));
    const double a = d->waist_radius, R = d->outer_radius, k2 = (R * R - a * a) * 4 / (d->length * d->length);
    return fabs(profile_distance(a, k2, t, rho) - r);
}

static void tile_and_check(const indep *s, bool recentre, grit_vec3 shift, int *kept_out)
{
    grit_region *g = region(s->d, NULL);
    grit_packing out;
    CHECK(grit_packing_clip(&cell200, g, recentre, shift, &out, err, sizeof err) == GRIT_OK);
    bool all_inside = true;
    for (int i = 0; i < out.n; i++) all_inside = all_inside && inside_indep(s, out.center[i], out.radius[i]);
    CHECK(all_inside);
    /* every candidate of a generous range of images */
    grit_vec3 lo, hi;
    grit_region_bounds(g, &lo, &hi);
    const double a = cell200.cell[0][0];
    grit_vec3 origin = shift;
    if (recentre) origin = v3_add(origin, v3_sub(v3_scale(v3_add(lo, hi), 0.5), v3(a / 2, a / 2, a / 2)));
    int expect = 0, doubtful = 0;
    const int K = (int)ceil(v3_maxabs(v3_sub(hi, lo)) / a) + 2;
    for (int kx = -K; kx <= K; kx++)
        for (int ky = -K; ky <= K; ky++)
            for (int kz = -K; kz <= K; kz++)
                for (int i = 0; i < cell200.n; i++) {
                    const grit_vec3 c = v3_add(v3_add(cell200.center[i], origin), v3(kx * a, ky * a, kz * a));
                    const double r = cell200.radius[i];
                    if (c.x + r < lo.x || c.x - r > hi.x || c.y + r < lo.y || c.y - r > hi.y || c.z + r < lo.z ||
                        c.z - r > hi.z)
                        continue;
                    if (distance_to_boundary_estimate(s, c, r) < 1e-9) doubtful++;
                    else expect += inside_indep(s, c, r);
                }
    CHECK(out.n >= expect && out.n <= expect + doubtful);
    CHECK(out.n > 0 && !out.periodic);
    CHECK_REL(out.volume, grit_region_volume(g), 1e-15);
    CHECK_REL(out.solid_fraction, grit_packing_sphere_volume(&out) / out.volume, 1e-12);
    CHECK(out.info && strstr(out.info, cell200.info) == out.info && strstr(out.info, "\nclip shape="));
    /* reproducible */
    grit_packing again;
    CHECK(grit_packing_clip(&cell200, g, recentre, shift, &again, err, sizeof err) == GRIT_OK);
    CHECK(again.n == out.n && memcmp(again.center, out.center, sizeof *out.center * (size_t)out.n) == 0);
    grit_packing_free(&again);
    *kept_out = out.n;
    grit_packing_free(&out);
    grit_region_destroy(g);
}

static void tiling(void)
{
    const double a = cell200.cell[0][0]; /* about 0.0205 m */
    indep s = {0, grit_default_clip_def()};
    int n1, n2;
    s.d.shape = GRIT_CLIP_CUBOID;
    s.d.lo = v3(-0.01, 0.003, 0.02);
    s.d.hi = v3(0.035, 0.03, 0.05); /* larger than the cell: tiles */
    tile_and_check(&s, true, v3(0, 0, 0), &n1);
    tile_and_check(&s, false, v3(0.001, -0.002, 0.0003), &n2);
    CHECK(n1 > 0.5 * 0.6 * 0.045 * 0.027 * 0.03 / (4.0 / 3 * M_PI * 8e-9));
    s.d = grit_default_clip_def();
    s.d.shape = GRIT_CLIP_CYLINDER;
    s.d.center = v3(0.01, 0.02, -0.03);
    s.d.axis = v3(0.3, -1, 0.2);
    s.d.length = 2.2 * a;
    s.d.outer_radius = 0.8 * a;
    tile_and_check(&s, true, v3(0, 0, 0), &n1);
    s.d.shape = GRIT_CLIP_HYPERBOLOID;
    s.d.waist_radius = 0.5 * a;
    tile_and_check(&s, true, v3(0, 0, 0), &n2);
    CHECK(n2 < n1);
    printf("  cell edge %.4g m: cuboid and cylinder kept %d, hyperboloid %d\n", a, n1, n2);
}

static int in_ball(grit_vec3 c, double r, void *data)
{
    const double R = *(const double *)data;
    return v3_norm(c) + r <= R;
}

static void predicate_and_errors(void)
{
    double R = 0.02;
    grit_region *g = NULL;
    CHECK(grit_region_predicate(in_ball, &R, v3(-R, -R, -R), v3(R, R, R), 4.0 / 3 * M_PI * R * R * R, &g, err,
                                sizeof err) == GRIT_OK);
    grit_packing out;
    CHECK(grit_packing_clip(&cell200, g, true, v3(0, 0, 0), &out, err, sizeof err) == GRIT_OK);
    bool ok = out.n > 20;
    for (int i = 0; i < out.n; i++) ok = ok && v3_norm(out.center[i]) + out.radius[i] <= R;
    CHECK(ok);
    CHECK(out.solid_fraction > 0.3 && out.solid_fraction < 0.64);
    CHECK(strstr(out.info, "clip shape=predicate lo=-0.02,-0.02,-0.02 hi=0.02,0.02,0.02 recentre=true") != NULL);
    grit_packing_free(&out);
    grit_region_destroy(g);
    /* unknown volume: no solid fraction */
    CHECK(grit_region_predicate(in_ball, &R, v3(-R, -R, -R), v3(R, R, R), NAN, &g, err, sizeof err) == GRIT_OK);
    CHECK(grit_packing_clip(&cell200, g, true, v3(0, 0, 0), &out, err, sizeof err) == GRIT_OK);
    CHECK(isnan(out.volume) && isnan(out.solid_fraction) && out.n > 20);
    grit_packing_free(&out);
    /* errors: nothing fits, the packing is not periodic, bad tiling */
    grit_packing keep = {.n = -7};
    R = 0.001; /* smaller than a sphere */
    CHECK(grit_packing_clip(&cell200, g, true, v3(0, 0, 0), &keep, err, sizeof err) == GRIT_ESTATE);
    CHECK(strstr(err, "no sphere of the packing (radii up to 0.002 m) lies entirely inside the region (shape=predicate"));
    grit_packing flat = cell200;
    flat.periodic = false;
    CHECK(grit_packing_clip(&flat, g, true, v3(0, 0, 0), &keep, err, sizeof err) == GRIT_EINVAL);
    CHECK(strstr(err, "must be periodic"));
    CHECK(grit_packing_clip(&cell200, g, true, v3(NAN, 0, 0), &keep, err, sizeof err) == GRIT_EINVAL);
    CHECK(strstr(err, "'tile_shift' must be finite"));
    CHECK(keep.n == -7);
    grit_region_destroy(g);
    /* far too many copies of the cell */
    grit_clip_def d = grit_default_clip_def();
    d.shape = GRIT_CLIP_CUBOID;
    d.hi = v3(100, 100, 100);
    g = region(d, NULL);
    CHECK(grit_packing_clip(&cell200, g, true, v3(0, 0, 0), &keep, err, sizeof err) == GRIT_EINVAL);
    CHECK(strstr(err, "copies of the cell") && keep.n == -7);
    grit_region_destroy(g);
    /* bad regions */
    g = NULL;
    CHECK(refused(grit_region_predicate(NULL, NULL, v3(0, 0, 0), v3(1, 1, 1), 1, &g, err, sizeof err), GRIT_EINVAL, g,
                  "the predicate is NULL"));
    CHECK(refused(grit_region_predicate(in_ball, &R, v3(0, 0, 0), v3(1, 0, 1), 1, &g, err, sizeof err), GRIT_EINVAL,
                  g, "must be finite and exceed lo"));
    CHECK(refused(grit_region_predicate(in_ball, &R, v3(0, 0, 0), v3(1, 1, 1), -1, &g, err, sizeof err), GRIT_EINVAL,
                  g, "volume = -1"));
    d = grit_default_clip_def();
    CHECK(refused(grit_region_create(&d, NULL, &g, err, sizeof err), GRIT_EINVAL, g, "parameter 'shape' = none"));
    d.shape = GRIT_CLIP_CUBOID;
    d.hi = v3(1, 0, 1);
    CHECK(refused(grit_region_create(&d, NULL, &g, err, sizeof err), GRIT_EINVAL, g,
                  "parameter 'hi' = 1,0,1 must exceed lo"));
    d = grit_default_clip_def();
    d.shape = GRIT_CLIP_CYLINDER;
    d.axis = v3(0, 0, 0);
    CHECK(refused(grit_region_create(&d, NULL, &g, err, sizeof err), GRIT_EINVAL, g, "parameter 'axis' = 0,0,0"));
    d = grit_default_clip_def();
    d.shape = GRIT_CLIP_HYPERBOLOID;
    d.waist_radius = 0.05;
    CHECK(refused(grit_region_create(&d, NULL, &g, err, sizeof err), GRIT_EINVAL, g,
                  "parameter 'waist_radius' = 0.05 is out of range: must be at most outer_radius = 0.0375"));
    d.waist_radius = -1;
    CHECK(refused(grit_region_create(&d, NULL, &g, err, sizeof err), GRIT_EINVAL, g, "parameter 'waist_radius' = -1"));
    d = grit_default_clip_def();
    d.shape = GRIT_CLIP_CYLINDER;
    d.length = 0;
    CHECK(refused(grit_region_create(&d, NULL, &g, err, sizeof err), GRIT_EINVAL, g, "parameter 'length' = 0"));
}

int main(void)
{
    snprintf(dir, sizeof dir, "/tmp/grit-test-pack-XXXXXX");
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        return 2;
    }
    RUN(reaches_pressure);
    RUN(relaxes);
    RUN(reaches_solid_fraction);
    RUN(reproducible);
    RUN(size_distributions);
    RUN(monitor_and_cap);
    RUN(bad_parameters);
    RUN(save_and_load);
    RUN(overlaps);
    RUN(boundaries_cuboid_cylinder);
    RUN(boundaries_hyperboloid);
    RUN(boundaries_stl);
    RUN(stl_inward_and_errors);
    RUN(tiling);
    RUN(predicate_and_errors);
    grit_packing_free(&cell200);
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", dir);
    TEST_MAIN_END();
}
