/* grit internal: the law tester's record (spec 10.2 step 5). */
#ifndef GRIT_TESTER_IMPL_H
#define GRIT_TESTER_IMPL_H

#include "core/scene_impl.h"
#include "grit/tester.h"

struct grit_tester {
    grit_scene *s;
    int ids[2];
    grit_tester_def def;
    grit_tester_stage *stages;
    int n_stages, cap_stages;
    double stage_t0; /* scene time at stage entry; < 0: the stage is entered at the next call */
    /* the impositions of the current stage on A (0) and B (1) */
    uint8_t what[2][6];
    double value[2][6];
    bool installed; /* the impositions are on the particles */
    grit_tester_state st;
    /* record: rows of `cols` doubles */
    int cols;
    double *rec;
    long rows, cap_rows;
};

/* Check quantity, index and op of a condition built in C (cond.c). */
int grit_tester_cond_check(const grit_tester_cond *c, char *err, size_t errlen);
/* Append one row of the current state (record.c). */
int grit_tester_record_row(grit_tester *t);

#endif
