#!/usr/bin/env bash
# Build grit (Release) and run the demo, `grit run deposit`: 2000 spheres fall
# into a box and settle (about 8 s of CPU time); VTK and CSV files go to deposit-out/.
# Extra arguments are passed on, e.g. tools/run-demo.sh container=facets.
set -euo pipefail
cd "$(dirname "$0")/.."
. tools/debian-deps.sh
need_packages $BUILD_PACKAGES
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
# only what the demo needs: the program, and libgrit.so for the Python examples
cmake --build build -j"$JOBS" --target grit_cli grit_shared
build/grit run deposit "$@"
echo
echo "Open deposit-out/particles.pvd, contacts.pvd and shapes.pvd in ParaView (docs/output.md: how to draw"
echo "the spheres and the force chains); plot the energies with: build/grit plot deposit-out/energy.csv"
