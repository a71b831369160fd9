/* grit: the law tester's record -- rows of the tester state every N steps,
 * kept in memory (for arrays) and written as CSV (for plots). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/storage.h"
#include "tester/tester_impl.h"

static const char *const fixed[] = {
    "step", "time", "stage", "stage_step", "contact", "dist", "u0", "u1", "u2", "u3", "u4", "u5", "f0", "f1",
    "f2",   "f3",   "f4",    "f5",         "v0",      "v1",   "v2", "v3", "v4", "v5", "k0", "k1", "k2", "k3",
    "k4",   "k5",   "work",  "bounces"};
enum { N_FIXED = sizeof fixed / sizeof fixed[0] };
/* The CSV header's units (grit.records reads them); translations and forces
 * on DoFs 0-2, rotations and torques on 3-5; "" dimensionless. */
static const char *const fixed_units[N_FIXED] = {
    "",    "s",   "",    "",    "",    "m",    "m",       "m",       "m",       "rad",     "rad",
    "rad", "N",   "N",   "N",   "N m", "N m",  "N m",     "m/s",     "m/s",     "m/s",     "rad/s",
    "rad/s", "rad/s", "N/m", "N/m", "N/m", "N m/rad", "N m/rad", "N m/rad", "J", ""};

int grit_tester_record_columns(const grit_tester *t)
{
    (void)t;
    return N_FIXED + GRIT_E_COUNT;
}

const char *grit_tester_record_column_name(const grit_tester *t, int col)
{
    if (col < 0 || col >= grit_tester_record_columns(t)) return NULL;
    return col < N_FIXED ? fixed[col] : grit_energy_name(col - N_FIXED);
}

long grit_tester_record_rows(const grit_tester *t) { return t->rows; }
const double *grit_tester_record_data(const grit_tester *t) { return t->rec; }

int grit_tester_record_row(grit_tester *t)
{
    const grit_scene *s = t->s;
    const grit_tester_state *st = &t->st;
    if (t->rows == t->cap_rows) {
        long cap = t->cap_rows ? 2 * t->cap_rows : 256;
        if (cap > (long)(0x7fffffff / t->cols) ||
            grit_grow((void **)&t->rec, sizeof(double) * (size_t)t->cols, (int)cap))
            return grit_fail(t->s, GRIT_ENOMEM, "tester: out of memory for the record (%ld rows)", t->rows);
        t->cap_rows = cap;
    }
    double *r = t->rec + (size_t)t->rows * (size_t)t->cols;
    int c = 0;
    r[c++] = (double)s->step;
    r[c++] = s->time;
    r[c++] = st->stage;
    r[c++] = (double)st->stage_step;
    r[c++] = st->has_contact;
    r[c++] = st->dist;
    const double *vecs[4] = {st->u, st->f, st->v, st->k};
    for (int a = 0; a < 4; a++)
        for (int j = 0; j < 6; j++) r[c++] = vecs[a][j];
    r[c++] = st->work;
    r[c++] = st->bounces;
    for (int e = 0; e < GRIT_E_COUNT; e++) r[c++] = s->energy[e];
    t->rows++;
    return GRIT_OK;
}

int grit_tester_write_csv(const grit_tester *t, const char *path)
{
    grit_scene *s = t->s;
    FILE *f = fopen(path, "w");
    if (!f) return grit_fail(s, GRIT_EIO, "tester: cannot open '%s' for writing", path);
    for (int c = 0; c < t->cols; c++) {
        const char *unit = c < N_FIXED ? fixed_units[c] : "J"; /* then the energy entries */
        fprintf(f, "%s%s%s%s%s", c ? "," : "", grit_tester_record_column_name(t, c), *unit ? "[" : "", unit,
                *unit ? "]" : "");
    }
    fputc('\n', f);
    for (long i = 0; i < t->rows; i++) {
        const double *r = t->rec + (size_t)i * (size_t)t->cols;
        for (int c = 0; c < t->cols; c++) fprintf(f, "%s%.17g", c ? "," : "", r[c]);
        fputc('\n', f);
    }
    bool bad = ferror(f) != 0;
    if (fclose(f) != 0 || bad) return grit_fail(s, GRIT_EIO, "tester: error writing '%s'", path);
    return GRIT_OK;
}
