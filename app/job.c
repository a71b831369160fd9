/* grit command line: the parameters of a job -- key=value parsing, help,
 * the record of a run -- all read from the declarations. */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

#define RUN_INFO(...) GRIT_PARAM_INFO(run_def, __VA_ARGS__)
static const grit_param_info run_params[] = {GRIT_RUN_PARAMS(RUN_INFO)};
const grit_param_table run_param_table = {"run", run_params, (int)(sizeof run_params / sizeof run_params[0])};

double cli_uniform(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    z ^= z >> 31;
    return (double)(z >> 11) * 0x1.0p-53;
}

void cli_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("grit: error: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

void job_add_group(job *j, const char *title, const grit_param_table *t, void *def)
{
    if (j->n_groups < MAX_GROUPS) j->groups[j->n_groups++] = (param_group){title, t, def};
}

void job_add_text(job *j, const char *group, text_param *t)
{
    t->group = group;
    if (j->n_texts < MAX_TEXTS) j->texts[j->n_texts++] = t;
}

/* Every key of the job (in a static array). */
static const char *const *all_names(const job *j, int *n)
{
    static const char *names[256];
    int k = 0;
    for (int g = 0; g < j->n_groups; g++)
        for (int i = 0; i < j->groups[g].table->count && k < 256; i++) names[k++] = j->groups[g].table->params[i].name;
    for (int t = 0; t < j->n_texts && k < 256; t++) names[k++] = j->texts[t]->name;
    *n = k;
    return names;
}

int job_init(job *j, const preproc *p)
{
    memset(j, 0, sizeof *j);
    j->pre = p;
    j->run = (run_def){GRIT_RUN_PARAMS(GRIT_PARAM_DEFAULT)};
    j->scene = grit_default_scene_def();
    j->laws = grit_default_law_defs();
    snprintf(j->out_default, sizeof j->out_default, "%s-out", p->name);
    j->out = (text_param){"out", j->out_default,
                          "output folder; written as OUT.partial and renamed to OUT when the run completes", NULL};
    j->save = (text_param){"save", NULL,
                           "also save the final scene to this restart file (OUT/restart.grit is always written)",
                           NULL};
    p->init(j);
    if (p->make) { /* it makes its own output: no scene to step */
        job_add_text(j, j->n_groups ? j->groups[j->n_groups - 1].title : "output", &j->out);
        job_add_text(j, j->n_groups ? j->groups[j->n_groups - 1].title : "output", &j->save);
    } else {
        job_add_group(j, "run", &run_param_table, &j->run);
        job_add_text(j, "run", &j->out);
        job_add_text(j, "run", &j->save);
    }
    if (!p->load && !p->make) {
        job_add_group(j, "scene", &grit_scene_param_table, &j->scene);
        static char titles[GRIT_LAW_COUNT][64];
        void *defs[GRIT_LAW_COUNT] = {
#define LAW_DEF(U, l, phys, name) [GRIT_LAW_##U] = &j->laws.l,
            GRIT_LAWS(LAW_DEF)
#undef LAW_DEF
        };
        for (int l = 0; l < GRIT_LAW_COUNT; l++) {
            snprintf(titles[l], sizeof titles[l], "law %s (%s)", grit_law_name(l), grit_law_woo_name(l));
            job_add_group(j, titles[l], grit_law_param_table(l), defs[l]);
        }
    }
    /* one key, one meaning: a name declared in two groups is a bug here */
    int n;
    const char *const *names = all_names(j, &n);
    for (int a = 0; a < n; a++)
        for (int b = a + 1; b < n; b++)
            if (!strcmp(names[a], names[b])) {
                cli_error("internal: parameter '%s' of 'grit run %s' is declared twice", names[a], p->name);
                return 3;
            }
    return 0;
}

/* Levenshtein distance, for "did you mean" */
int cli_distance(const char *a, const char *b)
{
    int la = (int)strlen(a), lb = (int)strlen(b);
    if (la > 63 || lb > 63) return 99;
    int d[64][64];
    for (int i = 0; i <= la; i++) d[i][0] = i;
    for (int k = 0; k <= lb; k++) d[0][k] = k;
    for (int i = 1; i <= la; i++)
        for (int k = 1; k <= lb; k++) {
            int c = d[i - 1][k - 1] + (a[i - 1] != b[k - 1]);
            if (d[i - 1][k] + 1 < c) c = d[i - 1][k] + 1;
            if (d[i][k - 1] + 1 < c) c = d[i][k - 1] + 1;
            d[i][k] = c;
        }
    return d[la][lb];
}

static void unknown_key(const job *j, const char *key, const char *where)
{
    if (j->pre->load && grit_param_find(&grit_scene_param_table, key)) {
        cli_error("%s'%s' is a scene parameter: 'grit run %s' keeps the parameters the scene was saved with", where, key,
                  j->pre->name);
        return;
    }
    if (j->pre->make && grit_param_find(&grit_scene_param_table, key)) {
        cli_error("%s'%s' is a scene parameter: 'grit run %s' sets up its own scene; 'grit help run %s' lists its keys",
                  where, key, j->pre->name, j->pre->name);
        return;
    }
    if (j->pre->make && grit_param_find(&run_param_table, key)) {
        cli_error("%s'%s' is a run control of the other preprocessors: 'grit run %s' runs until it is done; "
                  "'grit help run %s' lists its keys",
                  where, key, j->pre->name, j->pre->name);
        return;
    }
    int n, best = 99;
    const char *const *names = all_names(j, &n), *guess = NULL;
    for (int i = 0; i < n; i++) {
        int d = cli_distance(key, names[i]);
        if (d < best) best = d, guess = names[i];
    }
    char hint[96] = "";
    if (guess && best <= 2) snprintf(hint, sizeof hint, " (did you mean '%s'?)", guess);
    cli_error("%sunknown parameter '%s' for 'grit run %s'%s; 'grit help run %s' lists them", where, key, j->pre->name, hint,
              j->pre->name);
}

/* One key=value of the command line or of a parameter file. */
typedef struct job_arg {
    const char *text;
    const char *file; /* NULL: the command line */
    int line;
} job_arg;

/* The arguments with every @FILE replaced by its lines (each a key=value;
 * blank lines and lines starting with # skipped). The lines stay allocated
 * for the whole run: text parameters point into them. */
static job_arg *expand_args(int argc, char **argv, int *n_out)
{
    static char **kept; /* every line read, reachable until exit */
    static size_t n_kept;
    size_t cap = (size_t)argc + 16, n = 0;
    job_arg *out = malloc(cap * sizeof *out);
    if (!out) return cli_error("out of memory"), NULL;
    for (int i = 0; i < argc; i++) {
        if (argv[i][0] != '@') {
            out[n++] = (job_arg){argv[i], NULL, 0};
            continue;
        }
        const char *path = argv[i] + 1;
        FILE *f = fopen(path, "r");
        if (!f) {
            cli_error("cannot read the parameter file '%s': %s", path, strerror(errno));
            free(out);
            return NULL;
        }
        char *line = NULL;
        size_t len = 0;
        int no = 0;
        while (getline(&line, &len, f) >= 0) {
            no++;
            line[strcspn(line, "\r\n")] = '\0';
            const char *t = line + strspn(line, " \t");
            if (!*t || *t == '#') continue;
            char *copy = strdup(t), **k = realloc(kept, (n_kept + 1) * sizeof *kept);
            if (k) kept = k;
            if (!copy || !k) {
                free(copy);
                fclose(f);
                free(line);
                free(out);
                return cli_error("out of memory"), NULL;
            }
            kept[n_kept++] = copy;
            if (n == cap) {
                job_arg *o = realloc(out, 2 * cap * sizeof *out);
                if (!o) {
                    fclose(f);
                    free(line);
                    free(out);
                    return cli_error("out of memory"), NULL;
                }
                out = o, cap *= 2;
            }
            out[n++] = (job_arg){copy, path, no};
        }
        free(line);
        fclose(f);
    }
    *n_out = (int)n;
    return out;
}

int job_parse(job *j, int argc, char **argv)
{
    int n = 0;
    job_arg *args = expand_args(argc, argv, &n);
    if (!args) return EXIT_BAD_INPUT;
    int rc = 0;
    for (int i = 0; i < n && !rc; i++) {
        const char *arg = args[i].text, *eq = strchr(arg, '=');
        char where[PATH_MAX + 32] = "";
        if (args[i].file) snprintf(where, sizeof where, "%s:%d: ", args[i].file, args[i].line);
        if (!eq || eq == arg) {
            cli_error("%sexpected key=value, found '%s' ('grit help run %s' lists the keys)", where, arg,
                      j->pre->name);
            rc = EXIT_BAD_INPUT;
            break;
        }
        char key[64];
        if ((size_t)(eq - arg) >= sizeof key) {
            cli_error("%sparameter name '%.*s...' is too long", where, 20, arg);
            rc = EXIT_BAD_INPUT;
            break;
        }
        snprintf(key, sizeof key, "%.*s", (int)(eq - arg), arg);
        const char *value = eq + 1;
        /* twice on the command line is a mistake; a parameter file's value
         * is overridden by a later file or the command line */
        for (int k = 0; k < i && !args[i].file; k++)
            if (!args[k].file && !strncmp(args[k].text, arg, (size_t)(eq - arg) + 1)) {
                cli_error("parameter '%s' is given twice ('%s' and '%s')", key, args[k].text, arg);
                rc = EXIT_BAD_INPUT;
            }
        if (rc) break;
        bool found = false;
        for (int t = 0; t < j->n_texts && !found; t++)
            if (!strcmp(j->texts[t]->name, key)) {
                if (!*value) {
                    cli_error("%sparameter '%s' is empty", where, key);
                    rc = EXIT_BAD_INPUT;
                    break;
                }
                j->texts[t]->value = value;
                found = true;
            }
        if (rc) break;
        for (int g = 0; g < j->n_groups && !found; g++) {
            const param_group *G = &j->groups[g];
            if (!grit_param_find(G->table, key)) continue;
            char err[512];
            if (grit_param_set_text(G->table, G->def, key, value, err, sizeof err)) {
                cli_error("%s%s", where, err);
                rc = EXIT_BAD_INPUT;
            }
            found = true;
        }
        if (!found && !rc) {
            unknown_key(j, key, where);
            rc = EXIT_BAD_INPUT;
        }
    }
    free(args);
    return rc;
}

/* The shortest text that reads back as exactly x (at most 17 digits). */
static void exact(double x, char *buf, size_t len)
{
    for (int d = 6; d <= 17; d++) {
        snprintf(buf, len, "%.*g", d, x);
        if (strtod(buf, NULL) == x || isnan(x)) return;
    }
}

/* The value as key=value accepts it: `digits` significant digits, or 0 for
 * the exact value. */
void job_format_value(const grit_param_info *p, const void *def, int digits, char *buf, size_t len)
{
    if (digits == 0 && p->type == GRIT_PT_vec3) {
        grit_vec3 v = grit_param_get_vec3(p, def);
        char c[3][32];
        exact(v.x, c[0], sizeof c[0]), exact(v.y, c[1], sizeof c[1]), exact(v.z, c[2], sizeof c[2]);
        if ((size_t)snprintf(buf, len, "%s,%s,%s", c[0], c[1], c[2]) >= len) buf[0] = 0;
        return;
    }
    if (digits == 0 && (p->type == GRIT_PT_double || p->type == GRIT_PT_int)) {
        exact(grit_param_get_double(p, def), buf, len);
        return;
    }
    switch (p->type) {
    case GRIT_PT_vec3: {
        grit_vec3 v = grit_param_get_vec3(p, def);
        snprintf(buf, len, "%.*g,%.*g,%.*g", digits, v.x, digits, v.y, digits, v.z);
        break;
    }
    case GRIT_PT_flag: snprintf(buf, len, "%s", grit_param_get_double(p, def) != 0 ? "true" : "false"); break;
    case GRIT_PT_choice: grit_param_choice_name(p, (int)grit_param_get_double(p, def), buf, len); break;
    default: snprintf(buf, len, "%.*g", digits, grit_param_get_double(p, def));
    }
}

static void help_line(const char *name, const char *value, const char *unit, const char *range, const char *doc)
{
    printf("  %-18s = %-14s %-7s %-22s %s\n", name, value, unit, range, doc);
}

void job_help(const job *j)
{
    printf("grit run %s [key=value ...]\n  %s\n", j->pre->name, j->pre->summary);
    printf("\nEvery key below can be given as key=value; shown with its default, unit and range.\n");
    for (int g = 0; g < j->n_groups; g++) {
        const param_group *G = &j->groups[g];
        printf("\n%s parameters:\n", G->title);
        for (int t = 0; t < j->n_texts; t++)
            if (!strcmp(j->texts[t]->group, G->title))
                help_line(j->texts[t]->name, j->texts[t]->value ? j->texts[t]->value : "", "", "text",
                          j->texts[t]->doc);
        for (int i = 0; i < G->table->count; i++) {
            const grit_param_info *p = &G->table->params[i];
            char v[128], r[128];
            job_format_value(p, G->def, 10, v, sizeof v);
            grit_param_range_text(p, r, sizeof r);
            help_line(p->name, v, p->unit, r, p->doc);
        }
    }
}

void job_print_params(const job *j, FILE *f)
{
    for (int t = 0; t < j->n_texts; t++) /* a text not given is left out: "key=" would not parse */
        if (j->texts[t]->value) fprintf(f, "%s=%s\n", j->texts[t]->name, j->texts[t]->value);
    for (int g = 0; g < j->n_groups; g++) {
        const param_group *G = &j->groups[g];
        for (int i = 0; i < G->table->count; i++) {
            char v[128];
            job_format_value(&G->table->params[i], G->def, 0, v, sizeof v);
            fprintf(f, "%s=%s\n", G->table->params[i].name, v);
        }
    }
}
