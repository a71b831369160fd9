/* grit: one declaration per parameter.
 *
 * Every user-settable parameter of grit is declared exactly once, in an
 * X-macro list (GRIT_SCENE_PARAMS, GRIT_LAW_PARAMS, ...). Each entry gives
 *
 *   X(type, name, default, unit, min, max, flags, choices, doc)
 *
 * From that one line come: the field of the definition struct, its value in
 * the grit_default_*_def() helper, the reflective table used by the command
 * line (key=value), by the Python package (attributes) and by the generated
 * parameter reference in docs/, and the range check with its error message.
 *
 * type is one of: double, int, flag (a bool), vec3, choice (an int whose valid values
 * are named in `choices`, separated by '|').
 */
#ifndef GRIT_PARAMS_H
#define GRIT_PARAMS_H

#include <stddef.h>
#include <stdint.h>

#include "grit/math.h"
#include "grit/export.h"

GRIT_BEGIN_DECLS

typedef enum grit_param_type {
    GRIT_PT_double,
    GRIT_PT_int,
    GRIT_PT_flag,
    GRIT_PT_vec3,
    GRIT_PT_choice,
} grit_param_type;

/* flags */
enum {
    GRIT_P_NAN_OK = 1u << 0,   /* NaN is a valid value (usually: "derive it") */
    GRIT_P_MIN_EXCL = 1u << 1, /* the minimum itself is not allowed */
    GRIT_P_MAX_EXCL = 1u << 2,
};

#define GRIT_CTYPE_double double
#define GRIT_CTYPE_int int
#define GRIT_CTYPE_flag bool
#define GRIT_CTYPE_vec3 grit_vec3
#define GRIT_CTYPE_choice int

#define GRIT_V3(x, y, z) ((grit_vec3){(x), (y), (z)})

typedef struct grit_param_info {
    const char *name;
    grit_param_type type;
    size_t offset;
    const char *unit;
    double min, max;
    unsigned flags;
    const char *choices; /* "a|b|c" for GRIT_PT_choice, else NULL */
    const char *def_text;
    const char *doc;
} grit_param_info;

typedef struct grit_param_table {
    const char *name; /* the group, e.g. "scene" */
    const grit_param_info *params;
    int count;
} grit_param_table;

/* Expanders used by the declaration lists. */
#define GRIT_PARAM_FIELD(type, name, def, unit, lo, hi, flags, choices, doc) GRIT_CTYPE_##type name;
#define GRIT_PARAM_DEFAULT(type, name, def, unit, lo, hi, flags, choices, doc) .name = def,
#define GRIT_PARAM_INFO(S, type, name, def, unit, lo, hi, flags, choices, doc) \
    {#name, GRIT_PT_##type, offsetof(S, name), unit, lo, hi, flags, choices, #def, doc},

/* Look up a parameter by name; NULL if unknown. */
const grit_param_info *grit_param_find(const grit_param_table *t, const char *name);

/* Parse `text` and store it into the struct at `def` (after range checking).
 * Returns 0 on success; otherwise writes a one-line message naming the
 * parameter, the value and the valid range into err and changes nothing. */
int grit_param_set_text(const grit_param_table *t, void *def, const char *name, const char *text, char *err,
                        size_t errlen);
/* Same with a double (or 0/1 for bool, index for choice). vec3 needs _set_vec3. */
int grit_param_set_double(const grit_param_table *t, void *def, const char *name, double value, char *err,
                          size_t errlen);
int grit_param_set_vec3(const grit_param_table *t, void *def, const char *name, grit_vec3 value, char *err,
                        size_t errlen);
/* Read a parameter as double (vec3: component 0..2 via _get_vec3). */
double grit_param_get_double(const grit_param_info *p, const void *def);
grit_vec3 grit_param_get_vec3(const grit_param_info *p, const void *def);

/* Check every parameter of a definition; 0 if all are in range. */
int grit_param_validate(const grit_param_table *t, const void *def, char *err, size_t errlen);
/* Check one numeric value against a parameter's declared range. */
int grit_param_check(const grit_param_info *p, double value, char *err, size_t errlen);
/* The valid range as text, e.g. "(0, inf) or nan" or "one of a|b" (help texts). */
void grit_param_range_text(const grit_param_info *p, char *buf, size_t len);

/* The valid range as the error messages write it, e.g. "[0, 1)" or "one of a|b". */
void grit_param_range_text(const grit_param_info *p, char *buf, size_t len);

/* Print "name = value" for every parameter (used by `grit run` banners). */
void grit_param_format(const grit_param_table *t, const void *def, char *buf, size_t len);
/* Name of a choice value. */
const char *grit_param_choice_name(const grit_param_info *p, int value, char *buf, size_t len);

GRIT_END_DECLS

#endif
