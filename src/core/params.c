/* grit: reflective access to the parameter tables declared in params.h. */
#include "grit/params.h"

#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/text.h"

const grit_param_info *grit_param_find(const grit_param_table *t, const char *name)
{
    for (int i = 0; i < t->count; i++)
        if (strcmp(t->params[i].name, name) == 0) return &t->params[i];
    return NULL;
}

/* A bound as written in its declaration: 0.9, not 0.90000000000000002;
 * 15 digits still write 1e7 as 10000000. */
static void shortest(double x, char *buf, size_t len)
{
    snprintf(buf, len, "%.15g", x);
    if (strtod(buf, NULL) != x) snprintf(buf, len, "%.17g", x);
}

void grit_param_range_text(const grit_param_info *p, char *buf, size_t len)
{
    if (p->type == GRIT_PT_choice) {
        snprintf(buf, len, "one of %s", p->choices);
        return;
    }
    if (p->type == GRIT_PT_flag) {
        snprintf(buf, len, "true/false or 1/0");
        return;
    }
    char lo[40], hi[40], x[32];
    if (isinf(p->min)) snprintf(lo, sizeof lo, "(-inf");
    else shortest(p->min, x, sizeof x), snprintf(lo, sizeof lo, "%s%s", (p->flags & GRIT_P_MIN_EXCL) ? "(" : "[", x);
    if (isinf(p->max)) snprintf(hi, sizeof hi, "inf)");
    else shortest(p->max, x, sizeof x), snprintf(hi, sizeof hi, "%s%s", x, (p->flags & GRIT_P_MAX_EXCL) ? ")" : "]");
    snprintf(buf, len, "%s, %s%s", lo, hi, (p->flags & GRIT_P_NAN_OK) ? " or nan" : "");
}

int grit_param_check(const grit_param_info *p, double v, char *err, size_t errlen)
{
    char r[128];
    bool ok;
    if (isnan(v)) ok = (p->flags & GRIT_P_NAN_OK) != 0;
    else {
        ok = (p->flags & GRIT_P_MIN_EXCL) ? v > p->min : v >= p->min;
        ok = ok && ((p->flags & GRIT_P_MAX_EXCL) ? v < p->max : v <= p->max);
        ok = ok && isfinite(v); /* an infinite bound means unbounded, not "infinity allowed" */
        if (p->type == GRIT_PT_int || p->type == GRIT_PT_choice || p->type == GRIT_PT_flag)
            ok = ok && v == floor(v);
    }
    if (ok) return 0;
    grit_param_range_text(p, r, sizeof r);
    /* the shortest text that reads back as v: 0.6, not 0.59999999999999998 */
    char num[32];
    for (int d = 6; d <= 17; d++) {
        snprintf(num, sizeof num, "%.*g", d, v);
        if (strtod(num, NULL) == v || !isfinite(v)) break;
    }
    if (err) snprintf(err, errlen, "parameter '%s' = %s is out of range: must be %s (%s)", p->name, num, r, p->unit);
    return -1;
}

double grit_param_get_double(const grit_param_info *p, const void *def)
{
    const char *base = (const char *)def + p->offset;
    switch (p->type) {
    case GRIT_PT_double: return *(const double *)base;
    case GRIT_PT_int:
    case GRIT_PT_choice: return *(const int *)base;
    case GRIT_PT_flag: return *(const bool *)base ? 1.0 : 0.0;
    case GRIT_PT_vec3: return ((const grit_vec3 *)base)->x;
    }
    return NAN;
}

grit_vec3 grit_param_get_vec3(const grit_param_info *p, const void *def)
{
    if (p->type == GRIT_PT_vec3) return *(const grit_vec3 *)((const char *)def + p->offset);
    double d = grit_param_get_double(p, def);
    return v3(d, d, d);
}

static void store(const grit_param_info *p, void *def, double v)
{
    char *base = (char *)def + p->offset;
    switch (p->type) {
    case GRIT_PT_double: *(double *)base = v; break;
    case GRIT_PT_int:
    case GRIT_PT_choice: *(int *)base = (int)v; break;
    case GRIT_PT_flag: *(bool *)base = v != 0.0; break;
    case GRIT_PT_vec3: break;
    }
}

