/* grit: STL reader (ASCII and binary) -> facets.
 *
 * The whole file is parsed into a triangle list before anything is added,
 * so that a malformed file changes nothing. Binary or ASCII is decided by
 * the size: a binary file is exactly 84 + 50 N bytes with N the count at
 * byte 80 (many binary files start with "solid" too, so the text alone
 * cannot tell); anything else must be ASCII and start with "solid". */
#include <errno.h>
#include <stdarg.h>
#include <sys/stat.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/storage.h"
#include "core/text.h"
#include "grit/stl.h"

grit_stl_def grit_default_stl_def(void)
{
    return (grit_stl_def){.material = 0, .half_thick = 0.0, .scale = 1.0, .ori = q_identity(), .shift = v3(0, 0, 0),
                          .vel = v3(0, 0, 0), .mask = GRIT_MASK_BOUNDARY};
}

/* Where a parse error goes: the scene's message (grit_load_stl) or a
 * caller's buffer (grit_stl_read). */
typedef struct sink {
    char *err;
    size_t len;
} sink;

static int efail(sink *e, int code, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int efail(sink *e, int code, const char *fmt, ...)
{
    if (e->err && e->len) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(e->err, e->len, fmt, ap);
        va_end(ap);
    }
    return code;
}

typedef struct tri_list {
    grit_vec3 (*t)[3];
    int n, cap;
} tri_list;

static int tri_push(tri_list *l, const grit_vec3 v[3])
{
    if (l->n == l->cap) {
        int c = l->cap ? 2 * l->cap : 256;
        void *p = realloc(l->t, sizeof *l->t * (size_t)c);
        if (!p) return -1;
        l->t = p;
        l->cap = c;
    }
    memcpy(l->t[l->n++], v, sizeof(grit_vec3[3]));
    return 0;
}

static int read_file(sink *s, const char *path, char **buf, long *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) return efail(s, GRIT_EIO, "%s: cannot open STL file: %s", path, strerror(errno));
    /* a folder opens for reading on Linux and reports a huge size */
    struct stat st;
    if (fstat(fileno(f), &st) == 0 && !S_ISREG(st.st_mode)) {
        fclose(f);
        return efail(s, GRIT_EIO, "%s: cannot open STL file: %s", path,
                         S_ISDIR(st.st_mode) ? "it is a folder" : "not a regular file");
    }
    long n = -1;
    if (fseek(f, 0, SEEK_END) == 0) n = ftell(f);
    if (n < 0 || fseek(f, 0, SEEK_SET) != 0) {
        fclose(f);
        return efail(s, GRIT_EIO, "%s: cannot determine the file size", path);
    }
    char *b = malloc((size_t)n + 1);
    if (!b) {
        fclose(f);
        return efail(s, GRIT_ENOMEM, "%s: out of memory reading %ld bytes", path, n);
    }
    size_t got = fread(b, 1, (size_t)n, f);
    fclose(f);
    if ((long)got != n) {
        free(b);
        return efail(s, GRIT_EIO, "%s: read %zu of %ld bytes", path, got, n);
    }
    b[n] = '\0';
    *buf = b;
    *len = n;
    return 0;
}

/* ------------------------------------------------------------- binary */
static uint32_t le32(const unsigned char *p)
{
    return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) | ((uint32_t)p[3] << 24);
}

