/* STL loading: ASCII and binary files written here, transforms, degenerate
 * triangles, and clear errors for malformed files (nothing added). */
#include <sys/stat.h>
#include <stdint.h>
#include <unistd.h>

#include "shapes_util.h"

static char dir[256];

static const char *path_of(const char *name)
{
    static char p[512];
    snprintf(p, sizeof p, "%s/%s", dir, name);
    return p;
}

static void write_text(const char *name, const char *text)
{
    FILE *f = fopen(path_of(name), "wb");
    fputs(text, f);
    fclose(f);
}

static void put32(FILE *f, uint32_t u)
{
    unsigned char b[4] = {(unsigned char)u, (unsigned char)(u >> 8), (unsigned char)(u >> 16), (unsigned char)(u >> 24)};
    fwrite(b, 1, 4, f);
}
static void putf(FILE *f, float x)
{
    uint32_t u;
    memcpy(&u, &x, 4);
    put32(f, u);
}

/* Binary STL with n triangles from v (9 floats each); header text given;
 * `count` is written in the header (normally n). */
static void write_binary(const char *name, const char *header, const float *v, int n, uint32_t count, int drop)
{
    FILE *f = fopen(path_of(name), "wb");
    char h[80] = {0};
    memcpy(h, header, strlen(header) < 80 ? strlen(header) : 80);
    fwrite(h, 1, 80, f);
    put32(f, count);
    for (int i = 0; i < n; i++) {
        for (int k = 0; k < 3; k++) putf(f, 0.0f); /* normal */
        for (int k = 0; k < 9; k++) putf(f, v[9 * i + k]);
        fputc(0, f);
        fputc(0, f);
    }
    fclose(f);
    if (drop) truncate(path_of(name), 84 + 50 * n - drop);
}

static const char *cube_side =
    "solid side\n"
    "  facet normal 0 0 1\n"
    "    outer loop\n"
    "      vertex 0 0 0\n"
    "      vertex 1 0 0\n"
    "      vertex 1 1 0\n"
    "    endloop\n"
    "  endfacet\n"
    "  facet normal 0 0 1\r\n"
    "    outer loop\r\n"
    "      vertex 0 0 0\r\n"
    "      vertex 1 1 0\r\n"
    "      vertex 0 1 0\r\n"
    "    endloop\r\n"
    "  endfacet\r\n"
    "  FACET NORMAL 0 0 0\n" /* degenerate: collinear */
    "    OUTER LOOP\n"
    "      VERTEX 0 0 0\n"
    "      VERTEX 1 1 0\n"
    "      VERTEX 2 2 0\n"
    "    ENDLOOP\n"
    "  ENDFACET\n"
    "endsolid side\n"
    "solid second\n"
    "facet normal 1 0 0 outer loop vertex 1 0 0 vertex 1 1 0 vertex 1 0 1e0 endloop endfacet\n"
    "endsolid\n";

static grit_scene *mk(void)
{
    grit_scene *s = su_scene(1e-5, v3(0, 0, 0), 0);
    su_mat(s, 1e7, 1000);
    return s;
}

static void ascii_file(void)
{
    write_text("a.stl", cube_side);
    grit_scene *s = mk();
    grit_stl_def d = grit_default_stl_def();
    d.half_thick = 0.01;
    grit_stl_info in;
    int n = grit_load_stl(s, path_of("a.stl"), &d, &in);
    CHECK(n == 3);
    if (n < 0) fprintf(stderr, "%s\n", grit_last_error(s));
    CHECK(in.n_facets == 3 && in.n_degenerate == 1 && in.binary == 0 && in.first_id == 0);
    CHECK(strcmp(in.name, "side") == 0);
    CHECK(grit_particle_count(s) == 3);
    grit_vec3 v[3];
    double h;
    CHECK(grit_get_facet(s, 1, v, &h) == GRIT_OK);
    CHECK_VEC(v[0], 0, 0, 0, 0);
    CHECK_VEC(v[1], 1, 1, 0, 0);
    CHECK_VEC(v[2], 0, 1, 0, 0);
    CHECK(h == 0.01);
    CHECK(grit_get_facet(s, 2, v, &h) == GRIT_OK);
    CHECK_VEC(v[2], 1, 0, 1, 0);
    grit_scene_destroy(s);
}

