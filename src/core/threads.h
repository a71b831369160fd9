/* grit internal: the worker threads of a step (OpenMP).
 *
 * Determinism: every parallel loop runs over fixed chunks whose size does not
 * depend on the thread count; whatever a chunk sums (energy, counters) goes
 * into the chunk's own slot, and the slots are added in chunk order by one
 * thread. A force is never added to a particle by two threads: contacts
 * store theirs and each particle gathers its own (contact/contact_loop.c).
 * So a run is the same to the bit with 1, 2, 3 or 64 threads. */
#ifndef GRIT_CORE_THREADS_H
#define GRIT_CORE_THREADS_H

#include "core/scene_impl.h"

enum { GRIT_MAX_THREADS = 1024 };

/* particles per chunk of the per-particle loops (a multiple of 4: the
 * vectorised leapfrog's groups), contacts per chunk of the contact loop */
enum { GRIT_PCHUNK = 1024, GRIT_CCHUNK = 1024 };

/* threads for this scene's parallel loops (>= 1) */
int grit_nthreads(const grit_scene *s);

/* Before a step: whether the automatic count (core/threads_tune.h) times it.
 * Decides once whether the count is automatic: threads = 0 and no
 * OMP_NUM_THREADS. The step's wall time then goes to grit_tune_step. */
bool grit_threads_tuning(grit_scene *s);

/* this thread's number in the current parallel region: 0 on the thread that
 * entered it (and outside any region) */
int grit_thread_num(void);

/* A loop of fewer items runs on the calling thread: waking the others costs
 * microseconds on an idle machine and milliseconds on a loaded one, more
 * than a small scene's whole step. The chunks are the same either way, so
 * this changes no result. s->par_min overrides it (tests: 1). */
enum { GRIT_PAR_MIN = 8192 };
static inline bool grit_par(const grit_scene *s, int items)
{
    return items >= (s->par_min > 0 ? s->par_min : GRIT_PAR_MIN);
}

/* a buffer of at least `bytes` for one loop's per-chunk sums (the previous
 * contents are lost); NULL when out of memory */
void *grit_scratch(grit_scene *s, size_t bytes);

static inline int grit_chunks(int n, int chunk) { return n <= 0 ? 0 : (n + chunk - 1) / chunk; }

#endif
