/* grit internal: the pieces of a VTK XML PolyData file (.vtp).
 *
 * PolyData rather than UnstructuredGrid: vertices, lines and polygons are
 * all grit draws, and ParaView's Tube and Glyph filters take PolyData as it
 * comes.
 *
 * Arrays are written inline, either as text or as base64 of the UInt64 byte
 * count followed by the raw data (the machine's byte order, declared in the
 * header) -- the layout VTK's own writer uses for uncompressed inline data --,
 * or compressed by zlib in VTK's block layout (vtkZLibDataCompressor). Float64
 * arrays may be narrowed to Float32 (GRIT_VTK_FLOAT32).
 * Both keep the file well-formed XML that any parser reads. */
#ifndef GRIT_VTK_XML_H
#define GRIT_VTK_XML_H

#include <stdint.h>
#include <stdio.h>

#include "grit/io.h"

typedef enum vtk_type { VTK_F64, VTK_I64, VTK_U8 } vtk_type;

/* The cells of a piece are of one kind: the section they are written in. */
typedef enum vtk_cells_kind { VTK_VERTS, VTK_LINES, VTK_POLYS } vtk_cells_kind;

/* fmt: its compression is declared in the file's header */
void vtk_begin(FILE *f, grit_vtk_format fmt, long n_points, vtk_cells_kind kind, long n_cells);
void vtk_end(FILE *f);
/* The writers return 0, or -1 when memory ran out (the file is then bad). */
/* <Points> with n 3-vectors */
int vtk_points(FILE *f, grit_vtk_format fmt, const double *xyz, long n);
/* <Verts>, <Lines> or <Polys>: the flat connectivity of n cells with
 * per-cell end offsets into it */
int vtk_cells(FILE *f, grit_vtk_format fmt, vtk_cells_kind kind, const int64_t *conn, const int64_t *offsets, long n);
/* One DataArray of n tuples of ncomp components */
int vtk_array(FILE *f, grit_vtk_format fmt, const char *name, vtk_type type, int ncomp, const void *data, long n);

#endif
