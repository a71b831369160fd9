"""python -m grit ARGS: the grit program (grit run, grit help, grit plot, ...).

Runs the program installed with this package (pip install: the copy inside
the package; cmake --install: bin/grit of the same prefix; a source tree: its
build/grit), so that `python -m grit run deposit` behaves as `grit run
deposit`. Its `grit plot` uses this interpreter and this package.
"""
from __future__ import annotations

import os
import pathlib
import sys
from typing import Optional, Sequence

from ._lib import installed_path


def program() -> Optional[str]:
    """The path of the grit program that goes with this package, or None."""
    installed = installed_path("PROGRAM")
    if installed and os.access(installed, os.X_OK):
        return installed
    root = pathlib.Path(__file__).resolve().parent.parent.parent
    built = root / "build" / "grit"
    if (root / "CMakeLists.txt").exists() and os.access(built, os.X_OK):
        return str(built)
    return None


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Replace this process by the grit program with the arguments argv
    (default: the command line); returns 2 if there is no program."""
    args = sys.argv[1:] if argv is None else list(argv)
    prog = program()
    if prog is None:
        print("grit: error: the grit program was not found beside this package "
              f"({pathlib.Path(__file__).resolve().parent}); install the package with pip, or build grit "
              "(cmake -S . -B build && cmake --build build) in its source tree", file=sys.stderr)
        return 2
    env = dict(os.environ)
    env.setdefault("GRIT_PYTHON", sys.executable)
    env.setdefault("GRIT_PYTHON_DIR", str(pathlib.Path(__file__).resolve().parent.parent))
    sys.stdout.flush()
    os.execve(prog, [prog] + args, env)
    return 1  # not reached


if __name__ == "__main__":
    sys.exit(main())
