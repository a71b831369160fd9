/* grit: reflection for bindings and documentation generators.
 *
 * The parameter tables (params.h) say everything about each parameter; this
 * header lists them, fills definition structs with their defaults without
 * knowing their C type, names the integer constants of the public headers,
 * and gives the sizes of the public structs, so that a binding generates its
 * attributes, documentation and checks from the C declarations instead of
 * repeating them (and can verify the structs it mirrors).
 */
#ifndef GRIT_REFLECT_H
#define GRIT_REFLECT_H

#include <stddef.h>

#include "grit/params.h"
#include "grit/export.h"

GRIT_BEGIN_DECLS

/* The parameter groups: "scene", "material", "pair", ... */
int grit_reflect_group_count(void);
/* Group i (NULL out of range), or the one whose table is called `name`. */
const grit_param_table *grit_reflect_group(int i);
const grit_param_table *grit_reflect_group_find(const char *name);
/* Parameter i of a table (NULL out of range). */
const grit_param_info *grit_reflect_param(const grit_param_table *t, int i);
/* sizeof the definition struct of a group's table (0 if not a group). */
size_t grit_reflect_def_size(const grit_param_table *t);
/* Fill `def` (of `size` bytes) with the group's defaults; -1 if t is not a
 * group or size is not its definition's size. */
int grit_reflect_def_default(const grit_param_table *t, void *def, size_t size);

/* Named integer constants of the public headers, e.g. GRIT_SHAPE_SPHERE. */
int grit_reflect_constant_count(void);
const char *grit_reflect_constant_name(int i); /* NULL out of range */
long grit_reflect_constant_value(int i);
/* sizeof a public struct by its C name, e.g. "grit_sphere_def"; 0 if unknown. */
size_t grit_reflect_sizeof(const char *type);

GRIT_END_DECLS

#endif
