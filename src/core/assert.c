/* grit: a failed GRIT_ASSERT (core/assert.h). */
#include "core/assert.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

void grit_assert_fail(const char *file, int line, const char *cond, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "grit: internal error: %s:%d: assertion '%s' failed: ", file, line, cond);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    fflush(stderr);
    abort();
}