/* scale, then rotate, then shift */
static void transform(void)
{
    write_text("a.stl", cube_side);
    grit_scene *s = mk();
    grit_stl_def d = grit_default_stl_def();
    d.scale = 1e-3;
    d.ori = su_rot(v3(0, 0, 1), M_PI / 2);
    d.shift = v3(5, 6, 7);
    int n = grit_load_stl(s, path_of("a.stl"), &d, NULL);
    CHECK(n == 3);
    grit_vec3 v[3];
    grit_get_facet(s, 0, v, NULL);
    CHECK_VEC(v[1], 5, 6.001, 7, 1e-15); /* (1,0,0) mm -> (0,1,0) mm */
    CHECK_VEC(v[2], 4.999, 6.001, 7, 1e-15);
    grit_scene_destroy(s);
}

static void binary_file(void)
{
    const float tri[18] = {0, 0, 0, 2, 0, 0, 0, 2, 0, /**/ 0, 0, 1, 2, 0, 1, 0, 2, 1};
    /* a header that starts with "solid", as many exporters write */
    write_binary("b.stl", "solid exported by some CAD", tri, 2, 2, 0);
    grit_scene *s = mk();
    grit_stl_def d = grit_default_stl_def();
    grit_stl_info in;
    CHECK(grit_load_stl(s, path_of("b.stl"), &d, &in) == 2);
    CHECK(in.binary == 1 && in.n_facets == 2 && in.n_degenerate == 0);
    CHECK(strcmp(in.name, "solid exported by some CAD") == 0);
    grit_vec3 v[3];
    grit_get_facet(s, 1, v, NULL);
    CHECK_VEC(v[1], 2, 0, 1, 0);
    /* a sphere dropped on the loaded mesh lands on it */
    grit_scene_destroy(s);
}

/* Malformed files: the message names the file, the place and the value;
 * nothing is added. */
static void check_error(const char *name, int code, const char *needle1, const char *needle2)
{
    grit_scene *s = mk();
    grit_stl_def d = grit_default_stl_def();
    int rc = grit_load_stl(s, path_of(name), &d, NULL);
    CHECK(rc == code);
    const char *e = grit_last_error(s);
    if (!strstr(e, needle1) || (needle2 && !strstr(e, needle2))) {
        fprintf(stderr, "%s: unexpected message for %s: %s\n", test_current, name, e);
        test_failures++;
    }
    CHECK(strstr(e, name) != NULL);
    CHECK(grit_particle_count(s) == 0);
    grit_scene_destroy(s);
}

static void malformed_files(void)
{
    write_text("bad_number.stl", "solid x\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 1 0 zero\n");
    check_error("bad_number.stl", GRIT_EFORMAT, ":5: vertex z coordinate 'zero' is not a number", NULL);
    write_text("bad_keyword.stl",
               "solid x\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 1 0 0\nvertex 0 1 0\nendloop\n"
               "endfacet\nfacett normal 0 0 1\n");
    check_error("bad_keyword.stl", GRIT_EFORMAT, ":9: expected 'facet' or 'endsolid', found 'facett'", NULL);
    write_text("two_vertices.stl", "solid x\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 1 0 0\nendloop\n");
    check_error("two_vertices.stl", GRIT_EFORMAT, ":6: expected 'vertex', found 'endloop'", NULL);
    write_text("no_end.stl", "solid x\nfacet normal 0 0 1 outer loop vertex 0 0 0 vertex 1 0 0 vertex 0 1 0 endloop "
                             "endfacet\n");
    check_error("no_end.stl", GRIT_EFORMAT, "unexpected end of file, expected 'endsolid'", NULL);
    write_text("inf.stl", "solid x\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 1e999 0 0\n");
    check_error("inf.stl", GRIT_EFORMAT, ":5: vertex x coordinate '1e999' is not finite", NULL);
    write_text("garbage.stl", "this is not an STL file at all, and it is long enough to have a header of eighty "
                              "bytes and a count");
    check_error("garbage.stl", GRIT_EFORMAT, "neither binary STL", "does not start with 'solid'");
    write_text("short.stl", "hello");
    check_error("short.stl", GRIT_EFORMAT, "too short", NULL);
    const float tri[18] = {0, 0, 0, 2, 0, 0, 0, 2, 0, /**/ 0, 0, 1, 2, 0, 1, 0, 2, 1};
    write_binary("truncated.stl", "solid cut", tri, 2, 2, 7);
    check_error("truncated.stl", GRIT_EFORMAT, "truncated binary STL", NULL);
    write_binary("count.stl", "binary", tri, 2, 3, 0); /* header says 3 */
    check_error("count.stl", GRIT_EFORMAT, "facet count 3 needs 234", NULL);
    const float nan_tri[9] = {0, 0, 0, 1, 0, 0, 0, NAN, 0};
    write_binary("nan.stl", "binary", nan_tri, 1, 1, 0);
    check_error("nan.stl", GRIT_EFORMAT, "facet 0 vertex 2 is not finite", NULL);
    check_error("missing.stl", GRIT_EIO, "cannot open STL file", NULL);
    /* a folder opens for reading on Linux: refused by name, not read */
    CHECK(mkdir(path_of("folder.stl"), 0700) == 0);
    check_error("folder.stl", GRIT_EIO, "cannot open STL file: it is a folder", NULL);
    rmdir(path_of("folder.stl"));
    /* bad definitions */
    write_text("a.stl", cube_side);
    grit_scene *s = mk();
    grit_stl_def d = grit_default_stl_def();
    d.scale = 0;
    CHECK(grit_load_stl(s, path_of("a.stl"), &d, NULL) == GRIT_EINVAL);
    CHECK(strstr(grit_last_error(s), "scale = 0") != NULL);
    d = grit_default_stl_def();
    d.material = 3;
    CHECK(grit_load_stl(s, path_of("a.stl"), &d, NULL) == GRIT_EINVAL);
    CHECK(strstr(grit_last_error(s), "material 3 does not exist") != NULL);
    d = grit_default_stl_def();
    d.scale = 1e308; /* vertices overflow */
    d.shift = v3(1e308, 0, 0);
    CHECK(grit_load_stl(s, path_of("a.stl"), &d, NULL) == GRIT_EINVAL);
    CHECK(strstr(grit_last_error(s), "facet 0 vertex 1 is not finite after scale") != NULL);
    CHECK(grit_particle_count(s) == 0);
    /* the scene still works afterwards */
    d = grit_default_stl_def();
    CHECK(grit_load_stl(s, path_of("a.stl"), &d, NULL) == 3);
    CHECK(grit_particle_count(s) == 3);
    grit_scene_destroy(s);
}

