/* Issue 15 regressions at the library level: inputs at the edges of the
 * double range, counts that overflow, crafted files. Each case once made grit
 * hang, crash or go on with a wrong result; each must now either work or fail
 * with one line naming the problem, leaving the scene unchanged. */
#include <signal.h>
#include <unistd.h>

#include "fixture.h"
#include "grit/arrays.h"
#include "grit/io.h"
#include "grit/restart.h"
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
    static const char garbage[] = "x,y,z,r\n1,2,\x1b[2J\xff,1\n";
    write_bytes(p, garbage, sizeof garbage - 1); /* (a count of 22 read past the 21 bytes: ASan) */
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

/* ---- crafted restart files: a valid CRC, a bad value ---------------------- */
static uint32_t crc32_ieee(const unsigned char *b, size_t n)
{
    uint32_t c = 0xffffffffu;
    for (size_t i = 0; i < n; i++) {
        c ^= b[i];
        for (int k = 0; k < 8; k++) c = (c >> 1) ^ (0xedb88320u & (0u - (c & 1u)));
    }
    return c ^ 0xffffffffu;
}

typedef struct {
    unsigned char *b;
    size_t n;
} blob;

static blob read_blob(const char *path)
{
    blob f = {NULL, 0};
    FILE *fp = fopen(path, "rb");
    if (!fp) return f;
    fseek(fp, 0, SEEK_END);
    f.n = (size_t)ftell(fp);
    fseek(fp, 0, SEEK_SET);
    f.b = malloc(f.n);
    if (fread(f.b, 1, f.n, fp) != f.n) f.n = 0;
    fclose(fp);
    return f;
}

/* Offset of the payload of section `tag` (0 if absent). */
static size_t section_at(const blob *f, const char *tag, uint64_t *len)
{
    for (size_t o = 40; o + 16 <= f->n - 8;) {
        uint64_t l;
        memcpy(&l, f->b + o + 8, 8);
        if (!memcmp(f->b + o, tag, 4)) {
            if (len) *len = l;
            return o + 16;
        }
        o += 16 + (size_t)l;
    }
    return 0;
}

/* Offset of the data of array `name` in the array records from `at` on. */
static size_t array_at(const blob *f, size_t at, size_t end, const char *name, uint32_t *count)
{
    while (at + 16 <= end) {
        uint32_t elem, cnt;
        memcpy(&elem, f->b + at + 8, 4);
        memcpy(&cnt, f->b + at + 12, 4);
        if (!strncmp((const char *)f->b + at, name, 8)) {
            if (count) *count = cnt;
            return at + 16;
        }
        at += 16 + (size_t)elem * cnt;
    }
    return 0;
}

static void write_with_crc(const char *path, blob *f)
{
    uint32_t c = crc32_ieee(f->b, f->n - 4);
    memcpy(f->b + f->n - 4, &c, 4);
    write_bytes(path, f->b, f->n);
}

/* Load must fail naming `word`; under ASan a crash or a huge reservation
 * would end the test. */
static void check_refused(const char *path, const char *word)
{
    grit_scene *s = grit_scene_load(path);
    CHECK(s == NULL);
    if (s) grit_scene_destroy(s);
    if (!strstr(grit_create_error(), word)) fprintf(stderr, "  message: %s (expected '%s')\n", grit_create_error(), word);
    CHECK(strstr(grit_create_error(), word) != NULL);
    CHECK(strchr(grit_create_error(), '\n') == NULL);
}

