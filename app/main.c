/* grit: the command-line program.
 *
 *   grit run NAME [key=value ...]   run a preprocessor (a parameterised scene)
 *   grit calibrate [key=value ...]  = grit run calibrate (the concrete model's calibration)
 *   grit help [run [NAME]]          usage, the preprocessors, their parameters
 *   grit plot ARGS                  plots of a run's output (python3 -m grit.plot)
 *   grit version
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"

extern const preproc preproc_deposit, preproc_box, preproc_hopper, preproc_periodic, preproc_restart, preproc_pack,
    preproc_uniax, preproc_calibrate;
const preproc *const preprocs[] = {&preproc_deposit, &preproc_box,  &preproc_hopper, &preproc_periodic, &preproc_restart,
                                   &preproc_pack,    &preproc_uniax, &preproc_calibrate, NULL};

const preproc *preproc_find(const char *name)
{
    for (int i = 0; preprocs[i]; i++)
        if (!strcmp(preprocs[i]->name, name)) return preprocs[i];
    return NULL;
}

static void usage(FILE *f)
{
    fprintf(f, "grit %s -- a discrete element method engine\n\n"
               "usage:\n"
               "  grit run NAME [key=value ...]   run the scene generator NAME, writing into out=DIR\n"
               "  grit calibrate [key=value ...]  calibrate the concrete model (= grit run calibrate)\n"
               "  grit help run                   list the scene generators\n"
               "  grit help run NAME              list the parameters of NAME (defaults, units, ranges)\n"
               "  grit plot ARGS                  plot a run's output (python3 -m grit.plot ARGS)\n"
               "  grit version\n\n"
               "Parameters may also come from files: @FILE reads key=value lines ('#' comments); a key\n"
               "given on the command line after @FILE overrides the file's.\n"
               "Exit status: 0 done, 1 the run failed, 2 bad input (nothing written), 130 interrupted.\n"
               "Documentation: docs/cli.md\n",
            GRIT_VERSION);
}

static int cmd_help(int argc, char **argv)
{
    if (argc == 0) {
        usage(stdout);
        return 0;
    }
    if (strcmp(argv[0], "run") != 0) {
        cli_error("no help on '%s'; try 'grit help' or 'grit help run'", argv[0]);
        return EXIT_BAD_INPUT;
    }
    if (argc == 1) {
        printf("scene generators (grit run NAME [key=value ...]; grit help run NAME for the parameters):\n");
        for (int i = 0; preprocs[i]; i++) printf("  %-10s %s\n", preprocs[i]->name, preprocs[i]->summary);
        return 0;
    }
    const preproc *p = preproc_find(argv[1]);
    if (!p) {
        cli_error("unknown preprocessor '%s'; 'grit help run' lists them", argv[1]);
        return EXIT_BAD_INPUT;
    }
    job j;
    int rc = job_init(&j, p);
    if (rc) return rc;
    job_help(&j);
    return 0;
}

int main(int argc, char **argv)
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
        printf("grit %s\n", GRIT_VERSION);
        return 0;
    }
    cli_error("unknown command '%s'; 'grit help' lists the commands", cmd);
    return EXIT_BAD_INPUT;
}
