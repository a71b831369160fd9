# Feedback during a run: the progress line's physics (kinetic energy,
# unbalanced force ratio, contacts), the stop when settled (stop_unbalanced)
# at a step that does not depend on the machine's speed, and the summary's
# hint when the pair list is rebuilt nearly every step.
. "$(dirname "$0")/lib.sh"

run="n=300 steps=16232 vtk_every=-1"
expect_ok run deposit $run progress=1e-9 stop_unbalanced=0.3 out=a
grep -E -q "^step [0-9]+/16232 \( *[0-9]+%\)  t = [0-9.e-]+ s  Ek [0-9.e+-]+ J  unbalanced [0-9.e+-]+  contacts [0-9]+  " out.txt ||
    fail "progress line: $(grep '^step' out.txt | tail -n 1)"
at=$(sed -n 's/^grit run deposit: done, settled at step \([0-9]*\): unbalanced force ratio \([0-9.e-]*\) < stop_unbalanced = 0.3$/\1/p' out.txt)
[ -n "$at" ] || fail "no 'settled' in the summary: $(grep done out.txt)"
[ -n "$at" ] && [ "$at" -lt 16232 ] && [ $((at % 82)) = 0 ] || fail "settled at step '$at': not before the end on the rows' cadence (82)"
grep -q "^  steps         $at of dt" out.txt || fail "summary steps: $(grep '  steps' out.txt)"
tail -n 1 a/energy.csv | grep -q "^$at," || fail "energy.csv does not end at step $at"
# the same run on a busier or quieter machine stops at the same step
expect_ok run deposit $run progress=0 stop_unbalanced=0.3 out=b
cmp -s a/final.csv b/final.csv || fail "stop_unbalanced: two runs stop in different states"
# without contacts the ratio means nothing: a cloud in free fall never stops
expect_ok run deposit n=20 steps=200 progress=1e-9 stop_unbalanced=10 out=c
grep -q "settled" out.txt && fail "a falling cloud was taken as settled"
grep -q "unbalanced" out.txt && fail "a falling cloud shows an unbalanced force ratio"
grep -q "^step 200/200 (100%)" out.txt || fail "free fall progress: $(grep '^step' out.txt | tail -n 1)"

# a Verlet distance far too thin: a hint names the key
expect_ok run deposit n=100 steps=500 verlet_dist=1e-9 progress=0 vtk_every=-1 out=d
grep -q "^  hint          the pair list was rebuilt every 1.0 steps on average: a larger Verlet distance (verlet_dist=" out.txt ||
    fail "no rebuild hint: $(grep -A1 'broad phase' out.txt)"
expect_ok run deposit n=100 steps=500 progress=0 vtk_every=-1 out=e
grep -q "hint" out.txt && fail "a hint with the default Verlet distance: $(grep hint out.txt)"
finish
