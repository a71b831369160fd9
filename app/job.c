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
    /* a command-line run is a physical scene: a blow-up stops it (the library
     * default only warns: tests and the law tester drive overlaps by hand) */
    j->scene.on_blowup = 0;
    j->laws = grit_default_law_defs();
    snprintf(j->out_default, sizeof j->out_default, "%s-out", p->name);
    j->out = (text_param){"out", j->out_default,
                          "output folder; written as OUT.partial and renamed to OUT when the run completes", NULL};
    j->save = (text_param){"save", NULL,
                           "also save the final scene to this restart file (OUT/restart.grit is always written)",
                           NULL};
    p->init(j);
    j->n_own_groups = j->n_groups;
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

/* Edit distance for "did you mean": Levenshtein's, with a swap of two
 * neighbouring letters as one edit (the commonest typo: rnu, hlep). */
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
            if (i > 1 && k > 1 && a[i - 1] == b[k - 2] && a[i - 2] == b[k - 1] && d[i - 2][k - 2] + 1 < c)
                c = d[i - 2][k - 2] + 1;
            d[i][k] = c;
        }
    return d[la][lb];
}

const char *cli_suggest(const char *word, const char *const *candidates, int n)
{
    const size_t len = strlen(word);
    /* a short word allows fewer edits: two edits turn any 3-letter word into 'run' */
    int best = len <= 4 ? 2 : 3;
    const char *guess = NULL;
    for (int i = 0; i < n; i++) {
        int d = cli_distance(word, candidates[i]);
        if (len >= 3 && !strncmp(word, candidates[i], len)) d = 1; /* a word it begins: dep for deposit */
        if (d < best) best = d, guess = candidates[i];
    }
    return guess;
}

