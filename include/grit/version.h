/* grit: the version (the one place it is written: CMake reads it from here). */
#ifndef GRIT_VERSION_H
#define GRIT_VERSION_H

#define GRIT_VERSION_MAJOR 0
#define GRIT_VERSION_MINOR 1
#define GRIT_VERSION_PATCH 0
#define GRIT_VERSION "0.1.0"

#include "grit/export.h"

GRIT_BEGIN_DECLS

/* The version of the library itself ("0.1.0"): the one a program runs with,
 * which may be newer than the header it was compiled with. */
const char *grit_version(void);

GRIT_END_DECLS

#endif
