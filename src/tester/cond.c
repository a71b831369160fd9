/* grit: the law tester's built-in end conditions, and their text form. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tester/tester_impl.h"

static const struct {
    const char *name;
    int quantity;
    bool indexed; /* takes [k] with k in 0..5 */
} names[] = {
    {"uN", GRIT_TQ_UN, false},          {"step", GRIT_TQ_STEP, false},
    {"cTime", GRIT_TQ_CTIME, false},
    {"time", GRIT_TQ_TIME, false},      {"bounces", GRIT_TQ_BOUNCES, false},
    {"u", GRIT_TQ_U, true},             {"f", GRIT_TQ_F, true},
    {"v", GRIT_TQ_V, true},             {"fErrRel", GRIT_TQ_FERR_REL, true},
    {"fErrAbs", GRIT_TQ_FERR_ABS, true}, {"E", GRIT_TQ_ENERGY, true},
};

static const char *skip_ws(const char *p)
{
    while (*p == ' ' || *p == '\t') p++;
    return p;
}

/* the text up to the first character not in [A-Za-z0-9_], into buf */
static const char *word(const char *p, char *buf, size_t len)
{
    size_t n = 0;
    while ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') || *p == '_') {
        if (n + 1 < len) buf[n++] = *p;
        p++;
    }
    buf[n] = '\0';
    return p;
}

#define PARSE_FAIL(...)                                  \
    do {                                                 \
        if (err) snprintf(err, errlen, __VA_ARGS__);     \
        return -1;                                       \
    } while (0)

int grit_tester_cond_parse(const char *text, grit_tester_cond *out, char *err, size_t errlen)
{
    if (!text) PARSE_FAIL("tester condition: no text");
    const char *p = skip_ws(text);
    char w[32], idx[32];
    p = word(p, w, sizeof w);
    const char *rest = skip_ws(p);
    /* the three word-only forms */
    if (!strcmp(w, "C") && !*rest) {
        *out = (grit_tester_cond){GRIT_TQ_CONTACT, 0, GRIT_OP_GT, 0.5};
        return 0;
    }
    if (!strcmp(w, "broken") && !*rest) {
        *out = (grit_tester_cond){GRIT_TQ_BROKEN, 0, GRIT_OP_GT, 0.5};
        return 0;
    }
    if (!strcmp(w, "rebound") && !*rest) {
        *out = (grit_tester_cond){GRIT_TQ_REBOUND, 0, GRIT_OP_GT, 0.5};
        return 0;
    }
    if (!strcmp(w, "not")) {
        p = word(rest, w, sizeof w);
        if (!strcmp(w, "C") && !*skip_ws(p)) {
            *out = (grit_tester_cond){GRIT_TQ_CONTACT, 0, GRIT_OP_LT, 0.5};
            return 0;
        }
        PARSE_FAIL("tester condition '%s': only 'not C' is known", text);
    }
    int q = -1;
    bool indexed = false;
    for (size_t k = 0; k < sizeof names / sizeof names[0]; k++)
        if (!strcmp(w, names[k].name)) {
            q = names[k].quantity;
            indexed = names[k].indexed;
        }
    if (q < 0)
        PARSE_FAIL("tester condition '%s': unknown quantity '%s' (known: C, not C, broken, rebound, uN, step, time, "
                   "cTime, bounces, u[k], f[k], v[k], fErrRel[k], fErrAbs[k], E[energy])",
                   text, w);
    int index = 0;
    if (indexed) {
        if (*rest != '[') PARSE_FAIL("tester condition '%s': '%s' needs an index, e.g. %s[0]", text, w, w);
        p = word(skip_ws(rest + 1), idx, sizeof idx);
        p = skip_ws(p);
        if (*p != ']') PARSE_FAIL("tester condition '%s': missing ']'", text);
        rest = skip_ws(p + 1);
        if (q == GRIT_TQ_ENERGY) {
            index = -1;
            for (int k = 0; k < GRIT_E_COUNT; k++)
                if (!strcmp(idx, grit_energy_name(k))) index = k;
            if (index < 0) {
                size_t n = (size_t)snprintf(err, err ? errlen : 0, "tester condition '%s': unknown energy '%s'; known:",
                                            text, idx);
                for (int k = 0; err && k < GRIT_E_COUNT && n < errlen; k++)
                    n += (size_t)snprintf(err + n, errlen - n, " %s", grit_energy_name(k));
                return -1;
            }
        } else {
            if (!(idx[0] >= '0' && idx[0] <= '5' && idx[1] == '\0'))
                PARSE_FAIL("tester condition '%s': index '%s' must be 0..5", text, idx);
            index = idx[0] - '0';
        }
    }
    int op;
    if (rest[0] == '<' && rest[1] == '=') op = GRIT_OP_LE, rest += 2;
    else if (rest[0] == '>' && rest[1] == '=') op = GRIT_OP_GE, rest += 2;
    else if (rest[0] == '<') op = GRIT_OP_LT, rest += 1;
    else if (rest[0] == '>') op = GRIT_OP_GT, rest += 1;
    else PARSE_FAIL("tester condition '%s': expected one of < <= > >= after '%s'", text, w);
    rest = skip_ws(rest);
    char *end;
    errno = 0;
    double v = strtod(rest, &end);
    if (end == rest || errno == ERANGE || *skip_ws(end) || !isfinite(v))
        PARSE_FAIL("tester condition '%s': '%s' is not a finite number", text, rest);
    *out = (grit_tester_cond){q, index, op, v};
    return 0;
}

