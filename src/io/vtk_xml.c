/* grit: writing VTK XML DataArrays as text or inline base64. */
#include "io/vtk_xml.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

static const char *type_name(vtk_type t)
{
    return t == VTK_F64 ? "Float64" : (t == VTK_I64 ? "Int64" : "UInt8");
}
static size_t type_size(vtk_type t) { return t == VTK_F64 ? 8 : (t == VTK_I64 ? 8 : 1); }

static bool little_endian(void)
{
    const uint16_t one = 1;
    unsigned char c;
    memcpy(&c, &one, 1);
    return c == 1;
}

void vtk_begin(FILE *f, long n_points, long n_cells)
{
    fprintf(f,
            "<?xml version=\"1.0\"?>\n"
            "<VTKFile type=\"UnstructuredGrid\" version=\"1.0\" byte_order=\"%s\" header_type=\"UInt64\">\n"
            "<UnstructuredGrid>\n<Piece NumberOfPoints=\"%ld\" NumberOfCells=\"%ld\">\n",
            little_endian() ? "LittleEndian" : "BigEndian", n_points, n_cells);
}

void vtk_end(FILE *f) { fputs("</Piece>\n</UnstructuredGrid>\n</VTKFile>\n", f); }

/* Base64 of header + data as one stream (the header's bytes first), 76
 * characters per line. */
static int put_base64(FILE *f, const void *head, size_t nh, const void *data, size_t nd)
{
    static const char tab[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    const size_t n = nh + nd;
    unsigned char *in = malloc(n + 2);
    if (!in) return -1;
    memcpy(in, head, nh);
    memcpy(in + nh, data, nd);
    in[n] = in[n + 1] = 0;
    char line[80];
    int col = 0;
    for (size_t i = 0; i < n; i += 3) {
        const unsigned b0 = in[i], b1 = in[i + 1], b2 = in[i + 2];
        line[col++] = tab[b0 >> 2];
        line[col++] = tab[((b0 & 3) << 4) | (b1 >> 4)];
        line[col++] = i + 1 < n ? tab[((b1 & 15) << 2) | (b2 >> 6)] : '=';
        line[col++] = i + 2 < n ? tab[b2 & 63] : '=';
        if (col == 76) {
            line[col++] = '\n';
            fwrite(line, 1, (size_t)col, f);
            col = 0;
        }
    }
    if (col) {
        line[col++] = '\n';
        fwrite(line, 1, (size_t)col, f);
    }
    free(in);
    return 0;
}

int vtk_array(FILE *f, grit_vtk_format fmt, const char *name, vtk_type type, int ncomp, const void *data, long n)
{
    fprintf(f, "<DataArray type=\"%s\"", type_name(type));
    if (name) fprintf(f, " Name=\"%s\"", name);
    fprintf(f, " NumberOfComponents=\"%d\" format=\"%s\">\n", ncomp, fmt == GRIT_VTK_ASCII ? "ascii" : "binary");
    const size_t count = (size_t)n * (size_t)ncomp;
    if (fmt == GRIT_VTK_ASCII) {
        for (size_t i = 0; i < count; i++) {
            const char sep = (i + 1) % (size_t)ncomp == 0 || i + 1 == count ? '\n' : ' ';
            switch (type) {
            case VTK_F64: fprintf(f, "%.17g%c", ((const double *)data)[i], sep); break;
            case VTK_I64: fprintf(f, "%" PRId64 "%c", ((const int64_t *)data)[i], sep); break;
            case VTK_U8: fprintf(f, "%u%c", ((const uint8_t *)data)[i], sep); break;
            }
        }
    } else {
        uint64_t bytes = (uint64_t)(count * type_size(type));
        if (put_base64(f, &bytes, sizeof bytes, data, (size_t)bytes)) return -1;
    }
    fputs("</DataArray>\n", f);
    return 0;
}

int vtk_points(FILE *f, grit_vtk_format fmt, const double *xyz, long n)
{
    fputs("<Points>\n", f);
    int rc = vtk_array(f, fmt, "Points", VTK_F64, 3, xyz, n);
    fputs("</Points>\n", f);
    return rc;
}

int vtk_cells(FILE *f, grit_vtk_format fmt, const int64_t *conn, const int64_t *offsets, const uint8_t *types,
              long n)
{
    fputs("<Cells>\n", f);
    int rc = vtk_array(f, fmt, "connectivity", VTK_I64, 1, conn, n > 0 ? offsets[n - 1] : 0);
    rc |= vtk_array(f, fmt, "offsets", VTK_I64, 1, offsets, n);
    rc |= vtk_array(f, fmt, "types", VTK_U8, 1, types, n);
    fputs("</Cells>\n", f);
    return rc;
}
