# grit run deposit, small: both containers, both VTK formats; the output
# folder holds every file, complete (tools/check_vtk.py: XML and, when
# installed, VTK itself), and a second run replaces it.
. "$(dirname "$0")/lib.sh"

check_output() { # DIR N
    local d=$1 n=$2
    [ -d "$d" ] || fail "$d missing"
    [ -e "$d.partial" ] && fail "$d.partial left behind"
    for f in grit-run.txt energy.csv stats.csv final.csv particles.pvd contacts.pvd shapes.pvd; do
        [ -s "$d/$f" ] || fail "$d/$f missing or empty"
    done
    [ "$(($(wc -l <"$d/final.csv") - 1))" = "$n" ] || fail "$d/final.csv does not hold $n spheres"
    /usr/bin/python3 "$SRC/tools/check_vtk.py" "$d" --stats "$d/stats.csv" --particles "$n" || fail "check_vtk $d"
}

expect_ok run deposit n=60 time=0.05 out=walls vtk_every=100 progress=0
grep -q "^grit run deposit: done" out.txt || fail "no summary"
for key in particles contacts steps "wall time" "energy (J)" "balance error" "broad phase" output; do
    grep -q -- "$key" out.txt || fail "summary lacks '$key'"
done
grep -q "particles     65: Sphere 60 Wall 5$" out.txt || fail "summary: particle count"
check_output walls 60
# every vtk_every steps, and the last step: frames 0, 100, ..., and the end
steps=$(awk -F, 'END {print $1}' walls/energy.csv)
frames=$(grep -c "<DataSet" walls/particles.pvd)
[ "$frames" = "$((steps / 100 + 1 + (steps % 100 != 0)))" ] || fail "$frames frames for $steps steps"
# the CSV headers carry units; grit.records reads them apart from the names
head -1 walls/stats.csv | grep -qx "step,time\[s\],dt\[s\],contacts,potential_pairs,rebuilds,sorts" ||
    fail "stats.csv header: $(head -1 walls/stats.csv)"
head -1 walls/final.csv | grep -qx "x\[m\],y\[m\],z\[m\],r\[m\]" || fail "final.csv header: $(head -1 walls/final.csv)"
PYTHONPATH="$SRC/python" /usr/bin/python3 - walls/energy.csv <<'PY' || fail "energy.csv: header units"
import sys
from grit.records import read_csv, energy_columns, energy_units
d = read_csv(sys.argv[1])
names = list(d)[2:-2]
assert list(d) == energy_columns(names) and "kinetic" in names and "massDamp" in names, list(d)
assert d.units == {"step": "", "rel_error": "", **energy_units(names)}, d.units
assert d["time"][-1] > 0.049
PY
grep -q "^n=60$" walls/grit-run.txt || fail "grit-run.txt does not record n=60"
grep -q "^dt=" walls/grit-run.txt || fail "grit-run.txt does not record dt"

# poured in by an inlet: the mass of 40 spheres of the mean size, about 40 spheres
expect_ok run deposit n=40 fill=inlet rate=0.05 time=0.2 out=poured progress=0
count=$(($(wc -l <poured/final.csv) - 1))
[ "$count" -ge 30 ] && [ "$count" -le 50 ] || fail "the inlet poured $count spheres, not about 40"
grep -q "^fill=inlet$" poured/grit-run.txt || fail "grit-run.txt does not record fill=inlet"
grep -Eq "energy \(J\).* inlet 0( |$)" out.txt || fail "summary: no inlet energy entry"

# the checker itself catches a damaged file
cp -r walls damaged
f=$(ls damaged/contacts_*.vtp | tail -1)
sed -i 's/NumberOfLines="[0-9]*"/NumberOfLines="999"/' "$f"
/usr/bin/python3 "$SRC/tools/check_vtk.py" damaged >/dev/null 2>&1 && fail "check_vtk missed a damaged file"

# tools/paraview_snapshot.py, where VTK's Python modules are installed
# (python3-vtk9) and, without a display, xvfb: it reads the last frame
if /usr/bin/python3 -c "import vtkmodules.vtkRenderingOpenGL2" 2>/dev/null && command -v xvfb-run >/dev/null; then
    expect_ok run deposit n=300 time=0.3 vtk_frames=2 out=pv progress=0
    env -u DISPLAY /usr/bin/python3 "$SRC/tools/paraview_snapshot.py" pv pv.png >pv.txt 2>&1 || fail "snapshot: $(tail -3 pv.txt)"
    contacts=$(awk -F, 'END {print $4}' pv/stats.csv)
    [ "$contacts" -gt 300 ] || fail "the bed has only $contacts contacts"
    grep -q "^paraview_snapshot: t = 0.3.*: 300 spheres, $contacts contacts" pv.txt ||
        fail "the snapshot read: $(grep '^paraview_snapshot' pv.txt)"
    [ -s pv.png ] || fail "the snapshot wrote no image: $(tail -3 pv.txt)"
    grep "^paraview_snapshot: t" pv.txt
