/* grit internal: the layout of restart files (docs/restart.md), shared by
 * the writer (restart.c) and the reader (restart_load.c).
 *
 *   header   "GRITSAVE", u32 version, u32 byte-order mark 0x01020304,
 *            u8 sizes[8] (double, int, long, int64_t, bool, 0, 0, 0),
 *            u64 total file length, f64 probe -1.5                 (40 bytes)
 *   sections char tag[4], u32 0, u64 payload length, payload      (any order)
 *   trailer  "END!", u32 CRC-32 of every byte before the CRC
 *
 * Inside sections, numbers are in the writer's byte order; a parameter block
 * is u32 count, then per parameter u8 name length, the name, u8 type
 * (grit_param_type), u8 component count (1 or 3), f64 values; an array
 * record is char name[8] (NUL padded), u32 element size, u32 count, then
 * count * element size bytes.
 *
 * Version 2 added the CELL section (the periodic cell); a version-1 file has
 * none and loads as an aperiodic scene.
 */
#ifndef GRIT_RESTART_FORMAT_H
#define GRIT_RESTART_FORMAT_H

#include <stddef.h>

#include "core/cell_impl.h"
#include "grit/restart.h"

/* The matrices of the CELL section, by record name (at most 8 bytes). */
#define RST_CELL_MATS(X)                                                                                         \
    X("H", H) X("Hinv", Hinv) X("H_half", H_half) X("trsf", trsf) X("gradV", L) X("gradVm", L_prev)           \
        X("nextGrdV", next_L) X("LH", LH) X("lf_A", lf_A) X("lf_B", lf_B) X("lf_Mdt", lf_Mdt)                  \
            X("H_rebld", H_rebuild) X("dH", dH) X("virialm", virial_prev)
#define RST_CELL_NAME(n, f) {n, offsetof(grit_cell, f)},
static const struct {
    const char *name;
    size_t offset;
} rst_cell_mats[] = {RST_CELL_MATS(RST_CELL_NAME)};
enum { RST_CELL_NMAT = sizeof rst_cell_mats / sizeof rst_cell_mats[0] };
static inline grit_mat3 *rst_cell_mat(const grit_cell *c, int q)
{
    return (grit_mat3 *)((char *)c + rst_cell_mats[q].offset);
}

#define RST_MAGIC "GRITSAVE"
#define RST_BOM 0x01020304u
#define RST_PROBE (-1.5)
enum { RST_HEADER = 40, RST_SECTION_HEAD = 16, RST_TRAILER = 8, RST_ARRAY_HEAD = 16 };

static inline void rst_sizes(uint8_t out[8])
{
    const uint8_t z[8] = {(uint8_t)sizeof(double), (uint8_t)sizeof(int), (uint8_t)sizeof(long),
                          (uint8_t)sizeof(int64_t), (uint8_t)sizeof(bool), 0, 0, 0};
    for (int k = 0; k < 8; k++) out[k] = z[k];
}

#endif