static void unknown_key(const job *j, const char *key, const char *where)
{
    if (j->pre->load && grit_param_find(&grit_scene_param_table, key)) {
        cli_error("%s'%s' is a scene parameter: 'grit run %s' keeps the parameters the scene was saved with", where, key,
                  j->pre->name);
        return;
    }
    if (j->pre->make && grit_param_find(&grit_scene_param_table, key)) {
        cli_error("%s'%s' is a scene parameter: 'grit run %s' sets up its own scene; 'grit help %s' lists its keys",
                  where, key, j->pre->name, j->pre->name);
        return;
    }
    if (j->pre->make && grit_param_find(&run_param_table, key)) {
        cli_error("%s'%s' is a run control of the other preprocessors: 'grit run %s' runs until it is done; "
                  "'grit help %s' lists its keys",
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
    cli_error("%sunknown parameter '%s' for 'grit run %s'%s; 'grit help %s --all' lists them", where, key, j->pre->name,
              hint, j->pre->name);
}

/* The names are the declarations' own: they outlive the job. */
static void mark_given(job *j, const char *name)
{
    if (!job_given(j, name) && j->n_given < (int)(sizeof j->given / sizeof j->given[0])) j->given[j->n_given++] = name;
}

bool job_given(const job *j, const char *key)
{
    for (int i = 0; i < j->n_given; i++)
        if (!strcmp(j->given[i], key)) return true;
    return false;
}

/* One key=value; `where` ("" or "FILE:LINE: ") starts its error messages. */
static int set_arg(job *j, const char *arg, const char *where)
{
    const char *eq = strchr(arg, '=');
    if (!eq || eq == arg) {
        cli_error("%sexpected key=value, found '%s' ('grit help %s --all' lists the keys)", where, arg, j->pre->name);
        return EXIT_BAD_INPUT;
    }
    char key[64];
    if ((size_t)(eq - arg) >= sizeof key) {
        cli_error("%sparameter name '%.*s...' is too long", where, 20, arg);
        return EXIT_BAD_INPUT;
    }
    snprintf(key, sizeof key, "%.*s", (int)(eq - arg), arg);
    const char *value = eq + 1;
    for (int t = 0; t < j->n_texts; t++)
        if (!strcmp(j->texts[t]->name, key)) {
            if (!*value) {
                cli_error("%sparameter '%s' is empty", where, key);
                return EXIT_BAD_INPUT;
            }
            j->texts[t]->value = value;
            mark_given(j, j->texts[t]->name);
            return 0;
        }
    for (int g = 0; g < j->n_groups; g++) {
        const param_group *G = &j->groups[g];
        const grit_param_info *info = grit_param_find(G->table, key);
        if (!info) continue;
        char err[512];
        if (grit_param_set_text(G->table, G->def, key, value, err, sizeof err)) {
            cli_error("%s%s", where, err);
            return EXIT_BAD_INPUT;
        }
        mark_given(j, info->name);
        return 0;
    }
    unknown_key(j, key, where);
    return EXIT_BAD_INPUT;
}

/* Parameter files (@FILE): kept for the life of the process, since text
 * parameters point into them. */
enum { PARAM_FILE_MAX = 1 << 20, PARAM_FILES = 8 };
static char *param_files[PARAM_FILES];
static int n_param_files;

/* The key=value tokens of FILE, separated by blanks or lines; '#' starts a
 * comment that runs to the end of the line. A key given twice in one file
 * is an error; the command line after @FILE may override it. */
static int read_param_file(job *j, const char *path)
{
    if (!*path) {
        cli_error("'@' needs a file name: @FILE reads key=value parameters from FILE");
        return EXIT_BAD_INPUT;
    }
    if (n_param_files == PARAM_FILES) {
        cli_error("more than %d parameter files (@FILE)", PARAM_FILES);
        return EXIT_BAD_INPUT;
    }
    FILE *f = fopen(path, "rb");
    if (!f) {
        cli_error("cannot read the parameter file '%s'", path);
        return EXIT_BAD_INPUT;
    }
    char *buf = malloc(PARAM_FILE_MAX + 1);
    const size_t n = buf ? fread(buf, 1, PARAM_FILE_MAX + 1, f) : 0;
    const bool bad = !buf || ferror(f);
    fclose(f);
    if (bad || n > PARAM_FILE_MAX) {
        free(buf);
        cli_error(bad ? "cannot read the parameter file '%s'" : "the parameter file '%s' is larger than 1 MiB", path);
        return EXIT_BAD_INPUT;
    }
    buf[n] = '\0';
    param_files[n_param_files++] = buf;
    if (memchr(buf, '\0', n)) {
        cli_error("the parameter file '%s' holds a NUL byte: not a text file", path);
        return EXIT_BAD_INPUT;
    }
    enum { MAX_TOKENS = 4096 };
    static const char *seen[MAX_TOKENS];
    int n_seen = 0, line = 1;
    for (char *p = buf; *p;) {
        if (*p == '\n') line++;
        if (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n') {
            p++;
            continue;
        }
        if (*p == '#') {
            while (*p && *p != '\n') p++;
            continue;
        }
        char where[4200];
        snprintf(where, sizeof where, "%s:%d: ", path, line);
        /* a value may be quoted, 'like this' or "like this", to hold blanks
         * or '#' (a path with a space: grit-run.txt writes them so) */
        char *tok = p, *w = p;
        bool in_value = false;
        while (*p && *p != ' ' && *p != '\t' && *p != '\r' && *p != '\n' && *p != '#') {
            if (in_value && (*p == '\'' || *p == '"')) {
                const char q = *p++;
                while (*p && *p != q && *p != '\n') *w++ = *p++;
                if (*p != q) {
                    cli_error("%sthe quote %c opened in '%.40s' is not closed on its line", where, q, tok);
                    return EXIT_BAD_INPUT;
                }
                p++;
                continue;
            }
            if (*p == '=') in_value = true;
            *w++ = *p++;
        }
        const char end = *p;
        *w = '\0';
        const char *eq = strchr(tok, '=');
        if (eq && n_seen < MAX_TOKENS) {
            for (int k = 0; k < n_seen; k++)
                if (!strncmp(seen[k], tok, (size_t)(eq - tok) + 1)) {
                    cli_error("%sparameter '%.*s' is given twice in the file ('%s' and '%s')", where,
                              (int)(eq - tok), tok, seen[k], tok);
                    return EXIT_BAD_INPUT;
                }
            seen[n_seen++] = tok;
        }
        const int rc = set_arg(j, tok, where);
        if (rc) return rc;
        if (end == '#') { /* a comment right after the token */
            *p = '#';
            continue;
        }
        if (end) p++;
        if (end == '\n') line++;
    }
    return 0;
}

int job_parse(job *j, int argc, char **argv)
{
    for (int i = 0; i < argc; i++) {
        const char *arg = argv[i];
        if (arg[0] == '@') {
            const int rc = read_param_file(j, arg + 1);
            if (rc) return rc;
            continue;
        }
        const char *eq = strchr(arg, '=');
        if (eq && eq != arg)
            for (int k = 0; k < i; k++)
                if (argv[k][0] != '@' && !strncmp(argv[k], arg, (size_t)(eq - arg) + 1)) {
                    cli_error("parameter '%.*s' is given twice ('%s' and '%s')", (int)(eq - arg), arg, argv[k], arg);
                    return EXIT_BAD_INPUT;
                }
        const int rc = set_arg(j, arg, "");
        if (rc) return rc;
    }
    return 0;
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

/* The keys of the common groups by name only, wrapped: what --all would show. */
static void common_keys(const job *j)
{
    printf("\ncommon keys (grit help %s --all lists them with defaults, units and ranges):\n", j->pre->name);
    for (int g = j->n_own_groups; g < j->n_groups; g++) {
        const param_group *G = &j->groups[g];
        int col = printf("  %s:", G->title);
        const char *names[128];
        int n = 0;
        for (int i = 0; i < G->table->count && n < 128; i++) names[n++] = G->table->params[i].name;
        for (int t = 0; t < j->n_texts && n < 128; t++)
            if (!strcmp(j->texts[t]->group, G->title)) names[n++] = j->texts[t]->name;
        for (int i = 0; i < n; i++) {
            if (col + 1 + (int)strlen(names[i]) > 100) col = printf("\n   ");
            col += printf(" %s", names[i]);
        }
        putchar('\n');
    }
}

static void text_lines(const job *j, const char *group)
{
    for (int t = 0; t < j->n_texts; t++)
        if (!strcmp(j->texts[t]->group, group))
            help_line(j->texts[t]->name, j->texts[t]->value ? j->texts[t]->value : "", "", "text", j->texts[t]->doc);
}

void job_help(const job *j, bool all)
{
    printf("grit run %s [key=value ...]\n  %s\n", j->pre->name, j->pre->summary);
    printf("\nEvery key below can be given as key=value; shown with its default, unit and range.\n");
    /* text keys of a group with no numeric table (restart's file) */
    for (int t = 0; t < j->n_texts; t++) {
        bool alone = true, first = true;
        for (int g = 0; g < j->n_groups; g++) alone = alone && strcmp(j->texts[t]->group, j->groups[g].title) != 0;
        for (int u = 0; u < t; u++) first = first && strcmp(j->texts[u]->group, j->texts[t]->group) != 0;
        if (alone && first) {
            printf("\n%s parameters:\n", j->texts[t]->group);
            text_lines(j, j->texts[t]->group);
        }
    }
    const int shown = all ? j->n_groups : j->n_own_groups;
    for (int g = 0; g < shown; g++) {
        const param_group *G = &j->groups[g];
        printf("\n%s parameters:\n", G->title);
        text_lines(j, G->title);
        for (int i = 0; i < G->table->count; i++) {
            const grit_param_info *p = &G->table->params[i];
            char v[128], r[128];
            job_format_value(p, G->def, 10, v, sizeof v);
            grit_param_range_text(p, r, sizeof r);
            help_line(p->name, v, p->unit, r, p->doc);
        }
    }
    if (shown < j->n_groups) common_keys(j);
}

/* key=value as a parameter file reads it back: a value with blanks, '#' or
 * quotes is quoted (with the quote it does not contain). */
static void print_kv(FILE *f, const char *key, const char *value)
{
    if (!value[strcspn(value, " \t#'\"")]) {
        fprintf(f, "%s=%s\n", key, value);
        return;
    }
    const char q = strchr(value, '\'') ? '"' : '\'';
    fprintf(f, "%s=%c%s%c\n", key, q, value, q);
}

void job_print_group(const grit_param_table *t, const void *def, FILE *f)
{
    for (int i = 0; i < t->count; i++) {
        char v[128];
        job_format_value(&t->params[i], def, 0, v, sizeof v);
        print_kv(f, t->params[i].name, v);
    }
}

void job_print_params(const job *j, FILE *f)
{
    for (int t = 0; t < j->n_texts; t++) /* a text not given is left out: "key=" would not parse */
        if (j->texts[t]->value) print_kv(f, j->texts[t]->name, j->texts[t]->value);
    for (int g = 0; g < j->n_groups; g++) job_print_group(j->groups[g].table, j->groups[g].def, f);
}
