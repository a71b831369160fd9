/* VTK output: the files of a small scene (two spheres, a floor wall, a
 * facet) hold exactly the engine's values, in text and in base64 (decoded
 * here independently), the series index lists every frame, and no temporary
 * file is left. tools/check_vtk.py checks real runs with an XML parser and
 * VTK itself (cli tests). */
#include <dirent.h>
#include <stdint.h>
#include <unistd.h>

#include "grit/grit.h"
#include "grit/io.h"
#include "grit/shapes.h"
#include "test.h"

static char dir[256];

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *b = malloc((size_t)n + 1);
    size_t got = fread(b, 1, (size_t)n, f);
    b[got] = '\0';
    fclose(f);
    return b;
}

static int b64(char c)
{
    if (c >= 'A' && c <= 'Z') return c - 'A';
    if (c >= 'a' && c <= 'z') return c - 'a' + 26;
    if (c >= '0' && c <= '9') return c - '0' + 52;
    return c == '+' ? 62 : (c == '/' ? 63 : -1);
}

/* The values of DataArray `name` as doubles (either format); returns the
 * count, -1 if absent. */
static int array(const char *doc, const char *name, double *out, int cap)
{
    char key[64];
    snprintf(key, sizeof key, "Name=\"%s\"", name);
    const char *a = strstr(doc, key);
    if (!a) return -1;
    const char *type = strstr(a - 40, "type=\"") + 6;
    const bool f64 = !strncmp(type, "Float64", 7), i64 = !strncmp(type, "Int64", 5);
    const char *fa = strstr(a, "format=\"ascii\"");
    const bool ascii = fa && fa < strchr(a, '>');
    const char *p = strchr(a, '>') + 1, *end = strstr(p, "</DataArray>");
    int n = 0;
    if (ascii) {
        char *e;
        for (double v = strtod(p, &e); e != p && e <= end && n < cap; v = strtod(p, &e)) {
            out[n++] = v;
            p = e;
        }
        return n;
    }
    unsigned char *raw = malloc((size_t)(end - p));
    size_t nb = 0;
    unsigned acc = 0;
    int bits = 0;
    for (; p < end; p++) {
        int v = b64(*p);
        if (v < 0) continue; /* padding, line end */
        acc = (acc << 6) | (unsigned)v;
        if ((bits += 6) >= 8) {
            bits -= 8;
            raw[nb++] = (unsigned char)(acc >> bits);
        }
    }
    uint64_t bytes;
    memcpy(&bytes, raw, 8);
    const size_t size = f64 || i64 ? 8 : 1;
    CHECK(bytes + 8 == nb);
    for (size_t i = 0; i < bytes / size && n < cap; i++) {
        const unsigned char *q = raw + 8 + i * size;
        if (f64) memcpy(&out[n++], q, 8);
        else if (i64) {
            int64_t t;
            memcpy(&t, q, 8);
            out[n++] = (double)t;
        } else out[n++] = *q;
    }
    free(raw);
    return n;
}

static grit_scene *scene(int ids[4])
{
    grit_scene_def sd = grit_default_scene_def();
    sd.dt = 1e-6;
    grit_scene *s = grit_scene_create(&sd);
    grit_frictmat_def m = grit_default_frictmat_def();
    m.young = 1e7;
    int mat = grit_add_frictmat(s, &m);
    grit_wall_def w = grit_default_wall_def();
    w.material = mat;
    ids[0] = grit_add_wall(s, &w);
    grit_sphere_def d = grit_default_sphere_def();
    d.material = mat;
    d.radius = 0.1;
    d.pos = v3(0, 0, 0.099);
    ids[1] = grit_add_sphere(s, &d);
    d.pos = v3(0.19, 0, 0.099);
    d.vel = v3(0.5, 0.25, -1);
    ids[2] = grit_add_sphere(s, &d);
    grit_facet_def f = grit_default_facet_def();
    f.material = mat;
    f.v[0] = v3(0.28, -1, -0.5), f.v[1] = v3(0.28, 1, -0.5), f.v[2] = v3(0.28, 0, 1);
    ids[3] = grit_add_facet(s, &f);
    CHECK(grit_step(s, 1) == GRIT_OK);
    return s;
}

