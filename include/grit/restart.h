/* grit: save a whole scene to one file and load it again (restart).
 *
 * The file holds everything a later step depends on: parameters, materials
 * and pair overrides, every particle array (including the broad phase's
 * reference positions), shape data, the contacts in their list order with
 * their complete state (geometry, physics, creation data, law state), the
 * energy tracker, step, time and time step, the broad-phase bookkeeping,
 * the local-axes impositions and the periodic cell (grit/cell.h) with its
 * history. A run continued from a restart file is bitwise
 * identical to one that never stopped.
 *
 * The format (docs/restart.md) is binary, in the byte order of the machine
 * that wrote it: a header (magic, format version, byte-order mark, sizes of
 * the C types, total length), tagged sections with their lengths, and a
 * CRC-32 of everything before it. A file from another byte order or type
 * sizes, a newer format, or one that is truncated or corrupt is refused
 * with a one-line message; loading never crashes on bad input.
 *
 * Not saved: a law tester (grit_tester holds callbacks; its impositions on
 * the particles are saved), timing statistics, the broad phase's scratch
 * arrays (rebuilt when needed).
 */
#ifndef GRIT_RESTART_H
#define GRIT_RESTART_H

#include <stddef.h>
#include <stdint.h>

#include "grit/scene.h"
#include "grit/export.h"

GRIT_BEGIN_DECLS

/* 2: the periodic cell (section CELL); 3: materials of several types (MATS
 * names each type), the laws' parameters (section LAWS), contacts grouped by
 * (geometry, law). Files of versions 1 and 2 still load: their scene's law
 * becomes the law of their materials. 4: the inlets (section INLT: their
 * definitions, records and random streams) and the adaptive
 * time step's previous step (section DYDT). 5: the periodic cell's stress/strain
 * controller (section CTRL), clumps (section CLMP). 6: the outlets and the
 * id counter (section OUTL; ids are no longer the particle count once
 * particles are deleted). 7: the stress/strain controller's integral gain
 * and terms (section CTRL; an older file's controller continues without
 * integral action, as it ran). 8: the automatic Verlet distance's
 * last rebuild (section VRLT). 9: the inlets' clump templates and the
 * template drawn for the clump still to place (in section INLT). 10: the
 * inlets' shape templates (capsules, ellipsoids; in section INLT). 11: not
 * used. 12: the inlets' angular velocity, and the scales of their clump
 * templates (in section INLT; an older file's clump inlet is unscaled). */
enum { GRIT_RESTART_VERSION = 12 };

/* Save the scene to `path`. The file is written under a temporary name in
 * the same directory and renamed, so `path` is either the old file or the
 * complete new one. Errors (GRIT_EIO) in grit_last_error(s). */
int grit_save(const grit_scene *s, const char *path);

/* Load a scene saved by grit_save. Returns NULL on error, with a one-line
 * message naming the file and the problem in grit_create_error(). */
grit_scene *grit_scene_load(const char *path);

/* CRC-32 (IEEE 802.3 polynomial, as zlib's crc32) of len bytes, continuing
 * from `crc` (0 for a new checksum): the checksum of restart files. */
uint32_t grit_crc32(uint32_t crc, const void *data, size_t len);

GRIT_END_DECLS

#endif
