/* grit plot ARGS: hand over to the Python plotting module, grit.plot, of the
 * repository's python/ folder.
 *
 * The folder is GRIT_PYTHON_DIR if set, else the first python/ holding
 * grit/plot.py (or a grit/plot/ package) found next to the executable or up
 * to three folders above it (build trees live inside the repository). */
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

#define PYTHON "/usr/bin/python3"

static bool has_module(const char *dir)
{
    static const char *const files[2] = {"grit/plot.py", "grit/plot/__init__.py"};
    for (int k = 0; k < 2; k++) {
        char p[PATH_MAX + 32];
        struct stat st;
        if ((size_t)snprintf(p, sizeof p, "%s/%s", dir, files[k]) < sizeof p && stat(p, &st) == 0) return true;
    }
    return false;
}

/* Fills dir; returns false (with what was searched in `looked`) if absent. */
static bool find_python_dir(char *dir, size_t len, char *looked, size_t looked_len)
{
    const char *env = getenv("GRIT_PYTHON_DIR");
    if (env && *env) {
        snprintf(dir, len, "%s", env);
        snprintf(looked, looked_len, "GRIT_PYTHON_DIR=%s", env);
        return has_module(dir);
    }
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0) {
        snprintf(looked, looked_len, "(cannot find the executable: %s)", strerror(errno));
        return false;
    }
    exe[n] = '\0';
    char *slash = strrchr(exe, '/');
    if (slash) *slash = '\0';
    snprintf(looked, looked_len, "python/ in %s and the 3 folders above", exe);
    for (int up = 0; up <= 3; up++) {
        if ((size_t)snprintf(dir, len, "%s/python", exe) < len && has_module(dir)) return true;
        slash = strrchr(exe, '/');
        if (!slash || slash == exe) break;
        *slash = '\0';
    }
    return false;
}

int cmd_plot(int argc, char **argv)
{
    char dir[PATH_MAX + 16], looked[PATH_MAX + 80];
    if (!find_python_dir(dir, sizeof dir, looked, sizeof looked)) {
        cli_error("the plotting module grit.plot was not found (looked for grit/plot.py in %s); set "
                  "GRIT_PYTHON_DIR to the repository's python/ folder",
                  looked);
        return EXIT_BAD_INPUT;
    }
    const char *old = getenv("PYTHONPATH");
    char *path = malloc(strlen(dir) + (old ? strlen(old) : 0) + 2);
    if (!path) {
        cli_error("out of memory");
        return EXIT_RUN_FAILED;
    }
    sprintf(path, old && *old ? "%s:%s" : "%s", dir, old);
    setenv("PYTHONPATH", path, 1);
    free(path);
    char **args = calloc((size_t)argc + 4, sizeof *args);
    if (!args) return EXIT_RUN_FAILED;
    args[0] = "python3";
    args[1] = "-m";
    args[2] = "grit.plot";
    for (int i = 0; i < argc; i++) args[3 + i] = argv[i];
    execv(PYTHON, args);
    cli_error("cannot run %s: %s (Debian package python3)", PYTHON, strerror(errno));
    free(args);
    return EXIT_RUN_FAILED;
}

int plot_figure(int argc, const char *const *argv)
{
    char dir[PATH_MAX + 16], looked[PATH_MAX + 80];
    if (!find_python_dir(dir, sizeof dir, looked, sizeof looked)) return -1;
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
