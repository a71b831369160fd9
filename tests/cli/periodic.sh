# grit run periodic: a small periodic box compressed to the pressure and
# sheared; stress.csv holds the stress tensor and the cell's deformation,
# save=FILE the final state (loaded from Python and compared with the last
# row of stress.csv bit for bit, and continued there with `grit run restart`),
# grit plot draws stress.csv; bad input.
. "$(dirname "$0")/lib.sh"

small="n=64 time=0.3 vtk_every=-1 progress=0"
expect_ok run periodic $small out=per save=per.grit
grep -q "^grit run periodic: pressure .* Pa held from step [0-9]* .*: shearing at 1 1/s$" out.txt ||
    fail "no message at the start of the shear"
grep -q "^  stress (Pa)   p " out.txt || fail "summary lacks the stress"
grep -q "stress.csv" out.txt || fail "summary does not list stress.csv"
[ -d per ] && [ -s per/stress.csv ] && [ -s per/energy.csv ] && [ -s per.grit ] || fail "output missing"
cmp -s per.grit per/restart.grit || fail "save=per.grit differs from per/restart.grit"
[ -e per/stress.csv.partial ] && fail "stress.csv.partial left behind"
head -1 per/stress.csv | grep -q "^step,time\[s\],volume\[m^3\],p\[Pa\],s_xx\[Pa\],s_yy\[Pa\],s_zz\[Pa\],s_yz\[Pa\],s_xz\[Pa\],s_xy\[Pa\],F_xx,F_xy,F_xz,F_yx,F_yy,F_yz,F_zx,F_zy,F_zz,L_xx\[1/s\],L_xy\[1/s\],L_xz\[1/s\],L_yx\[1/s\],L_yy\[1/s\],L_yz\[1/s\],L_zx\[1/s\],L_zy\[1/s\],L_zz\[1/s\]$" ||
    fail "stress.csv header: $(head -1 per/stress.csv)"
[ "$(wc -l <per/stress.csv)" = "$(wc -l <per/energy.csv)" ] || fail "stress.csv and energy.csv have other row counts"
grep -q "^save=per.grit$" per/grit-run.txt || fail "grit-run.txt does not record save="