static const grit_param_info *find_or_err(const grit_param_table *t, const char *name, char *err, size_t errlen)
{
    const grit_param_info *p = grit_param_find(t, name);
    if (!p && err) {
        char q[120];
        size_t n = (size_t)snprintf(err, errlen, "unknown %s parameter '%s'; known:", t->name,
                                    grit_text_quote(name, strlen(name), q, sizeof q));
        for (int i = 0; i < t->count && n < errlen; i++)
            n += (size_t)snprintf(err + n, errlen - n, " %s", t->params[i].name);
    }
    return p;
}

int grit_param_set_double(const grit_param_table *t, void *def, const char *name, double value, char *err,
                          size_t errlen)
{
    const grit_param_info *p = find_or_err(t, name, err, errlen);
    if (!p) return -1;
    if (p->type == GRIT_PT_vec3) {
        if (err) snprintf(err, errlen, "parameter '%s' is a vector (3 components)", name);
        return -1;
    }
    if (grit_param_check(p, value, err, errlen)) return -1;
    store(p, def, value);
    return 0;
}

int grit_param_set_vec3(const grit_param_table *t, void *def, const char *name, grit_vec3 value, char *err,
                        size_t errlen)
{
    const grit_param_info *p = find_or_err(t, name, err, errlen);
    if (!p) return -1;
    if (p->type != GRIT_PT_vec3) {
        if (err) snprintf(err, errlen, "parameter '%s' is a scalar, not a vector", name);
        return -1;
    }
    double c[3] = {value.x, value.y, value.z};
    for (int i = 0; i < 3; i++)
        if (grit_param_check(p, c[i], err, errlen)) return -1;
    *(grit_vec3 *)((char *)def + p->offset) = value;
    return 0;
}

/* Parse a double, the whole string must be consumed: 0, or -1 (not a
 * number), -2 (beyond the range of a double), -3 (a subnormal or underflow:
 * below the smallest normal double; no physical input is that small, and
 * such values make derived quantities overflow or vanish). */
static int parse_number(const char *s, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (end == s || *end != '\0') return -1;
    if (errno == ERANGE) return fabs(v) > 1 ? -2 : -3;
    if (v != 0 && fabs(v) < DBL_MIN) return -3;
    *out = v;
    return 0;
}

static void number_error(int rc, const char *name, const char *text, const char *what, char *err, size_t errlen)
{
    if (!err) return;
    char q[120];
    grit_text_quote(text, strlen(text), q, sizeof q);
    if (rc == -2)
        snprintf(err, errlen, "parameter '%s' = '%s' is beyond the range of a double (|x| > 1.8e308)", name, q);
    else if (rc == -3)
        snprintf(err, errlen, "parameter '%s' = '%s' is too small to compute with (nonzero below 2.2e-308)", name, q);
    else snprintf(err, errlen, "parameter '%s' = '%s' is not %s", name, q, what);
}