static void vec_at(const double *a, int i, grit_vec3 want, const char *what)
{
    if (a[3 * i] != want.x || a[3 * i + 1] != want.y || a[3 * i + 2] != want.z) {
        fprintf(stderr, "  %s[%d] = (%.17g %.17g %.17g), expected (%.17g %.17g %.17g)\n", what, i, a[3 * i],
                a[3 * i + 1], a[3 * i + 2], want.x, want.y, want.z);
        CHECK(!"vector differs");
    }
}

static double buf[64][64];

static void check_files(grit_scene *s, const int ids[4], const char *tag)
{
    char path[512];
    snprintf(path, sizeof path, "%s/p_%s.vtp", dir, tag);
    char *doc = slurp(path);
    CHECK(doc && strstr(doc, "<Piece NumberOfPoints=\"2\" NumberOfVerts=\"2\" NumberOfLines=\"0\" "
                             "NumberOfStrips=\"0\" NumberOfPolys=\"0\">"));
    CHECK(doc && strstr(doc, "<Verts>"));
    CHECK(array(doc, "Points", buf[0], 64) == 6);
    CHECK(array(doc, "id", buf[1], 64) == 2 && buf[1][0] == ids[1] && buf[1][1] == ids[2]);
    CHECK(array(doc, "radius", buf[2], 64) == 2 && buf[2][0] == 0.1 && buf[2][1] == 0.1);
    CHECK(array(doc, "velocity", buf[3], 64) == 6);
    CHECK(array(doc, "force", buf[4], 64) == 6);
    CHECK(array(doc, "angular_velocity", buf[5], 64) == 6 && array(doc, "torque", buf[6], 64) == 6);
    CHECK(array(doc, "offsets", buf[7], 64) == 2 && buf[7][0] == 1 && buf[7][1] == 2);
    CHECK(array(doc, "clump", buf[8], 64) == 2 && buf[8][0] == -1 && buf[8][1] == -1); /* no clump members */
    for (int i = 0; i < 2; i++) {
        grit_vec3 x, v, f;
        grit_get_pos(s, ids[1 + i], &x), grit_get_vel(s, ids[1 + i], &v), grit_get_force(s, ids[1 + i], &f);
        vec_at(buf[0], i, x, "particle position");
        vec_at(buf[3], i, v, "particle velocity");
        vec_at(buf[4], i, f, "particle force");
    }
    free(doc);

    snprintf(path, sizeof path, "%s/c_%s.vtp", dir, tag);
    doc = slurp(path);
    CHECK(grit_contact_count(s) == 4); /* A-B, A-floor, B-floor, B-facet */
    CHECK(doc && strstr(doc, "NumberOfPoints=\"8\" NumberOfVerts=\"0\" NumberOfLines=\"4\" "));
    CHECK(doc && strstr(doc, "<Lines>"));
    CHECK(array(doc, "Points", buf[0], 64) == 24);
    CHECK(array(doc, "id_a", buf[1], 64) == 4);
    CHECK(array(doc, "id_b", buf[2], 64) == 4);
    CHECK(array(doc, "fn", buf[3], 64) == 4);
    CHECK(array(doc, "force", buf[4], 64) == 12);
    CHECK(array(doc, "boundary", buf[5], 64) == 4);
    CHECK(array(doc, "overlap", buf[6], 64) == 4);
    CHECK(array(doc, "ft", buf[7], 64) == 4);
    CHECK(array(doc, "normal", buf[8], 64) == 12);
    CHECK(array(doc, "offsets", buf[9], 64) == 4 && buf[9][0] == 2 && buf[9][3] == 8);
    grit_contact_info c;
    int i = 0;
    for (int cur = 0; grit_contact_next(s, &cur, &c); i++) {
        CHECK(buf[1][i] == c.id_a && buf[2][i] == c.id_b);
        CHECK(buf[3][i] == -c.force.x && buf[3][i] > 0); /* compression positive */
        CHECK(buf[7][i] == hypot(c.force.y, c.force.z));
        CHECK(buf[6][i] == -c.uN && buf[6][i] > 0);
        vec_at(buf[4], i, c.force_global, "contact force");
        vec_at(buf[8], i, c.normal, "contact normal");
        const bool wall_or_facet = c.id_a == ids[0] || c.id_a == ids[3] || c.id_b == ids[3];
        CHECK(buf[5][i] == wall_or_facet);
        grit_vec3 pa = c.point, pb = c.point;
        if (c.id_a == ids[1] || c.id_a == ids[2]) grit_get_pos(s, c.id_a, &pa);
        if (c.id_b == ids[1] || c.id_b == ids[2]) grit_get_pos(s, c.id_b, &pb);
        vec_at(buf[0], 2 * i, pa, "contact line start");
        vec_at(buf[0], 2 * i + 1, pb, "contact line end");
    }
    CHECK(i == 4);
    free(doc);

    snprintf(path, sizeof path, "%s/b_%s.vtp", dir, tag);
    doc = slurp(path);
    CHECK(doc && strstr(doc, "NumberOfPoints=\"7\" NumberOfVerts=\"0\" NumberOfLines=\"0\" NumberOfStrips=\"0\" "
                             "NumberOfPolys=\"2\""));
    CHECK(array(doc, "Points", buf[0], 64) == 21);
    CHECK(array(doc, "connectivity", buf[1], 64) == 7 && buf[1][6] == 6);
    CHECK(array(doc, "shape", buf[2], 64) == 2 && buf[2][0] == GRIT_SHAPE_WALL && buf[2][1] == GRIT_SHAPE_FACET);
    CHECK(array(doc, "offsets", buf[3], 64) == 2 && buf[3][0] == 4 && buf[3][1] == 7);
    CHECK(array(doc, "force", buf[4], 64) == 6);
    /* box of spheres and facet: x [-0.1, xB + 0.1], y [-1, 1], z [-0.5, 1];
     * padded by 5 % of the largest side (2 m) */
    grit_vec3 xb;
    grit_get_pos(s, ids[2], &xb);
    const double quad[4][2] = {{-0.2, -1.1}, {xb.x + 0.2, -1.1}, {xb.x + 0.2, 1.1}, {-0.2, 1.1}};
    for (int k = 0; k < 4; k++) {
        CHECK_ABS(buf[0][3 * k], quad[k][0], 1e-15);
        CHECK_ABS(buf[0][3 * k + 1], quad[k][1], 1e-15);
        CHECK(buf[0][3 * k + 2] == 0.0);
    }
    grit_vec3 fv[3];
    double half_thick;
    grit_get_facet(s, ids[3], fv, &half_thick);
    for (int k = 0; k < 3; k++) vec_at(buf[0], 4 + k, fv[k], "facet vertex");
    grit_vec3 fw, ff;
    grit_get_force(s, ids[0], &fw), grit_get_force(s, ids[3], &ff);
    vec_at(buf[4], 0, fw, "wall force");
    vec_at(buf[4], 1, ff, "facet force");
    CHECK(fw.z < 0); /* the sphere pushes the floor down */
    free(doc);
}

