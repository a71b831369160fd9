/* grit internal: what the step and the particle setters ask of clumps
 * (shape/clump.c). */
#ifndef GRIT_SHAPE_CLUMP_H
#define GRIT_SHAPE_CLUMP_H

#include "core/scene_impl.h"

/* Place the members of clump c (index into scene->clumps) from its body:
 * position, rigid velocity, orientation. Returns the largest squared move of a member since the last rebuild. */
double grit_clump_place_one(grit_scene *s, int c);
/* Every clump, after the leapfrog; the members' accumulators are zeroed. */
double grit_clumps_place(grit_scene *s);
/* Sum the members' forces and torques (about the body's centre) on their
 * bodies, after the contact loop: serial, in clump and member order. */
void grit_clumps_gather(grit_scene *s);
/* GRIT_EINVAL naming the clump if particle i (internal index) is a member,
 * whose state only its body sets; else GRIT_OK. */
int grit_clump_member_check(grit_scene *s, int i, const char *what);

#endif
