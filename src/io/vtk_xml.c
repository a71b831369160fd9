/* grit: writing VTK XML DataArrays as text or inline base64. */
#include "io/vtk_xml.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

static const char *type_name(vtk_type t, grit_vtk_format fmt)
{
    if (t == VTK_F64) return (fmt & GRIT_VTK_FLOAT32) ? "Float32" : "Float64";
    return t == VTK_I64 ? "Int64" : "UInt8";
}
static size_t type_size(vtk_type t, grit_vtk_format fmt)
{
    if (t == VTK_F64) return (fmt & GRIT_VTK_FLOAT32) ? 4 : 8;
    return t == VTK_I64 ? 8 : 1;
}
static int base_format(grit_vtk_format fmt) { return (int)fmt & ~(int)GRIT_VTK_FLOAT32; }

static bool little_endian(void)
{
    const uint16_t one = 1;
    unsigned char c;
    memcpy(&c, &one, 1);
    return c == 1;
}

static const char *const section[3] = {"Verts", "Lines", "Polys"};

void vtk_begin(FILE *f, grit_vtk_format fmt, long n_points, vtk_cells_kind kind, long n_cells)
{
    long n[3] = {0, 0, 0};
    n[kind] = n_cells;
    fprintf(f,
            "<?xml version=\"1.0\"?>\n"
            "<VTKFile type=\"PolyData\" version=\"1.0\" byte_order=\"%s\" header_type=\"UInt64\"%s>\n"
            "<PolyData>\n<Piece NumberOfPoints=\"%ld\" NumberOfVerts=\"%ld\" NumberOfLines=\"%ld\" "
            "NumberOfStrips=\"0\" NumberOfPolys=\"%ld\">\n",
            little_endian() ? "LittleEndian" : "BigEndian",
            base_format(fmt) == GRIT_VTK_ZLIB ? " compressor=\"vtkZLibDataCompressor\"" : "", n_points, n[0], n[1],
            n[2]);
}

void vtk_end(FILE *f) { fputs("</Piece>\n</PolyData>\n</VTKFile>\n", f); }

/* Base64 of the bytes of head and then data as one stream on one line:
 * VTK's reader decodes inline data from its position in the file and takes
 * neither line breaks nor padding between the byte count and the data. */
