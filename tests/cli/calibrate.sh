# grit calibrate: a calibration of a small periodic cell strained fast (the
# per-run lines, calibration.csv/json, material.txt read back by grit run
# uniax as @FILE with the same figures), parameter files (@FILE: comments,
# a line number in every error, the command line overriding the file), and
# bad input refused before anything is written.
. "$(dirname "$0")/lib.sh"

small="n=150 radius=0.001 rate_tension=2 rate_compression=-10 progress=0"
targets="target_young=25e9 target_poisson=0.19 target_ft=4e6 target_fc_ft=8 target_gf=2500 tolerance=0.05"
expect_ok calibrate $small $targets specimens=1 out=cal
grep -q "^grit calibrate: converged after" out.txt || fail "no 'converged' line"
grep -q "^elastic  1 " out.txt || fail "no line for the first elastic run"
grep -q "^fresh    1 " out.txt || fail "no line for the fresh specimen"
for f in grit-run.txt calibration.csv calibration.json material.txt; do
    [ -s "cal/$f" ] || fail "cal/$f missing"
done
runs=$(($(wc -l <cal/calibration.csv) - 1))
grep -q "\"runs\": $((runs - 1))," cal/calibration.json || fail "calibration.csv has $runs rows, the json another count of runs (+ fresh)"
grep -q "^young=" cal/material.txt && grep -q "^yield_surface=" cal/material.txt || fail "material.txt lacks the material or the law"

# the file feeds grit run uniax: the same figures as the calibration's best run
expect_ok run uniax @cal/material.txt $small variant=periodic vtk_every=-1 plot=false out=ux
grit_python - cal ux <<'PY' || fail "material.txt does not reproduce the calibration"
import json, sys
cal = json.load(open(f"{sys.argv[1]}/calibration.json"))
res = json.load(open(f"{sys.argv[2]}/results.json"))
best = cal["calibration_specimen"]
for k in ("young", "poisson", "ft", "fc", "gf"):
    assert res[k] == best[k] or abs(res[k] / best[k] - 1) < 1e-12, (k, res[k], best[k])
print("material.txt reproduces", {k: best[k] for k in ("young", "ft", "gf")})
PY

# parameter files
printf '# a comment\nn=150   radius=0.001 # after a value\n\nrate_tension=2\n' >p.txt
printf 'n=150\n\nradiuss=1\n' >p2.txt
expect_error 2 "p2.txt:3: unknown parameter 'radiuss'.*did you mean 'radius'" run uniax @p2.txt
printf 'n=150\nn=200\n' >p3.txt
expect_error 2 "p3.txt:2: parameter 'n' is given twice in the file" run uniax @p3.txt
printf 'n=-5\n' >p4.txt
expect_error 2 "p4.txt:1: .*'n' = -5" run uniax @p4.txt
printf 'n=150 garbage\n' >p5.txt
expect_error 2 "p5.txt:1: expected key=value, found 'garbage'" run uniax @p5.txt
printf 'n=150\0radius=1\n' >p6.txt
expect_error 2 "p6.txt' holds a NUL byte" run uniax @p6.txt
expect_error 2 "cannot read the parameter file 'missing.txt'" run uniax @missing.txt
expect_error 2 "'@' needs a file name" run uniax @
head -c 1100000 /dev/zero | tr '\0' ' ' >big.txt
expect_error 2 "'big.txt' is larger than 1 MiB" run uniax @big.txt
# the command line after the file overrides it (n=8 is too few spheres for a specimen: the error shows which won)
expect_error 2 "'n' = 7" run uniax @p.txt n=7
# the record of the run lists the parameters the file gave
printf 'n=30\nradius=0.001\n' >pp.txt
expect_ok run pack @pp.txt n=40 out=pk
grep -q "^n=40$" pk/grit-run.txt && grep -q "^radius=0.001$" pk/grit-run.txt || fail "grit-run.txt does not list the file's parameters"

# bad input: nothing written
expect_error 2 "'target_poisson' = 0.6 .*out of range" calibrate target_poisson=0.6
expect_error 2 "'target_fc' and 'target_fc_ft' are both nan" calibrate target_fc_ft=nan
expect_error 2 "'target_fc' = 1e\+06 Pa is not above 'target_ft'" calibrate target_fc=1e6
expect_error 2 "needs both runs \(tests=both\)" calibrate tests=tension
expect_error 2 "'stop_tension' = 0.5 must be above 0 and below 'gf_fraction'" calibrate stop_tension=0.5
expect_error 2 "unconfined specimens" calibrate iso_prestress=-1e6
expect_error 2 "grit calibrate saves no scene" calibrate save=x.grit
expect_error 2 "'fresh_seed' = 2 is the seed of calibration specimen 2" calibrate fresh_seed=2
expect_error 2 "'vtk_every' is a run control of the other preprocessors" calibrate vtk_every=10
expect_error 2 "unknown parameter 'confinements'" calibrate confinements=0,-1e6
expect_error 2 "is one packing: further specimens are packed from seeds" calibrate packing=pk/packing.csv
[ $fails = 0 ] && echo "calibrate: all checks passed"
exit $fails
