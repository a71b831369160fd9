/* grit command line: what `grit run NAME key=value ...` is made of.
 *
 * A job gathers the parameter groups that `key=value` may set: the
 * preprocessor's own (declared with the X-macros of grit/params.h, like every
 * parameter of grit), the run controls below, and the scene parameters of
 * the library; plus a few text-valued options (file and folder names), which
 * the numeric tables cannot hold. Parsing, `grit help run NAME` and the error
 * messages all read these declarations. */
#ifndef GRIT_CLI_H
#define GRIT_CLI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "grit/grit.h"

/* ---- run controls, common to every preprocessor ---------------------------- */
/* clang-format off */
#define GRIT_RUN_PARAMS(X) \
    X(double, time, 1.0, "s", 0.0, INFINITY, GRIT_P_MIN_EXCL, NULL, \
      "simulated time to run (ignored when steps > 0)") \
    X(int, steps, 0, "steps", 0, 2e9, 0, NULL, "number of steps to run; 0: time / dt") \
    X(int, save_every, 0, "steps", -1, 2e9, 0, NULL, \
      "write a row of energy.csv and stats.csv every that many steps; 0: 200 rows per run; -1: none") \
    X(int, vtk_every, 0, "steps", -1, 2e9, 0, NULL, \
      "write a VTK frame every that many steps; 0: vtk_frames frames per run; -1: no VTK output") \
    X(int, vtk_frames, 40, "-", 1, 1e6, 0, NULL, "number of VTK frames when vtk_every is 0") \
    X(choice, vtk_format, 0, "-", 0, 2, 0, "zlib|binary|ascii", \
      "VTK arrays compressed with zlib (smallest), as base64 binary, or as text (readable)") \
    X(choice, vtk_precision, 0, "-", 0, 1, 0, "float64|float32", \
      "VTK floating-point arrays in double or single precision (7 digits, smaller files)") \
    X(double, progress, 5.0, "s", 0.0, INFINITY, 0, NULL, \
      "seconds between progress lines when stdout is not a terminal (0: none)") \
    X(double, stop_unbalanced, 0.0, "-", 0.0, INFINITY, 0, NULL, \
      "stop once settled: when the unbalanced force ratio (mean net force / mean contact force) falls below " \
      "this, checked at every energy.csv row (every 100 steps without one); 0: run to the end") \
    X(double, checkpoint, 600.0, "s", 0.0, INFINITY, 0, NULL, \
      "wall-clock seconds between restart files OUT.partial/restart.grit during the run (0: none)") \
    X(int, threads, 0, "-", 0, 1024, 0, NULL, \
      "worker threads; 0: OMP_NUM_THREADS if set, else automatic: up to the cores the process may use, fewer " \
      "while fewer are measured faster (a busy machine); the results are the same to the bit with any count")
/* clang-format on */

typedef struct run_def {
    GRIT_RUN_PARAMS(GRIT_PARAM_FIELD)
} run_def;
extern const grit_param_table run_param_table;

/* ---- text options ------------------------------------------------------------ */
typedef struct text_param {
    const char *name;
    const char *value; /* default, then what the command line gave */
    const char *doc;
    const char *group; /* the title of the group it is listed with */
} text_param;

/* ---- a job --------------------------------------------------------------- */
typedef struct param_group {
    const char *title;
    const grit_param_table *table;
    void *def;
} param_group;

enum { MAX_GROUPS = 6 + GRIT_LAW_COUNT, MAX_TEXTS = 6 };

typedef struct job job;

typedef struct preproc {
    const char *name;
    const char *summary;
    /* Register the preprocessor's groups and texts, set its defaults of the
     * run and scene parameters. */
    void (*init)(job *j);
    /* Fill the created scene (materials, particles); on error write one line
     * into err and return non-zero. */
    int (*build)(job *j, grit_scene *s, char *err, size_t len);
    /* Instead of create + build: a scene that exists already (a restart
     * file), whose own parameters are kept; the scene group is then not
     * offered on the command line. NULL for the scene generators. */
    grit_scene *(*load)(job *j, char *err, size_t len);
    /* Instead of a scene stepped by `grit run`: a preprocessor that makes
     * its output itself (grit run pack). Its job offers neither the scene
     * parameters nor the run controls, only its own groups and out=, save=.
     * `check` validates everything before the output folder exists; `make`
     * writes into dir (OUT.partial) and prints its summary; it returns 0,
     * 1 when interrupted (run_interrupted()), or -1 with one line in err. */
    int (*check)(job *j, char *err, size_t len);
    int (*make)(job *j, const char *dir, char *err, size_t len);
    /* Optional: lines of its own at the end of the summary; `rate` is the
     * outlets' steady discharge rate (kg/s, NaN without outlets). */
    void (*report)(const job *j, const grit_scene *s, double rate);
} preproc;

