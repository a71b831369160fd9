/* grit internal: vectorised contact loop for the sphere-sphere block under
 * the Hertz-Mindlin law (see ss_hertz_simd.c). */
#ifndef GRIT_SS_HERTZ_SIMD_H
#define GRIT_SS_HERTZ_SIMD_H

#include "law2/law2.h"

/* Same contract and the same results, bit for bit, as
 * run_block(s, lo, hi, cg2_sphere_sphere, law_hertz, create_hertz, track, ...)
 * (run_block_cell with a periodic cell). */
int grit_ss_hertz_simd(grit_scene *s, int lo, int hi, bool track, grit_law_energy *E);

#endif