int grit_param_set_text(const grit_param_table *t, void *def, const char *name, const char *text, char *err,
                        size_t errlen)
{
    const grit_param_info *p = find_or_err(t, name, err, errlen);
    if (!p) return -1;
    double v;
    switch (p->type) {
    case GRIT_PT_flag:
        if (!strcasecmp(text, "true") || !strcmp(text, "1") || !strcasecmp(text, "yes") || !strcasecmp(text, "on"))
            v = 1;
        else if (!strcasecmp(text, "false") || !strcmp(text, "0") || !strcasecmp(text, "no") ||
                 !strcasecmp(text, "off"))
            v = 0;
        else {
            char q[120];
            if (err)
                snprintf(err, errlen, "parameter '%s' = '%s' is not a boolean (true/false, 1/0)", name,
                         grit_text_quote(text, strlen(text), q, sizeof q));
            return -1;
        }
        break;
    case GRIT_PT_choice: {
        /* accept a name or an index */
        int idx = 0;
        const char *c = p->choices;
        size_t tl = strlen(text);
        v = -1;
        while (c && *c) {
            const char *bar = strchr(c, '|');
            size_t l = bar ? (size_t)(bar - c) : strlen(c);
            if (l == tl && strncmp(c, text, l) == 0) {
                v = idx;
                break;
            }
            idx++;
            c = bar ? bar + 1 : NULL;
        }
        if (v < 0) {
            char q[120];
            if (err)
                snprintf(err, errlen, "parameter '%s' = '%s' is not one of %s", name,
                         grit_text_quote(text, strlen(text), q, sizeof q), p->choices);
            return -1;
        }
        break;
    }
    case GRIT_PT_vec3: {
        /* exactly three fields, none empty: '0,,0,-9.81' is an error, not
         * (0, 0, -9.81) */
        double c[3];
        const char *f = text;
        for (int k = 0; k < 3; k++) {
            const char *comma = strchr(f, ',');
            const size_t l = comma ? (size_t)(comma - f) : strlen(f);
            char buf[128];
            int rc = l == 0 || l >= sizeof buf || (k < 2) != (comma != NULL) ? -1 : 0;
            if (!rc) {
                memcpy(buf, f, l);
                buf[l] = '\0';
                rc = parse_number(buf, &c[k]);
            }
            if (rc) {
                number_error(rc, name, text, "a vector 'x,y,z' (three numbers)", err, errlen);
                return -1;
            }
            if (comma) f = comma + 1;
        }
        return grit_param_set_vec3(t, def, name, v3(c[0], c[1], c[2]), err, errlen);
    }
    default: {
        const int rc = parse_number(text, &v);
        if (rc) {
            number_error(rc, name, text, "a number", err, errlen);
            return -1;
        }
    }
    }
    return grit_param_set_double(t, def, name, v, err, errlen);
}

int grit_param_validate(const grit_param_table *t, const void *def, char *err, size_t errlen)
{
    for (int i = 0; i < t->count; i++) {
        const grit_param_info *p = &t->params[i];
        if (p->type == GRIT_PT_vec3) {
            grit_vec3 v = grit_param_get_vec3(p, def);
            if (grit_param_check(p, v.x, err, errlen) || grit_param_check(p, v.y, err, errlen) ||
                grit_param_check(p, v.z, err, errlen))
                return -1;
        } else if (grit_param_check(p, grit_param_get_double(p, def), err, errlen))
            return -1;
    }
    return 0;
}

const char *grit_param_choice_name(const grit_param_info *p, int value, char *buf, size_t len)
{
    const char *c = p->choices;
    for (int i = 0; c && *c; i++) {
        const char *bar = strchr(c, '|');
        size_t l = bar ? (size_t)(bar - c) : strlen(c);
        if (i == value) {
            snprintf(buf, len, "%.*s", (int)l, c);
            return buf;
        }
        c = bar ? bar + 1 : NULL;
    }
    snprintf(buf, len, "%d", value);
    return buf;
}

void grit_param_format(const grit_param_table *t, const void *def, char *buf, size_t len)
{
    size_t n = 0;
    buf[0] = '\0';
    for (int i = 0; i < t->count && n < len; i++) {
        const grit_param_info *p = &t->params[i];
        char c[64];
        switch (p->type) {
        case GRIT_PT_vec3: {
            grit_vec3 v = grit_param_get_vec3(p, def);
            n += (size_t)snprintf(buf + n, len - n, "%s=%g,%g,%g ", p->name, v.x, v.y, v.z);
            break;
        }
        case GRIT_PT_flag:
            n += (size_t)snprintf(buf + n, len - n, "%s=%s ", p->name,
                                  grit_param_get_double(p, def) != 0 ? "true" : "false");
            break;
        case GRIT_PT_choice:
            n += (size_t)snprintf(buf + n, len - n, "%s=%s ", p->name,
                                  grit_param_choice_name(p, (int)grit_param_get_double(p, def), c, sizeof c));
            break;
        default: n += (size_t)snprintf(buf + n, len - n, "%s=%g ", p->name, grit_param_get_double(p, def));
        }
    }
}
