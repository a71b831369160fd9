/* grit: packings as data -- freeing, measuring, saving and loading.
 *
 * A packing file is the spheres CSV of grit_io_load_spheres_csv with
 * comment lines before the header:
 *
 *   # grit packing: 2000 spheres in a periodic cell
 *   # cell: Hxx Hxy Hxz Hyx Hyy Hyz Hzx Hzy Hzz      (periodic only, m)
 *   # figures: volume=... solid_fraction=... pressure=... unbalanced=... steps=...
 *   # made by: pack n=2000 radius=0.001 ...          (one per info line)
 *   x[m],y[m],z[m],r[m]
 *
 * so that any scene loads it as spheres and grit_packing_load gets the cell
 * and the history back. Loading goes through grit_io_load_spheres_csv (one
 * parser, one set of messages). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "grit/io.h"
#include "io/atomic_file.h"
#include "pack/pack_impl.h"

void grit_packing_free(grit_packing *p)
{
    if (!p) return;
    free(p->center);
    free(p->radius);
    free(p->info);
    *p = (grit_packing){0};
}

double grit_packing_sphere_volume(const grit_packing *p)
{
    double v = 0;
    for (int i = 0; i < p->n; i++) v += 4.0 / 3.0 * M_PI * p->radius[i] * p->radius[i] * p->radius[i];
    return v;
}

/* ---- overlaps ------------------------------------------------------------- */
static bool diagonal(const double H[3][3])
{
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            if (i != j && H[i][j] != 0) return false;
    return true;
}

typedef struct worst {
    double ov;
    int a, b;
} worst;

static void pair(const grit_packing *p, int i, int j, grit_vec3 d, worst *w)
{
    const double s = p->radius[i] + p->radius[j], d2 = v3_norm2(d);
    if (d2 >= s * s) return;
    const double ov = (s - sqrt(d2)) / fmin(p->radius[i], p->radius[j]);
    if (ov > w->ov) *w = (worst){ov, i < j ? i : j, i < j ? j : i};
}

/* Every pair once, over the 27 images nearest to the minimum image: any H. */
static void overlaps_brute(const grit_packing *p, worst *w)
{
    const double(*H)[3] = (const double(*)[3])p->cell;
    for (int i = 0; i < p->n; i++)
        for (int j = i + 1; j < p->n; j++) {
            const grit_vec3 d = v3_sub(p->center[j], p->center[i]);
            if (!p->periodic) {
                pair(p, i, j, d, w);
                continue;
            }
            for (int a = -1; a <= 1; a++)
                for (int b = -1; b <= 1; b++)
                    for (int c = -1; c <= 1; c++)
                        pair(p, i, j,
                             v3(d.x + H[0][0] * a + H[0][1] * b + H[0][2] * c,
                                d.y + H[1][0] * a + H[1][1] * b + H[1][2] * c,
                                d.z + H[2][0] * a + H[2][1] * b + H[2][2] * c),
                             w);
        }
}

