# pip install of a copy of the source tree into a virtual environment made
# with --system-site-packages from /usr/bin/python3, offline (--no-index
# --no-build-isolation: Debian's setuptools, wheel and numpy), then use the
# installed package only: it loads its own libgrit.so, `python -m grit` and the
# `grit` script run the program that came with it, whose data files and
# `grit plot` work.
#   bash tests/install/pip.sh BUILD_DIR SOURCE_DIR
# The engine is taken from BUILD_DIR (GRIT_BUILD_DIR of setup.py), already
# built by ctest's build, so that this takes seconds, not a full build.
set -u
BUILD=$1
SRC=$2
work=$(mktemp -d /tmp/grit-pip-test.XXXXXX)
. "$SRC/tests/install/lib.sh"

mkdir src
tar -C "$SRC" --exclude=./.git --exclude='./build*' --exclude='*.egg-info' --exclude=__pycache__ \
    --exclude='./*-out' --exclude=./out -cf - . | tar -C src -xf -
run venv /usr/bin/python3 -m venv --system-site-packages venv ||
    { echo "(Debian: apt-get install python3-venv)" >&2; exit 1; }
V=$work/venv
GRIT_BUILD_DIR=$BUILD run pip "$V/bin/pip" install --no-build-isolation --no-index --no-cache-dir ./src || exit 1
rm -rf src # nothing may come from the copy of the tree now

run show "$V/bin/pip" show grit && grep -q "^License: MIT" show.log || fail "pip show grit: no MIT licence"
site=$("$V/bin/python" -c 'import grit, os; print(os.path.dirname(grit.__file__))')
case "$site" in "$V"/*) ;; *) fail "import grit found $site, not the venv's copy" ;; esac
[ -f "$site/py.typed" ] && [ -f "$site/_tables.pyi" ] || fail "the package lacks py.typed or _tables.pyi"
run lib "$V/bin/python" -c 'import grit; print(grit.library().path)'
grep -q "^$site/_native/lib/libgrit.so" lib.log || fail "the package loads $(cat lib.log)"
run scene "$V/bin/python" -c '
import grit
s = grit.Scene(gravity=(0, 0, -9.81))
m = grit.FrictMat(density=2600, young=1e7)
s.add([grit.Wall(0, axis="z", sense=1, mat=m), grit.Sphere((0, 0, 0.0105), 0.01, mat=m)])
s.run(100)
print("ok", s.particles.pos[1][2])'
grep -q "^ok " scene.log || fail "a scene from the installed package: $(cat scene.log)"

run version "$V/bin/python" -m grit --version && grep -q "^grit [0-9]" version.log || fail "python -m grit --version"
run script "$V/bin/grit" --version && cmp -s version.log script.log || fail "the grit script differs from python -m grit"
run help "$V/bin/python" -m grit help run hopper
grep -q "stl *= $site/_native/share/grit/data/hopper.stl " help.log ||
    fail "the hopper's default STL is not the package's: $(grep 'stl ' help.log)"
run deposit "$V/bin/grit" run deposit n=20 steps=200 vtk_every=-1 out=dep
if /usr/bin/python3 -c 'import matplotlib' 2>/dev/null; then
    run plot "$V/bin/grit" plot dep/energy.csv && [ -s dep/energy.png ] || fail "grit plot from the installed package"
fi
run uninstall "$V/bin/pip" uninstall -y grit
[ -e "$site" ] && fail "pip uninstall left $site"

echo "pip-installed copy in $V: $fails failures"
[ "$fails" = 0 ]