static void single_files(void)
{
    int ids[4];
    grit_scene *s = scene(ids);
    const char *tags[2] = {"bin", "txt"};
    for (int f = 0; f < 2; f++) {
        char p[512];
        grit_vtk_format fmt = f ? GRIT_VTK_ASCII : GRIT_VTK_BINARY;
        snprintf(p, sizeof p, "%s/p_%s.vtp", dir, tags[f]);
        CHECK(grit_vtk_write_particles(s, p, fmt) == GRIT_OK);
        snprintf(p, sizeof p, "%s/c_%s.vtp", dir, tags[f]);
        CHECK(grit_vtk_write_contacts(s, p, fmt) == GRIT_OK);
        snprintf(p, sizeof p, "%s/b_%s.vtp", dir, tags[f]);
        CHECK(grit_vtk_write_shapes(s, p, fmt) == GRIT_OK);
        test_current = tags[f];
        check_files(s, ids, tags[f]);
        test_current = "single_files";
    }
    char p[512];
    snprintf(p, sizeof p, "%s/nowhere/p.vtp", dir);
    CHECK(grit_vtk_write_particles(s, p, GRIT_VTK_BINARY) == GRIT_EIO);
    CHECK(strstr(grit_last_error(s), "nowhere/p.vtp") != NULL);
    grit_scene_destroy(s);
}