double grit_packing_max_overlap(const grit_packing *p, int *a, int *b)
{
    worst w = {0, -1, -1};
    double rmax = 0;
    grit_vec3 lo = v3(INFINITY, INFINITY, INFINITY), hi = v3(-INFINITY, -INFINITY, -INFINITY);
    for (int i = 0; i < p->n; i++) {
        rmax = fmax(rmax, p->radius[i]);
        lo = v3(fmin(lo.x, p->center[i].x), fmin(lo.y, p->center[i].y), fmin(lo.z, p->center[i].z));
        hi = v3(fmax(hi.x, p->center[i].x), fmax(hi.y, p->center[i].y), fmax(hi.z, p->center[i].z));
    }
    /* a grid of bins at least one largest diameter wide; periodic cells that
     * are not boxes, and small sets, go through the images by brute force */
    const bool per = p->periodic;
    double ext[3] = {hi.x - lo.x, hi.y - lo.y, hi.z - lo.z};
    if (per) {
        if (!diagonal((const double(*)[3])p->cell)) ext[0] = 0;
        else ext[0] = p->cell[0][0], ext[1] = p->cell[1][1], ext[2] = p->cell[2][2], lo = v3(0, 0, 0);
    }
    int m[3];
    for (int k = 0; k < 3; k++) {
        const double q = floor(ext[k] / (2 * rmax * 1.0000001));
        m[k] = q < 3 ? 1 : (q > 256 ? 256 : (int)q);
        if (per && m[k] == 1) ext[0] = 0;
    }
    if (p->n < 64 || (per && ext[0] == 0) || rmax == 0) {
        overlaps_brute(p, &w);
        goto out;
    }
    const size_t nb = (size_t)m[0] * m[1] * m[2];
    int *head = malloc(sizeof *head * nb), *next = malloc(sizeof *next * (size_t)p->n), *bin = NULL;
    bin = malloc(sizeof *bin * 3 * (size_t)p->n);
    if (!head || !next || !bin) { /* no memory for the grid: slow but right */
        free(head), free(next), free(bin);
        overlaps_brute(p, &w);
        goto out;
    }
    for (size_t k = 0; k < nb; k++) head[k] = -1;
    const double c0[3] = {lo.x, lo.y, lo.z};
    for (int i = 0; i < p->n; i++) {
        const double x[3] = {p->center[i].x, p->center[i].y, p->center[i].z};
        for (int k = 0; k < 3; k++) {
            double f = (x[k] - c0[k]) / ext[k];
            if (per) f -= floor(f);
            int q = (int)(f * m[k]);
            bin[3 * i + k] = q < 0 ? 0 : (q >= m[k] ? m[k] - 1 : q);
        }
        const size_t k = ((size_t)bin[3 * i] * m[1] + bin[3 * i + 1]) * m[2] + bin[3 * i + 2];
        next[i] = head[k];
        head[k] = i;
    }
    for (int i = 0; i < p->n; i++)
        for (int dx = -1; dx <= 1; dx++)
            for (int dy = -1; dy <= 1; dy++)
                for (int dz = -1; dz <= 1; dz++) {
                    int q[3] = {bin[3 * i] + dx, bin[3 * i + 1] + dy, bin[3 * i + 2] + dz};
                    bool skip = false;
                    for (int k = 0; k < 3; k++) {
                        if (m[k] == 1 && q[k] != bin[3 * i + k]) skip = true; /* one bin: visit once */
                        if (per) q[k] = (q[k] + m[k]) % m[k];
                        else if (q[k] < 0 || q[k] >= m[k]) skip = true;
                    }
                    if (skip) continue;
                    for (int j = head[((size_t)q[0] * m[1] + q[1]) * m[2] + q[2]]; j >= 0; j = next[j]) {
                        if (j <= i) continue;
                        grit_vec3 d = v3_sub(p->center[j], p->center[i]);
                        if (per) {
                            d.x -= ext[0] * nearbyint(d.x / ext[0]);
                            d.y -= ext[1] * nearbyint(d.y / ext[1]);
                            d.z -= ext[2] * nearbyint(d.z / ext[2]);
                        }
                        pair(p, i, j, d, &w);
                    }
                }
    free(head), free(next), free(bin);
out:
    if (a) *a = w.a;
    if (b) *b = w.b;
    return w.ov;
}

/* ---- files ---------------------------------------------------------------- */
int grit_packing_save(const grit_packing *p, const char *path, char *err, size_t errlen)
{
    if (p->n < 1) return pack_fail(err, errlen, GRIT_EINVAL, "%s: the packing holds no sphere", path);
    grit_afile a;
    if (grit_afile_open(&a, path, NULL, err, errlen)) return GRIT_EIO;
    FILE *f = a.f;
    fprintf(f, "# grit packing: %d spheres %s\n", p->n, p->periodic ? "in a periodic cell" : "cut to a region");
    if (p->periodic) {
        fprintf(f, "# cell:");
        for (int i = 0; i < 3; i++)
            for (int j = 0; j < 3; j++) fprintf(f, " %.17g", p->cell[i][j]);
        fputc('\n', f);
    }
    fprintf(f, "# figures: volume=%.17g solid_fraction=%.17g pressure=%.17g unbalanced=%.17g steps=%ld\n", p->volume,
            p->solid_fraction, p->pressure, p->unbalanced, p->steps);
    for (const char *s = p->info; s && *s;) {
        const char *e = strchr(s, '\n');
        const int len = e ? (int)(e - s) : (int)strlen(s);
        fprintf(f, "# made by: %.*s\n", len, s);
        s += len + (e ? 1 : 0);
    }
    fputs("x[m],y[m],z[m],r[m]\n", f); /* the spheres CSV's header (src/io/csv_spheres.c) */
    for (int i = 0; i < p->n; i++)
        fprintf(f, "%.17g,%.17g,%.17g,%.17g\n", p->center[i].x, p->center[i].y, p->center[i].z, p->radius[i]);
    return grit_afile_commit(&a, err, errlen) ? GRIT_EIO : GRIT_OK;
}

/* The text after "key=" in a line of key=value words, or NULL. */
static const char *value_of(const char *line, const char *key)
{
    const size_t k = strlen(key);
    for (const char *s = line; (s = strstr(s, key)); s++)
        if ((s == line || s[-1] == ' ') && s[k] == '=') return s + k + 1;
    return NULL;
}

/* The number after "key=" in a '# figures:' line into *out (left alone
 * when the key is absent); an error naming file, line and field when it
 * is not a number (nan is one: a figure not measured). */
static int figure(const char *line, const char *key, const char *path, long no, double *out, char *err,
                  size_t errlen)
{
    const char *v = value_of(line, key);
    if (!v) return GRIT_OK;
    char *end;
    const double x = strtod(v, &end);
    if (end == v || (*end != '\0' && *end != ' ')) {
        const int len = (int)strcspn(v, " ");
        return pack_fail(err, errlen, GRIT_EFORMAT, "%s:%ld: '# figures:' field %s = '%.*s' is not a number", path,
                         no, key, len > 40 ? 40 : len, v);
    }
    *out = x;
    return GRIT_OK;
}

