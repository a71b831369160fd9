/* Out of memory at each allocation of a loader (issue 15): linked with
 * -Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc, so every allocation the
 * library makes goes through the switch below. For the CSV, STL and restart
 * loaders: count the allocations of a good load, then fail the k-th for every
 * k; each load must fail with one line (or succeed, if the failure was
 * absorbed), never crash, leave the scene as it was, and leak nothing (ASan's
 * leak check in the sanitizer build). */
#include <stddef.h>

#include "fixture.h"
#include "grit/io.h"
#include "grit/restart.h"
#include "grit/stl.h"

void *__real_malloc(size_t n);
void *__real_calloc(size_t n, size_t m);
void *__real_realloc(void *p, size_t n);

static long alloc_count = 0, fail_at = -1;

static int should_fail(void) { return ++alloc_count == fail_at; }
void *__wrap_malloc(size_t n) { return should_fail() ? NULL : __real_malloc(n); }
void *__wrap_calloc(size_t n, size_t m) { return should_fail() ? NULL : __real_calloc(n, m); }
void *__wrap_realloc(void *p, size_t n) { return should_fail() ? NULL : __real_realloc(p, n); }

typedef int (*loader)(const char *path);

static const char *path_csv = "/tmp/grit-oom.csv", *path_stl = "/tmp/grit-oom.stl", *path_rst = "/tmp/grit-oom.grit";
static grit_scene *target;

static int load_csv(const char *p)
{
    int rc = grit_io_load_spheres_csv(target, p, 0, NULL, NULL);
    return rc < 0 ? rc : 0;
}
static int load_stl(const char *p)
{
    grit_stl_def d = grit_default_stl_def();
    int rc = grit_load_stl(target, p, &d, NULL);
    return rc < 0 ? rc : 0;
}
static int load_rst(const char *p)
{
    grit_scene *s = grit_scene_load(p);
    if (!s) return -1;
    grit_scene_destroy(s);
    return 0;
}

static void sweep(const char *name, loader f, const char *path)
{
    alloc_count = 0;
    fail_at = -1;
    const int n0 = grit_particle_count(target);
    CHECK(f(path) == 0);
    const long total = alloc_count;
    const int added = grit_particle_count(target) - n0;
    int failed = 0;
    for (long k = 1; k <= total; k++) {
        const int before = grit_particle_count(target);
        alloc_count = 0;
        fail_at = k;
        const int rc = f(path);
        fail_at = -1;
        if (rc != 0) {
            failed++;
            const char *m = f == load_rst ? grit_create_error() : grit_last_error(target);
            CHECK(m[0] != '\0');
            CHECK(strchr(m, '\n') == NULL);
            CHECK(grit_particle_count(target) == before);
        } else CHECK(grit_particle_count(target) == before + added);
    }
    printf("  %s: %ld allocations in a good load, each failed in turn: %d refused, %ld absorbed\n", name, total,
           failed, total - failed);
}

static void oom_each_allocation(void)
{
    FILE *f = fopen(path_csv, "w");
    fprintf(f, "x,y,z,r\n");
    for (int i = 0; i < 40; i++) fprintf(f, "%d,0,0.5,0.1\n", i);
    fclose(f);
    f = fopen(path_stl, "w");
    fprintf(f, "solid s\n");
    for (int i = 0; i < 20; i++)
        fprintf(f, "facet normal 0 0 1\nouter loop\nvertex %d 0 0\nvertex %d 1 0\nvertex %d 0 1\nendloop\nendfacet\n", i,
                i, i);
    fprintf(f, "endsolid s\n");
    fclose(f);
    target = fx_scene_dt(1e-4);
    const int m = fx_mat(target, 1e7, 0.2, 0.5);
    (void)m;
    fx_must(target, grit_io_load_spheres_csv(target, path_csv, 0, NULL, NULL), "csv");
    fx_must(target, grit_step(target, 5), "step");
    fx_must(target, grit_save(target, path_rst), "save");
    sweep("spheres CSV", load_csv, path_csv);
    sweep("STL", load_stl, path_stl);
    sweep("restart", load_rst, path_rst);
    grit_scene_destroy(target);
    remove(path_csv);
    remove(path_stl);
    remove(path_rst);
}

int main(void)
{
    RUN(oom_each_allocation);
    TEST_MAIN_END();
}