/* Every shape that is not a sphere is drawn: the cells of a finite shape
 * are exactly its tessellation, an infinite cylinder is cut to the box of
 * the rest. */
static void every_shape(void)
{
    grit_scene *s = grit_scene_create(NULL);
    grit_frictmat_def fm = grit_default_frictmat_def();
    int mat = grit_add_frictmat(s, &fm);
    int ids[6];
    grit_wall_def w = grit_default_wall_def();
    w.material = mat;
    ids[0] = grit_add_wall(s, &w);
    grit_facet_def f = grit_default_facet_def();
    f.material = mat;
    f.half_thick = 0.01; /* a prism */
    ids[1] = grit_add_facet(s, &f);
    grit_capsule_def c = grit_default_capsule_def();
    c.material = mat, c.radius = 0.1, c.shaft = 0.3, c.pos = v3(1, 0, 0.5);
    ids[2] = grit_add_capsule(s, &c);
    grit_ellipsoid_def e = grit_default_ellipsoid_def();
    e.material = mat, e.semi_axes = v3(0.1, 0.2, 0.3), e.pos = v3(-1, 0, 0.5);
    ids[3] = grit_add_ellipsoid(s, &e);
    grit_rod_def r = grit_default_rod_def();
    r.material = mat, r.radius = 0.05, r.p[0] = v3(0, 1, 0.2), r.p[1] = v3(0, 2, 0.2);
    ids[4] = grit_add_rod(s, &r);
    grit_infcylinder_def ic = grit_default_infcylinder_def();
    ic.material = mat, ic.axis = 0, ic.radius = 0.05, ic.pos = v3(50, -1, 1); /* node far along its axis */
    ids[5] = grit_add_infcylinder(s, &ic);
    for (int k = 0; k < 6; k++) CHECK(ids[k] == k);
    char path[512];
    snprintf(path, sizeof path, "%s/shapes.vtp", dir);
    CHECK(grit_vtk_write_shapes(s, path, GRIT_VTK_ASCII) == GRIT_OK);
    char *doc = slurp(path);
    static double shape[4096], id[4096], pts[3 * 4096];
    const int ncells = array(doc, "shape", shape, 4096);
    CHECK(array(doc, "id", id, 4096) == ncells);
    const int npts = array(doc, "Points", pts, 3 * 4096) / 3;
    int cells[6] = {0};
    for (int i = 0; i < ncells; i++) {
        CHECK(id[i] >= 0 && id[i] < 6 && shape[i] == grit_get_shape(s, (int)id[i]));
        cells[(int)id[i]]++;
    }
    CHECK(cells[0] == 1); /* the wall's quad */
    for (int k = 1; k < 5; k++) {
        grit_trimesh m;
        CHECK(grit_shape_tessellate(s, ids[k], 16, 1.0, &m) == GRIT_OK);
        CHECK(cells[k] == m.nt && m.nt > 0);
        grit_trimesh_free(&m);
    }
    CHECK(cells[1] == 8); /* a thick facet: a prism of 8 triangles */
    CHECK(cells[5] > 0);
    /* the bounded shapes span x in [-1.1, 1.25] (ellipsoid, capsule): the
     * cylinder along x, whose node is at x = 50, is drawn across them */
    double xmin = INFINITY, xmax = -INFINITY;
    for (int i = 0; i < npts; i++)
        if (fabs(pts[3 * i + 1] + 1) <= 0.05 + 1e-12 && fabs(pts[3 * i + 2] - 1) <= 0.05 + 1e-12) {
            xmin = fmin(xmin, pts[3 * i]);
            xmax = fmax(xmax, pts[3 * i]);
        }
    CHECK(xmin <= -1.1 && xmax >= 1.35);
    free(doc);
    grit_scene_destroy(s);
}

