# grit run hopper, short: capsules, ellipsoids and spheres poured into the
# STL hopper of examples/data/ onto a wall. The VTK output holds every frame,
# complete, with every capsule and ellipsoid drawn as a closed surface
# (tools/check_vtk.py --bodies); ParaView, where installed, reads it. Bad STL
# input is one error line naming the file and line, and nothing is written.
# (xvfb-run -a -n N: the search for a free X display starts at a number of
# this test's own; two tests searching from the same number at once may take
# the same display.)
. "$(dirname "$0")/lib.sh"

small="capsules=12 ellipsoids=10 spheres=6 progress=0"
expect_ok run hopper $small time=0.12 vtk_every=400 out=h
grep -q "^grit run hopper: done" out.txt || fail "no summary"
grep -q "particles     125: Sphere 6 Wall 1 Facet 96 Capsule 12 Ellipsoid 10$" out.txt ||
    fail "summary: particle count: $(grep particles out.txt)"
for f in grit-run.txt energy.csv stats.csv final.csv particles.pvd contacts.pvd shapes.pvd; do
    [ -s "h/$f" ] || fail "h/$f missing or empty"
done
/usr/bin/python3 "$SRC/tools/check_vtk.py" h --stats h/stats.csv --particles 6 --bodies 22 || fail "check_vtk h"
grep -q "^capsules=12$" h/grit-run.txt || fail "grit-run.txt does not record capsules=12"
grep -q "^stl=.*examples/data/hopper.stl$" h/grit-run.txt || fail "grit-run.txt does not record the STL file"
# the particles left the hopper's collar: the lowest is below its top at 0.08 + 0.13 m
awk -F, 'NR > 1 && $3 < 0.2 {low++} END {exit !(low > 0)}' h/final.csv || fail "no sphere fell into the hopper"

# without damping and friction nothing dissipates: the energy balance closes
# (5e-5 at 0.3 x the critical step; Woo's geometry, woo_geom=true: 9e-4)
expect_ok run hopper $small time=0.3 damping=0 tan_phi=0 dt_safety=0.3 vtk_every=-1 out=e
err=$(sed -n 's/.*balance error //p' out.txt)
awk -v e="$err" 'BEGIN {exit !(e < 3e-4 && e > -3e-4)}' || fail "energy balance error $err without damping"
echo "no damping, no friction: balance error $err"

# the same scene from an ASCII STL in mm (the generator's other format) and
# from a binary one in m (stl_scale=1)
/usr/bin/python3 "$SRC/tools/make_hopper_stl.py" --ascii hopper-ascii.stl >/dev/null
expect_ok run hopper $small steps=50 vtk_every=-1 stl=hopper-ascii.stl out=a
grep -q "Facet 96 " out.txt || fail "ASCII STL: facet count"
/usr/bin/python3 - <<'EOF'
import struct
with open("hopper-ascii.stl") as f:
    tris = [[float(x) * 1e-3 for x in ln.split()[1:]] for ln in f if ln.strip().startswith("vertex")]
with open("hopper-m.stl", "wb") as f:
    f.write(b" " * 80 + struct.pack("<I", len(tris) // 3))
    for k in range(0, len(tris), 3):
        f.write(struct.pack("<12fH", 0, 0, 0, *tris[k], *tris[k + 1], *tris[k + 2], 0))
EOF
expect_ok run hopper $small steps=50 vtk_every=-1 stl=hopper-m.stl stl_scale=1 out=m
grep -q "Facet 96 " out.txt || fail "binary STL in m: facet count"
# the same run up to the rounding of float32 vertices in the binary file
/usr/bin/python3 -c "
import numpy as np
a, m = (np.loadtxt(f, delimiter=',', skiprows=1) for f in ('a/final.csv', 'm/final.csv'))
assert a.shape == m.shape == (6, 4) and np.abs(a - m).max() < 1e-7, np.abs(a - m).max()
" || fail "ASCII mm and binary m hoppers do not give the same run"

# bad input: one line naming the file (and the line), exit 2, nothing written
expect_error 2 "missing.stl.*cannot open STL file" run hopper stl=missing.stl
printf 'solid x\n facet normal 0 0 1\n  outer loop\n   vertex 0 0 0\n   vertex 1 0 zero\n' >bad.stl
expect_error 2 "bad.stl:5: .*'zero' is not a number" run hopper stl=bad.stl
head -c 200 "$SRC/examples/data/hopper.stl" >cut.stl
expect_error 2 "cut.stl" run hopper stl=cut.stl
rm -f bad.stl cut.stl
expect_error 2 "capsules', 'ellipsoids', 'spheres' are all 0" run hopper capsules=0 ellipsoids=0 spheres=0
expect_error 2 "do not fit in the hopper" run hopper radius=0.02

if command -v pvbatch >/dev/null && command -v xvfb-run >/dev/null && /usr/bin/python3 -c "import paraview" 2>/dev/null; then
    pvbatch_run "$SRC/tools/paraview_shapes.py" h h.png
    grep -q "^paraview: t = 0.12.*: 6 spheres; .*Facet [1-9][0-9]*, Capsule [1-9][0-9]*, Ellipsoid [1-9][0-9]*" pv.txt ||
        fail "ParaView read: $(grep '^paraview' pv.txt || tail -3 pv.txt)"
    [ -s h.png ] || fail "ParaView wrote no image: $(tail -3 pv.txt)"
    grep "^paraview: t" pv.txt
else
    echo "skipped the ParaView check: pvbatch, xvfb-run or ParaView's Python module missing"
fi

expect_ok help run hopper --all
for key in capsules ellipsoids spheres radius aspect stl stl_scale half_thick outlet_z young damping; do
    grep -q "^  $key  *= " out.txt || fail "help run hopper lacks $key"
done
expect_ok help run
grep -q "^  hopper" out.txt || fail "help run does not list hopper"
finish
