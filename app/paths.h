/* grit command line: the files that come with the program.
 *
 * An installed grit finds its data files (share/grit/data/) and the Python
 * package of `grit plot` at fixed paths relative to its own folder, so an
 * installation can be moved (cmake --install --prefix anywhere, a Python
 * package that carries the program). A grit in its CMake build tree finds
 * them in the source tree named by the file grit-source-tree beside it, which
 * CMake writes and never installs. No path is compiled in. */
#ifndef GRIT_PATHS_H
#define GRIT_PATHS_H

#include <stdbool.h>
#include <stddef.h>

/* The data file `name` (e.g. "hopper.stl"): $GRIT_DATA_DIR/name if that
 * variable is set, else the installed data folder, else the source tree's
 * examples/data/. Returns true with the path in out, or false with the
 * places searched in `looked`. */
bool paths_data_file(const char *name, char *out, size_t len, char *looked, size_t looked_len);

/* The folder holding the Python package grit (grit/plot.py): the installed
 * one, else the source tree's python/. False if neither exists (looked as
 * above). $GRIT_PYTHON_DIR is handled by `grit plot` itself. */
bool paths_python_dir(char *out, size_t len, char *looked, size_t looked_len);

#endif
