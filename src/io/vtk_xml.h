/* grit internal: the pieces of a VTK XML UnstructuredGrid file.
 *
 * Arrays are written inline, either as text or as base64 of the UInt64 byte
 * count followed by the raw data (the machine's byte order, declared in the
 * header) -- the layout VTK's own writer uses for uncompressed inline data.
 * Both keep the file well-formed XML that any parser reads. */
#ifndef GRIT_VTK_XML_H
#define GRIT_VTK_XML_H

#include <stdint.h>
#include <stdio.h>

#include "grit/io.h"

typedef enum vtk_type { VTK_F64, VTK_I64, VTK_U8 } vtk_type;

/* VTK cell type codes */
enum { VTK_CELL_VERTEX = 1, VTK_CELL_LINE = 3, VTK_CELL_TRIANGLE = 5, VTK_CELL_QUAD = 9 };

void vtk_begin(FILE *f, long n_points, long n_cells);
void vtk_end(FILE *f);
/* <Points> with n 3-vectors */
void vtk_points(FILE *f, grit_vtk_format fmt, const double *xyz, long n);
/* <Cells> from the flat connectivity of n cells of `types`, with per-cell
 * end offsets into it */
void vtk_cells(FILE *f, grit_vtk_format fmt, const int64_t *conn, const int64_t *offsets, const uint8_t *types,
               long n);
/* One DataArray of n tuples of ncomp components */
void vtk_array(FILE *f, grit_vtk_format fmt, const char *name, vtk_type type, int ncomp, const void *data, long n);

#endif
