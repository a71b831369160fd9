"""pip install .: the Python package grit with the engine inside it.

Metadata is in pyproject.toml; this file only builds the C side. build_py
configures and builds libgrit.so and the grit program with CMake (in
build/python-cmake/ of the source tree, or in $GRIT_BUILD_DIR, an existing
CMake build folder, if set), installs them (cmake --install, component
runtime) into grit/_native/ of the package, and writes grit/_paths.py, which
tells the package where they are. The package then loads that very library
and `python -m grit` (or the `grit` script) runs that very program, whose
data files (the hopper's STL) come with it. grit is under the MIT licence
(LICENSE).
"""
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile

from setuptools import setup
from setuptools.command.build_py import build_py
from setuptools.dist import Distribution

HERE = os.path.dirname(os.path.abspath(__file__))


def version():
    """The version, from include/grit/version.h (the one place it is written)."""
    with open(os.path.join(HERE, "include", "grit", "version.h")) as f:
        return re.search(r'^#define GRIT_VERSION "([0-9.]+)"', f.read(), re.M).group(1)


def compiler_mismatch(cache_text, cc):
    """The C compiler a CMake cache was configured with, if $CC (cc) names another one; else None. CMake
    keeps a folder's first compiler whatever CC says later, so a pip install with another CC would
    otherwise build silently with the old one."""
    if not cc:
        return None
    m = re.search(r"^CMAKE_C_COMPILER:[A-Z]+=(.*)$", cache_text, re.M)
    if not m or not m.group(1).strip():
        return None
    cached = m.group(1).strip()
    wanted = shutil.which(cc.split()[0]) or cc.split()[0]
    if os.path.realpath(wanted) == os.path.realpath(cached):
        return None
    return cached


def run(cmd):
    print("grit setup.py:", " ".join(cmd), flush=True)
    subprocess.check_call(cmd)


class BuildWithEngine(build_py):
    """build_py that also builds and copies in the C library and program."""

    def run(self):
        super().run()
        build = os.environ.get("GRIT_BUILD_DIR") or os.path.join(HERE, "build", "python-cmake")
        jobs = os.environ.get("JOBS") or str(min(2, os.cpu_count() or 1))
        cache = os.path.join(build, "CMakeCache.txt")
        if os.path.exists(cache):
            with open(cache, errors="replace") as f:
                old = compiler_mismatch(f.read(), os.environ.get("CC"))
            if old and os.environ.get("GRIT_BUILD_DIR"):
                sys.exit(f"grit setup.py: GRIT_BUILD_DIR={build} was configured with the C compiler {old}, "
                         f"not CC={os.environ['CC']}; use another folder or remove it")
            if old:
                print(f"grit setup.py: {build} was configured with {old}; CC={os.environ['CC']}: configuring "
                      "it again", flush=True)
                shutil.rmtree(build)
        if not os.path.exists(cache):
            run(["cmake", "-S", HERE, "-B", build, "-DCMAKE_BUILD_TYPE=Release", "-DBUILD_TESTING=OFF",
                 "-DGRIT_INSTALL_PYTHON=OFF"])
        run(["cmake", "--build", build, "-j", jobs, "--target", "grit_shared", "grit_cli", "grit_man"])
        native = os.path.join(self.build_lib, "grit", "_native")
        shutil.rmtree(native, ignore_errors=True)
        with tempfile.TemporaryDirectory() as stage:
            run(["cmake", "--install", build, "--prefix", stage, "--component", "runtime"])
            libs = [p for p in glob.glob(os.path.join(stage, "lib*", "**", "libgrit.so.*"), recursive=True)
                    if not os.path.islink(p)]
            if len(libs) != 1:
                sys.exit(f"grit setup.py: expected one libgrit.so.* in {stage}, found {libs}")
            os.makedirs(os.path.join(native, "lib"))
            # one file under the soname (a wheel holds no symbolic links)
            shutil.copy2(libs[0], os.path.join(native, "lib", "libgrit.so.%s" % version().split(".")[0]))
            shutil.copytree(os.path.join(stage, "bin"), os.path.join(native, "bin"))
            shutil.copytree(os.path.join(stage, "share"), os.path.join(native, "share"))
        with open(os.path.join(self.build_lib, "grit", "_paths.py"), "w") as f:
            f.write("# written by pip install (setup.py): the library and program installed with this package,\n"
                    "# relative to its folder\n"
                    f'LIBRARY = "_native/lib/libgrit.so.{version().split(".")[0]}"\n'
                    'PROGRAM = "_native/bin/grit"\n')


class BinaryDistribution(Distribution):
    """The wheel holds compiled code: tagged for this platform."""

    def has_ext_modules(self):
        return True


setup(
    version=version(),
    cmdclass={"build_py": BuildWithEngine},
    distclass=BinaryDistribution,
    options={"build": {"build_base": os.path.join("build", "python-setuptools")}},
)