static int count_files(const char *suffix)
{
    DIR *d = opendir(dir);
    int n = 0;
    for (struct dirent *e; (e = readdir(d));) {
        size_t l = strlen(e->d_name), m = strlen(suffix);
        n += l >= m && !strcmp(e->d_name + l - m, suffix);
    }
    closedir(d);
    return n;
}

static void series_and_energy(void)
{
    int ids[4];
    grit_scene *s = scene(ids);
    grit_vtk_series *v = grit_vtk_series_create(dir, GRIT_VTK_BINARY);
    char path[512];
    snprintf(path, sizeof path, "%s/energy.csv", dir);
    char stats[512];
    snprintf(stats, sizeof stats, "%s/stats.csv", dir);
    grit_energy_log *e = grit_energy_log_open(s, path, stats);
    CHECK(v && e);
    for (int k = 0; k < 3; k++) {
        CHECK(grit_vtk_series_write(v, s) == GRIT_OK);
        CHECK(grit_energy_log_row(e, s) == GRIT_OK);
        grit_step(s, 5);
    }
    CHECK(grit_vtk_series_write(v, s) == GRIT_OK);
    CHECK(grit_vtk_series_write(v, s) == GRIT_OK); /* same step: replaces, no new frame */
    CHECK(grit_vtk_series_frames(v) == 4);
    snprintf(path, sizeof path, "%s/energy.csv", dir);
    CHECK(access(path, F_OK) != 0); /* not complete yet: only energy.csv.partial */
    CHECK(grit_energy_log_close(e, s, true) == GRIT_OK);
    char *csv = slurp(path);
    char head[512] = "step,time[s]"; /* units in brackets, none for the dimensionless */
    for (int k = 0; k < GRIT_E_COUNT; k++)
        snprintf(head + strlen(head), sizeof head - strlen(head), ",%s[J]", grit_energy_name(k));
    strcat(head, ",total[J],rel_error\n1,");
    CHECK(csv && !strncmp(csv, head, strlen(head)));
    CHECK(strstr(head, ",kinetic[J],") && strstr(head, ",broken[J],"));
    free(csv);
    csv = slurp(stats); /* the first row: step 1, 4 contacts */
    const char *row1 = "step,time[s],dt[s],contacts,potential_pairs,rebuilds,sorts\n1,9.9999999999999995e-07,"
                       "9.9999999999999995e-07,4,";
    CHECK(csv && !strncmp(csv, row1, strlen(row1)));
    int rows = 0;
    for (char *c = csv; c && *c; c++) rows += *c == '\n';
    CHECK(rows == 4);
    free(csv);
    snprintf(path, sizeof path, "%s/contacts.pvd", dir);
    char *pvd = slurp(path);
    CHECK(pvd && strstr(pvd, "timestep=\"9.9999999999999995e-07\" group=\"\" part=\"0\" "
                             "file=\"contacts_000000001.vtp\""));
    CHECK(pvd && strstr(pvd, "file=\"contacts_000000016.vtp\""));
    int n = 0;
    for (const char *c = pvd; c && (c = strstr(c, "<DataSet")); c++) n++;
    CHECK(n == 4);
    free(pvd);
    CHECK(count_files(".pvd") == 3);
    CHECK(count_files(".tmp") == 0 && count_files(".partial") == 0);
    grit_vtk_series_destroy(v);
    grit_scene_destroy(s);
}

int main(void)
{
    snprintf(dir, sizeof dir, "/tmp/grit-test-io-vtk-XXXXXX");
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        return 2;
    }
    RUN(single_files);
    RUN(series_and_energy);
    RUN(every_shape);
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", dir);
    TEST_MAIN_END();
}
