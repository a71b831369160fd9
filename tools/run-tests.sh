#!/usr/bin/env bash
# Build and run every test: ctest in Release, ctest again under
# AddressSanitizer + UndefinedBehaviorSanitizer, pytest for python/tests, and a
# short libFuzzer run of the parsers (tools/fuzz.sh, clang).
# Installs the Debian packages that are missing. Build folders: build/ and
# build-asan/.
set -euo pipefail
cd "$(dirname "$0")/.."
. tools/debian-deps.sh
need_packages $BUILD_PACKAGES python3 python3-numpy python3-matplotlib python3-pytest
# MPI runs and their tests (tests/mpi/): OpenMPI
need_packages openmpi-bin libopenmpi-dev
# the installation tests (tests/install/): pkg-config, and pip into a virtual environment, offline
need_packages pkg-config python3-venv python3-setuptools python3-wheel
# optional: lets tools/check_vtk.py (run by the cli tests) read the output with VTK itself
want_packages python3-vtk9
# optional: tools/paraview_snapshot.py (python/tests/test_snapshot.py) renders through X; Xvfb gives it a
# display on a machine without one (9 MB once python3-vtk9 and its Mesa are there)
want_packages xvfb
# optional: python/tests/test_stubs.py checks with mypy that type checkers see the generated attributes
want_packages python3-mypy

echo "== Release build and tests"
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DGRIT_WERROR=ON >/dev/null
cmake --build build -j"$JOBS"
(cd build && ctest --output-on-failure)

echo "== AddressSanitizer + UndefinedBehaviorSanitizer build and tests"
cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=Debug -DGRIT_SANITIZE=ON -DGRIT_WERROR=ON >/dev/null
cmake --build build-asan -j"$JOBS"
(cd build-asan && ctest --output-on-failure)

if [ -d python/tests ]; then
    echo "== Python tests"
    GRIT_LIB="$PWD/build/libgrit.so" /usr/bin/python3 -m pytest -q python/tests
fi
echo "== Fuzzing the parsers (${GRIT_FUZZ_SECONDS:-20} s per harness; docs/reliability.md has the long run)"
tools/fuzz.sh "${GRIT_FUZZ_SECONDS:-20}"
echo "== all tests passed"
