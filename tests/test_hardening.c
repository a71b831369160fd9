/* Issue 15 regressions at the library level: inputs at the edges of the
 * double range, counts that overflow, crafted files. Each case once made grit
 * hang, crash or go on with a wrong result; each must now either work or fail
 * with one line naming the problem, leaving the scene unchanged. */
#include <signal.h>
#include <unistd.h>

#include "fixture.h"
#include "grit/io.h"
#include "grit/stl.h"

/* A hang must fail the test, not the CI's time budget. */
static void on_alarm(int sig)
{
    (void)sig;
    static const char m[] = "test_hardening: timed out (a loop that never ends)\n";
    if (write(2, m, sizeof m - 1) < 0) _exit(3);
    _exit(3);
}

/* Spheres at +-1e308: the extent of the scene overflows to inf, which made
 * the grid sizing of the broad phase loop for ever. */
static void huge_extent_steps(void)
{
    const double far[][2] = {{1e308, -1e308}, {1.7e308, -1.7e308}, {1e308, 1e308 * 0.999}};
    for (int c = 0; c < 3; c++) {
        grit_scene *s = fx_scene_dt(1e-4);
        int m = fx_mat(s, 1e7, 0.2, 0.5);
        fx_sphere(s, m, v3(far[c][0], 0, 0), 0.01, v3_zero());
        fx_sphere(s, m, v3(far[c][1], 0, 0), 0.01, v3_zero());
        fx_sphere(s, m, v3(0, 0, 0), 0.01, v3_zero());
        fx_sphere(s, m, v3(0.015, 0, 0), 0.01, v3_zero());
        alarm(20);
        int rc = grit_step(s, 5);
        alarm(0);
        CHECK(rc == GRIT_OK || strchr(grit_last_error(s), '\n') == NULL);
        grit_scene_destroy(s);
    }
}

static const char *tmp_path(const char *name)
{
    static char buf[8][256];
    static int k = 0;
    k = (k + 1) % 8;
    snprintf(buf[k], sizeof buf[k], "/tmp/grit-hard-%d-%s", (int)getpid(), name);
    return buf[k];
}

static void write_bytes(const char *path, const void *b, size_t n)
{
    FILE *f = fopen(path, "wb");
    CHECK(f != NULL);
    if (!f) return;
    CHECK(fwrite(b, 1, n, f) == n);
    fclose(f);
}

/* One line, no byte outside printable ASCII. */
static bool printable_line(const char *m)
{
    for (const unsigned char *c = (const unsigned char *)m; *c; c++)
        if (*c < 0x20 || *c >= 0x7f) return false;
    return true;
}

/* '0,,0,-9.81' was read as (0, 0, -9.81): empty fields were skipped. */
static void vector_fields_exact(void)
{
    grit_scene_def d = grit_default_scene_def();
    const grit_scene_def before = d;
    char err[512];
    const char *bad[] = {"0,,0,-9.81", "0,0", "0,0,1,", ",0,0", "0,0,", "1,2,3,4", "", "1e999,0,0", "1e-320,0,0"};
    for (size_t k = 0; k < sizeof bad / sizeof *bad; k++) {
        err[0] = '\0';
        CHECK(grit_param_set_text(&grit_scene_param_table, &d, "gravity", bad[k], err, sizeof err) != 0);
        CHECK(strstr(err, "gravity") != NULL);
        CHECK(memcmp(&d, &before, sizeof d) == 0);
    }
    CHECK(grit_param_set_text(&grit_scene_param_table, &d, "gravity", "0,0,-9.81", err, sizeof err) == 0);
    CHECK(d.gravity.z == -9.81);
    /* out of range and subnormal values say so instead of "not a number" */
    CHECK(grit_param_set_text(&grit_scene_param_table, &d, "damping", "1e-320", err, sizeof err) != 0);
    CHECK(strstr(err, "too small") != NULL);
    CHECK(grit_param_set_text(&grit_scene_param_table, &d, "damping", "1e400", err, sizeof err) != 0);
    CHECK(strstr(err, "beyond the range") != NULL);
    /* raw bytes are not echoed */
    CHECK(grit_param_set_text(&grit_scene_param_table, &d, "damping", "\x1b[31m\x01", err, sizeof err) != 0);
    CHECK(printable_line(err));
}

