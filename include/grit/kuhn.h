/* grit: Kuhn's refined linear-frictional contact law (a material's law =
 * kuhn; docs/kuhn-law.md). Values of its choice parameters, the
 * per-contact statuses, and a diagnostic. */
#ifndef GRIT_KUHN_H
#define GRIT_KUHN_H

#include "grit/scene.h"
#include "grit/export.h"

GRIT_BEGIN_DECLS

/* law parameter kuhn_twirl */
enum { GRIT_KUHN_TWIRL_EXACT = 0, GRIT_KUHN_TWIRL_FIRST_ORDER = 1, GRIT_KUHN_TWIRL_OFF = 2 };
/* law parameter kuhn_work */
enum { GRIT_KUHN_WORK_TRAPEZOID = 0, GRIT_KUHN_WORK_EXACT = 1 };

/* What a contact did in its last step. */
typedef enum grit_kuhn_status {
    GRIT_KUHN_SEPARATED = 0, /* broke (not stored: such a contact is gone) */
    GRIT_KUHN_FRESH_ELASTIC, /* new contact, elastic from its touch instant */
    GRIT_KUHN_FRESH_SLIDING, /* new contact, sliding from its touch instant */
    GRIT_KUHN_ELASTIC,       /* elastic over the whole step */
    GRIT_KUHN_SLIP,          /* slipping from some instant of the step on */
    GRIT_KUHN_STATUS_COUNT
} grit_kuhn_status;

/* Count the real contacts under Kuhn's law by their last status (the
 * paper's diagnostic). Returns the number of contacts counted, or
 * GRIT_ESTATE when no pair of the scene's materials uses the law. */
int grit_kuhn_status_counts(const grit_scene *s, int counts[GRIT_KUHN_STATUS_COUNT]);

GRIT_END_DECLS

#endif