else
    echo "skipped the snapshot check: VTK's Python modules (python3-vtk9) or xvfb-run missing"
fi

expect_ok run deposit n=60 time=0.05 container=facets vtk_format=ascii out=facets progress=0
grep -q "^note:" out.txt && fail "a note about replacing a folder that did not exist"
grep -q "particles     70: Sphere 60 Facet 10$" out.txt || fail "facets: particle count"
grep -q 'format="ascii"' facets/particles_000000000.vtp || fail "ascii format not used"
check_output facets 60

# the same run again replaces the earlier output
echo old >walls/stale.txt
expect_ok run deposit n=30 time=0.02 out=walls progress=0
# said before anything is replaced, naming the earlier run
head -1 out.txt | grep -qx "note: 'walls' holds the output of an earlier run (grit run deposit n=60 time=0.05 out=walls vtk_every=100 progress=0); this run replaces it when it completes (out=DIR keeps it)" ||
    fail "no note before replacing walls: $(head -1 out.txt)"
[ -e walls/stale.txt ] && fail "the earlier output was not replaced"
check_output walls 30
ls -d walls.old-* 2>/dev/null && fail "the earlier output was set aside and not removed"

# VTK output size: zlib by default (the files declare it), Float32 on request;
# every format read back by check_vtk (and by VTK when python3-vtk9 is there)
expect_ok run deposit n=60 steps=400 progress=0 out=vz
grep -q 'compressor="vtkZLibDataCompressor"' vz/particles_000000400.vtp || fail "the default VTK output is not compressed"
check_output vz 60
expect_ok run deposit n=60 steps=400 progress=0 vtk_format=binary out=vb
expect_ok run deposit n=60 steps=400 progress=0 vtk_precision=float32 out=vf
grep -q 'type="Float32" Name="radius"' vf/particles_000000400.vtp || fail "vtk_precision=float32: no Float32 radius"
check_output vf 60
zs=$(du -sb vz | cut -f1) bs=$(du -sb vb | cut -f1) fs=$(du -sb vf | cut -f1)
echo "VTK output of 60 spheres, 400 steps: binary $bs B, zlib $zs B, zlib+float32 $fs B"
[ "$zs" -lt "$bs" ] && [ "$fs" -lt "$zs" ] || fail "sizes: binary $bs, zlib $zs, zlib+float32 $fs"
rm -rf vz vb vf

# progress: periodic lines when stdout is not a terminal, one updating line on a terminal
expect_ok run deposit n=30 steps=3000 progress=1e-9 vtk_every=-1 save_every=-1 out=p
grep -q "^step [0-9]*/3000 .*t = .* s  Ek .* J  .*contacts [0-9]*  .* steps/s" out.txt || fail "no progress lines"
[ -e p/energy.csv ] || [ -e p/stats.csv ] && fail "save_every=-1 still wrote energy.csv or stats.csv"
ls p/*.pvd 2>/dev/null && fail "vtk_every=-1 still wrote VTK"
if command -v script >/dev/null; then
    script -qec "$GRIT run deposit n=30 steps=3000 vtk_every=-1 out=tty" /dev/null >tty.txt
    grep -q $'\rstep [0-9]*/3000' tty.txt || fail "no updating progress line on a terminal"
fi

# help comes from the declarations
expect_ok help run deposit --all
for key in n radius container young time vtk_every out dt gravity damping; do
    grep -q "^  $key  *= " out.txt || fail "help run deposit --all lacks $key"
done
grep -q "^  container *= walls .*one of walls|facets" out.txt || fail "help: container line"
expect_ok help run box
grep -q "^  kn *= 10000 *N/m" out.txt || fail "help: kn line"
expect_ok help run
grep -q "^  deposit" out.txt && grep -q "^  box" out.txt || fail "help run lists no preprocessors"
expect_ok help
expect_ok version
grep -q "^grit [0-9]" out.txt || fail "version"
finish