struct job {
    const preproc *pre;
    param_group groups[MAX_GROUPS];
    int n_groups;
    int n_own_groups; /* groups[0 .. n_own_groups - 1]: the preprocessor's own; then run, scene, laws */
    text_param *texts[MAX_TEXTS];
    int n_texts;
    run_def run;
    grit_scene_def scene;
    grit_law_defs laws; /* every law's parameters, set on the scene after build */
    text_param out;
    text_param save;
    char out_default[64];
    /* Optional, set by the preprocessor's init (NULL: none): steer the run,
     * e.g. change the velocity gradient of a periodic cell. Called before the
     * first step and then at the step it sets in *next (> the current step;
     * negative: never again); on error it writes one line into err and
     * returns non-zero. A run continued with `grit run restart` has none. */
    int (*control)(job *j, grit_scene *s, long *next, char *err, size_t len);
    const char *given[256]; /* the keys key=value or @FILE set */
    int n_given;
};

void job_add_group(job *j, const char *title, const grit_param_table *t, void *def);
void job_add_text(job *j, const char *group, text_param *t);

extern const preproc *const preprocs[];

/* The floor z = 0 and the walls x = 0, x, y = 0, y of material mat (the box
 * of the benchmark scene, also used by deposit). */
int add_open_box(grit_scene *s, int mat, double x, double y, char *err, size_t len);
const preproc *preproc_find(const char *name);

/* ---- the commands ------------------------------------------------------------ */
/* Set up a job for a preprocessor and parse key=value arguments; returns 0 or
 * prints one error line and returns non-zero. */
int job_init(job *j, const preproc *p);
int job_parse(job *j, int argc, char **argv);
/* The preprocessor's own keys with their defaults, units and ranges; the
 * common ones (run controls, scene, laws) likewise with `all`, else by name. */
void job_help(const job *j, bool all);
/* The command line or a parameter file set the key. */
bool job_given(const job *j, const char *key);
/* A parameter's value as key=value accepts it: `digits` significant digits,
 * or 0 for the exact value. */
void job_format_value(const grit_param_info *p, const void *def, int digits, char *buf, size_t len);
/* One line "name=value ..." per group, for the run's record. */
void job_print_params(const job *j, FILE *f);
/* One line "name=value" per parameter of a group, exact values (a file @FILE reads back). */
void job_print_group(const grit_param_table *t, const void *def, FILE *f);

int cmd_run(int argc, char **argv);
/* Ctrl-C or SIGTERM arrived since `grit run` started stepping. */
bool run_interrupted(void);
int cmd_plot(int argc, char **argv);
/* Run `python3 -m grit.plot ARGS` as grit plot does and wait for it; its
 * output is discarded. 0 when it made the figure, -1 otherwise. */
int plot_figure(int argc, const char *const *argv);
/* The manual page, grit.1, in roff, from the declarations (app/man.c). */
void cli_man_page(FILE *f);
/* "unknown preprocessor" with a suggestion for a near name. */
void cli_unknown_preproc(const char *name);
/* Edit distance of two short strings (99 when longer than 63). */
int cli_distance(const char *a, const char *b);
/* The candidate the word is a near misspelling (or the beginning) of, or NULL. */
const char *cli_suggest(const char *word, const char *const *candidates, int n);

/* exit codes */
enum { EXIT_BAD_INPUT = 2, EXIT_RUN_FAILED = 1, EXIT_INTERRUPTED = 130 };

/* A uniform random number in [0, 1) from a splitmix64 stream: small, fast,
 * the same on every machine (the generators' seeds). */
double cli_uniform(uint64_t *state);

/* "grit: error: ..." on stderr, one line */
void cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
