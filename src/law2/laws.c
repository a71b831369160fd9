/* grit: the laws' names, parameter tables and defaults, generated from
 * GRIT_LAWS and each law's parameter list (grit/law.h), and the scene's
 * copy of every law's parameters. */
#include <string.h>

#include "core/scene_impl.h"
#include "law2/law2.h"

#define DEFAULT_FN(U, l, phys, name) \
    grit_##l##_def grit_default_##l##_def(void) { return (grit_##l##_def){GRIT_##U##_PARAMS(GRIT_PARAM_DEFAULT)}; }
GRIT_LAWS(DEFAULT_FN)
#undef DEFAULT_FN

#define TABLE(U, l, phys, name)                                                                          \
    static const grit_param_info l##_params[] = {GRIT_##U##_PARAMS(L_INFO_##U)};                          \
    const grit_param_table grit_##l##_param_table = {#l, l##_params, (int)(sizeof l##_params / sizeof l##_params[0])};
#define L_INFO_IDEALELPL(...) GRIT_PARAM_INFO(grit_idealelpl_def, __VA_ARGS__)
#define L_INFO_LINEL6(...) GRIT_PARAM_INFO(grit_linel6_def, __VA_ARGS__)
#define L_INFO_KUHN(...) GRIT_PARAM_INFO(grit_kuhn_def, __VA_ARGS__)
#define L_INFO_CPM(...) GRIT_PARAM_INFO(grit_cpm_def, __VA_ARGS__)
#define L_INFO_HERTZ(...) GRIT_PARAM_INFO(grit_hertz_def, __VA_ARGS__)
GRIT_LAWS(TABLE)
#undef TABLE

typedef struct law_info {
    const char *name, *woo_name;
    int phys;
    const grit_param_table *table;
    size_t def_size, offset; /* in grit_law_defs */
} law_info;

static const law_info laws[GRIT_LAW_COUNT] = {
#define INFO(U, l, phys, wname) \
    [GRIT_LAW_##U] = {#l, wname, GRIT_PHYS_##phys, &grit_##l##_param_table, sizeof(grit_##l##_def), offsetof(grit_law_defs, l)},
    GRIT_LAWS(INFO)
#undef INFO
};

static const char *const phys_names[GRIT_PHYS_COUNT] = {
#define PNAME(U, name) [GRIT_PHYS_##U] = name,
    GRIT_PHYS_TYPES(PNAME)
#undef PNAME
};

grit_law_defs grit_default_law_defs(void)
{
    grit_law_defs d;
#define FILL(U, l, phys, name) d.l = grit_default_##l##_def();
    GRIT_LAWS(FILL)
#undef FILL
    return d;
}

static bool law_ok(int law) { return law >= 0 && law < GRIT_LAW_COUNT; }
const char *grit_law_name(int law) { return law_ok(law) ? laws[law].name : NULL; }
const char *grit_law_woo_name(int law) { return law_ok(law) ? laws[law].woo_name : NULL; }
int grit_law_phys(int law) { return law_ok(law) ? laws[law].phys : -1; }
const grit_param_table *grit_law_param_table(int law) { return law_ok(law) ? laws[law].table : NULL; }
const char *grit_phys_name(int phys) { return phys >= 0 && phys < GRIT_PHYS_COUNT ? phys_names[phys] : NULL; }

int grit_law_find(const char *name)
{
    for (int l = 0; name && l < GRIT_LAW_COUNT; l++)
        if (!strcmp(name, laws[l].name)) return l;
    return -1;
}

static int check_size(grit_scene *s, int law, const void *def, size_t size, const char *fn)
{
    if (!law_ok(law)) return grit_fail(s, GRIT_EINVAL, "%s: law %d out of range [0, %d)", fn, law, GRIT_LAW_COUNT);
    if (!def || size != laws[law].def_size)
        return grit_fail(s, GRIT_EINVAL, "%s: the parameters of law %s have %zu bytes, not %zu", fn, laws[law].name,
                         laws[law].def_size, size);
    return GRIT_OK;
}

int grit_set_law_def(grit_scene *s, int law, const void *def, size_t size)
{
    int rc = check_size(s, law, def, size, "grit_set_law_def");
    if (rc) return rc;
    if (grit_param_validate(laws[law].table, def, s->err, sizeof s->err)) return GRIT_EINVAL;
    if (law == GRIT_LAW_CPM) { /* ranges that depend on each other */
        const grit_cpm_opts o = grit_cpm_opts_from(def);
        if (grit_cpm_opts_check(&o, s->err, sizeof s->err)) return GRIT_EINVAL;
    }
    memcpy((char *)&s->laws + laws[law].offset, def, size);
    s->laws_check = true;
    return GRIT_OK;
}

int grit_get_law_def(const grit_scene *s, int law, void *def, size_t size)
{
    int rc = check_size((grit_scene *)s, law, def, size, "grit_get_law_def");
    if (rc) return rc;
    memcpy(def, (const char *)&s->laws + laws[law].offset, size);
    return GRIT_OK;
}
