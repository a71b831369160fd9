/* grit command line: the "# series:" line of a run's record (app/series.h). */
#include "series.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "outdir.h"

static const char *const format_names[] = {[GRIT_VTK_BINARY] = "binary", [GRIT_VTK_ASCII] = "ascii",
                                           [GRIT_VTK_ZLIB] = "zlib"};
enum { N_FORMATS = sizeof format_names / sizeof format_names[0] };

static const char prefix[] = "# series: ";

void series_print(FILE *f, const series_info *si)
{
    fprintf(f, "%sfirst=%ld end=%ld vtk_every=%ld save_every=%ld vtk_format=%s vtk_precision=%s\n", prefix, si->first,
            si->end, si->vtk_every, si->save_every, format_names[si->vtk_format & ~GRIT_VTK_FLOAT32],
            (si->vtk_format & GRIT_VTK_FLOAT32) ? "float32" : "float64");
}

static int parse_line(const char *line, series_info *si)
{
    char fmt[32], prec[32] = "float64";
    if (sscanf(line + strlen(prefix), "first=%ld end=%ld vtk_every=%ld save_every=%ld vtk_format=%31s vtk_precision=%31s",
               &si->first, &si->end, &si->vtk_every, &si->save_every, fmt, prec) < 5)
        return 0;
    for (int k = 0; k < N_FORMATS; k++)
        if (format_names[k] && !strcmp(fmt, format_names[k])) {
            si->vtk_format = (grit_vtk_format)(k | (strcmp(prec, "float32") ? 0 : GRIT_VTK_FLOAT32));
            return si->end >= si->first && si->vtk_every != 0 && si->save_every != 0;
        }
    return 0;
}

int series_find(const char *restart_file, char *out, size_t out_len, series_info *si)
{
    const char *slash = strrchr(restart_file, '/');
    static const char tail[] = ".partial";
    const size_t n = slash ? (size_t)(slash - restart_file) : 0, nt = sizeof tail - 1;
    if (n <= nt || strncmp(slash - nt, tail, nt) != 0 || n - nt >= out_len) return 0;
    char record[4300];
    snprintf(record, sizeof record, "%.*s/%s", (int)n, restart_file, OUTDIR_MARKER);
    FILE *f = fopen(record, "r");
    if (!f) return 0;
    char line[512];
    int found = 0;
    while (!found && fgets(line, sizeof line, f))
        if (!strncmp(line, prefix, sizeof prefix - 1)) found = parse_line(line, si);
    fclose(f);
    if (found) snprintf(out, out_len, "%.*s", (int)(n - nt), restart_file);
    return found;
}

int series_record_continue(const char *partial, const series_info *si, long at, int argc, char **argv, char *err,
                           size_t len)
{
    char path[4300], tmp[4400];
    snprintf(path, sizeof path, "%s/%s", partial, OUTDIR_MARKER);
    snprintf(tmp, sizeof tmp, "%s.%ld.tmp", path, (long)getpid());
    FILE *in = fopen(path, "r"), *out = in ? fopen(tmp, "w") : NULL;
    if (!out) {
        if (in) fclose(in);
        return snprintf(err, len, "cannot rewrite '%s': %s", path, strerror(errno)), -1;
    }
    char line[8192];
    while (fgets(line, sizeof line, in))
        if (strncmp(line, prefix, sizeof prefix - 1) != 0) fputs(line, out);
    fclose(in);
    series_print(out, si);
    fprintf(out, "# continued at step %ld: grit run", at);
    for (int i = 0; i < argc; i++) fprintf(out, " %s", argv[i]);
    fputc('\n', out);
    const bool bad = ferror(out) != 0;
    if (fclose(out) != 0 || bad || rename(tmp, path) != 0) {
        remove(tmp);
        return snprintf(err, len, "cannot rewrite '%s'", path), -1;
    }
    return 0;
}
