# grit run box: spheres from a CSV file in a box of 5 walls with the
# benchmark's contact constants; the benchmark scene box-2000 itself when
# ../shared is there.
. "$(dirname "$0")/lib.sh"

expect_ok run box csv="$SRC/tests/cli/data/spheres.csv" steps=400 out=small progress=0
grep -q "particles     41: Sphere 36 Wall 5$" out.txt || fail "particle count"
grep -q "of dt = 2.5e-06 s" out.txt || fail "the benchmark's time step"
grep -q "^kn=10000$" small/grit-run.txt && grep -q "^cn=0.1$" small/grit-run.txt || fail "pair parameters"
/usr/bin/python3 "$SRC/tools/check_vtk.py" small --stats small/stats.csv --particles 36 || fail "check_vtk"
# the final state is a valid input again
expect_ok run box csv=small/final.csv steps=10 out=again progress=0

# ../shared beside the repository (a worktree may sit one level deeper)
bench=
for d in "${GRIT_SHARED:-}" "$SRC/../shared" "$SRC/../../shared"; do
    [ -n "$d" ] && [ -f "$d/bench/scenes/box-2000-settled.csv" ] && bench=$d/bench/scenes/box-2000-settled.csv && break
done
if [ -n "$bench" ]; then
    expect_ok run box csv="$bench" steps=200 out=bench progress=0
    grep -q "particles     2005: Sphere 2000 Wall 5$" out.txt || fail "box-2000: particle count"
    /usr/bin/python3 "$SRC/tools/check_vtk.py" bench --stats bench/stats.csv --particles 2000 || fail "check_vtk"
    # the settled bed stays settled: walls at the spheres' extent, no blow-up
    grep -E -q "kinetic [0-9.e+-]+e-0[6-9]|kinetic [0-9.e+-]+e-1" out.txt || fail "box-2000 is not at rest"
else
    echo "skipped box-2000: no ../shared/bench/scenes/box-2000-settled.csv (set GRIT_SHARED)"
fi
finish
