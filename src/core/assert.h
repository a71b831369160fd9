/* grit internal: assertions on the invariants of the hot loops (the contact
 * loop, the broad phase, the spatial sort).
 *
 * GRIT_ASSERT(cond, fmt, ...) checks cond in Debug builds and in the
 * sanitizer build (GRIT_VALIDATE) and, when it fails, prints the file, the
 * line, the condition and the message to stderr and aborts. In Release
 * (NDEBUG, no GRIT_VALIDATE) it compiles to nothing: cond is not evaluated
 * (only looked at by sizeof, so that variables it names count as used).
 * GRIT_ASSERTS says which of the two a build has. The per-step scene
 * validator (core/validate.h) checks the whole scene between steps; these
 * check the indices a loop is about to use, where it uses them. */
#ifndef GRIT_ASSERT_H
#define GRIT_ASSERT_H

#if defined(GRIT_VALIDATE) || !defined(NDEBUG)
#define GRIT_ASSERTS 1
#define GRIT_ASSERT(cond, ...) ((cond) ? (void)0 : grit_assert_fail(__FILE__, __LINE__, #cond, __VA_ARGS__))
#else
#define GRIT_ASSERTS 0
#define GRIT_ASSERT(cond, ...) ((void)sizeof(!(cond)))
#endif

void grit_assert_fail(const char *file, int line, const char *cond, const char *fmt, ...)
    __attribute__((noreturn, format(printf, 4, 5)));

#endif