/* A NUL block in a CSV file cut lines short: 83 of 100 spheres loaded with
 * success. A loader reads all of its input or fails. */
static void csv_nul_block(void)
{
    char text[8192];
    size_t n = (size_t)snprintf(text, sizeof text, "x,y,z,r\n");
    for (int i = 0; i < 100; i++) n += (size_t)snprintf(text + n, sizeof text - n, "%d,0,0,0.001\n", i);
    memset(text + 300, 0, 500);
    const char *p = tmp_path("nul.csv");
    write_bytes(p, text, n);
    grit_scene *s = fx_scene_dt(1e-5);
    fx_mat(s, 1e7, 0.2, 0.5);
    int count = -1;
    CHECK(grit_io_load_spheres_csv(s, p, 0, NULL, &count) == GRIT_EFORMAT);
    CHECK(strstr(grit_last_error(s), "NUL byte") != NULL);
    CHECK(grit_particle_count(s) == 0);
    /* binary garbage in a field is quoted, not echoed */
    write_bytes(p, "x,y,z,r\n1,2,\x1b[2J\xff,1\n", 22);
    CHECK(grit_io_load_spheres_csv(s, p, 0, NULL, &count) == GRIT_EFORMAT);
    CHECK(printable_line(grit_last_error(s)));
    CHECK(strstr(grit_last_error(s), ":2: field 'z'") != NULL);
    /* subnormal radius: named as such, not left to a later "dt <= 0" */
    write_bytes(p, "x,y,z,r\n0,0,0,1e-320\n", 21);
    CHECK(grit_io_load_spheres_csv(s, p, 0, NULL, &count) == GRIT_EFORMAT);
    CHECK(strstr(grit_last_error(s), "too small") != NULL);
    CHECK(grit_particle_count(s) == 0);
    remove(p);
    grit_scene_destroy(s);
}

/* An ASCII STL number longer than 63 characters was cut there and misread
 * (1000...0e-70 became 1e62). */
static void stl_long_number(void)
{
    char num[128];
    snprintf(num, sizeof num, "1%070de-70", 0); /* 1e70 * 1e-70 = 1 */
    char text[1024];
    int n = snprintf(text, sizeof text,
                     "solid a\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 1 0 0\nvertex 0 1 %s\nendloop\n"
                     "endfacet\nendsolid\n", num);
    const char *p = tmp_path("long.stl");
    write_bytes(p, text, (size_t)n);
    grit_scene *s = fx_scene_dt(1e-5);
    fx_mat(s, 1e7, 0.2, 0.5);
    grit_stl_def d = grit_default_stl_def();
    grit_stl_info info;
    CHECK(grit_load_stl(s, p, &d, &info) == 1);
    grit_vec3 c;
    if (grit_particle_count(s) == 1) {
        grit_get_pos(s, 0, &c);
        CHECK_ABS(c.z, 1.0 / 3.0, 1e-15);
    }
    /* a long token that is not a number is named, quoted and cut */
    n = snprintf(text, sizeof text, "solid a\nfacet normal 0 0 1\nouter loop\nvertex 0 0 %s\x01zz\n", num);
    write_bytes(p, text, (size_t)n);
    CHECK(grit_load_stl(s, p, &d, &info) == GRIT_EFORMAT);
    CHECK(strstr(grit_last_error(s), ":4: vertex z coordinate") != NULL);
    CHECK(printable_line(grit_last_error(s)));
    CHECK(grit_particle_count(s) == 1);
    remove(p);
    grit_scene_destroy(s);
}

int main(void)
{
    signal(SIGALRM, on_alarm);
    RUN(huge_extent_steps);
    RUN(vector_fields_exact);
    RUN(csv_nul_block);
    RUN(stl_long_number);
    TEST_MAIN_END();
}
