/* grit: the parameter groups "pack" and "clip" (include/grit/pack.h) and
 * the small helpers the packing files share. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "pack/pack_impl.h"

grit_pack_def grit_default_pack_def(void) { return (grit_pack_def){GRIT_PACK_PARAMS(GRIT_PARAM_DEFAULT)}; }
grit_clip_def grit_default_clip_def(void) { return (grit_clip_def){GRIT_CLIP_PARAMS(GRIT_PARAM_DEFAULT)}; }

grit_pack_opts grit_default_pack_opts(void)
{
    return (grit_pack_opts){.psd = NULL, .monitor = NULL, .monitor_data = NULL, .monitor_every = 1000,
                            .keep_scene = NULL};
}

#define PACK_INFO(...) GRIT_PARAM_INFO(grit_pack_def, __VA_ARGS__)
static const grit_param_info pack_params[] = {GRIT_PACK_PARAMS(PACK_INFO)};
const grit_param_table grit_pack_param_table = {"pack", pack_params, (int)(sizeof pack_params / sizeof pack_params[0])};

#define CLIP_INFO(...) GRIT_PARAM_INFO(grit_clip_def, __VA_ARGS__)
static const grit_param_info clip_params[] = {GRIT_CLIP_PARAMS(CLIP_INFO)};
const grit_param_table grit_clip_param_table = {"clip", clip_params, (int)(sizeof clip_params / sizeof clip_params[0])};

int pack_fail(char *err, size_t errlen, int code, const char *fmt, ...)
{
    if (err && errlen) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err, errlen, fmt, ap);
        va_end(ap);
    }
    return code;
}

void pack_exact(double x, char *buf, size_t len)
{
    for (int d = 6; d <= 17; d++) {
        snprintf(buf, len, "%.*g", d, x);
        if (strtod(buf, NULL) == x || isnan(x)) return;
    }
}

size_t pack_format_params(const grit_param_table *t, const void *def, char *buf, size_t len)
{
    size_t n = 0;
    if (len) buf[0] = '\0';
    for (int i = 0; i < t->count && n < len; i++) {
        const grit_param_info *p = &t->params[i];
        char v[96], c[3][32];
        switch (p->type) {
        case GRIT_PT_vec3: {
            grit_vec3 x = grit_param_get_vec3(p, def);
            pack_exact(x.x, c[0], sizeof c[0]), pack_exact(x.y, c[1], sizeof c[1]), pack_exact(x.z, c[2], sizeof c[2]);
            snprintf(v, sizeof v, "%s,%s,%s", c[0], c[1], c[2]);
            break;
        }
        case GRIT_PT_flag: snprintf(v, sizeof v, "%s", grit_param_get_double(p, def) != 0 ? "true" : "false"); break;
        case GRIT_PT_choice: grit_param_choice_name(p, (int)grit_param_get_double(p, def), v, sizeof v); break;
        default: pack_exact(grit_param_get_double(p, def), v, sizeof v);
        }
        n += (size_t)snprintf(buf + n, len - n, "%s%s=%s", i ? " " : "", p->name, v);
    }
    return n < len ? n : len;
}

int pack_info_append(grit_packing *p, const char *line)
{
    const size_t old = p->info ? strlen(p->info) : 0, add = strlen(line);
    char *s = realloc(p->info, old + add + 2);
    if (!s) return -1;
    if (old) s[old] = '\n';
    memcpy(s + old + (old ? 1 : 0), line, add + 1);
    p->info = s;
    return 0;
}