static void crafted_restart(void)
{
    grit_scene *s = fx_scene_dt(1e-5);
    int m = fx_mat(s, 1e7, 0.2, 0.5);
    fx_wall(s, m, 2, 0, 1);
    for (int i = 0; i < 8; i++) fx_sphere(s, m, v3(0.0021 * i, 0, 0.0011), 0.001, v3_zero());
    fx_must(s, grit_step(s, 20), "step");
    const char *p = tmp_path("ok.grit"), *q = tmp_path("bad.grit");
    CHECK(grit_save(s, p) == GRIT_OK);
    grit_scene_destroy(s);
    blob orig = read_blob(p);
    CHECK(orig.n > 100);
    uint64_t blen = 0;
    const size_t body = section_at(&orig, "BODY", &blen);
    CHECK(body > 0);
    if (!body) return;
    blob f = {malloc(orig.n), orig.n};
    uint32_t cnt = 0;
    const size_t pr = array_at(&orig, body + 4, body + blen, "pr", &cnt);
    const size_t mi = array_at(&orig, body + 4, body + blen, "mi", NULL);
    CHECK(pr > 0 && mi > 0 && cnt == 9);
    /* a negative, a NaN radius, a NaN mass, a NaN position (particle 3 is a
     * sphere: the wall is sorted anywhere, so take the one with r > 0) */
    int sph = -1;
    for (uint32_t i = 0; i < cnt && sph < 0; i++) {
        double r;
        memcpy(&r, orig.b + pr + 32 * i + 24, 8);
        if (r > 0) sph = (int)i;
    }
    const struct {
        size_t off;
        double v;
        const char *word;
    } cases[] = {{pr + 32 * (size_t)sph + 24, -0.001, "radius"},
                 {pr + 32 * (size_t)sph + 24, NAN, "radius"},
                 {mi + 32 * (size_t)sph, NAN, "mass"},
                 {mi + 32 * (size_t)sph, -1.0, "mass"},
                 {pr + 32 * (size_t)sph + 8, INFINITY, "position"}};
    for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
        memcpy(f.b, orig.b, orig.n);
        memcpy(f.b + cases[k].off, &cases[k].v, 8);
        write_with_crc(q, &f);
        check_refused(q, cases[k].word);
    }
    /* a particle count far beyond what the section holds: refused before
     * anything is reserved (it reserved 10 GB from 55 KB) */
    memcpy(f.b, orig.b, orig.n);
    const uint32_t huge = 0x3fffffff;
    memcpy(f.b + body, &huge, 4);
    write_with_crc(q, &f);
    check_refused(q, "particle count");
    /* an inverted box of the broad phase's record (negative cell count) */
    uint64_t slen = 0;
    const size_t bpst = section_at(&orig, "BPST", &slen);
    uint32_t nb = 0;
    const size_t box = bpst ? array_at(&orig, bpst, bpst + slen, "box", &nb) : 0;
    CHECK(box > 0 && nb > 0);
    if (box) {
        memcpy(f.b, orig.b, orig.n);
        const double lo = 5, hi = -5; /* lo.x, hi.x of box 0 */
        memcpy(f.b + box, &lo, 8);
        memcpy(f.b + box + 24, &hi, 8);
        write_with_crc(q, &f);
        check_refused(q, "inverted");
    }
    /* the contact count likewise */
    const size_t cont = section_at(&orig, "CONT", &slen);
    if (cont) {
        memcpy(f.b, orig.b, orig.n);
        memcpy(f.b + cont, &huge, 4);
        write_with_crc(q, &f);
        check_refused(q, "contact count");
    }
    /* a raw newline in an array name (found by fuzz_restart) is quoted */
    memcpy(f.b, orig.b, orig.n);
    f.b[pr - 16] = '\n';
    f.b[pr - 15] = '\x1b';
    write_with_crc(q, &f);
    check_refused(q, "BODY");
    CHECK(printable_line(grit_create_error()));
    /* the unmodified file still loads */
    memcpy(f.b, orig.b, orig.n);
    write_with_crc(q, &f);
    grit_scene *ok = grit_scene_load(q);
    CHECK(ok != NULL);
    grit_scene_destroy(ok);
    free(f.b);
    free(orig.b);
    remove(p);
    remove(q);
}

/* Spheres at 100 m/s passed through each other and the kinetic energy grew by
 * half with success; duplicated particles injected energy silently. */
