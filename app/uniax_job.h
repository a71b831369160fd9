/* grit command line: what `grit run uniax` shares with `grit calibrate`
 * (app/pre_uniax.c owns the groups: the test, the material, the law, the
 * packing, the clip and the output). */
#ifndef GRIT_APP_UNIAX_JOB_H
#define GRIT_APP_UNIAX_JOB_H

#include "cli.h"
#include "grit/pack.h"
#include "grit/uniax.h"

/* Register the groups of grit run uniax and set their defaults; for grit
 * calibrate (calibrate true) the output group has only the variant
 * (periodic by default) and the progress. */
void uniax_job_init(job *j, bool calibrate);
/* Check them as grit run uniax does (loads packing=FILE). */
int uniax_job_check(job *j, char *err, size_t len);

/* What the command line set. */
typedef struct uniax_job_view {
    const grit_uniax_def *test;
    const grit_concretemat_def *material;
    const grit_cpm_def *law;
    bool periodic;         /* variant=periodic */
    double progress;       /* seconds between progress lines (0: none) */
    bool plot;
    int seed;              /* the packing's */
    const char *packing;   /* packing=FILE, or NULL */
} uniax_job_view;
uniax_job_view uniax_job_get(void);

/* A specimen: the packing of seed `seed` made and cut as grit run uniax
 * makes it (or the packing file, for the job's own seed only). */
typedef struct uniax_job_specimen {
    grit_packing cell, cut;          /* owned */
    const grit_packing *packing;     /* the specimen's: cell, cut or the file */
    grit_uniax_specimen spec;        /* material and law: the job's */
} uniax_job_specimen;
int uniax_job_make_specimen(int seed, const grit_pack_opts *opts, uniax_job_specimen *out, char *err, size_t len);
void uniax_job_specimen_free(uniax_job_specimen *s);
/* Free what uniax_job_check loaded. */
void uniax_job_release(void);

#endif
