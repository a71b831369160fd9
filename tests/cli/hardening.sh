# Issue 15 at the command line: absurd parameters are refused before anything
# is written, destinations are checked before the first step, and no input
# or checkpoint is deleted before its replacement is on disk.
. "$(dirname "$0")/lib.sh"

# the step count time / dt beyond any integer: was one step and success
expect_error 2 "'time' = 1e\+300 s and 'dt' = .* steps: more than one run takes" run deposit n=20 time=1e300
expect_error 2 "'time' = 1 s and 'dt' = 1e-30 s make 1e\+30 steps" run deposit n=20 dt=1e-30 time=1
expect_error 2 "'time' = 1e\+300 s and 'dt' = 1e-300 s make inf steps" run deposit n=20 dt=1e-300 time=1e300
# vectors: exactly three fields
expect_error 2 "parameter 'gravity' = '0,,0,-9.81' is not a vector" run deposit gravity=0,,0,-9.81
expect_error 2 "parameter 'damping' = '1e-320' is too small" run deposit damping=1e-320
# a box wider than INT_MAX lattice cells: the facet walls were 0.13 mm tall
expect_ok run deposit container=facets box_x=1e6 box_y=1e6 n=20 steps=1 vtk_format=ascii vtk_every=1 out=wide progress=0
/usr/bin/python3 - <<'PY' || fail "facet walls of a wide deposit box are too low"
import re, glob
t = open(sorted(glob.glob("wide/shapes_*.vtp"))[0]).read()
z = [float(v) for v in re.search(r"<Points>.*?>(.*?)</DataArray>", t, re.S).group(1).split()][2::3]
assert max(z) > 0.005, max(z)
PY
rm -rf wide
# spheres of csv= sticking out of the box of `grit run box` (or outside it): were taken without a word; now a
# warning with the count and the first of them, and the run goes on (exit 0)
printf 'x,y,z,r\n0.01,0.01,0.01,0.002\n0.02,0.01,-0.5,0.002\n0.0285,0.01,0.01,0.002\n0.02,0.02,0.0199,0.002\n' >outside.csv
"$GRIT" run box csv=outside.csv box_x=0.03 box_y=0.03 steps=2 vtk_every=-1 progress=0 out=outside >out.txt 2>err.txt ||
    fail "box with spheres outside: exit $?"
grep -q "^grit: warning: csv=outside.csv: 2 of 4 spheres stick out of the box 0 <= x <= 0.03, 0 <= y <= 0.03, z >= 0 (the first: sphere 2 of the file at (0.02, 0.01, -0.5), r = 0.002)" err.txt ||
    fail "no warning for spheres outside the box: $(cat err.txt)"
[ "$(wc -l <err.txt)" = 1 ] || fail "more than one warning line: $(cat err.txt)"
printf 'x,y,z,r\n0.01,0.01,0.01,0.002\n0.02,0.02,0.0019999,0.002\n' >inside.csv   # pressed into the floor by 5e-5 r: fine
expect_ok run box csv=inside.csv box_x=0.03 box_y=0.03 steps=2 vtk_every=-1 progress=0 out=inside
rm -rf outside inside outside.csv inside.csv
finish
