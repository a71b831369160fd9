/* grit: the thread count of a scene (core/threads.h). */
#include "core/threads.h"

#include <stdlib.h>

#ifdef _OPENMP
#include <omp.h>
#endif

int grit_nthreads(const grit_scene *s)
{
    if (s->threads > 0) return s->threads;
#ifdef _OPENMP
    /* OMP_NUM_THREADS, or the CPUs of the process's affinity mask */
    const int n = omp_get_max_threads();
    return n > 0 ? n : 1;
#else
    return 1;
#endif
}

int grit_thread_num(void)
{
#ifdef _OPENMP
    return omp_get_thread_num();
#else
    return 0;
#endif
}

int grit_set_threads(grit_scene *s, int n)
{
    if (n < 0 || n > GRIT_MAX_THREADS)
        return grit_fail(s, GRIT_EINVAL, "threads = %d: expected 0 (automatic) to %d", n, GRIT_MAX_THREADS);
    s->threads = n;
    return GRIT_OK;
}

int grit_threads(const grit_scene *s) { return grit_nthreads(s); }

void *grit_scratch(grit_scene *s, size_t bytes)
{
    if (bytes > s->scratch_cap) {
        void *p = realloc(s->scratch, bytes);
        if (!p) return NULL;
        s->scratch = p;
        s->scratch_cap = bytes;
    }
    return s->scratch;
}