static void blowup_detected(void)
{
    for (int mode = 0; mode < 2; mode++) { /* stop, warn */
        grit_scene_def d = grit_default_scene_def();
        d.dt = 1e-5;
        d.track_energy = true;
        d.on_blowup = mode;
        d.max_energy_error = 0.1;
        grit_scene *s = fx_scene(&d);
        int m = fx_mat(s, 1e6, 0.2, 0.0);
        fx_sphere(s, m, v3(0, 0, 0), 0.001, v3(100, 0, 0));
        fx_sphere(s, m, v3(0.0025, 0, 0), 0.001, v3(-100, 0, 0));
        int rc = GRIT_OK;
        for (int k = 0; k < 200 && rc == GRIT_OK; k++) rc = grit_step(s, 1);
        if (mode == 0) {
            CHECK(rc == GRIT_ENUMERIC);
            const char *e = grit_last_error(s);
            CHECK(strstr(e, "step ") != NULL);
            CHECK(strstr(e, "time step") != NULL);
            CHECK(strstr(e, "overlap") != NULL || strstr(e, "energy balance") != NULL);
            CHECK(strchr(e, '\n') == NULL);
        } else {
            CHECK(rc == GRIT_OK);
            CHECK(grit_warning_count(s) >= 1);
            CHECK(strstr(grit_last_warning(s), "step ") != NULL);
        }
        grit_scene_destroy(s);
    }
    /* a duplicated sphere in a resting pair: the first step names the input */
    grit_scene_def d = grit_default_scene_def();
    d.dt = 1e-5;
    d.on_blowup = 0;
    grit_scene *s = fx_scene(&d);
    int m = fx_mat(s, 1e7, 0.2, 0.5);
    fx_sphere(s, m, v3(0, 0, 0), 0.001, v3_zero());
    fx_sphere(s, m, v3(0.002, 0, 0), 0.001, v3_zero());
    fx_sphere(s, m, v3(0.002, 0, 0), 0.001, v3_zero());
    CHECK(grit_step(s, 1) == GRIT_ENUMERIC);
    CHECK(strstr(grit_last_error(s), "particles 1 and 2") != NULL);
    CHECK(strstr(grit_last_error(s), "the input overlaps") != NULL);
    grit_scene_destroy(s);
    /* a quiet contact is not a blow-up */
    s = fx_scene(&d);
    m = fx_mat(s, 1e7, 0.2, 0.5);
    fx_sphere(s, m, v3(0, 0, 0), 0.001, v3_zero());
    fx_sphere(s, m, v3(0.00199, 0, 0), 0.001, v3_zero());
    CHECK(grit_step(s, 100) == GRIT_OK);
    grit_scene_destroy(s);
}

/* A view taken with grit_array_retain stays readable after the engine moved
 * the array (adding particles) and after the scene is destroyed: it shows
 * the values of when the engine let go of it, the engine runs on a copy, and
 * the last release frees the block (ASan: no use after free, no leak). */
static void retained_views(void)
{
    const int kept0 = grit_array_kept();
    grit_scene *s = fx_scene_dt(1e-5);
    int m = fx_mat(s, 1e7, 0.2, 0.5);
    for (int i = 0; i < 10; i++) fx_sphere(s, m, v3(0.1 * i, 0, 0), 0.01, v3(0, 0, 0));
    grit_array_view pos, vel, ext;
    void *tp, *tv, *te, *tp2;
    CHECK(grit_array_retain(s, grit_array_find(GRIT_ARRAYS_PARTICLES, "pos"), &pos, &tp) == GRIT_OK && tp);
    CHECK(grit_array_retain(s, grit_array_find(GRIT_ARRAYS_PARTICLES, "pos"), &pos, &tp2) == GRIT_OK && tp2 == tp);
    CHECK(grit_array_retain(s, grit_array_find(GRIT_ARRAYS_PARTICLES, "vel"), &vel, &tv) == GRIT_OK && tv);
    CHECK(grit_array_retain(s, grit_array_find(GRIT_ARRAYS_CONTACTS, "ext"), &ext, &te) == GRIT_OK && !te);
    CHECK(grit_array_retain(s, 9999, &ext, &te) == GRIT_EINVAL && !te);
    CHECK(grit_array_kept() == kept0 + 2);
    for (int i = 0; i < 500; i++) fx_sphere(s, m, v3(0.1 * i, 1, 0), 0.01, v3(0, 0, 0)); /* the arrays move */
    grit_array_view now;
    CHECK(grit_array_get(s, grit_array_find(GRIT_ARRAYS_PARTICLES, "pos"), &now) == GRIT_OK);
    CHECK(now.data != pos.data && now.count == 510);
    for (int i = 0; i < 10; i++) CHECK(((const double *)((const char *)pos.data + i * pos.stride))[0] == 0.1 * i);
    ((double *)vel.data)[0] = 7; /* the old block: the engine does not see it */
    CHECK(grit_step(s, 2) == GRIT_OK);
    grit_vec3 v0;
    CHECK(grit_get_vel(s, 0, &v0) == GRIT_OK && v0.x == 0);
    grit_array_release(tp2);
    grit_scene_destroy(s);
    CHECK(((const double *)((const char *)pos.data + 9 * pos.stride))[0] == 0.1 * 9); /* outlives the scene */
    grit_array_release(tp);
    grit_array_release(tv);
    grit_array_release(NULL);
    CHECK(grit_array_kept() == kept0);
}

int main(void)
{
    signal(SIGALRM, on_alarm);
    RUN(huge_extent_steps);
    RUN(vector_fields_exact);
    RUN(csv_nul_block);
    RUN(stl_long_number);
    RUN(crafted_restart);
    RUN(blowup_detected);
    RUN(retained_views);
    TEST_MAIN_END();
}
