/* Loading spheres from CSV: a good file round-trips exactly; every kind of
 * bad input gives one error line naming file, line, field and value, and
 * adds nothing to the scene. */
#include <unistd.h>

#include "grit/grit.h"
#include "grit/io.h"
#include "test.h"

static char dir[256];

static const char *put(const char *name, const char *text)
{
    static char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    if (!f) {
        perror(path);
        exit(2);
    }
    fputs(text, f);
    fclose(f);
    return path;
}

static grit_scene *mk(int *mat)
{
    grit_scene *s = grit_scene_create(NULL);
    grit_frictmat_def m = grit_default_frictmat_def();
    *mat = grit_add_frictmat(s, &m);
    return s;
}

static void good_file(void)
{
    int m;
    grit_scene *s = mk(&m);
    grit_wall_def w = grit_default_wall_def();
    CHECK(grit_add_wall(s, &w) == 0); /* ids of loaded spheres start after it */
    const char *p = put("good.csv", "x,y,z,r\r\n1,2,3,0.5\r\n\r\n  -1.5e-3 , 0x1p-2,7,1e-3\n");
    int first = -1, count = -1;
    CHECK(grit_io_load_spheres_csv(s, p, m, &first, &count) == GRIT_OK);
    CHECK(first == 1 && count == 2);
    CHECK(grit_particle_count(s) == 3);
    grit_vec3 x;
    double r;
    grit_get_pos(s, 2, &x);
    grit_get_radius(s, 2, &r);
    CHECK(x.x == -1.5e-3 && x.y == 0.25 && x.z == 7 && r == 1e-3);
    grit_scene_destroy(s);
}

/* Lines starting with '#' (after blanks) are comments anywhere: before
 * the header (grit_packing_save writes how the file was made there) and
 * between rows; a '#' elsewhere is still an error. */
static void comments(void)
{
    int m;
    grit_scene *s = mk(&m);
    const char *p = put("comments.csv", "# grit packing: 2 spheres\n  # cell: 1 0 0 0 1 0 0 0 1\nx,y,z,r\n"
                                        "1,2,3,0.5\n# between rows\n\t#\n4,5,6,0.25\n");
    int first = -1, count = -1;
    CHECK(grit_io_load_spheres_csv(s, p, m, &first, &count) == GRIT_OK);
    CHECK(first == 0 && count == 2);
    grit_vec3 x;
    double r;
    grit_get_pos(s, 1, &x);
    grit_get_radius(s, 1, &r);
    CHECK(x.x == 4 && x.y == 5 && x.z == 6 && r == 0.25);
    grit_scene_destroy(s);
}

static void round_trip(void)
{
    int m;
    grit_scene *s = mk(&m);
    grit_sphere_def d = grit_default_sphere_def();
    for (int i = 0; i < 50; i++) {
        d.pos = v3(i / 3.0, -i * 1e-7 / 7.0, 1e5 / (i + 1));
        d.radius = 1e-3 * (1 + i / 11.0);
        grit_add_sphere(s, &d);
    }
    char path[512];
    snprintf(path, sizeof path, "%s/saved.csv", dir);
    CHECK(grit_io_save_spheres_csv(s, path) == GRIT_OK);
    int m2;
    grit_scene *s2 = mk(&m2);
    int n = 0;
    CHECK(grit_io_load_spheres_csv(s2, path, m2, NULL, &n) == GRIT_OK);
    CHECK(n == 50);
    for (int i = 0; i < 50; i++) {
        grit_vec3 a, b;
        double ra, rb;
        grit_get_pos(s, i, &a), grit_get_pos(s2, i, &b);
        grit_get_radius(s, i, &ra), grit_get_radius(s2, i, &rb);
        CHECK(a.x == b.x && a.y == b.y && a.z == b.z && ra == rb); /* bitwise: 17 digits */
    }
    grit_scene_destroy(s);
    grit_scene_destroy(s2);
}

/* The error must name the file, contain every `want` fragment, be one line,
 * and the scene must be unchanged. */
static void expect_error(const char *name, const char *text, const char *want1, const char *want2)
{
    int m;
    grit_scene *s = mk(&m);
    grit_sphere_def d = grit_default_sphere_def();
    d.radius = 1;
    grit_add_sphere(s, &d);
    const char *p = text ? put(name, text) : name;
    char path[512];
    snprintf(path, sizeof path, "%s", p);
    int first = 77, count = 77;
    int rc = grit_io_load_spheres_csv(s, path, m, &first, &count);
    const char *e = grit_last_error(s);
    CHECK(rc < 0);
    CHECK(strstr(e, path) != NULL);
    CHECK(strstr(e, want1) != NULL);
    CHECK(!want2 || strstr(e, want2) != NULL);
    CHECK(strchr(e, '\n') == NULL);
    CHECK(grit_particle_count(s) == 1);
    CHECK(first == 77 && count == 77);
    if (rc >= 0 || !strstr(e, want1) || (want2 && !strstr(e, want2))) fprintf(stderr, "  message: %s\n", e);
    grit_scene_destroy(s);
}

