/* grit: spheres from and to CSV files `x,y,z,r` (metres; the header may
 * carry the unit, `x[m],y[m],z[m],r[m]`, as grit writes it); lines starting
 * with `#` are comments.
 *
 * The loader reads and checks the whole file before it adds anything, so a
 * bad row anywhere leaves the scene as it was. */
#include <ctype.h>
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/scene_impl.h"
#include "core/storage.h"
#include "core/text.h"
#include "grit/io.h"
#include "io/atomic_file.h"

static const char *const columns[4] = {"x", "y", "z", "r"};

typedef struct reader {
    grit_scene *s;
    const char *path;
    long line;
} reader;

/* Trim blanks (and a trailing CR) in place. */
static char *trim(char *t)
{
    while (isspace((unsigned char)*t)) t++;
    char *e = t + strlen(t);
    while (e > t && isspace((unsigned char)e[-1])) *--e = '\0';
    return t;
}

/* Split a line at commas into at most `cap` fields; returns the count (which
 * may exceed cap: the extra fields are counted, not stored). */
static int split(char *line, char **fields, int cap)
{
    int n = 0;
    for (char *p = line;;) {
        char *comma = strchr(p, ',');
        if (comma) *comma = '\0';
        if (n < cap) fields[n] = trim(p);
        n++;
        if (!comma) return n;
        p = comma + 1;
    }
}

/* A header field names the column, optionally with its unit: "x" or "x[m]"
 * (grit writes the units; lengths are in metres, so another unit is refused
 * rather than read as metres). */
static int check_header(reader *r, char *line)
{
    char *f[4];
    char copy[80];
    const char *t = trim(line);
    grit_text_quote(t, strlen(t), copy, sizeof copy);
    int n = split(line, f, 4);
    bool ok = n == 4;
    for (int k = 0; ok && k < 4; k++) {
        char *unit = strchr(f[k], '[');
        if (unit) *unit++ = '\0';
        ok = strcasecmp(trim(f[k]), columns[k]) == 0;
        if (ok && unit && strcmp(trim(unit), "m]") != 0)
            return grit_fail(r->s, GRIT_EFORMAT,
                             "%s:%ld: column '%s' is in [%s, not in metres: grit reads lengths in m ('%s' or '%s[m]')",
                             r->path, r->line, columns[k], unit, columns[k], columns[k]);
    }
    if (!ok)
        return grit_fail(r->s, GRIT_EFORMAT,
                         "%s:%ld: expected the header line 'x,y,z,r' (or with units 'x[m],y[m],z[m],r[m]'), found '%s'",
                         r->path, r->line, copy);
    return GRIT_OK;
}

static int parse_row(reader *r, char *line, double out[4])
{
    char *f[4];
    int n = split(line, f, 4);
    if (n != 4)
        return grit_fail(r->s, GRIT_EFORMAT, "%s:%ld: expected 4 fields (x,y,z,r), found %d", r->path, r->line, n);
    for (int k = 0; k < 4; k++) {
        char *end, q[64];
        errno = 0;
        double v = strtod(f[k], &end);
        grit_text_quote(f[k], strlen(f[k]), q, sizeof q);
        if (end == f[k] || *end != '\0')
            return grit_fail(r->s, GRIT_EFORMAT, "%s:%ld: field '%s' (column %d) = '%s' is not a number", r->path,
                             r->line, columns[k], k + 1, q);
        if (!isfinite(v) || (errno == ERANGE && fabs(v) > 1))
            return grit_fail(r->s, GRIT_EFORMAT, "%s:%ld: field '%s' (column %d) = '%s' must be finite", r->path,
                             r->line, columns[k], k + 1, q);
        if (errno == ERANGE || (v != 0 && fabs(v) < DBL_MIN))
            return grit_fail(r->s, GRIT_EFORMAT,
                             "%s:%ld: field '%s' (column %d) = '%s' is too small to compute with (nonzero below "
                             "2.2e-308 m)", r->path, r->line, columns[k], k + 1, q);
        if (k == 3 && !(v > 0))
            return grit_fail(r->s, GRIT_EFORMAT, "%s:%ld: field 'r' (column 4) = '%s': the radius must be > 0 (m)",
                             r->path, r->line, q);
        out[k] = v;
    }
    return GRIT_OK;
}

/* The most spheres one file may hold: the row array's size in bytes and the
 * particle count stay far from overflow. */
#define MAX_ROWS (1 << 28)

