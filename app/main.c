/* grit: the command-line program.
 *
 *   grit run NAME [@FILE] [key=value ...]   run a preprocessor (a parameterised scene)
 *   grit calibrate [@FILE] [key=value ...]  = grit run calibrate (the concrete model's calibration)
 *   grit help [run] [NAME] [--all]  usage, the preprocessors, their parameters
 *   grit plot ARGS                  plots of a run's output (python3 -m grit.plot)
 *   grit version, grit --version
 *   grit help --man                 the manual page grit.1 (roff)
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "mpi_job.h"

#ifndef GRIT_COMPILER /* from CMake */
#define GRIT_COMPILER "an unknown compiler"
#endif
#ifndef GRIT_TARGET
#define GRIT_TARGET "baseline"
#endif

extern const preproc preproc_deposit, preproc_box, preproc_hopper, preproc_periodic, preproc_restart, preproc_pack,
    preproc_uniax, preproc_calibrate, preproc_silo;
const preproc *const preprocs[] = {&preproc_deposit, &preproc_box,  &preproc_hopper, &preproc_periodic, &preproc_restart,
                                   &preproc_pack,    &preproc_uniax, &preproc_calibrate, &preproc_silo,
                                   NULL};

const preproc *preproc_find(const char *name)
{
    for (int i = 0; preprocs[i]; i++)
        if (!strcmp(preprocs[i]->name, name)) return preprocs[i];
    return NULL;
}

static const char *suggest_preproc(const char *name)
{
    const char *names[16];
    int n = 0;
    for (int i = 0; preprocs[i] && n < 16; i++) names[n++] = preprocs[i]->name;
    return cli_suggest(name, names, n);
}

void cli_unknown_preproc(const char *name)
{
    const char *guess = suggest_preproc(name);
    char hint[64] = "";
    if (guess) snprintf(hint, sizeof hint, " (did you mean '%s'?)", guess);
    cli_error("unknown preprocessor '%s'%s; 'grit help run' lists them", name, hint);
}

static const char *const commands[] = {"run", "calibrate", "help", "plot", "version"};

static void unknown_command(const char *cmd)
{
    char hint[96] = "";
    const char *guess = cli_suggest(cmd, commands, (int)(sizeof commands / sizeof commands[0]));
    if (preproc_find(cmd)) /* grit deposit: the scene without the command */
        snprintf(hint, sizeof hint, " (did you mean 'grit run %s'?)", cmd);
    else if (guess)
        snprintf(hint, sizeof hint, " (did you mean '%s'?)", guess);
    cli_error("unknown command '%s'%s; 'grit help' lists the commands", cmd, hint);
}

static void usage(FILE *f)
{
    fprintf(f, "grit %s -- a discrete element method engine\n\n"
               "usage:\n"
               "  grit run NAME [key=value ...]   run the scene generator NAME, writing into out=DIR\n"
               "  grit calibrate [key=value ...]  calibrate the concrete model (= grit run calibrate)\n"
               "  grit help run                   list the scene generators\n"
               "  grit help NAME [--all]          the parameters of NAME (defaults, units, ranges): its own;\n"
               "                                  with --all also the common run, scene and law keys\n"
               "  grit plot ARGS                  plot a run's output (python3 -m grit.plot ARGS)\n"
               "  grit version                    the version and how this program was built\n"
               "  grit help --man                 the manual page (roff: grit help --man | man -l -)\n\n"
               "Parameters may also come from files: @FILE reads key=value lines ('#' comments); a key\n"
               "given on the command line after @FILE overrides the file's.\n"
               "Exit status: 0 done, 1 the run failed, 2 bad input (nothing written), 130 interrupted.\n"
               "Documentation: man grit; docs/cli.md (installed in share/doc/grit/docs/)\n",
            GRIT_VERSION);
}

/* grit help [--man | run [NAME] | NAME] [--all] */
static int cmd_help(int argc, char **argv)
{
    bool all = false;
    const char *words[3];
    int n = 0;
    for (int i = 0; i < argc; i++)
        if (!strcmp(argv[i], "--all")) all = true;
        else if (n < 3) words[n++] = argv[i];
    if (n == 0) {
        usage(stdout);
        return 0;
    }
    if (!strcmp(words[0], "--man")) {
        cli_man_page(stdout);
        return 0;
    }
    const char *name = words[0];
    if (!strcmp(words[0], "run")) {
        if (n == 1) {
            printf("scene generators (grit run NAME [key=value ...]; grit help NAME for the parameters):\n");
            for (int i = 0; preprocs[i]; i++) printf("  %-10s %s\n", preprocs[i]->name, preprocs[i]->summary);
            return 0;
        }
        name = words[1];
    }
    const preproc *p = preproc_find(name);
    if (!p && name == words[0]) { /* grit help NAME: a scene, or a command */
        for (size_t c = 0; c < sizeof commands / sizeof commands[0]; c++)
            if (!strcmp(name, commands[c])) {
                usage(stdout);
                return 0;
            }
        const char *guess = suggest_preproc(name);
        char hint[64] = "";
        if (guess) snprintf(hint, sizeof hint, " (did you mean '%s'?)", guess);
        cli_error("no help on '%s'%s; 'grit help' lists the commands, 'grit help run' the scene generators", name,
                  hint);
        return EXIT_BAD_INPUT;
    }
    if (!p) {
        cli_unknown_preproc(name);
        return EXIT_BAD_INPUT;
    }
    job j;
    int rc = job_init(&j, p);
    if (rc) return rc;
    job_help(&j, all);
    return 0;
}

static int dispatch(int argc, char **argv);

int main(int argc, char **argv)
{
    job_mpi_begin(&argc, &argv); /* (started by mpirun: the ranks of one run) */
    const int rc = dispatch(argc, argv);
    job_mpi_end();
    return rc;
}

static int dispatch(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return EXIT_BAD_INPUT;
    }
    const char *cmd = argv[1];
    if (!strcmp(cmd, "run")) return cmd_run(argc - 2, argv + 2);
    if (!strcmp(cmd, "calibrate")) return cmd_run(argc - 1, argv + 1);
    if (!strcmp(cmd, "help") || !strcmp(cmd, "--help") || !strcmp(cmd, "-h")) return cmd_help(argc - 2, argv + 2);
    if (!strcmp(cmd, "plot")) return cmd_plot(argc - 2, argv + 2);
    if (!strcmp(cmd, "version") || !strcmp(cmd, "--version")) {
        printf("grit %s\nlibrary %s, built with %s for the %s instruction set; MPI runs (mpirun -np K grit run "
               "...): %s\n"
               "MIT licence: free to use, change and pass on, with the copyright notice (LICENSE)\n",
               GRIT_VERSION, grit_version(), GRIT_COMPILER,
               strcmp(GRIT_TARGET, "baseline") ? "building machine's (-march=native)" : "architecture's baseline",
#ifdef GRIT_HAVE_MPI
               "yes"
#else
               "no (built without MPI)"
#endif
        );
        return 0;
    }
    unknown_command(cmd);
    return EXIT_BAD_INPUT;
}