static double lefloat(const unsigned char *p)
{
    uint32_t u = le32(p);
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

static void header_name(const unsigned char *h, char out[81])
{
    int n = 0;
    for (int k = 0; k < 80 && h[k] >= 32 && h[k] < 127; k++) out[n++] = (char)h[k];
    while (n > 0 && out[n - 1] == ' ') n--;
    out[n] = '\0';
}

static int parse_binary(sink *s, const char *path, const unsigned char *b, uint32_t count, tri_list *l)
{
    const unsigned char *r = b + 84;
    for (uint32_t i = 0; i < count; i++, r += 50) {
        grit_vec3 v[3];
        for (int k = 0; k < 3; k++) {
            const unsigned char *q = r + 12 + 12 * k;
            v[k] = v3(lefloat(q), lefloat(q + 4), lefloat(q + 8));
            if (!v3_isfinite(v[k]))
                return efail(s, GRIT_EFORMAT, "%s: binary STL facet %u vertex %d is not finite (%g, %g, %g)", path,
                                 i, k, v[k].x, v[k].y, v[k].z);
        }
        if (tri_push(l, v)) return efail(s, GRIT_ENOMEM, "%s: out of memory at facet %u", path, i);
    }
    return 0;
}

/* -------------------------------------------------------------- ASCII */
typedef struct lexer {
    const char *p, *end, *path;
    long line;     /* line of the current position */
    long tok_line; /* line of the last token */
    const char *tok_start;
    size_t tok_len; /* the whole token, which tok holds only up to 63 bytes */
    char tok[64];
    char quoted[96]; /* tok as a message may show it */
} lexer;

/* Next whitespace-separated token into lx->tok (truncated); false at EOF. */
static bool next_token(lexer *lx)
{
    while (lx->p < lx->end && (*lx->p == ' ' || *lx->p == '\t' || *lx->p == '\r' || *lx->p == '\n')) {
        if (*lx->p == '\n') lx->line++;
        lx->p++;
    }
    if (lx->p >= lx->end) {
        lx->tok[0] = '\0';
        lx->tok_line = lx->line;
        return false;
    }
    lx->tok_line = lx->line;
    lx->tok_start = lx->p;
    size_t n = 0;
    while (lx->p < lx->end && !(*lx->p == ' ' || *lx->p == '\t' || *lx->p == '\r' || *lx->p == '\n')) {
        if (n + 1 < sizeof lx->tok) lx->tok[n++] = *lx->p;
        lx->p++;
    }
    lx->tok[n] = '\0';
    lx->tok_len = (size_t)(lx->p - lx->tok_start);
    grit_text_quote(lx->tok_start, lx->tok_len, lx->quoted, sizeof lx->quoted);
    return true;
}

/* The rest of the current line (a solid's name). */
static void rest_of_line(lexer *lx, char *out, size_t len)
{
    while (lx->p < lx->end && (*lx->p == ' ' || *lx->p == '\t')) lx->p++;
    size_t n = 0;
    while (lx->p < lx->end && *lx->p != '\n' && *lx->p != '\r') {
        if (out && n + 1 < len) out[n++] = *lx->p;
        lx->p++;
    }
    if (out) out[n] = '\0';
}

static int expect(sink *s, lexer *lx, const char *word)
{
    if (next_token(lx) && lx->tok_len < sizeof lx->tok && strcasecmp(lx->tok, word) == 0) return 0;
    if (!lx->tok[0])
        return efail(s, GRIT_EFORMAT, "%s:%ld: unexpected end of file, expected '%s'", lx->path, lx->tok_line, word);
    return efail(s, GRIT_EFORMAT, "%s:%ld: expected '%s', found '%s'", lx->path, lx->tok_line, word, lx->quoted);
}

static int number(sink *s, lexer *lx, const char *what, bool finite, double *out)
{
    if (!next_token(lx))
        return efail(s, GRIT_EFORMAT, "%s:%ld: unexpected end of file, expected %s", lx->path, lx->tok_line, what);
    /* the whole token: a number longer than tok (digits of a long decimal
     * expansion) was cut there and read as another value */
    char *heap = NULL, *text = lx->tok;
    if (lx->tok_len >= sizeof lx->tok) {
        if (!(heap = malloc(lx->tok_len + 1)))
            return efail(s, GRIT_ENOMEM, "%s:%ld: out of memory reading a %zu-byte %s", lx->path, lx->tok_line,
                         lx->tok_len, what);
        memcpy(heap, lx->tok_start, lx->tok_len);
        heap[lx->tok_len] = '\0';
        text = heap;
    }
    char *end;
    errno = 0;
    double v = strtod(text, &end);
    const bool whole = end != text && *end == '\0' && (size_t)(end - text) == lx->tok_len;
    const int range = errno;
    free(heap);
    if (!whole)
        return efail(s, GRIT_EFORMAT, "%s:%ld: %s '%s' is not a number", lx->path, lx->tok_line, what, lx->quoted);
    if (finite && (!isfinite(v) || (range == ERANGE && fabs(v) > 1)))
        return efail(s, GRIT_EFORMAT, "%s:%ld: %s '%s' is not finite", lx->path, lx->tok_line, what, lx->quoted);
    *out = v;
    return 0;
}

static int parse_ascii(sink *s, const char *path, const char *b, long len, tri_list *l, char name[81])
{
    lexer lx = {b, b + len, path, 1, 1, b, 0, "", ""};
    if (expect(s, &lx, "solid")) return GRIT_EFORMAT;
    rest_of_line(&lx, name, 81);
    static const char *const axis[3] = {"x", "y", "z"};
    for (;;) {
        if (!next_token(&lx))
            return efail(s, GRIT_EFORMAT, "%s:%ld: unexpected end of file, expected 'endsolid'", path, lx.tok_line);
        if (strcasecmp(lx.tok, "endsolid") == 0) {
            rest_of_line(&lx, NULL, 0);
            if (!next_token(&lx)) return 0;
            if (strcasecmp(lx.tok, "solid") != 0)
                return efail(s, GRIT_EFORMAT, "%s:%ld: expected 'solid' or the end of the file, found '%s'", path,
                                 lx.tok_line, lx.quoted);
            rest_of_line(&lx, NULL, 0);
            continue;
        }
        if (strcasecmp(lx.tok, "facet") != 0)
            return efail(s, GRIT_EFORMAT, "%s:%ld: expected 'facet' or 'endsolid', found '%s'", path, lx.tok_line,
                             lx.quoted);
        double x;
        if (expect(s, &lx, "normal")) return GRIT_EFORMAT;
        for (int k = 0; k < 3; k++) /* the normal is not used (facets are two-sided) but must be a number */
            if (number(s, &lx, "normal component", false, &x)) return GRIT_EFORMAT;
        if (expect(s, &lx, "outer") || expect(s, &lx, "loop")) return GRIT_EFORMAT;
        grit_vec3 v[3];
        for (int k = 0; k < 3; k++) {
            if (expect(s, &lx, "vertex")) return GRIT_EFORMAT;
            double c[3];
            for (int j = 0; j < 3; j++) {
                char what[32];
                snprintf(what, sizeof what, "vertex %s coordinate", axis[j]);
                if (number(s, &lx, what, true, &c[j])) return GRIT_EFORMAT;
            }
            v[k] = v3(c[0], c[1], c[2]);
        }
        if (expect(s, &lx, "endloop") || expect(s, &lx, "endfacet")) return GRIT_EFORMAT;
        if (tri_push(l, v)) return efail(s, GRIT_ENOMEM, "%s:%ld: out of memory", path, lx.tok_line);
    }
}

/* ------------------------------------------------------------ loading */
static int check_placement(sink *e, const char *path, double scale, grit_quat ori, grit_vec3 shift, grit_quat *q)
{
    if (!(scale > 0) || !isfinite(scale))
        return efail(e, GRIT_EINVAL, "%s: scale = %g must be positive and finite", path, scale);
    if (!v3_isfinite(shift)) return efail(e, GRIT_EINVAL, "%s: shift must be finite", path);
    double n = q_norm(ori);
    if (!isfinite(n) || !(n > 1e-12))
        return efail(e, GRIT_EINVAL, "%s: orientation (%g, %g, %g, %g) must be a finite nonzero quaternion", path,
                     ori.w, ori.x, ori.y, ori.z);
    *q = q_normalized(ori);
    return 0;
}

/* Same test as grit_add_facet: collinear vertices. */
static bool degenerate(const grit_vec3 v[3])
{
    grit_vec3 e1 = v3_sub(v[1], v[0]), e2 = v3_sub(v[2], v[0]);
    double scale = fmax(v3_norm2(e1), v3_norm2(e2));
    return !(v3_norm(v3_cross(e1, e2)) > 1e-12 * scale) || scale == 0;
}

/* Every triangle of the file, placed; nothing on error. */
static int read_mesh(sink *e, const char *path, double scale, grit_quat ori, grit_vec3 shift, grit_stl_mesh *m)
{
    grit_stl_mesh out = {0};
    grit_quat q = q_identity();
    if (check_placement(e, path, scale, ori, shift, &q)) return GRIT_EINVAL;
    char *buf = NULL;
    long len = 0;
    int rc = read_file(e, path, &buf, &len);
    if (rc) return rc;
    tri_list l = {NULL, 0, 0};
    const unsigned char *ub = (const unsigned char *)buf;
    uint32_t count = len >= 84 ? le32(ub + 80) : 0;
    if (len >= 84 && (uint64_t)len == 84 + 50 * (uint64_t)count) {
        out.binary = 1;
        header_name(ub, out.name);
        rc = parse_binary(e, path, ub, count, &l);
    } else {
        const char *p = buf;
        while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n') p++;
        if (strncasecmp(p, "solid", 5) != 0) {
            if (len >= 84)
                rc = efail(e, GRIT_EFORMAT,
                           "%s: neither binary STL (%ld bytes, but the header's facet count %u needs %llu) nor "
                           "ASCII STL (does not start with 'solid')",
                           path, len, count, 84ULL + 50ULL * count);
            else
                rc = efail(e, GRIT_EFORMAT, "%s: %ld bytes: too short for binary STL and not ASCII STL (no 'solid')",
                           path, len);
        } else if (memchr(buf, '\0', (size_t)len)) {
            rc = efail(e, GRIT_EFORMAT,
                       "%s: starts with 'solid' but holds binary data and its size %ld is not 84 + 50 x %u "
                       "(truncated binary STL?)",
                       path, len, count);
        } else {
            rc = parse_ascii(e, path, buf, len, &l, out.name);
        }
    }
    free(buf);
    if (rc) {
        free(l.t);
        return rc;
    }
    for (int i = 0; i < l.n; i++) { /* place every vertex first: refuse before adding anything */
        for (int k = 0; k < 3; k++) {
            grit_vec3 p = v3_add(shift, q_rotate(q, v3_scale(l.t[i][k], scale)));
            if (!v3_isfinite(p)) {
                free(l.t);
                return efail(e, GRIT_EINVAL, "%s: facet %d vertex %d is not finite after scale %g and shift", path, i,
                             k, scale);
            }
            l.t[i][k] = p;
        }
        if (degenerate(l.t[i])) out.n_degenerate++;
    }
    out.n = l.n;
    out.tri = l.t;
    *m = out;
    return 0;
}

int grit_stl_read(const char *path, double scale, grit_quat ori, grit_vec3 shift, grit_stl_mesh *mesh, char *err,
                  size_t errlen)
{
    sink e = {err, errlen};
    return read_mesh(&e, path, scale, ori, shift, mesh);
}

void grit_stl_mesh_free(grit_stl_mesh *m)
{
    if (!m) return;
    free(m->tri);
    *m = (grit_stl_mesh){0};
}

static int check_def(grit_scene *s, const char *path, const grit_stl_def *d)
{
    if (!(d->scale > 0) || !isfinite(d->scale))
        return grit_fail(s, GRIT_EINVAL, "%s: scale = %g must be positive and finite", path, d->scale);
    if (!(d->half_thick >= 0) || !isfinite(d->half_thick))
        return grit_fail(s, GRIT_EINVAL, "%s: half_thick = %g must be >= 0 and finite (m)", path, d->half_thick);
    if (!v3_isfinite(d->shift) || !v3_isfinite(d->vel))
        return grit_fail(s, GRIT_EINVAL, "%s: shift and velocity must be finite", path);
    grit_quat q;
    sink e = {s->err, sizeof s->err};
    if (check_placement(&e, path, d->scale, d->ori, d->shift, &q)) return GRIT_EINVAL;
    if (grit_check_material(s, "STL facets", d->material)) return GRIT_EINVAL;
    return 0;
}

/* Remove the particles (all facets) appended since n0 / nf0. */
static void roll_back(grit_scene *s, int n0, int nf0)
{
    for (int i = n0; i < s->b.n; i++) s->id2idx[s->b.id[i]] = -1;
    s->next_id -= s->b.n - n0; /* the ids appended last */
    s->b.n = n0;
    s->n_facets = nf0;
}

int grit_load_stl(grit_scene *s, const char *path, const grit_stl_def *def, grit_stl_info *info)
{
    grit_stl_info inf = {-1, 0, 0, 0, ""};
    sink e = {s->err, sizeof s->err};
    if (check_def(s, path, def)) return GRIT_EINVAL;
    grit_stl_mesh m;
    int rc = read_mesh(&e, path, def->scale, def->ori, def->shift, &m);
    if (rc) return rc;
    inf.binary = m.binary;
    memcpy(inf.name, m.name, sizeof inf.name);
    const int n0 = s->b.n, nf0 = s->n_facets;
    grit_facet_def fd = grit_default_facet_def();
    fd.half_thick = def->half_thick;
    fd.material = def->material;
    fd.vel = def->vel;
    fd.mask = def->mask;
    for (int i = 0; i < m.n; i++) {
        for (int k = 0; k < 3; k++) fd.v[k] = m.tri[i][k];
        if (degenerate(fd.v)) {
            inf.n_degenerate++;
            continue;
        }
        int id = grit_add_facet(s, &fd);
        if (id < 0) { /* out of memory (nothing else can fail here): leave the scene as it was */
            char msg[sizeof s->err];
            snprintf(msg, sizeof msg, "%s", s->err);
            roll_back(s, n0, nf0);
            grit_stl_mesh_free(&m);
            return grit_fail(s, id, "%s: facet %d: %s", path, i, msg);
        }
        if (inf.first_id < 0) inf.first_id = id;
        inf.n_facets++;
    }
    grit_stl_mesh_free(&m);
    if (info) *info = inf;
    return inf.n_facets;
}