/* Read and check every row; on success *rows holds 4 doubles per sphere. */
static int read_all(reader *r, FILE *fp, double **rows, int *n_rows)
{
    char *line = NULL;
    size_t cap_line = 0;
    int n = 0, cap = 0, rc = GRIT_OK;
    bool header = false;
    double *v = NULL;
    ssize_t got;
    errno = 0;
    while ((got = getline(&line, &cap_line, fp)) >= 0) {
        r->line++;
        /* a NUL would end the line early for every string function: the rest
         * of the line (or the whole of a NUL block) silently skipped */
        const char *nul = memchr(line, '\0', (size_t)got);
        if (nul) {
            rc = grit_fail(r->s, GRIT_EFORMAT, "%s:%ld: a NUL byte at column %ld: not a text file (or a damaged one)",
                           r->path, r->line, (long)(nul - line) + 1);
            break;
        }
        const char *t = trim(line);
        if (*t == '\0' || *t == '#') continue; /* comments: how the file was made (grit_packing_save) */
        if (!header) {
            if ((rc = check_header(r, line))) break;
            header = true;
            continue;
        }
        if (n == MAX_ROWS) {
            rc = grit_fail(r->s, GRIT_EINVAL, "%s:%ld: more than %d spheres in one file", r->path, r->line, MAX_ROWS);
            break;
        }
        if (n == cap) {
            cap = cap ? 2 * cap : 1024;
            double *nv = realloc(v, sizeof *v * 4 * (size_t)cap);
            if (!nv) {
                rc = grit_fail(r->s, GRIT_ENOMEM, "%s:%ld: out of memory reading spheres", r->path, r->line);
                break;
            }
            v = nv;
        }
        if ((rc = parse_row(r, line, v + 4 * (size_t)n))) break;
        n++;
    }
    /* getline also stops on a line it cannot allocate: that is not the end of
     * the file, and the spheres after it must not be dropped */
    if (rc == GRIT_OK && (ferror(fp) || !feof(fp)))
        rc = grit_fail(r->s, errno == ENOMEM ? GRIT_ENOMEM : GRIT_EIO, "%s:%ld: read error: %s", r->path,
                       r->line + 1, strerror(errno ? errno : EIO));
    else if (rc == GRIT_OK && !header)
        rc = grit_fail(r->s, GRIT_EFORMAT, "%s: the file is empty; expected a header line 'x,y,z,r' and one sphere "
                                           "per line", r->path);
    else if (rc == GRIT_OK && n == 0)
        rc = grit_fail(r->s, GRIT_EFORMAT, "%s:%ld: no spheres after the header line 'x,y,z,r'", r->path, r->line);
    free(line);
    if (rc) {
        free(v);
        return rc;
    }
    *rows = v;
    *n_rows = n;
    return GRIT_OK;
}

int grit_io_load_spheres_csv(grit_scene *s, const char *path, int material, int *first_id, int *count)
{
    if (material < 0 || material >= grit_material_count(s))
        return grit_fail(s, GRIT_EINVAL, "loading '%s': material %d does not exist (%d defined)", path, material,
                         grit_material_count(s));
    FILE *fp = fopen(path, "r");
    if (!fp) return grit_fail(s, GRIT_EIO, "cannot open '%s': %s", path, strerror(errno));
    reader r = {s, path, 0};
    double *v = NULL;
    int n = 0;
    int rc = read_all(&r, fp, &v, &n);
    fclose(fp);
    if (rc) return rc;
    /* after the checks, only memory can fail: reserved first, so that the
     * adds below cannot stop half-way with some spheres added (found by
     * tests/oom) */
    if ((rc = grit_reserve_bodies(s, n))) {
        free(v);
        return rc;
    }
    grit_sphere_def d = grit_default_sphere_def();
    d.material = material;
    int first = -1;
    for (int i = 0; i < n; i++) {
        d.pos = v3(v[4 * i], v[4 * i + 1], v[4 * i + 2]);
        d.radius = v[4 * i + 3];
        /* rows were checked, so only running out of memory can fail here */
        int id = grit_add_sphere(s, &d);
        if (id < 0) {
            free(v);
            return id;
        }
        if (i == 0) first = id;
    }
    free(v);
    if (first_id) *first_id = first;
    if (count) *count = n;
    return GRIT_OK;
}

int grit_io_save_spheres_csv(const grit_scene *s, const char *path)
{
    grit_scene *sm = (grit_scene *)s; /* only for the error message */
    grit_afile a;
    if (grit_afile_open(&a, path, NULL, sm->err, sizeof sm->err)) return GRIT_EIO;
    fputs("x[m],y[m],z[m],r[m]\n", a.f);
    const int n = grit_particle_id_end(s); /* ids: deleted ones are not spheres any more */
    for (int id = 0; id < n; id++) { /* id order: the order of a loaded file */
        grit_vec3 p;
        double r;
        if (grit_live_shape(s, id) != GRIT_SHAPE_SPHERE) continue;
        grit_get_pos(s, id, &p);
        grit_get_radius(s, id, &r);
        fprintf(a.f, "%.17g,%.17g,%.17g,%.17g\n", p.x, p.y, p.z, r);
    }
    return grit_afile_commit(&a, sm->err, sizeof sm->err) ? GRIT_EIO : GRIT_OK;
}
