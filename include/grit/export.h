/* grit: what the public headers declare is the library's interface.
 *
 * Each public header wraps its declarations in GRIT_BEGIN_DECLS ...
 * GRIT_END_DECLS: C linkage for C++ callers, and default visibility. The
 * library is compiled with -fvisibility=hidden, so libgrit.so exports a
 * function exactly when a public header declares it, while the functions the
 * library's own files share stay internal. GRIT_API marks one declaration
 * outside such a block. */
#ifndef GRIT_EXPORT_H
#define GRIT_EXPORT_H

#if defined(__GNUC__) /* GCC and Clang */
#define GRIT_API __attribute__((visibility("default")))
#define GRIT_VISIBILITY_PUSH_ _Pragma("GCC visibility push(default)")
#define GRIT_VISIBILITY_POP_ _Pragma("GCC visibility pop")
#else
#define GRIT_API
#define GRIT_VISIBILITY_PUSH_
#define GRIT_VISIBILITY_POP_
#endif

#ifdef __cplusplus
#define GRIT_BEGIN_DECLS extern "C" { GRIT_VISIBILITY_PUSH_
#define GRIT_END_DECLS GRIT_VISIBILITY_POP_ }
#else
#define GRIT_BEGIN_DECLS GRIT_VISIBILITY_PUSH_
#define GRIT_END_DECLS GRIT_VISIBILITY_POP_
#endif

#endif
