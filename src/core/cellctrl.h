/* grit internal: the periodic cell's stress/strain controller (cellctrl.c),
 * for the step and for the library's own servo users (pack, uniax). */
#ifndef GRIT_CELLCTRL_H
#define GRIT_CELLCTRL_H

#include "core/scene_impl.h"
#include "grit/cell.h"

/* Refuse a bad definition with a message naming the field (who: the API
 * function or the restart section). */
int grit_cell_ctrl_check(grit_scene *s, const grit_cell_ctrl_def *d, const char *who);

/* What the servo of definition d commands now, for an update interval of
 * d->every steps of dt: the whole gradient L (rows), and st (may be NULL)
 * filled with the stress, errors, stiffnesses and the scale (not the
 * counters). The scene must be periodic. Changes nothing. */
void grit_cell_ctrl_command(const grit_scene *s, const grit_cell_ctrl_def *d, double dt, const double integ[3],
                            double L[3][3], grit_cell_ctrl_state *st, double integ_next[3]);

/* The step's hook, before the cell moves: an update when one is due. */
void grit_cell_ctrl_update(grit_scene *s);

#endif
