# cmake --install into a temporary prefix, then use the installed copy only:
# the program (version, help, manual page, the hopper's STL from the installed
# data folder), the C library from a small program (examples/quickstart.c)
# built via pkg-config and via find_package(grit), shared and static, and the
# Python package that cmake --install puts beside them.
#   bash tests/install/install.sh BUILD_DIR SOURCE_DIR C_COMPILER LIBDIR
set -u
BUILD=$1
SRC=$2
CC=$3
LIBDIR=$4
work=$(mktemp -d /tmp/grit-install-test.XXXXXX)
. "$SRC/tests/install/lib.sh"

P=$work/prefix
run install cmake --install "$BUILD" --prefix "$P" || exit 1
for f in bin/grit "$LIBDIR/libgrit.so" "$LIBDIR/libgrit.so.0" "$LIBDIR/libgrit.a" include/grit/grit.h \
    include/grit/export.h include/grit/version.h "$LIBDIR/pkgconfig/grit.pc" "$LIBDIR/cmake/grit/gritConfig.cmake" \
    "$LIBDIR/cmake/grit/gritConfigVersion.cmake" share/man/man1/grit.1 share/grit/data/hopper.stl \
    share/doc/grit/LICENSE share/doc/grit/docs/cli.md share/grit/python/grit/__init__.py; do
    [ -e "$P/$f" ] || fail "not installed: $f"
done
if find "$P" -name grit-source-tree | grep -q .; then fail "grit-source-tree was installed"; fi
grep -rqs "$SRC" "$P/bin" "$P/$LIBDIR" "$P/share/grit" && fail "an installed file names the source tree $SRC"

# ---- the program
G=$P/bin/grit
run version "$G" --version && grep -q "^grit [0-9]*\.[0-9]*\.[0-9]*$" version.log || fail "grit --version: $(cat version.log)"
grep -q "MIT" version.log || fail "grit --version names no licence"
run help "$G" help run hopper
grep -q "stl *= $P/share/grit/data/hopper.stl " help.log ||
    fail "the hopper's default STL is not the installed one: $(grep 'stl ' help.log)"
run hopper "$G" run hopper capsules=2 ellipsoids=2 spheres=2 steps=20 out=hop
[ -s hop/grit-run.txt ] || fail "grit run hopper from the installed copy wrote no output"
cmp -s "$P/share/man/man1/grit.1" <("$G" help --man) || fail "the installed man page is not the program's"
grep -q '^\.SH SCENE GENERATORS' "$P/share/man/man1/grit.1" || fail "man page without its generators"
if command -v groff >/dev/null; then
    groff -man -Tutf8 -ww -z "$P/share/man/man1/grit.1" >man.log 2>&1 || fail "groff: grit.1 has errors"
    [ -s man.log ] && { fail "groff warns about grit.1"; cat man.log >&2; }
fi

# ---- the library: only the grit_ functions the headers declare are exported
others=$(nm -D --defined-only "$P/$LIBDIR/libgrit.so" | awk '$2 ~ /^[TDBR]$/ && $3 !~ /^grit_/ {print $3}')
[ -z "$others" ] || fail "libgrit.so exports internal symbols: $(echo $others | head -c 300)"

# ---- a C program against the installed copy: pkg-config
cp "$SRC/examples/quickstart.c" .
export PKG_CONFIG_PATH=$P/$LIBDIR/pkgconfig
run pc-version pkg-config --modversion grit && grep -qx "$("$G" --version | head -1 | cut -d' ' -f2)" pc-version.log ||
    fail "pkg-config --modversion grit: $(cat pc-version.log)"
# shellcheck disable=SC2046
if run pc-build "$CC" -std=c11 -Wall -Wextra -Wpedantic -Werror quickstart.c -o qs-pc $(pkg-config --cflags --libs grit); then
    run qs-pc env LD_LIBRARY_PATH="$P/$LIBDIR" ./qs-pc && grep -q "^t = [0-9.]* s: sphere 0 at z = " qs-pc.log ||
        fail "quickstart via pkg-config: $(cat qs-pc.log)"
fi
# the headers compile as C++ too (extern "C")
if command -v c++ >/dev/null; then
    printf '#include <grit/grit.h>\n#include <grit/arrays.h>\n#include <grit/reflect.h>\nint main() { return grit_version() == 0; }\n' >cxx.cc
    # shellcheck disable=SC2046
    run cxx c++ -Wall -Wextra -Werror cxx.cc -o cxx $(pkg-config --cflags --libs grit) &&
        run cxx-run env LD_LIBRARY_PATH="$P/$LIBDIR" ./cxx
fi

# ---- find_package(grit): shared and static
mkdir app
cp quickstart.c app/
cat >app/CMakeLists.txt <<'CM'
cmake_minimum_required(VERSION 3.16)
project(quickstart C)
find_package(grit 0.1 REQUIRED)
add_executable(qs_shared quickstart.c)
target_link_libraries(qs_shared PRIVATE grit::grit)
add_executable(qs_static quickstart.c)
target_link_libraries(qs_static PRIVATE grit::grit_static)
CM
if run cm-configure cmake -S app -B app/build -DCMAKE_C_COMPILER="$CC" -DCMAKE_PREFIX_PATH="$P" &&
    run cm-build cmake --build app/build; then
    run qs-shared app/build/qs_shared && grep -q "^t = [0-9.]* s: sphere 0 at z = " qs-shared.log ||
        fail "quickstart via find_package (shared): $(cat qs-shared.log)"
    ldd app/build/qs_shared | grep -q "$P/$LIBDIR/libgrit.so.0" || fail "qs_shared does not use the installed libgrit.so"
    run qs-static app/build/qs_static && grep -q "^t = [0-9.]* s: sphere 0 at z = " qs-static.log ||
        fail "quickstart via find_package (static): $(cat qs-static.log)"
    ldd app/build/qs_static | grep -q libgrit && fail "qs_static is linked to libgrit.so"
    cmp -s qs-shared.log qs-static.log || fail "shared and static quickstart differ"
fi

# ---- the Python package installed beside them
export PYTHONPATH=$P/share/grit/python
run py-lib /usr/bin/python3 -c 'import grit._lib as L, os; print(os.path.realpath(L.get().path))'
grep -q "^$P/$LIBDIR/libgrit.so" py-lib.log || fail "the Python package loads $(cat py-lib.log)"
run py-version /usr/bin/python3 -m grit --version && cmp -s version.log py-version.log || fail "python3 -m grit --version"

echo "installed copy in $P: $fails failures"
[ "$fails" = 0 ]