static void bad_files(void)
{
    /* every error comes after good rows: nothing of them may be added */
    expect_error("cols.csv", "x,y,z,r\n0,0,0,1\n1,2,3\n", ":3:", "found 3");
    expect_error("cols5.csv", "x,y,z,r\n0,0,0,1\n1,2,3,4,5\n", ":3:", "found 5");
    expect_error("word.csv", "x,y,z,r\n0,0,0,1\n1,abc,3,1\n", ":3: field 'y' (column 2)", "'abc'");
    expect_error("empty_field.csv", "x,y,z,r\n0,0,0,1\n1,,3,1\n", ":3: field 'y' (column 2)", "not a number");
    expect_error("trail.csv", "x,y,z,r\n0,0,0,1\n1,2,3,1mm\n", ":3: field 'r' (column 4)", "'1mm'");
    expect_error("zero_r.csv", "x,y,z,r\n0,0,0,1\n1,2,3,0\n", ":3: field 'r' (column 4) = '0'", "> 0");
    expect_error("neg_r.csv", "x,y,z,r\n0,0,0,1\n\n1,2,3,-1e-3\n", ":4: field 'r' (column 4) = '-1e-3'", "> 0");
    expect_error("nan_r.csv", "x,y,z,r\n0,0,0,1\n1,2,3,nan\n", ":3: field 'r' (column 4) = 'nan'", "finite");
    expect_error("inf_r.csv", "x,y,z,r\n0,0,0,1\n1,2,3,inf\n", ":3: field 'r' (column 4) = 'inf'", "finite");
    expect_error("nan_x.csv", "x,y,z,r\n0,0,0,1\nNaN,2,3,1\n", ":3: field 'x' (column 1) = 'NaN'", "finite");
    expect_error("huge.csv", "x,y,z,r\n0,0,0,1\n1,2,1e999,1\n", ":3: field 'z' (column 3) = '1e999'", NULL);
    expect_error("noheader.csv", "0,0,0,1\n", ":1: expected the header line", "'0,0,0,1'");
    expect_error("badheader.csv", "x,y,r,z\n0,0,0,1\n", ":1: expected the header line", "'x,y,r,z'");
    expect_error("empty.csv", "", "empty", NULL);
    expect_error("blank.csv", "\n  \n", "empty", NULL);
    expect_error("onlyheader.csv", "x,y,z,r\n", "no spheres", NULL);
    expect_error("onlycomments.csv", "# nothing\n#\n", "empty", NULL);
    expect_error("midhash.csv", "x,y,z,r\n0,0,0,1 # one\n", ":2: field 'r' (column 4)", "'1 # one'");
    char missing[512];
    snprintf(missing, sizeof missing, "%s/does-not-exist.csv", dir);
    expect_error(missing, NULL, "cannot open", "No such file");
}

static void bad_material(void)
{
    int m;
    grit_scene *s = mk(&m);
    const char *p = put("ok.csv", "x,y,z,r\n0,0,0,1\n");
    CHECK(grit_io_load_spheres_csv(s, p, m + 1, NULL, NULL) == GRIT_EINVAL);
    CHECK(strstr(grit_last_error(s), "material 1 does not exist") != NULL);
    CHECK(grit_particle_count(s) == 0);
    grit_scene_destroy(s);
}

static void save_unwritable(void)
{
    int m;
    grit_scene *s = mk(&m);
    char path[512];
    snprintf(path, sizeof path, "%s/no-such-dir/x.csv", dir);
    CHECK(grit_io_save_spheres_csv(s, path) == GRIT_EIO);
    CHECK(strstr(grit_last_error(s), "no-such-dir/x.csv") != NULL);
    grit_scene_destroy(s);
}

int main(void)
{
    snprintf(dir, sizeof dir, "/tmp/grit-test-io-csv-XXXXXX");
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        return 2;
    }
    RUN(good_file);
    RUN(comments);
    RUN(round_trip);
    RUN(bad_files);
    RUN(bad_material);
    RUN(save_unwritable);
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", dir);
    TEST_MAIN_END();
}
