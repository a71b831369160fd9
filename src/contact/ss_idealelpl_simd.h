/* grit internal: vectorised contact loop for the sphere-sphere / IdealElPl
 * block (see ss_idealelpl_simd.c). */
#ifndef GRIT_SS_IDEALELPL_SIMD_H
#define GRIT_SS_IDEALELPL_SIMD_H

#include "law2/law2.h"

/* Same contract as run_block(s, lo, hi, cg2_sphere_sphere, law_idealelpl,
 * track, false, E); requires that no contact has an iniEqlb offset. */
int grit_ss_idealelpl_simd(grit_scene *s, int lo, int hi, bool track, grit_law_energy *E);

#endif
