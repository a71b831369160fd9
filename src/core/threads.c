/* grit: the thread count of a scene (core/threads.h). */
#include "core/threads.h"

#include <stdlib.h>

#ifdef _OPENMP
#include <omp.h>
#endif

/* OMP_NUM_THREADS, or the CPUs of the process's affinity mask */
static int max_threads(void)
{
#ifdef _OPENMP
    const int n = omp_get_max_threads();
    return n > 0 ? n : 1;
#else
    return 1;
#endif
}

int grit_nthreads(const grit_scene *s)
{
    if (s->threads > 0) return s->threads;
    if (s->tune_on > 0) return grit_tune_count(&s->tune);
    return max_threads();
}

bool grit_threads_tuning(grit_scene *s)
{
    if (s->threads > 0) return false;
    if (!s->tune_on) {
        /* a count the user set in the environment is kept as it is */
        const char *env = getenv("OMP_NUM_THREADS");
        const int max = max_threads();
        s->tune_on = (env && *env) || max < 2 ? -1 : 1;
        if (s->tune_on > 0) grit_tune_init(&s->tune, max);
    }
    /* a step without parallel loops says nothing about the count */
    return s->tune_on > 0 && (grit_par(s, s->b.n) || grit_par(s, s->c.n));
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
    s->tune_on = 0; /* decided again at the next step */
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
