"""pytest setup: import grit from this source tree and locate the C build.

Run from the repository root:  /usr/bin/python3 -m pytest python/tests
The library is found as the package finds it (GRIT_LIB, else build/)."""
import os
import pathlib
import sys

import pytest

HERE = pathlib.Path(__file__).resolve().parent
PYDIR = HERE.parent
ROOT = PYDIR.parent
sys.path.insert(0, str(PYDIR))
sys.path.insert(0, str(HERE))


@pytest.fixture(scope="session")
def lib():
    import grit
    return grit.library()


@pytest.fixture(scope="session")
def grit_exe(lib):
    """The grit program built with the library (next to libgrit.so)."""
    exe = pathlib.Path(lib.path).parent / "grit"
    if not exe.exists():
        pytest.fail(f"no grit program next to {lib.path}: build it (cmake --build build)")
    return str(exe)


@pytest.fixture
def env_with_grit():
    """Environment for subprocesses that import grit from this tree."""
    env = dict(os.environ)
    env["PYTHONPATH"] = str(PYDIR) + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    env["MPLBACKEND"] = "Agg"
    return env


@pytest.fixture
def scene():
    import grit
    s = grit.Scene(dt=1e-5, gravity=(0, 0, -9.81), track_energy=True)
    yield s
    s.close()
