/* grit plot ARGS: hand over to the Python plotting module, grit.plot.
 *
 * The interpreter is $GRIT_PYTHON if set (python -m grit sets it to itself),
 * else /usr/bin/python3. The package is taken from $GRIT_PYTHON_DIR if set,
 * else from the folder installed with the program or the source tree of a
 * build-tree program (paths.h), which goes first on PYTHONPATH; else from
 * wherever the interpreter finds an installed grit package (pip). */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli.h"
#include "paths.h"

#define PYTHON "/usr/bin/python3"

/* Without a folder of our own: import grit.plot from wherever the
 * interpreter finds it, or say clearly that it is missing. */
static const char *const run_installed =
    "import importlib.util, runpy, sys\n"
    "if importlib.util.find_spec('grit') is None or importlib.util.find_spec('grit.plot') is None:\n"
    "    print('grit: error: the plotting module grit.plot was not found: not beside the program (%s) nor '\n"
    "          'installed for ' + sys.executable + '; set GRIT_PYTHON_DIR to the python/ folder of grit\\'s '\n"
    "          'source tree or install the package (pip install .)', file=sys.stderr)\n"
    "    sys.exit(2)\n"
    "runpy.run_module('grit.plot', run_name='__main__', alter_sys=True)\n";

static bool has_module(const char *dir)
{
    char p[PATH_MAX + 32];
    struct stat st;
    return (size_t)snprintf(p, sizeof p, "%s/grit/plot.py", dir) < sizeof p && stat(p, &st) == 0;
}

int cmd_plot(int argc, char **argv)
{
    char dir[PATH_MAX + 16], looked[2 * PATH_MAX + 80], script[sizeof looked + 1024];
    const char *env = getenv("GRIT_PYTHON_DIR");
    bool found;
    if (env && *env) {
        if (!has_module(env)) {
            cli_error("the plotting module grit.plot was not found (looked for grit/plot.py in GRIT_PYTHON_DIR=%s); "
                      "set GRIT_PYTHON_DIR to the repository's python/ folder",
                      env);
            return EXIT_BAD_INPUT;
        }
        snprintf(dir, sizeof dir, "%s", env);
        found = true;
    } else
        found = paths_python_dir(dir, sizeof dir, looked, sizeof looked);
    if (found) {
        const char *old = getenv("PYTHONPATH");
        char *path = malloc(strlen(dir) + (old ? strlen(old) : 0) + 2);
        if (!path) {
            cli_error("out of memory");
            return EXIT_RUN_FAILED;
        }
        sprintf(path, old && *old ? "%s:%s" : "%s", dir, old);
        setenv("PYTHONPATH", path, 1);
        free(path);
    }
    const char *python = getenv("GRIT_PYTHON");
    if (!python || !*python) python = PYTHON;
    char **args = calloc((size_t)argc + 4, sizeof *args);
    if (!args) return EXIT_RUN_FAILED;
    args[0] = "python3";
    if (found) {
        args[1] = "-m";
        args[2] = "grit.plot";
    } else {
        for (char *c = looked; *c; c++) /* it goes into a Python string literal */
            if (*c == '\'' || *c == '\\') *c = '?';
        snprintf(script, sizeof script, run_installed, looked);
        args[1] = "-c";
        args[2] = script;
    }
    for (int i = 0; i < argc; i++) args[3 + i] = argv[i];
    execv(python, args);
    cli_error("cannot run %s: %s%s", python, strerror(errno),
              strcmp(python, PYTHON) ? " (GRIT_PYTHON)" : " (Debian package python3)");
    free(args);
    return EXIT_RUN_FAILED;
}

int plot_figure(int argc, const char *const *argv)
{
    char dir[PATH_MAX + 16], looked[PATH_MAX + 80];
    if (!paths_python_dir(dir, sizeof dir, looked, sizeof looked)) return -1;
    const pid_t pid = fork();
    if (pid < 0) return -1;
    if (pid == 0) {
        const char *old = getenv("PYTHONPATH");
        char *path = malloc(strlen(dir) + (old ? strlen(old) : 0) + 2);
        if (!path) _exit(127);
        sprintf(path, old && *old ? "%s:%s" : "%s", dir, old);
        setenv("PYTHONPATH", path, 1);
        /* the figure is a by-product of the run: its messages would break the one-line rule */
        const int null = open("/dev/null", O_WRONLY);
        if (null >= 0) dup2(null, STDOUT_FILENO), dup2(null, STDERR_FILENO);
        char **args = calloc((size_t)argc + 4, sizeof *args);
        if (!args) _exit(127);
        args[0] = "python3", args[1] = "-m", args[2] = "grit.plot";
        for (int i = 0; i < argc; i++) args[3 + i] = (char *)argv[i];
        execv(PYTHON, args);
        _exit(127);
    }
    int status;
    if (waitpid(pid, &status, 0) != pid) return -1;
    return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -1;
}