static double quantity(const grit_scene *s, const grit_tester_state *st, const grit_tester_cond *c)
{
    int k = c->index;
    switch (c->quantity) {
    case GRIT_TQ_CONTACT: return st->has_contact ? 1.0 : 0.0;
    case GRIT_TQ_BROKEN: return st->had_contact && !st->has_contact ? 1.0 : 0.0;
    case GRIT_TQ_UN: return st->u[0];
    case GRIT_TQ_U: return st->u[k];
    case GRIT_TQ_F: return st->f[k];
    case GRIT_TQ_V: return st->v[k];
    case GRIT_TQ_FERR_REL: return st->f_err_rel[k];
    case GRIT_TQ_FERR_ABS: return st->f_err_abs[k];
    case GRIT_TQ_STEP: return (double)st->stage_step;
    case GRIT_TQ_TIME: return st->stage_time;
    case GRIT_TQ_BOUNCES: return st->bounces;
    case GRIT_TQ_ENERGY: return grit_energy(s, k);
    case GRIT_TQ_REBOUND: return st->bounces >= 2 || (st->had_contact && !st->has_contact) ? 1.0 : 0.0;
    case GRIT_TQ_CTIME: return st->stage_time - st->time_c0;
    default: return NAN;
    }
}

bool grit_tester_cond_eval(const grit_scene *s, const grit_tester_state *st, const grit_tester_cond *c)
{
    double x = quantity(s, st, c);
    switch (c->op) {
    case GRIT_OP_LT: return x < c->value;
    case GRIT_OP_LE: return x <= c->value;
    case GRIT_OP_GT: return x > c->value;
    case GRIT_OP_GE: return x >= c->value;
    default: return false;
    }
}

/* Check a condition built in C (not parsed): quantity, index and op in range. */
int grit_tester_cond_check(const grit_tester_cond *c, char *err, size_t errlen)
{
    if (c->quantity < 0 || c->quantity >= GRIT_TQ_COUNT)
        PARSE_FAIL("tester condition: quantity %d is not a grit_tester_quantity", c->quantity);
    if (c->op < GRIT_OP_LT || c->op > GRIT_OP_GE) PARSE_FAIL("tester condition: op %d is not a grit_tester_op", c->op);
    int hi = c->quantity == GRIT_TQ_ENERGY ? GRIT_E_COUNT - 1 : 5;
    bool indexed = c->quantity == GRIT_TQ_U || c->quantity == GRIT_TQ_F || c->quantity == GRIT_TQ_V ||
                   c->quantity == GRIT_TQ_FERR_REL || c->quantity == GRIT_TQ_FERR_ABS ||
                   c->quantity == GRIT_TQ_ENERGY;
    if (indexed && (c->index < 0 || c->index > hi))
        PARSE_FAIL("tester condition: index %d out of range 0..%d", c->index, hi);
    if (c->quantity != GRIT_TQ_NONE && isnan(c->value)) PARSE_FAIL("tester condition: value is NaN");
    return 0;
}