static int parse_comments(FILE *fp, const char *path, grit_packing *p, char *err, size_t errlen)
{
    char *line = NULL;
    size_t cap = 0;
    long no = 0;
    int rc = GRIT_OK;
    while (rc == GRIT_OK && getline(&line, &cap, fp) >= 0) {
        no++;
        char *s = line;
        while (*s == ' ' || *s == '\t') s++;
        if (*s == '\0' || *s == '\n' || *s == '\r') continue;
        if (*s != '#') break; /* the header: comments of interest come first */
        s[strcspn(s, "\r\n")] = '\0';
        if (!strncmp(s, "# cell:", 7)) {
            char *q = s + 7, *end;
            for (int k = 0; k < 9; k++, q = end) {
                errno = 0;
                const double v = strtod(q, &end);
                if (end == q || !isfinite(v)) {
                    rc = pack_fail(err, errlen, GRIT_EFORMAT, "%s:%ld: '# cell:' needs 9 finite numbers (H by rows, m)",
                                   path, no);
                    break;
                }
                p->cell[k / 3][k % 3] = v;
            }
            p->periodic = rc == GRIT_OK;
        } else if (!strncmp(s, "# figures:", 10)) {
            static const char *const key[4] = {"volume", "solid_fraction", "pressure", "unbalanced"};
            double *dst[4] = {&p->volume, &p->solid_fraction, &p->pressure, &p->unbalanced};
            for (int k = 0; k < 4 && rc == GRIT_OK; k++)
                if (figure(s, key[k], path, no, dst[k], err, errlen)) rc = GRIT_EFORMAT;
            double steps = (double)p->steps;
            if (rc == GRIT_OK && figure(s, "steps", path, no, &steps, err, errlen)) rc = GRIT_EFORMAT;
            if (rc == GRIT_OK && !(steps >= 0 && steps <= 1e15 && steps == floor(steps)))
                rc = pack_fail(err, errlen, GRIT_EFORMAT, "%s:%ld: '# figures:' steps = %g is not a count of steps",
                               path, no, steps);
            if (rc == GRIT_OK) p->steps = (long)steps;
        } else if (!strncmp(s, "# made by: ", 11)) {
            if (pack_info_append(p, s + 11)) rc = pack_fail(err, errlen, GRIT_ENOMEM, "%s: out of memory", path);
        }
    }
    free(line);
    return rc;
}

int grit_packing_load(const char *path, grit_packing *out, char *err, size_t errlen)
{
    grit_packing p = {0};
    p.volume = p.solid_fraction = p.pressure = p.unbalanced = NAN;
    grit_scene *s = grit_scene_create(NULL);
    if (!s) return pack_fail(err, errlen, GRIT_ENOMEM, "%s: %s", path, grit_create_error());
    const grit_frictmat_def md = grit_default_frictmat_def();
    int first = 0, n = 0, rc = grit_add_frictmat(s, &md);
    if (rc >= 0) rc = grit_io_load_spheres_csv(s, path, rc, &first, &n);
    if (rc < 0) {
        rc = pack_fail(err, errlen, rc, "%s", grit_last_error(s));
        goto done;
    }
    FILE *fp = fopen(path, "r");
    if (!fp) {
        rc = pack_fail(err, errlen, GRIT_EIO, "cannot open '%s': %s", path, strerror(errno));
        goto done;
    }
    rc = parse_comments(fp, path, &p, err, errlen);
    fclose(fp);
    if (rc) goto done;
    p.n = n;
    p.center = malloc(sizeof *p.center * (size_t)n);
    p.radius = malloc(sizeof *p.radius * (size_t)n);
    if (!p.center || !p.radius) {
        rc = pack_fail(err, errlen, GRIT_ENOMEM, "%s: out of memory for %d spheres", path, n);
        goto done;
    }
    for (int i = 0; i < n; i++) {
        grit_get_pos(s, first + i, &p.center[i]);
        grit_get_radius(s, first + i, &p.radius[i]);
    }
    if (p.periodic) {
        const double(*H)[3] = (const double(*)[3])p.cell;
        const double det = H[0][0] * (H[1][1] * H[2][2] - H[1][2] * H[2][1]) -
                           H[0][1] * (H[1][0] * H[2][2] - H[1][2] * H[2][0]) +
                           H[0][2] * (H[1][0] * H[2][1] - H[1][1] * H[2][0]);
        if (!(det > 0)) {
            rc = pack_fail(err, errlen, GRIT_EFORMAT, "%s: the cell's volume det H = %g is not positive", path, det);
            goto done;
        }
        p.volume = det;
    }
    if (isfinite(p.volume) && p.volume > 0) p.solid_fraction = grit_packing_sphere_volume(&p) / p.volume;
    *out = p;
    p = (grit_packing){0};
done:
    grit_packing_free(&p);
    grit_scene_destroy(s);
    return rc < 0 ? rc : GRIT_OK;
}
