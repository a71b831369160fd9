/* grit internal: blow-up detection after a step (core/health.c). */
#ifndef GRIT_HEALTH_H
#define GRIT_HEALTH_H

#include "core/scene_impl.h"

/* GRIT_OK, or GRIT_ENUMERIC with a message naming the step, the particles
 * and the likely cause (on_blowup=stop); with on_blowup=warn the message
 * goes to grit_last_warning instead, once per kind. */
int grit_health_check(grit_scene *s);
/* The energy balance's part of it (also for a scene spread over MPI ranks,
 * once the ranks' shares of the book are summed). */
int grit_health_energy(grit_scene *s);

#endif