# the physics and the restart file, checked in Python
grit_python - per/stress.csv per.grit <<'PY' || fail "stress.csv / per.grit"
import sys
import numpy as np
import grit
from grit.records import read_csv
d = read_csv(sys.argv[1])
last = {k: v[-1] for k, v in d.items()}
# isotropic compression at first: -1/s on the diagonal, then simple shear with sigma_yy held at 5e4 Pa
assert d["L_xx"][1] == d["L_yy"][1] == d["L_zz"][1] == -1.0 and d["L_xy"][1] == 0, "compression at full rate"
assert last["L_xy"] == 1.0 and last["L_xx"] == last["L_zz"] == 0, "shearing at the end"
assert 0.02 < last["F_xy"] / last["F_yy"] < 0.15, f"shear strain {last['F_xy'] / last['F_yy']}"
assert abs(-last["s_yy"] - 5e4) < 0.1 * 5e4, f"normal stress {-last['s_yy']} held at 5e4 Pa"
# sigma_xy over the second half of the shear: with 64 spheres a single row swings with every rearrangement
# (seeds 1-4, two orders of the force sums: the last row 0.02 p to 0.29 p, the mean 0.047 p to 0.21 p)
shear = np.flatnonzero(np.asarray(d["L_xy"]) == 1.0)
sxy = float(np.mean(np.asarray(d["s_xy"])[shear[len(shear) // 2:]]))
assert sxy > 0.03 * last["p"] > 0, f"the sheared assembly resists (mean sigma_xy {sxy} > 0.03 p)"
assert abs(last["p"] + (last["s_xx"] + last["s_yy"] + last["s_zz"]) / 3) < 1e-9 * last["p"]
# the restart file holds the state of the last row, bit for bit
s = grit.Scene.load(sys.argv[2])
assert s.cell is not None and len(s.particles) == 64
F, sig = s.cell.trsf, s.stress()
for i, a in enumerate("xyz"):
    for j, b in enumerate("xyz"):
        assert F[i, j] == last[f"F_{a}{b}"], (a, b, F[i, j], last[f"F_{a}{b}"])
        assert s.cell.grad_v[i, j] == last[f"L_{a}{b}"]
for c in ("xx", "yy", "zz", "yz", "xz", "xy"):
    assert sig["xyz".index(c[0]), "xyz".index(c[1])] == last[f"s_{c}"], c
assert s.step == int(last["step"]) and s.cell.volume == last["volume"]
s.run(100)  # and it continues
print(f"periodic: shear strain {last['F_xy'] / last['F_yy']:.3f}, p {last['p']:.4g} Pa, "
      f"sigma_xy/-sigma_yy {last['s_xy'] / -last['s_yy']:.3f}; restart file = last row")
PY

# continued by `grit run restart`: the cell's controller goes on shearing with sigma_yy held (L_yy keeps
# changing), and stress.csv goes on from the saved step
expect_ok run restart file=per.grit steps=500 out=more vtk_every=-1 progress=0
[ -s more/stress.csv ] || fail "the continued periodic run wrote no stress.csv"
[ "$(sed -n 2p more/stress.csv | cut -d, -f1)" = "$(tail -1 per/stress.csv | cut -d, -f1)" ] ||
    fail "the continued stress.csv does not start at the saved step"
grit_python - more/stress.csv <<'PY' || fail "the restarted run does not continue the controller"
import sys
from grit.records import read_csv
d = read_csv(sys.argv[1])
assert all(v == 1.0 for v in d["L_xy"][1:]), "shearing at 1/s throughout"
assert len(set(d["L_yy"][1:])) > 5, "L_yy is steered, not frozen"
assert abs(-d["s_yy"][-1] - 5e4) < 0.1 * 5e4, f"normal stress {-d['s_yy'][-1]} held at 5e4 Pa"
PY

# the plot of stress.csv
expect_ok plot per/stress.csv
[ -s per/stress.png ] || fail "grit plot wrote no stress.png"

# constant volume, and a deposit with save= (an aperiodic restart file, no stress.csv)
expect_ok run periodic $small hold_pressure=false out=vol
# columns 21 and 24: L_xy and L_yy; while shearing (L_xy = 1) the volume is held (L_yy = 0)
awk -F, 'NR > 1 && $21 != 0 {n++; if ($24 != 0) bad = 1} END {exit bad || n < 10}' vol/stress.csv ||
    fail "hold_pressure=false: L_yy not 0 while shearing, or no shear"
expect_ok run deposit n=30 time=0.01 vtk_every=-1 progress=0 out=dep save=dep.grit
[ -s dep.grit ] || fail "deposit save= wrote nothing"
[ -e dep/stress.csv ] && fail "an aperiodic run wrote stress.csv"

# bad input: nothing written
expect_error 2 "parameter 'phi0' = 0.45 is too dense for 64 spheres" run periodic n=64 phi0=0.45
expect_error 2 "parameter 'phi0' = 0.75 is out of range: must be \(0, 0.5\]" run periodic phi0=0.75
expect_error 2 "parameter 'pressure' = -1 is out of range" run periodic pressure=-1
expect_error 2 "parameter 'n' = 4 is out of range" run periodic n=4
expect_error 2 "parameter 'servo_gain' = 1 is out of range" run periodic servo_gain=1

# help
expect_ok help run periodic --all
for key in n phi0 pressure compress_rate shear_rate hold_pressure servo_gain stress_tol young save out; do
    grep -q "^  $key  *= " out.txt || fail "help run periodic lacks $key"
done
expect_ok help run
grep -q "^  periodic" out.txt || fail "help run does not list periodic"
finish