static void put_base64(FILE *f, const unsigned char *head, size_t nh, const unsigned char *data, size_t nd)
{
    static const char tab[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    const size_t n = nh + nd;
    char out[4096];
    size_t c = 0;
    for (size_t i = 0; i < n; i += 3) {
        unsigned b[3];
        for (size_t k = 0; k < 3; k++) b[k] = i + k < n ? (i + k < nh ? head[i + k] : data[i + k - nh]) : 0;
        out[c++] = tab[b[0] >> 2];
        out[c++] = tab[((b[0] & 3) << 4) | (b[1] >> 4)];
        out[c++] = i + 1 < n ? tab[((b[1] & 15) << 2) | (b[2] >> 6)] : '=';
        out[c++] = i + 2 < n ? tab[b[2] & 63] : '=';
        if (c == sizeof out) {
            fwrite(out, 1, c, f);
            c = 0;
        }
    }
    fwrite(out, 1, c, f);
}

/* VTK's compressed layout: the header -- number of blocks, the block size,
 * the size of the last block when partial (else 0), then each block's
 * compressed size, all UInt64 -- as one base64 stream, then the compressed
 * blocks as another (VTK decodes the header before it knows where the data
 * begin). Blocks of 32 KiB as VTK's own writer. -1: out of memory. */
enum { ZBLOCK = 1 << 15 };
static int put_zlib(FILE *f, const unsigned char *data, size_t n)
{
    const size_t nb = (n + ZBLOCK - 1) / ZBLOCK;
    uint64_t *head = malloc(sizeof *head * (3 + nb));
    unsigned char *z = malloc(nb * compressBound(ZBLOCK) + 1);
    if (!head || !z) {
        free(head);
        free(z);
        return -1;
    }
    head[0] = nb;
    head[1] = ZBLOCK;
    head[2] = n % ZBLOCK;
    size_t zn = 0;
    for (size_t b = 0; b < nb; b++) {
        const size_t len = b + 1 < nb || n % ZBLOCK == 0 ? ZBLOCK : n % ZBLOCK;
        uLongf out = compressBound(ZBLOCK);
        if (compress2(z + zn, &out, data + b * ZBLOCK, len, Z_DEFAULT_COMPRESSION) != Z_OK) {
            free(head);
            free(z);
            return -1;
        }
        head[3 + b] = out;
        zn += out;
    }
    put_base64(f, (const unsigned char *)head, sizeof *head * (3 + nb), NULL, 0);
    put_base64(f, z, zn, NULL, 0);
    free(head);
    free(z);
    return 0;
}

int vtk_array(FILE *f, grit_vtk_format fmt, const char *name, vtk_type type, int ncomp, const void *data, long n)
{
    fprintf(f, "<DataArray type=\"%s\"", type_name(type, fmt));
    if (name) fprintf(f, " Name=\"%s\"", name);
    const int base = base_format(fmt);
    fprintf(f, " NumberOfComponents=\"%d\" format=\"%s\">\n", ncomp, base == GRIT_VTK_ASCII ? "ascii" : "binary");
    const size_t count = (size_t)n * (size_t)ncomp;
    const bool f32 = type == VTK_F64 && (fmt & GRIT_VTK_FLOAT32);
    float *narrow = NULL;
    if (f32 && count > 0) { /* the values as the file holds them, text included */
        narrow = malloc(sizeof *narrow * count);
        if (!narrow) return -1;
        for (size_t i = 0; i < count; i++) narrow[i] = (float)((const double *)data)[i];
        data = narrow;
    }
    if (base == GRIT_VTK_ASCII) {
        for (size_t i = 0; i < count; i++) {
            const char sep = (i + 1) % (size_t)ncomp == 0 || i + 1 == count ? '\n' : ' ';
            if (f32) {
                fprintf(f, "%.9g%c", (double)((const float *)data)[i], sep);
                continue;
            }
            switch (type) {
            case VTK_F64: fprintf(f, "%.17g%c", ((const double *)data)[i], sep); break;
            case VTK_I64: fprintf(f, "%" PRId64 "%c", ((const int64_t *)data)[i], sep); break;
            case VTK_U8: fprintf(f, "%u%c", ((const uint8_t *)data)[i], sep); break;
            }
        }
    } else {
        uint64_t bytes = (uint64_t)(count * type_size(type, fmt));
        if (base == GRIT_VTK_ZLIB) {
            if (put_zlib(f, data, (size_t)bytes)) {
                free(narrow);
                return -1;
            }
        } else put_base64(f, (const unsigned char *)&bytes, sizeof bytes, data, (size_t)bytes);
        fputc('\n', f);
    }
    free(narrow);
    fputs("</DataArray>\n", f);
    return 0;
}

int vtk_points(FILE *f, grit_vtk_format fmt, const double *xyz, long n)
{
    fputs("<Points>\n", f);
    const int rc = vtk_array(f, fmt, "Points", VTK_F64, 3, xyz, n);
    fputs("</Points>\n", f);
    return rc;
}

int vtk_cells(FILE *f, grit_vtk_format fmt, vtk_cells_kind kind, const int64_t *conn, const int64_t *offsets, long n)
{
    fprintf(f, "<%s>\n", section[kind]);
    int rc = vtk_array(f, fmt, "connectivity", VTK_I64, 1, conn, n > 0 ? offsets[n - 1] : 0);
    rc |= vtk_array(f, fmt, "offsets", VTK_I64, 1, offsets, n);
    fprintf(f, "</%s>\n", section[kind]);
    return rc;
}