/* grit_stl_read: the triangles without a scene, degenerate ones kept and
 * counted, placed like grit_load_stl's; errors in the caller's buffer. */
static void read_without_scene(void)
{
    write_text("a.stl", cube_side);
    grit_stl_mesh m = {0};
    char err[512] = "";
    CHECK(grit_stl_read(path_of("a.stl"), 1e-3, su_rot(v3(0, 0, 1), M_PI / 2), v3(5, 6, 7), &m, err, sizeof err) ==
          GRIT_OK);
    CHECK(m.n == 4 && m.n_degenerate == 1 && m.binary == 0 && strcmp(m.name, "side") == 0);
    CHECK_VEC(m.tri[0][1], 5, 6.001, 7, 1e-15);
    CHECK_VEC(m.tri[3][0], 5, 6.001, 7, 1e-15);
    grit_stl_mesh_free(&m);
    CHECK(m.tri == NULL && m.n == 0);
    write_text("bad_number.stl", "solid x\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 1 0 zero\n");
    grit_stl_mesh keep = {.n = 42};
    CHECK(grit_stl_read(path_of("bad_number.stl"), 1, q_identity(), v3(0, 0, 0), &keep, err, sizeof err) ==
          GRIT_EFORMAT);
    CHECK(strstr(err, "bad_number.stl:5: vertex z coordinate 'zero' is not a number") != NULL);
    CHECK(keep.n == 42);
    CHECK(grit_stl_read(path_of("a.stl"), -1, q_identity(), v3(0, 0, 0), &keep, err, sizeof err) == GRIT_EINVAL);
    CHECK(strstr(err, "scale = -1") != NULL);
    CHECK(grit_stl_read(path_of("missing.stl"), 1, q_identity(), v3(0, 0, 0), &keep, err, sizeof err) == GRIT_EIO);
    CHECK(strstr(err, "missing.stl: cannot open STL file") != NULL);
}

int main(void)
{
    snprintf(dir, sizeof dir, "/tmp/grit_test_stl_%d", (int)getpid());
    char cmd[300];
    snprintf(cmd, sizeof cmd, "mkdir -p %s", dir);
    if (system(cmd) != 0) return 2;
    RUN(ascii_file);
    RUN(transform);
    RUN(binary_file);
    RUN(malformed_files);
    RUN(read_without_scene);
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    if (system(cmd) != 0) return 2;
    TEST_MAIN_END();
}
